// Retargeting: identity reproduces the clip; differing rest orientations keep world bone
// directions; root translation scaling; the shipped CMU -> mannequin map; map-file errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include <glm/gtc/constants.hpp>

#include "sim/body/Mannequin.h"
#include "sim/motion/Bvh.h"
#include "sim/motion/Retarget.h"
#include "sim/motion/TestCharacters.h"
#include "tests/support/GlmExpect.h"

using namespace hg;

namespace {

using test::expectNear;

const std::filesystem::path kScenes = std::filesystem::path(HG_SOURCE_DIR) / "scenes/motion";

BvhMotion loadWalk() {
  Result<BvhMotion> r = loadBvh(kScenes / "walk_cmu_names.bvh");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : BvhMotion{};
}

std::vector<glm::vec3> jointPositions(const Skeleton& s, const Pose& pose) {
  std::vector<glm::vec3> p;
  for (const glm::mat4& m : globalMatrices(s, pose)) p.emplace_back(m[3]);
  return p;
}

/// Same global rest joint positions as `source`, but every joint's rest frame rotated by a
/// random rotation (and the local translations re-expressed in the rotated parent frames).
Skeleton withRandomRestOrientations(const Skeleton& source, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const std::vector<glm::vec3> pos = jointPositions(source, restPose(source));
  Skeleton out = source;
  std::vector<glm::quat> global(source.size());
  for (std::size_t j = 0; j < source.size(); ++j) {
    global[j] = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    const int p = source.joints[j].parent;
    Transform& rest = out.joints[j].rest;
    if (p < 0) {
      rest.rotation = global[j];
      rest.translation = pos[j];
    } else {
      rest.rotation = glm::normalize(glm::inverse(global[std::size_t(p)]) * global[j]);
      rest.translation = glm::inverse(global[std::size_t(p)]) * (pos[j] - pos[std::size_t(p)]);
    }
  }
  out.computeInverseBind();
  return out;
}

}  // namespace

TEST(Retarget, IdentityMapOntoSameSkeletonReproducesTheClip) {
  const BvhMotion m = loadWalk();
  Result<Animation> r = retarget(m.skeleton, m.animation, m.skeleton, identityJointMap(m.skeleton));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->validate(m.skeleton).ok());
  for (int f = 0; f < m.frameCount; ++f) {
    const float t = float(f) * m.frameTime;
    const std::vector<glm::vec3> a = jointPositions(m.skeleton, m.animation.sample(m.skeleton, t));
    const std::vector<glm::vec3> b = jointPositions(m.skeleton, r->sample(m.skeleton, t));
    for (std::size_t j = 0; j < a.size(); ++j)
      expectNear(b[j], a[j], 1e-5f, "frame " + std::to_string(f) + " joint " + m.skeleton.joints[j].name);
  }
}

TEST(Retarget, DifferentRestOrientationsKeepWorldBoneDirections) {
  const BvhMotion m = loadWalk();
  const Skeleton target = withRandomRestOrientations(m.skeleton, 7);
  // The target really differs: its local rest rotations are not the identity.
  EXPECT_LT(std::abs(target.joints[3].rest.rotation.w), 0.999f);
  Result<Animation> r = retarget(m.skeleton, m.animation, target, identityJointMap(m.skeleton));
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (int f = 0; f < m.frameCount; ++f) {
    const float t = float(f) * m.frameTime;
    const std::vector<glm::vec3> a = jointPositions(m.skeleton, m.animation.sample(m.skeleton, t));
    const std::vector<glm::vec3> b = jointPositions(target, r->sample(target, t));
    for (std::size_t j = 1; j < a.size(); ++j) {
      const std::size_t p = std::size_t(m.skeleton.joints[j].parent);
      expectNear(glm::normalize(b[j] - b[p]), glm::normalize(a[j] - a[p]), 1e-4f,
                 "frame " + std::to_string(f) + " bone to " + m.skeleton.joints[j].name);
    }
    expectNear(b[0], a[0], 1e-5f, "frame " + std::to_string(f) + " root");
  }
  // Copying the source's local rotations instead (ignoring rest orientations) would not
  // match: the check above can fail.
  Animation naive = m.animation;
  const std::vector<glm::vec3> a = jointPositions(m.skeleton, m.animation.sample(m.skeleton, 2 * m.frameTime));
  const std::vector<glm::vec3> b = jointPositions(target, naive.sample(target, 2 * m.frameTime));
  const int hand = m.skeleton.find("LeftHand");
  EXPECT_GT(glm::length(a[std::size_t(hand)] - b[std::size_t(hand)]), 0.05f);
}

