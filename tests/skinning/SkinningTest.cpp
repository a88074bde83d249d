// Body skinning: the shared kernels (sim/kernels/skinning.glslh) and the CPU backend
// (sim/skinning/BodySkinner.h). LBS and DQS (Kavan, Collins, Zara, O'Sullivan 2008,
// "Geometric skinning with approximate dual quaternion blending"). Units: metres.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/kernels/Kernels.h"
#include "sim/skinning/BodySkinner.h"
#include "tests/support/SkinningFixtures.h"

namespace hg {
namespace {

using kernels::DualQuaternion;
using kernels::SkinnedVertex;

void expectNear(glm::vec3 a, glm::vec3 b, float tolerance, const char* what) {
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], tolerance) << what << " component " << k;
}

glm::quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> g;
  return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

glm::vec4 randomWeights(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.05f, 1.0f);
  glm::vec4 w(u(rng), u(rng), u(rng), u(rng));
  return w / (w.x + w.y + w.z + w.w);
}

glm::vec3 randomVector(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  return {u(rng), u(rng), u(rng)};
}

glm::mat4 rigid(glm::quat rotation, glm::vec3 translation) {
  return glm::translate(glm::mat4(1.0f), translation) * glm::mat4_cast(rotation);
}

DualQuaternion negated(DualQuaternion q) {
  q.real = -q.real;
  q.dual = -q.dual;
  return q;
}

// ---- Kernels ------------------------------------------------------------------------

// All four influences share one rigid transform: both methods reproduce it for any
// weights (LBS: sum w M = M; DQS: the blend of four equal unit dual quaternions).
TEST(SkinningKernel, RigidMotionIsExactForAnyWeights) {
  std::mt19937 rng(7);
  for (int c = 0; c < 500; ++c) {
    const glm::quat r = randomRotation(rng);
    const glm::mat4 m = rigid(r, randomVector(rng));
    const glm::vec3 p = randomVector(rng), n = glm::normalize(randomVector(rng));
    const glm::vec4 w = randomWeights(rng);
    const glm::vec3 expectedP(m * glm::vec4(p, 1.0f)), expectedN = r * n;
    const SkinnedVertex lbs = kernels::linearBlendSkin(p, n, m, m, m, m, w);
    expectNear(lbs.position, expectedP, 1e-5f, "LBS position");
    expectNear(lbs.normal, expectedN, 1e-5f, "LBS normal");
    const DualQuaternion q = kernels::rigidDualQuaternion(m);
    const SkinnedVertex dqs = kernels::dualQuaternionSkin(p, n, q, q, q, q, w);
    expectNear(dqs.position, expectedP, 1e-5f, "DQS position");
    expectNear(dqs.normal, expectedN, 1e-5f, "DQS normal");
  }
}

