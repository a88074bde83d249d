#include "sim/cpu/CpuClothSolver.h"

#include <omp.h>

#include <utility>

namespace hg {
namespace {

using kernels::ClothStepParams;
using kernels::SpringEntry;
using kernels::VertexState;

class CpuClothSolver final : public ClothSolver {
public:
  CpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : ClothSolver(std::move(model), settings) {
    m_current = restState(*m_model);
    m_next = m_current;
  }

  Backend backend() const override { return Backend::Cpu; }

  StepStatus step() override {
    const ClothStepParams params = m_settings.stepParams(m_model->vertexCount());
    std::uint32_t status = 0;
    for (int s = 0; s < m_settings.substeps; ++s) {
      status |= substep(params);
      std::swap(m_current, m_next);
    }
    return StepStatus(status);
  }

  ClothState readState() const override { return m_current; }

  void writeState(const ClothState& state) override {
    assert(state.positions.size() == m_model->vertexCount());
    assert(state.velocities.size() == m_model->vertexCount());
    m_current = state;
  }

private:
  /// Same loop as shaders/cloth_step.comp.
  std::uint32_t substep(const ClothStepParams& params) {
    const ClothModel& model = *m_model;
    const glm::vec4* x = m_current.positions.data();
    const glm::vec4* v = m_current.velocities.data();
    glm::vec4* xOut = m_next.positions.data();
    glm::vec4* vOut = m_next.velocities.data();
    const std::uint32_t* offsets = model.springOffsets.data();
    const SpringEntry* springs = model.springEntries.data();
    const auto n = std::int64_t(model.vertexCount());
    const int threads = m_settings.threads > 0 ? m_settings.threads : omp_get_max_threads();
    std::uint32_t status = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(| : status)
    for (std::int64_t i = 0; i < n; ++i) {
      const glm::vec4 xi = x[i];
      const glm::vec3 vi(v[i]);
      const float inverseMass = xi.w;
      if (inverseMass == 0.0f) {  // pinned
        xOut[i] = xi;
        vOut[i] = glm::vec4(0.0f);
        continue;
      }
      glm::vec3 force = glm::vec3(params.gravity) / inverseMass;
      for (std::uint32_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        const SpringEntry& s = springs[k];
        force += kernels::springForce(glm::vec3(xi), glm::vec3(x[s.neighbor]), vi,
                                      glm::vec3(v[s.neighbor]), s);
      }
      VertexState state = kernels::integrateVertex(glm::vec3(xi), vi, force, inverseMass, params);
      state = kernels::resolveSphereContact(state, params);
      state = kernels::resolvePlaneContact(state, params);
      status |= kernels::vertexAnomaly(state, params.maxSpeed);
      xOut[i] = glm::vec4(state.position, inverseMass);
      vOut[i] = glm::vec4(state.velocity, 0.0f);
    }
    return status;
  }

  ClothState m_current;
  ClothState m_next;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createCpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings) {
  if (!model) return Error{"createCpuClothSolver: no cloth model"};
  if (Status s = settings.validate(); !s) return s.error();
  return std::unique_ptr<ClothSolver>(new CpuClothSolver(std::move(model), settings));
}

}  // namespace hg
