#include "sim/gpu/GpuClothSolver.h"

#include <cassert>
#include <utility>

#include "render/gl/GlObjects.h"
#include "render/gl/ShaderRegistry.h"
#include "sim/cpu/CpuClothSolver.h"

namespace hg {
namespace {

class GpuClothSolver final : public ClothSolver {
public:
  GpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                 gl::Program program)
      : ClothSolver(std::move(model), settings), m_program(std::move(program)) {
    const ClothModel& m = *m_model;
    const std::size_t stateBytes = m.vertexCount() * sizeof(glm::vec4);
    const kernels::ClothStepParams params = m_settings.stepParams(m.vertexCount());
    m_params = gl::createBuffer(sizeof(params), &params);
    for (int k = 0; k < 2; ++k) {
      m_positions[k] = gl::createBuffer(stateBytes);
      m_velocities[k] = gl::createBuffer(stateBytes);
    }
    m_offsets = gl::createBuffer(std::span<const std::uint32_t>(m.springOffsets));
    m_springs = gl::createBuffer(std::span<const kernels::SpringEntry>(m.springEntries));
    const std::uint32_t zero = 0;
    m_status = gl::createBuffer(sizeof(zero), &zero);
    writeState(restState(m));
  }

  Backend backend() const override { return Backend::Gpu; }

  StepStatus step() override {
    const auto n = GLuint(m_model->vertexCount());
    const GLuint groups = (n + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE;
    const std::uint32_t zero = 0;
    glNamedBufferSubData(m_status.id(), 0, sizeof(zero), &zero);
    glUseProgram(m_program.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_CLOTH_PARAMS, m_params.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRING_OFFSETS, m_offsets.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRINGS, m_springs.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_STEP_STATUS, m_status.id());
    for (int s = 0; s < m_settings.substeps; ++s) {
      const int in = m_current, out = 1 - m_current;
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, m_positions[in].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_IN, m_velocities[in].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_OUT, m_positions[out].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_OUT, m_velocities[out].id());
      if (groups > 0) glDispatchCompute(groups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      m_current = out;
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::uint32_t status = 0;
    gl::readBuffer(m_status, sizeof(status), &status);  // small, one word per frame
    return StepStatus(status);
  }

  ClothState readState() const override {
    ClothState state;
    state.positions.resize(m_model->vertexCount());
    state.velocities.resize(m_model->vertexCount());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl::readBuffer(m_positions[m_current], state.positions.size() * sizeof(glm::vec4), state.positions.data());
    gl::readBuffer(m_velocities[m_current], state.velocities.size() * sizeof(glm::vec4), state.velocities.data());
    return state;
  }

  void writeState(const ClothState& state) override {
    assert(state.positions.size() == m_model->vertexCount());
    assert(state.velocities.size() == m_model->vertexCount());
    const std::size_t bytes = state.positions.size() * sizeof(glm::vec4);
    if (bytes == 0) return;
    glNamedBufferSubData(m_positions[m_current].id(), 0, GLsizeiptr(bytes), state.positions.data());
    glNamedBufferSubData(m_velocities[m_current].id(), 0, GLsizeiptr(bytes), state.velocities.data());
  }

private:
  gl::Program m_program;
  gl::Buffer m_params, m_offsets, m_springs, m_status;
  gl::Buffer m_positions[2], m_velocities[2];
  int m_current = 0;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createGpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings) {
  if (!model) return Error{"createGpuClothSolver: no cloth model"};
  if (Status s = settings.validate(); !s) return s.error();
  auto program = gl::ShaderRegistry().buildCompute("cloth_step.comp");
  if (!program) return program.error();
  return std::unique_ptr<ClothSolver>(
      new GpuClothSolver(std::move(model), settings, std::move(program).value()));
}

Result<std::unique_ptr<ClothSolver>> createClothSolver(Backend backend,
                                                       std::shared_ptr<const ClothModel> model,
                                                       const ClothSettings& settings) {
  return backend == Backend::Cpu ? createCpuClothSolver(std::move(model), settings)
                                 : createGpuClothSolver(std::move(model), settings);
}

}  // namespace hg
