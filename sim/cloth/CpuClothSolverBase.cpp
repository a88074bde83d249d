#include "sim/cloth/CpuClothSolverBase.h"

#include <omp.h>

#include <algorithm>
#include <cassert>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {

CpuClothSolverBase::CpuClothSolverBase(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
    : ClothSolver(std::move(model), settings), m_springs(m_model->springs), m_hinges(m_model->hinges) {
  m_state = restState(*m_model);
  if (settings.selfContact.enabled) m_selfContact.emplace(*m_model, settings.selfContact);
  m_vertexTriangles = vertexTriangleLists(*m_model);
  m_bodyOffsets = settings.bodyContactOffsets(m_model->vertexCount());
}

void CpuClothSolverBase::applySelfContact(std::span<const glm::vec4> start, ClothState& state,
                                          const kernels::ClothStepParams& params) {
  m_selfContact->apply(start, state.positions, state.velocities, params.dt, threads());
}

void CpuClothSolverBase::writeState(const ClothState& state) {
  assert(state.positions.size() == m_model->vertexCount());
  assert(state.velocities.size() == m_model->vertexCount());
  m_state = state;
}

void CpuClothSolverBase::setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) {
  assert(vertices.size() == positions.size());
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    glm::vec4& x = m_state.positions[vertices[k]];
    if (x.w != 0.0f) continue;  // only pinned vertices are kinematic
    m_state.velocities[vertices[k]] = glm::vec4((positions[k] - glm::vec3(x)) / m_settings.frameDt, 0.0f);
    x = glm::vec4(positions[k], 0.0f);
  }
}

int CpuClothSolverBase::threads() const { return m_settings.threads > 0 ? m_settings.threads : omp_get_max_threads(); }

