// Joint-zone metrics (volume, radius, bulge); the self-intersection count comes from
// sim/geometry/TriangleIntersections.h.
// Compiled with -frounding-math (sim/skinning/CMakeLists.txt): CGAL's interval filters.
#include "sim/skinning/SkinningMetrics.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <unordered_map>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/convex_hull_2.h>
#include <CGAL/min_quadrilateral_2.h>

namespace hg {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// Rest radii below this fraction of the zone radius count as "on the axis" (the float
/// positions hold about 7 significant digits, so such a vertex has no usable direction).
constexpr double kMinRestRadiusFraction = 1e-6;

glm::dvec3 toDouble(const glm::vec4& p) { return glm::dvec3(p.x, p.y, p.z); }

double distanceToSegment(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
  const glm::dvec3 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? glm::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

/// The axis in double, so every radius of one pose is computed the same way.
struct AxisD {
  glm::dvec3 parent, joint, child;
  explicit AxisD(const JointAxis& axis) : parent(axis.parent), joint(axis.joint), child(axis.child) {}
  double distance(const glm::dvec3& p) const {
    return std::min(distanceToSegment(p, parent, joint), distanceToSegment(p, joint, child));
  }
};

/// The joint's cross-section radius: the zone surface is cut by the plane through the
/// joint that bisects the bend (normal = the sum of the unit parent and child bone
/// directions; a straight limb gives the plane perpendicular to it), and the radius is
/// half the cut's smallest width (its thickness: the width of the thinnest strip that
/// holds the cut points, exact for any orientation of the section), so a section that stays round but moves
/// (an elastic bend that cuts the corner) keeps its radius, while a pinched inside of a
/// bend (LBS) or a twist collapsed toward the axis (the candy wrapper) loses it.
/// 0 when the plane misses the zone.
double sectionRadius(std::span<const glm::vec4> positions, const std::vector<std::uint32_t>& triangles,
                     const AxisD& axis) {
  const auto unit = [](const glm::dvec3& v) {
    const double len = glm::length(v);
    return len > 0.0 ? v / len : glm::dvec3(0.0);
  };
  glm::dvec3 normal = unit(axis.joint - axis.parent) + unit(axis.child - axis.joint);
  if (!(glm::length(normal) > 1e-12)) normal = unit(axis.child - axis.joint);
  if (!(glm::length(normal) > 1e-12)) normal = unit(axis.joint - axis.parent);
  normal = unit(normal);
  // An orthonormal basis (e1, e2) of the plane.
  const glm::dvec3 helper = std::abs(normal.x) < 0.9 ? glm::dvec3(1.0, 0.0, 0.0) : glm::dvec3(0.0, 1.0, 0.0);
  const glm::dvec3 e1 = unit(glm::cross(normal, helper)), e2 = glm::cross(normal, e1);
  using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
  std::vector<Kernel::Point_2> cut;
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    glm::dvec3 p[3];
    double d[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = toDouble(positions[triangles[t + std::size_t(k)]]) - axis.joint;
      d[k] = glm::dot(p[k], normal);
    }
    for (int k = 0; k < 3; ++k) {
      const int l = (k + 1) % 3;
      glm::dvec3 q;
      if (d[k] == 0.0) {
        q = p[k];
      } else if ((d[k] < 0.0) != (d[l] < 0.0) && d[l] != 0.0) {
        q = p[k] + (d[k] / (d[k] - d[l])) * (p[l] - p[k]);
      } else {
        continue;
      }
      cut.emplace_back(glm::dot(q, e1), glm::dot(q, e2));
    }
  }
  // The width of a point set is that of its convex hull, and the thinnest strip holding a
  // convex polygon (CGAL's rotating calipers) gives it exactly, for any orientation.
  std::vector<Kernel::Point_2> hull;
  CGAL::convex_hull_2(cut.begin(), cut.end(), std::back_inserter(hull));
  if (hull.size() < 3) return 0.0;  // the cut is a point or a segment: no thickness
  std::vector<Kernel::Line_2> strip;
  CGAL::min_strip_2(hull.begin(), hull.end(), std::back_inserter(strip));
  if (strip.size() != 2) return 0.0;
  return 0.5 * std::sqrt(CGAL::to_double(CGAL::squared_distance(strip[0].point(0), strip[1])));
}

/// Signed volume of the closed zone surface: the zone triangles plus, per boundary loop,
/// the fan (b, a, centroid) for each loop edge a -> b. Relative to `origin` (any point
/// gives the same volume for a closed surface; one near the zone keeps the sum accurate).
double closedZoneVolume(std::span<const glm::vec4> positions, const std::vector<std::uint32_t>& triangles,
                        const std::vector<std::vector<std::uint32_t>>& loops, const glm::dvec3& origin) {
  double sixVolume = 0.0;
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    const glm::dvec3 a = toDouble(positions[triangles[t]]) - origin;
    const glm::dvec3 b = toDouble(positions[triangles[t + 1]]) - origin;
    const glm::dvec3 c = toDouble(positions[triangles[t + 2]]) - origin;
    sixVolume += glm::dot(a, glm::cross(b, c));
  }
  for (const std::vector<std::uint32_t>& loop : loops) {
    glm::dvec3 centroid(0.0);
    for (std::uint32_t v : loop) centroid += toDouble(positions[v]);
    centroid = centroid / double(loop.size()) - origin;
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const glm::dvec3 a = toDouble(positions[loop[i]]) - origin;
      const glm::dvec3 b = toDouble(positions[loop[(i + 1) % loop.size()]]) - origin;
      sixVolume += glm::dot(b, glm::cross(a, centroid));
    }
  }
  return sixVolume / 6.0;
}

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  return (std::uint64_t(std::min(a, b)) << 32) | std::uint64_t(std::max(a, b));
}

