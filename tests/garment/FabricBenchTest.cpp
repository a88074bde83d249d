// The virtual fabric bench (sim/garment/FabricBench.h): its measurements on analytic cases
// (a flat disc's shadow, a wavy rim's nodes, Peirce's relation), then the three tests on the
// CPU backend against what the cloth model is built to have: the tensile modulus of an
// isotropic sheet, the flexural rigidity of its hinges, and a drape coefficient that does
// not depend on the mesh's edge length.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/cloth/MeasuredFabric.h"
#include "sim/garment/FabricBench.h"
#include "sim/geometry/CgalGeometry.h"

namespace hg {
namespace fabric_bench_test {
namespace {

constexpr double kPi = std::numbers::pi;

FabricBenchSettings cpuBench(double edge) {
  FabricBenchSettings settings;
  settings.edgeLength = edge;
  settings.solverFactory = [](std::shared_ptr<const ClothModel> model, const ClothSettings& s) {
    return createCpuClothSolver(std::move(model), s);
  };
  return settings;
}

std::vector<glm::dvec2> circle(double radius, int count) {
  std::vector<glm::dvec2> points;
  for (int k = 0; k < count; ++k)
    points.emplace_back(radius * std::cos(2.0 * kPi * k / count), radius * std::sin(2.0 * kPi * k / count));
  return points;
}

TEST(FabricBench, TheDiscMeshKeepsTheSupportRimAsEdges) {
  const auto rim = circle(0.15, 94), support = circle(0.09, 57);
  auto planar = cgal::meshPolygon(rim, 0.01, 0.125, 10, support);
  ASSERT_TRUE(planar) << planar.error().message;
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::size_t t = 0; t < planar->triangles.size(); t += 3)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = planar->triangles[t + std::size_t(k)], b = planar->triangles[t + std::size_t(k + 1) % 3];
      edges.insert({std::min(a, b), std::max(a, b)});
    }
  for (std::uint32_t i = 0; i < 57; ++i) {
    const std::uint32_t a = 94 + i, b = 94 + (i + 1) % 57;
    EXPECT_TRUE(edges.count({std::min(a, b), std::max(a, b)})) << "support rim segment " << i;
    EXPECT_NEAR(glm::length(planar->points[a]), 0.09, 1e-12);
  }
  // The inside of the loop is meshed too: the triangles cover the whole disc.
  double area = 0.0;
  for (std::size_t t = 0; t < planar->triangles.size(); t += 3) {
    const glm::dvec2 a = planar->points[planar->triangles[t]], b = planar->points[planar->triangles[t + 1]],
                     c = planar->points[planar->triangles[t + 2]];
    area += 0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
  }
  EXPECT_NEAR(area, 0.5 * 94 * 0.15 * 0.15 * std::sin(2.0 * kPi / 94), 1e-9);
}

/// A flat polygon of `count` sides and radius r, horizontal, as a triangle fan.
TriangleMesh flatDisc(double radius, int count) {
  TriangleMesh mesh;
  mesh.positions.emplace_back(0.0f);
  for (const glm::dvec2& p : circle(radius, count)) mesh.positions.emplace_back(float(p.x), 0.0f, float(-p.y));
  for (int k = 0; k < count; ++k) {
    mesh.indices.push_back(0);
    mesh.indices.push_back(std::uint32_t(1 + k));
    mesh.indices.push_back(std::uint32_t(1 + (k + 1) % count));
  }
  return mesh;
}

TEST(FabricBench, AnUndrapedDiscHasDrapeCoefficient100AndTheSupportAlone0) {
  const DrapeShadow whole = projectShadow(flatDisc(0.15, 720), 0.34, 680);
  const double area = double(std::count(whole.covered.begin(), whole.covered.end(), 1)) * whole.pixelArea();
  EXPECT_NEAR(drapeCoefficientOf(area), 100.0, 0.3);
  const DrapeShadow support = projectShadow(flatDisc(0.09, 720), 0.34, 680);
  EXPECT_NEAR(
      drapeCoefficientOf(double(std::count(support.covered.begin(), support.covered.end(), 1)) * support.pixelArea()),
      0.0, 0.3);
  // The rim profile of the whole disc is its radius all round.
  for (double r : rimProfile(whole, 360)) EXPECT_NEAR(r, 0.15, 0.001);
}

TEST(FabricBench, TheNodesOfAWavyRimAreItsWaves) {
  for (int waves = 4; waves <= 12; ++waves) {
    std::vector<double> rim;
    for (int k = 0; k < 360; ++k)
      rim.push_back(0.12 + 0.01 * std::cos(waves * 2.0 * kPi * k / 360.0 + 0.3) +
                    0.0015 * std::sin(37.0 * 2.0 * kPi * k / 360.0));  // ripples under the hysteresis
    EXPECT_EQ(countNodes(rim, 0.002), waves);
  }
  EXPECT_EQ(countNodes(std::vector<double>(360, 0.12), 0.002), 0);
}

TEST(FabricBench, PeircesBendingLengthIsHalfTheOverhangAtTheStandardAngle) {
  // Peirce chose 41.5 degrees for c = l / 2 (to 2 %).
  EXPECT_NEAR(peirceBendingLength(0.1, 41.5 * kPi / 180.0), 0.05, 0.001);
  // Less droop, a stiffer fabric: a longer bending length.
  EXPECT_GT(peirceBendingLength(0.1, 20.0 * kPi / 180.0), 0.05);
}

BenchFabric isotropic(float stiffness, float rigidity) {
  BenchFabric fabric;
  fabric.material.arealDensity = 0.2f;
  fabric.material.tensileStiffness = stiffness;
  fabric.material.bendingRigidity = rigidity;
  return fabric;
}

// A sheet of springs of stiffness E in every direction has the uniaxial modulus E / 3
// (Cauchy-Born, sim/cloth/FabricMapping.h); the strip reads it with its extensometer, linear
// to 10 % strain, along every direction.
TEST(FabricBench, TheTensileModulusOfAnIsotropicSheetIsAThirdOfItsSprings) {
  const double strains[] = {0.01, 0.1};
  for (const BenchDirection direction : {BenchDirection::Warp, BenchDirection::Bias}) {
    auto curve = runTensileTest(isotropic(300.0f, 1e-6f), direction, strains, cpuBench(0.02));
    ASSERT_TRUE(curve) << curve.error().message;
    EXPECT_TRUE(curve->relax.converged);
    // The static solve (Newton) reaches the equilibrium the dynamics relaxed to.
    FabricBenchSettings statics = cpuBench(0.02);
    statics.staticSolve = true;
    auto solved = runTensileTest(isotropic(300.0f, 1e-6f), direction, strains, statics);
    ASSERT_TRUE(solved) << solved.error().message;
    EXPECT_TRUE(solved->relax.converged);
    EXPECT_GT(solved->relax.newtonSteps, 0);
    for (std::size_t i = 0; i < 2; ++i) {
      // The jaws hold the ends from narrowing, so the middle stretches a little more.
      EXPECT_GT(curve->strain[i], strains[i]);
      EXPECT_LT(curve->strain[i], 1.1 * strains[i]);
      // Free sides: E / 3 = 100 N/m (held sides would give C11 = 3 E / 8 = 112.5).
      EXPECT_NEAR(curve->secantModulus(i), 100.0, 5.0) << benchDirectionName(direction) << " step " << i;
      EXPECT_NEAR(solved->secantModulus(i), curve->secantModulus(i), 0.01 * curve->secantModulus(i))
          << benchDirectionName(direction) << " step " << i;
    }
  }
}

// The cantilever returns the rigidity the hinges are built with (hingeSheetRigidity) within
// 15 % (the bound on bending) for each direction of a fabric twice as stiff across
// the weft as across the warp (a knit's ratio; the membrane soft, so the substeps are few).
// The mesh correction (fitMeshCorrection) on the bench's own strips, solved by Newton: the
// interlock's warp, 20-30 % soft without it, comes within 2 % with every other direction;
// the twill's bias, out of the springs' reach, keeps the factor 1 and its warp and weft
// still come within 2 %.
TEST(FabricBench, TheMeshCorrectionBringsTheStripsToTheirData) {
  for (const char* name : {"tshirt_interlock", "twill_cotton_poly"}) {
    SCOPED_TRACE(name);
    auto library = findLibraryFabric(fabricLibraryDirectory(), name);
    ASSERT_TRUE(library) << library.error().message;
    const MeasuredFabric& data = *library->measured;
    FabricBenchSettings settings = cpuBench(0.01);  // the library's (a 5 cm strip is 2.5 edges wide at 2 cm)
    settings.staticSolve = true;
    auto fit = fitMeshCorrection(
        library->physical, [&data](double angle, double strain) { return uniaxialModulus(data, angle, strain); },
        settings);
    ASSERT_TRUE(fit) << fit.error().message;
    std::printf(
        "[ correction ] %s: warp %.3f weft %.3f bias %.3f; at 1/6 %.3f %.3f %.3f; errors at 0 %+.3f %+.3f "
        "%+.3f (from %+.3f %+.3f %+.3f), %d rounds\n",
        name, fit->correction.modulus.x, fit->correction.modulus.y, fit->correction.modulus.z,
        fit->correction.strainedModulus.x, fit->correction.strainedModulus.y, fit->correction.strainedModulus.z,
        fit->errorAtZero.x, fit->errorAtZero.y, fit->errorAtZero.z, fit->initialErrorAtZero.x,
        fit->initialErrorAtZero.y, fit->initialErrorAtZero.z, fit->rounds);
    EXPECT_EQ(fit->correction.edgeLength, 0.01);
    // What the library ships is what the fit gives (written to 3 decimals).
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(library->physical.meshCorrection.modulus[d], fit->correction.modulus[d], 6e-4) << d;
      EXPECT_NEAR(library->physical.meshCorrection.strainedModulus[d], fit->correction.strainedModulus[d], 6e-4) << d;
    }
    EXPECT_LT(std::abs(fit->errorAtZero.x), 0.02);
    EXPECT_LT(std::abs(fit->errorAtZero.y), 0.02);
    if (std::string(name) == "tshirt_interlock") {
      EXPECT_LT(fit->initialErrorAtZero.x, -0.15);
      EXPECT_LT(std::abs(fit->errorAtZero.z), 0.02);
      for (int d = 0; d < 3; ++d) EXPECT_LT(std::abs(fit->errorAtOneSixth[d]), 0.05) << d;
    } else {
      EXPECT_EQ(fit->correction.modulus.z, 1.0);
      EXPECT_GT(fit->errorAtZero.z, 1.0);  // the woven bias stays out of reach
    }
  }
}