// Identity skinning matrices reproduce the rest position bit for bit with weights that
// do not sum to exactly 1 in float, and the rest normal to rounding.
TEST(SkinningKernel, IdentityReproducesRestExactly) {
  std::mt19937 rng(11);
  const glm::mat4 identity(1.0f);
  const DualQuaternion q = kernels::rigidDualQuaternion(identity);
  EXPECT_EQ(q.real, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_EQ(glm::vec3(q.dual), glm::vec3(0.0f));
  for (int c = 0; c < 1000; ++c) {
    const glm::vec3 p = 3.0f * randomVector(rng), n = glm::normalize(randomVector(rng));
    const glm::vec4 w = randomWeights(rng);
    const SkinnedVertex lbs = kernels::linearBlendSkin(p, n, identity, identity, identity, identity, w);
    const SkinnedVertex dqs = kernels::dualQuaternionSkin(p, n, q, q, q, q, w);
    ASSERT_EQ(lbs.position, p) << "case " << c;
    ASSERT_EQ(dqs.position, p) << "case " << c;
    expectNear(lbs.normal, n, 1e-6f, "LBS normal");
    expectNear(dqs.normal, n, 1e-6f, "DQS normal");
  }
}

// The dual quaternion of a rotation matrix is its quaternion (up to sign) with zero
// translation, and DQS with it rotates exactly like the matrix. Includes the 180-degree
// rotations about each axis (Shepperd's three trace < 0 branches).
TEST(SkinningKernel, DqsOfPureRotationEqualsTheRotation) {
  std::mt19937 rng(3);
  std::vector<glm::quat> rotations;
  for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(1, 1, 0)})
    rotations.push_back(glm::angleAxis(glm::pi<float>(), glm::normalize(axis)));
  for (int c = 0; c < 500; ++c) rotations.push_back(randomRotation(rng));
  for (const glm::quat& r : rotations) {
    const DualQuaternion q = kernels::rigidDualQuaternion(glm::mat4_cast(r));
    const glm::vec4 expected(r.x, r.y, r.z, r.w);
    const float sign = glm::dot(q.real, expected) < 0.0f ? -1.0f : 1.0f;
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(q.real[k], sign * expected[k], 1e-6f);
    expectNear(kernels::dualQuaternionTranslation(q), glm::vec3(0.0f), 1e-6f, "translation");
    const glm::vec3 p = randomVector(rng), n = glm::normalize(randomVector(rng));
    const SkinnedVertex s = kernels::dualQuaternionSkin(p, n, q, q, q, q, randomWeights(rng));
    expectNear(s.position, r * p, 1e-5f, "rotated position");
    expectNear(s.normal, r * n, 1e-5f, "rotated normal");
  }
}

// q and -q are the same rigid transform: negating any influence (hemisphere correction
// against the first one) or all of them leaves the blend unchanged.
TEST(SkinningKernel, AntipodalQuaternionsGiveTheSameResult) {
  std::mt19937 rng(5);
  int differs = 0;
  for (int c = 0; c < 500; ++c) {
    DualQuaternion q[4];
    for (DualQuaternion& d : q) d = kernels::rigidDualQuaternion(rigid(randomRotation(rng), randomVector(rng)));
    const glm::vec3 p = randomVector(rng), n = glm::normalize(randomVector(rng));
    const glm::vec4 w = randomWeights(rng);
    const SkinnedVertex base = kernels::dualQuaternionSkin(p, n, q[0], q[1], q[2], q[3], w);
    for (int flip = 1; flip < 16; ++flip) {
      DualQuaternion f[4];
      for (int k = 0; k < 4; ++k) f[k] = (flip >> k) & 1 ? negated(q[k]) : q[k];
      const SkinnedVertex s = kernels::dualQuaternionSkin(p, n, f[0], f[1], f[2], f[3], w);
      expectNear(s.position, base.position, 1e-6f, "position");
      expectNear(s.normal, base.normal, 1e-6f, "normal");
    }
    // Without the correction, blending -q1 would differ (the test can fail).
    const DualQuaternion m1 = negated(q[1]);
    DualQuaternion naive;
    naive.real = w.x * q[0].real + w.y * m1.real + w.z * q[2].real + w.w * q[3].real;
    naive.dual = w.x * q[0].dual + w.y * m1.dual + w.z * q[2].dual + w.w * q[3].dual;
    const float norm = glm::length(naive.real);
    naive.real /= norm;
    naive.dual /= norm;
    differs += glm::length(kernels::dualQuaternionTransformPoint(naive, p) - base.position) > 1e-3f;
  }
  EXPECT_GT(differs, 400);
}

// DQS keeps the rigid part of a scaled matrix (documented in skinning.glslh): the dual
// quaternion of T R S equals that of T R.
TEST(SkinningKernel, DqsTakesTheRigidPartOfScaledMatrices) {
  std::mt19937 rng(9);
  for (int c = 0; c < 200; ++c) {
    const glm::quat r = randomRotation(rng);
    const glm::vec3 t = randomVector(rng);
    const glm::vec3 scale = c % 2 ? glm::vec3(1.7f) : glm::vec3(0.5f, 1.3f, 2.0f);
    const DualQuaternion a = kernels::rigidDualQuaternion(glm::scale(rigid(r, t), scale));
    const DualQuaternion b = kernels::rigidDualQuaternion(rigid(r, t));
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(a.real[k], b.real[k], 1e-5f);
      EXPECT_NEAR(a.dual[k], b.dual[k], 1e-5f);
    }
    expectNear(kernels::dualQuaternionTranslation(a), t, 1e-5f, "translation");
  }
}

