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

TEST(MeshImport, UnreadableFileNamesIt) {
  const fs::path path = scratch("broken.obj");
  ASSERT_TRUE(writeFileAtomically(path, "v 0 0 0\nf 1 2 3\nthis is not obj\n"));
  auto mesh = importClothMesh(path);
  ASSERT_FALSE(mesh);
  EXPECT_NE(mesh.error().message.find("broken.obj"), std::string::npos) << mesh.error().message;
}

}  // namespace
}  // namespace hg
