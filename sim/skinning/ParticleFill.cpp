// Filling a closed mesh with particles (see ParticleFill.h). CGAL supplies the exact
// predicates of the parity test (this file is compiled with -frounding-math) and the
// AABB tree of the surface-margin test; garment_detail::ClosedMeshQuery checks that the
// mesh is closed.
#include "sim/skinning/ParticleFill.h"

#include <algorithm>
#include <array>
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

#include "sim/garment/CgalGeometry.h"

namespace hg {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point2 = Kernel::Point_2;
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

int sign(CGAL::Orientation o) { return o == CGAL::POSITIVE ? 1 : (o == CGAL::NEGATIVE ? -1 : 0); }

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
// The parity inside test.

/// A mesh triangle prepared for the y-z parity test.
struct PreparedTriangle {
  std::array<std::uint32_t, 3> v;
  glm::vec3 lo, hi;  ///< bounding box
  int signNx;        ///< sign of the x component of (b - a) x (c - a): orientation of the y-z projection
};

/// Orientation of (a, b, q) in the y-z plane (Point2 = (y, z)) with q perturbed to
/// (q_y + e, q_z + e^2), e -> 0+. orient(a, b, q) = D + (b_y - a_y) e^2 - (b_z - a_z) e, so
/// when D == 0 the sign is that of -(b_z - a_z), else of (b_y - a_y); 0 only when a == b.
/// Antisymmetric in (a, b), so the perturbed point lies on one side of every shared edge.
int perturbedOrientation(const Point2& a, const Point2& b, const Point2& q) {
  const int s = sign(CGAL::orientation(a, b, q));
  if (s != 0) return s;
  if (a.y() != b.y()) return a.y() > b.y() ? 1 : -1;
  if (a.x() != b.x()) return b.x() > a.x() ? 1 : -1;
  return 0;
}

/// q in the closed 2D triangle (a, b, c) of orientation s != 0.
bool closedContains(const Point2& a, const Point2& b, const Point2& c, const Point2& q, int s) {
  return sign(CGAL::orientation(a, b, q)) != -s && sign(CGAL::orientation(b, c, q)) != -s &&
         sign(CGAL::orientation(c, a, q)) != -s;
}

/// p on the closed segment [a, b] (exact).
bool onSegment(const Point3& a, const Point3& b, const Point3& p) {
  if (a == b) return p == a;
  return CGAL::collinear(a, b, p) && CGAL::collinear_are_ordered_along_line(a, p, b);
}

/// p on the closed triangle (a, b, c) whose y-z projection is degenerate (a face parallel
/// to x, or a collinear triangle): exact, by a projection in which it is not degenerate.
bool onDegenerateTriangle(const Point3& a, const Point3& b, const Point3& c, const Point3& p) {
  if (CGAL::orientation(a, b, c, p) != CGAL::COPLANAR) return false;
  const auto zx = [](const Point3& q) { return Point2(q.z(), q.x()); };
  const auto xy = [](const Point3& q) { return Point2(q.x(), q.y()); };
  if (const int s = sign(CGAL::orientation(zx(a), zx(b), zx(c))); s != 0)
    return closedContains(zx(a), zx(b), zx(c), zx(p), s);
  if (const int s = sign(CGAL::orientation(xy(a), xy(b), xy(c))); s != 0)
    return closedContains(xy(a), xy(b), xy(c), xy(p), s);
  return onSegment(a, b, p) || onSegment(b, c, p) || onSegment(c, a, p);
}

/// A triangle whose closed y-z projection contains a row's (y, z).
struct RowHit {
  std::uint32_t triangle;
  float loX, hiX;
  bool crossing;    ///< the perturbed (y, z) is inside the projection (the ray may cross it)
  bool degenerate;  ///< zero-area projection: never crossed, but the row may touch it
};

/// Uniform y-z grid of the triangles' projected bounding boxes (CSR, triangles in
/// index order per cell).
class ProjectionGrid {
 public:
  ProjectionGrid(const std::vector<PreparedTriangle>& triangles, glm::vec2 lo, glm::vec2 hi) : m_lo(lo) {
    const double ey = double(hi.x) - double(lo.x), ez = double(hi.y) - double(lo.y);
    const double target = std::clamp(double(triangles.size()), 1.0, double(1 << 22));
    if (ey > 0.0 && ez > 0.0) {
      m_n[0] = int(std::clamp(std::round(std::sqrt(target * ey / ez)), 1.0, 4096.0));
      m_n[1] = int(std::clamp(std::round(target / m_n[0]), 1.0, 4096.0));
    } else if (ey > 0.0) {
      m_n[0] = int(std::clamp(target, 1.0, 4096.0));
    } else if (ez > 0.0) {
      m_n[1] = int(std::clamp(target, 1.0, 4096.0));
    }
    m_inv[0] = ey > 0.0 ? m_n[0] / ey : 0.0;
    m_inv[1] = ez > 0.0 ? m_n[1] / ez : 0.0;
    m_start.assign(std::size_t(m_n[0]) * std::size_t(m_n[1]) + 1, 0);
    const auto forCells = [&](const PreparedTriangle& t, auto&& f) {
      const int y0 = cell(0, t.lo.y), y1 = cell(0, t.hi.y), z0 = cell(1, t.lo.z), z1 = cell(1, t.hi.z);
      for (int z = z0; z <= z1; ++z)
        for (int y = y0; y <= y1; ++y) f(std::size_t(z) * std::size_t(m_n[0]) + std::size_t(y));
    };
    for (const PreparedTriangle& t : triangles) forCells(t, [&](std::size_t c) { ++m_start[c + 1]; });
    std::partial_sum(m_start.begin(), m_start.end(), m_start.begin());
    m_items.resize(m_start.back());
    std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
    for (std::size_t i = 0; i < triangles.size(); ++i)
      forCells(triangles[i], [&](std::size_t c) { m_items[fill[c]++] = std::uint32_t(i); });
  }

