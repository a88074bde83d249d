// Filling a closed mesh with particles (sim/skinning/ParticleFill.h; docs/methods.md section 4,
// "Filling the mesh with particles"): the closest packing, the y-z projection parity
// inside test against CGAL's exact Side_of_triangle_mesh on meshes built so that many
// rays pass exactly through vertices and edges, and the adaptive-radius fill. Units: metres.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include "sim/core/TriangleMesh.h"
#include "sim/geometry/CgalGeometry.h"
#include "sim/geometry/ProjectedParity.h"
#include "sim/skinning/ParticleFill.h"

namespace hg {
namespace {

using cgal::ClosedMeshQuery;

// ---------------------------------------------------------------------------------------
// Meshes

/// Closed prism: the convex polygon `yz` (counter-clockwise in the (y, z) plane) extruded
/// along x over [x0, x1]; outward counter-clockwise triangles.
TriangleMesh makePrism(const std::vector<glm::vec2>& yz, float x0, float x1) {
  TriangleMesh mesh;
  const auto n = std::uint32_t(yz.size());
  for (const glm::vec2& p : yz) mesh.positions.emplace_back(x0, p.x, p.y);
  for (const glm::vec2& p : yz) mesh.positions.emplace_back(x1, p.x, p.y);
  for (std::uint32_t i = 1; i + 1 < n; ++i) {
    mesh.indices.insert(mesh.indices.end(), {n, n + i, n + i + 1});  // +x cap: CCW seen from +x
    mesh.indices.insert(mesh.indices.end(), {0, i + 1, i});          // -x cap
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t j = (i + 1) % n;
    const std::uint32_t a = i, b = j, c = n + j, d = n + i;
    mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
  }
  return mesh;
}

/// Octahedron with its vertices on the axes at distance s.
TriangleMesh makeOctahedron(float s) {
  TriangleMesh mesh;
  mesh.positions = {{s, 0, 0}, {-s, 0, 0}, {0, s, 0}, {0, -s, 0}, {0, 0, s}, {0, 0, -s}};
  // Faces (x, y, z) with signs; CCW seen from outside when the sign product is positive.
  for (int sx = 0; sx < 2; ++sx)
    for (int sy = 0; sy < 2; ++sy)
      for (int sz = 0; sz < 2; ++sz) {
        std::uint32_t a = std::uint32_t(sx), b = std::uint32_t(2 + sy), c = std::uint32_t(4 + sz);
        if ((sx + sy + sz) % 2 == 1) std::swap(b, c);
        mesh.indices.insert(mesh.indices.end(), {a, b, c});
      }
  return mesh;
}

TriangleMesh flipped(TriangleMesh mesh) {
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
  return mesh;
}

/// The sorted distinct values of one coordinate of the mesh vertices.
std::vector<float> vertexCoordinates(const TriangleMesh& mesh, int axis) {
  std::set<float> values;
  for (const glm::vec3& p : mesh.positions) values.insert(p[axis]);
  return {values.begin(), values.end()};
}

/// `values` plus their midpoints and points `pad` beyond both ends.
std::vector<float> withMidpoints(const std::vector<float>& values, float pad) {
  std::vector<float> out{values.front() - pad, values.back() + pad};
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.push_back(values[i]);
    if (i + 1 < values.size()) out.push_back(0.5f * (values[i] + values[i + 1]));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<glm::vec3> gridPoints(const std::vector<float>& xs, const std::vector<float>& ys,
                                  const std::vector<float>& zs) {
  std::vector<glm::vec3> points;
  for (float z : zs)
    for (float y : ys)
      for (float x : xs) points.emplace_back(x, y, z);
  return points;
}

std::vector<float> steps(float from, float to, float step) {
  std::vector<float> v;
  for (int i = 0; from + float(i) * step <= to + 1e-6f; ++i) v.push_back(from + float(i) * step);
  return v;
}

struct Agreement {
  std::size_t mismatches = 0, inside = 0, outside = 0;
};

/// Parity vs CGAL's Side_of_triangle_mesh (boundary counts as inside in both) on every point.
Agreement compareWithExact(const TriangleMesh& mesh, const std::vector<glm::vec3>& points, const char* what) {
  Agreement a;
  auto query = ClosedMeshQuery::create(mesh);
  EXPECT_TRUE(query.ok()) << what << ": " << (query.ok() ? "" : query.error().message);
  if (!query) return a;
  const auto parity = insideByProjectedParity(mesh, points);
  EXPECT_TRUE(parity.ok()) << what << ": " << (parity.ok() ? "" : parity.error().message);
  if (!parity) return a;
  EXPECT_EQ(parity->size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const bool exact = query->inside(points[i]);
    const bool got = (*parity)[i];
    if (exact != got) {
      if (++a.mismatches <= 10)
        ADD_FAILURE() << what << ": point (" << points[i].x << ", " << points[i].y << ", " << points[i].z
                      << ") parity says " << (got ? "inside" : "outside") << ", exact test says "
                      << (exact ? "inside" : "outside");
    }
    (exact ? a.inside : a.outside) += 1;
  }
  return a;
}

/// On the surface of the box [lo, hi]: inside the closed box and on one of its planes.
bool onBoxSurface(glm::vec3 p, glm::vec3 lo, glm::vec3 hi) {
  bool onPlane = false;
  for (int a = 0; a < 3; ++a) {
    if (p[a] < lo[a] || p[a] > hi[a]) return false;
    onPlane = onPlane || p[a] == lo[a] || p[a] == hi[a];
  }
  return onPlane;
}

// ---------------------------------------------------------------------------------------
// Closest packing

double packingDensity(std::size_t count, double radius, double volume) {
  return double(count) * (4.0 / 3.0) * glm::pi<double>() * radius * radius * radius / volume;
}

TEST(ParticleFillTest, ClosestPackingHasTwelveTouchingNeighbours) {
  const float r = 0.01f;
  const glm::vec3 lo(0.1f, -0.05f, 0.02f), hi = lo + glm::vec3(0.2f);
  const std::vector<glm::vec3> c = closestPacking(lo, hi, r);
  ASSERT_GT(c.size(), 1000u);
  EXPECT_EQ(c.front(), lo) << "the lattice is anchored at lo";
  for (const glm::vec3& p : c)
    for (int a = 0; a < 3; ++a) ASSERT_TRUE(p[a] >= lo[a] && p[a] <= hi[a]) << "centre outside [lo, hi]";
  const double d0 = 2.0 * r, tolerance = 1e-5 * d0, margin = d0 * 1.001;
  std::size_t interior = 0, rows = 0;
  std::set<std::pair<float, float>> rowKeys;
  for (std::size_t i = 0; i < c.size(); ++i) {
    rowKeys.insert({c[i].y, c[i].z});
    int touching = 0, closer = 0;
    for (std::size_t j = 0; j < c.size(); ++j) {
      if (i == j) continue;
      const double d = glm::length(glm::dvec3(c[i]) - glm::dvec3(c[j]));
      if (std::abs(d - d0) <= tolerance)
        ++touching;
      else if (d < d0)
        ++closer;
    }
    EXPECT_EQ(closer, 0) << "centre " << i << " has a neighbour closer than 2 r";
    bool isInterior = true;
    for (int a = 0; a < 3; ++a) isInterior = isInterior && c[i][a] - lo[a] >= margin && hi[a] - c[i][a] >= margin;
    if (isInterior) {
      ++interior;
      EXPECT_EQ(touching, 12) << "interior centre " << i;
    } else {
      EXPECT_LE(touching, 12);
    }
  }
  rows = rowKeys.size();
  EXPECT_GT(interior, 200u);
  // Rows along x: ~ 0.2 / (2 r) + 1 = 11 centres per (y, z).
  EXPECT_GE(double(c.size()) / double(rows), 10.0);
}

TEST(ParticleFillTest, ClosestPackingDensityIsFaceCentredCubic) {
  // The lattice is periodic with a cell of 2 r x 2 sqrt(3) r x 3 (2 sqrt(2/3) r) holding 6
  // centres (2 rows x 3 layers ABC): a half-open box of whole periods holds exactly
  // density pi / sqrt(18).
  const double r = 0.01;
  const glm::dvec3 period(2.0 * r, 2.0 * std::sqrt(3.0) * r, 6.0 * std::sqrt(2.0 / 3.0) * r);
  const glm::dvec3 cells(30, 17, 10);
  const glm::vec3 lo(-0.3f, 0.2f, 0.1f);
  const glm::dvec3 extent = period * cells;
  const glm::vec3 hi = glm::vec3(glm::dvec3(lo) + extent);
  const std::vector<glm::vec3> c = closestPacking(lo, hi, float(r));
  std::size_t halfOpen = 0;
  for (const glm::vec3& p : c) {
    bool in = true;  // distinct coordinate values are >= r / sqrt(3) apart: 0.25 r separates
    for (int a = 0; a < 3; ++a) in = in && double(p[a]) < double(hi[a]) - 0.25 * r;
    halfOpen += in ? 1 : 0;
  }
  const double expected = glm::pi<double>() / std::sqrt(18.0);
  EXPECT_EQ(halfOpen, std::size_t(6.0 * cells.x * cells.y * cells.z));
  const double periodicDensity = packingDensity(halfOpen, r, extent.x * extent.y * extent.z);
  EXPECT_NEAR(periodicDensity, expected, 1e-5);
  // The closed box has the extra boundary sites: a bit denser, and approaching pi / sqrt(18)
  // as the box grows.
  const double boxDensity = packingDensity(c.size(), r, extent.x * extent.y * extent.z);
  EXPECT_GT(boxDensity, expected);
  EXPECT_LT(boxDensity, expected * 1.15);
  const glm::vec3 bigHi = lo + glm::vec3(1.0f);
  const std::vector<glm::vec3> big = closestPacking(lo, bigHi, float(r));
  const double bigDensity = packingDensity(big.size(), r, 1.0);
  EXPECT_NEAR(bigDensity, expected, 0.05 * expected);
  std::cout << "closest packing density: periodic " << periodicDensity << ", box 0.6 x 0.59 x 0.49 m " << boxDensity
            << ", box 1 m " << bigDensity << " (" << big.size() << " centres), pi/sqrt(18) " << expected << "\n";
}

TEST(ParticleFillTest, ClosestPackingRejectsBadInput) {
  EXPECT_TRUE(closestPacking(glm::vec3(0), glm::vec3(1), 0.0f).empty());
  EXPECT_TRUE(closestPacking(glm::vec3(0), glm::vec3(1), -0.1f).empty());
  EXPECT_TRUE(closestPacking(glm::vec3(0), glm::vec3(1), std::nanf("")).empty());
  EXPECT_TRUE(closestPacking(glm::vec3(1), glm::vec3(0), 0.1f).empty());
  EXPECT_EQ(closestPacking(glm::vec3(0.5f), glm::vec3(0.5f), 0.1f).size(), 1u) << "a point box holds lo";
}

// ---------------------------------------------------------------------------------------
// Parity inside test vs the exact test

TEST(ParticleFillTest, ParityMatchesExactOnBoxWithRaysThroughEdgesAndVertices) {
  const glm::vec3 lo(-0.5f, -0.3f, -0.4f), hi(0.5f, 0.3f, 0.4f);
  const TriangleMesh box = makeBox(lo, hi, 2);
  // Every (y, z) of the grid lines of the box's faces (vertices and edges of the
  // triangulation), their midpoints, and x at the vertex planes and between them.
  const std::vector<glm::vec3> points =
      gridPoints(withMidpoints(vertexCoordinates(box, 0), 0.1f), withMidpoints(vertexCoordinates(box, 1), 0.1f),
                 withMidpoints(vertexCoordinates(box, 2), 0.1f));
  const Agreement a = compareWithExact(box, points, "box");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 100u);
  EXPECT_GT(a.outside, 100u);
  // Surface points (on faces, edges and corners, all six faces) count as inside; the
  // orientation of the triangles does not matter.
  const auto parity = insideByProjectedParity(box, points);
  const auto parityFlipped = insideByProjectedParity(flipped(box), points);
  ASSERT_TRUE(parity.ok() && parityFlipped.ok());
  std::size_t onSurface = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ((*parity)[i], (*parityFlipped)[i]) << "point " << i;
    if (onBoxSurface(points[i], lo, hi)) {
      ++onSurface;
      EXPECT_TRUE((*parity)[i]) << "surface point (" << points[i].x << ", " << points[i].y << ", " << points[i].z
                                << ") must count as inside";
    }
  }
  EXPECT_EQ(onSurface, 7u * 7u * 7u - 5u * 5u * 5u);  // 9 values per axis, 7 of them in [lo, hi]
}

TEST(ParticleFillTest, ParityMatchesExactOnOctahedronWithRaysThroughVertices) {
  const TriangleMesh octahedron = makeOctahedron(1.0f);
  const std::vector<float> v = steps(-1.5f, 1.5f, 0.125f);  // exact in float: |x|+|y|+|z| = 1 hits faces
  const std::vector<glm::vec3> points = gridPoints(v, v, v);
  const Agreement a = compareWithExact(octahedron, points, "octahedron");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 500u);
  const auto parity = insideByProjectedParity(octahedron, points);
  ASSERT_TRUE(parity.ok());
  std::size_t onSurface = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (std::abs(points[i].x) + std::abs(points[i].y) + std::abs(points[i].z) == 1.0f) {
      ++onSurface;
      EXPECT_TRUE((*parity)[i]) << "surface point " << i;
    }
  EXPECT_GT(onSurface, 100u);
}

