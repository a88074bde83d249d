// Skeletons, poses, skin weights and animation sampling (sim/body/Skeleton.h).
#include <cmath>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "sim/body/Skeleton.h"

namespace hg {
namespace {

/// root -> upper (1 m up) -> lower (1 m further up), rotated rest poses included.
Skeleton chain() {
  Skeleton s;
  s.joints.push_back(
      {"root", -1, {glm::vec3(0.1f, 0.2f, 0.3f), glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), glm::vec3(1)}});
  s.joints.push_back({"upper", 0, {glm::vec3(0, 1, 0), glm::angleAxis(-0.5f, glm::vec3(1, 0, 0)), glm::vec3(1)}});
  s.joints.push_back({"lower", 1, {glm::vec3(0, 1, 0), glm::quat(1, 0, 0, 0), glm::vec3(1)}});
  s.computeInverseBind();
  return s;
}

float maxDifference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  return worst;
}

TEST(Skeleton, RestPoseSkinningMatricesAreIdentity) {
  const Skeleton s = chain();
  ASSERT_TRUE(s.validate());
  for (const glm::mat4& m : skinningMatrices(s, restPose(s))) EXPECT_LT(maxDifference(m, glm::mat4(1.0f)), 1e-6f);
}

TEST(Skeleton, GlobalMatricesComposeParentFirst) {
  const Skeleton s = chain();
  const auto global = globalMatrices(s, restPose(s));
  const glm::mat4 expected = s.joints[0].rest.matrix() * s.joints[1].rest.matrix() * s.joints[2].rest.matrix();
  EXPECT_LT(maxDifference(global[2], expected), 1e-6f);
  // The chain's tip: root translation plus two unit bones rotated by -0.5 rad about x, then 0.3 about z.
  const glm::vec3 tip(global[2] * glm::vec4(0, 0, 0, 1));
  const glm::vec3 local = glm::vec3(0, 1, 0) + glm::angleAxis(-0.5f, glm::vec3(1, 0, 0)) * glm::vec3(0, 1, 0);
  const glm::vec3 want = glm::vec3(0.1f, 0.2f, 0.3f) + glm::angleAxis(0.3f, glm::vec3(0, 0, 1)) * local;
  EXPECT_LT(glm::length(tip - want), 1e-6f);
}

TEST(Skeleton, ValidateNamesTheProblem) {
  Skeleton s = chain();
  s.joints[2].parent = 2;
  Status bad = s.validate();
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'lower'"), std::string::npos) << bad.error().message;
  s = chain();
  s.joints[1].name = "root";
  bad = s.validate();
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("used twice"), std::string::npos) << bad.error().message;
  s = chain();
  s.inverseBind.pop_back();
  EXPECT_FALSE(s.validate());
}

TEST(SkinWeights, KeepsTheFourLargestAndNormalises) {
  SkinWeights skin;
  appendInfluences(skin, {{5, 0.1f}, {1, 0.4f}, {2, 0.2f}, {3, 0.05f}, {4, 0.25f}, {6, -1.0f}});
  appendInfluences(skin, {});
  appendInfluences(skin, {{7, 0.0f}}, 3);
  ASSERT_EQ(skin.size(), 3u);
  EXPECT_EQ(skin.joints[0], glm::uvec4(1, 4, 2, 5));
  const float total = 0.4f + 0.25f + 0.2f + 0.1f;
  EXPECT_FLOAT_EQ(skin.weights[0].x, 0.4f / total);
  EXPECT_FLOAT_EQ(skin.weights[0].w, 0.1f / total);
  EXPECT_NEAR(skin.weights[0].x + skin.weights[0].y + skin.weights[0].z + skin.weights[0].w, 1.0f, 1e-6f);
  EXPECT_EQ(skin.joints[1].x, 0u);
  EXPECT_EQ(skin.weights[1], glm::vec4(1, 0, 0, 0));
  EXPECT_EQ(skin.joints[2].x, 3u);
}

TEST(Animation, SamplesClampedAndInterpolated) {
  const Skeleton s = chain();
  Animation clip;
  clip.name = "bend";
  clip.duration = 2.0f;
  AnimationChannel c;
  c.joint = 1;
  c.rotation.times = {0.0f, 2.0f};
  c.rotation.values = {glm::angleAxis(0.0f, glm::vec3(1, 0, 0)), glm::angleAxis(1.0f, glm::vec3(1, 0, 0))};
  c.translation.times = {1.0f};
  c.translation.values = {glm::vec3(0, 2, 0)};
  clip.channels.push_back(c);
  ASSERT_TRUE(clip.validate(s));

  const Pose mid = clip.sample(s, 1.0f);
  EXPECT_NEAR(glm::angle(mid[1].rotation), 0.5f, 1e-5f);
  EXPECT_EQ(mid[1].translation, glm::vec3(0, 2, 0));            // one key: constant
  EXPECT_EQ(mid[0].translation, s.joints[0].rest.translation);  // no channel: rest
  EXPECT_NEAR(glm::angle(clip.sample(s, -5.0f)[1].rotation), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::angle(clip.sample(s, 9.0f)[1].rotation), 1.0f, 1e-5f);

  clip.channels[0].rotation.times = {1.0f, 0.5f};
  const Status bad = clip.validate(s);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'upper'"), std::string::npos) << bad.error().message;
}

TEST(Transform, InterpolateTakesTheShortArc) {
  Transform a, b;
  a.rotation = glm::angleAxis(0.1f, glm::vec3(0, 1, 0));
  b.rotation = -glm::angleAxis(0.3f, glm::vec3(0, 1, 0));  // same rotation as +q
  EXPECT_NEAR(glm::angle(interpolate(a, b, 0.5f).rotation), 0.2f, 1e-5f);
}

}  // namespace
}  // namespace hg
