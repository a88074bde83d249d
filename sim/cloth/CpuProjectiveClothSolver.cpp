#include "sim/cloth/CpuProjectiveClothSolver.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "sim/cloth/CpuClothSolverBase.h"
#include "sim/cloth/StableStep.h"

namespace hg {
namespace {

using kernels::ClothStepParams;
using kernels::VertexContact;
using kernels::VertexState;

class CpuProjectiveClothSolver final : public CpuClothSolverBase {
 public:
  CpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : CpuClothSolverBase(std::move(model), settings) {
    const std::size_t n = m_model->vertexCount();
    m_predicted.resize(n);
    for (std::vector<glm::vec4>& iterate : m_iterates) iterate.resize(n);
    if (implicitBending()) {
      m_stencils = hingeStencils(*m_model);
      m_hingeResiduals.resize(m_hinges.size());
    } else {
      m_hingeForces.resize(4 * m_hinges.size());
    }
  }

 protected:
  StepStatus advance(int substeps, float velocityDamping, int first, int count) override {
    ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    std::uint32_t status = 0;
    beginSelfContactFrame();
    for (int s = 0; s < count; ++s) {
      params.bodyLag = bodyLagOf(params, substeps, first + s);
      status |= substep(params);
      if (params.plasticRate > 0.0f) creep(params);
    }
    return StepStatus(status);
  }

 private:
  bool implicitBending() const { return m_settings.bending == BendingScheme::Implicit; }

  std::uint32_t substep(const ClothStepParams& params) {
    if (!implicitBending()) hingeForces();
    predict(params);
    // x^0 = y (u^0 = 0). Not warm-started from the previous substep's u: with an
    // unconverged solve that extrapolation feeds the error back and diverged in tests.
    std::fill(m_iterates[m_base].begin(), m_iterates[m_base].end(), glm::vec4(0.0f));
    // Chebyshev recursion over three rotating buffers of displacements from y
    // (u^{k-1}, u^k, u^{k+1}), u^0 in m_iterates[m_base]; at k = 1 omega = 1, so
    // u^{k-1} is not used.
    const int iterations = m_settings.solverIterations;
    float omega = 1.0f;
    for (int k = 1; k <= iterations; ++k) {
      omega = kernels::chebyshevOmega(std::uint32_t(k), m_settings.chebyshevRho, omega);
      if (implicitBending()) hingeResiduals(m_iterates[slot(k - 1)].data());
      iterate(params, m_iterates[slot(k - 1)].data(), m_iterates[slot(k == 1 ? 0 : k - 2)].data(),
              m_iterates[slot(k)].data(), omega);
    }
    m_base = slot(iterations);
    if (selfContactEnabled()) m_start = m_state.positions;
    const std::uint32_t status = finish(params, m_iterates[m_base].data());
    if (selfContactEnabled()) applySelfContact(m_start, m_state, params);
    if (thinFeaturesEnabled() && thinFeaturesAfter(params.bodyLag)) applyThinFeatures(m_state, params);
    return status;
  }

  /// The iterate buffer of u^k in this substep.
  std::size_t slot(int k) const { return (m_base + std::size_t(k)) % 3; }

