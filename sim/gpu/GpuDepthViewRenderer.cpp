#include "sim/gpu/GpuDepthViewRenderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/geometry/OrthoRaster.h"
#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuClothSolverBase.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

// Uniform locations of sim/gpu/shaders/depth_view.vert / .frag.
constexpr GLint kOriginLocation = 0;
constexpr GLint kRightLocation = 1;
constexpr GLint kUpLocation = 2;
constexpr GLint kForwardLocation = 3;
constexpr GLint kDepthScaleLocation = 4;
constexpr GLint kLayerLocation = 5;
// Storage-buffer bindings of the mesh in depth_view.frag (its depth is interpolated in
// double from the triangle's vertices).
constexpr GLuint kMeshPositionsBinding = HG_BINDING_DEPTH_MESH_POSITIONS;
constexpr GLuint kMeshIndicesBinding = HG_BINDING_DEPTH_MESH_INDICES;
// Vertex attributes.
constexpr GLuint kPositionAttribute = 0, kVelocityAttribute = 2;

Status checkGl(const std::string& what) { return gpu::checkGl("GpuDepthViewRenderer", what); }

}  // namespace

Result<std::unique_ptr<GpuDepthViewRenderer>> GpuDepthViewRenderer::create(const DepthViewSetup& setup) {
  if (setup.views.empty()) return Error{"GpuDepthViewRenderer: the setup has no views"};
  if (setup.views.size() != setup.directions.size())
    return Error{"GpuDepthViewRenderer: the setup has " + std::to_string(setup.views.size()) + " views but " +
                 std::to_string(setup.directions.size()) + " directions"};
  std::unique_ptr<GpuDepthViewRenderer> r(new GpuDepthViewRenderer());
  r->m_setup = setup;
  for (const kernels::DepthView& v : setup.views) {
    if (v.texels.y < 1 || v.texels.y > HG_MAX_DEPTH_LAYERS || !(v.origin.w > 0.0f) || v.right.w < 1.0f ||
        v.up.w < 1.0f || !(v.forward.w >= 0.0f))
      return Error{"GpuDepthViewRenderer: the setup has an invalid view (texel size, size, range or layers)"};
    r->m_targetWidth = std::max(r->m_targetWidth, int(v.right.w));
    r->m_targetHeight = std::max(r->m_targetHeight, int(v.up.w));
  }
  GLint maxSize = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
  if (r->m_targetWidth > maxSize || r->m_targetHeight > maxSize)
    return Error{"GpuDepthViewRenderer: a view of " + std::to_string(r->m_targetWidth) + " x " +
                 std::to_string(r->m_targetHeight) +
                 " texels exceeds GL_MAX_TEXTURE_SIZE = " + std::to_string(maxSize) + " (raise the texel size)"};

  auto program = gpuShaders().buildGraphics("depth_view.vert", "depth_view.frag");
  if (!program) return program.error();
  r->m_program = std::move(program).value();

  (void)checkGl("before create");  // errors of earlier, unrelated calls are not ours
  auto texture = [&](GLenum format) {
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    glTextureStorage2D(id, 1, format, r->m_targetWidth, r->m_targetHeight);
    glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return gl::Texture(id);
  };
  r->m_depth = texture(GL_DEPTH_COMPONENT32F);
  for (int p = 0; p < 2; ++p) {
    r->m_color[p][0] = texture(GL_RGBA32F);
    r->m_color[p][1] = texture(GL_RGBA32F);
    GLuint fbo = 0;
    glCreateFramebuffers(1, &fbo);
    r->m_framebuffers[p] = gl::Framebuffer(fbo);
    glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, r->m_color[p][0].id(), 0);
    glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT1, r->m_color[p][1].id(), 0);
    glNamedFramebufferTexture(fbo, GL_DEPTH_ATTACHMENT, r->m_depth.id(), 0);
    const GLenum drawBuffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glNamedFramebufferDrawBuffers(fbo, 2, drawBuffers);
    const GLenum status = glCheckNamedFramebufferStatus(fbo, GL_DRAW_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      return graphicsError("GpuDepthViewRenderer: framebuffer of " + std::to_string(r->m_targetWidth) + " x " +
                           std::to_string(r->m_targetHeight) + " RGBA32F x 2 + D32F is incomplete (status 0x" +
                           [&] {
                             char hex[16];
                             std::snprintf(hex, sizeof hex, "%04x", status);
                             return std::string(hex);
                           }() +
                           ")");
  }
  r->m_views = gl::createBuffer(std::span<const kernels::DepthView>(setup.views), 0);
  const std::size_t texels = setup.texelCount();
  r->m_normalDepth = gl::createBuffer(texels * sizeof(glm::vec4), nullptr, 0);  // written by the GPU only
  r->m_velocity = gl::createBuffer(texels * sizeof(glm::vec4), nullptr, 0);
  // Until the first render: no surface anywhere.
  const glm::vec4 noSurface(0.0f, 0.0f, 0.0f, HG_NO_SURFACE_DEPTH), zero(0.0f);
  glClearNamedBufferData(r->m_normalDepth.id(), GL_RGBA32F, GL_RGBA, GL_FLOAT, &noSurface);
  glClearNamedBufferData(r->m_velocity.id(), GL_RGBA32F, GL_RGBA, GL_FLOAT, &zero);
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  r->m_vertexArray = gl::VertexArray(vao);
  for (GLuint a : {kPositionAttribute, kVelocityAttribute}) {
    glEnableVertexArrayAttrib(vao, a);
    glVertexArrayAttribFormat(vao, a, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, a, a);
  }
  if (Status s = checkGl("creating the render targets and buffers"); !s) return s.error();
  return r;
}

