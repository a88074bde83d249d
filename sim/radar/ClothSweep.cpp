#include "sim/radar/ClothSweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <glm/geometric.hpp>
#include <glm/vector_relational.hpp>

namespace hg {
namespace {

void boundingBox(std::span<const glm::vec3> points, glm::vec3& lo, glm::vec3& hi) {
  lo = glm::vec3(std::numeric_limits<float>::max());
  hi = glm::vec3(std::numeric_limits<float>::lowest());
  for (const glm::vec3& p : points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
}

/// Triangle adjacency through shared edges, CSR: neighbours of t in
/// neighbours[offsets[t] .. offsets[t + 1]), ascending.
struct TriangleAdjacency {
  std::vector<std::uint32_t> offsets, neighbours;
};

TriangleAdjacency triangleAdjacency(std::span<const std::uint32_t> triangles) {
  const std::size_t count = triangles.size() / 3;
  struct EdgeUse {
    std::uint64_t key;
    std::uint32_t triangle;
  };
  std::vector<EdgeUse> uses;
  uses.reserve(triangles.size());
  for (std::size_t t = 0; t < count; ++t)
    for (int c = 0; c < 3; ++c) {
      std::uint32_t a = triangles[3 * t + std::size_t(c)], b = triangles[3 * t + std::size_t((c + 1) % 3)];
      if (a > b) std::swap(a, b);
      uses.push_back({(std::uint64_t(a) << 32) | b, std::uint32_t(t)});
    }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& x, const EdgeUse& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });
  std::vector<std::vector<std::uint32_t>> lists(count);
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i;
    while (j < uses.size() && uses[j].key == uses[i].key) ++j;
    for (std::size_t a = i; a < j; ++a)
      for (std::size_t b = i; b < j; ++b)
        if (uses[a].triangle != uses[b].triangle) lists[uses[a].triangle].push_back(uses[b].triangle);
    i = j;
  }
  TriangleAdjacency adjacency;
  adjacency.offsets.push_back(0);
  for (auto& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    adjacency.neighbours.insert(adjacency.neighbours.end(), list.begin(), list.end());
    adjacency.offsets.push_back(std::uint32_t(adjacency.neighbours.size()));
  }
  return adjacency;
}

}  // namespace

Status ClothSweepSettings::validate() const {
  if (patchTriangles < 1 || patchTriangles > 1024) return Error{"patch_triangles must be in 1..1024"};
  if (image < 2 || image > HG_RADAR_MAX_IMAGE)
    return Error{"image must be in 2.." + std::to_string(HG_RADAR_MAX_IMAGE) + " pixels"};
  if (!(clearance >= 0.0f && clearance <= 0.1f)) return Error{"clearance must be in [0, 0.1] m"};
  if (sweepsPerFrame < 1 || sweepsPerFrame > kMaxSweepsPerFrame)
    return Error{"sweeps_per_frame must be in 1.." + std::to_string(kMaxSweepsPerFrame)};
  return Status::success();
}

