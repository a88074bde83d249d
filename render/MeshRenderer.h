#pragma once
/// Draws shaded triangle meshes (render/shaders/mesh.vert + mesh.frag) into the bound
/// framebuffer. Meshes are uploaded on every draw (fine for interactive sizes).
#include <span>

#include <glm/vec3.hpp>

#include "gl/GlObjects.h"
#include "render/Camera.h"
#include "render/RenderShaders.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct DrawItem {
  const TriangleMesh* mesh = nullptr;  ///< needs positions, normals, indices
  glm::vec3 frontColor{0.8f};          ///< linear RGB
  glm::vec3 backColor{0.5f};           ///< linear RGB of back faces
  bool checker = false;                ///< ground checkerboard
};

class MeshRenderer {
 public:
  static Result<MeshRenderer> create(const gl::ShaderRegistry& registry);

  /// Clears the bound framebuffer's viewport (width x height pixels) and draws the items.
  void draw(std::span<const DrawItem> items, const OrbitCamera& camera, int width, int height);

 private:
  explicit MeshRenderer(gl::Program program);
  gl::Program m_program;
  gl::VertexArray m_vao;
};

}  // namespace hg
