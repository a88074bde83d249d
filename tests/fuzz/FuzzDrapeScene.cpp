// Fuzz target: the drape scene reader (sim/scene/DrapeScene.h), then the run-size check.
#include "sim/scene/DrapeScene.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto scene = hg::parseDrapeScene(hg::fuzz::asText(data, size), "fuzz.json");
  if (scene) (void)hg::checkRunSize(*scene);
  return 0;
}
