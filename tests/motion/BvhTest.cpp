// BVH reader: the shipped file's structure and a hand-computed pose, and the error for each
// kind of malformed file (naming the source, the line and the problem).
#include <gtest/gtest.h>

#include <string>

#include "sim/motion/Bvh.h"
#include "tests/support/GlmExpect.h"

using namespace hg;

namespace {

using hg::test::expectNear;

const std::filesystem::path kWalk = std::filesystem::path(HG_SOURCE_DIR) / "scenes/motion/walk_cmu_names.bvh";

glm::vec3 jointPosition(const BvhMotion& m, const std::string& name, int frame) {
  const Pose pose = m.animation.sample(m.skeleton, float(frame) * m.frameTime);
  const std::vector<glm::mat4> g = globalMatrices(m.skeleton, pose);
  const int j = m.skeleton.find(name);
  EXPECT_GE(j, 0) << name;
  return j < 0 ? glm::vec3(NAN) : glm::vec3(g[std::size_t(j)][3]);
}

}  // namespace

TEST(Bvh, ShippedFileStructure) {
  Result<BvhMotion> r = loadBvh(kWalk);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const BvhMotion& m = *r;
  // 19 joints + 5 End Sites (Head, both hands, both feet).
  EXPECT_EQ(m.skeleton.size(), 24u);
  EXPECT_EQ(m.frameCount, 4);
  EXPECT_FLOAT_EQ(m.frameTime, 0.0333333f);
  EXPECT_NEAR(m.animation.duration, 3 * 0.0333333f, 1e-6f);
  ASSERT_EQ(m.channelOrder.size(), m.skeleton.size());
  const int hips = m.skeleton.find("Hips");
  ASSERT_EQ(hips, 0);
  EXPECT_EQ(m.skeleton.joints[0].parent, -1);
  EXPECT_EQ(m.channelOrder[0],
            (std::vector<std::string>{"Xposition", "Yposition", "Zposition", "Zrotation", "Xrotation", "Yrotation"}));
  const int spine = m.skeleton.find("Spine");
  ASSERT_GE(spine, 0);
  EXPECT_EQ(m.channelOrder[std::size_t(spine)], (std::vector<std::string>{"Zrotation", "Xrotation", "Yrotation"}));
  // End Sites: named leaves without channels, child of their joint, OFFSET in metres.
  const int handEnd = m.skeleton.find("LeftHand_End");
  ASSERT_GE(handEnd, 0);
  EXPECT_EQ(m.skeleton.joints[std::size_t(handEnd)].parent, m.skeleton.find("LeftHand"));
  EXPECT_TRUE(m.channelOrder[std::size_t(handEnd)].empty());
  expectNear(m.skeleton.joints[std::size_t(handEnd)].rest.translation, {0.08f, 0.0f, 0.0f}, 1e-7f,
             "LeftHand_End offset");
  // Parent order as in the file; rest = OFFSET * 0.01 (cm -> m), identity rotation.
  EXPECT_EQ(m.skeleton.joints[std::size_t(m.skeleton.find("LeftArm"))].parent, m.skeleton.find("LeftShoulder"));
  expectNear(m.skeleton.joints[std::size_t(m.skeleton.find("LeftArm"))].rest.translation, {0.15f, 0.0f, 0.0f}, 1e-7f,
             "LeftArm offset");
  EXPECT_TRUE(m.skeleton.validate().ok());
  EXPECT_TRUE(m.animation.validate(m.skeleton).ok());
  // One channel per joint with CHANNELS (19), 4 keys each; the root also translates.
  EXPECT_EQ(m.animation.channels.size(), 19u);
  for (const AnimationChannel& c : m.animation.channels) {
    EXPECT_EQ(c.rotation.times.size(), 4u);
    EXPECT_EQ(c.translation.times.size(), c.joint == hips ? 4u : 0u);
  }
}

