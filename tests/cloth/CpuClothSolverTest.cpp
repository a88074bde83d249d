// CPU reference backend: invariants and bitwise determinism across thread counts.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/StableStep.h"
#include "sim/scene/DrapeScene.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

using test::sheet;

/// No colliders and no air drag.
ClothSettings freeSpace() {
  ClothSettings s = test::withoutColliders();
  s.velocityDamping = 0.0f;
  return s;
}

/// Sum over vertices of the internal (spring + bending) forces, and their torque.
std::pair<glm::dvec3, glm::dvec3> internalForceSum(const ClothModel& model, const ClothState& state) {
  const kernels::ClothStepParams p = ClothSettings{}.stepParams(model, 1, 0.0f);
  glm::dvec3 sum(0.0), torque(0.0);
  auto add = [&](std::uint32_t vertex, glm::vec3 f) {
    sum += glm::dvec3(f);
    torque += glm::cross(glm::dvec3(state.positions[vertex]), glm::dvec3(f));
  };
  for (const auto& s : model.springs) {
    const glm::vec3 f = kernels::springForce(glm::vec3(state.positions[s.a]), glm::vec3(state.positions[s.b]),
                                             glm::vec3(0.0f), glm::vec3(0.0f), s, p);
    add(s.a, f);
    add(s.b, -f);
  }
  for (const auto& h : model.hinges) {
    const glm::uvec4 v = h.vertices;
    const auto f = kernels::bendingForces(glm::vec3(state.positions[v.x]), glm::vec3(state.positions[v.y]),
                                          glm::vec3(state.positions[v.z]), glm::vec3(state.positions[v.w]), h);
    add(v.x, f.f0);
    add(v.y, f.f1);
    add(v.z, f.f2);
    add(v.w, f.f3);
  }
  return {sum, torque};
}

ClothState perturbed(const ClothModel& model, unsigned seed) {
  ClothState state = restState(model);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(-0.01f, 0.01f);
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    state.positions[i] += glm::vec4(jitter(rng), jitter(rng), jitter(rng), 0.0f);
    state.velocities[i] = glm::vec4(jitter(rng), jitter(rng), jitter(rng), 0.0f) * 10.0f;
  }
  return state;
}

double energy(const ClothModel& model, const ClothState& state, const ClothSettings& settings) {
  double kinetic = 0.0, potential = 0.0;
  for (std::size_t i = 0; i < model.vertexCount(); ++i) {
    const float w = state.positions[i].w;
    if (w > 0.0f) {
      const glm::dvec3 v(state.velocities[i]);
      kinetic += 0.5 / w * glm::dot(v, v);
      potential -= 1.0 / w * glm::dot(glm::dvec3(settings.gravity), glm::dvec3(state.positions[i]));
    }
  }
  for (const auto& s : model.springs) {
    const double stretch =
        glm::distance(glm::dvec3(state.positions[s.a]), glm::dvec3(state.positions[s.b])) - s.restLength;
    potential += 0.5 * s.stiffness * stretch * stretch;
  }
  for (const auto& h : model.hinges) {
    const glm::uvec4 v = h.vertices;
    const float theta = kernels::hingeAngle(glm::vec3(state.positions[v.x]), glm::vec3(state.positions[v.y]),
                                            glm::vec3(state.positions[v.z]), glm::vec3(state.positions[v.w]));
    potential += h.stiffness * (1.0 - std::cos(theta - h.restAngle));
  }
  return kinetic + potential;
}

TEST(ClothInvariants, InternalForcesSumToZeroWithZeroTorque) {
  ClothMaterial material;
  material.bendingRigidity = 1e-3f;  // make bending matter
  auto model = sheet(17, {}, material);
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto [sum, torque] = internalForceSum(*model, perturbed(*model, seed));
    EXPECT_NEAR(glm::length(sum), 0.0, 1e-3) << "seed " << seed;
    EXPECT_NEAR(glm::length(torque), 0.0, 1e-3) << "seed " << seed;
  }
}

TEST(ClothInvariants, TotalGravityEqualsClothWeight) {
  auto model = sheet(13);
  ClothSettings settings = freeSpace();
  double weight = 0.0;
  for (const glm::vec4& p : model->restPositions) weight += double(settings.gravity.y) / p.w;
  EXPECT_NEAR(weight, -9.81 * model->totalMass, 1e-5);  // W = m g
  EXPECT_NEAR(model->totalMass, 1.6 * 1.6 * ClothMaterial{}.arealDensity, 1e-5);
}

