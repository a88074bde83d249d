#include "sim/geometry/TriangleIntersections.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Intersections_3/Point_3_Segment_3.h>
#include <CGAL/Intersections_3/Point_3_Triangle_3.h>
#include <CGAL/Intersections_3/Segment_3_Segment_3.h>
#include <CGAL/Intersections_3/Segment_3_Triangle_3.h>
#include <CGAL/Intersections_3/Triangle_3_Triangle_3.h>
#include <CGAL/box_intersection_d.h>

namespace hg {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point3 = Kernel::Point_3;
using Segment3 = Kernel::Segment_3;
using Triangle3 = Kernel::Triangle_3;

/// A triangle as CGAL sees it: a proper triangle, or (degenerate) a segment or a point,
/// since CGAL's triangle predicates require non-degenerate input.
struct Primitive {
  enum class Kind { Triangle, Segment, Point } kind = Kind::Point;
  Point3 p[3];
};

Primitive makePrimitive(const Point3& a, const Point3& b, const Point3& c) {
  Primitive prim;
  prim.p[0] = a;
  prim.p[1] = b;
  prim.p[2] = c;
  if (!CGAL::collinear(a, b, c)) {
    prim.kind = Primitive::Kind::Triangle;
  } else if (a == b && b == c) {
    prim.kind = Primitive::Kind::Point;
  } else {
    // Collinear: the segment between the two points farthest apart covers the third.
    const double ab = CGAL::to_double(CGAL::squared_distance(a, b));
    const double bc = CGAL::to_double(CGAL::squared_distance(b, c));
    const double ca = CGAL::to_double(CGAL::squared_distance(c, a));
    prim.kind = Primitive::Kind::Segment;
    if (bc >= ab && bc >= ca) {
      prim.p[0] = b;
      prim.p[1] = c;
    } else if (ca >= ab && ca >= bc) {
      prim.p[0] = c;
      prim.p[1] = a;
    }  // else a, b already
  }
  return prim;
}

bool primitivesIntersect(const Primitive& s, const Primitive& t) {
  using K = Primitive::Kind;
  if (int(s.kind) > int(t.kind)) return primitivesIntersect(t, s);  // s is the "larger" kind
  switch (s.kind) {
    case K::Triangle: {
      const Triangle3 a(s.p[0], s.p[1], s.p[2]);
      if (t.kind == K::Triangle) return CGAL::do_intersect(a, Triangle3(t.p[0], t.p[1], t.p[2]));
      if (t.kind == K::Segment) return CGAL::do_intersect(a, Segment3(t.p[0], t.p[1]));
      return CGAL::do_intersect(t.p[0], a);
    }
    case K::Segment: {
      const Segment3 a(s.p[0], s.p[1]);
      if (t.kind == K::Segment) return CGAL::do_intersect(a, Segment3(t.p[0], t.p[1]));
      return CGAL::do_intersect(t.p[0], a);
    }
    case K::Point:
      return s.p[0] == t.p[0];
  }
  return false;
}

/// Calls visit(s, t) for every intersecting pair of triangles that share no vertex, in
/// CGAL's box order.
template <class Visit>
void forEachIntersectingPair(std::span<const glm::vec4> positions, std::span<const std::uint32_t> triangles,
                             Visit visit) {
  assert(triangles.size() % 3 == 0);
  using Box = CGAL::Box_intersection_d::Box_with_handle_d<double, 3, const std::uint32_t*>;
  const std::size_t count = triangles.size() / 3;
  std::vector<Primitive> primitives(count);
  std::vector<Box> boxes;
  boxes.reserve(count);
  for (std::size_t t = 0; t < count; ++t) {
    const std::uint32_t* tri = triangles.data() + 3 * t;
    bool finite = true;
    Point3 p[3];
    for (int k = 0; k < 3; ++k) {
      assert(tri[k] < positions.size());
      const glm::vec4& q = positions[tri[k]];
      finite = finite && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
      p[k] = Point3(q.x, q.y, q.z);
    }
    if (!finite) continue;  // a NaN or infinite vertex has no place to intersect anything
    primitives[t] = makePrimitive(p[0], p[1], p[2]);
    boxes.emplace_back(p[0].bbox() + p[1].bbox() + p[2].bbox(), tri);
  }
  const std::uint32_t* base = triangles.data();
  auto report = [&](const Box& a, const Box& b) {
    const std::uint32_t* s = a.handle();
    const std::uint32_t* t = b.handle();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (s[i] == t[j]) return;  // neighbours share a vertex: skipped by definition
    const std::size_t ts = std::size_t(s - base) / 3, tt = std::size_t(t - base) / 3;
    if (primitivesIntersect(primitives[ts], primitives[tt])) visit(ts, tt);
  };
  CGAL::box_self_intersection_d(boxes.begin(), boxes.end(), report);
}

}  // namespace