TEST(ParticleFillTest, ParityMatchesExactOnRotatedCubeWithFacesParallelToX) {
  // A cube rotated 45 degrees about x: its side faces project onto the lines |y| + |z| = 1
  // (zero-area projections) and its x-parallel edges onto the axis points of the grid.
  const TriangleMesh diamond = makePrism({{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, -1.0f, 1.0f);
  const std::vector<float> yz = steps(-1.25f, 1.25f, 0.125f);
  const std::vector<glm::vec3> points = gridPoints(steps(-1.5f, 1.5f, 0.25f), yz, yz);
  const Agreement a = compareWithExact(diamond, points, "rotated cube");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 500u);
  const auto parity = insideByProjectedParity(diamond, points);
  ASSERT_TRUE(parity.ok());
  std::size_t onSideFaces = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const glm::vec3 p = points[i];
    if (std::abs(p.y) + std::abs(p.z) == 1.0f && std::abs(p.x) <= 1.0f) {
      ++onSideFaces;
      EXPECT_TRUE((*parity)[i]) << "point on a face parallel to x (" << p.x << ", " << p.y << ", " << p.z << ")";
    }
  }
  EXPECT_GT(onSideFaces, 100u);
}

TEST(ParticleFillTest, ParityMatchesExactOnCylinderAndIcosphereAtVertexRays) {
  // Closed cylinder: 16 sides; rays through its rim vertices, its cap fan centre lines and
  // the x-parallel side edges.
  std::vector<glm::vec2> circle;
  for (int i = 0; i < 16; ++i) {
    const float t = 2.0f * glm::pi<float>() * float(i) / 16.0f;
    circle.emplace_back(0.4f * std::cos(t), 0.4f * std::sin(t));
  }
  const TriangleMesh cylinder = makePrism(circle, -0.6f, 0.6f);
  std::vector<glm::vec3> points;
  for (const glm::vec3& p : cylinder.positions)
    for (float x : {-0.8f, -0.6f, -0.3f, 0.0f, 0.25f, 0.6f, 0.7f}) {
      points.emplace_back(x, p.y, p.z);
      points.emplace_back(x, 0.5f * p.y, 0.5f * p.z);  // between the rim and the axis
      points.emplace_back(x, 0.0f, p.z);
    }
  Agreement a = compareWithExact(cylinder, points, "cylinder");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 100u);

  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.1f, -0.2f, 0.05f), 0.5f, 2);
  points.clear();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.7f, 0.7f);
  for (const glm::vec3& p : sphere.positions) {
    points.push_back(p);  // on the surface
    for (int k = 0; k < 4; ++k) points.emplace_back(0.1f + u(rng), p.y, p.z);
    points.emplace_back(0.1f, p.y, p.z);
  }
  a = compareWithExact(sphere, points, "icosphere");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 500u);
  EXPECT_GT(a.outside, 200u);
}

