// Where snow lives and how it settles (sim/snow/SnowCover.h; docs/methods.md section 5): the
// refinement of objects, the accumulation over time (open ground gets rate x hours, a
// roof shelters, snow on snow changes what later passes see), and the angle-of-repose
// relaxation (final slope, axes against diagonals, mass conservation with snow falling
// off objects).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "sim/geometry/MeshTopology.h"
#include "sim/snow/SnowCover.h"

namespace hg {
namespace {

TriangleMesh groundPlane(float half, float y = 0.0f) {
  TriangleMesh mesh;
  mesh.positions = {{-half, y, -half}, {half, y, -half}, {half, y, half}, {-half, y, half}};
  mesh.indices = {0, 2, 1, 0, 3, 2};  // counter-clockwise seen from above
  return mesh;
}

SnowSettings smallSettings(float cell) {
  SnowSettings settings;
  settings.groundCell = cell;
  settings.mapResolution = 0;
  settings.exposure.texel = cell / 2.0f;
  settings.fall.count = 32;
  settings.fall.coneDegrees = 15.0f;
  return settings;
}

/// The snow surface height profile from cell (ci, cj) along (di, dj) steps.
std::vector<double> profile(const SnowCover& cover, int ci, int cj, int di, int dj) {
  std::vector<double> heights;
  for (int k = 0;; ++k) {
    const int i = ci + k * di, j = cj + k * dj;
    if (i < 0 || j < 0 || i >= cover.grid.nx || j >= cover.grid.nz) break;
    heights.push_back(double(cover.groundSnow[cover.grid.index(i, j)]));
  }
  return heights;
}

/// The pile's flank angle (degrees) along a profile whose steps are `step` m: the
/// least-squares slope of the heights between 10 % and 90 % of the summit.
double flankDegrees(const std::vector<double>& heights, double step) {
  const double summit = heights.front();
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  int n = 0;
  for (std::size_t k = 0; k < heights.size(); ++k) {
    if (heights[k] < 0.1 * summit || heights[k] > 0.9 * summit) continue;
    const double x = double(k) * step;
    sx += x;
    sy += heights[k];
    sxx += x * x;
    sxy += x * heights[k];
    ++n;
  }
  EXPECT_GE(n, 4) << "too few flank samples";
  const double slope = (double(n) * sxy - sx * sy) / (double(n) * sxx - sx * sx);
  return glm::degrees(std::atan(-slope));
}

TEST(SnowCover, RefinementBoundsEdgesAndKeepsTheSurface) {
  const TriangleMesh box = makeBox({0.0f, 0.0f, 0.0f}, {1.0f, 0.3f, 0.5f}, 0);
  auto refined = refineForSnow(box, 0.1f);
  ASSERT_TRUE(refined.ok()) << refined.error().message;
  double longest = 0.0;
  for (std::size_t t = 0; t < refined->indices.size(); t += 3)
    for (int e = 0; e < 3; ++e)
      longest =
          std::max(longest, double(glm::length(refined->positions[refined->indices[t + std::size_t(e)]] -
                                               refined->positions[refined->indices[t + std::size_t(e + 1) % 3]])));
  EXPECT_LE(longest, 0.1 + 1e-6);
  EXPECT_TRUE(isWatertight(*refined)) << "refinement must stay conforming (no T-junctions)";
  EXPECT_NEAR(signedVolume(*refined), 0.15, 1e-6);
  EXPECT_GT(refined->triangleCount(), box.triangleCount() * 20);
  EXPECT_FALSE(refineForSnow(box, 0.0f).ok());
  EXPECT_FALSE(refineForSnow(box, 0.001f, 100000).ok()) << "a refinement past the triangle cap is an error";
}

TEST(SnowCover, GridFollowsTheGroundAndErrorsNameTheProblem) {
  SnowScene scene;
  scene.ground = groundPlane(1.0f, 0.25f);
  auto cover = makeSnowCover(scene, smallSettings(0.1f));
  ASSERT_TRUE(cover.ok()) << cover.error().message;
  EXPECT_EQ(cover->grid.nx, 20);
  EXPECT_EQ(cover->grid.nz, 20);
  for (float h : cover->ground) EXPECT_FLOAT_EQ(h, 0.25f);
  EXPECT_EQ(cover->heldVolume(), 0.0);

  SnowScene empty;
  auto none = makeSnowCover(empty, smallSettings(0.1f));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no ground"), std::string::npos);
  SnowScene bad = scene;
  bad.objects = makeBox({0.0f, 0.0f, 0.0f}, {0.1f, 0.1f, 0.1f}, 0);
  bad.objects.positions[0].x = std::nanf("");
  auto nan = makeSnowCover(bad, smallSettings(0.1f));
  ASSERT_FALSE(nan.ok());
  EXPECT_NE(nan.error().message.find("non-finite"), std::string::npos);
  SnowSettings badSettings = smallSettings(0.1f);
  badSettings.repose.degrees = 85.0f;
  auto steep = makeSnowCover(scene, badSettings);
  ASSERT_FALSE(steep.ok());
  EXPECT_NE(steep.error().message.find("repose_degrees"), std::string::npos);
}

TEST(SnowCover, OpenGroundGetsRateTimesHoursAndARoofShelters) {
  SnowScene scene;
  scene.ground = groundPlane(1.0f);
  // A flat roof 1 m up over x in [-1.2, 0]: the ground under it far from the edge is sheltered.
  scene.objects = makeBox({-1.2f, 1.0f, -1.2f}, {0.0f, 1.05f, 1.2f}, 0);
  SnowSettings settings = smallSettings(0.05f);
  settings.rateMetresPerHour = 0.04f;
  settings.hours = 1.5f;
  settings.passes = 3;
  auto cover = makeSnowCover(scene, settings);
  ASSERT_TRUE(cover.ok()) << cover.error().message;
  auto solver = makeCpuSnowSolver(*cover, resolvedExposureSettings(*cover, settings));
  auto report = runSnowfall(*solver, settings);
  ASSERT_TRUE(report.ok()) << report.error().message;
  auto result = solver->cover();
  ASSERT_TRUE(result.ok());
  const SnowCover& c = *result;
  const double expected = 0.04 * 1.5;
  // Open ground far from the roof (x > 0.6: the 15-degree cone's penumbra ends 0.27 m out).
  // Sheltered: -0.9 < x < -0.4 (the roof ends 0.2 m past the ground at x = -1.2).
  for (int j = 4; j < c.grid.nz - 4; ++j)
    for (int i = 0; i < c.grid.nx; ++i) {
      const float x = c.grid.centre(i, j).x;
      const float snow = c.groundSnow[c.grid.index(i, j)];
      if (x > 0.6f) {
        EXPECT_NEAR(snow, expected, 0.01 * expected) << "open ground at x " << x;
      }
      if (x < -0.4f && x > -0.9f) {
        EXPECT_NEAR(snow, 0.0, 1e-6) << "under the roof at x " << x;
      }
    }
  // The roof's top holds snow inside its rim (the rim itself sheds it at the repose angle).
  float roofMax = 0.0f;
  for (std::size_t v = 0; v < c.objects.positions.size(); ++v)
    if (c.objects.positions[v].y > 1.04f) roofMax = std::max(roofMax, c.objectSnow[v]);
  EXPECT_NEAR(roofMax, expected, 0.02 * expected);
  EXPECT_LE(report->maxRelativeMassDrift, 1e-5);
  EXPECT_NEAR(report->finalVolume, report->fallenVolume, 1e-5 * report->fallenVolume);
  for (const SnowRelaxation& r : report->relaxations) {
    EXPECT_TRUE(r.converged);
    EXPECT_LE(r.maxRatio, 1.01);
  }
}

TEST(SnowCover, SnowOnSnowChangesWhatLaterPassesSee) {
  // A low plate 0.3 m up over x < 0: the ground just outside its edge is in its penumbra.
  SnowScene scene;
  scene.ground = groundPlane(1.0f);
  scene.objects = makeBox({-1.5f, 0.3f, -1.5f}, {0.0f, 0.32f, 1.5f}, 0);
  SnowSettings settings = smallSettings(0.05f);
  settings.fall.coneDegrees = 30.0f;
  settings.fall.count = 64;
  auto cover = makeSnowCover(scene, settings);
  ASSERT_TRUE(cover.ok()) << cover.error().message;
  const auto directions = snowfallDirections(settings.fall);
  ASSERT_TRUE(directions.ok());
  const SnowExposureSettings exposure = resolvedExposureSettings(*cover, settings);
  const auto exposureNearEdge = [&](const SnowCover& state) {
    auto solver = makeCpuSnowSolver(state, exposure);
    EXPECT_TRUE(solver->accumulate(*directions, 0.0f).ok());
    const SnowReceivers receivers = snowReceivers(state);
    const std::vector<float> e = *solver->lastExposure();
    double sum = 0.0;
    int n = 0;
    for (std::size_t r = 0; r < receivers.cells.size(); ++r) {
      const float x = receivers.points[r].x;
      if (x > 0.0f && x < 0.1f) {
        sum += e[r];
        ++n;
      }
    }
    return sum / n;
  };
  const double bare = exposureNearEdge(*cover);
  EXPECT_LT(bare, 0.85) << "a receiver beside the plate's edge sees part of the cone blocked";
  // 0.4 m of snow on the open ground lifts those receivers above the plate: fully exposed.
  SnowCover deep = *cover;
  for (int j = 0; j < deep.grid.nz; ++j)
    for (int i = 0; i < deep.grid.nx; ++i)
      if (deep.grid.centre(i, j).x > 0.0f) deep.groundSnow[deep.grid.index(i, j)] = 0.4f;
  EXPECT_NEAR(exposureNearEdge(deep), 1.0, 1e-6);
}

SnowCover pileOnFlatGround(int cells, float cell, int columnHalfWidth, float columnHeight) {
  SnowScene scene;
  scene.ground = groundPlane(0.5f * float(cells) * cell);
  auto cover = makeSnowCover(scene, smallSettings(cell));
  EXPECT_TRUE(cover.ok());
  const int c = cells / 2;
  for (int j = c - columnHalfWidth; j <= c + columnHalfWidth; ++j)
    for (int i = c - columnHalfWidth; i <= c + columnHalfWidth; ++i)
      cover->groundSnow[cover->grid.index(i, j)] = columnHeight;
  return *cover;
}

TEST(SnowCover, ReposeRelaxationReachesTheAngleEvenlyAndConservesMass) {
  for (float degrees : {39.0f, 45.0f, 50.0f}) {
    SCOPED_TRACE(degrees);
    const int cells = 81;
    const float cell = 0.05f;
    SnowCover cover = pileOnFlatGround(cells, cell, 4, 1.0f);
    const double before = cover.totalVolume();
    auto solver = makeCpuSnowSolver(cover, SnowExposureSettings{});
    SnowReposeSettings repose;
    repose.degrees = degrees;
    repose.maxIterations = 200000;
    auto relaxation = solver->relax(repose);
    ASSERT_TRUE(relaxation.ok()) << relaxation.error().message;
    EXPECT_TRUE(relaxation->converged) << relaxation->iterations << " sweeps, ratio " << relaxation->maxRatio;
    const SnowCover after = *solver->cover();
    EXPECT_LE(maxReposeRatio(after, degrees), 1.01);
    EXPECT_LT(std::abs(after.totalVolume() - before) / before, 1e-5);
    const int c = cells / 2;
    const double axis = flankDegrees(profile(after, c, c, 1, 0), cell);
    const double diagonal = flankDegrees(profile(after, c, c, 1, 1), cell * std::sqrt(2.0));
    const double axisBack = flankDegrees(profile(after, c, c, 0, -1), cell);
    const double diagonalBack = flankDegrees(profile(after, c, c, -1, 1), cell * std::sqrt(2.0));
    std::printf(
        "repose %.0f deg: %d sweeps, max ratio %.4f, flanks axis %.2f / %.2f, diagonal %.2f / %.2f deg, "
        "mass drift %.2e\n",
        double(degrees), relaxation->iterations, relaxation->maxRatio, axis, axisBack, diagonal, diagonalBack,
        std::abs(after.totalVolume() - before) / before);
    EXPECT_NEAR(axis, diagonal, 2.0) << "piles along the axes and the diagonals";
    EXPECT_NEAR(axisBack, diagonalBack, 2.0);
    EXPECT_NEAR(axis, axisBack, 0.5) << "symmetric";
    EXPECT_LE(std::max(axis, diagonal), double(degrees) + 1.0) << "no flank steeper than the repose";
    EXPECT_GE(std::min(axis, diagonal), double(degrees) - 6.0) << "the pile stands near the repose, not flattened";
  }
}

/// The cover of `scene` with every object vertex that holds snow loaded with `depth` m of
/// it, relaxed at 45 degrees to convergence on the CPU: (before, after).
std::pair<SnowCover, SnowCover> relaxedObjectLoad(const SnowScene& scene, float depth) {
  auto cover = makeSnowCover(scene, smallSettings(0.05f));
  EXPECT_TRUE(cover.ok()) << (cover.ok() ? "" : cover.error().message);
  if (!cover.ok()) return {};
  SnowCover loaded = *cover;
  for (std::size_t v = 0; v < loaded.objects.positions.size(); ++v)
    if (loaded.objectArea[v] > 0.0f) loaded.objectSnow[v] = depth;
  auto solver = makeCpuSnowSolver(loaded, SnowExposureSettings{});
  SnowReposeSettings repose;
  repose.maxIterations = 100000;
  auto relaxation = solver->relax(repose);
  EXPECT_TRUE(relaxation.ok() && relaxation->converged);
  return {loaded, *solver->cover()};
}

TEST(SnowCover, SnowSlidesOffASteepRoofOntoTheGroundWithoutLoss) {
  // A 60-degree lean-to roof (steeper than 45): its snow slides off onto the ground below.
  SnowScene scene;
  scene.ground = groundPlane(2.0f);
  const float run = 0.6f, rise = run * std::tan(glm::radians(60.0f));
  TriangleMesh roof;
  roof.positions = {{-0.3f, 1.0f, -0.5f}, {0.3f, 1.0f + rise, -0.5f}, {0.3f, 1.0f + rise, 0.5f}, {-0.3f, 1.0f, 0.5f}};
  roof.indices = {0, 2, 1, 0, 3, 2};  // upward facing
  scene.objects = roof;
  const auto [loaded, after] = relaxedObjectLoad(scene, 0.1f);
  const double before = loaded.totalVolume();
  ASSERT_GT(before, 0.0);
  double onRoof = 0.0;
  for (std::size_t v = 0; v < after.objects.positions.size(); ++v)
    onRoof += double(after.objectSnow[v]) * after.objectArea[v];
  EXPECT_LT(onRoof, 0.02 * before) << "a roof steeper than the repose keeps almost nothing";
  EXPECT_LT(std::abs(after.totalVolume() - before) / before, 1e-5) << "what slid off landed on the ground";
  double onGround = 0.0;
  for (float s : after.groundSnow) onGround += double(s);
  EXPECT_GT(onGround * 0.05 * 0.05, 0.95 * before);
}

TEST(SnowCover, FallingOffTheGroundRegionIsCounted) {
  // A plate hanging past the ground's edge: what slides off outside is counted, not lost.
  SnowScene scene;
  scene.ground = groundPlane(0.5f);
  scene.objects = makeBox({0.3f, 0.5f, -0.2f}, {0.9f, 0.52f, 0.2f}, 0);
  // 0.3 m is far over the repose on a 0.4 m plate.
  const auto [loaded, after] = relaxedObjectLoad(scene, 0.3f);
  const double before = loaded.totalVolume();
  ASSERT_GT(before, 0.0);
  EXPECT_GT(after.spilledOutsideVolume(), 0.0);
  EXPECT_LT(std::abs(after.totalVolume() - before) / before, 1e-5);
  EXPECT_LE(maxReposeRatio(after, 45.0f), 1.01);
}

}  // namespace
}  // namespace hg
