#include "sim/io/MeshExport.h"

#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>

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

namespace {

Status checkObjectNames(std::span<const ObjObject> objects) {
  if (objects.empty()) return Error{"an OBJ needs at least one object"};
  std::set<std::string> seen;
  for (const ObjObject& o : objects) {
    const bool blank = o.name.empty() || std::any_of(o.name.begin(), o.name.end(), [](char c) {
                         return c == ' ' || c == '\t' || c == '\n' || c == '\r';
                       });
    if (blank) return Error{"OBJ object name '" + o.name + "' is empty or has white space"};
    if (!seen.insert(o.name).second) return Error{"OBJ object name '" + o.name + "' is used twice"};
    if (o.mesh.indices.size() % 3 != 0) return Error{"OBJ object '" + o.name + "': index count is not a multiple of 3"};
  }
  return Status::success();
}

/// assimp's OBJ text with `mtllib` naming `mtlFileName` and an `o` line before each `g`.
std::string withObjectLines(const std::string& assimpObj, const std::string& mtlFileName) {
  std::istringstream in(assimpObj);
  std::ostringstream out;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("mtllib ")) {
      out << "mtllib " << mtlFileName << '\n';
      continue;
    }
    if (line.starts_with("g ")) out << "o " << line.substr(2) << '\n';
    out << line << '\n';
  }
  return out.str();
}

}  // namespace

aiMaterial* newColorMaterial(const std::string& name, glm::vec3 color) {
  auto* material = new aiMaterial();
  const aiString materialName(name);
  material->AddProperty(&materialName, AI_MATKEY_NAME);
  const aiColor4D rgba(color.r, color.g, color.b, 1.0f);
  material->AddProperty(&rgba, 1, AI_MATKEY_BASE_COLOR);
  material->AddProperty(&rgba, 1, AI_MATKEY_COLOR_DIFFUSE);
  return material;
}

Result<ObjText> objectsAsObj(std::span<const ObjObject> objects, const std::string& mtlFileName) {
  if (Status s = checkObjectNames(objects); !s) return s.error();
  // aiScene owns raw arrays and frees them in its destructor (new[] / delete[]).
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("root");
  const auto count = unsigned(objects.size());
  scene->mNumMeshes = scene->mNumMaterials = count;
  scene->mMeshes = new aiMesh*[count];
  scene->mMaterials = new aiMaterial*[count];
  scene->mRootNode->mNumMeshes = count;
  scene->mRootNode->mMeshes = new unsigned[count];
  for (unsigned i = 0; i < count; ++i) {
    scene->mMeshes[i] = newAiMesh(objects[i].mesh, objects[i].name);
    scene->mMeshes[i]->mMaterialIndex = i;
    scene->mMaterials[i] = newColorMaterial(objects[i].name, objects[i].color);
    scene->mRootNode->mMeshes[i] = i;
  }
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), "obj");
  if (blob == nullptr) return Error{std::string("cannot write the OBJ: ") + exporter.GetErrorString()};
  if (blob->next == nullptr || blob->next->next != nullptr)
    return Error{"cannot write the OBJ: assimp's 'obj' exporter did not write an OBJ and one material file"};
  ObjText text;
  text.obj = withObjectLines(std::string(static_cast<const char*>(blob->data), blob->size), mtlFileName);
  text.mtl.assign(static_cast<const char*>(blob->next->data), blob->next->size);
  return text;
}

}  // namespace hg