TEST(ParticleFillTest, ParityMatchesExactOnSeparateComponentsAndTorus) {
  // Two boxes one behind the other along x (the same y-z footprint: every ray meets both)
  // and a third one beside them.
  TriangleMesh boxes = makeBox(glm::vec3(0, 0, 0), glm::vec3(1, 1, 1), 1);
  appendMesh(boxes, makeBox(glm::vec3(2, 0, 0), glm::vec3(3, 1, 1), 1));
  appendMesh(boxes, makeBox(glm::vec3(0.5f, 1.5f, 0.25f), glm::vec3(2.5f, 2.0f, 0.75f), 0));
  const std::vector<float> xs = steps(-0.5f, 3.5f, 0.25f), ys = steps(-0.5f, 2.5f, 0.25f),
                           zs = steps(-0.5f, 1.5f, 0.25f);
  Agreement a = compareWithExact(boxes, gridPoints(xs, ys, zs), "two boxes in a row and one beside");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 100u);

  const TriangleMesh torus = makeTorus(glm::vec3(0), 0.5f, 0.2f, 24, 12);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-0.75f, 0.75f);
  std::vector<glm::vec3> points;
  for (int i = 0; i < 20000; ++i) points.emplace_back(u(rng), 0.3f * u(rng), u(rng));
  for (const glm::vec3& p : torus.positions) points.emplace_back(u(rng), p.y, p.z);
  a = compareWithExact(torus, points, "torus");
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_GT(a.inside, 1000u);
}

