#pragma once
/// Mesh export through assimp (formats by assimp id: "objnomtl", "obj", "ply", "stl",
/// "gltf2", "glb2", ...), written atomically.
#include <filesystem>
#include <span>
#include <string>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

struct aiMaterial;
struct aiMesh;

namespace hg {

/// A new assimp mesh (positions, normals and UVs when present, triangles) named `name`,
/// owned by the caller (an aiScene deletes its meshes). Shared by every assimp export.
aiMesh* newAiMesh(const TriangleMesh& mesh, const std::string& name);

/// A new assimp material named `name` whose base and diffuse colour is `color` (linear RGB),
/// owned by the caller: the OBJ exporter writes the diffuse one as the .mtl's Kd, the glTF 2
/// exporter the base one as pbrMetallicRoughness.baseColorFactor.
aiMaterial* newColorMaterial(const std::string& name, glm::vec3 color);

/// Writes `mesh` to `path` in the given assimp export format. The default writes a
/// Wavefront OBJ with normals and UVs and no material file.
Status exportMesh(const TriangleMesh& mesh, const std::filesystem::path& path,
                  const std::string& formatId = "objnomtl");

/// One object of a multi-object Wavefront OBJ (objectsAsObj): a named mesh and the diffuse
/// colour of its material.
struct ObjObject {
  std::string name;       ///< object, group and material name: unique, no white space
  TriangleMesh mesh;      ///< positions, normals and UVs when present, triangles
  glm::vec3 color{0.8f};  ///< linear RGB in [0, 1], the material's Kd
};

/// A Wavefront OBJ and its material library, as text.
struct ObjText {
  std::string obj;  ///< starts with `mtllib <mtlFileName>`; per object `o`, `g` and `usemtl` its name
  std::string mtl;  ///< one `newmtl <name>` with its `Kd` per object
};

/// The objects as one OBJ (assimp's "obj" exporter, one mesh and one material per object)
/// and its .mtl. assimp writes a `g` line per mesh; an `o` line with the same name is added
/// before it, because Blender's and most tools' OBJ importers split objects at `o` and
/// only optionally at `g`. `mtlFileName` is the .mtl's file name as the OBJ refers to it
/// (next to the OBJ). Errors: no objects, a name that is empty, repeated or has white space.
Result<ObjText> objectsAsObj(std::span<const ObjObject> objects, const std::string& mtlFileName);

}  // namespace hg
