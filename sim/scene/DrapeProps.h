#pragma once
/// A drape scene's boxes and props made ready for the cloth (scene keys "boxes" and
/// "props", sim/scene/DrapeScene.h): their surfaces in the world, the analytic boxes
/// (docs/methods.md section 7) and the sphere trees of the props (section 6), in SceneProps.
#include <cstddef>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/scene/DrapeScene.h"

namespace hg {

/// A prop's surface in its own frame (scaled); errors name the scene key and the file.
Result<TriangleMesh> scenePropMesh(const DrapeScene& scene, std::size_t prop);
/// Builds every box and prop of the scene; errors name the scene key ("props[1].mesh: ...").
Result<SceneProps> buildSceneProps(const DrapeScene& scene);

}  // namespace hg