TEST(ClothInvariants, FreeFallMatchesSymplecticEuler) {
  auto model = sheet(8);
  ClothSettings settings = freeSpace();
  settings.substeps = 10;
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  const int frames = 12;
  for (int f = 0; f < frames; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok);
  const ClothState state = (*solver)->readState();
  // Rigid fall, springs at rest: after n substeps of h, y = y0 - g h^2 n (n + 1) / 2.
  const double h = settings.frameDt / settings.substeps;
  const double n = frames * settings.substeps;
  const double expected = 1.3 - 9.81 * h * h * n * (n + 1.0) / 2.0;
  for (const glm::vec4& p : state.positions) EXPECT_NEAR(p.y, expected, 1e-4);
}

TEST(ClothInvariants, RestStaysAtRestWithoutGravity) {
  auto model = sheet(11);
  ClothSettings settings = freeSpace();
  settings.gravity = glm::vec3(0.0f);
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 30; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok);
  const ClothState state = (*solver)->readState();
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    EXPECT_NEAR(glm::distance(glm::vec3(state.positions[i]), glm::vec3(model->restPositions[i])), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(glm::vec3(state.velocities[i])), 0.0f, 1e-6f);
  }
}

TEST(ClothInvariants, PinnedVerticesNeverMove) {
  auto model = sheet(12, {0, 11});
  ClothSettings settings;
  settings.colliders.spheres = {SphereCollider{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f}};
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 40; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok);
  const ClothState state = (*solver)->readState();
  EXPECT_EQ(state.positions[0], model->restPositions[0]);
  EXPECT_EQ(state.positions[11], model->restPositions[11]);
  EXPECT_LT(state.positions[143].y, model->restPositions[143].y - 0.1f);  // the free corner fell
}

TEST(ClothInvariants, PinsFollowTheirTargets) {
  auto model = sheet(12, {0, 11});
  ClothSettings settings;
  settings.colliders.spheres = {SphereCollider{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f}};
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  const std::uint32_t pins[] = {0, 11, 5};  // 5 is not pinned: ignored
  for (int f = 1; f <= 30; ++f) {
    const float shift = 0.01f * float(f);  // the pins slide along +x
    const glm::vec3 targets[] = {glm::vec3(model->restPositions[0]) + glm::vec3(shift, 0.0f, 0.0f),
                                 glm::vec3(model->restPositions[11]) + glm::vec3(shift, 0.0f, 0.0f), glm::vec3(9.0f)};
    (*solver)->setPinTargets(pins, targets);
    ASSERT_EQ((*solver)->step(), StepStatus::Ok);
    const ClothState state = (*solver)->readState();
    EXPECT_EQ(glm::vec3(state.positions[0]), targets[0]);
    EXPECT_EQ(glm::vec3(state.positions[11]), targets[1]);
    EXPECT_NE(glm::vec3(state.positions[5]), targets[2]);
  }
}

TEST(ClothInvariants, DampedEnergyNeverGrows) {
  auto model = sheet(12, {0, 11});  // hanging from two corners: gravity + springs + damping
  ClothSettings settings = freeSpace();
  settings.velocityDamping = 0.5f;
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  double previous = energy(*model, (*solver)->readState(), settings);
  for (int f = 0; f < 120; ++f) {
    ASSERT_EQ((*solver)->step(), StepStatus::Ok);
    const double e = energy(*model, (*solver)->readState(), settings);
    // Symplectic Euler conserves a shadow energy; allow its O(h) wiggle only.
    EXPECT_LE(e, previous + 1e-4 * std::abs(previous) + 1e-6) << "frame " << f;
    previous = e;
  }
}

