#include "sim/cloth/SelfContact.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "sim/cloth/ClothModel.h"
#include "sim/geometry/TriangleIntersections.h"

namespace hg {
namespace {

glm::vec3 at(std::span<const glm::vec4> x, std::uint32_t v) { return glm::vec3(x[v]); }

/// Whether the boxes of segments ab and cd, grown by `radius`, overlap: a cheap test
/// before the closest points (a pair further apart than the radius is dropped anyway).
bool segmentBoxesNear(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, float radius) {
  const glm::vec3 lo1 = glm::min(a, b) - radius, hi1 = glm::max(a, b) + radius;
  return glm::all(glm::lessThanEqual(lo1, glm::max(c, d))) && glm::all(glm::lessThanEqual(glm::min(c, d), hi1));
}

}  // namespace

SelfContact::SelfContact(const ClothModel& model, const SelfContactSettings& settings)
    : m_settings(settings), m_topology(ContactTopology::of(model.triangles, model.vertexCount())) {
  m_nearest.resize(model.vertexCount());
  m_corrections.resize(model.vertexCount());
  m_tangled.assign(model.vertexCount(), 0);
  if (!m_settings.layerOfVertex.empty() && m_settings.layerOfVertex.size() != model.vertexCount())
    m_settings.layerOfVertex.clear();  // not this model's: one layer
}

void SelfContact::beginFrame(std::span<const glm::vec4> x, int threads) {
  beginFrame(x, SelfContactCandidates::tangleCandidates(m_topology, x, threads));
}

void SelfContact::beginFrame(std::span<const glm::vec4> x, std::span<const glm::uvec2> edgeTriangleCandidates) {
  std::vector<std::array<std::uint32_t, 2>> trianglePairs;
  trianglePairs.reserve(2 * edgeTriangleCandidates.size());
  for (const glm::uvec2& c : edgeTriangleCandidates) {
    assert(c.x + 1 < m_topology.edgeTriangleStart.size());
    for (std::uint32_t k = m_topology.edgeTriangleStart[c.x]; k < m_topology.edgeTriangleStart[c.x + 1]; ++k)
      trianglePairs.push_back({m_topology.edgeTriangles[k], c.y});
  }
  m_tangles = intersectingTrianglePairsAmong(x, m_topology.triangles, trianglePairs);
  markTangles();
}

void SelfContact::markTangles() {
  std::fill(m_tangled.begin(), m_tangled.end(), std::uint8_t(0));
  for (const auto& pair : m_tangles) {
    const auto flag =
        std::uint8_t(layerOf(pair[0]) != layerOf(pair[1]) ? HG_TANGLED_ACROSS_LAYERS : HG_TANGLED_WITHIN_LAYER);
    for (std::uint32_t t : pair)
      for (int k = 0; k < 3; ++k) {
        std::uint8_t& tangled = m_tangled[m_topology.triangles[3 * std::size_t(t) + std::size_t(k)]];
        tangled = std::max(tangled, flag);
      }
  }
  if (m_report.frames == 0) m_report.firstFramePairs = m_tangles.size();
  m_report.lastFramePairs = m_tangles.size();
  if (m_tangles.empty() && m_report.untangledAtFrame < 0) m_report.untangledAtFrame = m_report.frames;
  ++m_report.frames;
}

glm::vec3 SelfContact::triangleNormal(std::span<const glm::vec4> x, std::uint32_t triangle) const {
  const std::uint32_t* t = m_topology.triangles.data() + 3 * std::size_t(triangle);
  const glm::vec3 n = glm::cross(at(x, t[1]) - at(x, t[0]), at(x, t[2]) - at(x, t[0]));
  return glm::length(n) > 0.0f ? n : glm::vec3(0.0f, 1.0f, 0.0f);
}

glm::vec3 SelfContact::centroid(std::span<const glm::vec4> x, std::uint32_t triangle) const {
  const std::uint32_t* t = m_topology.triangles.data() + 3 * std::size_t(triangle);
  return (at(x, t[0]) + at(x, t[1]) + at(x, t[2])) / 3.0f;
}

std::uint32_t SelfContact::layerOfVertex(std::uint32_t v) const {
  return m_settings.layerOfVertex.empty() ? 0u : m_settings.layerOfVertex[v];
}

std::uint32_t SelfContact::layerOf(std::uint32_t triangle) const {
  return layerOfVertex(m_topology.triangles[3 * std::size_t(triangle)]);
}

void SelfContact::pushTangledApart(std::span<const glm::vec4> start, std::span<glm::vec4> positions) {
  std::fill(m_corrections.begin(), m_corrections.end(), glm::vec4(0.0f));
  auto pushTriangle = [&](std::uint32_t triangle, glm::vec3 direction) {
    for (int k = 0; k < 3; ++k)
      m_corrections[m_topology.triangles[3 * std::size_t(triangle) + std::size_t(k)]] += glm::vec4(direction, 1.0f);
  };
  for (const auto& [a, b] : m_tangles) {
    if (layerOf(a) != layerOf(b)) {
      // The outer layer goes out along the inner one's normal.
      const std::uint32_t inner = layerOf(a) < layerOf(b) ? a : b, outer = inner == a ? b : a;
      pushTriangle(outer, glm::normalize(triangleNormal(start, inner)));
      continue;
    }
    // One layer: each triangle goes to the side of the other where most of it already is.
    const glm::vec3 n = glm::normalize(triangleNormal(start, a));
    const float side = glm::dot(centroid(start, b) - centroid(start, a), n) >= 0.0f ? 1.0f : -1.0f;
    pushTriangle(b, side * n);
    pushTriangle(a, -side * n);
  }
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const float length = glm::length(glm::vec3(m_corrections[i]));
    if (m_corrections[i].w > 0.0f && length > 0.0f && positions[i].w > 0.0f)
      positions[i] += glm::vec4(glm::vec3(m_corrections[i]) * (m_settings.thickness / length), 0.0f);
  }
}

