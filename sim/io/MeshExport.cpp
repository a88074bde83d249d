#include "sim/io/MeshExport.h"

#include <assimp/scene.h>
#include <assimp/Exporter.hpp>

#include <memory>

#include "sim/core/AtomicFile.h"

namespace hg {

aiMesh* newAiMesh(const TriangleMesh& mesh, const std::string& name) {
  auto* out = new aiMesh();
  out->mName = aiString(name);
  out->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  out->mMaterialIndex = 0;
  out->mNumVertices = unsigned(mesh.positions.size());
  out->mVertices = new aiVector3D[out->mNumVertices];
  for (unsigned i = 0; i < out->mNumVertices; ++i)
    out->mVertices[i] = {mesh.positions[i].x, mesh.positions[i].y, mesh.positions[i].z};
  if (mesh.normals.size() == mesh.positions.size()) {
    out->mNormals = new aiVector3D[out->mNumVertices];
    for (unsigned i = 0; i < out->mNumVertices; ++i)
      out->mNormals[i] = {mesh.normals[i].x, mesh.normals[i].y, mesh.normals[i].z};
  }
  if (mesh.uvs.size() == mesh.positions.size()) {
    out->mTextureCoords[0] = new aiVector3D[out->mNumVertices];
    out->mNumUVComponents[0] = 2;
    for (unsigned i = 0; i < out->mNumVertices; ++i) out->mTextureCoords[0][i] = {mesh.uvs[i].x, mesh.uvs[i].y, 0.0f};
  }
  out->mNumFaces = unsigned(mesh.triangleCount());
  out->mFaces = new aiFace[out->mNumFaces];
  for (unsigned f = 0; f < out->mNumFaces; ++f) {
    out->mFaces[f].mNumIndices = 3;
    out->mFaces[f].mIndices = new unsigned[3]{mesh.indices[3 * f], mesh.indices[3 * f + 1], mesh.indices[3 * f + 2]};
  }
  return out;
}

Status exportMesh(const TriangleMesh& mesh, const std::filesystem::path& path, const std::string& formatId) {
  if (mesh.indices.size() % 3 != 0)
    return Error{"cannot export " + path.string() + ": index count is not a multiple of 3"};
  // aiScene owns raw arrays and frees them in its destructor (new[] / delete[]).
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("root");
  scene->mRootNode->mNumMeshes = 1;
  scene->mRootNode->mMeshes = new unsigned int[1]{0};
  scene->mNumMaterials = 1;
  scene->mMaterials = new aiMaterial* [1] { new aiMaterial() };
  scene->mNumMeshes = 1;
  scene->mMeshes = new aiMesh* [1] { newAiMesh(mesh, "") };

  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), formatId);
  if (blob == nullptr)
    return outputError("cannot export " + path.string() + " as '" + formatId + "': " + exporter.GetErrorString());
  if (blob->next != nullptr)
    return outputError("cannot export " + path.string() + ": format '" + formatId + "' writes several files");
  return writeFileAtomically(path, std::span<const std::byte>(static_cast<const std::byte*>(blob->data), blob->size));
}

}  // namespace hg
