// The thin-feature pass on the GPU (sim/gpu/shaders/cloth_thin_features_*.comp) against
// the CPU's (CpuClothSolverBase::applyThinFeatures), the same kernel: a fingertip through a
// coarse cloth square is pushed back under the cloth on both integrators, a sheet pressed
// into a finger's flank leaves by that flank, and the two backends' sheets agree.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/GlTest.h"
#include "tests/support/ThinFeatureFixtures.h"

namespace hg {
namespace {

class ThinFeatureGLTest : public test::GlTest, public ::testing::WithParamInterface<ClothIntegrator> {};

TEST_P(ThinFeatureGLTest, TheGpuPushesTheFingertipBackUnderTheClothAsTheCpu) {
  const test::FingerThroughSheet f = test::fingerThroughSheet(0.004f, true, GetParam());
  auto cpu = createCpuClothSolver(f.model, f.settings);
  ASSERT_TRUE(cpu) << cpu.error().message;
  auto gpu = createGpuClothSolver(f.model, f.settings);
  ASSERT_TRUE(gpu) << gpu.error().message;
  ASSERT_GT(test::clothFingerCrossings(f, (*gpu)->readState()), 0u);
  (*cpu)->step();
  (*gpu)->step();
  const ClothState a = (*cpu)->readState(), b = (*gpu)->readState();
  EXPECT_EQ(test::clothFingerCrossings(f, b), 0u);
  float worst = 0.0f, moved = 0.0f;
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    worst = std::max(worst, glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i])));
    moved = std::max(moved, glm::distance(glm::vec3(b.positions[i]), glm::vec3(f.model->restPositions[i])));
  }
  EXPECT_GT(moved, 0.004f);  // the pass did move the sheet (by the poke and the offset)
  EXPECT_LT(worst, 1e-4f) << "CPU vs GPU";
}

TEST_P(ThinFeatureGLTest, ASheetPressedIntoAFingersFlankLeavesByTheNearFlankAsOnTheCpu) {
  const test::FingerThroughSheet f = test::sheetPressedIntoFlank(0.005f, GetParam());
  auto cpu = createCpuClothSolver(f.model, f.settings);
  ASSERT_TRUE(cpu) << cpu.error().message;
  auto gpu = createGpuClothSolver(f.model, f.settings);
  ASSERT_TRUE(gpu) << gpu.error().message;
  (*cpu)->step();
  (*gpu)->step();
  const ClothState a = (*cpu)->readState(), b = (*gpu)->readState();
  float worst = 0.0f, largestX = -INFINITY;
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    worst = std::max(worst, glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i])));
    largestX = std::max(largestX, b.positions[i].x);
  }
  EXPECT_LT(largestX, 0.0f);  // none across the finger's axis
  EXPECT_LT(worst, 1e-4f) << "CPU vs GPU";
}

INSTANTIATE_TEST_SUITE_P(Integrators, ThinFeatureGLTest,
                         ::testing::Values(ClothIntegrator::SymplecticEuler, ClothIntegrator::ProjectiveJacobi),
                         [](const auto& param) { return std::string(integratorName(param.param)); });

}  // namespace
}  // namespace hg
