// Particle skinning (docs/methods.md section 4), CPU backend: the shared kernels, the model,
// invariants (rest pose, rigid motion, determinism) and the joint goals against LBS/DQS.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <glm/gtc/quaternion.hpp>

#include "sim/kernels/Kernels.h"
#include "sim/skinning/ParticleSkinning.h"
#include "sim/skinning/SkinningRig.h"

namespace hg {
namespace {

float diagonalOf(const TriangleMesh& mesh) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return glm::length(hi - lo);
}

float maxDistance(std::span<const glm::vec4> a, std::span<const glm::vec4> b) {
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::length(glm::vec3(a[i] - b[i])));
  return worst;
}

/// A small two-bone cylinder (length 1 m, radius 0.15 m) with coarse particles: fast.
std::shared_ptr<const SkinnedMesh> smallCylinder() { return makeTwoBoneCylinder(1.0f, 0.15f, 21, 24, 0.5f); }

ParticleSkinSettings smallSettings() {
  ParticleSkinSettings settings;
  settings.fill.radius = 0.025f;
  settings.fill.levels = 2;
  return settings;
}

std::shared_ptr<const ParticleSkinModel> buildModel(std::shared_ptr<const SkinnedMesh> body,
                                                    const ParticleSkinSettings& settings) {
  auto model = buildParticleSkinModel(std::move(body), settings);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().message);
  return model.ok() ? *model : nullptr;
}

Pose bentPose(const SkinnedMesh& body, float degrees, glm::vec3 axis = glm::vec3(0.0f, 0.0f, 1.0f)) {
  Pose pose = restPose(body.skeleton);
  pose[1].rotation = glm::angleAxis(glm::radians(degrees), axis);
  return pose;
}

// ---- Kernels ----------------------------------------------------------------------------

TEST(ParticleSkinningKernels, PairForceVanishesAtRestLengthAndObeysNewtonsThirdLaw) {
  kernels::ParticleLink link{1u, 0.05f, 4000.0f, 20.0f};
  const glm::vec3 xi(0.1f, 0.2f, 0.3f), xj = xi + glm::vec3(0.03f, 0.04f, 0.0f);  // |d| = 0.05
  EXPECT_EQ(glm::length(kernels::particlePairForce(xi, glm::vec3(0.0f), xj, glm::vec3(0.0f), link)), 0.0f);
  // Stretched by 1 cm: attraction k * 0.01 along d.
  const glm::vec3 far = xi + glm::vec3(0.06f, 0.0f, 0.0f);
  const glm::vec3 f = kernels::particlePairForce(xi, glm::vec3(0.0f), far, glm::vec3(0.0f), link);
  EXPECT_NEAR(f.x, 4000.0f * 0.01f, 1e-3f);
  EXPECT_NEAR(f.y, 0.0f, 1e-6f);
  // Compressed: repulsion.
  const glm::vec3 near = xi + glm::vec3(0.04f, 0.0f, 0.0f);
  EXPECT_LT(kernels::particlePairForce(xi, glm::vec3(0.0f), near, glm::vec3(0.0f), link).x, 0.0f);
  // Damping: separating at 1 m/s along d gives +c, a sideways velocity gives nothing.
  EXPECT_NEAR(kernels::particlePairForce(xi, glm::vec3(0.0f), xj, glm::vec3(0.6f, 0.8f, 0.0f), link).y, 20.0f * 0.8f,
              1e-4f);
  EXPECT_NEAR(glm::length(kernels::particlePairForce(xi, glm::vec3(0.0f), xj, glm::vec3(0.0f, 0.0f, 1.0f), link)), 0.0f,
              1e-6f);
  // f_ij = -f_ji exactly for any state.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 100; ++k) {
    const glm::vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), va(u(rng), u(rng), u(rng)),
        vb(u(rng), u(rng), u(rng));
    const glm::vec3 fab = kernels::particlePairForce(a, va, b, vb, link),
                    fba = kernels::particlePairForce(b, vb, a, va, link);
    EXPECT_LE(glm::length(fab + fba), 1e-5f * glm::length(fab) + 1e-7f);
  }
}

