#include "sim/skinning/ParticleSkinning.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_access.hpp>
#include <glm/mat3x3.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/Obb.h"

namespace hg {

namespace {

template <class Enum, std::size_t N>
Result<Enum> parseNamed(std::string_view name, const std::array<std::pair<std::string_view, Enum>, N>& table,
                        std::string_view what) {
  std::string known;
  for (const auto& [text, value] : table) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(text);
  }
  return Error{"unknown " + std::string(what) + " '" + std::string(name) + "' (known: " + known + ")"};
}

constexpr std::array<std::pair<std::string_view, ParticleIntegrator>, 3> kIntegrators{{
    {"improved_euler", ParticleIntegrator::ImprovedEuler},
    {"adams", ParticleIntegrator::Adams},
    {"leapfrog", ParticleIntegrator::Leapfrog},
}};
constexpr std::array<std::pair<std::string_view, BoneAssignment>, 2> kAssignments{{
    {"segment", BoneAssignment::Segment},
    {"obb", BoneAssignment::Obb},
}};
constexpr std::array<std::pair<std::string_view, BoneTarget>, 2> kTargets{{
    {"bone", BoneTarget::Bone},
    {"dual_quaternion", BoneTarget::DualQuaternion},
}};
constexpr std::array<std::pair<std::string_view, BoneAttachment>, 2> kAttachments{{
    {"uniform", BoneAttachment::Uniform},
    {"skin_weights", BoneAttachment::SkinWeights},
}};
constexpr std::array<std::pair<std::string_view, SurfaceFrame>, 2> kFrames{{
    {"bone", SurfaceFrame::Bone},
    {"local", SurfaceFrame::Local},
}};
constexpr std::array<std::pair<std::string_view, SurfaceWeights>, 2> kWeights{{
    {"average", SurfaceWeights::Average},
    {"inverse_distance", SurfaceWeights::InverseDistance},
}};

template <class Enum, std::size_t N>
std::string_view nameOf(Enum value, const std::array<std::pair<std::string_view, Enum>, N>& table) {
  for (const auto& [text, v] : table)
    if (v == value) return text;
  return "?";
}

bool finitePositive(float x) { return std::isfinite(x) && x > 0.0f; }
bool finiteNonNegative(float x) { return std::isfinite(x) && x >= 0.0f; }

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

}  // namespace

std::string_view particleIntegratorName(ParticleIntegrator integrator) { return nameOf(integrator, kIntegrators); }
Result<ParticleIntegrator> parseParticleIntegrator(std::string_view name) {
  return parseNamed(name, kIntegrators, "integrator");
}
std::string_view boneAssignmentName(BoneAssignment assignment) { return nameOf(assignment, kAssignments); }
Result<BoneAssignment> parseBoneAssignment(std::string_view name) {
  return parseNamed(name, kAssignments, "bone assignment");
}
std::string_view boneAttachmentName(BoneAttachment attachment) { return nameOf(attachment, kAttachments); }
Result<BoneAttachment> parseBoneAttachment(std::string_view name) {
  return parseNamed(name, kAttachments, "bone attachment");
}
std::string_view boneTargetName(BoneTarget target) { return nameOf(target, kTargets); }
Result<BoneTarget> parseBoneTarget(std::string_view name) { return parseNamed(name, kTargets, "bone target"); }
std::string_view surfaceFrameName(SurfaceFrame frame) { return nameOf(frame, kFrames); }
Result<SurfaceFrame> parseSurfaceFrame(std::string_view name) { return parseNamed(name, kFrames, "surface frame"); }
std::string_view surfaceWeightsName(SurfaceWeights weights) { return nameOf(weights, kWeights); }
Result<SurfaceWeights> parseSurfaceWeights(std::string_view name) {
  return parseNamed(name, kWeights, "surface weights");
}

