// Filling a closed mesh with particles (see ParticleFill.h). CGAL supplies the AABB tree
// of the surface-margin test (this file is compiled with -frounding-math); the inside test
// is sim/geometry/ProjectedParity.h; cgal::ClosedMeshQuery checks that the mesh is closed.
#include "sim/skinning/ParticleFill.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Intersections_3/Bbox_3_Sphere_3.h>
#include <CGAL/Intersections_3/Sphere_3_Triangle_3.h>
#include <glm/geometric.hpp>

#include "sim/geometry/CgalGeometry.h"
#include "sim/geometry/ProjectedParity.h"

namespace hg {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point3 = Kernel::Point_3;
using Triangle3 = Kernel::Triangle_3;
using TrianglePrimitive = CGAL::AABB_triangle_primitive<Kernel, std::vector<Triangle3>::const_iterator>;
using TriangleTree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, TrianglePrimitive>>;

/// Upper bound on the candidate centres of one level (memory: ~30 bytes each).
constexpr double kMaxCandidates = 2.0e7;
/// Relative slack of the no-overlap test between particles (float rounding of the lattice).
constexpr double kOverlapSlack = 1e-4;
/// Relative slack of the surface-margin test (a centre exactly at the margin is kept).
constexpr double kMarginSlack = 1e-6;

/// Lattice spacings of the face-centred cubic packing written as hexagonal close-packed
/// layers ABC: along a row (x), between rows of a layer (y), between layers (z).
struct PackingSpacing {
  double row, layerRow, layer;
};
PackingSpacing packingSpacing(double r) { return {2.0 * r, std::sqrt(3.0) * r, 2.0 * std::sqrt(2.0 / 3.0) * r}; }

/// Number of lattice steps of `step` that fit in [0, extent] (the count of sites from 0).
std::int64_t stepsIn(double extent, double step) {
  return extent < 0.0 ? 0 : std::int64_t(std::floor(extent / step)) + 1;
}

/// Upper bound on closestPacking's count (every row full).
double packingCountBound(glm::dvec3 extent, double r) {
  const PackingSpacing s = packingSpacing(r);
  return double(stepsIn(extent.x, s.row)) * double(stepsIn(extent.y, s.layerRow)) * double(stepsIn(extent.z, s.layer));
}

// ---------------------------------------------------------------------------------------
// The no-overlap test against particles already placed.

/// Uniform grid over a box in which every placed particle j is listed in all cells that
/// meet the cube of half-side r_j + r (r: the radius of the candidates queried), so one
/// cell holds every particle a candidate in it could overlap.
class PlacedGrid {
 public:
  PlacedGrid(const std::vector<glm::vec4>& placed, double r, glm::dvec3 lo, glm::dvec3 hi) : m_lo(lo), m_r(r) {
    const glm::dvec3 extent = glm::max(hi - lo, glm::dvec3(0.0));
    // Cells of side 2 r, coarser when the box would need more than ~4M cells.
    const double volume = std::max(extent.x, r) * std::max(extent.y, r) * std::max(extent.z, r);
    m_h = std::max(2.0 * r, std::cbrt(volume / double(1 << 22)));
    for (int a = 0; a < 3; ++a) m_n[a] = int(std::min(std::floor(extent[a] / m_h), 4096.0)) + 1;
    m_start.assign(std::size_t(m_n[0]) * std::size_t(m_n[1]) * std::size_t(m_n[2]) + 1, 0);
    const auto forCells = [&](const glm::vec4& p, auto&& f) {
      const double reach = double(p.w) + r;
      const glm::dvec3 c(p);
      const glm::ivec3 c0 = cell(c - reach), c1 = cell(c + reach);
      for (int z = c0.z; z <= c1.z; ++z)
        for (int y = c0.y; y <= c1.y; ++y)
          for (int x = c0.x; x <= c1.x; ++x) f(index(glm::ivec3(x, y, z)));
    };
    for (const glm::vec4& p : placed) forCells(p, [&](std::size_t c) { ++m_start[c + 1]; });
    std::partial_sum(m_start.begin(), m_start.end(), m_start.begin());
    m_items.resize(m_start.back());
    std::vector<std::size_t> fill(m_start.begin(), m_start.end() - 1);
    for (std::size_t i = 0; i < placed.size(); ++i)
      forCells(placed[i], [&](std::size_t c) { m_items[fill[c]++] = std::uint32_t(i); });
  }

