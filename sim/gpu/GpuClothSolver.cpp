#include "sim/gpu/GpuClothSolver.h"

#include <utility>

#include "gl/GlObjects.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/StableStep.h"
#include "sim/gpu/GpuClothSolverBase.h"
#include "sim/gpu/GpuProjectiveClothSolver.h"
#include "sim/gpu/GpuShaders.h"

namespace hg {
namespace {

class GpuClothSolver final : public GpuClothSolverBase {
 public:
  GpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                 GpuClothSharedPrograms programs, gl::Program step, gl::Program contact)
      : GpuClothSolverBase(std::move(model), settings, std::move(programs)),
        m_step(std::move(step)),
        m_contact(std::move(contact)) {
    const std::size_t stateBytes = m_model->vertexCount() * sizeof(glm::vec4);
    for (int k = 0; k < 2; ++k) {
      m_positions[k] = gl::createBuffer(stateBytes);
      m_velocities[k] = gl::createBuffer(stateBytes);
    }
    initializeState();
  }

 protected:
  const gl::Buffer& positionsBuffer() const override { return m_positions[m_current]; }
  const gl::Buffer& velocitiesBuffer() const override { return m_velocities[m_current]; }

  StepStatus advance(int substeps, float velocityDamping, int first, int count) override {
    const kernels::ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    beginSelfContactFrame();
    beginAdvance(params);
    const GLuint vertexGroups = groupsFor(m_model->vertexCount());
    const GLuint elementGroups = groupsFor(m_model->springs.size() + m_model->hinges.size());
    m_stepTimer.begin();
    for (int s = 0; s < count; ++s) {
      const float lag = bodyLagOf(params, substeps, first + s);
      setBodyLag(lag);
      const int in = m_current, out = 1 - m_current;
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, m_positions[in].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_IN, m_velocities[in].id());
      dispatchForces(elementGroups);
      m_stepTimer.mark("1 forces (springs, hinges)");
      glUseProgram(m_step.id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_OUT, m_positions[out].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_OUT, m_velocities[out].id());
      if (vertexGroups > 0) glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      m_stepTimer.mark("2 vertex pass");
      if (params.colliderCount > 0 && vertexGroups > 0) {
        glUseProgram(m_contact.id());
        glDispatchCompute(vertexGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      m_stepTimer.mark("3 contacts");
      applySelfContact(m_positions[in], m_positions[out], m_velocities[out], params.dt);
      m_stepTimer.mark("4 self contact");
      if (thinFeaturesAfter(lag)) applyThinFeatures(m_positions[out], m_velocities[out]);
      m_current = out;
      dispatchPlasticity(params, m_positions[out], elementGroups);
      m_stepTimer.mark("5 thin features, plasticity");
    }
    m_stepTimer.resolve();
    m_timedSubsteps += std::uint64_t(count);
    return readStatus();
  }

 private:
  gl::Program m_step;                          // sim/gpu/shaders/cloth_step.comp: the vertex pass
  gl::Program m_contact;                       // sim/gpu/shaders/cloth_contact.comp: its contacts
  gl::Buffer m_positions[2], m_velocities[2];  // ping-pong state, m_current is the current one
  int m_current = 0;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createGpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& requested) {
  if (!model) return Error{"createGpuClothSolver: no cloth model"};
  auto resolved = withAutoSubsteps(*model, requested);  // substeps 0: the stable count
  if (!resolved) return resolved.error();
  const ClothSettings& settings = *resolved;
  if (Status s = settings.validate(); !s) return s.error();
  if (settings.integrator == ClothIntegrator::ProjectiveJacobi)
    return createGpuProjectiveClothSolver(std::move(model), settings);
  const gl::ShaderRegistry& registry = gpuShaders();
  GpuClothSharedPrograms programs;
  gl::Program step, contact;
  if (Status s =
          buildGpuClothPrograms(registry, programs, {{&step, "cloth_step.comp"}, {&contact, "cloth_contact.comp"}});
      !s)
    return s.error();
  auto solver = std::make_unique<GpuClothSolver>(std::move(model), settings, std::move(programs), std::move(step),
                                                 std::move(contact));
  if (Status s = solver->enableSelfContact(); !s) return s.error();
  return std::unique_ptr<ClothSolver>(std::move(solver));
}

Result<std::unique_ptr<ClothSolver>> createClothSolver(Backend backend, std::shared_ptr<const ClothModel> model,
                                                       const ClothSettings& settings) {
  return backend == Backend::Cpu ? createCpuClothSolver(std::move(model), settings)
                                 : createGpuClothSolver(std::move(model), settings);
}

}  // namespace hg
