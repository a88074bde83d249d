#include "render/MeshRenderer.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace hg {

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 dir(std::cos(elevation) * std::sin(azimuth), std::sin(elevation),
                      std::cos(elevation) * std::cos(azimuth));
  return target + distance * dir;
}

glm::mat4 OrbitCamera::viewProjection(float aspect) const {
  const glm::mat4 view = glm::lookAt(eye(), target, glm::vec3(0.0f, 1.0f, 0.0f));
  const float nearPlane = std::max(0.01f, distance * 0.02f);
  const glm::mat4 projection = glm::perspective(fovY, aspect, nearPlane, distance * 20.0f);
  return projection * view;
}

void OrbitCamera::frame(glm::vec3 center, float radius) {
  target = center;
  distance = radius / std::sin(0.5f * fovY) * 1.05f;
}

MeshRenderer::MeshRenderer(gl::Program program) : m_program(std::move(program)) {
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  m_vao = gl::VertexArray(vao);
  glEnableVertexArrayAttrib(vao, 0);
  glVertexArrayAttribFormat(vao, 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao, 0, 0);
  glEnableVertexArrayAttrib(vao, 1);
  glVertexArrayAttribFormat(vao, 1, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao, 1, 1);
}

Result<MeshRenderer> MeshRenderer::create(const gl::ShaderRegistry& registry) {
  auto program = registry.buildGraphics("mesh.vert", "mesh.frag");
  if (!program) return program.error();
  return MeshRenderer(std::move(program).value());
}

void MeshRenderer::draw(std::span<const DrawItem> items, const OrbitCamera& camera, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(0.93f, 0.94f, 0.96f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(m_program.id());
  const glm::mat4 viewProjection = camera.viewProjection(float(width) / float(std::max(height, 1)));
  glUniformMatrix4fv(0, 1, GL_FALSE, glm::value_ptr(viewProjection));
  const glm::vec3 eye = camera.eye();
  glUniform3fv(3, 1, glm::value_ptr(eye));
  glBindVertexArray(m_vao.id());
  for (const DrawItem& item : items) {
    const TriangleMesh& mesh = *item.mesh;
    if (mesh.indices.empty() || mesh.normals.size() != mesh.positions.size()) continue;
    gl::Buffer positions = gl::createBuffer(std::span<const glm::vec3>(mesh.positions), 0);
    gl::Buffer normals = gl::createBuffer(std::span<const glm::vec3>(mesh.normals), 0);
    gl::Buffer indices = gl::createBuffer(std::span<const std::uint32_t>(mesh.indices), 0);
    glVertexArrayVertexBuffer(m_vao.id(), 0, positions.id(), 0, sizeof(glm::vec3));
    glVertexArrayVertexBuffer(m_vao.id(), 1, normals.id(), 0, sizeof(glm::vec3));
    glVertexArrayElementBuffer(m_vao.id(), indices.id());
    glUniform3fv(1, 1, glm::value_ptr(item.frontColor));
    glUniform3fv(2, 1, glm::value_ptr(item.backColor));
    glUniform1i(4, item.checker ? 1 : 0);
    glDrawElements(GL_TRIANGLES, GLsizei(mesh.indices.size()), GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
}

}  // namespace hg
