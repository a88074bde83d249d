// Signed distance grids of closed meshes (sim/contact/SignedDistanceGrid.h): exact
// against analytic spheres and a box, signs inside and outside, bad meshes rejected.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/contact/SignedDistanceGrid.h"

namespace hg {
namespace {

TEST(SignedDistanceGrid, MatchesTheAnalyticSphere) {
  const glm::vec3 center(0.1f, 1.0f, -0.2f);
  const float radius = 0.3f;
  const TriangleMesh sphere = makeIcosphere(center, radius, 5);  // 20480 triangles
  SignedDistanceOptions options;
  options.cellSize = 0.01f;
  options.band = 0.04f;
  options.margin = 0.06f;
  auto grid = buildSignedDistanceGrid(sphere, options);
  ASSERT_TRUE(grid) << grid.error().message;
  // The faceted sphere lies inside the true one by at most r (1 - cos(edge angle / 2)):
  // edge ~ 0.011 m here, so ~0.05 mm; trilinear interpolation of |p - c| - r adds at
  // most ~3 h^2 / (8 (r - 0.03)) ~ 0.14 mm.
  const float tolerance = 0.0002f;
  float worst = 0.0f;
  int inBand = 0;
  for (int k = 0; k < 2000; ++k) {
    // Points on a spiral through the band and beyond, inside and outside.
    const float u = float(k) / 2000.0f;
    const glm::vec3 dir = glm::normalize(glm::vec3(std::cos(97.0f * u), 2.0f * u - 1.0f, std::sin(97.0f * u)));
    // [-0.03, 0.03] m: every trilinear corner then lies within the exact band (0.04 m
    // minus half a cell diagonal).
    const float depth = -0.03f + 0.06f * float((k * 37) % 100) / 100.0f;
    const float d = grid->distance(center + (radius + depth) * dir);
    worst = std::max(worst, std::abs(d - depth));
    ++inBand;
  }
  std::printf("[ sdf ] sphere r = %.2f m, h = %.3f m: %d samples, worst |d - analytic| = %.2e m\n", double(radius),
              double(options.cellSize), inBand, double(worst));
  EXPECT_LT(worst, tolerance);
  // Far field: clamped, with the right sign.
  EXPECT_FLOAT_EQ(grid->distance(center), -options.band);
  EXPECT_FLOAT_EQ(grid->distance(center + glm::vec3(radius + 0.055f, 0, 0)), options.band);
  EXPECT_FLOAT_EQ(grid->distance(center + glm::vec3(5.0f, 0, 0)), options.band);  // off the grid
}

// addCapsules: the union of a sphere body and a capsule standing on it (the grown body of
// layered sewing, sim/garment/Dressing.cpp). At grid points the value is the smaller of the
// exact distances to the sphere and to the capsule; far from the capsule the sphere's
// values are left as they were.
TEST(SignedDistanceGrid, CapsulesAddedAreUnitedWithTheBody) {
  const glm::vec3 center(0.0f, 1.0f, 0.0f);
  const float radius = 0.2f;
  SignedDistanceOptions options;
  options.cellSize = 0.01f;
  options.band = 0.04f;
  options.margin = 0.12f;
  auto grid = buildSignedDistanceGrid(makeIcosphere(center, radius, 4), options);
  ASSERT_TRUE(grid) << grid.error().message;
  const SignedDistanceGrid before = *grid;
  const Capsule capsule{center + glm::vec3(radius, 0, 0), center + glm::vec3(radius + 0.06f, 0, 0), 0.015f};
  addCapsules(*grid, std::span<const Capsule>(&capsule, 1), 0.03f);
  int changed = 0;
  for (int z = 0; z < grid->dims.z; ++z)
    for (int y = 0; y < grid->dims.y; ++y)
      for (int x = 0; x < grid->dims.x; ++x) {
        const std::size_t i = grid->index(x, y, z);
        const glm::vec3 p = grid->origin + grid->cellSize * glm::vec3(x, y, z);
        const float alongAxis = std::clamp(p.x - capsule.a.x, 0.0f, capsule.b.x - capsule.a.x);
        const float toCapsule = glm::distance(p, capsule.a + glm::vec3(alongAxis, 0, 0)) - capsule.radius;
        if (grid->values[i] != before.values[i]) {
          ++changed;
          ASSERT_NEAR(grid->values[i], toCapsule, 1e-6f) << "at " << x << " " << y << " " << z;
        }
        ASSERT_LE(grid->values[i], before.values[i]);
        if (toCapsule < 0.02f) {
          ASSERT_LE(grid->values[i], toCapsule + 1e-6f) << "within reach of the capsule";
        }
        if (toCapsule > 0.03f + 2.0f * options.cellSize) {
          ASSERT_EQ(grid->values[i], before.values[i]);
        }
      }
  EXPECT_GT(changed, 100);
  // Sampled between grid points: inside the capsule's tip, outside beyond it.
  EXPECT_LT(grid->distance(center + glm::vec3(radius + 0.05f, 0, 0)), 0.0f);
  EXPECT_NEAR(grid->distance(center + glm::vec3(radius + 0.085f, 0.0f, 0.0f)), 0.01f, 0.002f);
}

TEST(SignedDistanceGrid, ExactDistancesMatchTheSphereAndTheGrid) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.0f, 1.0f, 0.0f), 0.3f, 5);
  const std::vector<glm::vec3> points = {
      {0.0f, 1.0f, 0.0f}, {0.32f, 1.0f, 0.0f}, {0.0f, 1.29f, 0.0f}, {0.0f, 3.0f, 0.0f}};
  auto exact = exactSignedDistances(sphere, points);
  ASSERT_TRUE(exact) << exact.error().message;
  EXPECT_NEAR((*exact)[0], -0.3f, 1e-3f);
  EXPECT_NEAR((*exact)[1], 0.02f, 1e-3f);
  EXPECT_NEAR((*exact)[2], -0.01f, 1e-3f);
  EXPECT_NEAR((*exact)[3], 1.7f, 1e-3f);
  auto grid = buildSignedDistanceGrid(sphere);
  ASSERT_TRUE(grid);
  EXPECT_NEAR(grid->distance(points[1]), (*exact)[1], 5e-4f);
  EXPECT_NEAR(grid->distance(points[2]), (*exact)[2], 5e-4f);
  // With a triangle missing the sign comes from the generalised winding number: the same
  // away from the hole.
  TriangleMesh open = sphere;
  open.indices.resize(open.indices.size() - 3);
  bool closed = true;
  auto fromWinding = exactSignedDistances(open, points, &closed);
  ASSERT_TRUE(fromWinding) << fromWinding.error().message;
  EXPECT_FALSE(closed);
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_NEAR((*fromWinding)[i], (*exact)[i], 1e-6f) << "point " << i;
}

