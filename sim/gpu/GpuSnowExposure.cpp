#include "sim/gpu/GpuSnowExposure.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <glm/vec4.hpp>

#include "sim/core/Finite.h"
#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

constexpr std::string_view kWho = "snow exposure (GPU)";
// Uniform locations (sim/gpu/shaders/snow_depth.vert, snow_exposure.comp).
constexpr GLint kMapIndexLocation = 0;
constexpr GLint kPointCountLocation = 1;
// Vertex attribute of the scene's positions (vec3, m).
constexpr GLuint kPositionAttribute = 0;
// Most workgroups per dispatch (GL's guaranteed minimum of GL_MAX_COMPUTE_WORK_GROUP_COUNT);
// the compute pass strides over the rest.
constexpr std::size_t kMaxWorkGroups = 65535;

Error gpuError(std::string message) { return Error{std::string(kWho) + ": " + std::move(message)}; }

/// An error of the shared CPU checks (snowMapFrame, settings) named as this pass's.
Error asGpuError(const Error& error) {
  constexpr std::string_view cpuPrefix = "snow exposure: ";
  if (std::string_view(error.message).substr(0, cpuPrefix.size()) == cpuPrefix)
    return gpuError(error.message.substr(cpuPrefix.size()));
  return gpuError(error.message);
}

Status checkGl(std::string_view what) { return gpu::checkGl(kWho, what); }

/// The blend equation and the colour mask of draw buffer 0, which SavedRasterState does not
/// cover, restored when destroyed.
class SavedBlendState {
 public:
  SavedBlendState() {
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &m_rgb);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &m_alpha);
    glGetBooleanv(GL_COLOR_WRITEMASK, m_mask);
  }
  ~SavedBlendState() {
    glBlendEquationSeparate(GLenum(m_rgb), GLenum(m_alpha));
    glColorMask(m_mask[0], m_mask[1], m_mask[2], m_mask[3]);
  }
  SavedBlendState(const SavedBlendState&) = delete;
  SavedBlendState& operator=(const SavedBlendState&) = delete;

 private:
  GLint m_rgb = GL_FUNC_ADD, m_alpha = GL_FUNC_ADD;
  GLboolean m_mask[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};
};

}  // namespace

Result<std::unique_ptr<GpuSnowExposure>> GpuSnowExposure::create(const SnowExposureSettings& settings) {
  if (Status s = settings.validate(); !s) return asGpuError(s.error());
  std::unique_ptr<GpuSnowExposure> e(new GpuSnowExposure());
  e->m_settings = settings;
  auto depth = gpuShaders().buildGraphics("snow_depth.vert", "snow_depth.frag");
  if (!depth) return depth.error().prefixed(std::string(kWho) + ": ");
  e->m_depthProgram = std::move(depth).value();
  auto count = gpuShaders().buildCompute("snow_exposure.comp");
  if (!count) return count.error().prefixed(std::string(kWho) + ": ");
  e->m_countProgram = std::move(count).value();
  (void)checkGl("before create");  // errors of earlier, unrelated calls are not ours
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  e->m_vertexArray = gl::VertexArray(vao);
  glEnableVertexArrayAttrib(vao, kPositionAttribute);
  glVertexArrayAttribFormat(vao, kPositionAttribute, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao, kPositionAttribute, kPositionAttribute);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &e->m_maxTextureSize);
  if (Status s = checkGl("creating the vertex array"); !s) return s.error();
  return e;
}

Status GpuSnowExposure::uploadScene(const TriangleMesh& scene) {
  for (std::uint32_t index : scene.indices)
    if (index >= scene.positions.size())
      return gpuError("the scene has a triangle index out of range (" + std::to_string(index) + ")");
  for (const glm::vec3& p : scene.positions)
    if (!allFinite(p)) return gpuError("the scene has a non-finite vertex");
  // Buffers of at least one element (GL has no empty storage); a smaller scene reuses them.
  const std::size_t vertexBytes = std::max<std::size_t>(scene.positions.size(), 1) * sizeof(glm::vec3);
  const std::size_t indexBytes = std::max<std::size_t>(scene.indices.size(), 1) * sizeof(std::uint32_t);
  GLint64 vertexCapacity = 0, indexCapacity = 0;
  if (m_positions) glGetNamedBufferParameteri64v(m_positions.id(), GL_BUFFER_SIZE, &vertexCapacity);
  if (m_indices) glGetNamedBufferParameteri64v(m_indices.id(), GL_BUFFER_SIZE, &indexCapacity);
  if (std::size_t(vertexCapacity) < vertexBytes) {
    m_positions = gl::createBuffer(vertexBytes, nullptr);
    glVertexArrayVertexBuffer(m_vertexArray.id(), kPositionAttribute, m_positions.id(), 0, sizeof(glm::vec3));
  }
  if (std::size_t(indexCapacity) < indexBytes) {
    m_indices = gl::createBuffer(indexBytes, nullptr);
    glVertexArrayElementBuffer(m_vertexArray.id(), m_indices.id());
  }
  if (!scene.positions.empty())
    glNamedBufferSubData(m_positions.id(), 0, GLsizeiptr(scene.positions.size() * sizeof(glm::vec3)),
                         scene.positions.data());
  if (!scene.indices.empty())
    glNamedBufferSubData(m_indices.id(), 0, GLsizeiptr(scene.indices.size() * sizeof(std::uint32_t)),
                         scene.indices.data());
  m_indexCount = scene.indices.size();
  return checkGl("uploading the scene");
}