// LBS transforms normals by the cofactor: under non-uniform scale they stay
// perpendicular to transformed tangents.
TEST(SkinningKernel, LbsNormalsStayPerpendicularUnderScale) {
  std::mt19937 rng(13);
  for (int c = 0; c < 200; ++c) {
    const glm::mat4 m = glm::scale(rigid(randomRotation(rng), randomVector(rng)), glm::vec3(0.5f, 1.3f, 2.0f));
    const glm::vec3 n = glm::normalize(randomVector(rng));
    const glm::vec3 tangent = glm::normalize(glm::cross(n, randomVector(rng)));
    const SkinnedVertex s = kernels::linearBlendSkin(glm::vec3(0.0f), n, m, m, m, m, randomWeights(rng));
    EXPECT_NEAR(glm::dot(s.normal, glm::normalize(glm::mat3(m) * tangent)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(s.normal), 1.0f, 1e-6f);
    EXPECT_GT(glm::dot(s.normal, glm::mat3(m) * n), 0.0f);  // same side
  }
}

// ---- CPU backend --------------------------------------------------------------------

std::unique_ptr<CpuBodySkinner> makeCpu(std::shared_ptr<const SkinnedMesh> body, SkinningMethod method,
                                        int threads = 0) {
  auto skinner = createCpuBodySkinner(std::move(body), method, threads);
  EXPECT_TRUE(skinner) << skinner.error().message;
  return skinner ? std::move(skinner).value() : nullptr;
}

class SkinningMethodTest : public ::testing::TestWithParam<SkinningMethod> {};

INSTANTIATE_TEST_SUITE_P(Methods, SkinningMethodTest,
                         ::testing::Values(SkinningMethod::Linear, SkinningMethod::DualQuaternion),
                         [](const auto& method) { return std::string(skinningMethodName(method.param)); });

// The rest pose of a skeleton with a non-identity bind pose reproduces the rest mesh
// (skinning matrices global * inverseBind are identity up to rounding).
TEST_P(SkinningMethodTest, RestPoseReproducesTheRestMesh) {
  auto body = test::chainCylinder(4, 40, 24);
  auto skinner = makeCpu(body, GetParam());
  ASSERT_TRUE(skinner);
  ASSERT_TRUE(skinner->update(restPose(body->skeleton)));
  const SkinnedSurface s = skinner->readSurface();
  ASSERT_EQ(s.positions.size(), body->mesh.vertexCount());
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    expectNear(glm::vec3(s.positions[i]), body->mesh.positions[i], 1e-6f, "position");
    expectNear(glm::vec3(s.normals[i]), body->mesh.normals[i], 1e-6f, "normal");
    EXPECT_EQ(s.positions[i].w, 1.0f);
    EXPECT_EQ(s.normals[i].w, 0.0f);
  }
}

// Every joint moved by the same rigid transform (a root motion): the whole body moves
// rigidly, whatever the weights.
TEST_P(SkinningMethodTest, RootMotionMovesTheBodyRigidly) {
  auto body = test::chainCylinder(4, 30, 16);
  auto skinner = makeCpu(body, GetParam());
  ASSERT_TRUE(skinner);
  Pose pose = restPose(body->skeleton);
  pose[0].rotation = glm::angleAxis(1.1f, glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f)));
  pose[0].translation = glm::vec3(0.4f, -1.0f, 2.0f);
  ASSERT_TRUE(skinner->update(pose));
  const glm::mat4 m = pose[0].matrix();
  for (std::size_t i = 0; i < skinner->vertexCount(); ++i) {
    expectNear(glm::vec3(skinner->positions()[i]), glm::vec3(m * glm::vec4(body->mesh.positions[i], 1.0f)), 1e-5f,
               "position");
    expectNear(glm::vec3(skinner->normals()[i]), pose[0].rotation * body->mesh.normals[i], 1e-5f, "normal");
  }
}

