#pragma once
/// GPU renderer of body depth views (sim/contact/DepthViews.h): the body is drawn into
/// every view with OpenGL rasterization and depth peeling, one pass per view and layer
/// (sim/gpu/shaders/depth_view.vert, depth_view.frag). Layer k keeps, per texel, the nearest
/// crossing strictly behind layer k - 1's, so layer k is the (k+1)-th surface along the
/// texel's ray, as in the CPU reference rasterizeDepthViews. After each pass the two
/// colour images are copied on the GPU (pixel pack into the storage buffers) to their
/// place in the texel buffers, laid out exactly as DepthViewImages; the cloth solvers
/// bind those buffers directly, no readback.
///
/// Limitations: fragments of surfaces outside the setup's box are clipped (the image)
/// or clamped in the depth test (the range), so the setup must contain the body;
/// crossings at equal depth count once (the first triangle in index order); coverage
/// follows the driver's rasterization rules (llvmpipe: 8-bit subpixel snapping and its
/// tie rule, as the CPU reference); velocity is the rasterizer's float interpolation,
/// depth and the triangle's normal are recomputed per fragment in double from its
/// vertices (gl_PrimitiveID; the float planes lose ~2e-6 of the range, see
/// depth_view.frag), so it uses GL 4.0 fp64 in the fragment shader. Requires a current
/// OpenGL 4.5 context; changes the draw framebuffer, program,
/// vertex array, texture unit 0 and pixel-pack binding, restores the viewport, scissor
/// box and the enables it touches (depth test and clamp, scissor, culling, blending).
#include <functional>
#include <memory>
#include <span>

#include <glm/vec3.hpp>

#include "gl/GlObjects.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/contact/DepthViews.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

class GpuDepthViewRenderer {
 public:
  /// Allocates the render targets (RGBA32F normal + depth, RGBA32F velocity, D32F depth,
  /// twice for ping-pong, sized to the largest view) and the texel buffers. Error: an
  /// empty or invalid setup, a view over GL_MAX_TEXTURE_SIZE, an incomplete framebuffer
  /// or a shader that fails to build (the driver's log is in the message).
  static Result<std::unique_ptr<GpuDepthViewRenderer>> create(const DepthViewSetup& setup);

  /// Renders the mesh (positions, triangles, and `vertexVelocities`: empty for a still
  /// body or one per vertex, m/s)
  /// into all views and layers. Returns without waiting; the texel buffers hold the new
  /// images for any later GL command (a storage-buffer barrier is issued). Error: a
  /// non-finite position or velocity, a velocity count or index out of range, a GL error.
  Status render(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities);

  /// setup().views as kernels::DepthView records; bind at HG_BINDING_DEPTH_VIEWS.
  GLuint viewsBuffer() const { return m_views.id(); }
  /// texelCount() vec4: normal.xyz + depth (DepthViewImages::normalDepth); bind at
  /// HG_BINDING_DEPTH_NORMAL_DEPTH.
  GLuint normalDepthBuffer() const { return m_normalDepth.id(); }
  /// texelCount() vec4: velocity.xyz, 0 (DepthViewImages::velocity); bind at
  /// HG_BINDING_DEPTH_VELOCITY.
  GLuint velocityBuffer() const { return m_velocity.id(); }

  /// Synchronous readback of the texel buffers (slow: waits for the passes; for tests
  /// and output).
  DepthViewImages read() const;
  const DepthViewSetup& setup() const { return m_setup; }

 private:
  GpuDepthViewRenderer() = default;
  Status upload(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities);

  DepthViewSetup m_setup;
  int m_targetWidth = 0, m_targetHeight = 0;
  gl::Program m_program;
  gl::Texture m_color[2][2];  // [ping-pong][0: normal + depth, 1: velocity]
  gl::Texture m_depth;
  gl::Framebuffer m_framebuffers[2];
  gl::Buffer m_views, m_normalDepth, m_velocity;
  gl::VertexArray m_vertexArray;
  gl::Buffer m_positions, m_velocities, m_indices;
  std::size_t m_vertexCapacity = 0, m_indexCapacity = 0, m_indexCount = 0;
};

/// A per-frame view renderer for a moving body (BodyAnimator::ViewRenderer, sim/scene):
/// renders with a GpuDepthViewRenderer created on the first call for the setup, then
/// points a GPU cloth solver at its buffers (no readback, no upload) or gives a CPU
/// solver the images read back. Requires a current OpenGL 4.5 context while called.
std::function<Status(ClothSolver&, const DepthViewSetup&, const TriangleMesh&, std::span<const glm::vec3>)>
makeGpuBodyViewRenderer();

}  // namespace hg
