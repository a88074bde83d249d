#include "render/DrapeSceneView.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "sim/garment/GarmentColors.h"

namespace hg {
DrapeSceneView::DrapeSceneView(const ClothModel& model, const ClothSettings& settings, const TriangleMesh* body)
    : m_cloth(model.restMesh()) {
  if (body) {
    m_body = *body;
    if (m_body.normals.size() != m_body.positions.size()) computeVertexNormals(m_body);
  }
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : m_cloth.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  for (const SphereCollider& sphere : settings.colliders.spheres) {
    appendMesh(m_sphere, makeUvSphere(sphere.centre, sphere.radius, 48, 96));
    lo = glm::min(lo, sphere.centre - glm::vec3(sphere.radius));
    hi = glm::max(hi, sphere.centre + glm::vec3(sphere.radius));
  }
  for (const glm::vec3& p : m_body.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  m_center = 0.5f * (lo + hi);
  m_radius = 0.5f * glm::length(hi - lo);
  // Cloth falls: frame a little below the rest shape, down to the ground if it is near.
  // The first ground plane is drawn (level, as scene files give it).
  if (!settings.colliders.grounds.empty()) {
    const float y = settings.colliders.grounds.front().height;
    m_center.y = std::max(0.5f * (lo.y + y), m_center.y - 0.25f * m_radius);
    const float extent = 2.0f * m_radius;
    m_ground.positions = {{m_center.x - extent, y, m_center.z - extent},
                          {m_center.x - extent, y, m_center.z + extent},
                          {m_center.x + extent, y, m_center.z + extent},
                          {m_center.x + extent, y, m_center.z - extent}};
    m_ground.normals.assign(4, glm::vec3(0.0f, 1.0f, 0.0f));
    m_ground.indices = {0, 1, 2, 0, 2, 3};
  }
}

void DrapeSceneView::setBody(const TriangleMesh& body) {
  m_body = body;
  if (m_body.normals.size() != m_body.positions.size()) computeVertexNormals(m_body);
}

void DrapeSceneView::setProps(std::vector<TriangleMesh> props, std::vector<glm::vec3> colors) {
  m_props = std::move(props);
  m_propColors = std::move(colors);
  for (TriangleMesh& prop : m_props)
    if (prop.normals.size() != prop.positions.size()) computeVertexNormals(prop);
}

void DrapeSceneView::setSceneProps(std::vector<TriangleMesh> meshes, std::size_t boxCount) {
  std::vector<glm::vec3> colors;
  const glm::vec3 palette[] = {{0.08f, 0.32f, 0.16f}, {0.62f, 0.62f, 0.60f}, {0.70f, 0.52f, 0.20f}};
  for (std::size_t i = 0; i < meshes.size(); ++i)
    colors.push_back(i < boxCount ? glm::vec3(0.50f, 0.32f, 0.17f) : palette[(i - boxCount) % std::size(palette)]);
  setProps(std::move(meshes), std::move(colors));
}

void DrapeSceneView::setPieces(std::vector<std::uint32_t> pieceOfVertex) {
  m_pieceOfVertex = std::move(pieceOfVertex);
  m_pieces.clear();
  if (m_pieceOfVertex.size() != m_cloth.positions.size()) {
    m_pieceOfVertex.clear();
    return;
  }
  for (std::size_t t = 0; t < m_cloth.triangleCount(); ++t) {
    const std::uint32_t piece = m_pieceOfVertex[m_cloth.indices[3 * t]];
    if (piece >= m_pieces.size()) m_pieces.resize(piece + 1);
    for (int k = 0; k < 3; ++k) m_pieces[piece].indices.push_back(m_cloth.indices[3 * t + std::size_t(k)]);
  }
  for (TriangleMesh& piece : m_pieces) {
    piece.positions = m_cloth.positions;
    piece.normals = m_cloth.normals;
  }
}

void DrapeSceneView::update(const ClothState& state) {
  m_cloth.positions.resize(state.positions.size());
  for (std::size_t i = 0; i < state.positions.size(); ++i) m_cloth.positions[i] = glm::vec3(state.positions[i]);
  computeVertexNormals(m_cloth);
  for (TriangleMesh& piece : m_pieces) {
    piece.positions = m_cloth.positions;
    piece.normals = m_cloth.normals;
  }
}

OrbitCamera DrapeSceneView::defaultCamera() const {
  // Frame the cloth as it is now (it may have moved far from its rest shape) with the colliders.
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : m_cloth.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  for (const TriangleMesh* collider : {&m_sphere, &m_body})
    for (const glm::vec3& p : collider->positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  for (const TriangleMesh& prop : m_props)
    for (const glm::vec3& p : prop.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  glm::vec3 center = 0.5f * (lo + hi);
  const float radius = std::max(0.5f * glm::length(hi - lo), 0.25f * m_radius);
  OrbitCamera camera;
  camera.azimuth = 0.55f;
  camera.elevation = 0.42f;
  center.y = std::max(center.y, m_center.y - m_radius);  // keep some ground in view
  camera.frame(center, 0.8f * radius);
  return camera;
}

OrbitCamera DrapeSceneView::viewFrom(float azimuth) const {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const TriangleMesh* mesh : {&m_cloth, &m_sphere, &m_body})
    for (const glm::vec3& p : mesh->positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  OrbitCamera camera;
  camera.azimuth = azimuth;
  camera.elevation = 0.08f;
  // A standing figure is tall and narrow: frame its height (the larger extent).
  const glm::vec3 size = hi - lo;
  camera.frame(0.5f * (lo + hi), 0.55f * std::max({size.y, size.x, size.z}));
  return camera;
}

void DrapeSceneView::draw(MeshRenderer& renderer, const OrbitCamera& camera, int width, int height, bool showCloth,
                          bool showColliders) const {
  std::vector<DrawItem> items;
  if (!m_ground.indices.empty()) items.push_back({&m_ground, glm::vec3(0.55f, 0.57f, 0.60f), glm::vec3(0.3f), true});
  if (showColliders && !m_sphere.indices.empty())
    items.push_back({&m_sphere, glm::vec3(0.80f, 0.62f, 0.50f), glm::vec3(0.4f), false});
  if (showColliders && !m_body.indices.empty())
    items.push_back({&m_body, glm::vec3(0.82f, 0.70f, 0.60f), glm::vec3(0.4f), false});
  // Props: wood, bottle green, stone, alternating.
  static const glm::vec3 kProps[] = {{0.55f, 0.36f, 0.20f}, {0.10f, 0.38f, 0.22f}, {0.60f, 0.60f, 0.58f}};
  if (showColliders)
    for (std::size_t p = 0; p < m_props.size(); ++p)
      items.push_back({&m_props[p], p < m_propColors.size() ? m_propColors[p] : kProps[p % std::size(kProps)],
                       glm::vec3(0.3f), false});
  // Garment colours (sim/garment/GarmentColors.h); back faces darker.
  if (showCloth && m_pieces.empty())
    items.push_back({&m_cloth, garmentColor(0), glm::vec3(0.55f, 0.12f, 0.12f), false});
  if (showCloth)
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
      const glm::vec3 color = garmentColor(p);
      items.push_back({&m_pieces[p], color, 0.5f * color, false});
    }
  renderer.draw(items, camera, width, height);
}

}  // namespace hg
