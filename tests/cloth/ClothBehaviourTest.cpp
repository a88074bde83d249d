// What a tailor would check: anisotropy stiffens the directions the texture says,
// stiff stripes show, bending rigidity shapes a cantilever, plastic cloth keeps part of
// a stretch, friction holds on an incline up to tan(angle) = mu, and drape-to-rest
// finds the shape the dynamic solver settles into. CPU reference backend.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

using test::sheet;

std::unique_ptr<ClothSolver> cpuSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
  auto solver = createCpuClothSolver(std::move(model), settings);
  EXPECT_TRUE(solver) << solver.error().message;
  return std::move(solver).value();
}

/// Spring energy (J) of a state, linear springs.
double springEnergy(const std::vector<kernels::ClothSpring>& springs, const ClothState& state) {
  double e = 0.0;
  for (const auto& s : springs) {
    const double stretch =
        glm::distance(glm::dvec3(state.positions[s.a]), glm::dvec3(state.positions[s.b])) - s.restLength;
    e += 0.5 * s.stiffness * stretch * stretch;
  }
  return e;
}

/// Energy of the sheet under a small uniaxial strain along UV direction (cos a, sin a):
/// boundary pinned at the affinely strained positions, interior relaxed to rest.
double uniaxialEnergy(const glm::vec4& multipliers, float angle) {
  const int r = 17;
  PinSet boundary;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < r; ++j)
      if (i == 0 || j == 0 || i == r - 1 || j == r - 1) boundary.push_back(std::uint32_t(i * r + j));
  auto model = sheet(r, boundary, {}, AnisotropyTexture::uniform(multipliers, 2.0f), 1.0f);
  ClothSettings settings = test::withoutColliders();
  settings.gravity = glm::vec3(0.0f);
  auto solver = cpuSolver(model, settings);
  // UV u runs along +x, v along -z (makeSquareSheet).
  const glm::vec3 direction(std::cos(angle), 0.0f, -std::sin(angle));
  const float strain = 0.01f;
  ClothState state = restState(*model);
  for (glm::vec4& p : state.positions) {
    const glm::vec3 x = glm::vec3(p) - glm::vec3(0.0f, 1.3f, 0.0f);
    p += glm::vec4(strain * glm::dot(x, direction) * direction, 0.0f);
  }
  solver->writeState(state);
  const RelaxReport report = solver->relaxToRest(1e-4f, 20000);
  EXPECT_TRUE(report.converged);
  return springEnergy(solver->readSprings(), solver->readState());
}

TEST(ClothAnisotropy, StiffnessAlongWarpWeftAndBiasFollowsTheTexture) {
  // With edge springs k = E A / L^2 on the alternating-diagonal grid, the uniaxial
  // stiffness along unit UV direction n (per unit area, up to E / 3) is
  //   S(n) = Ka nx^4 + Kb ny^4 + Kc (nx + ny)^4 / 8 + Kd (ny - nx)^4 / 8.
  const glm::vec4 K(1.6f, 0.4f, 1.0f, 0.2f);  // Ka warp, Kb weft, Kc / Kd bias
  const auto predicted = [&](float a) {
    const float nx = std::cos(a), ny = std::sin(a);
    return K.x * std::pow(nx, 4.0f) + K.y * std::pow(ny, 4.0f) + K.z * std::pow(nx + ny, 4.0f) / 8.0f +
           K.w * std::pow(ny - nx, 4.0f) / 8.0f;
  };
  const float warp = 0.0f, weft = std::numbers::pi_v<float> / 2.0f, bias = std::numbers::pi_v<float> / 4.0f;
  const double eWarp = uniaxialEnergy(K, warp), eWeft = uniaxialEnergy(K, weft), eBias = uniaxialEnergy(K, bias);
  std::printf("[ anisotropy ] energy ratios weft/warp %.4f (predicted %.4f), bias/warp %.4f (predicted %.4f)\n",
              eWeft / eWarp, predicted(weft) / predicted(warp), eBias / eWarp, predicted(bias) / predicted(warp));
  EXPECT_NEAR(eWeft / eWarp, predicted(weft) / predicted(warp), 0.05 * predicted(weft) / predicted(warp));
  EXPECT_NEAR(eBias / eWarp, predicted(bias) / predicted(warp), 0.05 * predicted(bias) / predicted(warp));
}

