// Atomic output files and mesh export through assimp.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <assimp/Importer.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/core/AtomicFile.h"
#include "sim/io/MeshExport.h"

namespace hg {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hg_output_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, WritesAndReplacesWholeFiles) {
  const fs::path path = scratch("a/b/file.txt");
  ASSERT_TRUE(writeFileAtomically(path, "first"));
  EXPECT_EQ(slurp(path), "first");
  ASSERT_TRUE(writeFileAtomically(path, "second"));
  EXPECT_EQ(slurp(path), "second");
  for (const auto& entry : fs::directory_iterator(path.parent_path()))
    EXPECT_EQ(entry.path().filename(), "file.txt") << "temporary file left behind";
}

TEST(AtomicFile, FailureKeepsTheOldFileAndNamesThePath) {
  const fs::path blocker = scratch("blocker");
  ASSERT_TRUE(writeFileAtomically(blocker, "a file, not a folder"));
  const Status s = writeFileAtomically(blocker / "out.txt", "x");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("blocker"), std::string::npos) << s.error().message;
  EXPECT_EQ(slurp(blocker), "a file, not a folder");
}

TEST(MeshExport, ObjRoundTripsThroughAssimp) {
  SquareClothSpec spec;
  spec.resolution = 6;
  const TriangleMesh mesh = makeSquareSheet(spec).value();
  const fs::path path = scratch("cloth.obj");
  ASSERT_TRUE(exportMesh(mesh, path));
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path.string(), aiProcess_JoinIdenticalVertices);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  ASSERT_EQ(scene->mNumMeshes, 1u);
  EXPECT_EQ(scene->mMeshes[0]->mNumFaces, mesh.triangleCount());
  EXPECT_EQ(scene->mMeshes[0]->mNumVertices, mesh.vertexCount());
  EXPECT_TRUE(scene->mMeshes[0]->HasNormals());
  EXPECT_TRUE(scene->mMeshes[0]->HasTextureCoords(0));
  EXPECT_EQ(slurp(path).find("mtllib"), std::string::npos);
  // And it reads back as a cloth: same topology once welded.
  auto imported = importClothMesh(path);
  ASSERT_TRUE(imported) << imported.error().message;
  EXPECT_EQ(imported->vertexCount(), mesh.vertexCount());
  EXPECT_EQ(imported->triangleCount(), mesh.triangleCount());
  EXPECT_TRUE(buildClothModel(*imported, {}));
}

TEST(MeshExport, ObjectsAreSeparateObjectsWithTheirColoursInTheMaterialFile) {
  SquareClothSpec spec;
  spec.resolution = 4;
  TriangleMesh front = makeSquareSheet(spec).value(), back = front;
  for (glm::vec3& p : back.positions) p.z -= 0.1f;
  const ObjObject objects[] = {{"tshirt", front, {0.62f, 0.20f, 0.08f}}, {"skirt", back, {0.10f, 0.25f, 0.62f}}};
  auto text = objectsAsObj(objects, "outfit.mtl");
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_NE(text->obj.find("mtllib outfit.mtl\n"), std::string::npos);
  EXPECT_NE(text->obj.find("o tshirt\ng tshirt\nusemtl tshirt\n"), std::string::npos);
  EXPECT_NE(text->obj.find("o skirt\ng skirt\nusemtl skirt\n"), std::string::npos);
  EXPECT_NE(text->mtl.find("newmtl skirt\nKd "), std::string::npos) << text->mtl;

  // Read back with assimp from the two files: two meshes, each with its own material colour.
  const fs::path obj = scratch("outfit.obj");
  ASSERT_TRUE(writeFileAtomically(obj, text->obj));
  ASSERT_TRUE(writeFileAtomically(scratch("outfit.mtl"), text->mtl));
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(obj.string(), 0);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  ASSERT_EQ(scene->mNumMeshes, 2u);
  for (unsigned m = 0; m < 2; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    EXPECT_EQ(mesh->mNumFaces, front.triangleCount());
    aiString name;
    scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_NAME, name);
    aiColor3D kd;
    scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_COLOR_DIFFUSE, kd);
    const ObjObject& expected = std::string(name.C_Str()) == "tshirt" ? objects[0] : objects[1];
    EXPECT_NEAR(kd.r, expected.color.r, 1e-5f) << name.C_Str();
    EXPECT_NEAR(kd.b, expected.color.b, 1e-5f) << name.C_Str();
    // Each mesh has its own object's positions (the skirt's lie 0.1 m behind): compare the
    // mean z of the face corners (the sheet's centre, by its symmetry).
    double z = 0.0, expectedZ = 0.0;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) z += mesh->mVertices[v].z / double(mesh->mNumVertices);
    for (const glm::vec3& p : expected.mesh.positions) expectedZ += p.z / double(expected.mesh.positions.size());
    EXPECT_NEAR(z, expectedZ, 1e-4) << name.C_Str();
  }
}

TEST(MeshExport, ObjObjectNamesMustBeUniqueAndWithoutWhiteSpace) {
  const TriangleMesh none;
  EXPECT_FALSE(objectsAsObj({}, "a.mtl"));
  const ObjObject twice[] = {{"a", none, {}}, {"a", none, {}}};
  auto repeated = objectsAsObj(twice, "a.mtl");
  ASSERT_FALSE(repeated);
  EXPECT_NE(repeated.error().message.find("'a' is used twice"), std::string::npos) << repeated.error().message;
  const ObjObject spaced[] = {{"my shirt", none, {}}};
  auto blank = objectsAsObj(spaced, "a.mtl");
  ASSERT_FALSE(blank);
  EXPECT_NE(blank.error().message.find("white space"), std::string::npos) << blank.error().message;
}

TEST(MeshImport, UnreadableFileNamesIt) {
  const fs::path path = scratch("broken.obj");
  ASSERT_TRUE(writeFileAtomically(path, "v 0 0 0\nf 1 2 3\nthis is not obj\n"));
  auto mesh = importClothMesh(path);
  ASSERT_FALSE(mesh);
  EXPECT_NE(mesh.error().message.find("broken.obj"), std::string::npos) << mesh.error().message;
}

}  // namespace
}  // namespace hg