// The estimate `fabric-test --jobs` orders its queue by: the explicit substeps per frame
// times the disc's vertices. A stiffer sheet steps more often; a finer mesh has more vertices
// and steps more often (about 8 times the work at half the edge).
TEST(FabricBench, TheDrapeCostEstimateGrowsWithStiffnessAndResolution) {
  BenchFabric soft;
  soft.material.tensileStiffness = 300.0f;
  soft.material.arealDensity = 0.2f;
  BenchFabric stiff = soft;
  stiff.material.tensileStiffness = 30000.0f;
  auto a = drapeTestCost(soft, cpuBench(0.02)), b = drapeTestCost(stiff, cpuBench(0.02)),
       c = drapeTestCost(soft, cpuBench(0.01));
  ASSERT_TRUE(a && b && c);
  EXPECT_GT(*a, 0.0);
  EXPECT_GT(*b, 5.0 * *a);  // 100 times the stiffness: about 10 times the substeps
  EXPECT_GT(*c, 4.0 * *a);
}

TEST(FabricBench, PeircesCantileverReadsTheRigidityOfTheHinges) {
  const glm::dvec3 rigidity(4e-5, 6e-5, 8e-5);  // folds along the warp, the bias, the weft
  BenchFabric fabric = isotropic(100.0f, float(hingeRigidityFor((rigidity.x + rigidity.y + rigidity.z) / 3.0)));
  fabric.material.bendingAnisotropy = glm::vec3(fitBendingFactors(rigidity));
  for (const BenchDirection direction : {BenchDirection::Warp, BenchDirection::Weft}) {
    // A warp strip folds along the weft, a weft strip along the warp.
    const double expected = direction == BenchDirection::Warp ? rigidity.z : rigidity.x;
    auto result = runCantileverTest(fabric, direction, expected, cpuBench(0.01));
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_TRUE(result->relax.converged);
    EXPECT_NEAR(result->chordAngle * 180.0 / kPi, 41.5, 8.0);
    EXPECT_NEAR(result->flexuralRigidity / expected, 1.0, 0.15) << benchDirectionName(direction);
    // The static solve's quadratic hinges have the explicit hinges' energy for this bend
    // (docs/methods.md section 1): the same strip within 3 % of rigidity.
    FabricBenchSettings statics = cpuBench(0.01);
    statics.staticSolve = true;
    auto solved = runCantileverTest(fabric, direction, expected, statics);
    ASSERT_TRUE(solved) << solved.error().message;
    EXPECT_TRUE(solved->relax.converged);
    EXPECT_NEAR(solved->flexuralRigidity / result->flexuralRigidity, 1.0, 0.03) << benchDirectionName(direction);
  }
}

