#include "sim/skinning/ParticleSkinning.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>

#include "sim/geometry/Obb.h"

namespace hg {

namespace {

/// A uniform grid over points: cell index -> points, CSR (counting sort, ascending
/// point index inside a cell, so every query visits points in a fixed order).
struct PointGrid {
  glm::vec3 origin{0.0f};
  float cell = 1.0f;
  glm::ivec3 dims{1};
  std::vector<std::uint32_t> cellStart;  ///< cells + 1
  std::vector<std::uint32_t> items;

  glm::ivec3 cellOf(glm::vec3 p) const {
    return glm::clamp(glm::ivec3(glm::floor((p - origin) / cell)), glm::ivec3(0), dims - 1);
  }
  std::size_t flat(glm::ivec3 c) const {
    return (std::size_t(c.z) * std::size_t(dims.y) + std::size_t(c.y)) * std::size_t(dims.x) + std::size_t(c.x);
  }

  PointGrid(std::span<const glm::vec4> points, float cellSize) : cell(cellSize) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec4& p : points) {
      lo = glm::min(lo, glm::vec3(p));
      hi = glm::max(hi, glm::vec3(p));
    }
    origin = lo;
    dims = glm::max(glm::ivec3(glm::floor((hi - lo) / cell)) + 1, glm::ivec3(1));
    cellStart.assign(std::size_t(dims.x) * std::size_t(dims.y) * std::size_t(dims.z) + 1, 0);
    for (const glm::vec4& p : points) ++cellStart[flat(cellOf(glm::vec3(p))) + 1];
    for (std::size_t c = 1; c < cellStart.size(); ++c) cellStart[c] += cellStart[c - 1];
    items.resize(points.size());
    std::vector<std::uint32_t> fill(cellStart.begin(), cellStart.end() - 1);
    for (std::size_t i = 0; i < points.size(); ++i)
      items[fill[flat(cellOf(glm::vec3(points[i])))]++] = std::uint32_t(i);
  }
};

/// A bone's proxies in the rest pose: a segment (a, b) and an OBB.
struct BoneProxy {
  bool used = false;  ///< the joint influences some vertex
  glm::vec3 a{0.0f}, b{0.0f};
  Obb box;  ///< section 7's proxy
};