  /// True when the sphere (c, r) overlaps a placed one: centre distance < (r_j + r)(1 - slack).
  bool overlaps(const std::vector<glm::vec4>& placed, glm::vec3 c) const {
    const std::size_t k = index(cell(glm::dvec3(c)));
    for (std::size_t i = m_start[k]; i < m_start[k + 1]; ++i) {
      const glm::vec4& p = placed[m_items[i]];
      const double limit = (double(p.w) + m_r) * (1.0 - kOverlapSlack);
      const glm::dvec3 d = glm::dvec3(c) - glm::dvec3(p);
      if (glm::dot(d, d) < limit * limit) return true;
    }
    return false;
  }

 private:
  glm::ivec3 cell(glm::dvec3 p) const {
    glm::ivec3 c;
    for (int a = 0; a < 3; ++a) {
      const double t = (p[a] - m_lo[a]) / m_h;
      c[a] = !(t > 0.0) ? 0 : int(std::min(std::floor(t), double(m_n[a] - 1)));
    }
    return c;
  }
  std::size_t index(glm::ivec3 c) const {
    return (std::size_t(c.z) * std::size_t(m_n[1]) + std::size_t(c.y)) * std::size_t(m_n[0]) + std::size_t(c.x);
  }

  glm::dvec3 m_lo;
  double m_r, m_h = 1.0;
  int m_n[3] = {1, 1, 1};
  std::vector<std::size_t> m_start;
  std::vector<std::uint32_t> m_items;
};

/// A value for a message: 6 significant digits.
std::string describe(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

}  // namespace

std::vector<glm::vec3> closestPacking(glm::vec3 lo, glm::vec3 hi, float radius) {
  std::vector<glm::vec3> centres;
  if (!(radius > 0.0f) || !std::isfinite(radius)) return centres;
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(lo[a]) || !std::isfinite(hi[a]) || hi[a] < lo[a]) return centres;
  const double r = radius;
  const PackingSpacing s = packingSpacing(r);
  const glm::dvec3 o(lo), h(hi), extent = h - o;
  const double bound = packingCountBound(extent, r);
  if (bound > 4.0 * kMaxCandidates) return centres;  // guard against absurd sizes (see fillWithParticles)
  centres.reserve(std::size_t(bound));
  // Layer k (z) of hexagonal rows is shifted by (k mod 3) (r, r / sqrt 3) in (x, y) (stacking
  // ABC); in a layer, odd rows are shifted by r in x. Shifts in x are taken modulo 2 r.
  const double layerShiftY = r / std::sqrt(3.0);
  for (std::int64_t k = 0;; ++k) {
    const double z = o.z + double(k) * s.layer;
    if (z > h.z) break;
    const int abc = int(k % 3);
    for (std::int64_t j = 0;; ++j) {
      const double y = o.y + abc * layerShiftY + double(j) * s.layerRow;
      if (y > h.y) break;
      const double x0 = o.x + (((j & 1) + abc) & 1) * r;
      const float yf = float(y), zf = float(z);
      if (yf > hi.y || zf > hi.z) break;
      for (std::int64_t i = 0;; ++i) {
        const double x = x0 + double(i) * s.row;
        if (x > h.x) break;
        const float xf = float(x);
        if (xf > hi.x) break;
        centres.emplace_back(xf, yf, zf);
      }
    }
  }
  return centres;
}