Result<ClothPatches> partitionClothPatches(std::span<const std::uint32_t> triangles, std::size_t vertexCount,
                                           int targetTriangles) {
  if (triangles.size() % 3 != 0) return Error{"cloth patches: the index count is not a multiple of 3"};
  if (targetTriangles < 1) return Error{"cloth patches: the target size must be >= 1 triangle"};
  for (std::uint32_t index : triangles)
    if (index >= vertexCount)
      return Error{"cloth patches: index " + std::to_string(index) + " is out of range (" +
                   std::to_string(vertexCount) + " vertices)"};
  const std::size_t count = triangles.size() / 3;
  const TriangleAdjacency adjacency = triangleAdjacency(triangles);
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> patchOf(count, kNone);
  std::vector<std::vector<std::uint32_t>> members;
  // Greedy breadth-first growth from the first unassigned triangle.
  std::vector<std::uint32_t> queue;
  for (std::size_t seed = 0; seed < count; ++seed) {
    if (patchOf[seed] != kNone) continue;
    const auto p = std::uint32_t(members.size());
    std::vector<std::uint32_t>& patch = members.emplace_back();
    queue.assign(1, std::uint32_t(seed));
    patchOf[seed] = p;
    patch.push_back(std::uint32_t(seed));
    for (std::size_t head = 0; head < queue.size() && int(patch.size()) < targetTriangles; ++head) {
      const std::uint32_t t = queue[head];
      for (std::uint32_t k = adjacency.offsets[t]; k < adjacency.offsets[t + 1]; ++k) {
        const std::uint32_t n = adjacency.neighbours[k];
        if (patchOf[n] != kNone || int(patch.size()) >= targetTriangles) continue;
        patchOf[n] = p;
        patch.push_back(n);
        queue.push_back(n);
      }
    }
  }
  // Patches under half the target join their smallest neighbouring patch.
  const std::size_t half = std::size_t(targetTriangles + 1) / 2;
  for (std::size_t p = 0; p < members.size(); ++p) {
    if (members[p].empty() || members[p].size() >= half) continue;
    std::uint32_t best = kNone;
    for (std::uint32_t t : members[p])
      for (std::uint32_t k = adjacency.offsets[t]; k < adjacency.offsets[t + 1]; ++k) {
        const std::uint32_t q = patchOf[adjacency.neighbours[k]];
        if (q == std::uint32_t(p)) continue;
        if (best == kNone || members[q].size() < members[best].size() ||
            (members[q].size() == members[best].size() && q < best))
          best = q;
      }
    if (best == kNone) continue;  // a small component on its own
    for (std::uint32_t t : members[p]) patchOf[t] = best;
    members[best].insert(members[best].end(), members[p].begin(), members[p].end());
    members[p].clear();
  }
  ClothPatches patches;
  std::vector<std::uint32_t> vertices;
  for (std::vector<std::uint32_t>& patch : members) {
    if (patch.empty()) continue;
    std::sort(patch.begin(), patch.end());
    patches.triangles.insert(patches.triangles.end(), patch.begin(), patch.end());
    patches.triangleOffsets.push_back(std::uint32_t(patches.triangles.size()));
    vertices.clear();
    for (std::uint32_t t : patch)
      for (int c = 0; c < 3; ++c) vertices.push_back(triangles[3 * std::size_t(t) + std::size_t(c)]);
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    patches.vertices.insert(patches.vertices.end(), vertices.begin(), vertices.end());
    patches.vertexOffsets.push_back(std::uint32_t(patches.vertices.size()));
  }
  return patches;
}

Result<std::shared_ptr<ClothSweep>> ClothSweep::create(std::span<const std::uint32_t> clothTriangles,
                                                       std::size_t clothVertexCount, const TriangleMesh& body,
                                                       const ClothSweepSettings& settings,
                                                       std::unique_ptr<RadarBackend> radar) {
  if (Status s = settings.validate(); !s) return s.error();
  if (body.triangleCount() == 0) return Error{"cloth sweep: the body has no triangles"};
  auto patches = partitionClothPatches(clothTriangles, clothVertexCount, settings.patchTriangles);
  if (!patches) return patches.error();
  std::shared_ptr<ClothSweep> sweep(new ClothSweep());
  sweep->m_settings = settings;
  sweep->m_patches = std::move(patches).value();
  sweep->m_clothVertexCount = clothVertexCount;
  sweep->m_radar = radar ? std::move(radar) : makeCpuRadar();
  if (Status s = sweep->m_scene.add(kBodyObject, body); !s) return s.error().prefixed("cloth sweep: body: ");
  TriangleMesh cloth;
  cloth.positions.assign(clothVertexCount, glm::vec3(0.0f));
  cloth.indices.assign(clothTriangles.begin(), clothTriangles.end());
  if (Status s = sweep->m_scene.add(kClothObject, cloth); !s) return s.error().prefixed("cloth sweep: cloth: ");
  boundingBox(body.positions, sweep->m_bodyMin, sweep->m_bodyMax);
  sweep->m_report.patches = sweep->m_totals.patches = sweep->m_patches.size();
  return sweep;
}

Status ClothSweep::setBodyPositions(std::span<const glm::vec3> positions) {
  if (Status s = m_scene.setPositions(kBodyObject, positions); !s) return s.error().prefixed("cloth sweep: body: ");
  boundingBox(positions, m_bodyMin, m_bodyMax);
  return Status::success();
}

void ClothSweep::setRadar(std::unique_ptr<RadarBackend> radar) {
  if (radar) m_radar = std::move(radar);
}

