// Thin body features between cloth vertices (docs/methods.md section 2, "Thin features";
// kernels/thin_features.glslh): a fingertip-sized capsule that has come up through the
// middle of a coarse cloth square, between its vertices, is pushed back under the cloth by
// the substeps' thin-feature pass, on both integrators; without the body-vertex grid it
// stays through (the vertices' own contacts never see it); a sheet pressed into a finger's
// flank goes back out of that flank, not across the finger.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "tests/support/ThinFeatureFixtures.h"

namespace hg {
namespace {

using test::clothFingerCrossings;
using test::fingerThroughSheet;
using test::kFingerTop;

struct Outcome {
  std::size_t crossingsBefore = 0, crossingsAfter = 0;
  bool finite = true;
  float lowestAboveTip = 0.0f;  ///< m: the cloth's least height over the tip within 1 cm of its axis
};

Outcome oneFrame(float poke, bool thinFeatures, ClothIntegrator integrator) {
  const test::FingerThroughSheet f = fingerThroughSheet(poke, thinFeatures, integrator);
  auto solver = createCpuClothSolver(f.model, f.settings);
  EXPECT_TRUE(solver) << solver.error().message;
  Outcome out;
  out.crossingsBefore = clothFingerCrossings(f, (*solver)->readState());
  (*solver)->step();
  const ClothState state = (*solver)->readState();
  out.crossingsAfter = clothFingerCrossings(f, state);
  out.lowestAboveTip = INFINITY;
  for (const glm::vec4& x : state.positions) {
    out.finite = out.finite && std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z);
    if (std::hypot(x.x, x.z) < 0.01f) out.lowestAboveTip = std::min(out.lowestAboveTip, x.y - kFingerTop);
  }
  return out;
}

class ThinFeatures : public ::testing::TestWithParam<ClothIntegrator> {};

TEST_P(ThinFeatures, AFingertipThroughATriangleIsPushedBackUnderTheCloth) {
  for (float poke : {0.002f, 0.006f}) {
    const Outcome with = oneFrame(poke, true, GetParam()), without = oneFrame(poke, false, GetParam());
    EXPECT_GT(with.crossingsBefore, 0u) << "poke " << poke << " m";
    EXPECT_TRUE(with.finite) << "poke " << poke << " m";
    EXPECT_EQ(with.crossingsAfter, 0u) << "poke " << poke << " m";
    EXPECT_GT(with.lowestAboveTip, 0.0f) << "poke " << poke << " m";
    EXPECT_GT(without.crossingsAfter, 0u) << "poke " << poke << " m";
  }
}

TEST_P(ThinFeatures, ASheetPressedIntoAFingersFlankGoesBackOutOfThatFlankNotAcrossTheFinger) {
  // The finger's far flank faces the way the sheet's normal points beyond it, within the
  // reach, and is deeper than the near flank: before the pass compared the two sides
  // (kernels thinFeatureDisplacement), it moved the triangles 1.6 cm across the finger,
  // which, repeated every substep, blew up a soft sheet dropped on a hand.
  const test::FingerThroughSheet f = test::sheetPressedIntoFlank(0.005f, GetParam());
  auto solver = createCpuClothSolver(f.model, f.settings);
  ASSERT_TRUE(solver) << solver.error().message;
  ASSERT_GT(clothFingerCrossings(f, (*solver)->readState()), 0u);
  (*solver)->step();
  const ClothState state = (*solver)->readState();
  float smallestX = INFINITY, largestX = -INFINITY;
  for (const glm::vec4& x : state.positions) {
    smallestX = std::min(smallestX, x.x);
    largestX = std::max(largestX, x.x);
  }
  EXPECT_LT(largestX, 0.0f);  // none beyond the finger's axis
  // The triangles across the finger are back at its near flank (x = -7 mm), within the
  // depth views' 1 mm texel: from there the colliders no longer see them inside.
  EXPECT_LT(smallestX, -0.006f);
}

INSTANTIATE_TEST_SUITE_P(Integrators, ThinFeatures,
                         ::testing::Values(ClothIntegrator::SymplecticEuler, ClothIntegrator::ProjectiveJacobi),
                         [](const auto& param) { return std::string(integratorName(param.param)); });

}  // namespace
}  // namespace hg