TEST(ParticleSkinningKernels, ExtractRotationKeepsIdentityAtRestAndRecoversRotations) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<glm::vec3> rest(12);
  for (glm::vec3& r : rest) r = glm::vec3(u(rng), u(rng), u(rng));
  glm::mat3 a(0.0f);
  for (const glm::vec3& r : rest) a += glm::outerProduct(r, r);
  const glm::vec4 identity(0.0f, 0.0f, 0.0f, 1.0f);
  EXPECT_EQ(kernels::extractRotation(a, identity, 32), identity);  // bit for bit at rest

  // A = R M with M symmetric positive definite: the polar rotation is R.
  for (int k = 0; k < 20; ++k) {
    const glm::quat q = glm::angleAxis(2.5f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + 0.01f));
    glm::mat3 m = a;
    for (int d = 0; d < 3; ++d) m[d][d] += 0.5f * (1.0f + u(rng));
    const glm::mat3 deformed = glm::mat3_cast(q) * m;
    const glm::vec4 found = kernels::extractRotation(deformed, identity, 256);
    const float dotAbs = std::abs(found.x * q.x + found.y * q.y + found.z * q.z + found.w * q.w);
    EXPECT_NEAR(dotAbs, 1.0f, 1e-5f) << "case " << k;
  }
}

TEST(ObbDistance, SectionSevenPointDistance) {
  const glm::vec3 g(1.0f, 2.0f, 3.0f);
  const glm::quat r = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
  const glm::vec3 v0 = r * glm::vec3(1, 0, 0), v1 = r * glm::vec3(0, 1, 0), v2 = r * glm::vec3(0, 0, 1);
  const glm::vec3 half(0.5f, 0.2f, 0.1f);
  EXPECT_EQ(kernels::obbPointDistance(g, v0, v1, v2, half, g + 0.4f * v0 + 0.1f * v1), 0.0f);  // inside
  EXPECT_NEAR(kernels::obbPointDistance(g, v0, v1, v2, half, g + 0.8f * v0), 0.3f, 1e-5f);     // face region
  EXPECT_NEAR(kernels::obbPointDistance(g, v0, v1, v2, half, g + 0.8f * v0 + 0.6f * v1 - 0.5f * v2),
              std::sqrt(0.3f * 0.3f + 0.4f * 0.4f + 0.4f * 0.4f), 1e-5f);  // corner region
  // Against brute force over a dense sampling of the box (error below the sample spacing).
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f);
  for (int k = 0; k < 20; ++k) {
    const glm::vec3 p = g + glm::vec3(u(rng), u(rng), u(rng));
    float brute = 1e30f;
    const int n = 24;
    for (int a = 0; a <= n; ++a)
      for (int b = 0; b <= n; ++b)
        for (int c = 0; c <= n; ++c) {
          const glm::vec3 s = glm::vec3(a, b, c) / float(n) * 2.0f - 1.0f;
          brute = std::min(brute, glm::length(p - (g + s.x * half.x * v0 + s.y * half.y * v1 + s.z * half.z * v2)));
        }
    const float d = kernels::obbPointDistance(g, v0, v1, v2, half, p);
    EXPECT_LE(d, brute + 1e-5f);
    EXPECT_GE(d, brute - glm::length(half) / float(n) - 1e-5f);
  }
}

// ---- Model ------------------------------------------------------------------------------