  /// Explicit bending forces at the start of the substep (N), 4 per hinge, as the hinge
  /// part of sim/gpu/shaders/cloth_forces.comp.
  void hingeForces() {
    const glm::vec4* x = m_state.positions.data();
    glm::vec4* out = m_hingeForces.data();
    const auto hingeCount = std::int64_t(m_hinges.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (hingeCount >= kParallelThreshold)
    for (std::int64_t h = 0; h < hingeCount; ++h) storeHingeForces(x, m_hinges[std::size_t(h)], out + 4 * h);
  }

  /// The local step of every hinge at the iterate x = y + u (implicit bending), as
  /// sim/gpu/shaders/cloth_pd_hinges.comp.
  void hingeResiduals(const glm::vec4* current) {
    const glm::vec4* y = m_predicted.data();
    const auto hingeCount = std::int64_t(m_hinges.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (hingeCount >= kParallelThreshold)
    for (std::int64_t h = 0; h < hingeCount; ++h) {
      const kernels::ClothHinge& hinge = m_hinges[std::size_t(h)];
      const glm::uvec4 v = hinge.vertices;
      auto offset = [&](std::uint32_t j) {
        return kernels::neighborOffset(glm::vec3(y[v.x]), glm::vec3(y[j]), glm::vec3(current[j])) -
               glm::vec3(current[v.x]);
      };
      m_hingeResiduals[std::size_t(h)] =
          kernels::hingeResidual(offset(v.y), offset(v.z), offset(v.w), m_stencils[std::size_t(h)], hinge);
    }
  }

  /// v_pred = v + h (g + f_bending / m) into the state's velocities, y = x + h v_pred, as
  /// sim/gpu/shaders/cloth_pd_predict.comp.
  void predict(const ClothStepParams& params) {
    const ClothModel& model = *m_model;
    const glm::vec4* x = m_state.positions.data();
    glm::vec4* v = m_state.velocities.data();
    const glm::vec4* forces = implicitBending() ? nullptr : m_hingeForces.data();
    glm::vec4* y = m_predicted.data();
    const auto n = std::int64_t(model.vertexCount());
#pragma omp parallel for schedule(static) num_threads(threads()) if (n >= kParallelThreshold)
    for (std::int64_t i = 0; i < n; ++i) {
      const glm::vec4 xi = x[i];
      const float inverseMass = xi.w;
      if (inverseMass == 0.0f) {  // pinned: stays where it is during the substep
        y[i] = xi;
        continue;
      }
      glm::vec3 bending(0.0f);
      if (forces != nullptr)
        for (std::uint32_t k = model.hingeOffsets[i]; k < model.hingeOffsets[i + 1]; ++k)
          bending += glm::vec3(forces[model.hingeEntries[k]]);  // entry = hinge * 4 + role
      const glm::vec3 acceleration = glm::vec3(params.gravity) + inverseMass * bending;
      const glm::vec3 velocity = kernels::predictVelocity(glm::vec3(v[i]), acceleration, params.dt);
      v[i] = glm::vec4(velocity, 0.0f);
      y[i] = glm::vec4(kernels::predictPosition(glm::vec3(xi), velocity, params.dt), inverseMass);
    }
  }

  /// One Jacobi sweep with Chebyshev blending on displacements from y, as
  /// sim/gpu/shaders/cloth_pd_iterate.comp.
  void iterate(const ClothStepParams& params, const glm::vec4* current, const glm::vec4* previous, glm::vec4* next,
               float omega) {
    const ClothModel& model = *m_model;
    const glm::vec4* y = m_predicted.data();
    const kernels::ClothSpring* springs = m_springs.data();
    const auto n = std::int64_t(model.vertexCount());
#pragma omp parallel for schedule(static) num_threads(threads()) if (n >= kParallelThreshold)
    for (std::int64_t i = 0; i < n; ++i) {
      const float inverseMass = y[i].w;
      if (inverseMass == 0.0f) {  // pinned: kinematic
        next[i] = glm::vec4(0.0f);
        continue;
      }
      const glm::vec3 yi(y[i]);
      glm::vec4 gathered(0.0f);
      for (std::uint32_t k = model.springOffsets[i]; k < model.springOffsets[i + 1]; ++k) {
        const kernels::SpringEntry e = model.springEntries[k];
        const kernels::ClothSpring& s = springs[e.spring];
        const glm::vec3 edge = kernels::projectiveEdge(glm::vec3(y[s.a]), glm::vec3(y[s.b]), glm::vec3(current[s.a]),
                                                       glm::vec3(current[s.b]));
        const kernels::SpringProjection q = kernels::springProjection(edge, s, params);
        const glm::vec3 toNeighbor =
            kernels::neighborOffset(yi, glm::vec3(y[e.neighbor]), glm::vec3(current[e.neighbor]));
        gathered += kernels::jacobiTerm(toNeighbor, q, s.a == std::uint32_t(i));
      }
      if (implicitBending())
        for (std::uint32_t k = model.hingeOffsets[i]; k < model.hingeOffsets[i + 1]; ++k) {
          const std::uint32_t entry = model.hingeEntries[k];  // hinge * 4 + role
          gathered += kernels::hingeJacobiTerm(m_hingeResiduals[entry / 4], m_stencils[entry / 4], entry % 4,
                                               glm::vec3(current[i]));
        }
      const glm::vec3 jacobi = kernels::jacobiUpdate(inverseMass, gathered, params.dt);
      next[i] = glm::vec4(kernels::chebyshevBlend(jacobi, glm::vec3(previous[i]), omega), 0.0f);
    }
  }

  /// Positions y + u, velocities, contacts and anomaly bits, as sim/gpu/shaders/cloth_pd_finish.comp.
  std::uint32_t finish(const ClothStepParams& params, const glm::vec4* solved) {
    const glm::vec4* y = m_predicted.data();
    glm::vec4* x = m_state.positions.data();
    glm::vec4* v = m_state.velocities.data();
    const auto n = std::int64_t(m_model->vertexCount());
    std::uint32_t status = 0;
#pragma omp parallel for schedule(static) num_threads(threads()) reduction(| : status) if (n >= kParallelThreshold)
    for (std::int64_t i = 0; i < n; ++i) {
      const float inverseMass = y[i].w;
      if (inverseMass == 0.0f) continue;  // pinned: kinematic, keeps its velocity for damping
      VertexState state = kernels::projectiveState(glm::vec3(y[i]), glm::vec3(v[i]), glm::vec3(solved[i]), params);
      const VertexContact contact = kernels::contactBeforeFrameEnd(contactAt(state.position, params), params.bodyLag);
      state = kernels::resolveContact(state, contact, m_bodyOffsets[std::size_t(i)], params.dt);
      status |= kernels::vertexAnomaly(state, params.maxSpeed);
      x[i] = glm::vec4(state.position, inverseMass);
      v[i] = glm::vec4(state.velocity, 0.0f);
    }
    return status;
  }

  std::vector<glm::vec4> m_predicted;             // y, m (w: inverse mass)
  std::vector<glm::vec4> m_iterates[3];           // rotating u^{k-1}, u^k, u^{k+1}: x - y, m
  std::size_t m_base = 0;                         // the buffer of u^0 (the last solution's)
  std::vector<glm::vec4> m_hingeForces;           // N, 4 per hinge (roles 0..3); explicit bending
  std::vector<kernels::HingeStencil> m_stencils;  // implicit bending: per hinge
  std::vector<glm::vec4> m_hingeResiduals;        // implicit bending: K x - p (m), w (N/m)
  std::vector<glm::vec4> m_start;                 // the substep's start positions (self contact)
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createCpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model,
                                                                    const ClothSettings& requested) {
  if (!model) return Error{"createCpuProjectiveClothSolver: no cloth model"};
  auto resolved = withAutoSubsteps(*model, requested);  // substeps 0: the stable count
  if (!resolved) return resolved.error();
  const ClothSettings& settings = *resolved;
  if (Status s = settings.validate(); !s) return s.error();
  return std::unique_ptr<ClothSolver>(new CpuProjectiveClothSolver(std::move(model), settings));
}

}  // namespace hg