void CpuClothSolverBase::creep(const kernels::ClothStepParams& params) {
  const glm::vec4* x = m_state.positions.data();
  const auto springCount = std::int64_t(m_springs.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (springCount >= kParallelThreshold)
  for (std::int64_t s = 0; s < springCount; ++s) {
    kernels::ClothSpring& spring = m_springs[std::size_t(s)];
    const float r = glm::distance(glm::vec3(x[spring.a]), glm::vec3(x[spring.b]));
    spring.restLength = kernels::plasticRestLength(r, spring.restLength, params);
  }
  const auto hingeCount = std::int64_t(m_hinges.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (hingeCount >= kParallelThreshold)
  for (std::int64_t h = 0; h < hingeCount; ++h) {
    kernels::ClothHinge& hinge = m_hinges[std::size_t(h)];
    const float theta = kernels::hingeAngle(glm::vec3(x[hinge.vertices.x]), glm::vec3(x[hinge.vertices.y]),
                                            glm::vec3(x[hinge.vertices.z]), glm::vec3(x[hinge.vertices.w]));
    hinge = kernels::withRestAngle(hinge, kernels::plasticRestAngle(theta, hinge.restAngle, params));
  }
}

namespace {

/// The CPU backend's storage behind the collider walk (kernels/cloth_contact.glslh): the
/// records, the grid's values, the depth views and the sphere trees on the host.
struct HostColliders {
  const std::vector<kernels::ClothCollider>& records;
  const ClothColliders& colliders;

  kernels::ClothCollider clothCollider(std::uint32_t i) const { return records[i]; }
  float distanceGridValue(const kernels::ClothCollider& grid, glm::ivec3 p) const {
    return colliders.distanceGrid
        ->values[std::uint32_t(p.x) + grid.kind.y * (std::uint32_t(p.y) + grid.kind.z * std::uint32_t(p.z))];
  }
  kernels::VertexContact depthViewsContact(const kernels::ClothCollider& views, glm::vec3 x) const {
    if (!colliders.depthViews) return kernels::noContact();  // views resident on a GPU only
    return depthViewContact(*colliders.depthViews, x, views.b.x);
  }
  kernels::VertexContact sphereTreesContact(const kernels::ClothCollider& trees, glm::vec3 x) const {
    // The nearest leaf over every instance (sim/gpu/shaders/body_contact.glsl: sphereTreeNearestAll).
    const SphereTreeColliders& set = *colliders.sphereTrees;
    const kernels::SpherePointResult hit = sphereTreeQueryPoint(set, glm::vec4(x, trees.b.x), kSphereQueryAllInstances);
    if (!(hit.normalDistance.w < HG_NO_CONTACT_GAP)) return kernels::noContact();
    return kernels::sphereTreeContact(hit.normalDistance, set.instances[hit.leaf.x].translation.w);
  }
  std::uint32_t bodyVertexCellStart(std::uint32_t cell) const { return colliders.bodyVertices->cellStart[cell]; }
  glm::vec4 bodyVertexPoint(std::uint32_t entry) const {
    return colliders.bodyVertices->entries[2 * std::size_t(entry)];
  }
  glm::vec4 bodyVertexNormal(std::uint32_t entry) const {
    return colliders.bodyVertices->entries[2 * std::size_t(entry) + 1];
  }
};

}  // namespace

kernels::VertexContact CpuClothSolverBase::contactAt(glm::vec3 x, const kernels::ClothStepParams& params) const {
  const HostColliders source{m_colliderRecords, m_settings.colliders};
  return kernels::contactAt(source, x, params.colliderCount);
}

void CpuClothSolverBase::applyThinFeatures(ClothState& state, const kernels::ClothStepParams& params) {
  const HostColliders source{m_colliderRecords, m_settings.colliders};
  const std::uint32_t grid = kernels::bodyVertexGridRecord(source, params.colliderCount);
  if (grid == params.colliderCount) return;
  const kernels::ClothCollider gridRecord = m_colliderRecords[grid];
  const std::vector<std::uint32_t>& triangles = m_model->triangles;
  const auto triangleCount = std::int64_t(triangles.size() / 3);
  m_triangleDisplacements.resize(std::size_t(triangleCount));
  const glm::vec4* x = state.positions.data();
  glm::vec4* out = m_triangleDisplacements.data();
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads()) if (triangleCount >= kParallelThreshold / 4)
  for (std::int64_t t = 0; t < triangleCount; ++t) {
    const std::uint32_t* v = triangles.data() + 3 * t;
    out[t] = kernels::thinFeatureDisplacement(source, gridRecord, glm::vec3(x[v[0]]), glm::vec3(x[v[1]]),
                                              glm::vec3(x[v[2]]), params.colliderCount, params.contactOffset);
  }
  const auto n = std::int64_t(m_model->vertexCount());
#pragma omp parallel for schedule(static) num_threads(threads()) if (n >= kParallelThreshold)
  for (std::int64_t i = 0; i < n; ++i) {
    if (state.positions[i].w == 0.0f) continue;  // pinned vertices stay where they are
    glm::vec4 best(0.0f);
    const std::size_t entries = std::size_t(n) + 1;
    for (std::uint32_t k = m_vertexTriangles[std::size_t(i)]; k < m_vertexTriangles[std::size_t(i) + 1]; ++k)
      best = kernels::deeperDisplacement(best, out[m_vertexTriangles[entries + k]]);
    if (!(best.w > 0.0f)) continue;
    kernels::VertexState s{glm::vec3(state.positions[i]), glm::vec3(state.velocities[i])};
    s = kernels::applyFeatureDisplacement(s, best);
    state.positions[i] = glm::vec4(s.position, state.positions[i].w);
    state.velocities[i] = glm::vec4(s.velocity, 0.0f);
  }
}

void CpuClothSolverBase::resolveBodyFeatures() {
  const kernels::ClothStepParams params =
      m_settings.stepParams(*m_model, std::max(m_lastSubsteps, 1), m_settings.velocityDamping);
  const ClothModel& model = *m_model;
  const glm::vec4* x = m_state.positions.data();
  const auto n = std::int64_t(model.vertexCount());
  m_featureDisplacements.assign(std::size_t(n), glm::vec4(0.0f));
  glm::vec4* out = m_featureDisplacements.data();
  // Gather (sim/gpu/shaders/cloth_features_gather.comp): the deepest element of each vertex.
#pragma omp parallel for schedule(static) num_threads(threads()) if (n >= kParallelThreshold)
  for (std::int64_t i = 0; i < n; ++i) {
    const glm::vec4 xi = x[i];
    if (xi.w == 0.0f) continue;  // pinned vertices stay where they are
    glm::vec4 best(0.0f);
    for (std::uint32_t k = model.springOffsets[i]; k < model.springOffsets[i + 1]; ++k) {
      const glm::vec3 s = kernels::edgeMidpoint(glm::vec3(xi), glm::vec3(x[model.springEntries[k].neighbor]));
      best = kernels::deeperDisplacement(best, kernels::featureDisplacement(contactAt(s, params)));
    }
    for (std::uint32_t k = model.hingeOffsets[i]; k < model.hingeOffsets[i + 1]; ++k) {
      const std::uint32_t entry = model.hingeEntries[k], role = entry % 4;
      const glm::uvec4 v = m_hinges[entry / 4].vertices;
      const glm::vec3 a(x[v.x]), b(x[v.y]);
      if (role != 3)
        best = kernels::deeperDisplacement(
            best, kernels::featureDisplacement(contactAt(kernels::triangleCentroid(a, b, glm::vec3(x[v.z])), params)));
      if (role != 2)
        best = kernels::deeperDisplacement(
            best, kernels::featureDisplacement(contactAt(kernels::triangleCentroid(b, a, glm::vec3(x[v.w])), params)));
    }
    out[i] = best;
  }
  // Apply (sim/gpu/shaders/cloth_features_apply.comp).
#pragma omp parallel for schedule(static) num_threads(threads()) if (n >= kParallelThreshold)
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(out[i].w > 0.0f)) continue;
    kernels::VertexState state{glm::vec3(m_state.positions[i]), glm::vec3(m_state.velocities[i])};
    state = kernels::applyFeatureDisplacement(state, out[i]);
    m_state.positions[i] = glm::vec4(state.position, m_state.positions[i].w);
    m_state.velocities[i] = glm::vec4(state.velocity, 0.0f);
  }
}

}  // namespace hg