Result<ParticleFill> fillWithParticles(const TriangleMesh& mesh, const ParticleFillSettings& settings) {
  if (!std::isfinite(settings.radius) || !(settings.radius > 0.0f))
    return Error{"particle fill: radius must be a finite value > 0 (got " + describe(settings.radius) + ")"};
  if (settings.levels < 1)
    return Error{"particle fill: levels must be >= 1 (got " + std::to_string(settings.levels) + ")"};
  if (!std::isfinite(settings.radiusRatio) || !(settings.radiusRatio >= 1.5f))
    return Error{"particle fill: radiusRatio must be a finite value >= 1.5 (got " + describe(settings.radiusRatio) +
                 ")"};
  if (!std::isfinite(settings.surfaceMargin) || !(settings.surfaceMargin >= 0.0f))
    return Error{"particle fill: surfaceMargin must be a finite value >= 0 (got " + describe(settings.surfaceMargin) +
                 ")"};
  const int levelCount = settings.levels;
  std::vector<float> radii(static_cast<std::size_t>(levelCount));
  for (int k = 0; k < levelCount; ++k)
    radii[std::size_t(k)] =
        float(double(settings.radius) * std::pow(double(settings.radiusRatio), double(levelCount - 1 - k)));
  if (!std::isfinite(radii[0]))
    return Error{"particle fill: the coarsest radius radius * radiusRatio^(levels - 1) overflows (levels " +
                 std::to_string(levelCount) + ")"};

  if (mesh.indices.empty()) return Error{"particle fill: the mesh has no triangles"};
  for (const glm::vec3& p : mesh.positions)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{"particle fill: the mesh has a non-finite vertex position"};
  auto query = cgal::ClosedMeshQuery::create(mesh);
  if (!query) return query.error().prefixed("particle fill: ");
  if (query->openComponentCount() > 0)  // the projected-parity fill needs an inside
    return Error{"particle fill: the mesh is not closed (" + std::to_string(query->openComponentCount()) +
                 " of its components have border edges), so its inside is undefined"};

  // Bounding box of the referenced vertices.
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (std::uint32_t v : mesh.indices) {
    lo = glm::min(lo, mesh.positions[v]);
    hi = glm::max(hi, mesh.positions[v]);
  }
  const double bound = packingCountBound(glm::dvec3(hi) - glm::dvec3(lo), settings.radius);
  if (bound > kMaxCandidates)
    return Error{"particle fill: radius " + describe(settings.radius) + " m is too small for the mesh (about " +
                 std::to_string(std::int64_t(bound)) + " candidate particles, limit " +
                 std::to_string(std::int64_t(kMaxCandidates)) + ")"};

  ParticleFill fill;
  fill.levelRadii = radii;
  fill.levelCounts.assign(std::size_t(levelCount), 0);
  // Surface-margin test: no triangle meets the ball of radius margin (AABB tree; ball
  // queries prune all boxes farther than the margin, unlike closest-point queries, which
  // are slow deep inside round meshes). Zero-area triangles lie on their neighbours' edges.
  std::vector<Triangle3> surfaceTriangles;
  if (levelCount > 1) {
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      const glm::vec3 a = mesh.positions[mesh.indices[t]], b = mesh.positions[mesh.indices[t + 1]],
                      c = mesh.positions[mesh.indices[t + 2]];
      const Triangle3 tri(Point3(a.x, a.y, a.z), Point3(b.x, b.y, b.z), Point3(c.x, c.y, c.z));
      if (!tri.is_degenerate()) surfaceTriangles.push_back(tri);
    }
  }
  TriangleTree tree(surfaceTriangles.begin(), surfaceTriangles.end());
  if (!surfaceTriangles.empty()) tree.build();  // before the parallel loop
  for (int k = 0; k < levelCount; ++k) {
    const float r = radii[std::size_t(k)];
    const bool last = k + 1 == levelCount;
    const std::vector<glm::vec3> candidates = closestPacking(lo, hi, r);
    if (candidates.empty()) continue;
    auto insideResult = insideByProjectedParity(mesh, candidates);
    if (!insideResult) return insideResult.error().prefixed("particle fill: ");
    const std::vector<bool>& isInside = *insideResult;
    std::vector<std::uint32_t> inner;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (isInside[i]) inner.push_back(std::uint32_t(i));

    const PlacedGrid placed(fill.particles, r, glm::dvec3(lo), glm::dvec3(hi));
    const double margin = double(settings.surfaceMargin) * double(r) * (1.0 - kMarginSlack);
    const std::int64_t n = std::int64_t(inner.size());
    std::vector<char> keep(inner.size(), 0);
#pragma omp parallel for schedule(static) if (n >= 2048)
    for (std::int64_t i = 0; i < n; ++i) {
      const glm::vec3 c = candidates[inner[std::size_t(i)]];
      if (placed.overlaps(fill.particles, c)) continue;
      if (!last && margin > 0.0 && tree.do_intersect(Kernel::Sphere_3(Point3(c.x, c.y, c.z), margin * margin)))
        continue;
      keep[std::size_t(i)] = 1;
    }
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (!keep[i]) continue;
      const glm::vec3 c = candidates[inner[i]];
      fill.particles.emplace_back(c, r);
      fill.levels.push_back(k);
      ++fill.levelCounts[std::size_t(k)];
    }
  }
  if (fill.particles.empty())
    return Error{"particle fill: no particle of radius " + describe(settings.radius) +
                 " m has its centre inside the mesh (the radius is too large for it)"};
  return fill;
}

}  // namespace hg
