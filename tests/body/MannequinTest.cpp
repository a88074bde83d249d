// The built-in parametric mannequin (sim/body/Mannequin.h): topology, skeleton, skin
// weights, and measurements against the requested parameters.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include "sim/body/Mannequin.h"
#include "sim/geometry/MeshTopology.h"

namespace hg {
namespace {

/// Girths (tape-measure: convex hull of the section) must match within this, metres.
constexpr float kGirthTolerance = 0.01f;

const SkinnedMesh& defaultMannequin() {
  static const SkinnedMesh body = [] {
    const auto start = std::chrono::steady_clock::now();
    Result<SkinnedMesh> built = buildMannequin(MannequinParams{});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(built) << built.error().message;
    if (!built) return SkinnedMesh{};
    const TriangleMesh& mesh = built->mesh;
    double total = 0.0;
    float shortest = 1e9f;
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
      const float length =
          glm::length(mesh.positions[mesh.indices[i]] - mesh.positions[mesh.indices[i % 3 == 2 ? i - 2 : i + 1]]);
      total += length;
      shortest = std::min(shortest, length);
    }
    std::cout << "default mannequin: " << mesh.vertexCount() << " vertices, " << mesh.triangleCount()
              << " triangles, edges mean " << total / double(mesh.indices.size()) << " m, shortest " << shortest
              << " m, built in " << seconds << " s\n";
    return std::move(built).value();
  }();
  return body;
}

/// A non-default body: shorter, T-pose, other proportions.
MannequinParams otherParams() {
  MannequinParams p;
  p.height = 1.62f;
  p.chestGirth = 0.90f;
  p.waistGirth = 0.70f;
  p.hipGirth = 1.02f;
  p.neckGirth = 0.33f;
  p.thighGirth = 0.58f;
  p.upperArmGirth = 0.27f;
  p.shoulderWidth = 0.34f;
  p.armLength = 0.52f;
  p.legLength = 0.74f;
  p.pose = MannequinPose::TPose;
  return p;
}

float axisSpan(const TriangleMesh& mesh, int axis) {
  const auto [lo, hi] =
      std::minmax_element(mesh.positions.begin(), mesh.positions.end(),
                          [axis](const glm::vec3& a, const glm::vec3& b) { return a[axis] < b[axis]; });
  return (*hi)[axis] - (*lo)[axis];
}

void expectClosedGenusZero(const TriangleMesh& mesh) {
  const Status closed = checkWatertight(mesh);
  EXPECT_TRUE(closed) << closed.error().message;
  const Status manifold = checkVertexManifold(mesh);
  EXPECT_TRUE(manifold) << manifold.error().message;
  EXPECT_EQ(connectedComponents(mesh).count, 1u);
  EXPECT_EQ(eulerCharacteristic(mesh), 2);
}

void expectMeasurementsMatch(const SkinnedMesh& body, const MannequinParams& requested) {
  const MannequinParams p = requested.resolved();
  const BodyMeasurements m = measureBody(body);
  std::cout << "girth errors (m): chest " << m.chestGirth - p.chestGirth << ", waist " << m.waistGirth - p.waistGirth
            << ", hip " << m.hipGirth - p.hipGirth << ", neck " << m.neckGirth - p.neckGirth << ", thigh "
            << m.thighGirth - p.thighGirth << "; height " << m.height - p.height << ", inseam "
            << m.legLength - p.legLength << "; volume " << signedVolume(body.mesh) << " m^3\n";
  EXPECT_NEAR(m.chestGirth, p.chestGirth, kGirthTolerance);
  EXPECT_NEAR(m.waistGirth, p.waistGirth, kGirthTolerance);
  EXPECT_NEAR(m.hipGirth, p.hipGirth, kGirthTolerance);
  EXPECT_NEAR(m.neckGirth, p.neckGirth, kGirthTolerance);
  EXPECT_NEAR(m.thighGirth, p.thighGirth, kGirthTolerance);
  EXPECT_NEAR(m.height, p.height, 0.01f);
  EXPECT_NEAR(m.legLength, p.legLength, 0.01f);
  EXPECT_NEAR(m.shoulderWidth, p.shoulderWidth, 1e-5f);
  EXPECT_NEAR(m.armLength, p.armLength, 1e-5f);
  // The upper arm, perpendicular to the bone a third of the way to the elbow, and the
  // convention its landmarks were found by.
  EXPECT_NEAR(m.upperArmGirth, p.upperArmGirth, 0.01f);
  EXPECT_EQ(m.convention, "mannequin");
  // Landmarks in their anatomical order.
  EXPECT_LT(m.crotchHeight, m.hipHeight);
  EXPECT_LT(m.hipHeight, m.waistHeight);
  EXPECT_LT(m.waistHeight, m.chestHeight);
  EXPECT_LT(m.chestHeight, m.neckHeight);
  EXPECT_LT(m.neckHeight, m.height);
}

TEST(Mannequin, DefaultIsOneClosedManifoldSurfaceOfGenusZero) {
  const SkinnedMesh& body = defaultMannequin();
  ASSERT_GT(body.mesh.triangleCount(), 10000u);
  expectClosedGenusZero(body.mesh);
  // An adult of 1.75 m and about 75 kg at ~1000 kg/m^3 (ANSUR II body volumes 0.05-0.1 m^3).
  const double volume = signedVolume(body.mesh);
  EXPECT_GT(volume, 0.05);
  EXPECT_LT(volume, 0.10);
  EXPECT_EQ(body.mesh.normals.size(), body.mesh.vertexCount());
}

TEST(Mannequin, SkeletonHasTheNamedJointsAndAValidSkin) {
  const SkinnedMesh& body = defaultMannequin();
  const char* names[] = {"pelvis",    "spine",  "chest",      "neck",        "head",      "clavicle_l", "upper_arm_l",
                         "forearm_l", "hand_l", "clavicle_r", "upper_arm_r", "forearm_r", "hand_r",     "thigh_l",
                         "shin_l",    "foot_l", "thigh_r",    "shin_r",      "foot_r"};
  ASSERT_EQ(body.skeleton.size(), std::size(names));
  for (const char* name : names) EXPECT_GE(body.skeleton.find(name), 0) << name;
  EXPECT_EQ(body.skeleton.joints[0].name, "pelvis");
  EXPECT_EQ(body.skeleton.joints[0].parent, -1);
  for (std::size_t j = 1; j < body.skeleton.size(); ++j) EXPECT_GE(body.skeleton.joints[j].parent, 0);
  const Status valid = body.validate(1e-5f);
  EXPECT_TRUE(valid) << valid.error().message;
}

TEST(Mannequin, IdentitySkinningReproducesTheRestPose) {
  const SkinnedMesh& body = defaultMannequin();
  const std::vector<glm::mat4> m = skinningMatrices(body.skeleton, restPose(body.skeleton));
  float worst = 0.0f;
  for (std::size_t v = 0; v < body.mesh.vertexCount(); ++v) {
    const glm::vec4 rest(body.mesh.positions[v], 1.0f);
    glm::vec4 skinned(0.0f);
    for (int k = 0; k < 4; ++k) skinned += body.skin.weights[v][k] * (m[body.skin.joints[v][k]] * rest);
    worst = std::max(worst, glm::length(glm::vec3(skinned) - body.mesh.positions[v]));
  }
  EXPECT_LE(worst, 1e-6f);
}

TEST(Mannequin, WeightsFollowTheBodyParts) {
  const SkinnedMesh& body = defaultMannequin();
  const auto dominant = [&](std::size_t v) {
    const glm::vec4 w = body.skin.weights[v];
    int best = 0;
    for (int k = 1; k < 4; ++k)
      if (w[k] > w[best]) best = k;
    return body.skeleton.joints[body.skin.joints[v][best]].name;
  };
  const auto extreme = [&](auto key) {
    return std::size_t(std::max_element(body.mesh.positions.begin(), body.mesh.positions.end(),
                                        [&](const glm::vec3& a, const glm::vec3& b) { return key(a) < key(b); }) -
                       body.mesh.positions.begin());
  };
  EXPECT_EQ(dominant(extreme([](glm::vec3 p) { return p.y; })), "head");
  EXPECT_EQ(dominant(extreme([](glm::vec3 p) { return p.x; })), "hand_l");  // left = +X
  EXPECT_EQ(dominant(extreme([](glm::vec3 p) { return -p.x; })), "hand_r");
  EXPECT_EQ(dominant(extreme([](glm::vec3 p) { return p.z - 10.0f * p.y; })), "foot_l");  // a toe (left or right)
}

TEST(Mannequin, BendingTheLeftElbowMovesOnlyTheLeftArm) {
  const SkinnedMesh& body = defaultMannequin();
  Pose pose = restPose(body.skeleton);
  const int elbow = body.skeleton.find("forearm_l");
  pose[std::size_t(elbow)].rotation = glm::angleAxis(1.2f, glm::vec3(0, 0, 1));
  const std::vector<glm::mat4> m = skinningMatrices(body.skeleton, pose);
  const glm::vec3 elbowPosition = measureBody(body).joint("forearm_l");
  for (std::size_t v = 0; v < body.mesh.vertexCount(); ++v) {
    const glm::vec4 rest(body.mesh.positions[v], 1.0f);
    glm::vec4 skinned(0.0f);
    for (int k = 0; k < 4; ++k) skinned += body.skin.weights[v][k] * (m[body.skin.joints[v][k]] * rest);
    const float moved = glm::length(glm::vec3(skinned) - body.mesh.positions[v]);
    if (body.mesh.positions[v].x < elbowPosition.x - 0.15f) {
      ASSERT_LE(moved, 1e-5f) << "vertex " << v;
    }
  }
}

TEST(Mannequin, DefaultMeasurementsMatchTheParameters) {
  expectMeasurementsMatch(defaultMannequin(), MannequinParams{});
}

TEST(Mannequin, AnUnweldedCopyMeasuresTheSame) {
  // Every triangle with its own three vertices, as an unwelded export or a scan comes.
  const SkinnedMesh& body = defaultMannequin();
  SkinnedMesh soup = body;
  soup.mesh.positions.clear();
  soup.mesh.normals.clear();
  soup.mesh.indices.clear();
  for (const std::uint32_t v : body.mesh.indices) {
    soup.mesh.indices.push_back(std::uint32_t(soup.mesh.positions.size()));
    soup.mesh.positions.push_back(body.mesh.positions[v]);
  }
  const BodyMeasurements welded = measureBody(body), unwelded = measureBody(soup);
  EXPECT_FLOAT_EQ(unwelded.chestGirth, welded.chestGirth);
  EXPECT_FLOAT_EQ(unwelded.waistGirth, welded.waistGirth);
  EXPECT_FLOAT_EQ(unwelded.hipGirth, welded.hipGirth);
  EXPECT_FLOAT_EQ(unwelded.neckGirth, welded.neckGirth);
  EXPECT_FLOAT_EQ(unwelded.thighGirth, welded.thighGirth);
  EXPECT_FLOAT_EQ(unwelded.upperArmGirth, welded.upperArmGirth);
}

TEST(Mannequin, OtherParametersInTPoseAreMetToo) {
  const MannequinParams params = otherParams();
  Result<SkinnedMesh> body = buildMannequin(params);
  ASSERT_TRUE(body) << body.error().message;
  expectClosedGenusZero(body->mesh);
  const Status valid = body->validate();
  EXPECT_TRUE(valid) << valid.error().message;
  expectMeasurementsMatch(*body, params);
  // T-pose: the arms are horizontal, wrists at shoulder height.
  const BodyMeasurements m = measureBody(*body);
  EXPECT_NEAR(m.joint("hand_l").y, m.joint("upper_arm_l").y, 1e-5f);
  EXPECT_GT(m.joint("hand_l").x, m.joint("upper_arm_l").x + 0.5f);
}

TEST(Mannequin, TPoseArmSpanExceedsAPose) {
  MannequinParams tPose;
  tPose.pose = MannequinPose::TPose;
  tPose.cellSize = 0.02f;
  MannequinParams aPose = tPose;
  aPose.pose = MannequinPose::APose;
  Result<SkinnedMesh> t = buildMannequin(tPose);
  Result<SkinnedMesh> a = buildMannequin(aPose);
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_TRUE(a) << a.error().message;
  const float tSpan = axisSpan(t->mesh, 0), aSpan = axisSpan(a->mesh, 0);
  EXPECT_GT(tSpan, aSpan + 0.2f);
  // T-pose span = shoulder width + two arms and hands: about the height (Vitruvian ratio).
  EXPECT_NEAR(tSpan, tPose.height, 0.15f);
  // A-pose at 45 degrees: the left wrist is below and outside the left shoulder.
  const BodyMeasurements m = measureBody(*a);
  const glm::vec3 arm = m.joint("hand_l") - m.joint("upper_arm_l");
  EXPECT_NEAR(std::atan2(-arm.y, arm.x), 45.0f * 3.14159265f / 180.0f, 1e-4f);
}

TEST(Mannequin, StandsOnTheFloorFacingPlusZ) {
  const SkinnedMesh& body = defaultMannequin();
  float lowest = 1e9f;
  for (const glm::vec3& p : body.mesh.positions) lowest = std::min(lowest, p.y);
  EXPECT_EQ(lowest, 0.0f);
  // Toes point to +Z: the feet reach further forward than the heels reach back.
  float front = -1e9f, back = 1e9f;
  for (const glm::vec3& p : body.mesh.positions)
    if (p.y < 0.05f) {
      front = std::max(front, p.z);
      back = std::min(back, p.z);
    }
  EXPECT_GT(front, 2.0f * -back);
  const BodyMeasurements m = measureBody(body);
  EXPECT_GT(m.joint("thigh_l").x, 0.0f);
  EXPECT_LT(m.joint("thigh_r").x, 0.0f);
}

TEST(Mannequin, BadParametersAreErrorsNamingTheParameter) {
  const auto expectError = [](MannequinParams p, const std::string& name) {
    const Status s = p.validate();
    ASSERT_FALSE(s) << name;
    EXPECT_NE(s.error().message.find(name), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("range"), std::string::npos) << s.error().message;
    Result<SkinnedMesh> built = buildMannequin(p);
    ASSERT_FALSE(built);
    EXPECT_EQ(built.error().message, s.error().message);
  };
  MannequinParams p;
  p.height = std::nanf("");
  expectError(p, "height");
  p = {};
  p.height = 3.5f;
  expectError(p, "height");
  p = {};
  p.chestGirth = 2.5f;
  expectError(p, "chestGirth");
  p = {};
  p.waistGirth = -0.8f;
  expectError(p, "waistGirth");
  p = {};
  p.legLength = 1.3f;
  expectError(p, "legLength");
  p = {};
  p.aPoseArmAngleDegrees = 80.0f;
  expectError(p, "aPoseArmAngleDegrees");
  p = {};
  p.cellSize = INFINITY;
  expectError(p, "cellSize");
  EXPECT_TRUE(MannequinParams{}.validate());
}

}  // namespace
}  // namespace hg