inline bool SelfContact::testPair(std::span<const glm::vec4> x, glm::uvec4 vertices, glm::vec4 weights,
                                  float queryRadius, std::span<float> nearest, Pair& pair) const {
  const glm::vec3 separation =
      kernels::pairSeparation(weights, at(x, vertices.x), at(x, vertices.y), at(x, vertices.z), at(x, vertices.w));
  const float distance = glm::length(separation);
  if (!(distance < queryRadius)) return false;
  const glm::uvec4 flags(m_tangled[vertices.x], m_tangled[vertices.y], m_tangled[vertices.z], m_tangled[vertices.w]);
  // Vertex x is on one side of the pair, w on the other (a garment is one layer).
  const bool acrossLayers = layerOfVertex(vertices.x) != layerOfVertex(vertices.w);
  for (int k = 0; k < 4; ++k)
    if (kernels::pairBoundsVertex(flags[k], acrossLayers))
      nearest[vertices[k]] = std::min(nearest[vertices[k]], distance);
  if (!(distance - 2.0f * m_largestMove < m_settings.thickness)) return false;  // not even at the fastest
  float reach = 0.0f;  // how much the substep can have shortened the pair: 2 x its largest move
  for (int k = 0; k < 4; ++k) reach = std::max(reach, 2.0f * m_moves[vertices[k]]);
  if (!(distance > 0.0f && distance - reach < m_settings.thickness && !kernels::pairUntangles(flags, acrossLayers)))
    return false;
  pair = {vertices, weights, separation, separation / distance};
  return true;
}

inline bool SelfContact::testVertexTriangle(std::span<const glm::vec4> x, std::uint32_t v, std::uint32_t triangle,
                                            float queryRadius, std::span<float> nearest, Pair& pair) const {
  const std::uint32_t* t = m_topology.triangles.data() + 3 * std::size_t(triangle);
  const glm::vec3 p = at(x, v);
  const glm::vec3 lo = glm::min(glm::min(at(x, t[0]), at(x, t[1])), at(x, t[2])) - queryRadius;
  const glm::vec3 hi = glm::max(glm::max(at(x, t[0]), at(x, t[1])), at(x, t[2])) + queryRadius;
  if (!glm::all(glm::lessThanEqual(lo, p)) || !glm::all(glm::lessThanEqual(p, hi))) return false;
  const glm::uvec4 vertices(v, t[0], t[1], t[2]);
  return testPair(x, vertices, kernels::vertexTriangleWeights(p, at(x, t[0]), at(x, t[1]), at(x, t[2])), queryRadius,
                  nearest, pair);
}

inline bool SelfContact::testEdgeEdge(std::span<const glm::vec4> x, std::uint32_t e, std::uint32_t f, float queryRadius,
                                      std::span<float> nearest, Pair& pair) const {
  const glm::uvec2 a = m_topology.edges[e], b = m_topology.edges[f];
  if (!segmentBoxesNear(at(x, a.x), at(x, a.y), at(x, b.x), at(x, b.y), queryRadius)) return false;
  const glm::uvec4 vertices(a.x, a.y, b.x, b.y);
  return testPair(x, vertices, kernels::edgeEdgeWeights(at(x, a.x), at(x, a.y), at(x, b.x), at(x, b.y)), queryRadius,
                  nearest, pair);
}