  /// The triangles of the cell holding (y, z): every triangle whose closed projected
  /// bounding box contains (y, z) is among them (the cell index is monotone in y and z).
  std::span<const std::uint32_t> at(float y, float z) const {
    const std::size_t c = std::size_t(cell(1, z)) * std::size_t(m_n[0]) + std::size_t(cell(0, y));
    return {m_items.data() + m_start[c], m_items.data() + m_start[c + 1]};
  }

 private:
  int cell(int axis, float v) const {
    const double t = (double(v) - double(axis == 0 ? m_lo.x : m_lo.y)) * m_inv[axis];
    if (!(t > 0.0)) return 0;
    return int(std::min(std::floor(t), double(m_n[axis] - 1)));
  }

  glm::vec2 m_lo;
  int m_n[2] = {1, 1};
  double m_inv[2] = {0.0, 0.0};
  std::vector<std::uint32_t> m_start, m_items;
};

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

Result<std::vector<bool>> insideByProjectedParity(const TriangleMesh& mesh, std::span<const glm::vec3> points) {
  if (mesh.indices.empty()) return Error{"inside test: the mesh has no triangles"};
  if (mesh.indices.size() % 3 != 0)
    return Error{"inside test: the mesh has " + std::to_string(mesh.indices.size()) + " indices, not a multiple of 3"};
  const std::size_t vertexCount = mesh.positions.size();
  for (std::size_t i = 0; i < mesh.indices.size(); ++i)
    if (mesh.indices[i] >= vertexCount)
      return Error{"inside test: triangle " + std::to_string(i / 3) + " has vertex index " +
                   std::to_string(mesh.indices[i]) + " out of range (" + std::to_string(vertexCount) + " vertices)"};

  std::vector<Point3> vertices;
  vertices.reserve(vertexCount);
  for (const glm::vec3& p : mesh.positions) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{"inside test: vertex " + std::to_string(vertices.size()) + " has a non-finite position"};
    vertices.emplace_back(p.x, p.y, p.z);
  }
  const auto yz = [](const Point3& p) { return Point2(p.y(), p.z()); };