TEST(ParticleFillTest, ParityReportsBadMeshes) {
  const std::vector<glm::vec3> points{{0, 0, 0}};
  TriangleMesh empty;
  empty.positions = {{0, 0, 0}};
  auto r = insideByProjectedParity(empty, points);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no triangles"), std::string::npos) << r.error().message;
  TriangleMesh bad = makeBox(glm::vec3(0), glm::vec3(1), 0);
  bad.indices[7] = 99;
  r = insideByProjectedParity(bad, points);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("triangle 2"), std::string::npos) << r.error().message;
  bad = makeBox(glm::vec3(0), glm::vec3(1), 0);
  bad.positions[3].y = std::nanf("");
  r = insideByProjectedParity(bad, points);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("non-finite"), std::string::npos) << r.error().message;
  // Non-finite query points are outside; the others are still answered.
  const std::vector<glm::vec3> odd{{0.5f, 0.5f, std::nanf("")}, {0.5f, 0.5f, 0.5f}, {INFINITY, 0.5f, 0.5f}};
  r = insideByProjectedParity(makeBox(glm::vec3(0), glm::vec3(1), 0), odd);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE((*r)[0]);
  EXPECT_TRUE((*r)[1]);
  EXPECT_FALSE((*r)[2]);
}

// ---------------------------------------------------------------------------------------
// Adaptive fill

