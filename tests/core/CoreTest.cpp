// sim/core utilities: the address-ordered arena, error kinds; the scene JSON helpers.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/AddressOrderedArena.h"
#include "sim/io/SceneJson.h"

namespace hg {
namespace {

TEST(AddressOrderedArena, BlocksComeAtIncreasingAddressesAndTheArenaStartsOverWhenEmpty) {
  ASSERT_EQ(addressOrderedLiveBlocks(), 0u);
  AddressOrderedAllocator<double> doubles;
  double* anchor = doubles.allocate(1);  // alive throughout: the arena is never empty below
  std::vector<double*> blocks;
  std::uintptr_t previous = reinterpret_cast<std::uintptr_t>(anchor);
  for (std::size_t i = 0; i < 200; ++i) {
    double* block = doubles.allocate(1 + (i * 37) % 500);
    const auto address = reinterpret_cast<std::uintptr_t>(block);
    EXPECT_GT(address, previous) << "block " << i;
    EXPECT_EQ(address % alignof(double), 0u);
    block[0] = double(i);  // writable
    previous = address;
    blocks.push_back(block);
    if (i % 3 == 0) {  // freeing some does not hand their space out again while others live
      doubles.deallocate(blocks.front(), 1);
      blocks.erase(blocks.begin());
    }
  }
  EXPECT_EQ(addressOrderedLiveBlocks(), blocks.size() + 1);
  for (double* block : blocks) doubles.deallocate(block, 1);
  doubles.deallocate(anchor, 1);
  EXPECT_EQ(addressOrderedLiveBlocks(), 0u);
  double* again = doubles.allocate(4);
  EXPECT_EQ(again, anchor) << "the emptied arena starts over";
  again[3] = 1.0;
  doubles.deallocate(again, 4);
}

TEST(AddressOrderedArena, AHugeRequestIsBadAlloc) {
  AddressOrderedAllocator<char> chars;
  EXPECT_THROW((void)chars.allocate(std::size_t(1) << 40), std::bad_alloc);
  EXPECT_EQ(addressOrderedLiveBlocks(), 0u);
}

}  // namespace
}  // namespace hg

// Scene JSON reading (sim/io/SceneJson.h): whole numbers in ranges, floats that fit,
// duplicate keys, output names.
namespace hg {
namespace {

using scenejson::json;

std::string sceneError(const std::function<void()>& read) {
  try {
    read();
  } catch (const scenejson::SceneError& e) {
    return e.message;
  }
  return "";
}

TEST(SceneJson, IntegersAreWholeNumbersInRangeWithoutWrapping) {
  const json doc = json::parse(R"({"a": 7, "big": 4294967298, "neg": -3, "float": 2.0, "half": 2.5, "text": "7"})");
  EXPECT_EQ(scenejson::integer(doc, "s", "a", 0, 1, 10), 7);
  EXPECT_EQ(scenejson::integer(doc, "s", "missing", 5, 1, 10), 5);
  EXPECT_EQ(scenejson::integer(doc, "s", "float", 0, 1, 10), 2);
  EXPECT_EQ(sceneError([&] { (void)scenejson::integer(doc, "s", "big", 0, 0, 100000); }),
            "s.big = 4294967298 is out of range (0..100000)");
  EXPECT_EQ(sceneError([&] { (void)scenejson::integer(doc, "s", "neg", 0, 0, 10); }),
            "s.neg = -3 is out of range (0..10)");
  EXPECT_EQ(sceneError([&] { (void)scenejson::integer(doc, "s", "half", 0, 0, 10); }),
            "s.half must be a whole number (0..10)");
  EXPECT_EQ(sceneError([&] { (void)scenejson::integer(doc, "s", "text", 0, 0, 10); }),
            "s.text must be a whole number (0..10)");
}

TEST(SceneJson, NumbersMustFitAFloat) {
  const json doc = json::parse(R"({"huge": 1e39, "fine": 3.4e38, "v": [0, -1e40, 0]})");
  EXPECT_FLOAT_EQ(scenejson::number(doc, "s", "fine", 0.0f), 3.4e38f);
  EXPECT_EQ(
      sceneError([&] { (void)scenejson::number(doc, "s", "huge", 0.0f); }).rfind("s.huge = 1e+39 is out of range", 0),
      0u);
  EXPECT_EQ(
      sceneError([&] { (void)scenejson::positive(doc, "s", "huge", 1.0f); }).rfind("s.huge = 1e+39 is out of range", 0),
      0u);
  EXPECT_EQ(sceneError([&] {
              (void)scenejson::vec3(doc, "s", "v", glm::vec3(0.0f));
            }).rfind("s.v = -1e+40 is out of range", 0),
            0u);
}

TEST(SceneJson, ADuplicateKeyIsAnErrorNamingItsPath) {
  EXPECT_NO_THROW((void)scenejson::parseDocument(R"({"a": {"b": 1, "c": [{"b": 2}, {"b": 3}]}, "b": 4})"));
  EXPECT_EQ(sceneError([] { (void)scenejson::parseDocument(R"({"solver": {"frames": 3, "frames": 4}})"); }),
            "duplicate key 'solver.frames' (each key may appear once in an object)");
  EXPECT_EQ(sceneError([] { (void)scenejson::parseDocument(R"({"g": [{"x": 1}, {"t": 1, "t": 2}]})"); }),
            "duplicate key 'g[].t' (each key may appear once in an object)");
  EXPECT_THROW((void)scenejson::parseDocument("{\"a\": 1,}"), json::parse_error);
}

TEST(SceneJson, OutputNamesStayInsideTheOutputFolder) {
  EXPECT_TRUE(scenejson::checkOutputName("outfit_01", "scene.name"));
  for (const char* bad : {"", "../x", "a/b", "a\\b", ".hidden", "tab\there"}) {
    const Status s = scenejson::checkOutputName(bad, "scene.name");
    ASSERT_FALSE(s) << bad;
    EXPECT_EQ(s.error().message.rfind("scene.name", 0), 0u) << s.error().message;
  }
}

TEST(ErrorKinds, PrefixedKeepsTheKind) {
  const Error gl = graphicsError("shader failed");
  EXPECT_EQ(gl.prefixed("scene.json: ").kind, ErrorKind::Graphics);
  EXPECT_EQ(gl.prefixed("a: ", " (b)").message, "a: shader failed (b)");
  EXPECT_EQ(Error{"bad key"}.kind, ErrorKind::Input);
  EXPECT_EQ(Error{"x"}.as(ErrorKind::Simulation).kind, ErrorKind::Simulation);
}

}  // namespace
}  // namespace hg
