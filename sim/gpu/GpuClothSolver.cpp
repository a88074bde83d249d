#include "sim/gpu/GpuClothSolver.h"

#include <cassert>
#include <utility>

#include "render/gl/GlObjects.h"
#include "render/gl/ShaderRegistry.h"
#include "sim/cpu/CpuClothSolver.h"
#include "sim/gpu/GpuProjectiveClothSolver.h"

namespace hg {
namespace {

GLuint groupsFor(std::size_t count) { return GLuint((count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE); }

struct GpuClothPrograms {
  gl::Program forces, step, setup, plasticity;
};

class GpuClothSolver final : public ClothSolver {
public:
  GpuClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings, GpuClothPrograms programs)
      : ClothSolver(std::move(model), settings), m_programs(std::move(programs)) {
    const ClothModel& m = *m_model;
    const std::size_t stateBytes = m.vertexCount() * sizeof(glm::vec4);
    m_params = gl::createBuffer(sizeof(kernels::ClothStepParams));
    for (int k = 0; k < 2; ++k) {
      m_positions[k] = gl::createBuffer(stateBytes);
      m_velocities[k] = gl::createBuffer(stateBytes);
    }
    m_springOffsets = gl::createBuffer(std::span<const std::uint32_t>(m.springOffsets));
    m_springEntries = gl::createBuffer(std::span<const kernels::SpringEntry>(m.springEntries));
    m_springs = gl::createBuffer(std::span<const kernels::ClothSpring>(m.springs));
    m_hingeOffsets = gl::createBuffer(std::span<const std::uint32_t>(m.hingeOffsets));
    m_hingeEntries = gl::createBuffer(std::span<const std::uint32_t>(m.hingeEntries));
    m_hinges = gl::createBuffer(std::span<const kernels::ClothHinge>(m.hinges));
    m_elementForces = gl::createBuffer((m.springs.size() + 4 * m.hinges.size()) * sizeof(glm::vec4));
    const std::uint32_t zero = 0;
    m_status = gl::createBuffer(sizeof(zero), &zero);
    writeState(restState(m));
    runSetup();
  }

  Backend backend() const override { return Backend::Gpu; }

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

  std::vector<kernels::ClothSpring> readSprings() const override {
    std::vector<kernels::ClothSpring> springs(m_model->springs.size());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl::readBuffer(m_springs, springs.size() * sizeof(kernels::ClothSpring), springs.data());
    return springs;
  }

  std::vector<kernels::ClothHinge> readHinges() const override {
    std::vector<kernels::ClothHinge> hinges(m_model->hinges.size());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl::readBuffer(m_hinges, hinges.size() * sizeof(kernels::ClothHinge), hinges.data());
    return hinges;
  }

  void setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) override {
    assert(vertices.size() == positions.size());
    for (std::size_t k = 0; k < vertices.size(); ++k) {
      const std::uint32_t v = vertices[k];
      if (m_model->restPositions[v].w != 0.0f) continue;  // only pinned vertices are kinematic
      glm::vec4 current;
      gl::readBuffer(m_positions[m_current], sizeof(glm::vec4), &current, v * sizeof(glm::vec4));
      const glm::vec4 velocity((positions[k] - glm::vec3(current)) / m_settings.frameDt, 0.0f);
      const glm::vec4 target(positions[k], 0.0f);
      glNamedBufferSubData(m_positions[m_current].id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &target);
      glNamedBufferSubData(m_velocities[m_current].id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &velocity);
    }
  }

protected:
  StepStatus advance(int substeps, float velocityDamping) override {
    const kernels::ClothStepParams params = m_settings.stepParams(*m_model, substeps, velocityDamping);
    glNamedBufferSubData(m_params.id(), 0, sizeof(params), &params);
    const std::uint32_t zero = 0;
    glNamedBufferSubData(m_status.id(), 0, sizeof(zero), &zero);
    bindModel();
    const GLuint vertexGroups = groupsFor(m_model->vertexCount());
    const GLuint elementGroups = groupsFor(m_model->springs.size() + m_model->hinges.size());
    for (int s = 0; s < substeps; ++s) {
      const int in = m_current, out = 1 - m_current;
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, m_positions[in].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_IN, m_velocities[in].id());
      if (elementGroups > 0) {
        glUseProgram(m_programs.forces.id());
        glDispatchCompute(elementGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      glUseProgram(m_programs.step.id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_OUT, m_positions[out].id());
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_OUT, m_velocities[out].id());
      if (vertexGroups > 0) glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      m_current = out;
      if (params.plasticRate > 0.0f && elementGroups > 0) {
        glUseProgram(m_programs.plasticity.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, m_positions[out].id());
        glDispatchCompute(elementGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::uint32_t status = 0;
    gl::readBuffer(m_status, sizeof(status), &status);  // one word per frame
    return StepStatus(status);
  }

private:
  void bindModel() const {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_CLOTH_PARAMS, m_params.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRING_OFFSETS, m_springOffsets.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRING_ENTRIES, m_springEntries.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRINGS, m_springs.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGE_OFFSETS, m_hingeOffsets.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGE_ENTRIES, m_hingeEntries.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGES, m_hinges.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_STEP_STATUS, m_status.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_ELEMENT_FORCES, m_elementForces.id());
  }

  /// Samples the anisotropy texture on the GPU into every spring's stiffness.
  void runSetup() {
    const kernels::ClothStepParams params = m_settings.stepParams(*m_model, m_settings.substeps, m_settings.velocityDamping);
    glNamedBufferSubData(m_params.id(), 0, sizeof(params), &params);
    gl::Texture texture;
    const bool hasTexture = m_model->anisotropy.has_value();
    if (hasTexture) {
      const AnisotropyTexture& t = *m_model->anisotropy;
      GLuint id = 0;
      glCreateTextures(GL_TEXTURE_2D, 1, &id);
      texture = gl::Texture(id);
      glTextureStorage2D(id, 1, GL_RGBA8, t.width, t.height);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTextureSubImage2D(id, 0, 0, 0, t.width, t.height, GL_RGBA, GL_UNSIGNED_BYTE, t.rgba.data());
      glBindTextureUnit(HG_TEXTURE_UNIT_ANISOTROPY, id);
    }
    glUseProgram(m_programs.setup.id());
    glUniform1i(0, hasTexture ? 1 : 0);
    glUniform1f(1, hasTexture ? m_model->anisotropy->scale : 1.0f);
    bindModel();
    if (const GLuint groups = groupsFor(m_model->springs.size()); groups > 0) glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    if (hasTexture) glBindTextureUnit(HG_TEXTURE_UNIT_ANISOTROPY, 0);
  }

  GpuClothPrograms m_programs;
  gl::Buffer m_params, m_springOffsets, m_springEntries, m_springs, m_hingeOffsets, m_hingeEntries, m_hinges, m_status,
      m_elementForces;
  gl::Buffer m_positions[2], m_velocities[2];
  int m_current = 0;
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createGpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings) {
  if (!model) return Error{"createGpuClothSolver: no cloth model"};
  if (Status s = settings.validate(); !s) return s.error();
  if (settings.integrator == ClothIntegrator::ProjectiveJacobi)
    return createGpuProjectiveClothSolver(std::move(model), settings);
  const gl::ShaderRegistry registry;
  GpuClothPrograms programs;
  for (auto [program, name] : {std::pair{&programs.forces, "cloth_forces.comp"}, std::pair{&programs.step, "cloth_step.comp"},
                               std::pair{&programs.setup, "cloth_setup.comp"},
                               std::pair{&programs.plasticity, "cloth_plasticity.comp"}}) {
    auto built = registry.buildCompute(name);
    if (!built) return built.error();
    *program = std::move(built).value();
  }
  return std::unique_ptr<ClothSolver>(new GpuClothSolver(std::move(model), settings, std::move(programs)));
}

Result<std::unique_ptr<ClothSolver>> createClothSolver(Backend backend, std::shared_ptr<const ClothModel> model,
                                                       const ClothSettings& settings) {
  return backend == Backend::Cpu ? createCpuClothSolver(std::move(model), settings)
                                 : createGpuClothSolver(std::move(model), settings);
}

}  // namespace hg
