#include "sim/io/MeshImport.h"

#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include "sim/io/AssimpRead.h"

namespace hg {

Result<TriangleMesh> importWeldedMesh(const std::filesystem::path& path, const ImportFrame& frame) {
  Assimp::Importer importer;
  const aiScene* scene = readWithAssimp(importer, path, aiProcess_Triangulate | aiProcess_PreTransformVertices);
  if (scene == nullptr) return Error{path.string() + ": cannot read mesh (" + importer.GetErrorString() + ")"};
  TriangleMesh mesh;
  std::map<std::tuple<float, float, float>, std::uint32_t> welded;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* in = scene->mMeshes[m];
    std::vector<std::uint32_t> remap(in->mNumVertices);
    for (unsigned i = 0; i < in->mNumVertices; ++i) {
      const aiVector3D p = in->mVertices[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
        return Error{path.string() + ": vertex " + std::to_string(i) + " of mesh " + std::to_string(m) +
                     " is not finite"};
      const auto [it, inserted] = welded.try_emplace({p.x, p.y, p.z}, std::uint32_t(mesh.positions.size()));
      if (inserted) mesh.positions.emplace_back(p.x, p.y, p.z);
      remap[i] = it->second;
    }
    for (unsigned f = 0; f < in->mNumFaces; ++f) {
      if (in->mFaces[f].mNumIndices != 3) continue;  // points and lines
      for (int k = 0; k < 3; ++k) mesh.indices.push_back(remap[in->mFaces[f].mIndices[k]]);
    }
  }
  if (mesh.indices.empty()) return Error{path.string() + ": no triangles"};
  transformMesh(mesh, importTransform(resolveFileFrame(*scene, path, frame), frame));
  computeVertexNormals(mesh);
  return mesh;
}

}  // namespace hg