Status ClothSweep::resolve(const ClothState& before, ClothState& after, float dt, bool& changed) {
  const auto start = std::chrono::steady_clock::now();
  changed = false;
  m_report = ClothSweepReport{};
  m_report.patches = m_patches.size();
  const std::size_t n = m_clothVertexCount;
  if (!(dt > 0.0f)) return Error{"cloth sweep: the step must be > 0 s"};
  if (before.positions.size() != n || after.positions.size() != n || after.velocities.size() != n)
    return Error{"cloth sweep: the states have " + std::to_string(before.positions.size()) + " and " +
                 std::to_string(after.positions.size()) + " vertices, the cloth " + std::to_string(n)};
  m_start.resize(n);
  for (std::size_t i = 0; i < n; ++i) m_start[i] = glm::vec3(before.positions[i]);
  if (Status s = m_scene.setPositions(kClothObject, m_start); !s) return s.error().prefixed("cloth sweep: ");

  buildSweepQueries(after);
  m_report.swept = m_queries.size();
  if (!m_queries.empty()) {
    m_vertexT.assign(n, 1.0f);
    m_vertexNormal.assign(n, glm::vec3(0.0f));
    if (Status s = sweepPatches(); !s) return s;
    clampVertices(after, dt);
    changed = m_report.clampedVertices > 0;
  }
  m_report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  addReportToTotals();
  return Status::success();
}

void ClothSweep::buildSweepQueries(const ClothState& after) {
  // One collision radar per moving patch whose swept box meets the body's box (grown by
  // the clearance): the patch at x0 moving by its largest travel s along its mean motion u.
  const float c = m_settings.clearance;
  const glm::vec3 bodyMin = m_bodyMin - glm::vec3(c), bodyMax = m_bodyMax + glm::vec3(c);
  m_queries.clear();
  m_queryPatch.clear();
  std::vector<glm::vec3> points;
  for (std::size_t p = 0; p < m_patches.size(); ++p) {
    const auto vertices = m_patches.verticesOf(p);
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest()), sum(0.0f);
    for (std::uint32_t v : vertices) {
      const glm::vec3 x0 = m_start[v], x1 = glm::vec3(after.positions[v]);
      lo = glm::min(lo, glm::min(x0, x1));
      hi = glm::max(hi, glm::max(x0, x1));
      sum += x1 - x0;
    }
    if (glm::any(glm::lessThan(hi, bodyMin)) || glm::any(glm::greaterThan(lo, bodyMax))) continue;
    const glm::vec3 mean = sum / float(vertices.size());
    const float meanLength = glm::length(mean);
    if (!(meanLength > 1e-6f)) continue;  // at rest (m per step)
    const glm::vec3 u = mean / meanLength;
    float s = 0.0f;
    points.clear();
    for (std::uint32_t v : vertices) {
      const glm::vec3 d = glm::vec3(after.positions[v]) - m_start[v];
      const float along = glm::dot(d, u);
      s = std::max(s, along);
      points.push_back(m_start[v]);
    }
    // The volume fits the patch's cross-section plus a pixel: L exists only where the mask
    // (the cloth at x0) is, so a wider volume would only add other cloth at a coarser pixel.
    auto query = makeSweepQuery(kClothObject, points, s * u, glm::vec3(0.0f, 1.0f, 0.0f), 0.0f);
    if (!query) continue;  // a degenerate motion: nothing to sweep
    query->probe.width *= 1.0f + 2.0f / float(m_settings.image);
    query->probe.height *= 1.0f + 2.0f / float(m_settings.image);
    m_queries.push_back(*query);
    m_queryPatch.push_back(std::uint32_t(p));
  }
}

void ClothSweep::stopPatch(std::uint32_t p, const RadarHit& hit, const RadarQuery& query, float s) {
  const float c = m_settings.clearance;
  const glm::vec3 u = glm::normalize(query.probe.direction);
  const glm::vec3 normal = hit.contactNormal;
  // The clearance is kept along the normal: along the motion it is c / cos.
  const float cosine = std::max(std::abs(glm::dot(u, normal)), 0.2f);
  const float t = std::clamp((hit.minKey - c / cosine) / s, 0.0f, 1.0f);
  ++m_report.hits;
  m_report.earliestImpact = std::min(m_report.earliestImpact, t);
  for (std::uint32_t v : m_patches.verticesOf(p))
    if (t < m_vertexT[v]) {
      m_vertexT[v] = t;
      m_vertexNormal[v] = normal;
    }
}

