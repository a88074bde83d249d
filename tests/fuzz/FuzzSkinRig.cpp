// Fuzz target: the skinning rig reader (sim/skinning/SkinningRig.h), which also builds the
// rig's body and poses.
#include "sim/skinning/SkinningRig.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)hg::loadSkinningRig(hg::fuzz::asFile(data, size, "rig.json"));
  return 0;
}
