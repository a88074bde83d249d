#include "sim/gpu/GpuProjectiveClothSolver.h"

#include <span>
#include <utility>
#include <vector>

#include "gl/GlObjects.h"
#include "sim/cloth/StableStep.h"
#include "sim/gpu/GpuClothSolverBase.h"
#include "sim/gpu/GpuShaders.h"

namespace hg {
namespace {

/// The programs of the projective integrator alone (the shared ones are in
/// GpuClothSharedPrograms).
struct GpuProjectivePrograms {
  gl::Program predict, iterate, finish;
  gl::Program hinges;  // implicit bending: each hinge's local step
};

class GpuProjectiveClothSolver final : public GpuClothSolverBase {
 public:
  GpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                           GpuClothSharedPrograms sharedPrograms, GpuProjectivePrograms programs)
      : GpuClothSolverBase(std::move(model), settings, std::move(sharedPrograms)), m_programs(std::move(programs)) {
    const std::size_t stateBytes = m_model->vertexCount() * sizeof(glm::vec4);
    m_positions = gl::createBuffer(stateBytes);
    m_velocities = gl::createBuffer(stateBytes);
    m_predicted = gl::createBuffer(stateBytes);
    for (gl::Buffer& iterate : m_iterates) iterate = gl::createBuffer(stateBytes);
    if (settings.selfContact.enabled) m_start = gl::createBuffer(stateBytes);
    // The iteration pass declares the stencils whether it reads them or not: explicit
    // bending (or no hinge) binds a placeholder there, so no declared block is left unbound.
    const std::vector<kernels::HingeStencil> stencils =
        implicitBending() ? hingeStencils(*m_model) : std::vector<kernels::HingeStencil>{};
    m_stencils = stencils.empty() ? gl::createBuffer(sizeof(kernels::HingeStencil))
                                  : gl::createBuffer(std::span<const kernels::HingeStencil>(stencils));
    initializeState();
  }

 protected:
  const gl::Buffer& positionsBuffer() const override { return m_positions; }
  const gl::Buffer& velocitiesBuffer() const override { return m_velocities; }