TEST(ParticleSkinning, ModelLinksAreSymmetricWithPackingRestLengthsAndBonesFollowTheNearestSegment) {
  auto body = smallCylinder();
  auto model = buildModel(body, smallSettings());
  ASSERT_TRUE(model);
  const std::size_t n = model->particleCount();
  ASSERT_GT(n, 50u);
  std::size_t links = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t k = model->linkOffsets[i]; k < model->linkOffsets[i + 1]; ++k) {
      const kernels::ParticleLink& link = model->links[k];
      const std::uint32_t j = link.neighbour;
      ASSERT_NE(j, i);
      if (k > model->linkOffsets[i]) {
        EXPECT_LT(model->links[k - 1].neighbour, j);  // ascending
      }
      const auto begin = model->links.begin() + model->linkOffsets[j],
                 end = model->links.begin() + model->linkOffsets[j + 1];
      EXPECT_TRUE(std::any_of(begin, end, [&](const kernels::ParticleLink& back) { return back.neighbour == i; }));
      const glm::vec4 pi = model->particles[i].position, pj = model->particles[j].position;
      EXPECT_EQ(link.restLength, glm::length(glm::vec3(pj) - glm::vec3(pi)));
      EXPECT_LT(link.restLength - pi.w - pj.w, 2.0f * std::min(pi.w, pj.w));
      ++links;
    }
    // Bone: joint 1 ("joint", at x = 0.5, a leaf) beyond the joint, joint 0 before it.
    const float x = model->particles[i].position.x;
    if (x < 0.45f) {
      EXPECT_EQ(model->particles[i].bone.x, 0u) << "particle at x = " << x;
    }
    if (x > 0.55f) {
      EXPECT_EQ(model->particles[i].bone.x, 1u) << "particle at x = " << x;
    }
  }
  EXPECT_GT(links, 6 * n);  // closest packing: up to 42 links inside
  // Every vertex is bound to four distinct particles with weights summing to 1.
  for (const kernels::VertexBinding& b : model->bindings) {
    EXPECT_NEAR(b.weights.x + b.weights.y + b.weights.z + b.weights.w, 1.0f, 1e-6f);
    EXPECT_NE(b.particles.x, b.particles.y);
    EXPECT_NE(b.particles.z, b.particles.w);
  }
}

TEST(ParticleSkinning, SettingsOutOfRangeAreRejectedWithTheirNames) {
  auto body = smallCylinder();
  ParticleSkinSettings settings = smallSettings();
  settings.iterations = 101;
  auto model = buildParticleSkinModel(body, settings);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().message.find("iterations"), std::string::npos);
  settings = smallSettings();
  settings.timeStep = std::nanf("");
  model = buildParticleSkinModel(body, settings);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().message.find("time_step"), std::string::npos);
  settings = smallSettings();
  settings.fill.radius = 1.0f;  // larger than the body
  model = buildParticleSkinModel(body, settings);
  ASSERT_FALSE(model.ok());
  EXPECT_FALSE(parseParticleIntegrator("verlet").ok());
  EXPECT_EQ(*parseParticleIntegrator("adams"), ParticleIntegrator::Adams);
}

// ---- Invariants ------------------------------------------------------------------------

TEST(ParticleSkinning, RestPoseIsReproducedByEveryIntegratorAndSurfaceVariant) {
  auto body = smallCylinder();
  const float diagonal = diagonalOf(body->mesh);
  std::vector<glm::vec4> rest;
  for (const glm::vec3& p : body->mesh.positions) rest.emplace_back(p, 1.0f);
  for (ParticleIntegrator integrator :
       {ParticleIntegrator::ImprovedEuler, ParticleIntegrator::Adams, ParticleIntegrator::Leapfrog})
    for (SurfaceFrame frame : {SurfaceFrame::Local, SurfaceFrame::Bone})
      for (SurfaceWeights weights : {SurfaceWeights::Average, SurfaceWeights::InverseDistance}) {
        ParticleSkinSettings settings = smallSettings();
        settings.integrator = integrator;
        settings.surfaceFrame = frame;
        settings.surfaceWeights = weights;
        auto model = buildModel(body, settings);
        ASSERT_TRUE(model);
        auto skinner = createCpuParticleSkinner(model);
        ASSERT_TRUE(skinner.ok());
        ASSERT_TRUE((*skinner)->advance(restPose(body->skeleton), 50).ok());
        auto surface = (*skinner)->surface();
        ASSERT_TRUE(surface.ok());
        EXPECT_LE(maxDistance(surface->positions, rest), 1e-6f * diagonal)
            << particleIntegratorName(integrator) << " " << surfaceFrameName(frame) << " "
            << surfaceWeightsName(weights);
      }
}

