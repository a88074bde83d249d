#include "sim/cloth/SelfContactCandidates.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

#include "sim/core/Finite.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

bool hasVertex(const std::uint32_t* triangle, std::uint32_t v) {
  return triangle[0] == v || triangle[1] == v || triangle[2] == v;
}

bool shareVertex(glm::uvec2 e, glm::uvec2 f) { return e.x == f.x || e.x == f.y || e.y == f.x || e.y == f.y; }

/// Spheres (xyz centre, w radius; m) hashed into a table by the grid cell of their centre
/// (a counting sort), each entry's spheres in increasing index order and stored with their
/// cell, so that a query reads its entries front to back. Spheres that are not finite or
/// further than kFar from the origin are left out.
class SphereGrid {
 public:
  /// Cells `range` wide (and 1 %): spheres whose centres are closer than `range` are in
  /// neighbouring cells.
  SphereGrid(std::span<const glm::vec4> spheres, float range) : m_cellSize(1.01f * range) {
    std::uint32_t size = 1;
    while (size < 2 * spheres.size()) size <<= 1;
    m_tableSize = size;
    m_start.assign(std::size_t(size) + 1, 0);
    std::vector<glm::ivec3> cells(spheres.size());
    std::vector<std::uint32_t> bucketOf(spheres.size(), kNone);
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      if (!isNear(spheres[i])) continue;
      cells[i] = kernels::selfContactCell(glm::vec3(spheres[i]), m_cellSize);
      bucketOf[i] = kernels::selfContactCellHash(cells[i], size);
      ++m_start[bucketOf[i] + 1];
    }
    for (std::uint32_t b = 0; b < size; ++b) m_start[b + 1] += m_start[b];
    m_entries.resize(m_start[size]);
    std::vector<std::uint32_t> cursor(m_start.begin(), m_start.end() - 1);
    for (std::size_t i = 0; i < spheres.size(); ++i)
      if (bucketOf[i] != kNone) m_entries[cursor[bucketOf[i]]++] = {cells[i], std::uint32_t(i), spheres[i]};
  }

  /// Calls visit(i) once for every sphere i that comes within `gap` of the sphere `query`
  /// (gap + its radius + the largest sphere's radius at most the grid's range).
  template <class Visit>
  void forEachNear(glm::vec4 query, float gap, Visit&& visit) const {
    if (!isNear(query)) return;
    const glm::vec3 p(query);
    const glm::ivec3 center = kernels::selfContactCell(p, m_cellSize);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const glm::ivec3 cell = center + glm::ivec3(dx, dy, dz);
          const std::uint32_t bucket = kernels::selfContactCellHash(cell, m_tableSize);
          // Only the spheres of this very cell: other cells hashed to the entry are
          // visited (or not) as themselves, so no sphere is visited twice.
          for (std::uint32_t k = m_start[bucket]; k < m_start[bucket + 1]; ++k) {
            const Entry& entry = m_entries[k];
            const glm::vec3 d = glm::vec3(entry.sphere) - p;
            const float limit = gap + query.w + entry.sphere.w;
            if (entry.cell == cell && glm::dot(d, d) <= limit * limit) visit(entry.index);
          }
        }
  }

 private:
  static constexpr std::uint32_t kNone = ~0u;
  /// m: a sphere further out takes part in no pair (a run that far has blown up; its cells
  /// would pile up at the clamped grid coordinates).
  static constexpr float kFar = 1e6f;
  struct Entry {
    glm::ivec3 cell;
    std::uint32_t index;
    glm::vec4 sphere;
  };
  static bool isNear(glm::vec4 s) {
    return std::abs(s.x) < kFar && std::abs(s.y) < kFar && std::abs(s.z) < kFar && s.w >= 0.0f && s.w < kFar;
  }
  float m_cellSize;
  std::uint32_t m_tableSize = 1;
  std::vector<std::uint32_t> m_start;
  std::vector<Entry> m_entries;
};