Status ParticleSkinSettings::validate() const {
  const auto bad = [](const std::string& what) { return Status(Error{"particle skinning: " + what}); };
  if (!finitePositive(fill.radius)) return bad("particles.radius must be > 0 (m)");
  if (fill.levels < 1 || fill.levels > 8) return bad("particles.levels must be 1..8");
  if (!std::isfinite(fill.radiusRatio) || fill.radiusRatio < 1.5f) return bad("particles.radius_ratio must be >= 1.5");
  if (!finiteNonNegative(fill.surfaceMargin)) return bad("particles.surface_margin must be >= 0");
  if (!finitePositive(interactionGap)) return bad("interaction_gap must be > 0 (times the smaller radius)");
  if (!finitePositive(springStiffness)) return bad("spring_stiffness must be > 0 (1/s^2)");
  if (!finiteNonNegative(springDamping)) return bad("spring_damping must be >= 0 (1/s)");
  if (!finitePositive(boneStiffness)) return bad("bone_stiffness must be > 0 (1/s^2)");
  if (!finiteNonNegative(boneDamping)) return bad("bone_damping must be >= 0 (1/s)");
  if (!std::isfinite(attachmentThreshold) || attachmentThreshold < 0.0f || attachmentThreshold >= 1.0f)
    return bad("attachment_threshold must be in [0, 1)");
  if (iterations < 0 || iterations > 100) return bad("iterations must be 0..100 (the source's cap)");
  if (iterations > 0 && integrator == ParticleIntegrator::ImprovedEuler)
    return bad("iterations apply to adams and leapfrog only (improved_euler has a fixed corrector)");
  if (!finitePositive(timeStep)) return bad("time_step must be > 0 (s)");
  return Status::success();
}

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
    const float ri = particles[i].w;
    const glm::ivec3 c = grid.cellOf(xi);
    for (int z = std::max(c.z - 1, 0); z <= std::min(c.z + 1, grid.dims.z - 1); ++z)
      for (int y = std::max(c.y - 1, 0); y <= std::min(c.y + 1, grid.dims.y - 1); ++y)
        for (int x = std::max(c.x - 1, 0); x <= std::min(c.x + 1, grid.dims.x - 1); ++x) {
          const std::size_t f = grid.flat({x, y, z});
          for (std::uint32_t k = grid.cellStart[f]; k < grid.cellStart[f + 1]; ++k) {
            const std::uint32_t j = grid.items[k];
            if (j == i) continue;
            const float rj = particles[j].w;
            const float gap = glm::length(glm::vec3(particles[j]) - xi) - ri - rj;
            if (gap < interactionGap * std::min(ri, rj)) lists[i].push_back(j);
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
  const std::vector<glm::vec4>& centres = model->fill.particles;
  const std::size_t n = centres.size();
  float finest = std::numeric_limits<float>::max();
  for (const glm::vec4& p : centres) finest = std::min(finest, p.w);
  model->finestRadius = finest;

  // Bones (section 4 c; section 7's distance for the OBB proxies).
  std::vector<std::vector<glm::vec3>> childEnds;
  const std::vector<BoneProxy> proxies = boneProxies(*body, childEnds);
  model->particles.resize(n);
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    kernels::ParticleRest& rest = model->particles[i];
    rest.position = centres[i];
    rest.bone = glm::uvec4(nearestBone(glm::vec3(centres[i]), proxies, childEnds, settings.boneAssignment), 0, 0, 0);
    const float relative = centres[i].w / finest;
    const float mass = relative * relative * relative;
    rest.mass = glm::vec4(mass, 1.0f / mass, 1.0f, 0.0f);
  }

  // The skin at each particle, from its four nearest surface vertices: the attachment
  // (see particleBoneAcceleration) from the skin weight w of the particle's bone averaged
  // over them, a = clamp((w - w0) / (1 - w0), 0, 1) with w0 = attachmentThreshold; and
  // the averaged weights of all their joints, the four heaviest kept and renormalised
  // (BoneTarget::DualQuaternion).
  {
    std::vector<glm::vec4> surface(body->mesh.positions.size());
    float longest = 0.0f;
    for (std::size_t v = 0; v < surface.size(); ++v) surface[v] = glm::vec4(body->mesh.positions[v], 1.0f);
    for (std::size_t t = 0; t + 2 < body->mesh.indices.size(); t += 3)
      for (int k = 0; k < 3; ++k)
        longest =
            std::max(longest, glm::length(body->mesh.positions[body->mesh.indices[t + std::size_t(k)]] -
                                          body->mesh.positions[body->mesh.indices[t + std::size_t((k + 1) % 3)]]));
    const PointGrid vertexGrid(surface, std::max(longest, 2.0f * finest));
    const float w0 = settings.attachmentThreshold;
#pragma omp parallel for schedule(static) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      const auto nearest = fourNearest(glm::vec3(centres[i]), surface, vertexGrid);
      kernels::ParticleRest& rest = model->particles[i];
      // Up to 16 (joint, weight) pairs, merged by joint in a fixed order (deterministic).
      std::array<std::pair<std::uint32_t, float>, 16> skin{};
      int used = 0;
      for (const auto& [distance, v] : nearest)
        for (int k = 0; k < 4; ++k) {
          const float w = 0.25f * body->skin.weights[v][k];
          if (!(w > 0.0f)) continue;
          const std::uint32_t joint = body->skin.joints[v][k];
          int slot = 0;
          while (slot < used && skin[std::size_t(slot)].first != joint) ++slot;
          if (slot == used) skin[std::size_t(used++)] = {joint, 0.0f};
          skin[std::size_t(slot)].second += w;
        }
      std::stable_sort(skin.begin(), skin.begin() + used,
                       [](const auto& x, const auto& y) { return x.second > y.second; });
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
  }

  // Links (section 4 a, b): the interacting pairs of the initial packing.
  std::vector<std::uint32_t> neighbours;
  findInteractingPairs(centres, settings.interactionGap, model->linkOffsets, neighbours);
  model->links.resize(neighbours.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t k = model->linkOffsets[i]; k < model->linkOffsets[i + 1]; ++k) {
      const std::uint32_t j = neighbours[k];
      const glm::vec2 coefficients = kernels::particleLinkCoefficients(
          centres[i].w, centres[j].w, finest, settings.springStiffness, settings.springDamping);
      kernels::ParticleLink& link = model->links[k];
      link.neighbour = j;
      link.restLength = glm::length(glm::vec3(centres[j]) - glm::vec3(centres[i]));
      link.stiffness = coefficients.x;
      link.damping = coefficients.y;
    }

  // Vertex bindings (section 4, "Back to the surface"): the four nearest particles.
  const std::vector<glm::vec3>& vertices = body->mesh.positions;
  const PointGrid grid(centres, 2.0f * finest * std::pow(settings.fill.radiusRatio, float(settings.fill.levels - 1)));
  model->bindings.resize(vertices.size());
#pragma omp parallel for schedule(static) if (vertices.size() >= 2048)
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const auto nearest = fourNearest(vertices[v], centres, grid);
    kernels::VertexBinding& binding = model->bindings[v];
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
  return std::shared_ptr<const ParticleSkinModel>(std::move(model));
}