/// No overlap, every centre inside (exact test), every non-last-level sphere inside by
/// the margin (`distance(c)`: the distance from c to the surface), per-level bookkeeping.
template <class Distance>
void expectValidFill(const ParticleFill& fill, const TriangleMesh& mesh, const ParticleFillSettings& settings,
                     Distance distance, const char* what) {
  ASSERT_EQ(fill.levels.size(), fill.size()) << what;
  ASSERT_EQ(fill.levelRadii.size(), std::size_t(settings.levels)) << what;
  ASSERT_EQ(fill.levelCounts.size(), std::size_t(settings.levels)) << what;
  for (int k = 0; k < settings.levels; ++k)
    EXPECT_NEAR(fill.levelRadii[std::size_t(k)],
                settings.radius * std::pow(settings.radiusRatio, float(settings.levels - 1 - k)),
                1e-6f * fill.levelRadii[std::size_t(k)])
        << what;
  std::vector<std::size_t> counts(std::size_t(settings.levels), 0);
  for (std::size_t i = 0; i < fill.size(); ++i) {
    ++counts[std::size_t(fill.levels[i])];
    EXPECT_EQ(fill.particles[i].w, fill.levelRadii[std::size_t(fill.levels[i])]);
    if (i > 0) {
      EXPECT_LE(fill.levels[i - 1], fill.levels[i]) << "coarsest level first";
    }
  }
  EXPECT_EQ(counts, fill.levelCounts) << what;

  auto query = ClosedMeshQuery::create(mesh);
  ASSERT_TRUE(query.ok());
  std::size_t outside = 0, tooClose = 0;
  for (std::size_t i = 0; i < fill.size(); ++i) {
    const glm::vec3 c(fill.particles[i]);
    outside += query->inside(c) ? 0 : 1;
    if (fill.levels[i] + 1 < settings.levels &&
        distance(c) < double(settings.surfaceMargin) * double(fill.particles[i].w) * (1.0 - 1e-4))
      ++tooClose;
  }
  EXPECT_EQ(outside, 0u) << what << ": centres outside the mesh";
  EXPECT_EQ(tooClose, 0u) << what << ": coarse particles within the surface margin";

  // Overlaps: a grid of cell 2 r_finest, each particle checked against the cells its
  // largest possible partner could reach.
  const double h = 2.0 * double(settings.radius), rMax = fill.levelRadii.front();
  std::map<std::tuple<int, int, int>, std::vector<std::uint32_t>> cells;
  const auto key = [&](glm::dvec3 p) {
    return std::tuple<int, int, int>(int(std::floor(p.x / h)), int(std::floor(p.y / h)), int(std::floor(p.z / h)));
  };
  for (std::size_t i = 0; i < fill.size(); ++i) cells[key(glm::dvec3(fill.particles[i]))].push_back(std::uint32_t(i));
  std::size_t overlaps = 0;
  for (std::size_t i = 0; i < fill.size(); ++i) {
    const glm::dvec3 c(fill.particles[i]);
    const double reach = double(fill.particles[i].w) + rMax;
    const auto [x0, y0, z0] = key(c - reach);
    const auto [x1, y1, z1] = key(c + reach);
    for (int z = z0; z <= z1; ++z)
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
          const auto it = cells.find({x, y, z});
          if (it == cells.end()) continue;
          for (std::uint32_t j : it->second) {
            if (j <= i) continue;
            const double limit = (double(fill.particles[i].w) + double(fill.particles[j].w)) * (1.0 - 1e-3);
            if (glm::length(c - glm::dvec3(fill.particles[j])) < limit) ++overlaps;
          }
        }
  }
  EXPECT_EQ(overlaps, 0u) << what << ": overlapping particle pairs";
}