/// Runs body(i, out) over [0, count) on `threads` threads in contiguous chunks, each
/// thread appending to its own list; returns the lists joined in index order.
template <class Body>
std::vector<glm::uvec2> collectInOrder(std::size_t count, int threads, Body&& body) {
  std::vector<std::vector<glm::uvec2>> lists(std::size_t(std::max(threads, 1)));
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<glm::uvec2>& out = lists[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(count); ++i) body(std::uint32_t(i), out);
  }
  std::vector<glm::uvec2> joined;
  for (const auto& list : lists) joined.insert(joined.end(), list.begin(), list.end());
  return joined;
}

}  // namespace

ContactTopology ContactTopology::of(std::vector<std::uint32_t> triangleVertices, std::size_t vertexCount) {
  ContactTopology topology;
  topology.triangles = std::move(triangleVertices);
  const std::size_t triangleCount = topology.triangles.size() / 3;
  constexpr std::uint32_t kNone = ~0u;
  topology.ownerOfVertex.assign(vertexCount, kNone);
  // Unique edges as (smaller, larger) vertex, numbered in that order; each triangle's three.
  std::vector<std::pair<glm::uvec2, std::uint32_t>> sides;  // edge, triangle * 3 + side
  sides.reserve(3 * triangleCount);
  for (std::uint32_t t = 0; t < triangleCount; ++t)
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t a = topology.triangles[3 * t + k], b = topology.triangles[3 * t + (k + 1) % 3];
      sides.push_back({glm::uvec2(std::min(a, b), std::max(a, b)), 3 * t + k});
      if (topology.ownerOfVertex[a] == kNone) topology.ownerOfVertex[a] = t;
    }
  std::sort(sides.begin(), sides.end(), [](const auto& p, const auto& q) {
    return p.first.x != q.first.x   ? p.first.x < q.first.x
           : p.first.y != q.first.y ? p.first.y < q.first.y
                                    : p.second < q.second;
  });
  topology.edgesOfTriangle.assign(triangleCount, glm::uvec3(0));
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (i == 0 || sides[i].first != sides[i - 1].first) {
      topology.edges.push_back(sides[i].first);
      topology.ownerOfEdge.push_back(sides[i].second / 3);  // the lowest triangle: sides sort by it
      topology.edgeTriangleStart.push_back(std::uint32_t(i));
    }
    topology.edgesOfTriangle[sides[i].second / 3][int(sides[i].second % 3)] = std::uint32_t(topology.edges.size() - 1);
    topology.edgeTriangles.push_back(sides[i].second / 3);
  }
  topology.edgeTriangleStart.push_back(std::uint32_t(sides.size()));
  return topology;
}

float SelfContactCandidates::skin(float radius, float speed) {
  const float wanted = 2.0f * kReuseSubsteps * speed;
  if (!(wanted <= kMaxSkin * radius)) return kMinSkin * radius;  // too fast (or not finite) to reuse
  return std::max(wanted, kMinSkin * radius);
}

bool SelfContactCandidates::update(const ContactTopology& mesh, std::span<const glm::vec4> x, float radius,
                                   float largestMove, int threads) {
  // A pair closer than `radius` now was closer than radius + 2 D at the build (D the
  // largest move since); the margin covers the rounding of the distances.
  const float margin = 1e-6f + 1e-5f * radius;
  const bool built = m_builtRadius >= 0.0f && m_builtAt.size() == x.size();
  const float moved = built ? largestMoveSinceBuild(x, threads) : INFINITY;
  ++m_substepsSinceBuild;
  if (built && radius + 2.0f * moved + margin <= m_builtRadius) return false;
  // The fastest vertex's speed, m per substep: over the lists' life, or (first build) the
  // substep's largest move.
  const float speed = built ? moved / float(m_substepsSinceBuild) : largestMove;
  build(mesh, x, radius + skin(radius, speed), threads);
  m_substepsSinceBuild = 0;
  return true;
}

