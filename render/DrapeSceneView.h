#pragma once
/// What a drape scene looks like: the cloth (from the solver state), the sphere
/// collider and the ground, with colours and a default camera. Used by the CLI's
/// offscreen render and by the viewer, so both show the same picture.
#include <cstdint>
#include <vector>

#include "render/Camera.h"
#include "render/MeshRenderer.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

class DrapeSceneView {
 public:
  /// `body`: the avatar's surface to draw (a collider like the sphere), or null.
  DrapeSceneView(const ClothModel& model, const ClothSettings& settings, const TriangleMesh* body = nullptr);

  /// Draws the cloth as separate pieces (garments), each in its own colour: the piece
  /// of every vertex (a triangle belongs to its first vertex's piece). Empty: one cloth.
  void setPieces(std::vector<std::uint32_t> pieceOfVertex);

  /// Replaces the body's surface (a moving avatar's current pose).
  void setBody(const TriangleMesh& body);
  /// Still props and boxes under the cloth (world space), drawn with the colliders in
  /// `colors` (linear RGB per prop; missing: a palette).
  void setProps(std::vector<TriangleMesh> props, std::vector<glm::vec3> colors = {});
  /// setProps with a scene's colliders as sim/scene/PreparedDrape prepares them: `boxCount`
  /// boxes first (wood), then the props (bottle green, stone and brass in turn).
  void setSceneProps(std::vector<TriangleMesh> meshes, std::size_t boxCount);

  /// Takes the cloth's current shape (recomputes normals).
  void update(const ClothState& state);
  const TriangleMesh& clothMesh() const { return m_cloth; }

  /// A camera that frames the cloth's rest shape and the colliders, seen from the front-left, above.
  OrbitCamera defaultCamera() const;
  /// A camera that frames everything (cloth, colliders, body) from `azimuth` (rad around
  /// +y; 0 looks at the front of a body that faces +z, pi/2 from its left, pi from behind),
  /// nearly level: the front / side / back views of a garment.
  OrbitCamera viewFrom(float azimuth) const;
  void draw(MeshRenderer& renderer, const OrbitCamera& camera, int width, int height, bool showCloth = true,
            bool showColliders = true) const;

 private:
  TriangleMesh m_cloth;
  TriangleMesh m_sphere;
  TriangleMesh m_body;
  std::vector<TriangleMesh> m_props;
  std::vector<glm::vec3> m_propColors;
  std::vector<std::uint32_t> m_pieceOfVertex;
  std::vector<TriangleMesh> m_pieces;  ///< per piece: all cloth vertices, that piece's triangles
  TriangleMesh m_ground;
  glm::vec3 m_center{0.0f};
  float m_radius = 1.0f;
};

}  // namespace hg
