#pragma once
// The one way the product reads a file with assimp (meshes, avatars, snow obstacles).
#include <filesystem>

#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "sim/core/TriangleMesh.h"
#include "sim/io/ImportFrame.h"

namespace hg {

/// importer.ReadFile(path, postProcessFlags | aiProcess_ValidateDataStructure), with
/// assimp's internal consistency checks reported as a failed read (nullptr, the reason in
/// importer.GetErrorString()) instead of ending the process: see AssimpRead.cpp.
const aiScene* readWithAssimp(Assimp::Importer& importer, const std::filesystem::path& path, unsigned postProcessFlags);

/// The up axis and scale of the file `path` read as `scene`: `frame`'s where it gives
/// them, else what the file says (see ImportFrame).
FileFrame resolveFileFrame(const aiScene& scene, const std::filesystem::path& path, const ImportFrame& frame);

}  // namespace hg