TEST(Retarget, RootTranslationIsScaledByHipHeightRatioOrMapScale) {
  const BvhMotion m = loadWalk();
  Skeleton big = m.skeleton;
  for (Joint& j : big.joints) j.rest.translation *= 2.0f;
  big.computeInverseBind();
  // Relative mode, no scale: hip height ratio 2 (0.95 m above the toe tips -> 1.9 m).
  EXPECT_NEAR(restHeightAboveLowestJoint(m.skeleton, 0), 0.95f, 1e-6f);
  Result<Animation> r = retarget(m.skeleton, m.animation, big, identityJointMap(m.skeleton));
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Frame 2: source hips at (0.10, 0.95, 0) vs rest (0, 0, 0): target = 2 * that.
  const Pose p2 = r->sample(big, 2 * m.frameTime);
  expectNear(p2[0].translation, {0.20f, 1.90f, 0.0f}, 1e-5f, "relative, ratio 2");
  // The map's scale wins.
  JointMap map = identityJointMap(m.skeleton);
  map.scale = 0.5f;
  r = retarget(m.skeleton, m.animation, big, map);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear(r->sample(big, 2 * m.frameTime)[0].translation, {0.05f, 0.475f, 0.0f}, 1e-5f, "relative, scale 0.5");
  // Absolute mode: the standing source (hips 0.95 m above the floor) maps to the target's rest.
  map.scale.reset();
  map.rootTranslation = JointMap::RootTranslation::Absolute;
  r = retarget(m.skeleton, m.animation, big, map);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear(r->sample(big, 0.0f)[0].translation, {0.0f, 0.0f, 0.0f}, 1e-5f, "absolute, frame 0");
  expectNear(r->sample(big, 2 * m.frameTime)[0].translation, {0.20f, 0.0f, 0.0f}, 1e-5f, "absolute, frame 2");
}

