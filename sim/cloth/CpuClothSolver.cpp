#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/CpuProjectiveClothSolver.h"
#include "sim/cloth/StableStep.h"

#include <utility>

#include "sim/cloth/CpuClothSolverBase.h"

namespace hg {
namespace {

using kernels::ClothStepParams;
using kernels::VertexContact;
using kernels::VertexState;

class CpuClothSolver final : public CpuClothSolverBase {
 public:
  CpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : CpuClothSolverBase(std::move(model), settings) {
    m_next = m_state;
  }

 protected:
  StepStatus advance(int substeps, float velocityDamping, int first, int count) override {
    ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    std::uint32_t status = 0;
    beginSelfContactFrame();
    for (int s = 0; s < count; ++s) {
      params.bodyLag = bodyLagOf(params, substeps, first + s);
      status |= substep(params);
      if (selfContactEnabled()) applySelfContact(m_state.positions, m_next, params);
      if (thinFeaturesEnabled() && thinFeaturesAfter(params.bodyLag)) applyThinFeatures(m_next, params);
      std::swap(m_state, m_next);
      if (params.plasticRate > 0.0f) creep(params);
    }
    return StepStatus(status);
  }

 private:
  /// Element pass, as sim/gpu/shaders/cloth_forces.comp: one force per spring (on end a),
  /// four per hinge. Springs, then hinges, in one parallel region (elements write
  /// only their own slots, so the spring loop needs no barrier before the hinges).
  void elementForces(const ClothStepParams& params) {
    const glm::vec4* x = m_state.positions.data();
    const glm::vec4* v = m_state.velocities.data();
    const auto springCount = std::int64_t(m_springs.size());
    const auto hingeCount = std::int64_t(m_hinges.size());
    m_elementForces.resize(std::size_t(springCount + 4 * hingeCount));
    glm::vec4* springOut = m_elementForces.data();
    glm::vec4* hingeOut = springOut + springCount;
    const kernels::ClothSpring* springs = m_springs.data();
    const kernels::ClothHinge* hinges = m_hinges.data();
    const bool parallel = springCount + hingeCount >= kParallelThreshold;
#pragma omp parallel num_threads(threads()) if (parallel)
    {
#pragma omp for schedule(static) nowait
      for (std::int64_t e = 0; e < springCount; ++e) {
        const kernels::ClothSpring& s = springs[e];
        springOut[e] = glm::vec4(
            kernels::springForce(glm::vec3(x[s.a]), glm::vec3(x[s.b]), glm::vec3(v[s.a]), glm::vec3(v[s.b]), s, params),
            0.0f);
      }
#pragma omp for schedule(static)
      for (std::int64_t h = 0; h < hingeCount; ++h) storeHingeForces(x, hinges[h], hingeOut + 4 * h);
    }
  }

  /// Vertex pass, as sim/gpu/shaders/cloth_step.comp followed by cloth_contact.comp.
  std::uint32_t substep(const ClothStepParams& params) {
    elementForces(params);
    const ClothModel& model = *m_model;
    const glm::vec4* x = m_state.positions.data();
    const glm::vec4* v = m_state.velocities.data();
    glm::vec4* xOut = m_next.positions.data();
    glm::vec4* vOut = m_next.velocities.data();
    const glm::vec4* forces = m_elementForces.data();
    const std::uint32_t springCount = std::uint32_t(m_springs.size());
    const auto n = std::int64_t(model.vertexCount());
    std::uint32_t status = 0;
#pragma omp parallel for schedule(static) num_threads(threads()) reduction(| : status) if (n >= kParallelThreshold)
    for (std::int64_t i = 0; i < n; ++i) {
      const glm::vec4 xi = x[i];
      const glm::vec3 vi(v[i]);
      const float inverseMass = xi.w;
      if (inverseMass == 0.0f) {  // pinned: kinematic, keeps its velocity for damping
        xOut[i] = xi;
        vOut[i] = v[i];
        continue;
      }
      glm::vec3 force = glm::vec3(params.gravity) / inverseMass;
      for (std::uint32_t k = model.springOffsets[i]; k < model.springOffsets[i + 1]; ++k) {
        const kernels::SpringEntry e = model.springEntries[k];
        const glm::vec3 f(forces[e.spring]);  // on the spring's end a = min(i, neighbor)
        force += e.neighbor > std::uint32_t(i) ? f : -f;
      }
      for (std::uint32_t k = model.hingeOffsets[i]; k < model.hingeOffsets[i + 1]; ++k)
        force += glm::vec3(forces[springCount + model.hingeEntries[k]]);  // entry = hinge * 4 + role
      VertexState state = kernels::integrateVertex(glm::vec3(xi), vi, force, inverseMass, params);
      VertexContact contact = kernels::contactBeforeFrameEnd(contactAt(state.position, params), params.bodyLag);
      state = kernels::resolveContact(state, contact, m_bodyOffsets[std::size_t(i)], params.dt);
      status |= kernels::vertexAnomaly(state, params.maxSpeed);
      xOut[i] = glm::vec4(state.position, inverseMass);
      vOut[i] = glm::vec4(state.velocity, 0.0f);
    }
    return status;
  }

  ClothState m_next;  // the state being written by the substep (ping-pong with m_state)
  std::vector<glm::vec4> m_elementForces;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createCpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& requested) {
  if (!model) return Error{"createCpuClothSolver: no cloth model"};
  auto resolved = withAutoSubsteps(*model, requested);  // substeps 0: the stable count
  if (!resolved) return resolved.error();
  const ClothSettings& settings = *resolved;
  if (Status s = settings.validate(); !s) return s.error();
  if (settings.integrator == ClothIntegrator::ProjectiveJacobi)
    return createCpuProjectiveClothSolver(std::move(model), settings);
  return std::unique_ptr<ClothSolver>(new CpuClothSolver(std::move(model), settings));
}

}  // namespace hg