Status ClothSweep::sweepPatches() {
  const float c = m_settings.clearance;
  const RadarImageSize size{m_settings.image, m_settings.image};
  auto hits = m_radar->run(m_scene, m_queries, size);
  if (!hits) return hits.error().prefixed("cloth sweep (" + std::string(m_radar->name()) + " radar): ");
  queueRetries(*hits);
  if (!m_retries.empty()) {
    auto retried = m_radar->run(m_scene, m_retries, size);
    if (!retried) return retried.error().prefixed("cloth sweep (" + std::string(m_radar->name()) + " radar): ");
    for (std::size_t k = 0; k < retried->size(); ++k) {
      const RadarHit& hit = (*retried)[k];
      if (!(hit.minKey <= m_retryTravel[k])) continue;  // no cloth in front of the body within reach
      if (hit.minKey < -c) {
        ++m_report.overlapping;
        continue;
      }
      stopPatch(m_retryPatch[k], hit, m_retries[k], m_retryTravel[k]);
    }
  }
  return Status::success();
}

void ClothSweep::queueRetries(std::span<const RadarHit> hits) {
  // Second pass for the patches whose volume holds cloth beyond the body (min L < -c: the
  // cloth wraps a thin part, e.g. the two sides of a sheet hanging over a bar meet below
  // it): the mask takes the cloth nearest the far face, so the volume is cut at the
  // body's nearest point (min R + c) to see only the cloth in front of it.
  const float c = m_settings.clearance;
  m_retries.clear();
  m_retryPatch.clear();
  m_retryTravel.clear();
  for (std::size_t k = 0; k < hits.size(); ++k) {
    const RadarHit& hit = hits[k];
    const RadarQuery& query = m_queries[k];
    if (!hit.collides) continue;
    if (hit.minKey >= -c) {
      stopPatch(m_queryPatch[k], hit, query, query.moveDistance);
      continue;
    }
    const float cut = hit.minRange + c;
    if (!(cut > c) || !(cut < query.probe.depth)) {  // the body at the patch's rear: overlapping
      ++m_report.overlapping;
      continue;
    }
    RadarQuery retry = query;
    retry.probe.depth = cut;
    retry.moveDistance = std::min(query.moveDistance, cut);
    m_retries.push_back(retry);
    m_retryPatch.push_back(m_queryPatch[k]);
    m_retryTravel.push_back(query.moveDistance);
  }
  m_report.retried = m_retries.size();
}

void ClothSweep::clampVertices(ClothState& after, float dt) {
  for (std::size_t v = 0; v < m_clothVertexCount; ++v) {
    if (!(m_vertexT[v] < 1.0f) || !(after.positions[v].w > 0.0f)) continue;  // free, or pinned
    const glm::vec3 x0 = m_start[v], x1 = glm::vec3(after.positions[v]);
    if (glm::dot(x1 - x0, m_vertexNormal[v]) >= 0.0f) continue;  // moving away from the body: free
    const glm::vec3 x = x0 + m_vertexT[v] * (x1 - x0);
    after.positions[v] = glm::vec4(x, after.positions[v].w);
    // The velocity of the motion it made (the solver's end velocity would keep pushing a
    // vertex that is held back step after step), less its part into the body.
    glm::vec3 velocity = (x - x0) / dt;
    const float into = glm::dot(velocity, m_vertexNormal[v]);
    if (into < 0.0f) velocity -= into * m_vertexNormal[v];
    after.velocities[v] = glm::vec4(velocity, after.velocities[v].w);
    ++m_report.clampedVertices;
  }
}

void ClothSweep::addReportToTotals() {
  m_totals.swept += m_report.swept;
  m_totals.hits += m_report.hits;
  m_totals.overlapping += m_report.overlapping;
  m_totals.retried += m_report.retried;
  m_totals.clampedVertices += m_report.clampedVertices;
  m_totals.earliestImpact = std::min(m_totals.earliestImpact, m_report.earliestImpact);
  m_totals.seconds += m_report.seconds;
}

}  // namespace hg