float segmentDistance(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
  const glm::vec3 ab = b - a;
  const float ll = glm::dot(ab, ab);
  const float t = ll > 0.0f ? glm::clamp(glm::dot(p - a, ab) / ll, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

/// Bone proxies from the rest skeleton and the skin: a joint's segment runs to its
/// children (one segment per child; the first is kept as `b`, the others are tested
/// through `extraSegments`), a leaf's along its parent direction to the farthest
/// vertex it dominates; the OBB is the box of those vertices in the joint's frame.
std::vector<BoneProxy> boneProxies(const SkinnedMesh& body, std::vector<std::vector<glm::vec3>>& childEnds) {
  const Skeleton& skeleton = body.skeleton;
  const std::size_t joints = skeleton.size();
  std::vector<glm::mat4> rest(joints);
  for (std::size_t j = 0; j < joints; ++j) rest[j] = glm::inverse(skeleton.inverseBind[j]);
  std::vector<BoneProxy> proxies(joints);
  childEnds.assign(joints, {});
  std::vector<std::vector<glm::vec3>> dominated(joints);
  for (std::size_t v = 0; v < body.skin.size(); ++v) {
    const glm::uvec4 ids = body.skin.joints[v];
    const glm::vec4 w = body.skin.weights[v];
    int best = 0;
    for (int k = 1; k < 4; ++k)
      if (w[k] > w[best]) best = k;
    dominated[ids[best]].push_back(body.mesh.positions[v]);
    for (int k = 0; k < 4; ++k)
      if (w[k] > 0.0f) proxies[ids[k]].used = true;
  }
  for (std::size_t j = 0; j < joints; ++j) {
    const int parent = skeleton.joints[j].parent;
    if (parent >= 0) childEnds[std::size_t(parent)].push_back(glm::vec3(rest[j][3]));
  }
  for (std::size_t j = 0; j < joints; ++j) {
    BoneProxy& proxy = proxies[j];
    proxy.a = glm::vec3(rest[j][3]);
    if (!childEnds[j].empty()) {
      proxy.b = childEnds[j][0];
    } else {
      const int parent = skeleton.joints[j].parent;
      glm::vec3 direction = parent >= 0 ? proxy.a - glm::vec3(rest[std::size_t(parent)][3]) : glm::vec3(rest[j][0]);
      const float len = glm::length(direction);
      direction = len > 0.0f ? direction / len : glm::vec3(1.0f, 0.0f, 0.0f);
      float reach = 0.0f;
      for (const glm::vec3& x : dominated[j]) reach = std::max(reach, glm::dot(x - proxy.a, direction));
      proxy.b = proxy.a + reach * direction;
    }
    // OBB in the joint's rest frame (its normalised axes), fitted to the vertices the
    // joint dominates (sim/geometry/Obb.h); it moves with the bone.
    std::array<glm::vec3, 3> axes{};
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 axis(rest[j][k]);
      const float len = glm::length(axis);
      axes[std::size_t(k)] = len > 0.0f ? axis / len : glm::vec3(k == 0, k == 1, k == 2);
    }
    proxy.box = fitObbInFrame(dominated[j], axes, proxy.a);
  }
  return proxies;
}

/// The bone of a particle at rest position x: the used joint whose proxy is nearest;
/// ties (e.g. inside two overlapping OBBs) go to the nearer segment, then the lower
/// index.
std::uint32_t nearestBone(glm::vec3 x, const std::vector<BoneProxy>& proxies,
                          const std::vector<std::vector<glm::vec3>>& childEnds, BoneAssignment assignment) {
  std::uint32_t best = 0;
  float bestPrimary = std::numeric_limits<float>::max(), bestSegment = std::numeric_limits<float>::max();
  for (std::size_t j = 0; j < proxies.size(); ++j) {
    const BoneProxy& proxy = proxies[j];
    if (!proxy.used) continue;
    float segment = segmentDistance(x, proxy.a, proxy.b);
    for (std::size_t c = 1; c < childEnds[j].size(); ++c)
      segment = std::min(segment, segmentDistance(x, proxy.a, childEnds[j][c]));
    const float primary = assignment == BoneAssignment::Obb ? proxy.box.distance(x) : segment;
    if (primary < bestPrimary || (primary == bestPrimary && segment < bestSegment)) {
      best = std::uint32_t(j);
      bestPrimary = primary;
      bestSegment = segment;
    }
  }
  return best;
}

/// The four nearest particles of p (by distance, then index) through the grid:
/// rings of cells of growing Chebyshev radius until four are found and the ring lies
/// beyond the fourth distance.
std::array<std::pair<float, std::uint32_t>, 4> fourNearest(glm::vec3 p, std::span<const glm::vec4> particles,
                                                           const PointGrid& grid) {
  std::array<std::pair<float, std::uint32_t>, 4> best;
  best.fill({std::numeric_limits<float>::max(), std::numeric_limits<std::uint32_t>::max()});
  const glm::ivec3 centre = grid.cellOf(p);
  const int maxRing = std::max({grid.dims.x, grid.dims.y, grid.dims.z});
  for (int ring = 0; ring <= maxRing; ++ring) {
    for (int z = centre.z - ring; z <= centre.z + ring; ++z)
      for (int y = centre.y - ring; y <= centre.y + ring; ++y)
        for (int x = centre.x - ring; x <= centre.x + ring; ++x) {
          if (std::max({std::abs(x - centre.x), std::abs(y - centre.y), std::abs(z - centre.z)}) != ring) continue;
          if (x < 0 || y < 0 || z < 0 || x >= grid.dims.x || y >= grid.dims.y || z >= grid.dims.z) continue;
          const std::size_t c = grid.flat({x, y, z});
          for (std::uint32_t k = grid.cellStart[c]; k < grid.cellStart[c + 1]; ++k) {
            const std::uint32_t i = grid.items[k];
            const std::pair<float, std::uint32_t> candidate{glm::length(glm::vec3(particles[i]) - p), i};
            if (candidate < best[3]) {
              best[3] = candidate;
              std::sort(best.begin(), best.end());
            }
          }
        }
    // Every point outside the rings searched is farther than ring * cell from p.
    if (best[3].second != std::numeric_limits<std::uint32_t>::max() && best[3].first <= float(ring) * grid.cell) break;
  }
  return best;
}

/// The particles' rest records: position, bone (section 4 c; section 7's distance for the
/// OBB proxies) and mass (the cube of the radius over the finest radius).
void assignBones(ParticleSkinModel& model) {
  const ParticleSkinSettings& settings = model.settings;
  const std::vector<glm::vec4>& centres = model.fill.particles;
  const std::size_t n = centres.size();
  const float finest = model.finestRadius;
  std::vector<std::vector<glm::vec3>> childEnds;
  const std::vector<BoneProxy> proxies = boneProxies(*model.body, childEnds);
  model.particles.resize(n);
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    kernels::ParticleRest& rest = model.particles[i];
    rest.position = centres[i];
    rest.bone = glm::uvec4(nearestBone(glm::vec3(centres[i]), proxies, childEnds, settings.boneAssignment), 0, 0, 0);
    const float relative = centres[i].w / finest;
    const float mass = relative * relative * relative;
    rest.mass = glm::vec4(mass, 1.0f / mass, 1.0f, 0.0f);
  }
}