// Normals stay unit length in random poses (with a scaled joint) and through the
// LBS collapse of a 180-degree twist.
TEST_P(SkinningMethodTest, NormalsStayUnit) {
  auto chain = test::chainCylinder(4, 40, 24);
  auto chainSkinner = makeCpu(chain, GetParam());
  auto twist = test::twoBoneCylinder(81, 24);
  auto twistSkinner = makeCpu(twist, GetParam());
  ASSERT_TRUE(chainSkinner && twistSkinner);
  std::mt19937 rng(17);
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(chainSkinner->update(test::randomPose(chain->skeleton, rng, 1.2f, k % 2 ? 1.3f : 1.0f)));
    for (const glm::vec4& n : chainSkinner->normals()) ASSERT_NEAR(glm::length(n), 1.0f, 1e-5f);
  }
  Pose pose = restPose(twist->skeleton);
  pose[1].rotation = glm::angleAxis(glm::pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f));
  ASSERT_TRUE(twistSkinner->update(pose));
  for (const glm::vec4& n : twistSkinner->normals()) ASSERT_NEAR(glm::length(n), 1.0f, 1e-5f);
}

// The CPU backend is bitwise deterministic for any thread count (each vertex is one
// pure kernel call; schedule(static)). 4098 vertices: above the parallel threshold.
TEST_P(SkinningMethodTest, OneAndTwoThreadsAreBitwiseIdentical) {
  auto body = test::chainCylinder(5, 128, 32);
  ASSERT_GE(body->mesh.vertexCount(), 4096u);
  auto one = makeCpu(body, GetParam(), 1);
  auto two = makeCpu(body, GetParam(), 2);
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->threads(), 1);
  EXPECT_EQ(two->threads(), 2);
  std::mt19937 rng(19);
  for (int k = 0; k < 3; ++k) {
    const Pose pose = test::randomPose(body->skeleton, rng, 1.0f, 1.2f);
    ASSERT_TRUE(one->update(pose));
    ASSERT_TRUE(two->update(pose));
    const std::size_t bytes = body->mesh.vertexCount() * sizeof(glm::vec4);
    EXPECT_EQ(std::memcmp(one->positions().data(), two->positions().data(), bytes), 0);
    EXPECT_EQ(std::memcmp(one->normals().data(), two->normals().data(), bytes), 0);
  }
}

// The candy-wrapper test (Kavan et al. 2008, Fig. 1): a closed two-bone cylinder (2 m
// long, 0.25 m radius, weights blending linearly over the middle metre) twisted 180
// degrees about its axis at the joint. DQS rotates each cross-section rigidly and keeps
// the volume; LBS scales the blend region's cross-sections by |1 - 2w|, which loses
// 2/3 of the blend region's volume (1/3 of the body's).
TEST(SkinningVolume, TwistBy180DegreesDqsKeepsVolumeLbsCollapses) {
  auto body = test::twoBoneCylinder(161, 32);
  const std::vector<glm::vec4> rest = test::restPositions(body->mesh);
  const double restVolume = test::enclosedVolume(rest, body->mesh.indices);
  ASSERT_NEAR(restVolume, glm::pi<double>() * 0.25 * 0.25 * 2.0, 0.01 * restVolume);  // closed and outward
  Pose pose = restPose(body->skeleton);
  pose[1].rotation = glm::angleAxis(glm::pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f));
  double ratio[2] = {};
  for (SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    auto skinner = makeCpu(body, method);
    ASSERT_TRUE(skinner);
    ASSERT_TRUE(skinner->update(pose));
    const double volume = test::enclosedVolume(skinner->positions(), body->mesh.indices);
    ratio[int(method)] = volume / restVolume;
    std::printf("[ twist 180 ] %-15s volume %.6f m^3 of rest %.6f m^3: %.2f%% kept\n",
                std::string(skinningMethodName(method)).c_str(), volume, restVolume, 100.0 * volume / restVolume);
  }
  EXPECT_NEAR(ratio[int(SkinningMethod::DualQuaternion)], 1.0, 0.01);
  EXPECT_LT(ratio[int(SkinningMethod::Linear)], 0.8);
  // The DQS twist is real: the far end turned over (y of the cap ring negated).
  auto dqs = makeCpu(body, SkinningMethod::DualQuaternion);
  ASSERT_TRUE(dqs && dqs->update(pose));
  const std::size_t farRing = 160 * 32;  // first vertex of the last ring, rest (2, 0.25, 0)
  expectNear(glm::vec3(dqs->positions()[farRing]), glm::vec3(2.0f, -0.25f, 0.0f), 1e-5f, "far end");
}

