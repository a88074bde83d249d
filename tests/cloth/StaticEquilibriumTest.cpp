// The static solve (sim/cloth/StaticEquilibrium.h): analytic equilibria of a stiffened
// spring holding a weight and of a bent hinge, and the errors it reports.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cloth/StaticEquilibrium.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

/// A weight of `mass` kg hanging on one spring (k N/m, rest length 0.1 m, stiffening s)
/// from a pinned vertex; returns the equilibrium extension (m).
double hangingExtension(float k, float stiffening, float mass) {
  ClothModel model;
  model.restPositions = {glm::vec4(0.0f, 1.0f, 0.0f, 0.0f), glm::vec4(0.0f, 0.9f, 0.0f, 1.0f / mass)};
  kernels::ClothSpring spring{};
  spring.a = 0;
  spring.b = 1;
  spring.restLength = spring.restLength0 = 0.1f;
  spring.stiffness = spring.baseStiffness = k;
  spring.strainStiffening = stiffening;
  model.springs = {spring};
  std::vector<glm::vec4> positions = model.restPositions;
  auto report = solveStaticEquilibrium(model, StaticSolveSettings{}, positions);
  EXPECT_TRUE(report && report->converged);
  EXPECT_LT(report->largestForce, 1e-9);
  EXPECT_EQ(positions[0], model.restPositions[0]);  // the pin holds
  return 0.9 - double(positions[1].y);
}

TEST(StaticEquilibrium, AWeightOnAStiffenedSpringStretchesItAsTheTensionLawSays) {
  const double weight = 0.05 * 9.81;  // N
  // Linear: e = W / k.
  EXPECT_NEAR(hangingExtension(100.0f, 0.0f, 0.05f), weight / 100.0, 1e-7);
  // Below strain 1/6, k e (1 + 6 s e / L) = W: the positive root of 6 s k / L e^2 + k e - W.
  const double a = 6.0 * 2.0 * 100.0 / 0.1;
  EXPECT_NEAR(hangingExtension(100.0f, 2.0f, 0.05f), (-100.0 + std::sqrt(100.0 * 100.0 + 4.0 * a * weight)) / (2.0 * a),
              1e-7);
  // Beyond 1/6 (a soft spring: e = 0.033 m > L / 6): k (1 + s) e = W.
  EXPECT_NEAR(hangingExtension(5.0f, 2.0f, 0.05f), weight / 15.0, 1e-6);
}

TEST(StaticEquilibrium, AVertexNothingHoldsSidewaysStaysWhereItIs) {
  // A slack spring along x, no gravity: nothing holds the free end along y or z (a singular
  // Hessian); the shifted solve leaves it at rest where it is.
  ClothModel model;
  model.restPositions = {glm::vec4(0.0f, 1.0f, 0.0f, 0.0f), glm::vec4(0.1f, 1.0f, 0.0f, 20.0f)};
  kernels::ClothSpring spring{};
  spring.a = 0;
  spring.b = 1;
  spring.restLength = spring.restLength0 = 0.1f;
  spring.stiffness = spring.baseStiffness = 100.0f;
  model.springs = {spring};
  StaticSolveSettings settings;
  settings.gravity = glm::vec3(0.0f);
  std::vector<glm::vec4> positions = model.restPositions;
  auto report = solveStaticEquilibrium(model, settings, positions);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->converged);
  EXPECT_EQ(positions, model.restPositions);
}

TEST(StaticEquilibrium, RefusesHingesWithARestAngleAndAWrongStateSize) {
  auto model = std::make_shared<ClothModel>(*test::sheet(4));
  std::vector<glm::vec4> positions = model->restPositions;
  positions.pop_back();
  auto wrongSize = solveStaticEquilibrium(*model, StaticSolveSettings{}, positions);
  ASSERT_FALSE(wrongSize);
  EXPECT_NE(wrongSize.error().message.find("positions for"), std::string::npos);
  model->hinges.front() = kernels::withRestAngle(model->hinges.front(), 0.2f);
  positions = model->restPositions;
  auto bent = solveStaticEquilibrium(*model, StaticSolveSettings{}, positions);
  ASSERT_FALSE(bent);
  EXPECT_NE(bent.error().message.find("rest flat"), std::string::npos);
}

}  // namespace
}  // namespace hg
