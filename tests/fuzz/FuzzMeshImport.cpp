// Fuzz target: the mesh import path (assimp, then welding and the checks): the cloth mesh
// reader (sim/cloth/ClothModel.h importClothMesh) and the welded prop / grasp mesh reader
// (sim/io/MeshImport.h). The first byte picks the file's format by its extension.
#include "sim/cloth/ClothModel.h"
#include "sim/io/MeshImport.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"mesh.obj", "mesh.ply", "mesh.stl", "mesh.off"};
  const auto path = hg::fuzz::asFile(data + 1, size - 1, kNames[data[0] % 4]);
  if (auto mesh = hg::importClothMesh(path)) (void)hg::buildClothModel(*mesh, hg::ClothMaterial{});
  (void)hg::importWeldedMesh(path);
  return 0;
}
