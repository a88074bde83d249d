// Garments on imported avatars: every test character (sim/motion/TestCharacters.h: Mixamo,
// Unreal, SMPL names; glTF, FBX, COLLADA; one open and unwelded) is measured, dressed with
// a T-shirt and a skirt drafted from its own measurements, and sewn with closed seams and
// no vertex inside it by the exact (or winding-number) reference. A BVH clip retargeted by
// naming convention moves an imported avatar; garments are sewn on its rest pose and the
// body then moves into the clip's pose (dressThenMove).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/body/SkeletonConvention.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/motion/CharacterIO.h"
#include "sim/motion/TestCharacters.h"
#include "sim/scene/DrapeBody.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"
#include "tests/support/TempDir.h"

using namespace hg;

namespace imported_avatar {

const std::filesystem::path kShippedScenes = std::filesystem::path(HG_SOURCE_DIR) / "scenes";

/// A two-garment outfit on the avatar file `file` (relative to `folder`), CPU backend.
std::string outfitOn(const std::string& file, const std::string& motion = "") {
  return R"({"avatar": {"file": ")" + file + R"(", "contact": {"method": "depth_views"})" + motion + R"(},
    "garments": [{"type": "skirt", "length": 0.5, "flare": 0.35},
                 {"type": "tshirt", "hem_below_waist": 0.13, "chest_ease": 0.12}],
    "cloth": {"areal_density": 0.15, "tensile_stiffness": 1500, "bending_rigidity": 2e-5},
    "dressing": {"edge_length": 0.03, "settle_frames": 0},
    "solver": {"backend": "cpu", "self_contact": true, "frames": 40, "integrator": "projective_jacobi",
               "substeps": 8, "iterations": 30, "contact_offset": 0.005}})";
}

Result<DrapeScene> sceneIn(const std::filesystem::path& folder, const std::string& text) {
  auto scene = parseDrapeScene(text, "imported_avatar.json");
  if (scene) scene->directory = folder;
  return scene;
}

const ClothSolverFactory kCpuSolver = [](std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
  return createCpuClothSolver(std::move(model), settings);
};

}  // namespace imported_avatar

using namespace imported_avatar;

// One test per character (each a few seconds; under the sanitizers about 13 s).
class DressedCharacter : public ::testing::TestWithParam<std::size_t> {};