std::string levelSummary(const ParticleFill& fill) {
  std::string s = std::to_string(fill.size()) + " (";
  for (std::size_t k = 0; k < fill.levelCounts.size(); ++k) {
    if (k > 0) s += " + ";
    s += std::to_string(fill.levelCounts[k]) + " of r " + std::to_string(fill.levelRadii[k]).substr(0, 6);
  }
  return s + ")";
}

struct FillPair {
  ParticleFill constant, adaptive;
};

FillPair fillBoth(const TriangleMesh& mesh, const ParticleFillSettings& settings, const char* what) {
  ParticleFillSettings single = settings;
  single.levels = 1;
  auto constant = fillWithParticles(mesh, single);
  auto adaptive = fillWithParticles(mesh, settings);
  EXPECT_TRUE(constant.ok()) << (constant.ok() ? "" : constant.error().message);
  EXPECT_TRUE(adaptive.ok()) << (adaptive.ok() ? "" : adaptive.error().message);
  if (!constant || !adaptive) return {};
  std::cout << what << ": constant radius " << levelSummary(*constant) << ", adaptive " << levelSummary(*adaptive)
            << ", ratio " << double(adaptive->size()) / double(constant->size()) << "\n";
  ::testing::Test::RecordProperty(std::string(what) + "_constant", levelSummary(*constant));
  ::testing::Test::RecordProperty(std::string(what) + "_adaptive", levelSummary(*adaptive));
  return {std::move(*constant), std::move(*adaptive)};
}