TEST(ClothInvariants, NothingEndsInsideTheSphere) {
  auto model = sheet(24);
  ClothSettings settings;
  settings.colliders.spheres = {SphereCollider{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f}};
  const SphereCollider& sphere = settings.colliders.spheres.front();
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 90; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok);
  const ClothState state = (*solver)->readState();
  int touching = 0;
  for (const glm::vec4& p : state.positions) {
    const float d = glm::distance(glm::vec3(p), sphere.centre);
    EXPECT_GE(d, sphere.radius + settings.contactOffset - 1e-4f);
    touching += d < sphere.radius + settings.contactOffset + 0.01f;
  }
  EXPECT_GT(touching, 20);  // it actually landed on the sphere
}

TEST(ClothSafety, InstabilityIsReportedInTheStepStatus) {
  ClothMaterial material;
  material.tensileStiffness = 1e7f;  // far beyond what 40 substeps can integrate
  auto model = sheet(10, {}, material);
  ClothSettings settings;
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  ClothState kicked = restState(*model);
  kicked.positions[0].x += 0.01f;
  (*solver)->writeState(kicked);
  StepStatus status = StepStatus::Ok;
  for (int f = 0; f < 10 && !any(status); ++f) status = (*solver)->step();
  EXPECT_TRUE(any(status)) << "an exploding cloth must be flagged";
  EXPECT_NE(describe(status).find("substeps"), std::string::npos);
}

TEST(ClothSafety, SubstepHalvingRecoversAnUnstableStep) {
  ClothMaterial material;
  material.tensileStiffness = 7000.0f;  // unstable at 10 substeps, stable at 20
  auto model = sheet(10, {0, 9}, material);
  ClothSettings settings;
  settings.substeps = 10;
  settings.colliders.spheres.clear();
  auto plain = createCpuClothSolver(model, settings);
  settings.maxSubstepHalvings = 3;
  auto retrying = createCpuClothSolver(model, settings);
  ASSERT_TRUE(plain && retrying);
  StepStatus plainStatus = StepStatus::Ok, retryStatus = StepStatus::Ok;
  for (int f = 0; f < 30; ++f) {
    plainStatus |= (*plain)->step();
    retryStatus |= (*retrying)->step();
  }
  EXPECT_TRUE(any(plainStatus)) << "the test needs a step that is unstable at 10 substeps";
  EXPECT_EQ(retryStatus, StepStatus::Ok);
  EXPECT_GT((*retrying)->lastSubsteps(), 10);
}

TEST(ClothSafety, InvalidSettingsAreRejected) {
  auto model = sheet(4);
  ClothSettings settings;
  settings.substeps = -1;
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_FALSE(solver);
  EXPECT_NE(solver.error().message.find("substeps"), std::string::npos);
}

ClothState runWithThreads(int threads, int frames) {
  ClothMaterial material;
  material.bendingRigidity = 1e-4f;
  // 4225 vertices: above the CPU backend's parallel threshold, not a multiple of any chunk size.
  auto model = sheet(65, {}, material, AnisotropyTexture::uniform(glm::vec4(1.0f, 0.5f, 0.3f, 0.8f)));
  ClothSettings settings;
  settings.colliders.spheres = {SphereCollider{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f}};
  settings.threads = threads;
  settings.plasticRate = 1.0f;
  auto solver = createCpuClothSolver(model, settings);
  EXPECT_TRUE(solver);
  for (int f = 0; f < frames; ++f) (void)(*solver)->step();
  return (*solver)->readState();
}