ParticleTargets particleTargets(const ParticleSkinModel& model, std::span<const glm::mat4> skinningMatrices) {
  ParticleTargets targets;
  std::vector<kernels::DualQuaternion> joints(skinningMatrices.size());
  targets.boneRotations.resize(skinningMatrices.size());
  for (std::size_t j = 0; j < skinningMatrices.size(); ++j) {
    joints[j] = kernels::rigidDualQuaternion(skinningMatrices[j]);
    targets.boneRotations[j] = joints[j].real;
  }
  const std::size_t n = model.particleCount();
  targets.positions.resize(n);
  if (model.settings.boneTarget == BoneTarget::Bone) {
#pragma omp parallel for schedule(static) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      const kernels::ParticleRest& rest = model.particles[i];
      targets.positions[i] = skinningMatrices[rest.bone.x] * glm::vec4(glm::vec3(rest.position), 1.0f);
    }
    return targets;
  }
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    const kernels::ParticleRest& rest = model.particles[i];
    const kernels::DualQuaternion q = kernels::blendDualQuaternions(
        joints[rest.joints.x], joints[rest.joints.y], joints[rest.joints.z], joints[rest.joints.w], rest.weights);
    targets.positions[i] = glm::vec4(kernels::dualQuaternionTransformPoint(q, glm::vec3(rest.position)), 1.0f);
  }
  return targets;
}

