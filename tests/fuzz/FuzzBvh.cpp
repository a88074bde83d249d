// Fuzz target: the BVH motion reader (sim/motion/Bvh.h) and the joint map reader
// (sim/motion/Retarget.h), split by the first byte.
#include "sim/motion/Bvh.h"
#include "sim/motion/Retarget.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = hg::fuzz::asText(data, size);
  if (!text.empty() && text.front() == '{')
    (void)hg::parseJointMap(text, "fuzz_map.json");
  else
    (void)hg::parseBvh(text, "fuzz.bvh");
  return 0;
}
