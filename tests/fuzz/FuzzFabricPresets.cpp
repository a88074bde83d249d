// Fuzz target: the fabric presets reader (sim/cloth/FabricPresets.h).
#include "sim/cloth/FabricPresets.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)hg::loadFabricPresets(hg::fuzz::asFile(data, size, "fabrics.json"));
  return 0;
}