std::vector<glm::vec4> surfaceNormals(std::span<const glm::vec4> positions, std::span<const std::uint32_t> indices) {
  std::vector<glm::vec3> sums(positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const std::uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const glm::vec3 n = glm::cross(glm::vec3(positions[b] - positions[a]), glm::vec3(positions[c] - positions[a]));
    sums[a] += n;
    sums[b] += n;
    sums[c] += n;
  }
  std::vector<glm::vec4> normals(positions.size());
  for (std::size_t v = 0; v < sums.size(); ++v) {
    const float len = glm::length(sums[v]);
    normals[v] = glm::vec4(len > 0.0f ? sums[v] / len : glm::vec3(0.0f), 0.0f);
  }
  return normals;
}

Result<int> ParticleSkinner::settle(const Pose& pose, float speedTolerance, int maxSteps, int checkEvery) {
  if (!(speedTolerance > 0.0f) || maxSteps < 0 || checkEvery < 1)
    return Error{"particle skinning: settle needs speedTolerance > 0, maxSteps >= 0, checkEvery >= 1"};
  int steps = 0;
  while (steps < maxSteps) {
    const int chunk = std::min(checkEvery, maxSteps - steps);
    if (Status advanced = advance(pose, chunk); !advanced) return advanced.error();
    steps += chunk;
    float fastest = 0.0f;
    for (const glm::vec4& v : readParticles().velocities) fastest = std::max(fastest, glm::length(glm::vec3(v)));
    if (fastest < speedTolerance) return steps;
  }
  return maxSteps + 1;
}

// ---- CPU backend ------------------------------------------------------------------------

namespace {

class CpuParticleSkinner final : public ParticleSkinner {
 public:
  CpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model, int threads)
      : ParticleSkinner(std::move(model)), m_threads(threads > 0 ? threads : omp_get_max_threads()) {
    reset();
  }

  Backend backend() const override { return Backend::Cpu; }