float SelfContactCandidates::largestMoveSinceBuild(std::span<const glm::vec4> x, int threads) const {
  // The box of the displacements, then the largest distance of one from the box's centre c.
  const auto n = std::int64_t(x.size());
  const bool parallel = threads > 1 && n >= kParallelThreshold;
  float lowX = INFINITY, lowY = INFINITY, lowZ = INFINITY, highX = -INFINITY, highY = -INFINITY, highZ = -INFINITY;
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel) reduction(min                 \
                                                                                       : lowX, lowY, lowZ) \
    reduction(max                                                                                          \
              : highX, highY, highZ)
  for (std::int64_t i = 0; i < n; ++i) {
    const glm::vec3 d = glm::vec3(x[std::size_t(i)]) - m_builtAt[std::size_t(i)];
    lowX = std::min(lowX, d.x), lowY = std::min(lowY, d.y), lowZ = std::min(lowZ, d.z);
    highX = std::max(highX, d.x), highY = std::max(highY, d.y), highZ = std::max(highZ, d.z);
  }
  const glm::vec3 center = 0.5f * (glm::vec3(lowX, lowY, lowZ) + glm::vec3(highX, highY, highZ));
  if (!allFinite(center)) return INFINITY;
  float largest = 0.0f;
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel) reduction(max : largest)
  for (std::int64_t i = 0; i < n; ++i) {
    const float move = glm::length(glm::vec3(x[std::size_t(i)]) - m_builtAt[std::size_t(i)] - center);
    largest = std::max(largest, std::isfinite(move) ? move : INFINITY);
  }
  return largest;
}

namespace {

/// Each triangle as the sphere around its centroid through its furthest vertex, each edge
/// as the one around its midpoint through its ends (xyz centre, w radius; m), and the
/// largest radii of each kind.
struct BoundingSpheres {
  std::vector<glm::vec4> edges, triangles;
  float longestHalfEdge = 0.0f, largestTriangle = 0.0f;

  BoundingSpheres(const ContactTopology& mesh, std::span<const glm::vec4> x) {
    const auto at = [&](std::uint32_t v) { return glm::vec3(x[v]); };
    edges.resize(mesh.edges.size());
    for (std::size_t e = 0; e < mesh.edges.size(); ++e) {
      const glm::vec3 a = at(mesh.edges[e].x), b = at(mesh.edges[e].y);
      edges[e] = glm::vec4(0.5f * (a + b), 0.5f * glm::length(b - a));
      if (std::isfinite(edges[e].w)) longestHalfEdge = std::max(longestHalfEdge, edges[e].w);
    }
    triangles.resize(mesh.triangles.size() / 3);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      const std::uint32_t* v = mesh.triangles.data() + 3 * t;
      const glm::vec3 c = (at(v[0]) + at(v[1]) + at(v[2])) / 3.0f;
      triangles[t] =
          glm::vec4(c, std::max({glm::length(at(v[0]) - c), glm::length(at(v[1]) - c), glm::length(at(v[2]) - c)}));
      if (std::isfinite(triangles[t].w)) largestTriangle = std::max(largestTriangle, triangles[t].w);
    }
  }
  /// A gap that covers the rounding of the radii, m.
  float rounding() const { return 1e-6f + 1e-5f * std::max(largestTriangle, longestHalfEdge); }
};

}  // namespace