TEST_P(DressedCharacter, IsDressedWithClosedSeamsOutsideItsBody) {
  const TestCharacterSpec& spec = testCharacters()[GetParam()];
  const test::TempDir dir("dressed_" + spec.name);
  {
    ASSERT_TRUE(writeTestCharacter(spec, dir).ok());
    auto scene = sceneIn(dir, outfitOn(spec.fileName()));
    ASSERT_TRUE(scene) << scene.error().message;
    auto prepared = PreparedDrape::prepare(*scene, kCpuSolver);
    ASSERT_TRUE(prepared) << prepared.error().message;
    ASSERT_TRUE(prepared->createSolver(kCpuSolver).ok());
    const SceneBody& body = *prepared->body();
    EXPECT_TRUE(body.imported);
    // Drafted from its own body: the chest within 1 cm of what it was built with.
    EXPECT_NEAR(body.measurements.chestGirth, spec.body.resolved().chestGirth, 0.01f);
    const DressedAvatar& dressed = *prepared->dressing();
    EXPECT_LT(dressed.largestGapBeforeWeld, scene->dressing.weldGap);
    EXPECT_GT(dressed.weldedVertices, 0u);
    std::vector<glm::vec3> points;
    for (const glm::vec4& p : prepared->solver().readState().positions) points.emplace_back(p);
    bool closed = true;
    const auto distances = exactSignedDistances(body.avatar.mesh, points, &closed);
    ASSERT_TRUE(distances.ok()) << distances.error().message;
    EXPECT_EQ(closed, !spec.openAndUnwelded);
    std::size_t inside = 0;
    for (const float d : *distances) inside += d < 0.0f ? 1 : 0;
    EXPECT_EQ(inside, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(TestCharacters, DressedCharacter, ::testing::Range<std::size_t>(0, testCharacters().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& character) {
                           return testCharacters()[character.param].name;
                         });

TEST(ImportedAvatarScene, AClipMovesAnImportedAvatarAndGarmentsAreSewnOnItsRestPoseFirst) {
  const test::TempDir dir("dress_then_move");
  const TestCharacterSpec& mixamo = testCharacters().front();
  ASSERT_EQ(mixamo.naming, SkeletonConvention::Mixamo);
  ASSERT_TRUE(writeTestCharacter(mixamo, dir).ok());
  std::filesystem::create_directories(dir / "motion");
  std::filesystem::copy_file(kShippedScenes / "motion/walk_cmu_names.bvh", dir / "motion/walk.bvh");
  // No map: CMU names onto Mixamo names by convention, T-pose clip onto the A-pose body.
  const std::string motion = R"(, "motion": {"bvh": "motion/walk.bvh", "time": 0.0333333, "transition": 0.25})";
  auto scene = sceneIn(dir, outfitOn(mixamo.fileName(), motion));
  ASSERT_TRUE(scene) << scene.error().message;
  auto body = buildSceneBody(*scene);
  ASSERT_TRUE(body) << body.error().message;
  ASSERT_TRUE(body->animator);
  EXPECT_TRUE(body->animator->dressesFirst());
  EXPECT_EQ(body->clipStart, 0.0f);
  const BodyAnimator& animator = *body->animator;
  const Skeleton& skeleton = animator.rest().skeleton;
  // The avatar to sew on is the rest body; the clip starts there and reaches the pose.
  EXPECT_TRUE(isRestPose(skeleton, animator.clip().sample(skeleton, 0.0f)));
  EXPECT_FALSE(isRestPose(skeleton, animator.clip().sample(skeleton, 0.25f)));
  EXPECT_NEAR(animator.clip().duration, 0.25f, 1e-6f);  // not animate: the pose is held
  // The body at the rest pose is the imported one; at 0.25 s its left foot has stepped.
  auto rest = body->animator->meshAt(0.0f);
  ASSERT_TRUE(rest) << rest.error().message;
  EXPECT_LT(glm::length(rest->positions[100] - body->avatar.mesh.positions[100]), 1e-5f);
  // Without garments the same motion poses the body directly (nothing to sew first).
  DrapeScene bare = *scene;
  bare.garments.clear();
  bare.clothShapeGiven = false;
  auto posed = buildSceneBody(bare);
  ASSERT_TRUE(posed) << posed.error().message;
  EXPECT_FALSE(posed->animator);
  EXPECT_EQ(posed->clipStart, 0.0333333f);
  EXPECT_NE(posed->avatar.mesh.positions, body->avatar.mesh.positions);
}

TEST(ImportedAvatarScene, DressThenMoveBlendsFromRestIntoThePoseThenEasesIntoAndOutOfTheClip) {
  Skeleton s;
  s.joints = {{"root", -1, {}}, {"arm", 0, {}}};
  s.joints[1].rest.translation = {1.0f, 0.0f, 0.0f};
  s.computeInverseBind();
  Animation clip;  // the arm turns at 40 degrees/s, 0 to 80 degrees over 2 s
  clip.duration = 2.0f;
  AnimationChannel arm;
  arm.joint = 1;
  for (int k = 0; k <= 4; ++k) {
    arm.rotation.times.push_back(0.5f * float(k));
    arm.rotation.values.push_back(glm::angleAxis(glm::radians(20.0f * float(k)), glm::vec3(0, 0, 1)));
  }
  clip.channels.push_back(arm);
  const auto angle = [&](const Animation& a, float t) { return glm::degrees(glm::angle(a.sample(s, t)[1].rotation)); };
  const auto speed = [&](const Animation& a, float t, float h) {
    return (angle(a, t + h) - angle(a, t - h)) / (2.0f * h);
  };
  // From 1 s on, after a 0.5 s transition: the blend (0.5 s), then the clip's last second
  // played in 1.5 s, its speed ramping up over the first 0.5 s and down over the last.
  const Animation follow = dressThenMove(clip, s, restPose(s), 1.0f, 0.5f, true);
  EXPECT_NEAR(follow.duration, 2.0f, 1e-6f);
  EXPECT_NEAR(angle(follow, 0.0f), 0.0f, 1e-3f);    // rest
  EXPECT_NEAR(angle(follow, 0.25f), 20.0f, 1e-2f);  // halfway to the pose at 1 s (40 degrees)
  EXPECT_NEAR(angle(follow, 0.5f), 40.0f, 1e-2f);
  EXPECT_NEAR(angle(follow, 1.0f), 50.0f, 0.1f);  // the ramp covers half its length: the clip at 1.25 s
  EXPECT_NEAR(angle(follow, 1.5f), 70.0f, 0.1f);  // the clip at 1.75 s
  EXPECT_NEAR(angle(follow, 2.0f), 80.0f, 1e-2f);
  // The blend at 80 degrees/s; the playback starts and ends near rest (under 15 % of the
  // clip's 40 degrees/s: keys every 1/120 s, linear between) and runs at the clip's speed
  // between, instead of jumping to it.
  EXPECT_NEAR(speed(follow, 0.25f, 0.01f), 80.0f, 1.0f);
  EXPECT_LT((angle(follow, 0.504f) - angle(follow, 0.5f)) / 0.004f, 6.0f);
  EXPECT_LT((angle(follow, 2.0f) - angle(follow, 1.996f)) / 0.004f, 6.0f);
  EXPECT_NEAR(speed(follow, 1.25f, 0.01f), 40.0f, 1.0f);
  // No jump anywhere: 10 ms steps never turn the arm faster than the blend (80 degrees/s).
  for (float t = 0.0f; t < 2.0f; t += 0.01f)
    EXPECT_LT(std::abs(angle(follow, t + 0.01f) - angle(follow, t)), 0.81f) << t;
  const Animation hold = dressThenMove(clip, s, restPose(s), 1.0f, 0.5f, false);
  EXPECT_NEAR(hold.duration, 0.5f, 1e-6f);
  EXPECT_NEAR(angle(hold, 2.0f), 40.0f, 1e-2f);
}

TEST(ImportedAvatarScene, ATPoseIsRelaxedIntoAnAPoseForSewing) {
  MannequinParams params;
  params.cellSize = 0.03f;
  params.pose = MannequinPose::TPose;
  auto tPose = buildMannequin(params);
  ASSERT_TRUE(tPose) << tPose.error().message;
  const Skeleton& s = tPose->skeleton;
  const std::vector<glm::mat4> g = globalMatrices(s, relaxedAPose(s));
  for (const auto& [shoulder, elbow] : {std::pair{"upper_arm_l", "forearm_l"}, std::pair{"upper_arm_r", "forearm_r"}}) {
    const glm::vec3 d =
        glm::normalize(glm::vec3(g[std::size_t(s.find(elbow))][3] - g[std::size_t(s.find(shoulder))][3]));
    EXPECT_NEAR(glm::degrees(std::asin(-d.y)), 45.0f, 0.01f) << shoulder;
    EXPECT_NEAR(d.z, 0.0f, 1e-4f) << shoulder;  // lowered in the frontal plane
  }
  // An A-pose (45 degrees) is left as it is.
  params.pose = MannequinPose::APose;
  auto aPose = buildMannequin(params);
  ASSERT_TRUE(aPose) << aPose.error().message;
  EXPECT_TRUE(isRestPose(aPose->skeleton, relaxedAPose(aPose->skeleton)));
}

TEST(ImportedAvatarScene, ARigNoConventionNamesIsAnErrorUntilAJointMapNamesItsJoints) {
  const test::TempDir dir("custom_rig");
  MannequinParams params;
  params.cellSize = 0.03f;
  auto body = buildMannequin(params);
  ASSERT_TRUE(body) << body.error().message;
  std::string map = R"({"map": {)";
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c) {
    const std::string canonical(canonicalJointNames()[c]);
    body->skeleton.joints[std::size_t(body->skeleton.find(canonical))].name = "B_" + canonical + "_x";
    map += std::string(c ? ", " : "") + "\"B_" + canonical + "_x\": \"" + canonical + "\"";
  }
  map += "}}";
  ASSERT_TRUE(exportCharacter(dir / "rig.glb", *body, {}).ok());
  auto scene = sceneIn(dir, outfitOn("rig.glb"));
  ASSERT_TRUE(scene) << scene.error().message;
  auto refused = buildSceneBody(*scene);
  ASSERT_FALSE(refused);
  for (const char* needle : {"garments need the avatar's landmarks", "rig.glb", "pelvis", "shin_l"})
    EXPECT_NE(refused.error().message.find(needle), std::string::npos) << refused.error().message;
  { std::ofstream(dir / "rig_map.json") << map; }
  scene->avatar->jointMap = "rig_map.json";
  auto named = buildSceneBody(*scene);
  ASSERT_TRUE(named) << named.error().message;
  EXPECT_EQ(named->measurements.convention, "mannequin");
  EXPECT_NEAR(named->measurements.chestGirth, measureBody(*buildMannequin(params)).chestGirth, 1e-3f);
}