TEST(Retarget, ShippedMapRetargetsOntoMannequinNames) {
  const BvhMotion m = loadWalk();
  Result<JointMap> map = loadJointMap(kScenes / "cmu_to_mannequin.json");
  ASSERT_TRUE(map.ok()) << map.error().message;
  EXPECT_EQ(map->pairs.size(), 19u);
  EXPECT_EQ(map->pairs.front(), (std::pair<std::string, std::string>{"Hips", "pelvis"}));
  EXPECT_EQ(map->rootTranslation, JointMap::RootTranslation::Absolute);
  // A stand-in with the mannequin's names and conventions (sim/body/Mannequin.h: metres,
  // Y up, feet on y = 0, faces +Z, left at +X, identity rest rotations), T-pose.
  Skeleton target;
  auto add = [&](const char* name, const char* parent, glm::vec3 offset) {
    target.joints.push_back(Joint{name, parent ? target.find(parent) : -1, {}});
    target.joints.back().rest.translation = offset;
  };
  add("pelvis", nullptr, {0, 0.92f, 0});
  add("spine", "pelvis", {0, 0.12f, 0});
  add("chest", "spine", {0, 0.15f, 0});
  add("neck", "chest", {0, 0.2f, 0});
  add("head", "neck", {0, 0.1f, 0});
  for (const char* side : {"l", "r"}) {
    const float s = side[0] == 'l' ? 1.0f : -1.0f;
    const std::string x = std::string("_") + side;
    add(("clavicle" + x).c_str(), "chest", {s * 0.03f, 0.17f, 0});
    add(("upper_arm" + x).c_str(), ("clavicle" + x).c_str(), {s * 0.16f, 0, 0});
    add(("forearm" + x).c_str(), ("upper_arm" + x).c_str(), {s * 0.3f, 0, 0});
    add(("hand" + x).c_str(), ("forearm" + x).c_str(), {s * 0.26f, 0, 0});
  }
  for (const char* side : {"l", "r"}) {
    const float s = side[0] == 'l' ? 1.0f : -1.0f;
    const std::string x = std::string("_") + side;
    add(("thigh" + x).c_str(), "pelvis", {s * 0.1f, -0.04f, 0});
    add(("shin" + x).c_str(), ("thigh" + x).c_str(), {0, -0.42f, 0});
    add(("foot" + x).c_str(), ("shin" + x).c_str(), {0, -0.38f, 0});
  }
  target.computeInverseBind();
  ASSERT_TRUE(target.validate().ok());
  ASSERT_TRUE(checkJointMap(*map, m.skeleton, target).ok());
  Result<Animation> r = retarget(m.skeleton, m.animation, target, *map);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Frame 0 (standing): pelvis at its rest; frame 2: moved 10 cm * (0.84 / 0.95) (hip heights above the lowest joint)
  // along +X.
  expectNear(r->sample(target, 0.0f)[0].translation, {0.0f, 0.92f, 0.0f}, 1e-5f, "pelvis frame 0");
  expectNear(r->sample(target, 2 * m.frameTime)[0].translation, {0.10f * 0.84f / 0.95f, 0.92f, 0.0f}, 1e-5f,
             "pelvis frame 2");
  // Frame 2: the left arm hangs down (LeftArm Zrotation -90 with hips turned 90 about Y):
  // the forearm -> hand bone points along -Y in the world.
  const std::vector<glm::vec3> p = jointPositions(target, r->sample(target, 2 * m.frameTime));
  expectNear(glm::normalize(p[std::size_t(target.find("hand_l"))] - p[std::size_t(target.find("forearm_l"))]),
             {0.0f, -1.0f, 0.0f}, 1e-5f, "left forearm direction");
}

TEST(Retarget, MapFileErrorsNameTheProblem) {
  auto err = [](const std::string& json) {
    Result<JointMap> r = parseJointMap(json, "map.json");
    return r.ok() ? std::string("(no error)") : r.error().message;
  };
  EXPECT_NE(err(R"({"map": {"A": "a"}, "scael": 2})").find("map.json: unknown key \"scael\""), std::string::npos)
      << err(R"({"map": {"A": "a"}, "scael": 2})");
  EXPECT_NE(err(R"({"scale": 2})").find("missing \"map\""), std::string::npos);
  EXPECT_NE(err(R"({"map": {"A": 3}})").find("'A' must name a target joint"), std::string::npos);
  EXPECT_NE(err(R"({"map": {"A": "a", "B": "a"}})").find("target joint 'a' is mapped from more than one"),
            std::string::npos);
  EXPECT_NE(err(R"({"map": {}, "scale": -1})").find("\"scale\" must be a positive number"), std::string::npos);
  EXPECT_NE(err(R"({"map": {}, "rootTranslation": "world"})").find("\"rootTranslation\""), std::string::npos);
  EXPECT_NE(err(R"({"map": )").find("map.json: not valid JSON"), std::string::npos);
  Result<JointMap> missing = loadJointMap("/nonexistent/map.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/map.json"), std::string::npos);

  // Names missing from either skeleton are named.
  const BvhMotion m = loadWalk();
  Result<JointMap> bad = parseJointMap(R"({"map": {"Hips": "Hips", "LeftToe": "Spine"}})", "map.json");
  ASSERT_TRUE(bad.ok());
  Status s = checkJointMap(*bad, m.skeleton, m.skeleton);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("source joint 'LeftToe'"), std::string::npos) << s.error().message;
  bad = parseJointMap(R"({"map": {"Hips": "pelvis"}})", "map.json");
  ASSERT_TRUE(bad.ok());
  Result<Animation> r = retarget(m.skeleton, m.animation, m.skeleton, *bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("target joint 'pelvis'"), std::string::npos) << r.error().message;
}