  std::vector<PreparedTriangle> triangles(mesh.triangleCount());
  glm::vec2 gridLo(std::numeric_limits<float>::max()), gridHi(-std::numeric_limits<float>::max());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    PreparedTriangle& tri = triangles[t];
    tri.v = {mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]};
    const glm::vec3 a = mesh.positions[tri.v[0]], b = mesh.positions[tri.v[1]], c = mesh.positions[tri.v[2]];
    tri.lo = glm::min(a, glm::min(b, c));
    tri.hi = glm::max(a, glm::max(b, c));
    tri.signNx = sign(CGAL::orientation(yz(vertices[tri.v[0]]), yz(vertices[tri.v[1]]), yz(vertices[tri.v[2]])));
    gridLo = glm::min(gridLo, glm::vec2(tri.lo.y, tri.lo.z));
    gridHi = glm::max(gridHi, glm::vec2(tri.hi.y, tri.hi.z));
  }
  const ProjectionGrid grid(triangles, gridLo, gridHi);

  // Rows: points sharing (y, z) share the triangles their rays may cross. Non-finite
  // points are outside and join no row.
  std::vector<std::uint32_t> order;
  order.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    if (std::isfinite(points[i].x) && std::isfinite(points[i].y) && std::isfinite(points[i].z))
      order.push_back(std::uint32_t(i));
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const glm::vec3 &p = points[a], &q = points[b];
    if (p.y != q.y) return p.y < q.y;
    if (p.z != q.z) return p.z < q.z;
    return a < b;
  });
  std::vector<std::size_t> rowStart;
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i == 0 || points[order[i]].y != points[order[i - 1]].y || points[order[i]].z != points[order[i - 1]].z)
      rowStart.push_back(i);
  rowStart.push_back(order.size());
  const std::int64_t rowCount = std::int64_t(rowStart.size()) - 1;

  std::vector<char> inside(points.size(), 0);
#pragma omp parallel if (order.size() >= 2048)
  {
    std::vector<RowHit> hits;
#pragma omp for schedule(static)
    for (std::int64_t row = 0; row < rowCount; ++row) {
      const std::size_t begin = rowStart[std::size_t(row)], end = rowStart[std::size_t(row) + 1];
      const float y = points[order[begin]].y, z = points[order[begin]].z;
      const Point2 q(y, z);
      hits.clear();
      for (std::uint32_t t : grid.at(y, z)) {
        const PreparedTriangle& tri = triangles[t];
        if (y < tri.lo.y || y > tri.hi.y || z < tri.lo.z || z > tri.hi.z) continue;
        const Point2 a = yz(vertices[tri.v[0]]), b = yz(vertices[tri.v[1]]), c = yz(vertices[tri.v[2]]);
        if (tri.signNx == 0) {
          hits.push_back({t, tri.lo.x, tri.hi.x, false, true});
          continue;
        }
        const int s = tri.signNx;
        const bool crossing = perturbedOrientation(a, b, q) == s && perturbedOrientation(b, c, q) == s &&
                              perturbedOrientation(c, a, q) == s;
        if (crossing || closedContains(a, b, c, q, s)) hits.push_back({t, tri.lo.x, tri.hi.x, crossing, false});
      }
      for (std::size_t i = begin; i < end; ++i) {
        const glm::vec3& p = points[order[i]];
        const Point3 pp(p.x, p.y, p.z);
        int crossings = 0;
        bool onSurface = false;
        for (const RowHit& hit : hits) {
          if (p.x < hit.loX) continue;  // the triangle lies entirely at larger x
          if (p.x > hit.hiX) {          // entirely at smaller x: crossed if the ray meets it
            crossings += hit.crossing ? 1 : 0;
            continue;
          }
          const PreparedTriangle& tri = triangles[hit.triangle];
          const Point3 &a = vertices[tri.v[0]], &b = vertices[tri.v[1]], &c = vertices[tri.v[2]];
          if (hit.degenerate) {
            if (onDegenerateTriangle(a, b, c, pp)) {
              onSurface = true;
              break;
            }
            continue;
          }
          // sign(det(b - a, c - a, p - a)) = sign(n . (p - a)) = sign(n_x) sign(p_x - plane x at (y, z)).
          // Zero: p is on the plane and (y, z) in the closed projection, so p is on the triangle;
          // points on the surface are inside, so the perturbation of x is never needed.
          const int side = sign(CGAL::orientation(a, b, c, pp));
          if (side == 0) {
            onSurface = true;
            break;
          }
          if (hit.crossing && side == tri.signNx) ++crossings;
        }
        inside[order[i]] = (onSurface || (crossings & 1) != 0) ? 1 : 0;
      }
    }
  }
  return std::vector<bool>(inside.begin(), inside.end());
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
  auto query = garment_detail::ClosedMeshQuery::create(mesh);
  if (!query) return query.error().prefixed("particle fill: ");

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