std::string vertexName(std::uint32_t v) { return "vertex " + std::to_string(v); }

// --- the zone and its boundary ------------------------------------------------------

/// Errors: indices not in triangles or out of range, a zone radius that is not positive
/// and finite, a non-finite rest axis.
Status checkMeterInput(const TriangleMesh& restMesh, const JointAxis& restAxis, float zoneRadius,
                       const std::string& where) {
  const std::size_t vertexCount = restMesh.vertexCount();
  if (restMesh.indices.size() % 3 != 0)
    return Error{where + ": mesh index count " + std::to_string(restMesh.indices.size()) + " is not a multiple of 3"};
  for (std::size_t i = 0; i < restMesh.indices.size(); ++i)
    if (restMesh.indices[i] >= vertexCount)
      return Error{where + ": mesh index " + std::to_string(i) + " = " + std::to_string(restMesh.indices[i]) +
                   " is out of range (" + std::to_string(vertexCount) + " vertices)"};
  if (!(zoneRadius > 0.0f) || !std::isfinite(zoneRadius))
    return Error{where + ": zone radius " + std::to_string(zoneRadius) + " m must be > 0 and finite"};
  for (const glm::vec3& q : {restAxis.parent, restAxis.joint, restAxis.child})
    if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
      return Error{where + ": the rest joint axis has a non-finite point"};
  return Status::success();
}

/// Zone triangles: all three rest vertices within zoneRadius of the joint. Error: a zone
/// triangle that repeats a vertex, an empty zone.
Result<std::vector<std::uint32_t>> zoneTriangles(const TriangleMesh& restMesh, glm::vec3 restJoint, float zoneRadius,
                                                 const std::string& where) {
  const std::size_t vertexCount = restMesh.vertexCount();
  const glm::dvec3 joint(restJoint);
  const double radius = zoneRadius;
  std::vector<char> inside(vertexCount, 0);
  for (std::size_t v = 0; v < vertexCount; ++v)
    inside[v] = glm::length(glm::dvec3(restMesh.positions[v]) - joint) <= radius ? 1 : 0;
  std::vector<std::uint32_t> triangles;
  for (std::size_t t = 0; t < restMesh.indices.size(); t += 3) {
    const std::uint32_t a = restMesh.indices[t], b = restMesh.indices[t + 1], c = restMesh.indices[t + 2];
    if (!inside[a] || !inside[b] || !inside[c]) continue;
    if (a == b || b == c || c == a)
      return Error{where + ": zone triangle " + std::to_string(t / 3) + " repeats a vertex"};
    triangles.insert(triangles.end(), {a, b, c});
  }
  if (triangles.empty())
    return Error{where + ": no triangle has all its rest vertices within " + std::to_string(zoneRadius) +
                 " m of the joint (empty zone)"};
  return triangles;
}