TEST(BodySkinner, RejectsBadInput) {
  EXPECT_FALSE(createCpuBodySkinner(nullptr, SkinningMethod::Linear));
  auto body = test::chainCylinder(3, 10, 8);
  EXPECT_FALSE(createCpuBodySkinner(body, SkinningMethod::Linear, -1));
  auto skinner = makeCpu(body, SkinningMethod::DualQuaternion);
  ASSERT_TRUE(skinner);
  Pose shortPose = restPose(body->skeleton);
  shortPose.pop_back();
  const Status wrongSize = skinner->update(shortPose);
  ASSERT_FALSE(wrongSize);
  EXPECT_NE(wrongSize.error().message.find("pose has 2 joint transforms"), std::string::npos)
      << wrongSize.error().message;
  Pose nanPose = restPose(body->skeleton);
  nanPose[1].translation.x = std::nanf("");
  EXPECT_FALSE(skinner->update(nanPose));
  auto badWeights = std::make_shared<SkinnedMesh>(*body);
  badWeights->skin.weights[3] = glm::vec4(0.5f, 0.0f, 0.0f, 0.0f);
  EXPECT_FALSE(createCpuBodySkinner(badWeights, SkinningMethod::Linear));
  auto badNormals = std::make_shared<SkinnedMesh>(*body);
  badNormals->mesh.normals.pop_back();
  EXPECT_FALSE(createCpuBodySkinner(badNormals, SkinningMethod::Linear));
}

// A mesh without normals gets area-weighted ones from its triangles.
TEST(BodySkinner, ComputesMissingNormals) {
  auto body = test::chainCylinder(3, 10, 8);
  auto noNormals = std::make_shared<SkinnedMesh>(*body);
  noNormals->mesh.normals.clear();
  auto vertices = skinVertices(*noNormals);
  ASSERT_TRUE(vertices) << vertices.error().message;
  for (std::size_t i = 0; i < body->mesh.vertexCount(); ++i)
    EXPECT_EQ(glm::vec3((*vertices)[i].normal), body->mesh.normals[i]);
}

// Imported weights need not be ordered: the largest influence is moved to slot 0 (the
// DQS antipodality reference, which needs a positive weight), joints moving with it.
TEST(BodySkinner, MovesTheLargestInfluenceFirst) {
  auto body = std::make_shared<SkinnedMesh>(*test::chainCylinder(3, 10, 8));
  body->skin.joints[0] = glm::uvec4(0, 1, 2, 0);
  body->skin.weights[0] = glm::vec4(0.0f, 0.25f, 0.75f, 0.0f);
  auto vertices = skinVertices(*body);
  ASSERT_TRUE(vertices) << vertices.error().message;
  EXPECT_EQ((*vertices)[0].joints, glm::uvec4(2, 1, 0, 0));
  EXPECT_EQ((*vertices)[0].weights, glm::vec4(0.75f, 0.25f, 0.0f, 0.0f));
}

TEST(BodySkinner, MethodNames) {
  for (SkinningMethod m : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    auto parsed = parseSkinningMethod(skinningMethodName(m));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, m);
  }
  EXPECT_EQ(*parseSkinningMethod("dqs"), SkinningMethod::DualQuaternion);
  EXPECT_FALSE(parseSkinningMethod("spline"));
}

}  // namespace
}  // namespace hg