/// A particle's skin from its four nearest surface vertices (see attachToSkin).
void skinParticle(kernels::ParticleRest& rest, const std::array<std::pair<float, std::uint32_t>, 4>& nearest,
                  const SkinnedMesh& body, const ParticleSkinSettings& settings) {
  const float w0 = settings.attachmentThreshold;
  // Up to 16 (joint, weight) pairs, merged by joint in a fixed order (deterministic).
  std::array<std::pair<std::uint32_t, float>, 16> skin{};
  int used = 0;
  for (const auto& [distance, v] : nearest)
    for (int k = 0; k < 4; ++k) {
      const float w = 0.25f * body.skin.weights[v][k];
      if (!(w > 0.0f)) continue;
      const std::uint32_t joint = body.skin.joints[v][k];
      int slot = 0;
      while (slot < used && skin[std::size_t(slot)].first != joint) ++slot;
      if (slot == used) skin[std::size_t(used++)] = {joint, 0.0f};
      skin[std::size_t(slot)].second += w;
    }
  std::stable_sort(skin.begin(), skin.begin() + used, [](const auto& x, const auto& y) { return x.second > y.second; });
  float sum = 0.0f;
  for (int k = 0; k < std::min(used, 4); ++k) sum += skin[std::size_t(k)].second;
  rest.joints = glm::uvec4(rest.bone.x, rest.bone.x, rest.bone.x, rest.bone.x);
  rest.weights = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  if (sum > 0.0f)
    for (int k = 0; k < 4; ++k) {
      rest.joints[k] = k < used ? skin[std::size_t(k)].first : skin[0].first;
      rest.weights[k] = k < used ? skin[std::size_t(k)].second / sum : 0.0f;
    }
  if (settings.attachment == BoneAttachment::SkinWeights) {
    float w = 0.0f;
    for (int k = 0; k < used; ++k)
      if (skin[std::size_t(k)].first == rest.bone.x) w = skin[std::size_t(k)].second;
    rest.mass.z = glm::clamp((w - w0) / (1.0f - w0), 0.0f, 1.0f);
  }
}

/// The skin at each particle, from its four nearest surface vertices: the attachment
/// (see particleBoneAcceleration) from the skin weight w of the particle's bone averaged
/// over them, a = clamp((w - w0) / (1 - w0), 0, 1) with w0 = attachmentThreshold; and
/// the averaged weights of all their joints, the four heaviest kept and renormalised
/// (BoneTarget::DualQuaternion).
void attachToSkin(ParticleSkinModel& model) {
  const SkinnedMesh& body = *model.body;
  const std::vector<glm::vec4>& centres = model.fill.particles;
  const std::size_t n = centres.size();
  std::vector<glm::vec4> surface(body.mesh.positions.size());
  float longest = 0.0f;
  for (std::size_t v = 0; v < surface.size(); ++v) surface[v] = glm::vec4(body.mesh.positions[v], 1.0f);
  for (std::size_t t = 0; t + 2 < body.mesh.indices.size(); t += 3)
    for (int k = 0; k < 3; ++k)
      longest = std::max(longest, glm::length(body.mesh.positions[body.mesh.indices[t + std::size_t(k)]] -
                                              body.mesh.positions[body.mesh.indices[t + std::size_t((k + 1) % 3)]]));
  const PointGrid vertexGrid(surface, std::max(longest, 2.0f * model.finestRadius));
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    const auto nearest = fourNearest(glm::vec3(centres[i]), surface, vertexGrid);
    skinParticle(model.particles[i], nearest, body, model.settings);
  }
}

/// Links (section 4 a, b): the interacting pairs of the initial packing with their rest
/// lengths and spring coefficients.
void linkParticles(ParticleSkinModel& model) {
  const ParticleSkinSettings& settings = model.settings;
  const std::vector<glm::vec4>& centres = model.fill.particles;
  const std::size_t n = centres.size();
  std::vector<std::uint32_t> neighbours;
  findInteractingPairs(centres, settings.interactionGap, model.linkOffsets, neighbours);
  model.links.resize(neighbours.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t k = model.linkOffsets[i]; k < model.linkOffsets[i + 1]; ++k) {
      const std::uint32_t j = neighbours[k];
      const glm::vec2 coefficients = kernels::particleLinkCoefficients(
          centres[i].w, centres[j].w, model.finestRadius, settings.springStiffness, settings.springDamping);
      kernels::ParticleLink& link = model.links[k];
      link.neighbour = j;
      link.restLength = glm::length(glm::vec3(centres[j]) - glm::vec3(centres[i]));
      link.stiffness = coefficients.x;
      link.damping = coefficients.y;
    }
}

