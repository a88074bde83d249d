#pragma once
/// Reading closed meshes (props, grasp objects, sphere-tree sources) with assimp: every
/// format assimp reads, triangulated, node transforms applied, and vertices welded by
/// exact position, so a file whose faces carry their own normals or UVs (OBJ exporters
/// split vertices along UV seams and hard edges) still has closed edges.
#include <filesystem>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/io/AssimpRead.h"

namespace hg {

/// The triangles of the file at `path`, welded; area-weighted vertex normals. Errors name
/// the file: unreadable (assimp's reason), a non-finite vertex, no triangles.
/// `frame` puts it into the world (up axis, units; sim/io/AssimpRead.h).
Result<TriangleMesh> importWeldedMesh(const std::filesystem::path& path,
                                      const ImportFrame& frame = ImportFrame::asStored());

}  // namespace hg