Status GpuSnowExposure::ensureTarget(int width, int height) {
  if (m_depthMap && width <= m_targetWidth && height <= m_targetHeight) return Status::success();
  width = std::max({width, m_targetWidth, 1});
  height = std::max({height, m_targetHeight, 1});
  GLuint texture = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &texture);
  m_depthMap = gl::Texture(texture);
  glTextureStorage2D(texture, 1, GL_R32F, width, height);
  glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  GLuint fbo = 0;
  glCreateFramebuffers(1, &fbo);
  m_target = gl::Framebuffer(fbo);
  glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, texture, 0);
  glNamedFramebufferDrawBuffer(fbo, GL_COLOR_ATTACHMENT0);
  if (glCheckNamedFramebufferStatus(fbo, GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    return graphicsError(std::string(kWho) + ": the R32F depth-map framebuffer of " + std::to_string(width) + " x " +
                         std::to_string(height) + " texels is incomplete");
  m_targetWidth = width;
  m_targetHeight = height;
  return checkGl("creating the depth map");
}

Status GpuSnowExposure::countHits(const TriangleMesh& scene, GLuint pointBuffer, std::size_t pointCount,
                                  std::span<const SnowMapFrame> frames, GLuint hitBuffer) {
  (void)checkGl("before countHits");  // errors of earlier, unrelated calls are not ours
  if (Status s = checkFrames(frames); !s) return s;
  if (Status s = uploadScene(scene); !s) return s;
  return drawAndCount(m_vertexArray.id(), m_indexCount, pointBuffer, pointCount, frames, hitBuffer);
}

Status GpuSnowExposure::countHitsOnGpu(GLuint positionBuffer, std::size_t vertexCount, GLuint indexBuffer,
                                       std::size_t indexCount, GLuint pointBuffer, std::size_t pointCount,
                                       std::span<const SnowMapFrame> frames, GLuint hitBuffer) {
  (void)checkGl("before countHitsOnGpu");  // errors of earlier, unrelated calls are not ours
  if (Status s = checkFrames(frames); !s) return s;
  if (vertexCount == 0 || indexCount == 0)
    return drawAndCount(m_vertexArray.id(), 0, pointBuffer, pointCount, frames, hitBuffer);
  if (!m_gpuVertexArray) {
    GLuint vao = 0;
    glCreateVertexArrays(1, &vao);
    m_gpuVertexArray = gl::VertexArray(vao);
    glEnableVertexArrayAttrib(vao, kPositionAttribute);
    glVertexArrayAttribFormat(vao, kPositionAttribute, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, kPositionAttribute, kPositionAttribute);
  }
  glVertexArrayVertexBuffer(m_gpuVertexArray.id(), kPositionAttribute, positionBuffer, 0, sizeof(glm::vec4));
  glVertexArrayElementBuffer(m_gpuVertexArray.id(), indexBuffer);
  return drawAndCount(m_gpuVertexArray.id(), indexCount, pointBuffer, pointCount, frames, hitBuffer);
}

Status GpuSnowExposure::checkFrames(std::span<const SnowMapFrame> frames) const {
  for (const SnowMapFrame& f : frames) {
    if (!allFinite(f.direction) || !allFinite(f.right) || !allFinite(f.up) || !std::isfinite(f.minRight) ||
        !std::isfinite(f.minUp) || !std::isfinite(f.texel) || !(f.texel > 0.0f) || f.width < 0 || f.height < 0)
      return gpuError(
          "a depth-map frame is invalid (non-finite, texel <= 0 or negative size); make it with snowMapFrame");
    if (f.width > m_maxTextureSize || f.height > m_maxTextureSize)
      return gpuError("a depth map of " + std::to_string(f.width) + " x " + std::to_string(f.height) +
                      " texels exceeds GL_MAX_TEXTURE_SIZE = " + std::to_string(m_maxTextureSize) +
                      "; raise the texel size (now " + std::to_string(f.texel) + " m)");
  }
  return Status::success();
}

Status GpuSnowExposure::drawAndCount(GLuint vertexArray, std::size_t indexCount, GLuint pointBuffer,
                                     std::size_t pointCount, std::span<const SnowMapFrame> frames, GLuint hitBuffer) {
  if (pointCount == 0 || frames.empty()) return Status::success();
  int width = 0, height = 0;
  for (const SnowMapFrame& f : frames) {
    width = std::max(width, f.width);
    height = std::max(height, f.height);
  }
  if (pointCount > std::size_t(std::numeric_limits<std::uint32_t>::max()))
    return gpuError(std::to_string(pointCount) + " receiving points are more than a uint index reaches");
  if (Status s = ensureTarget(width, height); !s) return s;

  // The maps' records, laid out as if all maps were stored one after the other (texels.z;
  // -1 past the int range): the layout a pass keeping every map would use.
  std::vector<kernels::SnowMap> maps;
  maps.reserve(frames.size());
  std::int64_t firstTexel = 0;
  for (const SnowMapFrame& f : frames) {
    maps.push_back(snowMapRecord(f, m_settings, int(maps.size()),
                                 firstTexel <= std::numeric_limits<int>::max() ? int(firstTexel) : -1));
    firstTexel += std::int64_t(f.width) * std::int64_t(f.height);
  }
  if (maps.size() > m_mapCapacity) {
    m_maps = gl::createBuffer(maps.size() * sizeof(kernels::SnowMap), nullptr);
    m_mapCapacity = maps.size();
  }
  glNamedBufferSubData(m_maps.id(), 0, GLsizeiptr(maps.size() * sizeof(kernels::SnowMap)), maps.data());

  gpu::SavedRasterState savedRaster;
  SavedBlendState savedBlend;
  glDisable(GL_DEPTH_TEST);   // the nearest surface is kept by the GL_MIN blend
  glEnable(GL_DEPTH_CLAMP);   // no near/far clipping (z is 0 anyway)
  glEnable(GL_SCISSOR_TEST);  // the clear stays within the frame's texels
  glDisable(GL_CULL_FACE);    // both windings are drawn, as the CPU reference
  glEnable(GL_BLEND);
  glBlendEquation(GL_MIN);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glBindVertexArray(vertexArray);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_target.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SNOW_MAPS, m_maps.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SNOW_POINTS, pointBuffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SNOW_HITS, hitBuffer);
  glBindTextureUnit(0, m_depthMap.id());
  const float noSurface = std::numeric_limits<float>::infinity();
  const std::size_t groups =
      std::min(kMaxWorkGroups, (pointCount + std::size_t(HG_WORKGROUP_SIZE) - 1) / std::size_t(HG_WORKGROUP_SIZE));
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const SnowMapFrame& f = frames[k];
    if (f.width > 0 && f.height > 0) {
      glViewport(0, 0, f.width, f.height);
      glScissor(0, 0, f.width, f.height);
      glClearNamedFramebufferfv(m_target.id(), GL_COLOR, 0, &noSurface);
      glUseProgram(m_depthProgram.id());
      glUniform1i(kMapIndexLocation, GLint(k));
      if (indexCount > 0) glDrawElements(GL_TRIANGLES, GLsizei(indexCount), GL_UNSIGNED_INT, nullptr);
    }
    // The compute pass reads the map through texelFetch (ordered after the draw by GL)
    // and adds to the counters the previous pass wrote (barrier below).
    glUseProgram(m_countProgram.id());
    glUniform1i(kMapIndexLocation, GLint(k));
    glUniform1ui(kPointCountLocation, GLuint(pointCount));
    glDispatchCompute(GLuint(groups), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindTextureUnit(0, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  return checkGl("while rendering the depth maps and counting hits");
}

Result<std::vector<float>> GpuSnowExposure::exposure(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                                     std::span<const glm::vec3> directions) {
  // The checks of snowExposureCpu, in its order.
  if (directions.empty()) return gpuError("no snowfall directions");
  for (std::uint32_t index : scene.indices)
    if (index >= scene.positions.size())
      return gpuError("the scene has a triangle index out of range (" + std::to_string(index) + ")");
  std::vector<SnowMapFrame> frames;
  frames.reserve(directions.size());
  for (const glm::vec3& direction : directions) {
    auto frame = snowMapFrame(direction, scene, points, m_settings);
    if (!frame) return asGpuError(frame.error());
    frames.push_back(*frame);
  }
  if (points.empty()) return std::vector<float>{};
  std::vector<glm::vec4> padded(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) padded[k] = glm::vec4(points[k], 1.0f);
  (void)checkGl("before exposure");
  const gl::Buffer pointBuffer = gl::createBuffer(std::span<const glm::vec4>(padded), 0);
  const gl::Buffer hitBuffer = gl::createBuffer(points.size() * sizeof(std::uint32_t), nullptr, 0);
  const GLuint zero = 0;
  glClearNamedBufferData(hitBuffer.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  if (Status s = countHits(scene, pointBuffer.id(), points.size(), frames, hitBuffer.id()); !s) return s.error();
  std::vector<std::uint32_t> hits(points.size());
  gl::readBuffer(hitBuffer, hits.size() * sizeof(std::uint32_t), hits.data());
  if (Status s = checkGl("reading the hit counts back"); !s) return s.error();
  std::vector<float> exposure(points.size());
  const int rays = std::max(m_settings.raysPerDirection, 1);
  for (std::size_t k = 0; k < points.size(); ++k)
    exposure[k] = float(hits[k]) / (float(directions.size()) * float(rays));
  return exposure;
}

}  // namespace hg