TEST(ClothAnisotropy, AStiffStripeShowsInTheDeformation) {
  // A sheet hangs from its top edge (v = 0 row, z = +0.8) with gravity along -z, in
  // its plane, so it stretches along v (weft). A texture band u in [0.375, 0.625]
  // is 4x stiffer in weft: the bottom edge is held up there.
  AnisotropyTexture stripe;
  stripe.width = 16;
  stripe.height = 1;
  stripe.scale = 2.0f;
  for (int x = 0; x < 16; ++x) {
    const std::uint8_t weft = (x >= 6 && x <= 9) ? 255 : 64;
    stripe.rgba.insert(stripe.rgba.end(), {128, weft, 128, 128});
  }
  const int r = 25;
  PinSet top;
  for (int j = 0; j < r; ++j) top.push_back(std::uint32_t(j));
  ClothMaterial material;
  material.tensileStiffness = 100.0f;  // soft, so the stretch is visible
  auto model = sheet(r, top, material, stripe);
  ClothSettings settings = test::withoutColliders();
  settings.gravity = glm::vec3(0.0f, 0.0f, -9.81f);
  auto solver = cpuSolver(model, settings);
  ASSERT_TRUE(solver->relaxToRest(1e-4f, 400000).converged);
  const ClothState state = solver->readState();
  auto drop = [&](int col) {  // how far the bottom-row vertex moved down (m)
    const std::size_t i = std::size_t((r - 1) * r + col);
    return double(model->restPositions[i].z - state.positions[i].z);
  };
  const double middle = drop(r / 2), side = drop(3);
  std::printf("[ anisotropy ] bottom edge drop: stripe %.4f m, outside %.4f m\n", middle, side);
  EXPECT_GT(side, 0.01);
  EXPECT_LT(middle, 0.8 * side);
}

// Bending ------------------------------------------------------------------------

TEST(ClothBending, ACantileverDeflectsMoreAsRigidityFalls) {
  // Two rows clamped (a clamp, not a hinge line), the rest of the sheet sticks out
  // horizontally under gravity; the free edge's sag grows monotonically as D falls.
  const int r = 13;
  PinSet clamp;
  for (int j = 0; j < 2 * r; ++j) clamp.push_back(std::uint32_t(j));
  double previous = -1.0;
  for (float rigidity : {3e-3f, 1e-3f, 3e-4f, 1e-4f}) {
    ClothMaterial material;
    material.bendingRigidity = rigidity;
    material.tensileStiffness = 2000.0f;
    auto model = sheet(r, clamp, material, std::nullopt, 0.3f);
    ClothSettings settings = test::withoutColliders();
    settings.substeps = 80;
    settings.velocityDamping = 2.0f;
    auto solver = cpuSolver(model, settings);
    const RelaxReport relax = solver->relaxToRest(1e-4f, 200000);
    ASSERT_TRUE(relax.converged) << "D = " << rigidity << ": " << describe(relax.status) << ", " << relax.iterations
                                 << " iterations, max speed " << relax.maxSpeed;
    const ClothState state = solver->readState();
    const std::size_t tip = std::size_t((r - 1) * r + r / 2);
    const double sag = double(model->restPositions[tip].y - state.positions[tip].y);
    std::printf("[ bending ] D = %g N m: tip sag %.4f m (rest after %d iterations)\n", double(rigidity), sag,
                relax.iterations);
    EXPECT_GT(sag, previous) << "D = " << rigidity;
    previous = sag;
  }
  EXPECT_GT(previous, 0.01);
}

// Plasticity ---------------------------------------------------------------------

TEST(ClothPlasticity, StretchedClothKeepsPartOfItsDeformationWhenUnloaded) {
  const int r = 9;
  PinSet ends;
  for (int j = 0; j < r; ++j) ends.push_back(std::uint32_t(j));                // top row
  for (int j = 0; j < r; ++j) ends.push_back(std::uint32_t((r - 1) * r + j));  // bottom row
  auto model = sheet(r, ends, {}, std::nullopt, 0.5f);
  for (float rate : {0.0f, 5.0f}) {
    ClothSettings settings = test::withoutColliders();
    settings.gravity = glm::vec3(0.0f);
    settings.plasticRate = rate;
    settings.yieldStrain = 0.02f;
    auto solver = cpuSolver(model, settings);
    std::vector<std::uint32_t> bottom(ends.begin() + r, ends.end());
    std::vector<glm::vec3> targets(bottom.size());
    // Load: pull the bottom row 10% further away (along -z), hold for 1 s, then release.
    for (int f = 0; f < 120; ++f) {
      const float pull = f < 60 ? 0.05f * float(std::min(f + 1, 30)) / 30.0f : 0.0f;
      for (std::size_t k = 0; k < bottom.size(); ++k)
        targets[k] = glm::vec3(model->restPositions[bottom[k]]) + glm::vec3(0.0f, 0.0f, -pull);
      solver->setPinTargets(bottom, targets);
      ASSERT_EQ(solver->step(), StepStatus::Ok);
    }
    double grown = 0.0;
    for (const auto& s : solver->readSprings()) grown = std::max(grown, double(s.restLength / s.restLength0 - 1.0f));
    std::printf("[ plasticity ] rate %g: largest rest-length growth after unloading %.4f\n", double(rate), grown);
    if (rate == 0.0f) {
      EXPECT_EQ(grown, 0.0);  // elastic: nothing kept
    } else {
      EXPECT_GT(grown, 0.02);  // keeps part of the ~10% stretch
      EXPECT_LT(grown, 0.10);  // but not all of it (strain up to the yield recovers)
    }
  }
}