TEST(Bvh, SampledPoseMatchesHandComputedPositions) {
  Result<BvhMotion> r = loadBvh(kWalk);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const BvhMotion& m = *r;
  // Frame 0 (rest, hips at (0, 95, 0) cm): the left toe tip is at
  // hips + LeftUpLeg (9,-5,0) + LeftLeg (0,-42,0) + LeftFoot (0,-40,0) + End (0,-8,12) = (9, 0, 12) cm.
  expectNear(jointPosition(m, "LeftFoot_End", 0), {0.09f, 0.0f, 0.12f}, 1e-5f, "frame 0 LeftFoot_End");
  // Frame 2: hips at (10, 95, 0) cm with Yrotation 90, LeftArm Zrotation -90.
  // In the hips frame: LeftArm at (0,10+15+17,0) + (3,0,0) + (15,0,0) = (18, 42, 0); its Rz(-90)
  // turns +X into -Y, so forearm (28,0,0) -> (0,-28,0) and hand (25,0,0) -> (0,-25,0):
  // LeftHand at (18, -11, 0). Ry(90) maps (x,y,z) -> (z, y, -x): (0, -11, -18); plus the hips
  // position: (10, 84, -18) cm.
  expectNear(jointPosition(m, "LeftHand", 2), {0.10f, 0.84f, -0.18f}, 1e-5f, "frame 2 LeftHand");
  // Frame 3: hips Zrotation 90 then Xrotation 90 (R = Rz * Rx): Spine offset (0,10,0) ->
  // Rx(90) -> (0,0,10) -> Rz(90) leaves it: Spine at (0, 95, 10) cm. (Rx * Rz would give (-10, 95, 0).)
  expectNear(jointPosition(m, "Spine", 3), {0.0f, 0.95f, 0.10f}, 1e-5f, "frame 3 Spine");
  // Sampling halfway between frames 1 and 2 interpolates the root position linearly.
  const Pose mid = m.animation.sample(m.skeleton, 1.5f * m.frameTime);
  expectNear(mid[0].translation, {0.05f, 0.945f, 0.025f}, 1e-5f, "frame 1.5 Hips");
}

TEST(Bvh, UnitScaleAndEulerHelper) {
  Result<BvhMotion> r = loadBvh(kWalk, 1.0f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectNear(jointPosition(*r, "LeftHand", 2), {10.0f, 84.0f, -18.0f}, 1e-3f, "frame 2 LeftHand in cm");
  const float angles[3] = {30.0f, 45.0f, 60.0f};
  const glm::quat q = bvhEulerRotation("ZXY", angles);
  const glm::quat expected = glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1)) *
                             glm::angleAxis(glm::radians(45.0f), glm::vec3(1, 0, 0)) *
                             glm::angleAxis(glm::radians(60.0f), glm::vec3(0, 1, 0));
  EXPECT_NEAR(std::abs(glm::dot(q, expected)), 1.0f, 1e-6f);
}

namespace {

// A small valid file; the malformed cases below each change one thing.
const std::string kSmall = R"(HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Chest
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
0 90 0 0 0 0 0 0 0
1 90 0 0 0 0 10 0 0
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// Parses `text`, expects failure with "small.bvh:<line>:" and `problem` in the message.
void expectError(const std::string& text, int line, const std::string& problem) {
  Result<BvhMotion> r = parseBvh(text, "small.bvh", 0.01f);
  ASSERT_FALSE(r.ok()) << "expected an error about '" << problem << "'";
  const std::string& msg = r.error().message;
  EXPECT_NE(msg.find("small.bvh:" + std::to_string(line) + ":"), std::string::npos) << msg;
  EXPECT_NE(msg.find(problem), std::string::npos) << msg;
}

}  // namespace

TEST(Bvh, SmallValidFileParses) {
  Result<BvhMotion> r = parseBvh(kSmall, "small.bvh", 0.01f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->skeleton.size(), 3u);  // Hips, Chest, Chest_End
  EXPECT_EQ(r->frameCount, 2);
  EXPECT_FLOAT_EQ(r->frameTime, 0.5f);
}