  StepStatus advance(int substeps, float velocityDamping, int first, int count) override {
    const kernels::ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    beginSelfContactFrame();
    beginAdvance(params);
    const GLuint vertexGroups = groupsFor(m_model->vertexCount());
    const GLuint elementGroups = groupsFor(m_model->springs.size() + m_model->hinges.size());
    const GLuint hingeGroups = groupsFor(m_model->hinges.size());
    auto bind = [](GLuint binding, const gl::Buffer& buffer) {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer.id());
    };
    m_stepTimer.begin();
    for (int s = 0; s < count && vertexGroups > 0; ++s) {
      const float lag = bodyLagOf(params, substeps, first + s);
      setBodyLag(lag);
      // Explicit bending: the forces at the substep's start (the element pass; springs
      // unused here).
      bind(HG_BINDING_POSITIONS_IN, m_positions);
      bind(HG_BINDING_VELOCITIES_IN, m_velocities);
      if (!implicitBending()) dispatchForces(elementGroups);
      glUseProgram(m_programs.predict.id());
      glUniform1ui(0, implicitBending() ? 0u : 1u);
      bind(HG_BINDING_VELOCITIES_OUT, m_velocities);
      bind(HG_BINDING_PD_PREDICTED, m_predicted);
      glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      m_stepTimer.mark("1 forces, prediction");

      // x^0 = y (u^0 = 0), as the CPU backend.
      glClearNamedBufferData(m_iterates[m_base].id(), GL_RGBA32F, GL_RGBA, GL_FLOAT, nullptr);
      // Jacobi + Chebyshev over three rotating buffers of displacements from y, as the
      // CPU backend (at k = 1 omega = 1 and u^{k-1} is not used).
      // Implicit bending: the hinges' local steps go to the element-force buffer (bound
      // at HG_BINDING_PD_HINGE_RESIDUALS = HG_BINDING_ELEMENT_FORCES by beginAdvance).
      bind(HG_BINDING_PD_HINGE_STENCILS, m_stencils);
      float omega = 1.0f;
      const int iterations = m_settings.solverIterations;
      for (int k = 1; k <= iterations; ++k) {
        omega = kernels::chebyshevOmega(std::uint32_t(k), m_settings.chebyshevRho, omega);
        bind(HG_BINDING_PD_CURRENT, m_iterates[slot(k - 1)]);
        bind(HG_BINDING_PD_PREVIOUS, m_iterates[slot(k == 1 ? 0 : k - 2)]);
        bind(HG_BINDING_PD_NEXT, m_iterates[slot(k)]);
        if (implicitBending() && hingeGroups > 0) {
          glUseProgram(m_programs.hinges.id());
          glDispatchCompute(hingeGroups, 1, 1);
          glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        }
        glUseProgram(m_programs.iterate.id());
        glUniform1f(0, omega);
        glUniform1ui(1, implicitBending() ? 1u : 0u);
        glDispatchCompute(vertexGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      m_base = slot(iterations);
      m_stepTimer.mark("2 Jacobi iterations");

      if (m_selfContact) {  // the substep's start, for the self contact after the finish
        glCopyNamedBufferSubData(m_positions.id(), m_start.id(), 0, 0,
                                 GLsizeiptr(m_model->vertexCount() * sizeof(glm::vec4)));
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      glUseProgram(m_programs.finish.id());
      bind(HG_BINDING_PD_CURRENT, m_iterates[m_base]);
      bind(HG_BINDING_POSITIONS_OUT, m_positions);
      glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      m_stepTimer.mark("3 finish, body contact");
      applySelfContact(m_start, m_positions, m_velocities, params.dt);
      m_stepTimer.mark("4 self contact");
      if (thinFeaturesAfter(lag)) applyThinFeatures(m_positions, m_velocities);

      dispatchPlasticity(params, m_positions, elementGroups);
      m_stepTimer.mark("5 thin features, plasticity");
    }
    m_stepTimer.resolve();
    m_timedSubsteps += std::uint64_t(count);
    return readStatus();
  }

 private:
  bool implicitBending() const { return m_settings.bending == BendingScheme::Implicit; }

  /// The iterate buffer of u^k in this substep.
  std::size_t slot(int k) const { return (m_base + std::size_t(k)) % 3; }

  GpuProjectivePrograms m_programs;
  gl::Buffer m_positions, m_velocities;  // the state, updated in place by the finish pass
  gl::Buffer m_predicted;                // y of the current substep
  gl::Buffer m_start;                    // with self contact: the positions at the substep's start
  gl::Buffer m_iterates[3];              // rotating u^{k-1}, u^k, u^{k+1}: x - y, m
  std::size_t m_base = 0;                // the buffer of u^0 (the last solution's)
  gl::Buffer m_stencils;                 // implicit bending: HingeStencil per hinge (else a placeholder)
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createGpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model,
                                                                    const ClothSettings& requested) {
  if (!model) return Error{"createGpuProjectiveClothSolver: no cloth model"};
  auto resolved = withAutoSubsteps(*model, requested);  // substeps 0: the stable count
  if (!resolved) return resolved.error();
  const ClothSettings& settings = *resolved;
  if (Status s = settings.validate(); !s) return s.error();
  const gl::ShaderRegistry& registry = gpuShaders();
  GpuClothSharedPrograms sharedPrograms;
  GpuProjectivePrograms programs;
  if (Status s = buildGpuClothPrograms(registry, sharedPrograms,
                                       {{&programs.predict, "cloth_pd_predict.comp"},
                                        {&programs.iterate, "cloth_pd_iterate.comp"},
                                        {&programs.finish, "cloth_pd_finish.comp"},
                                        {&programs.hinges, "cloth_pd_hinges.comp"}});
      !s)
    return s.error();
  auto solver = std::make_unique<GpuProjectiveClothSolver>(std::move(model), settings, std::move(sharedPrograms),
                                                           std::move(programs));
  if (Status s = solver->enableSelfContact(); !s) return s.error();
  return std::unique_ptr<ClothSolver>(std::move(solver));
}

}  // namespace hg
