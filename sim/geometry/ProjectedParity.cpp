// The y-z projection parity inside test (see ProjectedParity.h). CGAL supplies the exact
// predicates (this file is compiled with -frounding-math).
#include "sim/geometry/ProjectedParity.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <glm/common.hpp>
#include <glm/vec2.hpp>

namespace hg {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point2 = Kernel::Point_2;
using Point3 = Kernel::Point_3;

int sign(CGAL::Orientation o) { return o == CGAL::POSITIVE ? 1 : (o == CGAL::NEGATIVE ? -1 : 0); }

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

Point2 yz(const Point3& p) { return Point2(p.y(), p.z()); }

/// Error: no triangles, an index count that is not a multiple of 3, an index out of range.
Status checkParityMesh(const TriangleMesh& mesh) {
  if (mesh.indices.empty()) return Error{"inside test: the mesh has no triangles"};
  if (mesh.indices.size() % 3 != 0)
    return Error{"inside test: the mesh has " + std::to_string(mesh.indices.size()) + " indices, not a multiple of 3"};
  const std::size_t vertexCount = mesh.positions.size();
  for (std::size_t i = 0; i < mesh.indices.size(); ++i)
    if (mesh.indices[i] >= vertexCount)
      return Error{"inside test: triangle " + std::to_string(i / 3) + " has vertex index " +
                   std::to_string(mesh.indices[i]) + " out of range (" + std::to_string(vertexCount) + " vertices)"};
  return Status::success();
}

/// The mesh's vertices as CGAL points. Error: a non-finite position.
Result<std::vector<Point3>> exactVertices(const TriangleMesh& mesh) {
  std::vector<Point3> vertices;
  vertices.reserve(mesh.positions.size());
  for (const glm::vec3& p : mesh.positions) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{"inside test: vertex " + std::to_string(vertices.size()) + " has a non-finite position"};
    vertices.emplace_back(p.x, p.y, p.z);
  }
  return vertices;
}

/// The triangles with their boxes and projected orientations, and the y-z box of them all.
std::vector<PreparedTriangle> prepareTriangles(const TriangleMesh& mesh, const std::vector<Point3>& vertices,
                                               glm::vec2& gridLo, glm::vec2& gridHi) {
  std::vector<PreparedTriangle> triangles(mesh.triangleCount());
  gridLo = glm::vec2(std::numeric_limits<float>::max());
  gridHi = glm::vec2(-std::numeric_limits<float>::max());
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
  return triangles;
}

/// Rows: points sharing (y, z) share the triangles their rays may cross. `order` holds the
/// finite points' indices sorted by (y, z, index); row r is order[rowStart[r] ..
/// rowStart[r + 1]). Non-finite points are outside and join no row.
struct PointRows {
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> rowStart;
};

PointRows pointRows(std::span<const glm::vec3> points) {
  PointRows rows;
  std::vector<std::uint32_t>& order = rows.order;
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
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i == 0 || points[order[i]].y != points[order[i - 1]].y || points[order[i]].z != points[order[i - 1]].z)
      rows.rowStart.push_back(i);
  rows.rowStart.push_back(order.size());
  return rows;
}

/// The triangles whose closed y-z projection contains (y, z), in grid order, into `hits`.
void collectRowHits(float y, float z, const ProjectionGrid& grid, const std::vector<PreparedTriangle>& triangles,
                    const std::vector<Point3>& vertices, std::vector<RowHit>& hits) {
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
    const bool crossing =
        perturbedOrientation(a, b, q) == s && perturbedOrientation(b, c, q) == s && perturbedOrientation(c, a, q) == s;
    if (crossing || closedContains(a, b, c, q, s)) hits.push_back({t, tri.lo.x, tri.hi.x, crossing, false});
  }
}

/// Whether p (on the row of `hits`) is on the surface or its ray toward -x crosses it an
/// odd number of times.
bool insideByHits(const glm::vec3& p, const std::vector<RowHit>& hits, const std::vector<PreparedTriangle>& triangles,
                  const std::vector<Point3>& vertices) {
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
  return onSurface || (crossings & 1) != 0;
}

}  // namespace

Result<std::vector<bool>> insideByProjectedParity(const TriangleMesh& mesh, std::span<const glm::vec3> points) {
  if (Status s = checkParityMesh(mesh); !s) return s.error();
  const Result<std::vector<Point3>> exact = exactVertices(mesh);
  if (!exact) return exact.error();
  const std::vector<Point3>& vertices = *exact;
  glm::vec2 gridLo, gridHi;
  const std::vector<PreparedTriangle> triangles = prepareTriangles(mesh, vertices, gridLo, gridHi);
  const ProjectionGrid grid(triangles, gridLo, gridHi);

  const PointRows rows = pointRows(points);
  const std::vector<std::uint32_t>& order = rows.order;
  const std::int64_t rowCount = std::int64_t(rows.rowStart.size()) - 1;
  std::vector<char> inside(points.size(), 0);
#pragma omp parallel if (order.size() >= 2048)
  {
    std::vector<RowHit> hits;
#pragma omp for schedule(static)
    for (std::int64_t row = 0; row < rowCount; ++row) {
      const std::size_t begin = rows.rowStart[std::size_t(row)], end = rows.rowStart[std::size_t(row) + 1];
      const float y = points[order[begin]].y, z = points[order[begin]].z;
      collectRowHits(y, z, grid, triangles, vertices, hits);
      for (std::size_t i = begin; i < end; ++i)
        inside[order[i]] = insideByHits(points[order[i]], hits, triangles, vertices) ? 1 : 0;
    }
  }
  return std::vector<bool>(inside.begin(), inside.end());
}

}  // namespace hg