std::vector<glm::uvec2> SelfContactCandidates::tangleCandidates(const ContactTopology& mesh,
                                                                std::span<const glm::vec4> x, int threads) {
  const auto at = [&](std::uint32_t v) { return glm::vec3(x[v]); };
  const BoundingSpheres spheres(mesh, x);
  // An edge that meets a triangle has its sphere meet the triangle's (both hold the point).
  const float gap = spheres.rounding();
  const SphereGrid triangleGrid(spheres.triangles, gap + spheres.longestHalfEdge + spheres.largestTriangle);
  return collectInOrder(mesh.edges.size(), threads, [&](std::uint32_t e, std::vector<glm::uvec2>& out) {
    const glm::uvec2 edge = mesh.edges[e];
    if (!allFinite(glm::vec3(spheres.edges[e]))) return;
    thread_local std::vector<std::uint32_t> near;
    near.clear();
    triangleGrid.forEachNear(spheres.edges[e], gap, [&](std::uint32_t t) { near.push_back(t); });
    std::sort(near.begin(), near.end());  // in triangle order, whatever the table's
    for (std::uint32_t t : near) {
      const std::uint32_t* tri = mesh.triangles.data() + 3 * std::size_t(t);
      if (hasVertex(tri, edge.x) || hasVertex(tri, edge.y)) continue;
      if (kernels::segmentMayCrossTriangle(at(edge.x), at(edge.y), at(tri[0]), at(tri[1]), at(tri[2])))
        out.push_back({e, t});
    }
  });
}

void SelfContactCandidates::build(const ContactTopology& mesh, std::span<const glm::vec4> x, float reach, int threads) {
  const auto at = [&](std::uint32_t v) { return glm::vec3(x[v]); };
  // A pair closer than `reach` has bounding spheres closer than `reach` (grown a little
  // more than the rounding of their radii).
  const BoundingSpheres spheres(mesh, x);
  const std::vector<glm::vec4>& edgeSpheres = spheres.edges;
  const std::vector<glm::vec4>& triangleSpheres = spheres.triangles;
  const float longestHalfEdge = spheres.longestHalfEdge, largestTriangle = spheres.largestTriangle;
  const float gap = reach * (1.0f + 1e-5f) + spheres.rounding();

  // A vertex (radius 0) against triangles; an edge against edges.
  const SphereGrid triangleGrid(triangleSpheres, gap + largestTriangle);
  m_vertexTriangle = collectInOrder(x.size(), threads, [&](std::uint32_t v, std::vector<glm::uvec2>& out) {
    const glm::vec3 p = at(v);
    if (!allFinite(p)) return;
    triangleGrid.forEachNear(glm::vec4(p, 0.0f), gap, [&](std::uint32_t t) {
      const std::uint32_t* tri = mesh.triangles.data() + 3 * std::size_t(t);
      if (hasVertex(tri, v)) return;
      const glm::vec4 w = kernels::vertexTriangleWeights(p, at(tri[0]), at(tri[1]), at(tri[2]));
      if (glm::length(kernels::pairSeparation(w, p, at(tri[0]), at(tri[1]), at(tri[2]))) < reach) out.push_back({v, t});
    });
  });

  const SphereGrid edgeGrid(edgeSpheres, gap + 2.0f * longestHalfEdge);
  m_edgeEdge = collectInOrder(mesh.edges.size(), threads, [&](std::uint32_t e, std::vector<glm::uvec2>& out) {
    const glm::uvec2 a = mesh.edges[e];
    if (!allFinite(glm::vec3(edgeSpheres[e]))) return;
    edgeGrid.forEachNear(edgeSpheres[e], gap, [&](std::uint32_t f) {
      const glm::uvec2 b = mesh.edges[f];
      if (mesh.ownerOfEdge[e] >= mesh.ownerOfEdge[f] || shareVertex(a, b)) return;
      const glm::vec4 w = kernels::edgeEdgeWeights(at(a.x), at(a.y), at(b.x), at(b.y));
      if (glm::length(kernels::pairSeparation(w, at(a.x), at(a.y), at(b.x), at(b.y))) < reach) out.push_back({e, f});
    });
  });

  m_builtAt.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) m_builtAt[i] = at(std::uint32_t(i));
  m_builtRadius = reach;
  ++m_builds;
}

}  // namespace hg