TEST(ParticleSkinning, RigidMotionOfTheWholeSkeletonIsFollowedWithin1e5OfTheDiagonal) {
  auto body = smallCylinder();
  const float diagonal = diagonalOf(body->mesh);
  auto model = buildModel(body, smallSettings());
  ASSERT_TRUE(model);
  auto skinner = createCpuParticleSkinner(model);
  ASSERT_TRUE(skinner.ok());
  Pose pose = restPose(body->skeleton);
  const glm::quat turn = glm::angleAxis(0.8f, glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f)));
  const glm::vec3 shift(0.3f, -0.2f, 0.5f);
  // Moved over 20 frames, then held.
  for (int f = 1; f <= 20; ++f) {
    const float t = float(f) / 20.0f;
    pose[0].rotation = glm::slerp(glm::quat(1, 0, 0, 0), turn, t);
    pose[0].translation = t * shift;
    ASSERT_TRUE((*skinner)->advance(pose, 8).ok());
  }
  // Held for 20 s: the bone pull (5 rad/s, damping ratio 1/2) decays by e^-50; a
  // speed criterion cannot tell this, its floor is the float noise (~6e-5 m/s at 1 m and 1 ms).
  ASSERT_TRUE((*skinner)->advance(pose, 19200).ok());
  auto surface = (*skinner)->surface();
  ASSERT_TRUE(surface.ok());
  float worst = 0.0f;
  for (std::size_t v = 0; v < body->mesh.positions.size(); ++v)
    worst = std::max(worst, glm::length(glm::vec3(surface->positions[v]) - (turn * body->mesh.positions[v] + shift)));
  EXPECT_LE(worst, 1e-5f * diagonal);
}

TEST(ParticleSkinning, CpuBackendIsBitwiseIdenticalForOneAndTwoThreads) {
  auto body = makeTwoBoneCylinder(2.0f, 0.25f, 41, 32, 1.0f);
  ParticleSkinSettings settings;
  settings.fill.radius = 0.02f;  // above the OpenMP threshold of 2048 particles
  auto model = buildModel(body, settings);
  ASSERT_TRUE(model);
  ASSERT_GE(model->particleCount(), 2048u);
  std::vector<SkinnedSurface> surfaces;
  for (int threads : {1, 2}) {
    auto skinner = createCpuParticleSkinner(model, threads);
    ASSERT_TRUE(skinner.ok());
    for (int f = 1; f <= 5; ++f) ASSERT_TRUE((*skinner)->advance(bentPose(*body, 12.0f * float(f)), 10).ok());
    auto surface = (*skinner)->surface();
    ASSERT_TRUE(surface.ok());
    surfaces.push_back(std::move(*surface));
  }
  ASSERT_EQ(surfaces[0].positions.size(), surfaces[1].positions.size());
  for (std::size_t v = 0; v < surfaces[0].positions.size(); ++v)
    ASSERT_EQ(surfaces[0].positions[v], surfaces[1].positions[v]) << v;
}

TEST(ParticleSkinning, AllIntegratorsSettleToTheSameBentShape) {
  auto body = smallCylinder();
  std::vector<std::vector<glm::vec4>> settled;
  for (ParticleIntegrator integrator :
       {ParticleIntegrator::ImprovedEuler, ParticleIntegrator::Adams, ParticleIntegrator::Leapfrog}) {
    ParticleSkinSettings settings = smallSettings();
    settings.integrator = integrator;
    auto model = buildModel(body, settings);
    ASSERT_TRUE(model);
    auto skinner = createCpuParticleSkinner(model);
    ASSERT_TRUE(skinner.ok());
    for (int f = 1; f <= 10; ++f) ASSERT_TRUE((*skinner)->advance(bentPose(*body, 9.0f * float(f)), 10).ok());
    auto steps = (*skinner)->settle(bentPose(*body, 90.0f), 2e-4f, 40000);
    ASSERT_TRUE(steps.ok());
    EXPECT_LE(*steps, 40000) << particleIntegratorName(integrator) << " did not settle";
    settled.push_back((*skinner)->readParticles().positions);
  }
  const float diagonal = diagonalOf(body->mesh);
  EXPECT_LE(maxDistance(settled[0], settled[2]), 1e-4f * diagonal);
  EXPECT_LE(maxDistance(settled[1], settled[2]), 1e-4f * diagonal);
}

