#pragma once
/// GPU pass of snow exposure (docs/methods.md section 5; the CPU reference is snowExposureCpu in
/// sim/snow/SnowExposure.h): for each snowfall direction the scene is rendered
/// orthographically along it into a depth map, exactly like a shadow map
/// (sim/gpu/shaders/snow_depth.vert, snow_depth.frag), then a compute pass over the receiving
/// points (sim/gpu/shaders/snow_exposure.comp, one invocation per point) looks each point up in
/// the map and counts the direction when the point is the first surface hit there. The
/// per-point math (texel of a point, its depth, the first-hit test with the bias) is the
/// CPU reference's own (kernels/snow.glslh), and coverage follows the same rules
/// (sim/geometry/OrthoRaster.h), so both agree point for point up to the depth's
/// interpolation: the GPU interpolates it in float at the texel centre, the CPU in double
/// then rounds (~1e-6 m apart), which only matters for a point within that of the
/// threshold map depth + bias.
///
/// The depth map is an R32F colour target blended with GL_MIN, cleared to +infinity: it
/// holds the metric depth (m, any sign) of the nearest surface exactly as the CPU's float
/// map does, with no depth-range normalisation. All maps are rendered one after the other
/// into one texture sized to the largest frame (grown when needed).
///
/// Requires a current OpenGL 4.5 context while created and used, and polygon mode GL_FILL
/// with no polygon offset and no rasterizer discard (the defaults). Changes the draw
/// framebuffer, program, vertex array, texture unit 0 and the storage-buffer bindings
/// HG_BINDING_SNOW_MAPS, HG_BINDING_SNOW_POINTS, HG_BINDING_SNOW_HITS; restores the
/// viewport, scissor box and the enables it touches (gpu::SavedRasterState: depth test and
/// clamp, scissor, culling, blending), the blend equation and the colour mask.
/// Units: metres.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "gl/GlObjects.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/snow/SnowExposure.h"

namespace hg {

class GpuSnowExposure {
 public:
  /// Builds the programs. Error: invalid settings, a shader that fails to build (the
  /// driver's log in the message).
  static Result<std::unique_ptr<GpuSnowExposure>> create(const SnowExposureSettings& settings);

  /// The exposure of every point (in [0, 1]): the fraction of `directions` from which it is
  /// the first surface hit; the same contract, frames (snowMapFrame with these settings)
  /// and errors as snowExposureCpu. The scene is uploaded once per call; the exposures are
  /// read back (synchronous). Error also when a map exceeds GL_MAX_TEXTURE_SIZE (raise the
  /// texel size) or on a GL error.
  Result<std::vector<float>> exposure(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                      std::span<const glm::vec3> directions);

  /// The GPU-resident core of exposure(), for passes that keep the points on the GPU:
  /// renders `scene` into each of `frames` (from snowMapFrame; they must cover the scene)
  /// and adds 1 to hitBuffer[k] (a uint per point) for each frame in which point k of
  /// `pointBuffer` (std430 vec4 per point, xyz in m, w ignored) is the first surface hit,
  /// with the settings' bias. A point outside a frame counts as hit (the frame covers the
  /// whole scene). Both buffers must hold at least `pointCount` entries (not checked: the
  /// GPU reads and writes them). Returns without waiting; a storage-buffer and
  /// buffer-update barrier is issued, so later reads see the counts. Error: a non-finite
  /// vertex, an index out of range, a frame over GL_MAX_TEXTURE_SIZE or an invalid one
  /// (non-finite, texel <= 0, negative size), a GL error.
  Status countHits(const TriangleMesh& scene, GLuint pointBuffer, std::size_t pointCount,
                   std::span<const SnowMapFrame> frames, GLuint hitBuffer);

  /// countHits() with the scene already on the GPU: `positionBuffer` holds `vertexCount`
  /// vec4 (xyz m, w ignored; the stride of a std430 vec4 array) and `indexBuffer`
  /// `indexCount` uint indices into it (3 per triangle). Nothing is uploaded or read back;
  /// the caller vouches for finite positions and indices in range (a GPU pass wrote them).
  /// The frames must cover the vertices. Error: an invalid frame, a GL error.
  Status countHitsOnGpu(GLuint positionBuffer, std::size_t vertexCount, GLuint indexBuffer, std::size_t indexCount,
                        GLuint pointBuffer, std::size_t pointCount, std::span<const SnowMapFrame> frames,
                        GLuint hitBuffer);

  const SnowExposureSettings& settings() const { return m_settings; }

 private:
  GpuSnowExposure() = default;
  Status uploadScene(const TriangleMesh& scene);
  Status ensureTarget(int width, int height);
  Status checkFrames(std::span<const SnowMapFrame> frames) const;
  Status drawAndCount(GLuint vertexArray, std::size_t indexCount, GLuint pointBuffer, std::size_t pointCount,
                      std::span<const SnowMapFrame> frames, GLuint hitBuffer);

  SnowExposureSettings m_settings;
  gl::Program m_depthProgram, m_countProgram;
  gl::VertexArray m_vertexArray, m_gpuVertexArray;  // uploaded scene; a caller's GPU buffers
  gl::Buffer m_positions, m_indices, m_maps;
  std::size_t m_indexCount = 0, m_mapCapacity = 0;
  gl::Texture m_depthMap;  // R32F, m_targetWidth x m_targetHeight
  gl::Framebuffer m_target;
  int m_targetWidth = 0, m_targetHeight = 0;
  int m_maxTextureSize = 0;
};

}  // namespace hg