TEST(CpuDeterminism, BitwiseIdenticalForOneAndTwoThreads) {
  const ClothState one = runWithThreads(1, 30);
  const ClothState two = runWithThreads(2, 30);
  const ClothState three = runWithThreads(3, 30);
  ASSERT_EQ(one.positions.size(), two.positions.size());
  EXPECT_EQ(std::memcmp(one.positions.data(), two.positions.data(), one.positions.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(std::memcmp(one.velocities.data(), two.velocities.data(), one.velocities.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(stateHash(one), stateHash(two));
  EXPECT_EQ(stateHash(one), stateHash(three));
}

}  // namespace
}  // namespace hg

namespace hg {
namespace {

/// An equilateral triangle of three equal springs and masses: its stiffest mode is the
/// breathing mode, omega^2 = 3 k / m. The bound is the power-iteration estimate with its
/// 10 % headroom (below Gershgorin's 4 k / m).
TEST(StableStep, ATriangleBreathesAtThreeKOverM) {
  TriangleMesh mesh;
  mesh.positions = {{0.0f, 0.0f, 0.0f}, {0.1f, 0.0f, 0.0f}, {0.05f, 0.0f, -0.05f * std::sqrt(3.0f)}};
  mesh.uvs = {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.5f, 0.866f}};
  mesh.indices = {0, 1, 2};
  computeVertexNormals(mesh);
  auto model = buildClothModel(mesh, ClothMaterial{});
  ASSERT_TRUE(model) << model.error().message;
  ASSERT_EQ(model->springs.size(), 3u);
  const double k = model->springs[0].stiffness, m = 1.0 / model->restPositions[0].w;
  ClothSettings settings;
  settings.velocityDamping = 0.0f;
  const StableStep stable = explicitStableStep(*model, settings);
  EXPECT_NEAR(stable.omegaSquared / (1.1 * 3.0 * k / m), 1.0, 1e-4);
  // omega^2 dt^2 + 2 gamma dt = 4 at dt = maxSubstep / 0.9.
  const double dt = stable.maxSubstep / 0.9;
  EXPECT_NEAR(stable.omegaSquared * dt * dt + 2.0 * stable.damping * dt, 4.0, 1e-6);
  EXPECT_EQ(stable.substepsPerFrame, int(std::ceil(double(settings.frameDt) / stable.maxSubstep - 1e-9)));
}

/// A stiff pinned sheet: 40 fixed substeps blow up, "auto" (0) takes the stable count and
/// runs; the scene policy refuses the fixed count, naming the count it needs.
TEST(StableStep, AutoSubstepsRunAStiffSheetThatFortyCannot) {
  auto model = test::stiffPinnedSheet();
  ClothSettings settings = test::withoutColliders();
  settings.maxSubstepHalvings = 0;
  settings.substeps = 40;
  auto fixed = createCpuClothSolver(model, settings);
  settings.substeps = 0;
  auto automatic = createCpuClothSolver(model, settings);
  ASSERT_TRUE(fixed && automatic);
  const int needed = explicitStableStep(*model, settings).substepsPerFrame;
  EXPECT_EQ((*automatic)->settings().substeps, needed);
  EXPECT_GT(needed, 40);
  StepStatus fixedStatus = StepStatus::Ok, autoStatus = StepStatus::Ok;
  for (int f = 0; f < 40; ++f) {
    fixedStatus |= (*fixed)->step();
    autoStatus |= (*automatic)->step();
  }
  EXPECT_TRUE(any(fixedStatus)) << "the test needs a sheet that 40 substeps cannot integrate";
  EXPECT_EQ(autoStatus, StepStatus::Ok);
  settings.substeps = 40;
  auto refused = resolveSubsteps(*model, settings);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("solver.substeps = 40 is too few: this cloth needs at least " +
                                         std::to_string(needed)),
            std::string::npos)
      << refused.error().message;
}

// The vertex an unstable step's message names: the fastest, unless one is not finite.
TEST(FastestVertex, NamesTheFastestOrTheFirstNonFiniteVertex) {
  ClothState state;
  EXPECT_FALSE(fastestVertex(state).has_value());
  state.positions = {glm::vec4(0.0f, 1.0f, 0.0f, 1.0f), glm::vec4(1.0f, 2.0f, 3.0f, 1.0f), glm::vec4(0.0f)};
  state.velocities = {glm::vec4(1.0f, 0.0f, 0.0f, 0.0f), glm::vec4(0.0f, -3.0f, 4.0f, 0.0f), glm::vec4(0.0f)};
  std::optional<FastestVertex> fastest = fastestVertex(state);
  ASSERT_TRUE(fastest);
  EXPECT_EQ(fastest->index, 1u);
  EXPECT_FLOAT_EQ(fastest->speed, 5.0f);
  EXPECT_EQ(describe(*fastest, "tshirt"), "vertex 1 (tshirt) at (1.000, 2.000, 3.000) m, 5.0 m/s");
  state.velocities[2].y = std::numeric_limits<float>::quiet_NaN();
  fastest = fastestVertex(state);
  ASSERT_TRUE(fastest);
  EXPECT_EQ(fastest->index, 2u);
  EXPECT_FALSE(fastest->finite);
  EXPECT_EQ(describe(*fastest), "vertex 2 is not finite");
}

}  // namespace
}  // namespace hg