Status GpuDepthViewRenderer::upload(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities) {
  if (Status s = validateDepthViewBody(mesh, vertexVelocities, "GpuDepthViewRenderer"); !s) return s;
  const std::size_t n = mesh.positions.size();
  std::vector<glm::vec3> zeroVelocities;
  if (vertexVelocities.empty()) {
    zeroVelocities.assign(n, glm::vec3(0.0f));
    vertexVelocities = zeroVelocities;
  }
  const std::size_t vertexBytes = n * sizeof(glm::vec3);
  if (n > m_vertexCapacity || !m_positions) {
    m_positions = gl::createBuffer(vertexBytes, mesh.positions.data());
    m_velocities = gl::createBuffer(vertexBytes, vertexVelocities.data());
    m_vertexCapacity = n;
    const GLuint vao = m_vertexArray.id();
    glVertexArrayVertexBuffer(vao, kPositionAttribute, m_positions.id(), 0, sizeof(glm::vec3));
    glVertexArrayVertexBuffer(vao, kVelocityAttribute, m_velocities.id(), 0, sizeof(glm::vec3));
  } else if (n > 0) {
    glNamedBufferSubData(m_positions.id(), 0, GLsizeiptr(vertexBytes), mesh.positions.data());
    glNamedBufferSubData(m_velocities.id(), 0, GLsizeiptr(vertexBytes), vertexVelocities.data());
  }
  const std::size_t indexBytes = mesh.indices.size() * sizeof(std::uint32_t);
  if (mesh.indices.size() > m_indexCapacity || !m_indices) {
    m_indices = gl::createBuffer(indexBytes, mesh.indices.data());
    m_indexCapacity = mesh.indices.size();
    glVertexArrayElementBuffer(m_vertexArray.id(), m_indices.id());
  } else if (indexBytes > 0) {
    glNamedBufferSubData(m_indices.id(), 0, GLsizeiptr(indexBytes), mesh.indices.data());
  }
  m_indexCount = mesh.indices.size();
  return Status::success();
}

