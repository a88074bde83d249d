#include "sim/cpu/CpuClothSolverBase.h"

#include <omp.h>

#include <cassert>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {

CpuClothSolverBase::CpuClothSolverBase(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
    : ClothSolver(std::move(model), settings), m_springs(m_model->springs), m_hinges(m_model->hinges) {
  m_state = restState(*m_model);
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

kernels::VertexContact depthViewContact(const DepthViewImages& images, glm::vec3 x, float friction) {
  kernels::DepthContactSearch search = kernels::beginDepthContactSearch();
  for (const kernels::DepthView& view : images.setup.views) {
    std::uint32_t texel = 0;
    if (!kernels::depthViewTexel(view, x, texel)) {
      kernels::missDepthView(search);
      continue;
    }
    glm::vec4 layers[HG_MAX_DEPTH_LAYERS];
    const std::uint32_t stride = kernels::depthViewLayerStride(view);
    for (std::uint32_t k = 0; k < view.texels.y; ++k) layers[k] = images.normalDepth[texel + k * stride];
    kernels::searchDepthView(view, x, texel, layers, search);
  }
  std::uint32_t texel = 0;
  kernels::VertexContact contact;
  const float localRadius = HG_DEPTH_LOCAL_TEXELS * images.setup.texelSize();
  contact.normalGap = kernels::depthContactNormalGap(search, localRadius, texel);
  const glm::vec3 velocity = contact.normalGap.w < HG_NO_CONTACT_GAP ? glm::vec3(images.velocity[texel]) : glm::vec3(0.0f);
  contact.surfaceVelocityFriction = glm::vec4(velocity, friction);
  return contact;
}

kernels::VertexContact CpuClothSolverBase::contactAt(glm::vec3 x, const kernels::ClothStepParams& params) const {
  kernels::VertexContact contact = kernels::analyticContact(x, params);
  glm::ivec3 corner;
  glm::vec3 fraction;
  const SignedDistanceGrid* body = m_settings.body.get();
  if (body && kernels::bodyGridCell(x, params, corner, fraction)) {
    float c[8];
    for (std::uint32_t k = 0; k < 8; ++k) c[k] = body->values[kernels::bodyGridIndex(corner, k, params)];
    contact = kernels::deeperContact(contact, kernels::bodyContactFromCorners(c, fraction, params));
  }
  if (const DepthViewImages* views = m_settings.bodyViews.get(); views && params.depthViews.x > 0)
    contact = kernels::deeperContact(contact, depthViewContact(*views, x, params.friction));
  return contact;
}

}  // namespace hg
