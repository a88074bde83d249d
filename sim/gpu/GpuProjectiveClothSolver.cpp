#include "sim/gpu/GpuProjectiveClothSolver.h"

#include <cassert>
#include <utility>

#include "render/gl/GlObjects.h"
#include "render/gl/ShaderRegistry.h"

namespace hg {
namespace {

GLuint groupsFor(std::size_t count) { return GLuint((count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE); }

struct GpuProjectivePrograms {
  gl::Program forces, predict, iterate, finish, setup, plasticity;
};

class GpuProjectiveClothSolver final : public ClothSolver {
 public:
  GpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                           GpuProjectivePrograms programs)
      : ClothSolver(std::move(model), settings), m_programs(std::move(programs)) {
    const ClothModel& m = *m_model;
    const std::size_t stateBytes = m.vertexCount() * sizeof(glm::vec4);
    m_params = gl::createBuffer(sizeof(kernels::ClothStepParams));
    m_positions = gl::createBuffer(stateBytes);
    m_velocities = gl::createBuffer(stateBytes);
    m_predicted = gl::createBuffer(stateBytes);
    for (gl::Buffer& iterate : m_iterates) iterate = gl::createBuffer(stateBytes);
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
    gl::readBuffer(m_positions, state.positions.size() * sizeof(glm::vec4), state.positions.data());
    gl::readBuffer(m_velocities, state.velocities.size() * sizeof(glm::vec4), state.velocities.data());
    return state;
  }

  void writeState(const ClothState& state) override {
    assert(state.positions.size() == m_model->vertexCount());
    assert(state.velocities.size() == m_model->vertexCount());
    const std::size_t bytes = state.positions.size() * sizeof(glm::vec4);
    if (bytes == 0) return;
    glNamedBufferSubData(m_positions.id(), 0, GLsizeiptr(bytes), state.positions.data());
    glNamedBufferSubData(m_velocities.id(), 0, GLsizeiptr(bytes), state.velocities.data());
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
      gl::readBuffer(m_positions, sizeof(glm::vec4), &current, v * sizeof(glm::vec4));
      const glm::vec4 velocity((positions[k] - glm::vec3(current)) / m_settings.frameDt, 0.0f);
      const glm::vec4 target(positions[k], 0.0f);
      glNamedBufferSubData(m_positions.id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &target);
      glNamedBufferSubData(m_velocities.id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &velocity);
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
    auto bind = [](GLuint binding, const gl::Buffer& buffer) {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer.id());
    };
    for (int s = 0; s < substeps && vertexGroups > 0; ++s) {
      // Bending forces at the substep's start (the element pass; springs unused here).
      bind(HG_BINDING_POSITIONS_IN, m_positions);
      bind(HG_BINDING_VELOCITIES_IN, m_velocities);
      if (elementGroups > 0) {
        glUseProgram(m_programs.forces.id());
        glDispatchCompute(elementGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      glUseProgram(m_programs.predict.id());
      bind(HG_BINDING_VELOCITIES_OUT, m_velocities);
      bind(HG_BINDING_PD_PREDICTED, m_predicted);
      glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

      // x^0 = y (u^0 = 0), as the CPU backend.
      glClearNamedBufferData(m_iterates[m_base].id(), GL_RGBA32F, GL_RGBA, GL_FLOAT, nullptr);
      // Jacobi + Chebyshev over three rotating buffers of displacements from y, as the
      // CPU backend (at k = 1 omega = 1 and u^{k-1} is not used).
      glUseProgram(m_programs.iterate.id());
      float omega = 1.0f;
      const int iterations = m_settings.solverIterations;
      for (int k = 1; k <= iterations; ++k) {
        omega = kernels::chebyshevOmega(std::uint32_t(k), m_settings.chebyshevRho, omega);
        bind(HG_BINDING_PD_CURRENT, m_iterates[slot(k - 1)]);
        bind(HG_BINDING_PD_PREVIOUS, m_iterates[slot(k == 1 ? 0 : k - 2)]);
        bind(HG_BINDING_PD_NEXT, m_iterates[slot(k)]);
        glUniform1f(0, omega);
        glDispatchCompute(vertexGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      m_base = slot(iterations);

      glUseProgram(m_programs.finish.id());
      bind(HG_BINDING_PD_CURRENT, m_iterates[m_base]);
      bind(HG_BINDING_POSITIONS_OUT, m_positions);
      glDispatchCompute(vertexGroups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

      if (params.plasticRate > 0.0f && elementGroups > 0) {
        glUseProgram(m_programs.plasticity.id());
        bind(HG_BINDING_POSITIONS_IN, m_positions);
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
  /// The iterate buffer of u^k in this substep.
  std::size_t slot(int k) const { return (m_base + std::size_t(k)) % 3; }

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

  /// Samples the anisotropy texture on the GPU into every spring's stiffness (the same
  /// setup pass as GpuClothSolver: shaders/cloth_setup.comp).
  void runSetup() {
    const kernels::ClothStepParams params =
        m_settings.stepParams(*m_model, m_settings.substeps, m_settings.velocityDamping);
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

  GpuProjectivePrograms m_programs;
  gl::Buffer m_params, m_springOffsets, m_springEntries, m_springs, m_hingeOffsets, m_hingeEntries, m_hinges, m_status,
      m_elementForces;
  gl::Buffer m_positions, m_velocities;  // the state, updated in place by the finish pass
  gl::Buffer m_predicted;                // y of the current substep
  gl::Buffer m_iterates[3];              // rotating u^{k-1}, u^k, u^{k+1}: x - y, m
  std::size_t m_base = 0;                // the buffer of u^0 (the last solution's)
};

}  // namespace

Result<std::unique_ptr<ClothSolver>> createGpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model,
                                                                    const ClothSettings& settings) {
  if (!model) return Error{"createGpuProjectiveClothSolver: no cloth model"};
  if (Status s = settings.validate(); !s) return s.error();
  const gl::ShaderRegistry registry;
  GpuProjectivePrograms programs;
  for (auto [program, name] :
       {std::pair{&programs.forces, "cloth_forces.comp"}, std::pair{&programs.predict, "cloth_pd_predict.comp"},
        std::pair{&programs.iterate, "cloth_pd_iterate.comp"}, std::pair{&programs.finish, "cloth_pd_finish.comp"},
        std::pair{&programs.setup, "cloth_setup.comp"}, std::pair{&programs.plasticity, "cloth_plasticity.comp"}}) {
    auto built = registry.buildCompute(name);
    if (!built) return built.error();
    *program = std::move(built).value();
  }
  return std::unique_ptr<ClothSolver>(new GpuProjectiveClothSolver(std::move(model), settings, std::move(programs)));
}

}  // namespace hg