SelfContact::PairOrder SelfContact::vertexTriangleOrder(std::uint32_t v, std::uint32_t triangle) const {
  const std::uint32_t owner = m_topology.ownerOfVertex[v];
  const std::uint32_t* t = m_topology.triangles.data() + 3 * std::size_t(owner);
  const std::uint32_t k = t[0] == v ? 0u : t[1] == v ? 1u : 2u;
  const std::uint32_t a = std::min(owner, triangle), b = std::max(owner, triangle);
  return {std::uint64_t(a) << 32 | b, 2 * k + (owner == a ? 0u : 1u)};
}

SelfContact::PairOrder SelfContact::edgeEdgeOrder(std::uint32_t e, std::uint32_t f) const {
  const std::uint32_t a = m_topology.ownerOfEdge[e], b = m_topology.ownerOfEdge[f];  // a < b: the candidates' rule
  const glm::uvec3 ea = m_topology.edgesOfTriangle[a], eb = m_topology.edgesOfTriangle[b];
  const std::uint32_t i = ea[0] == e ? 0u : ea[1] == e ? 1u : 2u, j = eb[0] == f ? 0u : eb[1] == f ? 1u : 2u;
  return {std::uint64_t(a) << 32 | b, 6 + 3 * i + j};
}

void SelfContact::findPairs(std::span<const glm::vec4> start, float queryRadius, int threads) {
  m_candidates.update(m_topology, start, queryRadius, m_largestMove, threads);
  const auto vertexTriangle = m_candidates.vertexTriangle();
  const auto edgeEdge = m_candidates.edgeEdge();
  const std::size_t n = m_nearest.size();
  const bool parallel =
      threads > 1 && std::int64_t(vertexTriangle.size() + edgeEdge.size()) >= SelfContactCandidates::kParallelThreshold;
  const std::size_t teamSize = parallel ? std::size_t(threads) : 1;
  m_threadNearest.resize(teamSize);
  m_threadPairs.resize(teamSize);
  int team = 1;
#pragma omp parallel num_threads(threads) if (parallel)
  {
    const auto thread = std::size_t(omp_get_thread_num());
#pragma omp single
    team = omp_get_num_threads();
    std::vector<float>& nearest = m_threadNearest[thread];
    std::vector<OrderedPair>& found = m_threadPairs[thread];
    nearest.assign(n, queryRadius);
    found.clear();
    Pair pair;
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < std::int64_t(vertexTriangle.size()); ++i) {
      const glm::uvec2 c = vertexTriangle[std::size_t(i)];
      if (testVertexTriangle(start, c.x, c.y, queryRadius, nearest, pair))
        found.push_back({vertexTriangleOrder(c.x, c.y), pair});
    }
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(edgeEdge.size()); ++i) {
      const glm::uvec2 c = edgeEdge[std::size_t(i)];
      if (testEdgeEdge(start, c.x, c.y, queryRadius, nearest, pair)) found.push_back({edgeEdgeOrder(c.x, c.y), pair});
    }
  }
  // The nearest distance is a minimum and the pairs are put in the order of their
  // triangle pairs (that of the CGAL broad phase before): nothing depends on the threads.
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
    float nearest = m_threadNearest[0][std::size_t(i)];
    for (int t = 1; t < team; ++t) nearest = std::min(nearest, m_threadNearest[std::size_t(t)][std::size_t(i)]);
    m_nearest[std::size_t(i)] = nearest;
  }
  // Sorted as (triangle pair, rank << 56 | thread << 32 | index in the thread's list)
  // keys (a pair's place is unique, so the thread never decides it), then gathered.
  m_orderKeys.clear();
  for (int t = 0; t < team; ++t) {
    const std::vector<OrderedPair>& found = m_threadPairs[std::size_t(t)];
    for (std::size_t i = 0; i < found.size(); ++i)
      m_orderKeys.push_back(
          {found[i].order.trianglePair, std::uint64_t(found[i].order.rank) << 56 | std::uint64_t(t) << 32 | i});
  }
  std::sort(m_orderKeys.begin(), m_orderKeys.end());
  m_pairs.resize(m_orderKeys.size());
  for (std::size_t i = 0; i < m_orderKeys.size(); ++i) {
    const std::uint64_t where = m_orderKeys[i].second;
    m_pairs[i] = m_threadPairs[std::size_t((where >> 32) & 0xffffff)][std::uint32_t(where)].pair;
  }
}

