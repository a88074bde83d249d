// Fuzz target: the PNG anisotropy texture loader (sim/cloth/ClothModel.h, stb_image).
#include "sim/cloth/ClothModel.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)hg::loadAnisotropyTexture(hg::fuzz::asFile(data, size, "texture.png"), 2.0f);
  return 0;
}