namespace {

/// Linear-blend skinning of `body` into `pose` (positions only).
std::vector<glm::vec3> skinned(const SkinnedMesh& body, const Pose& pose) {
  const std::vector<glm::mat4> m = skinningMatrices(body.skeleton, pose);
  std::vector<glm::vec3> out(body.mesh.vertexCount(), glm::vec3(0.0f));
  for (std::size_t v = 0; v < out.size(); ++v)
    for (int k = 0; k < 4; ++k)
      out[v] +=
          body.skin.weights[v][k] * glm::vec3(m[body.skin.joints[v][k]] * glm::vec4(body.mesh.positions[v], 1.0f));
  return out;
}

}  // namespace

TEST(Retarget, ACmuWalkWithSplayedRestLegsDrivesTheMannequinWithoutCrossingOnTheFloor) {
  const int frames = 30;
  const Result<BvhMotion> walk = parseBvh(testWalkBvh(frames), "cmu_walk.bvh");
  ASSERT_TRUE(walk.ok()) << walk.error().message;
  MannequinParams params;
  params.cellSize = 0.02f;
  const Result<SkinnedMesh> body = buildMannequin(params);  // A-pose: another rest than the T-pose source
  ASSERT_TRUE(body.ok()) << body.error().message;
  const BodyMeasurements measured = measureBody(*body);
  const float kneesApart = measured.thighGirth / glm::pi<float>();
  const Result<JointMap> map = conventionJointMap(walk->skeleton, "cmu_walk.bvh", body->skeleton, "mannequin");
  ASSERT_TRUE(map.ok()) << map.error().message;
  EXPECT_TRUE(map->alignRestPoses);
  const Result<Animation> clip = retarget(walk->skeleton, walk->animation, body->skeleton, *map);
  ASSERT_TRUE(clip.ok()) << clip.error().message;
  const int shinL = body->skeleton.find("shin_l"), shinR = body->skeleton.find("shin_r");
  const int pelvis = body->skeleton.find("pelvis");
  float closestKnees = 1e9f, worstFloor = 0.0f;
  for (int f = 0; f < frames; ++f) {
    const Pose pose = clip->sample(body->skeleton, float(f) * walk->frameTime);
    const std::vector<glm::mat4> g = globalMatrices(body->skeleton, pose);
    closestKnees = std::min(closestKnees, glm::length(glm::vec3(g[std::size_t(shinL)][3] - g[std::size_t(shinR)][3])));
    float lowest = 1e9f;
    for (const glm::vec3& p : skinned(*body, pose)) lowest = std::min(lowest, p.y);
    worstFloor = std::max(worstFloor, std::abs(lowest));  // a stance foot at every frame of a walk
    if (f == 0) {
      // The clip starts at the origin although it was recorded 50 cm off it.
      EXPECT_NEAR(g[std::size_t(pelvis)][3].x, 0.0f, 0.01f);
      EXPECT_NEAR(g[std::size_t(pelvis)][3].z, 0.0f, 0.01f);
    }
  }
  EXPECT_GE(closestKnees, kneesApart);
  EXPECT_LT(worstFloor, 0.02f);
  // Without the rest-pose alignment the straightening rotations cross the knees: the check
  // above can fail.
  JointMap unaligned = *map;
  unaligned.alignRestPoses = false;
  const Result<Animation> crossed = retarget(walk->skeleton, walk->animation, body->skeleton, unaligned);
  ASSERT_TRUE(crossed.ok()) << crossed.error().message;
  const std::vector<glm::mat4> g = globalMatrices(body->skeleton, crossed->sample(body->skeleton, 0.0f));
  EXPECT_LT(glm::length(glm::vec3(g[std::size_t(shinL)][3] - g[std::size_t(shinR)][3])), kneesApart);
}