/// The vertices the triangles use, ascending.
std::vector<std::uint32_t> zoneVertices(const std::vector<std::uint32_t>& triangles, std::size_t vertexCount) {
  std::vector<char> used(vertexCount, 0);
  for (std::uint32_t v : triangles) used[v] = 1;
  std::vector<std::uint32_t> vertices;
  for (std::size_t v = 0; v < vertexCount; ++v)
    if (used[v]) vertices.push_back(std::uint32_t(v));
  return vertices;
}

/// An undirected edge: the direction of its first use and how many triangles use it.
struct EdgeUse {
  std::uint32_t from, to;
  int count;
};

/// The zone's edges by edgeKey, and the keys in first-use order (for deterministic loops).
struct ZoneEdges {
  std::unordered_map<std::uint64_t, EdgeUse> uses;
  std::vector<std::uint64_t> order;
};

/// Edges: an interior edge is used twice, once per direction; a boundary edge once.
/// Error: an edge of more than two triangles, or used twice in the same direction.
Result<ZoneEdges> zoneEdges(const std::vector<std::uint32_t>& triangles, const std::string& where) {
  ZoneEdges edges;
  edges.uses.reserve(triangles.size() * 2);
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = triangles[t + k], b = triangles[t + (k + 1) % 3];
      auto [it, isNew] = edges.uses.try_emplace(edgeKey(a, b), EdgeUse{a, b, 0});
      if (isNew) edges.order.push_back(it->first);
      EdgeUse& use = it->second;
      if (++use.count > 2)
        return Error{where + ": edge " + std::to_string(a) + "-" + std::to_string(b) +
                     " is shared by more than two zone triangles (non-manifold); the zone boundary is not a set "
                     "of closed loops"};
      if (use.count == 2 && use.from == a)
        return Error{where + ": edge " + std::to_string(a) + "-" + std::to_string(b) +
                     " is used in the same direction by two zone triangles (inconsistent orientation)"};
    }
  }
  return edges;
}

/// The boundary edges (used once) chained into closed loops, each starting at its first
/// edge in first-use order. Error: a vertex on two loops, a chain that does not close.
Result<std::vector<std::vector<std::uint32_t>>> boundaryLoops(const ZoneEdges& edges, std::size_t vertexCount,
                                                              const std::string& where) {
  // Boundary successor per vertex: each boundary vertex must start and end exactly one edge.
  std::vector<std::uint32_t> next(vertexCount, kNone);
  std::vector<std::uint32_t> previous(vertexCount, kNone);
  for (std::uint64_t key : edges.order) {
    const EdgeUse& use = edges.uses.at(key);
    if (use.count != 1) continue;
    if (next[use.from] != kNone || previous[use.to] != kNone)
      return Error{where + ": " + vertexName(next[use.from] != kNone ? use.from : use.to) +
                   " lies on more than one boundary loop (non-manifold vertex); the zone boundary is not a set of "
                   "closed loops"};
    next[use.from] = use.to;
    previous[use.to] = use.from;
  }
  std::vector<std::vector<std::uint32_t>> loops;
  std::vector<char> visited(vertexCount, 0);
  for (std::uint64_t key : edges.order) {
    const EdgeUse& use = edges.uses.at(key);
    if (use.count != 1 || visited[use.from]) continue;
    std::vector<std::uint32_t> loop;
    std::uint32_t v = use.from;
    while (!visited[v]) {
      visited[v] = 1;
      loop.push_back(v);
      v = next[v];
      if (v == kNone)
        return Error{where + ": the boundary chain through " + vertexName(loop.back()) +
                     " does not close; the zone boundary is not a set of closed loops"};
    }
    if (v != use.from)
      return Error{where + ": the boundary chain from " + vertexName(use.from) +
                   " does not close; the zone boundary is not a set of closed loops"};
    loops.push_back(std::move(loop));
  }
  return loops;
}

}  // namespace

