// Fuzz target: the snow scene reader (sim/snow/SnowSceneJson.h: ground, objects, settings).
#include "sim/snow/SnowSceneJson.h"
#include "tests/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto scene = hg::parseSnowScene(hg::fuzz::asText(data, size), "fuzz/snow.json");
  if (scene) (void)scene->settings.validate();
  return 0;
}
