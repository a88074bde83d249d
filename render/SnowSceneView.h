#pragma once
/// What a snow-covered scene looks like (docs/methods.md section 5, display: "polygons are
/// displaced by the snow texture with displacement mapping through vertex texture
/// fetch, and merged with the original scene").
///
/// The static geometry is uploaded once by create(); the snow is a texture that the
/// vertex shaders read:
/// - the ground: a flat grid with a vertex per cell centre of the cover's SnowGrid (the
///   cells' (x, z), m), drawn as two triangles per 2 x 2 block of cells with ground, the
///   same triangles as coveredSceneMesh. render/shaders/snow_ground.vert fetches the cell's
///   ground height and snow depth (R32F textures, nx x nz texels, m) by texelFetch and
///   sets y = ground + snow; its normal comes from central differences of the displaced
///   heights of the neighbouring cells. The colour goes from the ground's to snow white
///   over the first 2 cm of snow.
/// - the objects: the cover's refined object mesh; render/shaders/snow_object.vert fetches each
///   vertex's snow depth (m) from a buffer texture (samplerBuffer R32F, index
///   gl_VertexID) and raises the vertex by it. Snow white where the surface lies more
///   than a few millimetres above the bare surface's snow line (on a holder, its own
///   height; on a wall, the rim of the holder above it), the objects' colour elsewhere.
/// So the drawn surface is exactly coveredSceneMesh(cover) (the same float sums), but
/// nothing is rebuilt or uploaded per frame except the snow itself, and a GPU solver
/// can hand over its own snow texture and buffer (setSnowTextures) with no readback.
///
/// Lighting: a sun and a sky hemisphere (ambient); a sky-coloured background. Units:
/// metres. Needs a current OpenGL 4.5 context for every call, and the context must
/// outlive the view.
#include <memory>
#include <optional>
#include <span>

#include <glm/vec3.hpp>

#include "gl/GlObjects.h"
#include "render/Camera.h"
#include "render/Image.h"
#include "render/OffscreenTarget.h"
#include "sim/core/Result.h"
#include "sim/snow/SnowCover.h"

namespace hg {

/// The camera of snow renders: the orbit camera of the other renders (perspective, y up).
using SnowCamera = OrbitCamera;

/// A 3/4 view from above the south-east (+x, +z; azimuth 45 degrees, elevation about 35
/// degrees) framing the cover's bounds (the grid's extent, the ground's heights, the objects).
SnowCamera defaultSnowCamera(const SnowCover& cover);

/// The camera at `eye` looking at `target` (m), with `fovY` (rad) vertical field of view.
SnowCamera snowCameraLookingAt(glm::vec3 eye, glm::vec3 target, float fovY = 0.6f);

class SnowSceneView {
 public:
  /// Uploads the grid, the ground heights, the objects and the cover's snow. Error: a
  /// cover whose arrays do not match its grid or objects, a grid larger than the
  /// driver's largest texture, or a shader that does not build.
  static Result<std::unique_ptr<SnowSceneView>> create(const SnowCover& cover);

  /// Uploads new snow depths (m): one per ground cell (SnowGrid order) and one per object
  /// vertex; the view then draws from its own textures again. Error on a size mismatch.
  Status setSnow(std::span<const float> groundSnow, std::span<const float> objectSnow);

  /// Draws from textures the caller owns (a GPU solver's state): `groundSnowTexture`, a
  /// 2D texture of nx x nz texels whose red channel is the snow depth per cell (m; R32F),
  /// and `objectSnowBuffer`, a buffer of one float per object vertex (m), read through a
  /// buffer texture of the view. Both must outlive their use here (the next setSnow or the
  /// view's end). 0 keeps the view's own texture / buffer for that part.
  void setSnowTextures(GLuint groundSnowTexture, GLuint objectSnowBuffer);

  /// Clears the bound framebuffer's viewport (width x height pixels) to the sky and draws
  /// the scene: covered by the current snow when `withSnow`, else bare.
  void draw(const SnowCamera& camera, int width, int height, bool withSnow) const;

  /// draw() into an offscreen target (4x multisampled) and read back. Error: a GL error.
  Result<Image> render(const SnowCamera& camera, int width, int height, bool withSnow);

  const SnowGrid& grid() const { return m_grid; }
  std::size_t objectVertexCount() const { return m_objectVertices; }
  glm::vec3 boundsMin() const { return m_lo; }
  glm::vec3 boundsMax() const { return m_hi; }

  ~SnowSceneView();
  SnowSceneView(const SnowSceneView&) = delete;
  SnowSceneView& operator=(const SnowSceneView&) = delete;

 private:
  SnowSceneView() = default;

  SnowGrid m_grid;
  std::size_t m_objectVertices = 0;
  glm::vec3 m_lo{0.0f}, m_hi{0.0f};
  GLsizei m_groundIndexCount = 0, m_objectIndexCount = 0;

  gl::Program m_groundProgram, m_objectProgram;
  gl::VertexArray m_groundVao, m_objectVao;
  gl::Buffer m_groundCentres, m_groundIndices;
  gl::Buffer m_objectPositions, m_objectNormals, m_objectIndices, m_objectSnowLine;
  gl::Texture m_groundHeight;               ///< R32F nx x nz, m; no ground: a large negative sentinel
  gl::Texture m_groundSnow;                 ///< R32F nx x nz, m (the view's own)
  gl::Buffer m_objectSnow;                  ///< float per object vertex, m (the view's own; >= 1 float)
  gl::Texture m_objectSnowTexture;          ///< buffer texture over m_objectSnow
  gl::Texture m_externalObjectSnowTexture;  ///< buffer texture over the caller's buffer
  GLuint m_sampler = 0;                     ///< nearest, clamp: texelFetch needs complete textures
  GLuint m_externalGroundSnow = 0;
  bool m_useExternalObjectSnow = false;
  std::optional<OffscreenTarget> m_target;
};

}  // namespace hg