float distanceToJointAxis(glm::vec3 p, const JointAxis& axis) { return float(AxisD(axis).distance(glm::dvec3(p))); }
Result<JointZoneMeter> JointZoneMeter::create(const TriangleMesh& restMesh, const JointAxis& restAxis,
                                              float zoneRadius) {
  const std::string where = "joint zone meter";
  const std::size_t vertexCount = restMesh.vertexCount();
  if (Status s = checkMeterInput(restMesh, restAxis, zoneRadius, where); !s) return s.error();

  JointZoneMeter meter;
  Result<std::vector<std::uint32_t>> triangles = zoneTriangles(restMesh, restAxis.joint, zoneRadius, where);
  if (!triangles) return triangles.error();
  meter.m_triangles = std::move(*triangles);
  meter.m_vertices = zoneVertices(meter.m_triangles, vertexCount);
  const Result<ZoneEdges> edges = zoneEdges(meter.m_triangles, where);
  if (!edges) return edges.error();
  Result<std::vector<std::vector<std::uint32_t>>> loops = boundaryLoops(*edges, vertexCount, where);
  if (!loops) return loops.error();
  meter.m_loops = std::move(*loops);

  // Rest measurements.
  const glm::dvec3 joint(restAxis.joint);
  const double radius = zoneRadius;
  std::vector<glm::vec4> rest(vertexCount);
  for (std::size_t v = 0; v < vertexCount; ++v) rest[v] = glm::vec4(restMesh.positions[v], 1.0f);
  const AxisD axis(restAxis);
  meter.m_restRadii.resize(meter.m_vertices.size());
  for (std::size_t i = 0; i < meter.m_vertices.size(); ++i) {
    const std::uint32_t v = meter.m_vertices[i];
    const double r = axis.distance(glm::dvec3(restMesh.positions[v]));
    if (!(r > kMinRestRadiusFraction * radius))
      return Error{where + ": zone " + vertexName(v) + " lies on the joint axis in the rest pose (radius " +
                   std::to_string(r) + " m)"};
    meter.m_restRadii[i] = float(r);
  }
  meter.m_rest.minRadius = sectionRadius(rest, meter.m_triangles, axis);
  if (!(meter.m_rest.minRadius > kMinRestRadiusFraction * radius))
    return Error{where + ": the plane through the joint does not cut the zone around the axis in the rest pose"};
  meter.m_rest.volume = closedZoneVolume(rest, meter.m_triangles, meter.m_loops, joint);
  if (!(meter.m_rest.volume > 0.0))
    return Error{where + ": the closed zone's rest volume " + std::to_string(meter.m_rest.volume) +
                 " m^3 is not positive (the triangles must be counter-clockwise seen from outside)"};
  return meter;
}

JointZoneMeasure JointZoneMeter::measure(std::span<const glm::vec4> positions, const JointAxis& axis) const {
  assert(!m_vertices.empty() && m_vertices.back() < positions.size() && "positions: one per rest vertex");
  const AxisD axisD(axis);
  JointZoneMeasure result;
  result.volume = closedZoneVolume(positions, m_triangles, m_loops, axisD.joint);
  result.minRadius = sectionRadius(positions, m_triangles, axisD);
  return result;
}

JointZoneRatios JointZoneMeter::ratios(std::span<const glm::vec4> positions, const JointAxis& axis,
                                       bool countIntersections) const {
  assert(!m_vertices.empty() && m_vertices.back() < positions.size() && "positions: one per rest vertex");
  const AxisD axisD(axis);
  const JointZoneMeasure now = measure(positions, axis);
  JointZoneRatios result;
  result.volumeRatio = now.volume / m_rest.volume;
  result.minRadiusRatio = now.minRadius / m_rest.minRadius;
  double maxBulge = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < m_vertices.size(); ++i) {
    const double r = axisD.distance(toDouble(positions[m_vertices[i]]));
    maxBulge = std::max(maxBulge, r / double(m_restRadii[i]) - 1.0);
  }
  result.maxBulge = maxBulge;
  if (countIntersections) result.selfIntersections = countSelfIntersections(positions, m_triangles);
  return result;
}

}  // namespace hg
