#include "sim/cpu/CpuClothSolver.h"
#include "sim/cpu/CpuProjectiveClothSolver.h"

#include <omp.h>

#include <utility>

namespace hg {
namespace {

using kernels::ClothStepParams;
using kernels::VertexContact;
using kernels::VertexState;

class CpuClothSolver final : public ClothSolver {
public:
  CpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : ClothSolver(std::move(model), settings), m_springs(m_model->springs), m_hinges(m_model->hinges) {
    m_current = restState(*m_model);
    m_next = m_current;
  }

  Backend backend() const override { return Backend::Cpu; }

  ClothState readState() const override { return m_current; }

  void writeState(const ClothState& state) override {
    assert(state.positions.size() == m_model->vertexCount());
    assert(state.velocities.size() == m_model->vertexCount());
    m_current = state;
  }

  void setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) override {
    assert(vertices.size() == positions.size());
    for (std::size_t k = 0; k < vertices.size(); ++k) {
      glm::vec4& x = m_current.positions[vertices[k]];
      if (x.w != 0.0f) continue;  // only pinned vertices are kinematic
      m_current.velocities[vertices[k]] = glm::vec4((positions[k] - glm::vec3(x)) / m_settings.frameDt, 0.0f);
      x = glm::vec4(positions[k], 0.0f);
    }
  }

  std::vector<kernels::ClothSpring> readSprings() const override { return m_springs; }
  std::vector<kernels::ClothHinge> readHinges() const override { return m_hinges; }

protected:
  StepStatus advance(int substeps, float velocityDamping) override {
    const ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    std::uint32_t status = 0;
    for (int s = 0; s < substeps; ++s) {
      status |= substep(params);
      std::swap(m_current, m_next);
      if (params.plasticRate > 0.0f) creep(params);
    }
    return StepStatus(status);
  }

private:
  int threads() const { return m_settings.threads > 0 ? m_settings.threads : omp_get_max_threads(); }
  /// Loops shorter than this run on one thread: a parallel region costs more than
  /// it saves there, and spinning threads crawl when the cores are oversubscribed.
  /// The result does not depend on it (per-element work, fixed gather order).
  static constexpr std::int64_t kParallelThreshold = 2048;

  /// Element pass, as shaders/cloth_forces.comp: one force per spring (on end a),
  /// four per hinge.
  void elementForces(const ClothStepParams& params) {
    const glm::vec4* x = m_current.positions.data();
    const glm::vec4* v = m_current.velocities.data();
    const std::size_t springCount = m_springs.size();
    m_elementForces.resize(springCount + 4 * m_hinges.size());
    glm::vec4* out = m_elementForces.data();
    const auto elements = std::int64_t(springCount + m_hinges.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (elements >= kParallelThreshold)
    for (std::int64_t e = 0; e < elements; ++e) {
      if (std::size_t(e) < springCount) {
        const kernels::ClothSpring& s = m_springs[std::size_t(e)];
        out[e] = glm::vec4(kernels::springForce(glm::vec3(x[s.a]), glm::vec3(x[s.b]), glm::vec3(v[s.a]),
                                                glm::vec3(v[s.b]), s, params), 0.0f);
      } else {
        const std::size_t h = std::size_t(e) - springCount;
        const kernels::ClothHinge& hinge = m_hinges[h];
        const kernels::HingeForces f =
            kernels::bendingForces(glm::vec3(x[hinge.vertices.x]), glm::vec3(x[hinge.vertices.y]),
                                   glm::vec3(x[hinge.vertices.z]), glm::vec3(x[hinge.vertices.w]), hinge);
        glm::vec4* o = out + springCount + 4 * h;
        o[0] = glm::vec4(f.f0, 0.0f);
        o[1] = glm::vec4(f.f1, 0.0f);
        o[2] = glm::vec4(f.f2, 0.0f);
        o[3] = glm::vec4(f.f3, 0.0f);
      }
    }
  }

  /// Vertex pass, as shaders/cloth_step.comp.
  std::uint32_t substep(const ClothStepParams& params) {
    elementForces(params);
    const ClothModel& model = *m_model;
    const glm::vec4* x = m_current.positions.data();
    const glm::vec4* v = m_current.velocities.data();
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
      VertexContact contact = kernels::analyticContact(state.position, params);
      state = kernels::resolveContact(state, contact, params.contactOffset, params.dt);
      status |= kernels::vertexAnomaly(state, params.maxSpeed);
      xOut[i] = glm::vec4(state.position, inverseMass);
      vOut[i] = glm::vec4(state.velocity, 0.0f);
    }
    return status;
  }

  /// Plastic creep of rest lengths and angles (shaders/cloth_plasticity.comp).
  void creep(const ClothStepParams& params) {
    const glm::vec4* x = m_current.positions.data();
    const auto springCount = std::int64_t(m_springs.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (springCount >= kParallelThreshold)
    for (std::int64_t s = 0; s < springCount; ++s) {
      kernels::ClothSpring& spring = m_springs[s];
      const float r = glm::distance(glm::vec3(x[spring.a]), glm::vec3(x[spring.b]));
      spring.restLength = kernels::plasticRestLength(r, spring.restLength, params);
    }
    const auto hingeCount = std::int64_t(m_hinges.size());
#pragma omp parallel for schedule(static) num_threads(threads()) if (hingeCount >= kParallelThreshold)
    for (std::int64_t h = 0; h < hingeCount; ++h) {
      kernels::ClothHinge& hinge = m_hinges[h];
      const float theta = kernels::hingeAngle(glm::vec3(x[hinge.vertices.x]), glm::vec3(x[hinge.vertices.y]),
                                              glm::vec3(x[hinge.vertices.z]), glm::vec3(x[hinge.vertices.w]));
      hinge.restAngle = kernels::plasticRestAngle(theta, hinge.restAngle, params);
    }
  }

  ClothState m_current;
  ClothState m_next;
  std::vector<kernels::ClothSpring> m_springs;  // rest lengths change under plasticity
  std::vector<kernels::ClothHinge> m_hinges;
  std::vector<glm::vec4> m_elementForces;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createCpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings) {
  if (!model) return Error{"createCpuClothSolver: no cloth model"};
  if (Status s = settings.validate(); !s) return s.error();
  if (settings.integrator == ClothIntegrator::ProjectiveJacobi)
    return createCpuProjectiveClothSolver(std::move(model), settings);
  return std::unique_ptr<ClothSolver>(new CpuClothSolver(std::move(model), settings));
}

}  // namespace hg