std::size_t SelfContact::separate(std::span<glm::vec4> positions) {
  std::size_t separated = 0;
  for (int pass = 0; pass < m_settings.iterations; ++pass) {
    std::fill(m_corrections.begin(), m_corrections.end(), glm::vec4(0.0f));
    std::size_t active = 0;
    for (const Pair& p : m_pairs) {
      const glm::uvec4 v = p.vertices;
      const std::span<const glm::vec4> x(positions.data(), positions.size());
      const glm::vec3 now = kernels::pairSeparation(p.weights, at(x, v.x), at(x, v.y), at(x, v.z), at(x, v.w));
      const glm::vec4 inverseMass(x[v.x].w, x[v.y].w, x[v.z].w, x[v.w].w);
      const glm::vec3 direction =
          kernels::pairCorrection(p.weights, inverseMass, p.normal, glm::dot(p.normal, now), now - p.startSeparation,
                                  m_settings.thickness, m_settings.friction);
      if (direction == glm::vec3(0.0f)) continue;
      ++active;
      for (int k = 0; k < 4; ++k)
        if (inverseMass[k] > 0.0f) m_corrections[v[k]] += glm::vec4(inverseMass[k] * p.weights[k] * direction, 1.0f);
    }
    if (pass == 0) separated = active;
    if (active == 0) break;
    for (std::size_t i = 0; i < positions.size(); ++i)
      if (m_corrections[i].w > 0.0f) positions[i] += glm::vec4(glm::vec3(m_corrections[i]) / m_corrections[i].w, 0.0f);
  }
  return separated;
}

float SelfContact::queryRadius() {
  // The exact 99th percentile of the moves (the GPU backend rounds it up to its histogram
  // bucket's upper edge: kernels/self_contact.glslh queryRadiusOfBucket).
  if (m_moves.empty()) return 2.0f * m_settings.thickness;
  m_sortedMoves = m_moves;
  const auto at = m_sortedMoves.begin() + std::ptrdiff_t(kernels::queryMoveRank(std::uint32_t(m_moves.size())));
  std::nth_element(m_sortedMoves.begin(), at, m_sortedMoves.end());
  return kernels::queryRadiusOfMove(*at, m_settings.thickness);
}

SelfContactStep SelfContact::apply(std::span<const glm::vec4> start, std::span<glm::vec4> positions,
                                   std::span<glm::vec4> velocities, float dt, int threads) {
  assert(start.size() == positions.size() && velocities.size() == positions.size());
  const auto n = std::int64_t(positions.size());
  const bool parallel = threads > 1 && n >= SelfContactCandidates::kParallelThreshold;
  m_moves.resize(positions.size());
  float largestMove = 0.0f;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : largestMove) if (parallel)
  for (std::int64_t i = 0; i < n; ++i) {
    m_moves[i] = glm::length(glm::vec3(positions[i] - start[i]));
    largestMove = std::max(largestMove, std::isfinite(m_moves[i]) ? m_moves[i] : INFINITY);
  }
  m_largestMove = largestMove;
  SelfContactStep step;
  step.queryRadius = queryRadius();
  findPairs(start, step.queryRadius, threads);
  step.pairs = m_pairs.size();
  // The push that untangles moves positions only: it is not a velocity.
  if (!m_tangles.empty()) pushTangledApart(start, positions);
  m_before.assign(positions.begin(), positions.end());
  const std::vector<glm::vec4>& before = m_before;
  step.separated = separate(positions);
  std::size_t truncatedCount = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : truncatedCount) if (parallel)
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(positions[i].w > 0.0f) ||
        kernels::untanglesFree(m_tangled[i], m_nearest[i], step.queryRadius)) {  // pinned (kinematic) or untangling
      velocities[i] += glm::vec4((glm::vec3(positions[i]) - glm::vec3(before[i])) / dt, 0.0f);
      continue;
    }
    const float bound = kernels::displacementBound(m_nearest[i], step.queryRadius);
    const glm::vec3 truncated = kernels::truncatedPosition(glm::vec3(start[i]), glm::vec3(positions[i]), bound);
    if (truncated != glm::vec3(positions[i])) ++truncatedCount;
    positions[i] = glm::vec4(truncated, positions[i].w);
    velocities[i] += glm::vec4((truncated - glm::vec3(before[i])) / dt, 0.0f);
  }
  step.truncated = truncatedCount;
  return step;
}

}  // namespace hg
