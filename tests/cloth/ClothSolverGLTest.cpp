// One test body for both backends (value-parameterized), then CPU vs GPU cross-checks.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/cloth/StableStep.h"
#include "sim/garment/Dressing.h"
#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/ClothFixtures.h"
#include "tests/support/GlTest.h"

namespace hg {

/// Readable test names in gtest output ("cpu" / "gpu" rather than bytes).
void PrintTo(Backend backend, std::ostream* os) { *os << backendName(backend); }

namespace {

using test::sheet;
using test::worstExcess;

/// The sphere the sheets (1.3 m up) drape onto: 0.5 m at (0, 0.6, 0).
const SphereCollider kSphere{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f};

class ClothSolverGLTest : public test::GlTest, public ::testing::WithParamInterface<Backend> {
 protected:
  std::unique_ptr<ClothSolver> make(std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    auto solver = createClothSolver(GetParam(), std::move(model), settings);
    EXPECT_TRUE(solver) << solver.error().message;
    return solver ? std::move(solver).value() : nullptr;
  }
};

TEST_P(ClothSolverGLTest, FreeFallIsAnalytic) {
  ClothSettings settings;
  settings.colliders.spheres.clear();
  settings.colliders.grounds.clear();
  settings.velocityDamping = 0.0f;
  settings.substeps = 10;
  auto solver = make(sheet(20), settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 12; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  const double h = settings.frameDt / settings.substeps, n = 120.0;
  const double expected = 1.3 - 9.81 * h * h * n * (n + 1.0) / 2.0;
  for (const glm::vec4& p : solver->readState().positions) EXPECT_NEAR(p.y, expected, 2e-4);
}

/// substeps 0 ("auto"): both backends take the explicit integrator's stable count
/// (sim/cloth/StableStep.h) and a stiff pinned sheet hangs without an anomaly.
TEST_P(ClothSolverGLTest, AutoSubstepsAreTheStableCount) {
  auto model = test::stiffPinnedSheet();
  ClothSettings settings = test::withoutColliders();
  settings.substeps = 0;
  auto solver = make(model, settings);
  ASSERT_TRUE(solver);
  EXPECT_EQ(solver->settings().substeps, explicitStableStep(*model, settings).substepsPerFrame);
  for (int f = 0; f < 20; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok) << "frame " << f;
}

TEST_P(ClothSolverGLTest, PinnedStayPinnedAndTheRestHangs) {
  auto model = sheet(15, {0, 14});
  ClothSettings settings;
  settings.colliders.spheres.clear();
  auto solver = make(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 30; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  const ClothState state = solver->readState();
  EXPECT_EQ(state.positions[0], model->restPositions[0]);
  EXPECT_EQ(state.positions[14], model->restPositions[14]);
  EXPECT_LT(state.positions[224].y, model->restPositions[224].y - 0.2f);
}

TEST_P(ClothSolverGLTest, PinsFollowTheirTargets) {
  auto model = sheet(15, {0, 14});
  auto solver = make(model, test::withoutColliders());
  ASSERT_TRUE(solver);
  const std::uint32_t pins[] = {14, 0, 7};  // 7 is not pinned: ignored
  for (int f = 1; f <= 20; ++f) {
    const glm::vec3 shift(0.0f, 0.01f * float(f), -0.005f * float(f));
    const glm::vec3 targets[] = {glm::vec3(model->restPositions[14]) + shift,
                                 glm::vec3(model->restPositions[0]) + shift, glm::vec3(9.0f)};
    solver->setPinTargets(pins, targets);
    ASSERT_EQ(solver->step(), StepStatus::Ok);
    const ClothState state = solver->readState();
    EXPECT_EQ(glm::vec3(state.positions[14]), targets[0]);
    EXPECT_EQ(glm::vec3(state.positions[0]), targets[1]);
    EXPECT_NE(glm::vec3(state.positions[7]), targets[2]);
    // The pins' velocity is their motion over the frame (used by the spring damping).
    EXPECT_NEAR(state.velocities[0].y, 0.01f / ClothSettings{}.frameDt, 1e-3f);
  }
}

TEST_P(ClothSolverGLTest, LandsOnTheSphereWithoutPenetrating) {
  ClothSettings settings;
  settings.colliders.spheres = {kSphere};
  auto solver = make(sheet(30), settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 90; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  int touching = 0;
  for (const glm::vec4& p : solver->readState().positions) {
    const float d = glm::distance(glm::vec3(p), kSphere.centre);
    EXPECT_GE(d, kSphere.radius + settings.contactOffset - 1e-4f);
    touching += d < kSphere.radius + settings.contactOffset + 0.01f;
  }
  EXPECT_GT(touching, 30);
}

/// kSphere as a closed mesh's signed distance grid (1 cm cells).
std::shared_ptr<const SignedDistanceGrid> sphereBody() {
  auto grid = buildSignedDistanceGrid(makeIcosphere(kSphere.centre, kSphere.radius, 5));
  EXPECT_TRUE(grid) << grid.error().message;
  return grid ? std::make_shared<const SignedDistanceGrid>(std::move(grid).value()) : nullptr;
}

TEST_P(ClothSolverGLTest, LandsOnAMeshBodyAsOnTheAnalyticSphere) {
  // The same drape twice: on the analytic sphere, and on a closed sphere mesh given as a
  // body (signed distance grid). The body keeps every vertex outside it. Draping buckles
  // chaotically, so the shapes are compared where that does not matter: at the first
  // impact (frame 15, vertex by vertex) and by the centroid after 1 s.
  ClothSettings analytic;
  analytic.colliders.spheres = {kSphere};
  ClothSettings body = analytic;
  body.colliders.spheres.clear();
  body.colliders.distanceGrid = sphereBody();
  ASSERT_TRUE(body.colliders.distanceGrid);
  auto a = make(sheet(30), analytic);
  auto b = make(sheet(30), body);
  ASSERT_TRUE(a && b);
  float worstImpactDifference = 0.0f;
  for (int f = 1; f <= 60; ++f) {
    ASSERT_EQ(a->step(), StepStatus::Ok);
    ASSERT_EQ(b->step(), StepStatus::Ok);
    if (f != 15) continue;
    const ClothState sa = a->readState(), sb = b->readState();
    for (std::size_t i = 0; i < sb.positions.size(); ++i)
      worstImpactDifference =
          std::max(worstImpactDifference, glm::distance(glm::vec3(sb.positions[i]), glm::vec3(sa.positions[i])));
  }
  const ClothState sa = a->readState(), sb = b->readState();
  float worstGap = 1e9f;
  glm::vec3 centroidA(0.0f), centroidB(0.0f);
  int touching = 0;
  for (std::size_t i = 0; i < sb.positions.size(); ++i) {
    const glm::vec3 p(sb.positions[i]);
    const float gap = body.colliders.distanceGrid->distance(p);
    worstGap = std::min(worstGap, gap);
    touching += gap < body.contactOffset + 0.01f;
    centroidA += glm::vec3(sa.positions[i]) / float(sa.positions.size());
    centroidB += p / float(sb.positions.size());
  }
  std::printf(
      "[ body contact ] %s: smallest gap %.2f mm (offset %.1f mm), %d vertices touching; vs the analytic "
      "sphere: worst distance at impact %.2f mm, centroids after 1 s %.2f mm apart\n",
      backendName(GetParam()).data(), 1e3 * double(worstGap), 1e3 * double(body.contactOffset), touching,
      1e3 * double(worstImpactDifference), 1e3 * double(glm::distance(centroidA, centroidB)));
  EXPECT_GE(worstGap, body.contactOffset - 5e-4f);  // grid interpolation: sub-millimetre
  EXPECT_GT(touching, 30);
  EXPECT_LT(worstImpactDifference, 0.002f);
  EXPECT_LT(glm::distance(centroidA, centroidB), 0.01f);
}

TEST_P(ClothSolverGLTest, SetBodySwapsTheColliderBetweenSteps) {
  // The sheet falls freely; from frame 10 on the sphere (as a body grid) is there and
  // catches it, as a moving body's next pose would.
  ClothSettings settings;
  settings.colliders.spheres.clear();
  auto solver = make(sheet(20), settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 10; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  const auto body = sphereBody();
  ASSERT_TRUE(body);
  {
    ClothColliders c = solver->settings().colliders;
    c.distanceGrid = body;
    solver->setColliders(std::move(c));
  }
  for (int f = 0; f < 50; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  float smallest = 1e9f;
  for (const glm::vec4& p : solver->readState().positions) smallest = std::min(smallest, body->distance(glm::vec3(p)));
  EXPECT_GE(smallest, settings.contactOffset - 5e-4f);
  {
    ClothColliders c = solver->settings().colliders;
    c.distanceGrid = nullptr;  // and gone again: the cloth falls through where the sphere was
    solver->setColliders(std::move(c));
  }
  for (int f = 0; f < 30; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  float lowest = 1e9f;
  for (const glm::vec4& p : solver->readState().positions) lowest = std::min(lowest, p.y);
  EXPECT_LT(lowest, kSphere.centre.y);
}

TEST_P(ClothSolverGLTest, WriteStateThenReadStateRoundTrips) {
  auto model = sheet(9);
  auto solver = make(model, ClothSettings{});
  ASSERT_TRUE(solver);
  ClothState state = restState(*model);
  state.positions[5].y += 0.25f;
  state.velocities[7].x = 3.0f;
  solver->writeState(state);
  const ClothState back = solver->readState();
  EXPECT_EQ(back.positions, state.positions);
  EXPECT_EQ(back.velocities, state.velocities);
}

TEST_P(ClothSolverGLTest, ExplosionIsFlagged) {
  ClothMaterial material;
  material.tensileStiffness = 1e7f;
  auto model = sheet(10, {}, material);
  auto solver = make(model, ClothSettings{});
  ASSERT_TRUE(solver);
  ClothState kicked = restState(*model);
  kicked.positions[0].x += 0.01f;
  solver->writeState(kicked);
  StepStatus status = StepStatus::Ok;
  for (int f = 0; f < 10 && !any(status); ++f) status = solver->step();
  EXPECT_TRUE(any(status));
}

INSTANTIATE_TEST_SUITE_P(Backends, ClothSolverGLTest, ::testing::Values(Backend::Cpu, Backend::Gpu),
                         [](const auto& param) { return std::string(backendName(param.param)); });

// ---- CPU vs GPU cross-checks -------------------------------------------------

class ClothCrossCheckGLTest : public test::GlTest {
 protected:
  /// Writes both states to a CSV file in the temporary directory when a comparison fails.
  static void dump(const ClothState& cpu, const ClothState& gpu, const std::string& name) {
    test::dumpStates(cpu, gpu, "cloth_crosscheck_" + name);
  }
};

/// Runs both backends from the same state; returns {cpu, gpu} after `frames` steps.
std::pair<ClothState, ClothState> runBoth(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                                          const ClothState& start, int frames) {
  auto cpu = createClothSolver(Backend::Cpu, model, settings);
  auto gpu = createClothSolver(Backend::Gpu, model, settings);
  EXPECT_TRUE(cpu && gpu);
  (*cpu)->writeState(start);
  (*gpu)->writeState(start);
  for (int f = 0; f < frames; ++f) {
    EXPECT_EQ((*cpu)->step(), (*gpu)->step()) << "frame " << f;
  }
  return {(*cpu)->readState(), (*gpu)->readState()};
}

/// A start where springs (stretched and compressed), damping, the sphere, the ground
/// and friction all act in the first substep.
ClothState busyStart(const ClothModel& model) {
  ClothState start = restState(model);
  for (std::size_t i = 0; i < start.positions.size(); ++i) {
    const float t = float(i);
    start.positions[i].x *= 0.97f + 0.02f * std::sin(t);
    start.positions[i].y = (i % 7 == 0 ? 0.002f : 1.10f + 0.01f * std::sin(0.3f * t));
    start.velocities[i] = glm::vec4(0.3f * std::cos(t), -0.5f, 0.2f * std::sin(2.0f * t), 0.0f);
  }
  return start;
}

TEST_F(ClothCrossCheckGLTest, OneSubstepAgreesTightly) {
  auto model = sheet(35);  // 1225 vertices: not a multiple of the workgroup size
  ClothSettings settings;
  settings.colliders.spheres = {kSphere};
  settings.substeps = 1;
  settings.frameDt = 1.0f / 2400.0f;
  const auto [a, b] = runBoth(model, settings, busyStart(*model), 1);
  const float positionExcess = worstExcess(a.positions, b.positions, 1e-6f, 1e-6f);
  const float velocityExcess = worstExcess(a.velocities, b.velocities, 1e-5f, 1e-5f);
  if (positionExcess > 0.0f || velocityExcess > 0.0f) dump(a, b, "one_substep");
  EXPECT_LE(positionExcess, 0.0f);
  EXPECT_LE(velocityExcess, 0.0f);
}

TEST_F(ClothCrossCheckGLTest, OneSubstepWithABodyAgreesTightly) {
  // A 35 x 35 sheet whose rest shape is wrapped onto kSphere 2 mm outside it,
  // started 2 mm inside to 6 mm outside that shell with moderate velocities: with the
  // sphere given as a body grid, most vertices start in contact, under moderate forces.
  ClothSettings settings;
  settings.substeps = 1;
  settings.frameDt = 1.0f / 2400.0f;
  settings.colliders.spheres.clear();
  settings.colliders.distanceGrid = sphereBody();
  // Frictionless: Coulomb friction switches between static and kinetic at |vt| = mu dvn,
  // so round-off at that switch would make single vertices differ by up to mu dvn; the
  // friction kernel itself is cross-checked in KernelGLTest.
  settings.friction = 0.0f;
  ASSERT_TRUE(settings.colliders.distanceGrid);
  const auto [model, start] = test::wrappedSheet(kSphere.centre, kSphere.radius);
  int inContact = 0;
  for (const glm::vec4& p : start.positions)
    inContact += settings.colliders.distanceGrid->distance(glm::vec3(p)) < settings.contactOffset;
  std::printf("[ cross-check ] body grid: %d of %zu vertices start in contact\n", inContact, start.positions.size());
  ASSERT_GT(inContact, 600);
  const auto [a, b] = runBoth(model, settings, start, 1);
  const float positionExcess = worstExcess(a.positions, b.positions, 1e-6f, 1e-6f);
  const float velocityExcess = worstExcess(a.velocities, b.velocities, 1e-5f, 1e-5f);
  if (positionExcess > 0.0f || velocityExcess > 0.0f) dump(a, b, "one_substep_body");
  EXPECT_LE(positionExcess, 0.0f);
  EXPECT_LE(velocityExcess, 0.0f);
}

TEST_F(ClothCrossCheckGLTest, AnisotropySetupPassMatchesTheCpuReference) {
  // A random 7 x 5 texture (not a power of two, bilinear between texels): the GPU setup
  // pass (texelFetch in cloth_setup.comp) gives the CPU reference's stiffness per spring.
  AnisotropyTexture texture;
  texture.width = 7;
  texture.height = 5;
  texture.scale = 2.0f;
  std::uint32_t seed = 12345;
  for (int i = 0; i < 7 * 5 * 4; ++i) {
    seed = seed * 1664525u + 1013904223u;
    texture.rgba.push_back(std::uint8_t(seed >> 24));
  }
  auto model = sheet(33, {}, {}, texture);
  auto gpu = createClothSolver(Backend::Gpu, model, ClothSettings{});
  ASSERT_TRUE(gpu) << gpu.error().message;
  const auto springs = (*gpu)->readSprings();
  ASSERT_EQ(springs.size(), model->springs.size());
  float worst = 0.0f, spread = 0.0f;
  for (std::size_t s = 0; s < springs.size(); ++s) {
    const float cpu = model->springs[s].stiffness;
    worst = std::max(worst, std::abs(springs[s].stiffness - cpu) / cpu);
    spread = std::max(spread, cpu / model->springs[s].baseStiffness);
  }
  std::printf("[ cross-check ] anisotropy setup: worst relative stiffness difference %.3g\n", double(worst));
  EXPECT_LT(worst, 1e-5f);
  EXPECT_GT(spread, 1.2f);  // the texture really varies the stiffness
}

TEST_F(ClothCrossCheckGLTest, AGarmentsOwnFabricSurvivesTheSetupPass) {
  // Half a sheet made a garment of its own fabric (anisotropy, stiffening) on an outfit
  // with an anisotropy texture (applyGarmentMaterials bakes every factor into the base
  // stiffness and drops the texture): the GPU setup pass keeps each spring's stiffness and
  // strain stiffening, and a frame of the hanging sheet agrees with the CPU reference.
  ClothMaterial base;
  auto outfitModel = sheet(24, {0, 23}, base, AnisotropyTexture::uniform(glm::vec4(1.0f, 0.5f, 0.25f, 0.25f), 1.0f));
  ClothModel model = *outfitModel;
  std::vector<std::uint32_t> garmentOfVertex(model.vertexCount(), 0);
  for (std::size_t i = model.vertexCount() / 2; i < model.vertexCount(); ++i) garmentOfVertex[i] = 1;
  std::vector<GarmentSpec> outfit(2);
  ClothMaterial own = base;
  own.tensileStiffness = 4.0f * base.tensileStiffness;
  own.strainStiffening = glm::vec4(0.1f, 0.3f, 1.0f, 1.0f);
  outfit[1].material = own;
  outfit[1].anisotropy = glm::vec4(0.2f, 1.0f, 0.05f, 0.05f);
  applyGarmentMaterials(model, garmentOfVertex, outfit, base);
  ASSERT_FALSE(model.anisotropy);
  auto shared = std::make_shared<const ClothModel>(model);
  ClothSettings settings;
  settings.colliders.spheres.clear();
  auto gpu = createClothSolver(Backend::Gpu, shared, settings);
  ASSERT_TRUE(gpu) << gpu.error().message;
  const auto springs = (*gpu)->readSprings();
  ASSERT_EQ(springs.size(), model.springs.size());
  float worst = 0.0f, spread = 0.0f;
  for (std::size_t s = 0; s < springs.size(); ++s) {
    const float cpu = model.springs[s].stiffness;
    worst = std::max(worst, std::abs(springs[s].stiffness - cpu) / cpu);
    spread = std::max(spread, cpu / outfitModel->springs[s].stiffness);
    EXPECT_EQ(springs[s].strainStiffening, model.springs[s].strainStiffening) << "spring " << s;
  }
  EXPECT_LT(worst, 1e-6f);
  EXPECT_GT(spread, 3.0f);  // the garment's springs really changed
  const auto [a, b] = runBoth(shared, settings, restState(model), 1);
  const float positionExcess = worstExcess(a.positions, b.positions, 1e-5f, 1e-5f);
  if (positionExcess > 0.0f) dump(a, b, "garment_fabric");
  EXPECT_LE(positionExcess, 0.0f);
}

TEST_F(ClothCrossCheckGLTest, PlasticCreepAgrees) {
  std::vector<std::uint32_t> ends;
  for (std::uint32_t j = 0; j < 21; ++j) ends.push_back(j);
  auto model = sheet(21, ends);
  ClothSettings settings;
  settings.colliders.spheres.clear();
  settings.colliders.grounds.clear();
  settings.gravity = glm::vec3(0.0f, 0.0f, -30.0f);  // in the sheet's plane: stretches it past yield
  settings.plasticRate = 5.0f;
  settings.yieldStrain = 0.005f;
  auto cpu = createClothSolver(Backend::Cpu, model, settings);
  auto gpu = createClothSolver(Backend::Gpu, model, settings);
  ASSERT_TRUE(cpu && gpu);
  for (int f = 0; f < 30; ++f) {
    ASSERT_EQ((*cpu)->step(), StepStatus::Ok);
    ASSERT_EQ((*gpu)->step(), StepStatus::Ok);
  }
  const auto a = (*cpu)->readSprings(), b = (*gpu)->readSprings();
  float worst = 0.0f, grown = 0.0f;
  for (std::size_t s = 0; s < a.size(); ++s) {
    worst = std::max(worst, std::abs(a[s].restLength - b[s].restLength) / a[s].restLength0);
    grown = std::max(grown, a[s].restLength / a[s].restLength0 - 1.0f);
  }
  std::printf("[ cross-check ] plasticity: rest lengths grew up to %.4f, worst cpu-gpu difference %.3g\n",
              double(grown), double(worst));
  EXPECT_GT(grown, 0.005f);
  EXPECT_LT(worst, 1e-4f);
}

TEST_F(ClothCrossCheckGLTest, HangingTrajectoriesAgreeOver200Frames) {
  // Smooth dynamics: a sheet hanging from its whole top edge, gravity in its plane,
  // stretching and oscillating (damped), no contacts. Differences then stay at
  // round-off scale relative to the displacement from rest. Buckling cases (a sheet
  // falling across gravity, folds on a sphere) amplify round-off chaotically, so a
  // fold may fall either way: see DrapedShapesAgreeAfter200Frames for those.
  std::vector<std::uint32_t> topEdge(35);
  for (std::uint32_t i = 0; i < 35; ++i) topEdge[i] = i;
  auto model = sheet(35, topEdge);
  ClothSettings settings;
  settings.gravity = glm::vec3(0.0f, 0.0f, -9.81f);
  settings.colliders.spheres.clear();
  settings.colliders.grounds.clear();
  auto cpu = createClothSolver(Backend::Cpu, model, settings);
  auto gpu = createClothSolver(Backend::Gpu, model, settings);
  ASSERT_TRUE(cpu && gpu);
  double worstRelative = 0.0;
  for (int f = 1; f <= 200; ++f) {
    ASSERT_EQ((*cpu)->step(), StepStatus::Ok);
    ASSERT_EQ((*gpu)->step(), StepStatus::Ok);
    if (f % 20 != 0) continue;
    const ClothState a = (*cpu)->readState(), b = (*gpu)->readState();
    double displacement = 0.0, difference = 0.0;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
      displacement =
          std::max(displacement, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(model->restPositions[i]))));
      difference = std::max(difference, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i]))));
    }
    worstRelative = std::max(worstRelative, difference / displacement);
    if (difference > 1e-3 * displacement) dump(a, b, "hanging_frame_" + std::to_string(f));
    EXPECT_LE(difference, 1e-3 * displacement)
        << "frame " << f << ": max |cpu - gpu| = " << difference << " m, displacement " << displacement << " m";
  }
  std::printf("[ cross-check ] hanging: worst max|cpu-gpu| / displacement over 200 frames: %.3g\n", worstRelative);
}

TEST_F(ClothCrossCheckGLTest, DrapedShapesAgreeAfter200Frames) {
  // A drape on a sphere buckles into folds: which way a fold falls is chaotic, so
  // per-vertex trajectories may part ways. The draped shape must agree: centroid,
  // bounding box and the fraction of vertices resting on the sphere.
  auto model = sheet(35);
  ClothSettings settings;
  settings.colliders.spheres = {kSphere};
  const auto [a, b] = runBoth(model, settings, restState(*model), 200);
  auto summary = [&](const ClothState& s) {
    glm::dvec3 centroid(0.0), lo(1e9), hi(-1e9);
    int onSphere = 0;
    for (const glm::vec4& p : s.positions) {
      centroid += glm::dvec3(p);
      lo = glm::min(lo, glm::dvec3(p));
      hi = glm::max(hi, glm::dvec3(p));
      onSphere += glm::distance(glm::vec3(p), kSphere.centre) < kSphere.radius + settings.contactOffset + 0.005f;
    }
    centroid /= double(s.positions.size());
    return std::tuple{centroid, lo, hi, double(onSphere) / double(s.positions.size())};
  };
  const auto [ca, loA, hiA, fa] = summary(a);
  const auto [cb, loB, hiB, fb] = summary(b);
  std::printf("[ cross-check ] drape: centroid distance %.4f m, on-sphere fraction cpu %.3f gpu %.3f\n",
              glm::distance(ca, cb), fa, fb);
  EXPECT_LT(glm::distance(ca, cb), 0.01);
  EXPECT_LT(glm::distance(loA, loB), 0.08);  // the hem: where a fold ends up is chaotic
  EXPECT_LT(glm::distance(hiA, hiB), 0.08);
  EXPECT_NEAR(fa, fb, 0.05);
  EXPECT_GT(fa, 0.2);
}

}  // namespace
}  // namespace hg
