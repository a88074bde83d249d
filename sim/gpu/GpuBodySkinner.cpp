#include "sim/gpu/GpuBodySkinner.h"

#include <span>
#include <utility>

#include "sim/gpu/GpuShaders.h"

namespace hg {
namespace {

// Uniform locations of sim/gpu/shaders/skinning.comp.
constexpr GLint kVertexCountLocation = 0;
constexpr GLint kMethodLocation = 1;

}  // namespace

GpuBodySkinner::GpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh, SkinningMethod method,
                               std::vector<kernels::SkinVertex> vertices, gl::Program program)
    : BodySkinner(std::move(mesh), method, std::move(vertices)), m_program(std::move(program)) {
  const std::size_t n = m_vertices.size();
  m_vertexBuffer = gl::createBuffer(std::span<const kernels::SkinVertex>(m_vertices), 0);  // immutable
  const std::size_t jointBytes = method == SkinningMethod::Linear ? sizeof(glm::mat4) : sizeof(kernels::DualQuaternion);
  m_jointBuffer = gl::createBuffer(m_mesh->skeleton.size() * jointBytes);
  m_positions = gl::createBuffer(n * sizeof(glm::vec4), nullptr, 0);  // written by the GPU only
  m_normals = gl::createBuffer(n * sizeof(glm::vec4), nullptr, 0);
}

Status GpuBodySkinner::update(const Pose& pose) {
  if (Status s = prepareJoints(pose); !s) return s;
  const bool linear = m_method == SkinningMethod::Linear;
  if (linear && !m_matrices.empty())
    glNamedBufferSubData(m_jointBuffer.id(), 0, GLsizeiptr(m_matrices.size() * sizeof(glm::mat4)), m_matrices.data());
  if (!linear && !m_dualQuaternions.empty())
    glNamedBufferSubData(m_jointBuffer.id(), 0, GLsizeiptr(m_dualQuaternions.size() * sizeof(kernels::DualQuaternion)),
                         m_dualQuaternions.data());
  const std::size_t n = m_vertices.size();
  if (n == 0) return Status::success();
  glUseProgram(m_program.id());
  glUniform1ui(kVertexCountLocation, GLuint(n));
  glUniform1ui(kMethodLocation, linear ? 0u : 1u);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SKIN_VERTICES, m_vertexBuffer.id());
  // The joint buffer holds the method's records; it is bound to both joint bindings so
  // that no block of the program is left unbound (the other one is never read).
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SKIN_MATRICES, m_jointBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SKIN_DUAL_QUATERNIONS, m_jointBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SKIN_POSITIONS, m_positions.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SKIN_NORMALS, m_normals.id());
  glDispatchCompute(GLuint((n + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  return Status::success();
}

SkinnedSurface GpuBodySkinner::readSurface() const {
  SkinnedSurface surface;
  surface.positions.resize(m_vertices.size());
  surface.normals.resize(m_vertices.size());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(m_positions, surface.positions.size() * sizeof(glm::vec4), surface.positions.data());
  gl::readBuffer(m_normals, surface.normals.size() * sizeof(glm::vec4), surface.normals.data());
  return surface;
}

Result<std::unique_ptr<GpuBodySkinner>> createGpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh,
                                                             SkinningMethod method) {
  if (!mesh) return Error{"createGpuBodySkinner: no skinned mesh"};
  auto vertices = skinVertices(*mesh);
  if (!vertices) return vertices.error();
  auto program = gpuShaders().buildCompute("skinning.comp");
  if (!program) return program.error();
  std::unique_ptr<GpuBodySkinner> skinner(
      new GpuBodySkinner(mesh, method, std::move(vertices).value(), std::move(program).value()));
  if (Status s = skinner->update(restPose(mesh->skeleton)); !s) return s.error();
  return skinner;
}

Result<std::unique_ptr<BodySkinner>> createBodySkinner(Backend backend, std::shared_ptr<const SkinnedMesh> mesh,
                                                       SkinningMethod method) {
  if (backend == Backend::Cpu) {
    auto cpu = createCpuBodySkinner(std::move(mesh), method);
    if (!cpu) return cpu.error();
    return std::unique_ptr<BodySkinner>(std::move(cpu).value());
  }
  auto gpu = createGpuBodySkinner(std::move(mesh), method);
  if (!gpu) return gpu.error();
  return std::unique_ptr<BodySkinner>(std::move(gpu).value());
}

}  // namespace hg