Status GpuDepthViewRenderer::render(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities) {
  (void)checkGl("before render");  // errors of earlier, unrelated calls are not ours
  if (Status s = upload(mesh, vertexVelocities); !s) return s;
  gpu::SavedRasterState saved;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glEnable(GL_DEPTH_CLAMP);   // no near/far clipping: every crossing of the box is drawn
  glEnable(GL_SCISSOR_TEST);  // clears and draws stay within the view's texels
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glUseProgram(m_program.id());
  glBindVertexArray(m_vertexArray.id());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kMeshPositionsBinding, m_positions.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kMeshIndicesBinding, m_indices.id());
  const glm::vec4 noSurface(0.0f, 0.0f, 0.0f, HG_NO_SURFACE_DEPTH), zero(0.0f);
  const float farDepth = 1.0f;
  for (const kernels::DepthView& view : m_setup.views) {
    const int width = int(view.right.w), height = int(view.up.w), layers = int(view.texels.y);
    glViewport(0, 0, width, height);
    glScissor(0, 0, width, height);
    glUniform4fv(kOriginLocation, 1, &view.origin.x);
    glUniform4fv(kRightLocation, 1, &view.right.x);
    glUniform4fv(kUpLocation, 1, &view.up.x);
    glUniform4fv(kForwardLocation, 1, &view.forward.x);
    glUniform1f(kDepthScaleLocation, exactDepthScale(view.forward.w));
    const std::size_t layerBytes = std::size_t(width) * std::size_t(height) * sizeof(glm::vec4);
    for (int k = 0; k < layers; ++k) {
      const int target = k % 2, previous = 1 - target;
      const GLuint fbo = m_framebuffers[target].id();
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
      glClearNamedFramebufferfv(fbo, GL_COLOR, 0, &noSurface.x);
      glClearNamedFramebufferfv(fbo, GL_COLOR, 1, &zero.x);
      glClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &farDepth);
      // Layer k - 1's normal/depth image (not attached to this framebuffer: no feedback).
      glBindTextureUnit(0, m_color[previous][0].id());
      glUniform1i(kLayerLocation, k);
      if (m_indexCount > 0) glDrawElements(GL_TRIANGLES, GLsizei(m_indexCount), GL_UNSIGNED_INT, nullptr);
      // Copy the layer's texels into the texel buffers, on the GPU (pixel pack buffer).
      const std::size_t offset =
          (std::size_t(view.texels.x) + std::size_t(k) * std::size_t(width) * std::size_t(height)) * sizeof(glm::vec4);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, m_normalDepth.id());
      glGetTextureSubImage(m_color[target][0].id(), 0, 0, 0, 0, width, height, 1, GL_RGBA, GL_FLOAT,
                           GLsizei(layerBytes), reinterpret_cast<void*>(offset));
      glBindBuffer(GL_PIXEL_PACK_BUFFER, m_velocity.id());
      glGetTextureSubImage(m_color[target][1].id(), 0, 0, 0, 0, width, height, 1, GL_RGBA, GL_FLOAT,
                           GLsizei(layerBytes), reinterpret_cast<void*>(offset));
      glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  // Pixel-pack writes are ordered with later GL commands; the barrier covers consumers
  // that map or read the buffers as storage buffers in incoherent ways.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  return checkGl("while rendering the depth views");
}

DepthViewImages GpuDepthViewRenderer::read() const {
  DepthViewImages images;
  images.setup = m_setup;
  const std::size_t texels = m_setup.texelCount();
  images.normalDepth.resize(texels);
  images.velocity.resize(texels);
  gl::readBuffer(m_normalDepth, texels * sizeof(glm::vec4), images.normalDepth.data());
  gl::readBuffer(m_velocity, texels * sizeof(glm::vec4), images.velocity.data());
  return images;
}

std::function<Status(ClothSolver&, const DepthViewSetup&, const TriangleMesh&, std::span<const glm::vec3>)>
makeGpuBodyViewRenderer() {
  auto renderer = std::make_shared<std::unique_ptr<GpuDepthViewRenderer>>();
  return [renderer](ClothSolver& solver, const DepthViewSetup& setup, const TriangleMesh& mesh,
                    std::span<const glm::vec3> velocities) -> Status {
    if (!*renderer || (*renderer)->setup().views.size() != setup.views.size() ||
        (*renderer)->setup().texelCount() != setup.texelCount()) {
      auto created = GpuDepthViewRenderer::create(setup);
      if (!created) return created.error();
      *renderer = std::move(created).value();
    }
    GpuDepthViewRenderer& r = **renderer;
    if (Status s = r.render(mesh, velocities); !s) return s;
    ClothColliders colliders = solver.settings().colliders;
    if (solver.backend() == Backend::Gpu) {  // the views stay on the GPU, no readback
      colliders.depthViews = nullptr;
      colliders.residentDepthViews = {r.viewsBuffer(), r.normalDepthBuffer(), r.velocityBuffer(),
                                      std::uint32_t(setup.views.size())};
    } else {
      colliders.residentDepthViews = {};
      colliders.depthViews = std::make_shared<const DepthViewImages>(r.read());
    }
    solver.setColliders(std::move(colliders));
    return Status::success();
  };
}

}  // namespace hg