/// Vertex bindings (section 4, "Back to the surface"): each vertex's four nearest
/// particles, its offsets from them and their weights.
void bindVertices(ParticleSkinModel& model) {
  const ParticleSkinSettings& settings = model.settings;
  const std::vector<glm::vec4>& centres = model.fill.particles;
  const std::vector<glm::vec3>& vertices = model.body->mesh.positions;
  const PointGrid grid(
      centres, 2.0f * model.finestRadius * std::pow(settings.fill.radiusRatio, float(settings.fill.levels - 1)));
  model.bindings.resize(vertices.size());
#pragma omp parallel for schedule(static) if (vertices.size() >= 2048)
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const auto nearest = fourNearest(vertices[v], centres, grid);
    kernels::VertexBinding& binding = model.bindings[v];
    glm::vec4 weights(0.25f);
    if (settings.surfaceWeights == SurfaceWeights::InverseDistance) {
      for (int k = 0; k < 4; ++k) weights[k] = 1.0f / (nearest[k].first + 0.1f * centres[nearest[k].second].w);
      weights /= weights.x + weights.y + weights.z + weights.w;
    }
    binding.weights = weights;
    glm::vec4* offsets[4] = {&binding.offset0, &binding.offset1, &binding.offset2, &binding.offset3};
    for (int k = 0; k < 4; ++k) {
      binding.particles[k] = nearest[k].second;
      *offsets[k] = glm::vec4(vertices[v] - glm::vec3(centres[nearest[k].second]), 0.0f);
    }
  }
}

}  // namespace

void findInteractingPairs(std::span<const glm::vec4> particles, float interactionGap,
                          std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& neighbours) {
  const std::size_t n = particles.size();
  offsets.assign(n + 1, 0);
  neighbours.clear();
  if (n == 0) return;
  float largestRadius = 0.0f;
  for (const glm::vec4& p : particles) largestRadius = std::max(largestRadius, p.w);
  // Largest range: two largest particles, gap interactionGap * r.
  const float cell = (2.0f + interactionGap) * largestRadius;
  const PointGrid grid(particles, cell);
  std::vector<std::vector<std::uint32_t>> lists(n);
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 xi(particles[i]);
    const glm::ivec3 c = grid.cellOf(xi);
    for (int z = std::max(c.z - 1, 0); z <= std::min(c.z + 1, grid.dims.z - 1); ++z)
      for (int y = std::max(c.y - 1, 0); y <= std::min(c.y + 1, grid.dims.y - 1); ++y)
        for (int x = std::max(c.x - 1, 0); x <= std::min(c.x + 1, grid.dims.x - 1); ++x) {
          const std::size_t f = grid.flat({x, y, z});
          for (std::uint32_t k = grid.cellStart[f]; k < grid.cellStart[f + 1]; ++k) {
            const std::uint32_t j = grid.items[k];
            if (j == i) continue;
            if (kernels::particlesInteract(particles[i], particles[j], interactionGap)) lists[i].push_back(j);
          }
        }
    std::sort(lists[i].begin(), lists[i].end());
  }
  for (std::size_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + std::uint32_t(lists[i].size());
  neighbours.reserve(offsets[n]);
  for (const auto& list : lists) neighbours.insert(neighbours.end(), list.begin(), list.end());
}

Result<std::shared_ptr<const ParticleSkinModel>> buildParticleSkinModel(std::shared_ptr<const SkinnedMesh> body,
                                                                        const ParticleSkinSettings& settings) {
  if (!body) return Error{"particle skinning: no body mesh"};
  if (Status valid = body->validate(); !valid) return valid.error().prefixed("particle skinning: ");
  if (Status valid = settings.validate(); !valid) return valid.error();
  Result<ParticleFill> fill = fillWithParticles(body->mesh, settings.fill);
  if (!fill) return fill.error().prefixed("particle skinning: ");
  if (fill->size() < 4)
    return Error{"particle skinning: only " + std::to_string(fill->size()) +
                 " particles fit in the mesh (at least 4 are needed: lower particles.radius)"};

  auto model = std::make_shared<ParticleSkinModel>();
  model->body = body;
  model->settings = settings;
  model->fill = std::move(*fill);
  float finest = std::numeric_limits<float>::max();
  for (const glm::vec4& p : model->fill.particles) finest = std::min(finest, p.w);
  model->finestRadius = finest;

  assignBones(*model);
  attachToSkin(*model);
  linkParticles(*model);
  bindVertices(*model);
  return std::shared_ptr<const ParticleSkinModel>(std::move(model));
}

}  // namespace hg
