// Self and cloth-cloth contact on the CPU backend (sim/cloth/SelfContact.h): stacked sheets
// pressed together, a small patch shot at a sheet at 20 m/s, two edges crossing at 20 m/s;
// no intersection (exact CGAL count) on both integrators, and the same runs without self
// contact cross (so the checks can fail); a layer started through another is untangled;
// bitwise identical for 1 and 2 threads.
#include <cstring>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/geometry/TriangleIntersections.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

/// The parts as one cloth; every vertex of the first part is pinned.
std::shared_ptr<const ClothModel> clothOf(const std::vector<TriangleMesh>& parts) {
  TriangleMesh mesh;
  for (const TriangleMesh& part : parts) appendMesh(mesh, part);
  PinSet pinned;
  for (std::uint32_t v = 0; v < parts[0].vertexCount(); ++v) pinned.push_back(v);
  auto model = buildClothModel(mesh, ClothMaterial{}, pinned);
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// A vertical triangle; `along` its top (or bottom) edge's direction, `apex` the third vertex.
TriangleMesh triangle(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  TriangleMesh m;
  m.positions = {a, b, c};
  m.uvs = {{0, 0}, {1, 0}, {0, 1}};
  m.indices = {0, 1, 2};
  return m;
}

ClothSettings contactSettings(bool selfContact, ClothIntegrator integrator, glm::vec3 gravity) {
  ClothSettings s = test::withoutColliders();
  s.gravity = gravity;
  s.velocityDamping = 0.0f;
  s.integrator = integrator;
  s.substeps = integrator == ClothIntegrator::ProjectiveJacobi ? 10 : 0;
  s.selfContact.enabled = selfContact;
  return s;
}

struct Outcome {
  std::size_t mostIntersections = 0;  ///< over the frames
  ClothState last;
};

/// Runs `frames` frames from the rest state with every free vertex given `velocity`,
/// counting intersecting triangle pairs after each frame.
Outcome simulate(std::shared_ptr<const ClothModel> model, const ClothSettings& settings, glm::vec3 velocity,
                 int frames) {
  auto solver = createCpuClothSolver(model, settings);
  EXPECT_TRUE(solver) << solver.error().message;
  ClothState state = restState(*model);
  for (std::size_t i = 0; i < state.positions.size(); ++i)
    if (state.positions[i].w > 0.0f) state.velocities[i] = glm::vec4(velocity, 0.0f);
  (*solver)->writeState(state);
  Outcome run;
  for (int f = 0; f < frames; ++f) {
    EXPECT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << f;
    run.last = (*solver)->readState();
    run.mostIntersections =
        std::max(run.mostIntersections, countSelfIntersections(run.last.positions, model->triangles));
  }
  return run;
}

float lowestFree(const ClothState& state) {
  float y = 1e30f;
  for (const glm::vec4& p : state.positions)
    if (p.w > 0.0f) y = std::min(y, p.y);
  return y;
}

/// The free part shot down at 20 m/s for 20 frames: with self contact it never crosses
/// the pinned part and stays above y = 1; without, it passes below.
void expectShotStopsAboveTheSheet(std::shared_ptr<const ClothModel> model, ClothIntegrator integrator) {
  const glm::vec3 shot(0.0f, -20.0f, 0.0f);
  const Outcome with = simulate(model, contactSettings(true, integrator, glm::vec3(0.0f)), shot, 20);
  EXPECT_EQ(with.mostIntersections, 0u);
  EXPECT_GT(lowestFree(with.last), 1.0f);
  const Outcome without = simulate(model, contactSettings(false, integrator, glm::vec3(0.0f)), shot, 20);
  EXPECT_LT(lowestFree(without.last), 1.0f);
}

class SelfContactTest : public ::testing::TestWithParam<ClothIntegrator> {};

TEST_P(SelfContactTest, StackedSheetsPressedTogetherNeverCross) {
  // A pinned 0.5 m sheet at y = 1 and a free 0.3 m one 1.5 cm above it, its vertices over
  // the other's cell centres, pressed down by 5 g.
  const auto model =
      clothOf({test::squareSheetMesh(15, 0.5f, {0, 1, 0}), test::squareSheetMesh(9, 0.3f, {0.018f, 1.015f, 0.018f})});
  const glm::vec3 pressing(0.0f, -50.0f, 0.0f);
  const Outcome with = simulate(model, contactSettings(true, GetParam(), pressing), glm::vec3(0.0f), 30);
  EXPECT_EQ(with.mostIntersections, 0u);
  EXPECT_GT(lowestFree(with.last), 1.0f + 0.5f * SelfContactSettings{}.thickness);
  const Outcome without = simulate(model, contactSettings(false, GetParam(), pressing), glm::vec3(0.0f), 30);
  EXPECT_LT(lowestFree(without.last), 1.0f);
}

TEST_P(SelfContactTest, APatchShotAtASheetAt20MetersPerSecondStopsOnIt) {
  const auto model =
      clothOf({test::squareSheetMesh(3, 0.4f, {0, 1, 0}), test::squareSheetMesh(2, 0.02f, {0.03f, 1.1f, 0.05f})});
  expectShotStopsAboveTheSheet(model, GetParam());
}

TEST_P(SelfContactTest, EdgesCrossingAt20MetersPerSecondDoNotPassThrough) {
  // A pinned triangle hanging from its top edge along x at y = 1, and a free one standing
  // on its bottom edge along z 5 cm above: falling, that edge crosses the first at (0, 1, 0).
  const auto model = clothOf({triangle({-0.2f, 1.0f, 0.0f}, {0.2f, 1.0f, 0.0f}, {0.0f, 0.9f, 0.0f}),
                              triangle({0.0f, 1.05f, -0.2f}, {0.0f, 1.05f, 0.2f}, {0.0f, 1.15f, 0.0f})});
  expectShotStopsAboveTheSheet(model, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Integrators, SelfContactTest,
                         ::testing::Values(ClothIntegrator::SymplecticEuler, ClothIntegrator::ProjectiveJacobi),
                         [](const auto& param) {
                           return std::string(param.param == ClothIntegrator::SymplecticEuler ? "explicit"
                                                                                              : "projective");
                         });

TEST(SelfContactUntangling, AnOuterLayerStartedThroughTheInnerOneIsPushedOutAndReported) {
  // A pinned sheet at y = 1 (layer 0) and a free one (layer 1) tilted through it: its -x
  // side starts up to 9 mm below the first, its +x side above.
  TriangleMesh upper = test::squareSheetMesh(9, 0.3f, {0.018f, 1.0f, 0.018f});
  for (glm::vec3& p : upper.positions) p.y += 0.07f * p.x;
  const auto model = clothOf({test::squareSheetMesh(15, 0.5f, {0, 1, 0}), upper});
  ClothSettings settings = contactSettings(true, ClothIntegrator::ProjectiveJacobi, glm::vec3(0.0f));
  settings.selfContact.layerOfVertex.assign(model->vertexCount(), 1u);
  std::fill_n(settings.selfContact.layerOfVertex.begin(), 15 * 15, 0u);
  ASSERT_GT(countSelfIntersections(restState(*model).positions, model->triangles), 0u);
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver) << solver.error().message;
  for (int f = 0; f < 30; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << f;
  const ClothState last = (*solver)->readState();
  EXPECT_EQ(countSelfIntersections(last.positions, model->triangles), 0u);
  EXPECT_GT(lowestFree(last), 1.0f);
  const std::optional<SelfContactReport> report = (*solver)->selfContactReport();
  ASSERT_TRUE(report);
  EXPECT_GT(report->firstFramePairs, 0u);
  EXPECT_GT(report->untangledAtFrame, 0);
  EXPECT_LT(report->untangledAtFrame, 30);
  EXPECT_EQ(report->frames, 30);
}

TEST(SelfContactDeterminism, OneAndTwoThreadsAreBitwiseIdentical) {
  // 2 x 1296 vertices: above the solvers' parallel threshold.
  const auto model =
      clothOf({test::squareSheetMesh(36, 0.6f, {0, 1, 0}), test::squareSheetMesh(36, 0.6f, {0.008f, 1.012f, 0.008f})});
  ClothState last[2];
  for (int threads : {1, 2}) {
    ClothSettings settings = contactSettings(true, ClothIntegrator::ProjectiveJacobi, {0.0f, -30.0f, 0.0f});
    settings.threads = threads;
    last[threads - 1] = simulate(model, settings, glm::vec3(0.0f), 5).last;
  }
  ASSERT_EQ(last[0].positions.size(), last[1].positions.size());
  EXPECT_EQ(
      std::memcmp(last[0].positions.data(), last[1].positions.data(), last[0].positions.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(
      std::memcmp(last[0].velocities.data(), last[1].velocities.data(), last[0].velocities.size() * sizeof(glm::vec4)),
      0);
}

}  // namespace
}  // namespace hg