TEST(ParticleFillTest, AdaptiveFillOfThickSphereNeedsFarFewerParticles) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.05f, 1.0f, -0.1f), 0.2f, 3);
  ParticleFillSettings settings;
  settings.radius = 0.01f;
  settings.levels = 3;
  const FillPair f = fillBoth(sphere, settings, "sphere r 0.2 m, particle r 0.01 m, 3 levels");
  ASSERT_GT(f.constant.size(), 3000u);
  EXPECT_LT(double(f.adaptive.size()), 0.5 * double(f.constant.size()));
  EXPECT_GT(f.adaptive.levelCounts[0], 0u);
  EXPECT_GT(f.adaptive.levelCounts[1], 0u);
  ParticleFillSettings single = settings;
  single.levels = 1;
  auto query = ClosedMeshQuery::create(sphere);
  ASSERT_TRUE(query.ok());
  const auto distance = [&](glm::vec3 c) { return double(glm::length(c - query->closestPoint(c))); };
  expectValidFill(f.constant, sphere, single, distance, "constant sphere");
  expectValidFill(f.adaptive, sphere, settings, distance, "adaptive sphere");
  // The inner sphere of radius 0.2 - 0.04 holds coarse particles: the fill is not hollow.
  const double v = double(f.adaptive.levelCounts[0]) * std::pow(double(f.adaptive.levelRadii[0]), 3.0) +
                   double(f.adaptive.levelCounts[1]) * std::pow(double(f.adaptive.levelRadii[1]), 3.0) +
                   double(f.adaptive.levelCounts[2]) * std::pow(double(f.adaptive.levelRadii[2]), 3.0);
  const double vConstant = double(f.constant.size()) * std::pow(double(settings.radius), 3.0);
  EXPECT_GT(v, 0.7 * vConstant) << "adaptive particles cover much less volume than the constant fill";
}

/// Distance (m) from a point inside the box [lo, hi] to its surface.
auto boxSurfaceDistance(glm::vec3 lo, glm::vec3 hi) {
  return [lo, hi](glm::vec3 c) {
    double d = 1e9;
    for (int a = 0; a < 3; ++a) d = std::min({d, double(c[a]) - double(lo[a]), double(hi[a]) - double(c[a])});
    return d;
  };
}

TEST(ParticleFillTest, AdaptiveFillOfThickBoxNeedsFarFewerParticles) {
  const glm::vec3 lo(-0.2f, 0.0f, -0.2f), hi(0.2f, 0.4f, 0.2f);
  const TriangleMesh box = makeBox(lo, hi, 3);
  ParticleFillSettings settings;
  settings.radius = 0.01f;
  settings.levels = 3;
  const FillPair f = fillBoth(box, settings, "box 0.4 m, particle r 0.01 m, 3 levels");
  ASSERT_GT(f.constant.size(), 10000u);
  EXPECT_LT(double(f.adaptive.size()), 0.5 * double(f.constant.size()));
  const auto distance = boxSurfaceDistance(lo, hi);
  expectValidFill(f.adaptive, box, settings, distance, "adaptive box");
}