  void reset() override {
    const ParticleSkinModel& model = *m_model;
    const std::size_t n = model.particleCount();
    m_x.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_x[i] = glm::vec3(model.particles[i].position);
    m_v.assign(n, glm::vec3(0.0f));
    m_a.assign(n, glm::vec3(0.0f));
    m_halfVelocity.assign(n, glm::vec3(0.0f));
    m_vPrevious.assign(n, glm::vec3(0.0f));
    m_aPrevious.assign(n, glm::vec3(0.0f));
    m_rotations.assign(n, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    m_target = m_x;
    m_targetVelocity.assign(n, glm::vec3(0.0f));
    m_boneRotations.assign(model.body->skeleton.size(), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    m_started = false;
    m_haveHistory = false;
    m_accelerationValid = false;
    m_steps = 0;
  }

  Status advance(const Pose& pose, int steps) override {
    const ParticleSkinModel& model = *m_model;
    const Skeleton& skeleton = model.body->skeleton;
    if (pose.size() != skeleton.size())
      return Error{"particle skinning: pose has " + std::to_string(pose.size()) + " joints, the skeleton " +
                   std::to_string(skeleton.size())};
    if (steps < 0) return Error{"particle skinning: negative step count"};
    const std::vector<glm::mat4> matrices = skinningMatrices(skeleton, pose);
    for (std::size_t j = 0; j < matrices.size(); ++j)
      for (int c = 0; c < 4; ++c)
        if (!allFinite(matrices[j][c]))
          return Error{"particle skinning: pose gives a non-finite matrix for joint '" + skeleton.joints[j].name + "'"};
    ParticleTargets targets = particleTargets(model, matrices);
    const float frameTime = float(std::max(steps, 1)) * model.settings.timeStep;
    for (std::size_t i = 0; i < m_x.size(); ++i) {
      const glm::vec3 t(targets.positions[i]);
      m_targetVelocity[i] = (t - m_target[i]) / frameTime;
      m_target[i] = t;
    }
    m_boneRotations = std::move(targets.boneRotations);
    m_accelerationValid = false;  // the targets changed
    for (int s = 0; s < steps; ++s) step();
    m_steps += steps;
    // Divergence: a non-finite state or a particle far from its target.
    const float limit = 10.0f * diagonal();
    for (std::size_t i = 0; i < m_x.size(); ++i)
      if (!allFinite(m_x[i]) || !allFinite(m_v[i]) || glm::length(m_x[i] - m_target[i]) > limit)
        return simulationError("particle skinning diverged at step " + std::to_string(m_steps) + " (particle " +
                               std::to_string(i) + "): lower time_step (now " +
                               std::to_string(model.settings.timeStep) + " s) or the stiffnesses");
    // A new pose sets a new target velocity; a held pose then has none.
    std::fill(m_targetVelocity.begin(), m_targetVelocity.end(), glm::vec3(0.0f));
    return Status::success();
  }

  ParticleState readParticles() const override {
    ParticleState state;
    const std::size_t n = m_x.size();
    state.positions.resize(n);
    state.velocities.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      state.positions[i] = glm::vec4(m_x[i], m_model->particles[i].position.w);
      state.velocities[i] = glm::vec4(m_v[i], 0.0f);
    }
    state.rotations = m_rotations;
    return state;
  }

  Result<SkinnedSurface> surface() override {
    const ParticleSkinModel& model = *m_model;
    const std::size_t n = m_x.size();
    const bool local = model.settings.surfaceFrame == SurfaceFrame::Local;
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      if (!local) {
        m_rotations[i] = m_boneRotations[model.particles[i].bone.x];
        continue;
      }
      glm::mat3 a(0.0f);
      const glm::vec3 restI(model.particles[i].position);
      for (std::uint32_t k = model.linkOffsets[i]; k < model.linkOffsets[i + 1]; ++k) {
        const std::uint32_t j = model.links[k].neighbour;
        a += glm::outerProduct(m_x[j] - m_x[i], glm::vec3(model.particles[j].position) - restI);
      }
      m_rotations[i] = kernels::extractRotation(a, m_rotations[i], kRotationIterations);
    }
    const std::vector<kernels::VertexBinding>& bindings = model.bindings;
    SkinnedSurface out;
    out.positions.resize(bindings.size());
#pragma omp parallel for schedule(static) num_threads(m_threads) if (bindings.size() >= 2048)
    for (std::size_t v = 0; v < bindings.size(); ++v) {
      const kernels::VertexBinding& b = bindings[v];
      const glm::vec4 offsets[4] = {b.offset0, b.offset1, b.offset2, b.offset3};
      glm::vec3 p(0.0f);
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t i = b.particles[k];
        p += b.weights[k] * kernels::surfaceVote(m_x[i], m_rotations[i], glm::vec3(offsets[k]));
      }
      out.positions[v] = glm::vec4(p, 1.0f);
    }
    out.normals = surfaceNormals(out.positions, model.body->mesh.indices);
    return out;
  }

  /// Iterations of the rotation extraction per surface() (warm-started).
  static constexpr int kRotationIterations = 32;

 private:
  float diagonal() const {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec3& x : m_model->body->mesh.positions) {
      lo = glm::min(lo, x);
      hi = glm::max(hi, x);
    }
    return glm::length(hi - lo);
  }

  /// a = f(x, v) for every particle: the link forces (a, b) over the mass plus the
  /// bone terms (c, d). Gathers over the CSR links in a fixed order.
  void evaluate(const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& v, std::vector<glm::vec3>& a) const {
    const ParticleSkinModel& model = *m_model;
    const ParticleSkinSettings& settings = model.settings;
    const std::size_t n = x.size();
    a.resize(n);
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      glm::vec3 force(0.0f);
      for (std::uint32_t k = model.linkOffsets[i]; k < model.linkOffsets[i + 1]; ++k) {
        const kernels::ParticleLink& link = model.links[k];
        force += kernels::particlePairForce(x[i], v[i], x[link.neighbour], v[link.neighbour], link);
      }
      a[i] = force * model.particles[i].mass.y +
             kernels::particleBoneAcceleration(x[i], v[i], m_target[i], m_targetVelocity[i], settings.boneStiffness,
                                               settings.boneDamping, model.particles[i].mass.z);
    }
  }

  template <class F>
  void forEachParticle(F&& f) {
    const std::size_t n = m_x.size();
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) f(i);
  }

  void step() {
    const ParticleSkinSettings& settings = m_model->settings;
    const float dt = settings.timeStep;
    switch (settings.integrator) {
      case ParticleIntegrator::ImprovedEuler:
        heunStep(dt);
        break;
      case ParticleIntegrator::Adams: {
        if (!m_haveHistory) {  // the start: one Heun step, keeping (v0, a0) as history
          heunStep(dt);
          m_haveHistory = true;
          break;
        }
        if (!m_accelerationValid) evaluate(m_x, m_v, m_a);
        m_x0 = m_x;
        m_v0 = m_v;
        m_xs = m_x;
        m_vs = m_v;
        forEachParticle([&](std::size_t i) {
          kernels::adamsPredict(m_xs[i], m_vs[i], m_v0[i], m_a[i], m_vPrevious[i], m_aPrevious[i], dt);
        });
        for (int pass = 0; pass <= settings.iterations; ++pass) {
          evaluate(m_xs, m_vs, m_as);
          forEachParticle(
              [&](std::size_t i) { kernels::adamsCorrect(m_xs[i], m_vs[i], m_x0[i], m_v0[i], m_a[i], m_as[i], dt); });
        }
        m_vPrevious = m_v0;
        m_aPrevious = m_a;
        m_x.swap(m_xs);
        m_v.swap(m_vs);
        evaluate(m_x, m_v, m_a);  // the final E of PECE, reused by the next step
        m_accelerationValid = true;
        break;
      }
      case ParticleIntegrator::Leapfrog: {
        if (!m_started) {  // the Euler start: v_{1/2} = v_0 + dt/2 a_0
          evaluate(m_x, m_v, m_a);
          forEachParticle([&](std::size_t i) { m_halfVelocity[i] = kernels::leapfrogVelocity(m_v[i], m_a[i], dt); });
          m_started = true;
        }
        forEachParticle([&](std::size_t i) {
          m_x[i] = kernels::leapfrogDrift(m_x[i], m_halfVelocity[i], dt);
          m_v[i] = kernels::leapfrogVelocity(m_halfVelocity[i], m_a[i], dt);  // estimate from the last a
        });
        for (int pass = 0; pass <= settings.iterations; ++pass) {
          evaluate(m_x, m_v, m_a);
          forEachParticle([&](std::size_t i) { m_v[i] = kernels::leapfrogVelocity(m_halfVelocity[i], m_a[i], dt); });
        }
        forEachParticle(
            [&](std::size_t i) { m_halfVelocity[i] = kernels::leapfrogKick(m_halfVelocity[i], m_a[i], dt); });
        break;
      }
    }
  }

  void heunStep(float dt) {
    evaluate(m_x, m_v, m_a);
    m_x0 = m_x;
    m_v0 = m_v;
    m_xs = m_x;
    m_vs = m_v;
    forEachParticle([&](std::size_t i) { kernels::heunPredict(m_xs[i], m_vs[i], m_a[i], dt); });
    evaluate(m_xs, m_vs, m_as);
    forEachParticle(
        [&](std::size_t i) { kernels::heunCorrect(m_x[i], m_v[i], m_x0[i], m_v0[i], m_a[i], m_vs[i], m_as[i], dt); });
    m_vPrevious = m_v0;
    m_aPrevious = m_a;
    m_accelerationValid = false;
  }

  int m_threads;
  std::vector<glm::vec3> m_x, m_v, m_a;                 // state and its acceleration
  std::vector<glm::vec3> m_x0, m_v0, m_xs, m_vs, m_as;  // step start, stage state and acceleration
  std::vector<glm::vec3> m_halfVelocity;                // leapfrog v_{n+1/2}
  std::vector<glm::vec3> m_vPrevious, m_aPrevious;      // Adams history
  std::vector<glm::vec3> m_target, m_targetVelocity;
  std::vector<glm::vec4> m_rotations, m_boneRotations;
  bool m_started = false, m_haveHistory = false, m_accelerationValid = false;
};

}  // namespace

Result<std::unique_ptr<ParticleSkinner>> createCpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model,
                                                                  int threads) {
  if (!model) return Error{"particle skinning: no model"};
  if (threads < 0) return Error{"particle skinning: negative thread count"};
  return std::unique_ptr<ParticleSkinner>(std::make_unique<CpuParticleSkinner>(std::move(model), threads));
}

}  // namespace hg