// Friction -----------------------------------------------------------------------

/// Distance (m) a small cloth patch slides in 1 s down a plane inclined by `angle`.
double slideOnIncline(float angle, float mu) {
  auto model = sheet(5, {}, {}, std::nullopt, 0.1f);
  ClothSettings settings = test::withoutColliders();
  settings.colliders.grounds = {GroundCollider{0.0f, glm::vec3(-std::sin(angle), std::cos(angle), 0.0f)}};
  settings.friction = mu;
  settings.contactOffset = 0.0f;
  settings.velocityDamping = 0.0f;
  auto solver = cpuSolver(model, settings);
  // Lay the patch on the plane: rotate the flat sheet about z by `angle`.
  ClothState state = restState(*model);
  const glm::vec3 centre(0.0f, 1.3f, 0.0f);
  for (glm::vec4& p : state.positions) {
    const glm::vec3 x = glm::vec3(p) - centre;
    p = glm::vec4(x.x * std::cos(angle), x.x * std::sin(angle), x.z, p.w);
  }
  return test::centroidTravel(*solver, state, 60);
}

TEST(ClothFriction, HoldsOnAnInclineIffTanAngleIsAtMostMu) {
  const float mu = 0.5f;
  const float threshold = std::atan(mu);  // 26.57 degrees
  for (float degrees : {-6.0f, -2.0f, 2.0f, 6.0f}) {
    const float angle = threshold + degrees * std::numbers::pi_v<float> / 180.0f;
    const double slid = slideOnIncline(angle, mu);
    std::printf("[ friction ] tan(angle) - mu = %+.3f: slid %.5f m in 1 s\n", double(std::tan(angle) - mu), slid);
    if (degrees < 0.0f)
      EXPECT_LT(slid, 1e-4) << "static friction must hold at " << degrees << " degrees below the threshold";
    else
      EXPECT_GT(slid, 0.05) << "kinetic friction must let it slide at " << degrees << " degrees above";
  }
}

// Drape-to-rest --------------------------------------------------------------------

TEST(ClothDrapeToRest, ConvergesToTheShapeTheDynamicSolverSettlesInto) {
  const int r = 15;
  ClothMaterial material;
  material.bendingRigidity = 1e-3f;
  auto model = sheet(r, {0, std::uint32_t(r - 1)}, material, std::nullopt, 0.6f);  // hangs from two corners
  ClothSettings settings = test::withoutColliders();
  settings.velocityDamping = 2.0f;
  auto dynamic = cpuSolver(model, settings);
  for (int f = 0; f < 900; ++f) ASSERT_EQ(dynamic->step(), StepStatus::Ok);  // 15 s
  auto relaxed = cpuSolver(model, settings);
  const RelaxReport report = relaxed->relaxToRest(1e-4f, 2000000);
  std::printf("[ drape-to-rest ] converged %d after %d iterations (substeps), last max speed %.3g m/s\n",
              int(report.converged), report.iterations, double(report.maxSpeed));
  ASSERT_TRUE(report.converged);
  const ClothState a = dynamic->readState(), b = relaxed->readState();
  double worst = 0.0, maxSpeed = 0.0;
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    worst = std::max(worst, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i]))));
    maxSpeed = std::max(maxSpeed, double(glm::length(glm::vec3(a.velocities[i]))));
  }
  std::printf("[ drape-to-rest ] max distance to the dynamic settled shape %.4f m (dynamic max speed %.2g m/s)\n",
              worst, maxSpeed);
  EXPECT_LT(maxSpeed, 1e-3);  // the dynamic run really settled
  EXPECT_LT(worst, 0.005);    // same shape within 5 mm
}

}  // namespace
}  // namespace hg