TEST(ParticleFillTest, AdaptiveFillOfPlateGainsNothing) {
  const glm::vec3 lo(0.0f, 0.0f, 0.0f), hi(0.4f, 0.4f, 0.02f);
  const TriangleMesh plate = makeBox(lo, hi, 1);
  ParticleFillSettings settings;
  settings.radius = 0.005f;
  settings.levels = 3;
  const FillPair f = fillBoth(plate, settings, "plate 0.4 x 0.4 x 0.02 m, particle r 0.005 m, 3 levels");
  ASSERT_GT(f.constant.size(), 1000u);
  EXPECT_EQ(f.adaptive.levelCounts[0], 0u) << "no particle of radius 0.02 fits 0.02 inside a 0.02 m plate";
  EXPECT_LE(f.adaptive.levelCounts[1], f.constant.size() / 50);
  EXPECT_GT(double(f.adaptive.size()) / double(f.constant.size()), 0.9);
  const auto distance = boxSurfaceDistance(lo, hi);
  expectValidFill(f.adaptive, plate, settings, distance, "adaptive plate");
}

TEST(ParticleFillTest, FillIsDeterministicAndMarginZeroKeepsMoreCoarseParticles) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0), 0.15f, 2);
  ParticleFillSettings settings;
  settings.radius = 0.01f;
  settings.levels = 2;
  const auto a = fillWithParticles(sphere, settings);
  const auto b = fillWithParticles(sphere, settings);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), b->size());
  for (std::size_t i = 0; i < a->size(); ++i) ASSERT_EQ(a->particles[i], b->particles[i]);
  settings.surfaceMargin = 0.0f;
  const auto c = fillWithParticles(sphere, settings);
  ASSERT_TRUE(c.ok());
  EXPECT_GT(c->levelCounts[0], a->levelCounts[0]);
}

TEST(ParticleFillTest, FillReportsBadSettingsAndMeshes) {
  const TriangleMesh box = makeBox(glm::vec3(0), glm::vec3(0.2f), 1);
  const auto expectError = [&](const TriangleMesh& mesh, ParticleFillSettings s, const char* mentions) {
    const auto r = fillWithParticles(mesh, s);
    ASSERT_FALSE(r.ok()) << "expected an error mentioning " << mentions;
    EXPECT_NE(r.error().message.find(mentions), std::string::npos) << r.error().message;
  };
  ParticleFillSettings s;
  s.radius = 0.0f;
  expectError(box, s, "radius");
  s.radius = -0.01f;
  expectError(box, s, "radius");
  s.radius = std::nanf("");
  expectError(box, s, "radius");
  s = {};
  s.levels = 0;
  expectError(box, s, "levels");
  s = {};
  s.radiusRatio = 1.2f;
  expectError(box, s, "radiusRatio");
  s.radiusRatio = INFINITY;
  expectError(box, s, "radiusRatio");
  s = {};
  s.surfaceMargin = -0.5f;
  expectError(box, s, "surfaceMargin");
  s.surfaceMargin = std::nanf("");
  expectError(box, s, "surfaceMargin");
  s = {};
  s.levels = 400;
  expectError(box, s, "overflows");

  TriangleMesh open = box;
  open.indices.resize(open.indices.size() - 3);
  expectError(open, {}, "not closed");
  expectError(TriangleMesh{}, {}, "no triangles");
  s = {};
  s.radius = 1e-5f;
  expectError(box, s, "too small");
  // A sphere whose bounding box corner (the only candidate of a huge radius) is outside.
  s = {};
  s.radius = 1.0f;
  s.levels = 1;
  expectError(makeIcosphere(glm::vec3(0), 0.1f, 1), s, "no particle");
}

}  // namespace
}  // namespace hg
