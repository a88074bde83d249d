#include "sim/gpu/GpuRadar.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gl/GlObjects.h"
#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuShaders.h"

namespace hg {
namespace {

constexpr std::string_view kWho = "GpuRadar";
// Uniform locations (sim/gpu/shaders/radar.vert, radar.frag, radar_analyze.comp).
constexpr GLint kFirstRadarLocation = 0;
constexpr GLint kFrameOffsetLocation = 1;
/// Texels (all radars of a chunk, per image) a chunk may hold: 16 B per texel over the four
/// layered images, so at most 256 MiB of render targets.
constexpr std::size_t kChunkTexels = std::size_t(16) << 20;

bool hasExtension(std::string_view name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    if (e && name == e) return true;
  }
  return false;
}

class GpuRadar final : public RadarBackend {
 public:
  static Result<std::unique_ptr<RadarBackend>> create() {
    if (!hasExtension("GL_ARB_shader_viewport_layer_array") && !hasExtension("GL_AMD_vertex_shader_layer"))
      return graphicsError(
          "GpuRadar: the OpenGL driver has neither GL_ARB_shader_viewport_layer_array nor "
          "GL_AMD_vertex_shader_layer (gl_Layer in the vertex shader: one draw for all radars)");
    std::unique_ptr<GpuRadar> r(new GpuRadar());
    auto raster = gpuShaders().buildGraphics("radar.vert", "radar.frag");
    if (!raster) return raster.error();
    r->m_raster = std::move(raster).value();
    auto analyze = gpuShaders().buildCompute("radar_analyze.comp");
    if (!analyze) return analyze.error();
    r->m_analyze = std::move(analyze).value();
    GLuint vao = 0;
    glCreateVertexArrays(1, &vao);
    r->m_vertexArray = gl::VertexArray(vao);
    glEnableVertexArrayAttrib(vao, 0);
    glVertexArrayAttribFormat(vao, 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, 0, 0);
    glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &r->m_maxLayers);
    if (Status s = gpu::checkGl(kWho, "creating the programs"); !s) return s.error();
    return std::unique_ptr<RadarBackend>(std::move(r));
  }

  std::string_view name() const override { return "gpu"; }