// The Cusick test of the t-shirt interlock at 2 cm edges (seconds): at rest, folded into
// nodes, its drape coefficient in the knits' range (22.8 % measured; 28.7 % at 10 mm: the
// coarse mesh's hinges bend softer; bench/RESULTS.md has every preset at 10 and 20 mm and
// some at 5 mm, a study too long for the suite).
TEST(FabricBench, AKnitDrapesIntoFolds) {
  auto library = findLibraryFabric(fabricLibraryDirectory(), "tshirt_interlock");
  ASSERT_TRUE(library) << library.error().message;
  const SpringFabric spring = springFabricOf(library->physical);
  auto result = runDrapeTest(BenchFabric{spring.material, spring.anisotropy}, cpuBench(0.02));
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_TRUE(result->relax.converged);
  EXPECT_GE(result->nodes, 5);
  EXPECT_LE(result->nodes, 14);
  EXPECT_GT(result->drapeCoefficient, 15.0);
  EXPECT_LT(result->drapeCoefficient, 40.0);
  // The draped disc hangs below the support and stays clamped on it.
  float lowest = 0.0f;
  for (const glm::vec3& p : result->draped.positions) lowest = std::min(lowest, p.y);
  EXPECT_LT(lowest, -0.02f);
  EXPECT_EQ(result->draped.positions.size(), result->vertices);
}

}  // namespace
}  // namespace fabric_bench_test
}  // namespace hg
