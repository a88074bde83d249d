#pragma once
/// Mesh export through assimp (formats by assimp id: "objnomtl", "obj", "ply", "stl",
/// "gltf2", "glb2", ...), written atomically.
#include <filesystem>
#include <string>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

struct aiMesh;

namespace hg {

/// A new assimp mesh (positions, normals and UVs when present, triangles) named `name`,
/// owned by the caller (an aiScene deletes its meshes). Shared by every assimp export.
aiMesh* newAiMesh(const TriangleMesh& mesh, const std::string& name);

/// Writes `mesh` to `path` in the given assimp export format. The default writes a
/// Wavefront OBJ with normals and UVs and no material file.
Status exportMesh(const TriangleMesh& mesh, const std::filesystem::path& path,
                  const std::string& formatId = "objnomtl");

}  // namespace hg
