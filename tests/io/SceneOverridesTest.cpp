// Scene key overrides (sim/io/SceneOverrides.h): KEY=VALUE parsing, dotted paths through
// objects and arrays, and errors that name the key.
#include <gtest/gtest.h>

#include "sim/io/SceneOverrides.h"

namespace hg {
namespace {

using nlohmann::json;

TEST(SceneOverrides, ValuesAreJsonWhenTheyParseAndTextOtherwise) {
  EXPECT_EQ(parseSceneOverride("solver.frames=30")->value, json(30));
  EXPECT_EQ(parseSceneOverride("cloth.center=[0,1.5,0]")->value, json::parse("[0,1.5,0]"));
  EXPECT_EQ(parseSceneOverride("solver.self_contact=false")->value, json(false));
  EXPECT_EQ(parseSceneOverride("cloth.fabric=denim_11oz")->value, json("denim_11oz"));
  EXPECT_EQ(parseSceneOverride("name=\"a=b\"")->value, json("a=b"));  // the first '=' splits
  EXPECT_EQ(parseSceneOverride("name=")->value, json(""));
  EXPECT_FALSE(parseSceneOverride("solver.frames"));
  EXPECT_FALSE(parseSceneOverride("solver..frames=3"));
  EXPECT_EQ(parseSceneOverride("=3").error().kind, ErrorKind::CommandLine);
}

TEST(SceneOverrides, ReplaceAddAndCreateAlongDottedPaths) {
  json scene = json::parse(R"({"cloth": {"resolution": 64}, "garments": [{"type": "tshirt"}, {"type": "skirt"}]})");
  const SceneOverrides overrides = {
      {"cloth.resolution", 16}, {"cloth.fabric", "denim_11oz"}, {"garments.1.size", "L"}, {"solver.frames", 5}};
  ASSERT_TRUE(applySceneOverrides(scene, overrides, "s.json"));
  EXPECT_EQ(scene["cloth"]["resolution"], 16);
  EXPECT_EQ(scene["cloth"]["fabric"], "denim_11oz");
  EXPECT_EQ(scene["garments"][1]["size"], "L");
  EXPECT_EQ(scene["garments"][0].size(), 1u);
  EXPECT_EQ(scene["solver"]["frames"], 5);  // created
}

TEST(SceneOverrides, AKeyThroughAValueOrPastAnArrayIsAnErrorNamingIt) {
  json scene = json::parse(R"({"cloth": {"size": 1.6}, "garments": [{"type": "tshirt"}]})");
  const auto through = applySceneOverrides(scene, {{"cloth.size.x", 1}}, "s.json");
  ASSERT_FALSE(through);
  EXPECT_NE(through.error().message.find("s.json: override 'cloth.size.x': 'cloth.size' is a number"),
            std::string::npos)
      << through.error().message;
  const auto past = applySceneOverrides(scene, {{"garments.3.size", "L"}}, "s.json");
  ASSERT_FALSE(past);
  EXPECT_NE(past.error().message.find("'garments.3' is not an index"), std::string::npos) << past.error().message;
}

TEST(SceneOverrides, ArgumentsRoundTrip) {
  const SceneOverrides overrides = {{"cloth.fabric", "denim_11oz"}, {"cloth.center", json::parse("[0, 1, 0]")}};
  const std::vector<std::string> args = sceneOverrideArguments(overrides);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0], "--set");
  auto back = parseSceneOverrides({args[1], args[3]});
  ASSERT_TRUE(back);
  EXPECT_EQ((*back)[0].value, json("denim_11oz"));
  EXPECT_EQ((*back)[1].value, json::parse("[0, 1, 0]"));
}

}  // namespace
}  // namespace hg