TEST(Bvh, MalformedFilesNameLineAndProblem) {
  // Missing MOTION: the file ends after the hierarchy (line 15 is the last, empty line).
  expectError(kSmall.substr(0, kSmall.find("MOTION")), 16, "missing MOTION");
  // CHANNELS count larger than the names listed.
  expectError(replaced(kSmall, "CHANNELS 3 Zrotation Xrotation Yrotation", "CHANNELS 4 Zrotation Xrotation Yrotation"),
              9, "wrong channel count for joint 'Chest'");
  // Unknown channel name.
  expectError(replaced(kSmall, "Zrotation Xrotation Yrotation\n    End", "Zrotation Wrotation Yrotation\n    End"), 9,
              "unknown channel name 'Wrotation'");
  // Non-numeric motion value (frame 1, line 20).
  expectError(replaced(kSmall, "1 90 0 0 0 0 10 0 0", "1 90 0 0 x0 0 10 0 0"), 20, "non-numeric value 'x0'");
  // Non-numeric OFFSET.
  expectError(replaced(kSmall, "OFFSET 0 10 0", "OFFSET 0 ten 0"), 8, "non-numeric value 'ten'");
  // Too few values on a frame line.
  expectError(replaced(kSmall, "1 90 0 0 0 0 10 0 0", "1 90 0 0 0 0 10 0"), 20,
              "has 8 values but the hierarchy declares 9");
  // Frames: says two more than there are (the error points at the end of the file, line 21).
  expectError(replaced(kSmall, "Frames: 2", "Frames: 4"), 21, "Frames count mismatch");
  // ... or two fewer (the third frame line, line 21, is one too many).
  expectError(replaced(kSmall, "1 90 0 0 0 0 10 0 0", "1 90 0 0 0 0 10 0 0\n2 90 0 0 0 0 20 0 0\n3 90 0 0 0 0 30 0 0"),
              22, "Frames count mismatch");
  // Unbalanced braces: Hips' block is never closed, so MOTION (now line 16) appears inside it.
  expectError(replaced(kSmall, "    }\n  }\n}", "    }\n  }\n"), 16, "unbalanced braces");
  // Unbalanced braces: an extra '}' (line 16).
  expectError(replaced(kSmall, "}\nMOTION", "}\n}\nMOTION"), 16, "unbalanced braces");
  // Missing '{' after a joint name.
  expectError(replaced(kSmall, "JOINT Chest\n  {", "JOINT Chest\n"), 8, "expected '{' after JOINT Chest");
  // Not a BVH at all.
  expectError("hello\n", 1, "expected 'HIERARCHY'");
}

TEST(Bvh, AFrameCountOffByOneLoadsTheLinesWithAWarning) {
  for (const char* count : {"Frames: 1", "Frames: 3"}) {
    Result<BvhMotion> r = parseBvh(replaced(kSmall, "Frames: 2", count), "small.bvh", 0.01f);
    ASSERT_TRUE(r.ok()) << count << ": " << r.error().message;
    EXPECT_EQ(r->frameCount, 2) << count;
    EXPECT_FLOAT_EQ(r->animation.duration, 0.5f) << count;  // (2 - 1) frames of 0.5 s
    ASSERT_EQ(r->warnings.size(), 1u) << count;
    EXPECT_EQ(r->warnings[0],
              std::string("small.bvh:17: 'Frames:' says ") + (count + 8) + " but the file has 2 frame lines; using 2");
  }
  EXPECT_TRUE(parseBvh(kSmall, "small.bvh", 0.01f)->warnings.empty());
  // One frame announced and none there: nothing to load.
  expectError(kSmall.substr(0, kSmall.find("0 90 0 0")).replace(kSmall.find("Frames: 2"), 9, "Frames: 1"), 19,
              "no frame lines");
}

TEST(Bvh, MissingFileNamesThePath) {
  Result<BvhMotion> r = loadBvh("/nonexistent/dir/walk.bvh");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/nonexistent/dir/walk.bvh"), std::string::npos) << r.error().message;
}
