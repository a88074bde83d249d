// Fuzz target: the grasp scene reader (sim/radar/Grasp.h).
#include "sim/radar/Grasp.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)hg::parseGraspScene(hg::fuzz::asText(data, size), "fuzz.json", "fuzz");
  return 0;
}