TEST(SignedDistanceGrid, ResultDoesNotDependOnThreads) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.0f), 0.2f, 3);
  SignedDistanceOptions one, two;
  one.threads = 1;
  two.threads = 2;
  auto a = buildSignedDistanceGrid(sphere, one);
  auto b = buildSignedDistanceGrid(sphere, two);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->values, b->values);
}

TEST(SignedDistanceGrid, HollowShellIsInsideOnlyBetweenItsWalls) {
  // Two nested spheres, the inner one turned inside out: the solid is the shell
  // between r = 0.1 and r = 0.3. Its cavity is outside (positive) though enclosed.
  TriangleMesh outer = makeIcosphere(glm::vec3(0.0f), 0.3f, 3);
  const TriangleMesh inner = makeIcosphere(glm::vec3(0.0f), 0.1f, 3);
  const auto offset = std::uint32_t(outer.positions.size());
  outer.positions.insert(outer.positions.end(), inner.positions.begin(), inner.positions.end());
  for (std::size_t t = 0; t < inner.triangleCount(); ++t)
    outer.indices.insert(outer.indices.end(), {offset + inner.indices[3 * t], offset + inner.indices[3 * t + 2],
                                               offset + inner.indices[3 * t + 1]});
  SignedDistanceOptions options;
  options.band = 0.03f;
  options.margin = 0.05f;
  auto grid = buildSignedDistanceGrid(outer, options);
  ASSERT_TRUE(grid) << grid.error().message;
  EXPECT_FLOAT_EQ(grid->distance(glm::vec3(0.0f)), options.band);         // cavity: outside the solid (far: clamped)
  EXPECT_FLOAT_EQ(grid->distance(glm::vec3(0.2f, 0, 0)), -options.band);  // mid-wall: deep inside
  EXPECT_NEAR(grid->distance(glm::vec3(0, 0.12f, 0)), -0.02f, 1e-3f);     // 2 cm into the wall from the cavity
}

/// An avatar read from OBJ or STL is a triangle soup (every triangle its own corners):
/// welded by position it is the closed mesh, with the same exact distances.
TEST(SignedDistanceGrid, ATriangleSoupIsWeldedIntoItsClosedMesh) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.0f, 1.0f, 0.0f), 0.3f, 3);
  TriangleMesh soup;
  for (std::uint32_t i : sphere.indices) {
    soup.indices.push_back(std::uint32_t(soup.positions.size()));
    soup.positions.push_back(sphere.positions[i]);
  }
  const std::vector<glm::vec3> points = {{0.0f, 1.0f, 0.0f}, {0.32f, 1.0f, 0.0f}, {0.0f, 1.29f, 0.0f}};
  auto welded = exactSignedDistances(soup, points);
  ASSERT_TRUE(welded) << welded.error().message;
  auto exact = exactSignedDistances(sphere, points);
  ASSERT_TRUE(exact) << exact.error().message;
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ((*welded)[i], (*exact)[i]) << "point " << i;
  EXPECT_TRUE(buildSignedDistanceGrid(soup));
  soup.indices.resize(soup.indices.size() - 3);  // a triangle missing stays open: signed by winding number
  bool closed = true;
  auto open = exactSignedDistances(soup, points, &closed);
  ASSERT_TRUE(open) << open.error().message;
  EXPECT_FALSE(closed);
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ((*open)[i] < 0.0f, (*exact)[i] < 0.0f) << "point " << i;
}

TEST(SignedDistanceGrid, RejectsOpenAndBrokenMeshes) {
  TriangleMesh open = makeIcosphere(glm::vec3(0.0f), 0.2f, 1);
  open.indices.resize(open.indices.size() - 3);
  auto r = buildSignedDistanceGrid(open);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not closed"), std::string::npos) << r.error().message;

  TriangleMesh nan = makeIcosphere(glm::vec3(0.0f), 0.2f, 1);
  nan.positions[3].y = std::nanf("");
  r = buildSignedDistanceGrid(nan);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("vertex 3"), std::string::npos) << r.error().message;

  TriangleMesh badIndex = makeIcosphere(glm::vec3(0.0f), 0.2f, 1);
  badIndex.indices[5] = 9999;
  r = buildSignedDistanceGrid(badIndex);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;

  SignedDistanceOptions thin;
  thin.band = 0.001f;
  r = buildSignedDistanceGrid(makeIcosphere(glm::vec3(0.0f), 0.2f, 1), thin);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("band"), std::string::npos) << r.error().message;
  EXPECT_FALSE(buildSignedDistanceGrid(TriangleMesh{}));
}

}  // namespace
}  // namespace hg