std::vector<std::uint32_t> groupOfEachTriangle(std::span<const std::uint32_t> triangles,
                                               std::span<const std::uint32_t> groupOfVertex) {
  std::vector<std::uint32_t> groups(triangles.size() / 3, 0u);
  if (!groupOfVertex.empty())
    for (std::size_t t = 0; t < groups.size(); ++t) groups[t] = groupOfVertex[triangles[3 * t]];
  return groups;
}

IntersectionCensus countIntersectionsByGroup(std::span<const glm::vec4> positions,
                                             std::span<const std::uint32_t> triangles,
                                             std::span<const std::uint32_t> groupOfTriangle, std::size_t groupCount) {
  assert(groupOfTriangle.size() == triangles.size() / 3);
  IntersectionCensus census;
  census.groupCount = groupCount;
  census.counts.assign(groupCount * groupCount, 0);
  forEachIntersectingPair(positions, triangles, [&](std::size_t ts, std::size_t tt) {
    const std::size_t ga = groupOfTriangle[ts], gb = groupOfTriangle[tt];
    ++census.counts[std::min(ga, gb) * groupCount + std::max(ga, gb)];
  });
  return census;
}

std::vector<std::array<std::uint32_t, 2>> intersectingTrianglePairs(std::span<const glm::vec4> positions,
                                                                    std::span<const std::uint32_t> triangles) {
  std::vector<std::array<std::uint32_t, 2>> pairs;
  forEachIntersectingPair(positions, triangles, [&](std::size_t ts, std::size_t tt) {
    pairs.push_back({std::uint32_t(std::min(ts, tt)), std::uint32_t(std::max(ts, tt))});
  });
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<std::array<std::uint32_t, 2>> intersectingTrianglePairsAmong(
    std::span<const glm::vec4> positions, std::span<const std::uint32_t> triangles,
    std::span<const std::array<std::uint32_t, 2>> candidates) {
  std::vector<std::array<std::uint32_t, 2>> unique;
  unique.reserve(candidates.size());
  for (const auto& [s, t] : candidates)
    if (s != t) unique.push_back({std::min(s, t), std::max(s, t)});
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  auto primitiveOf = [&](std::uint32_t t, Primitive& out) {
    assert(3 * std::size_t(t) + 2 < triangles.size());
    Point3 p[3];
    for (int k = 0; k < 3; ++k) {
      const glm::vec4& q = positions[triangles[3 * std::size_t(t) + std::size_t(k)]];
      if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) return false;
      p[k] = Point3(q.x, q.y, q.z);
    }
    out = makePrimitive(p[0], p[1], p[2]);
    return true;
  };
  std::vector<std::array<std::uint32_t, 2>> pairs;
  for (const auto& [s, t] : unique) {
    const std::uint32_t* a = triangles.data() + 3 * std::size_t(s);
    const std::uint32_t* b = triangles.data() + 3 * std::size_t(t);
    bool shared = false;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) shared = shared || a[i] == b[j];
    Primitive ps, pt;
    if (!shared && primitiveOf(s, ps) && primitiveOf(t, pt) && primitivesIntersect(ps, pt)) pairs.push_back({s, t});
  }
  return pairs;
}

std::size_t countSelfIntersections(std::span<const glm::vec4> positions, std::span<const std::uint32_t> triangles) {
  const std::vector<std::uint32_t> oneGroup(triangles.size() / 3, 0u);
  return countIntersectionsByGroup(positions, triangles, oneGroup, 1).counts[0];
}

}  // namespace hg
