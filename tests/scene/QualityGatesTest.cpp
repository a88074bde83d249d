// Quality gates (sim/scene/QualityGates.h): analytic strains and areas, which gates exist
// for what was measured, and pass/fail at the limits.
#include <cmath>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/cloth/ClothSolver.h"
#include "sim/scene/QualityGates.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

TEST(QualityGates, StrainAndAreaOfAScaledSheetAreAnalytic) {
  const auto model = test::sheet(5, {}, {}, std::nullopt, 1.0f);
  ClothState state = restState(*model);
  EXPECT_NEAR(largestStrain(*model, state), 0.0f, 1e-6f);
  EXPECT_NEAR(areaRatioOfPieces(*model, state, {}, 1)[0], 1.0f, 1e-5f);
  // Shrunk to 40 % in x and z about the centre: strain 0.6, area 0.16.
  const glm::vec3 centre(0.0f, 1.3f, 0.0f);
  for (glm::vec4& p : state.positions)
    p = glm::vec4(centre + (glm::vec3(p) - centre) * glm::vec3(0.4f, 1.0f, 0.4f), p.w);
  EXPECT_NEAR(largestStrain(*model, state), 0.6f, 1e-5f);
  EXPECT_NEAR(areaRatioOfPieces(*model, state, {}, 1)[0], 0.16f, 1e-5f);
  // That is a compression; y was not scaled, so no edge stretched.
  EXPECT_NEAR(strainExtremes(*model, state).compression, 0.6f, 1e-5f);
  EXPECT_NEAR(strainExtremes(*model, state).stretch, 0.0f, 1e-5f);
  for (glm::vec4& p : state.positions) p = glm::vec4(centre + (glm::vec3(p) - centre) * 5.0f, p.w);  // now 2x
  EXPECT_NEAR(strainExtremes(*model, state).stretch, 1.0f, 1e-5f);
  EXPECT_NEAR(strainExtremes(*model, state).compression, 0.0f, 1e-5f);
}

TEST(QualityGates, TheMostStrainedSpringIsNamedAndANanWins) {
  const auto model = test::sheet(5, {}, {}, std::nullopt, 1.0f);
  ClothState state = restState(*model);
  // Vertex 12 (the middle) pulled 5 cm up: its springs stretch, the structural ones most.
  state.positions[12].y += 0.05f;
  const std::optional<StrainedSpring> worst = mostStrainedSpring(*model, state);
  ASSERT_TRUE(worst);
  EXPECT_TRUE(worst->a == 12 || worst->b == 12);
  EXPECT_FLOAT_EQ(worst->strain, largestStrain(*model, state));
  const glm::vec3 a(state.positions[worst->a]), b(state.positions[worst->b]);
  EXPECT_NEAR(worst->length, glm::length(b - a), 1e-6f);
  EXPECT_NEAR(worst->strain, worst->length / worst->restLength - 1.0f, 1e-6f);
  EXPECT_EQ(glm::vec3(worst->midpoint), 0.5f * (a + b));
  // A NaN position: that spring is named and the gate's value is NaN (it fails).
  state.positions[3].x = std::nanf("");
  const std::optional<StrainedSpring> broken = mostStrainedSpring(*model, state);
  ASSERT_TRUE(broken);
  EXPECT_TRUE(broken->a == 3 || broken->b == 3);
  EXPECT_TRUE(std::isnan(largestStrain(*model, state)));
}

TEST(QualityGates, OnlyMeasuredValuesAreGatedAndTheLimitsDecide) {
  QualityMeasures m;
  m.largestStretch = 0.1f;
  m.largestCompression = 0.7f;
  m.areaRatioOfPiece = {0.9f, 0.3f};
  m.pieceNames = {"skirt", "tshirt"};
  std::vector<QualityGate> gates = evaluateQualityGates(m, {});
  ASSERT_EQ(gates.size(), 4u);  // no intersections or body measured
  EXPECT_EQ(gates[0].name, "strain");
  EXPECT_TRUE(gates[0].passed);
  EXPECT_EQ(gates[1].name, "compression");
  EXPECT_TRUE(gates[1].passed);  // 0.7 <= 0.75
  EXPECT_EQ(gates[2].name, "area:skirt");
  EXPECT_TRUE(gates[2].passed);
  EXPECT_EQ(gates[3].name, "area:tshirt");
  EXPECT_FALSE(gates[3].passed);  // collapsed below half its area
  m.largestCompression = 0.8f;
  EXPECT_FALSE(evaluateQualityGates(m, {})[1].passed);  // an edge crushed below a quarter
  m.largestCompression = 0.7f;

  m.intersectingPairs = 0;
  m.verticesInsideBody = 3;
  gates = evaluateQualityGates(m, {});
  ASSERT_EQ(gates.size(), 6u);
  EXPECT_EQ(gates[0].name, "intersections");
  EXPECT_TRUE(gates[0].passed);  // 0 <= 0
  EXPECT_EQ(gates[1].name, "vertices_inside_body");
  EXPECT_FALSE(gates[1].passed);
  QualityGateLimits lenient;
  lenient.maxVerticesInsideBody = 3;
  lenient.minAreaRatio = 0.25f;
  for (const QualityGate& g : evaluateQualityGates(m, lenient)) EXPECT_TRUE(g.passed) << g.name;

  m.largestStretch = std::nanf("");
  EXPECT_FALSE(evaluateQualityGates(m, lenient)[2].passed);  // NaN never passes
}

}  // namespace
}  // namespace hg