  Result<std::vector<RadarHit>> run(const RadarScene& scene, std::span<const RadarQuery> queries,
                                    RadarImageSize size) override {
    (void)gpu::checkGl(kWho, "before run");  // errors of earlier, unrelated calls are not ours
    auto frames = makeRadarFrames(scene, queries, size);
    if (!frames) return frames.error();
    const std::size_t count = queries.size();
    if (count == 0) return std::vector<RadarHit>{};
    const std::size_t pixels = std::size_t(size.width) * std::size_t(size.height);
    const std::size_t chunk =
        std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(std::max(m_maxLayers, 1)), kChunkTexels / pixels));
    bool reuse = false;
    for (std::size_t q = 0; q < count; ++q)
      if (queries[q].mode == RadarMode::Collide && queries[q].reuseMask) {
        reuse = true;
        if (m_size.width != size.width || m_size.height != size.height || q >= m_layers || count > chunk)
          return Error{"radar query " + std::to_string(q) + ": reuseMask but the previous run has no mask in slot " +
                       std::to_string(q) + " at this image size (masks are kept for batches of up to " +
                       std::to_string(chunk) + " radars)"};
      }
    if (Status s = uploadScene(scene); !s) return s.error();
    // Frames, then the mask frames (from the destination looking back), computed here once.
    std::vector<kernels::RadarFrame> all(*frames);
    for (const kernels::RadarFrame& f : *frames) all.push_back(kernels::radarMaskFrame(f));
    if (all.size() > m_frameCapacity) {  // grown, never shrunk: a per-frame batch reuses its buffers
      m_frames = gl::createBuffer(all.size() * sizeof(kernels::RadarFrame), nullptr, GL_DYNAMIC_STORAGE_BIT);
      m_results = gl::createBuffer(count * sizeof(kernels::RadarResult), nullptr, 0);
      m_frameCapacity = all.size();
    }
    glNamedBufferSubData(m_frames.id(), 0, GLsizeiptr(all.size() * sizeof(kernels::RadarFrame)), all.data());
    const std::size_t layers = std::min(count, chunk);
    if (Status s = ensureTargets(size, layers, reuse); !s) return s.error();

    gpu::SavedRasterState saved;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_FRAMES, m_frames.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_RESULTS, m_results.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_POSITIONS, m_positions.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_INDICES, m_indices.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_TRIANGLE_OBJECTS, m_triangleObjects.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_RADAR_VERTEX_OBJECTS, m_vertexObjects.id());
    for (std::size_t first = 0; first < count; first += chunk) {
      const std::size_t n = std::min(chunk, count - first);
      renderChunk(queries, first, n, count, size);
      analyzeChunk(first, n);
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    if (Status s = gpu::checkGl(kWho, "while running the radars"); !s) return s.error();
    m_size = size;
    m_layers = layers;
    m_lastFrames = *frames;
    m_lastCount = count;
    std::vector<kernels::RadarResult> results(count);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl::readBuffer(m_results, count * sizeof(kernels::RadarResult), results.data());
    std::vector<RadarHit> hits(count);
    for (std::size_t q = 0; q < count; ++q) hits[q] = toRadarHit((*frames)[q], results[q]);
    return hits;
  }

  Result<RadarImages> images() const override {
    if (m_lastCount == 0) return Error{"GpuRadar: no run yet"};
    if (m_lastCount > m_layers)
      return Error{"GpuRadar: the images of a batch over " + std::to_string(m_layers) +
                   " radars are not kept (only the last chunk's)"};
    RadarImages images;
    images.size = m_size;
    const std::size_t pixels = std::size_t(m_size.width) * std::size_t(m_size.height);
    const std::size_t n = pixels * m_lastCount;
    images.range.resize(n);
    images.object.resize(n);
    images.front.resize(n);
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
    auto read = [&](const gl::Texture& texture, GLenum format, GLenum type, void* out) {
      glGetTextureSubImage(texture.id(), 0, 0, 0, 0, m_size.width, m_size.height, GLsizei(m_lastCount), format, type,
                           GLsizei(n * 4), out);
    };
    read(m_range, GL_RED, GL_FLOAT, images.range.data());
    read(m_object, GL_RED_INTEGER, GL_UNSIGNED_INT, images.object.data());
    read(m_front, GL_RED, GL_FLOAT, images.front.data());
    for (std::size_t r = 0; r < m_lastCount; ++r) {
      const float d = m_lastFrames[r].origin.w;
      for (std::size_t p = r * pixels; p < (r + 1) * pixels; ++p)
        if (!(images.range[p] < d)) images.range[p] = d;  // nothing seen: R = d
    }
    if (Status s = gpu::checkGl(kWho, "reading the images back"); !s) return s.error();
    return images;
  }

 private:
  GpuRadar() = default;

  Status uploadScene(const RadarScene& scene) {
    const bool sameTopology = m_scene == &scene && m_topologyVersion == scene.topologyVersion();
    if (sameTopology && m_positionsVersion == scene.positionsVersion()) return Status::success();
    const auto& positions = scene.positions();
    if (sameTopology && !positions.empty()) {
      glNamedBufferSubData(m_positions.id(), 0, GLsizeiptr(positions.size() * sizeof(glm::vec3)), positions.data());
    } else {
      m_positions = gl::createBuffer(std::max<std::size_t>(positions.size(), 1) * sizeof(glm::vec3),
                                     positions.empty() ? nullptr : positions.data());
      m_indices = gl::createBuffer(std::max<std::size_t>(scene.indices().size(), 1) * sizeof(std::uint32_t),
                                   scene.indices().empty() ? nullptr : scene.indices().data(), 0);
      m_triangleObjects =
          gl::createBuffer(std::max<std::size_t>(scene.triangleObjects().size(), 1) * sizeof(std::uint32_t),
                           scene.triangleObjects().empty() ? nullptr : scene.triangleObjects().data(), 0);
      std::vector<std::uint32_t> vertexObjects(positions.size(), kRadarNoObject);
      for (std::size_t t = 0; t < scene.triangleObjects().size(); ++t)
        for (int k = 0; k < 3; ++k) vertexObjects[scene.indices()[3 * t + std::size_t(k)]] = scene.triangleObjects()[t];
      m_vertexObjects = gl::createBuffer(std::max<std::size_t>(vertexObjects.size(), 1) * sizeof(std::uint32_t),
                                         vertexObjects.empty() ? nullptr : vertexObjects.data(), 0);
      glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_positions.id(), 0, sizeof(glm::vec3));
      glVertexArrayElementBuffer(m_vertexArray.id(), m_indices.id());
    }
    m_scene = &scene;
    m_topologyVersion = scene.topologyVersion();
    m_positionsVersion = scene.positionsVersion();
    m_indexCount = scene.indices().size();
    return gpu::checkGl(kWho, "uploading the scene");
  }

  static gl::Texture arrayTexture(GLenum format, RadarImageSize size, std::size_t layers) {
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &id);
    glTextureStorage3D(id, 1, format, size.width, size.height, GLsizei(layers));
    glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return gl::Texture(id);
  }

  /// Render targets for `layers` radars of `size` (kept when they fit: the masks of a
  /// reused run must survive).
  Status ensureTargets(RadarImageSize size, std::size_t layers, bool keep) {
    if (m_range && m_targetSize.width == size.width && m_targetSize.height == size.height && m_targetLayers >= layers)
      return Status::success();
    if (keep) return Error{"GpuRadar: reuseMask needs the previous run's targets"};
    m_range = arrayTexture(GL_R32F, size, layers);
    m_object = arrayTexture(GL_R32UI, size, layers);
    m_front = arrayTexture(GL_R32F, size, layers);
    m_depth = arrayTexture(GL_DEPTH_COMPONENT32F, size, layers);
    GLuint fbo[2] = {0, 0};
    glCreateFramebuffers(2, fbo);
    m_rangeTarget = gl::Framebuffer(fbo[0]);
    m_maskTarget = gl::Framebuffer(fbo[1]);
    glNamedFramebufferTexture(fbo[0], GL_COLOR_ATTACHMENT0, m_range.id(), 0);
    glNamedFramebufferTexture(fbo[0], GL_COLOR_ATTACHMENT1, m_object.id(), 0);
    glNamedFramebufferTexture(fbo[0], GL_DEPTH_ATTACHMENT, m_depth.id(), 0);
    const GLenum both[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glNamedFramebufferDrawBuffers(fbo[0], 2, both);
    glNamedFramebufferTexture(fbo[1], GL_COLOR_ATTACHMENT0, m_front.id(), 0);
    glNamedFramebufferTexture(fbo[1], GL_DEPTH_ATTACHMENT, m_depth.id(), 0);
    const GLenum one[1] = {GL_COLOR_ATTACHMENT0};
    glNamedFramebufferDrawBuffers(fbo[1], 1, one);
    for (GLuint f : fbo)
      if (glCheckNamedFramebufferStatus(f, GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return graphicsError("GpuRadar: the layered framebuffer of " + std::to_string(layers) + " x " +
                             std::to_string(size.width) + " x " + std::to_string(size.height) + " is incomplete");
    m_targetSize = size;
    m_targetLayers = layers;
    return gpu::checkGl(kWho, "creating the render targets");
  }

  void renderChunk(std::span<const RadarQuery> queries, std::size_t first, std::size_t n, std::size_t count,
                   RadarImageSize size) {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glEnable(GL_DEPTH_CLAMP);  // no near/far clipping: the fragment shader keeps depth in [0, d]
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glViewport(0, 0, size.width, size.height);
    glUseProgram(m_raster.id());
    glBindVertexArray(m_vertexArray.id());
    glUniform1i(kFirstRadarLocation, GLint(first));
    const float farDepth = 1.0f, noKey = HG_RADAR_NO_KEY, noSensor = HG_RADAR_NO_SENSOR;
    const GLuint noObject = HG_RADAR_NO_OBJECT;
    // R pass.
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_rangeTarget.id());
    glClearNamedFramebufferfv(m_rangeTarget.id(), GL_COLOR, 0, &noKey);
    glClearNamedFramebufferuiv(m_rangeTarget.id(), GL_COLOR, 1, &noObject);
    glClearNamedFramebufferfv(m_rangeTarget.id(), GL_DEPTH, 0, &farDepth);
    glUniform1i(kFrameOffsetLocation, 0);
    if (m_indexCount > 0)
      glDrawElementsInstanced(GL_TRIANGLES, GLsizei(m_indexCount), GL_UNSIGNED_INT, nullptr, GLsizei(n));
    // M pass: only the layers of collision radars that do not keep their mask are cleared.
    bool anyMask = false;
    for (std::size_t q = first; q < first + n; ++q) {
      const bool keep = queries[q].mode == RadarMode::Collide && queries[q].reuseMask;
      anyMask = anyMask || (queries[q].mode == RadarMode::Collide && !keep);
      if (!keep)
        glClearTexSubImage(m_front.id(), 0, 0, 0, GLint(q - first), size.width, size.height, 1, GL_RED, GL_FLOAT,
                           &noSensor);
    }
    if (anyMask && m_indexCount > 0) {
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_maskTarget.id());
      glClearNamedFramebufferfv(m_maskTarget.id(), GL_DEPTH, 0, &farDepth);
      glUniform1i(kFrameOffsetLocation, GLint(count));
      glDrawElementsInstanced(GL_TRIANGLES, GLsizei(m_indexCount), GL_UNSIGNED_INT, nullptr, GLsizei(n));
    }
  }

  void analyzeChunk(std::size_t first, std::size_t n) {
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
    glUseProgram(m_analyze.id());
    glUniform1i(kFirstRadarLocation, GLint(first));
    glBindTextureUnit(0, m_range.id());
    glBindTextureUnit(1, m_object.id());
    glBindTextureUnit(2, m_front.id());
    glDispatchCompute(GLuint(n), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    for (GLuint unit = 0; unit < 3; ++unit) glBindTextureUnit(unit, 0);
  }

  gl::Program m_raster, m_analyze;
  gl::VertexArray m_vertexArray;
  gl::Buffer m_positions, m_indices, m_triangleObjects, m_vertexObjects, m_frames, m_results;
  gl::Texture m_range, m_object, m_front, m_depth;
  gl::Framebuffer m_rangeTarget, m_maskTarget;
  std::size_t m_frameCapacity = 0;  // frames (2 per radar) the frame and result buffers hold
  GLint m_maxLayers = 0;
  RadarImageSize m_targetSize{0, 0};
  std::size_t m_targetLayers = 0;
  const RadarScene* m_scene = nullptr;
  std::uint64_t m_topologyVersion = 0, m_positionsVersion = 0;
  std::size_t m_indexCount = 0;
  // The last run (images(), mask reuse).
  RadarImageSize m_size{0, 0};
  std::size_t m_layers = 0, m_lastCount = 0;
  std::vector<kernels::RadarFrame> m_lastFrames;
};

}  // namespace

Result<std::unique_ptr<RadarBackend>> makeGpuRadar() { return GpuRadar::create(); }

}  // namespace hg
