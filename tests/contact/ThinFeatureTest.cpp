// Thin body features between cloth vertices (docs/methods.md section 2, "Thin features";
// kernels/thin_features.glslh): a fingertip-sized capsule that has come up through the
// middle of a coarse cloth square, between its vertices, is pushed back under the cloth by
// the substeps' thin-feature pass, on both integrators; without the body-vertex grid it
// stays through (the vertices' own contacts never see it).
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

INSTANTIATE_TEST_SUITE_P(Integrators, ThinFeatures,
                         ::testing::Values(ClothIntegrator::SymplecticEuler, ClothIntegrator::ProjectiveJacobi),
                         [](const auto& param) { return std::string(integratorName(param.param)); });

}  // namespace
}  // namespace hg