TEST(ParticleSkinning, TooLargeATimeStepIsReportedAsDivergence) {
  auto body = smallCylinder();
  ParticleSkinSettings settings = smallSettings();
  settings.timeStep = 0.05f;  // far beyond the springs' stability limit
  auto model = buildModel(body, settings);
  ASSERT_TRUE(model);
  auto skinner = createCpuParticleSkinner(model);
  ASSERT_TRUE(skinner.ok());
  Status status = Status::success();
  for (int f = 1; f <= 10 && status.ok(); ++f) status = (*skinner)->advance(bentPose(*body, 9.0f * float(f)), 20);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("diverged"), std::string::npos) << status.error().message;
}

// ---- The goals (issue: >= 0.95 joint volume and >= 0.8 minimum radius at a 90-degree
// bend and a 180-degree twist; LBS about 0.83 and 0.33 there) ----------------------------

struct GoalCase {
  const char* rig;
  float angle;
};

class ParticleSkinningGoals : public ::testing::TestWithParam<GoalCase> {};

TEST_P(ParticleSkinningGoals, KeepsJointVolumeAndRadiusWhereVertexBlendingLosesThem) {
  const GoalCase c = GetParam();
  auto loaded = loadSkinningRig(std::string(HG_SOURCE_DIR) + "/scenes/skin/" + c.rig);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  SkinningRig rig = std::move(*loaded);
  // Every third frame (15 degrees apart) up to the goal angle, each settled: the
  // quasi-static shape at the goal, as `hagoromo skin` measures it, in fewer frames.
  std::vector<float> parameters;
  std::vector<Pose> poses;
  for (std::size_t f = 0; f < rig.parameters.size() && rig.parameters[f] < c.angle + 1e-3f; f += 3) {
    parameters.push_back(rig.parameters[f]);
    poses.push_back(rig.poses[f]);
  }
  ASSERT_NEAR(parameters.back(), c.angle, 1e-3f);
  rig.parameters = std::move(parameters);
  rig.poses = std::move(poses);

  auto lbs = createCpuBodySkinner(rig.body, SkinningMethod::Linear);
  auto dqs = createCpuBodySkinner(rig.body, SkinningMethod::DualQuaternion);
  ASSERT_TRUE(lbs.ok() && dqs.ok());
  // The last frame's surfaces of LBS and particle skinning.
  std::vector<glm::vec4> lbsLast, particleLast;
  const auto keepLast = [&](std::vector<glm::vec4>& into) {
    return [&into](std::size_t, std::span<const glm::vec4> positions) {
      into.assign(positions.begin(), positions.end());
      return Status::success();
    };
  };
  auto lbsRun = runRig(rig, **lbs, keepLast(lbsLast));
  auto dqsRun = runRig(rig, **dqs);
  ASSERT_TRUE(lbsRun.ok()) << lbsRun.error().message;
  ASSERT_TRUE(dqsRun.ok()) << dqsRun.error().message;
  auto model = buildModel(rig.body, rig.particles);
  ASSERT_TRUE(model);
  auto particle = createCpuParticleSkinner(model);
  ASSERT_TRUE(particle.ok());
  auto particleRun = runRig(rig, **particle, keepLast(particleLast));
  ASSERT_TRUE(particleRun.ok()) << particleRun.error().message;

  // The limbs follow their bones: where the skin is rigid (one weight of 1, outside the
  // blend zone) LBS is exact; the particle surface stays near it, on average within
  // 0.25 % of the bounding-box diagonal and everywhere within 2 % (the largest next to the
  // blend zone, whose springs pull on it). A solid too stiff for its bones fails this:
  // springs 640 times the bone pull left this limb bent 90 degrees 0.39 m off its bones.
  ASSERT_EQ(lbsLast.size(), particleLast.size());
  double worst = 0.0, sum = 0.0;
  std::size_t rigid = 0;
  for (std::size_t v = 0; v < lbsLast.size(); ++v) {
    const glm::vec4 w = rig.body->skin.weights[v];
    if (std::max(std::max(w.x, w.y), std::max(w.z, w.w)) < 0.999f) continue;
    ++rigid;
    const double d = double(glm::length(glm::vec3(lbsLast[v] - particleLast[v])));
    worst = std::max(worst, d);
    sum += d;
  }
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec3& x : rig.body->mesh.positions) {
    lo = glm::min(lo, x);
    hi = glm::max(hi, x);
  }
  const double diagonal = double(glm::length(hi - lo));
  ASSERT_GT(rigid, lbsLast.size() / 4);
  const double mean = sum / double(rigid);
  std::printf(
      "%zu rigid vertices: the particle surface off their bones' by %.4f m on average, %.4f m at most "
      "(diagonal %.2f m)\n",
      rigid, mean, worst, diagonal);
  EXPECT_LE(mean, 0.0025 * diagonal);
  EXPECT_LE(worst, 0.02 * diagonal);

  const JointZoneRatios l = lbsRun->ratios.back(), d = dqsRun->ratios.back(), p = particleRun->ratios.back();
  std::printf(
      "%s at %.0f: volume LBS %.3f DQS %.3f particle %.3f; min radius LBS %.3f DQS %.3f particle %.3f; "
      "bulge LBS %.3f DQS %.3f particle %.3f (%zu particles)\n",
      c.rig, double(c.angle), l.volumeRatio, d.volumeRatio, p.volumeRatio, l.minRadiusRatio, d.minRadiusRatio,
      p.minRadiusRatio, l.maxBulge, d.maxBulge, p.maxBulge, model->particleCount());
  EXPECT_GE(p.volumeRatio, 0.95);
  EXPECT_GE(p.minRadiusRatio, 0.8);
  EXPECT_LT(l.volumeRatio, 0.95);  // what the particles are for
  EXPECT_LT(std::min(l.minRadiusRatio, l.volumeRatio), p.minRadiusRatio);

  // Why the bone target departs from the source (ParticleSkinSettings::boneTarget): each
  // particle pulled rigidly by its one bone wrings a 180-degree twist.
  if (c.angle == 180.0f) {
    SkinningRig source = rig;
    source.particles.boneTarget = BoneTarget::Bone;
    auto sourceModel = buildModel(source.body, source.particles);
    ASSERT_TRUE(sourceModel);
    auto sourceSkinner = createCpuParticleSkinner(sourceModel);
    ASSERT_TRUE(sourceSkinner.ok());
    auto sourceRun = runRig(source, **sourceSkinner);
    ASSERT_TRUE(sourceRun.ok()) << sourceRun.error().message;
    const JointZoneRatios q = sourceRun->ratios.back();
    std::printf("the source's one-bone target: volume %.3f, min radius %.3f\n", q.volumeRatio, q.minRadiusRatio);
    EXPECT_LT(q.minRadiusRatio, 0.8);
  }
}

INSTANTIATE_TEST_SUITE_P(Rigs, ParticleSkinningGoals,
                         ::testing::Values(GoalCase{"bend_cylinder.json", 90.0f},
                                           GoalCase{"twist_cylinder.json", 180.0f}),
                         [](const ::testing::TestParamInfo<GoalCase>& param) {
                           const std::string rig = param.param.rig;
                           return rig.substr(0, rig.find('.'));
                         });

}  // namespace
}  // namespace hg
