#include "sim/core/TriangleMesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include <glm/geometric.hpp>

namespace hg {

void computeVertexNormals(TriangleMesh& mesh) {
  mesh.normals.assign(mesh.positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    // Cross product length = 2 * area: summing it weights by area.
    const glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a],
                                   mesh.positions[c] - mesh.positions[a]);
    mesh.normals[a] += n;
    mesh.normals[b] += n;
    mesh.normals[c] += n;
  }
  for (glm::vec3& n : mesh.normals) {
    const float len = glm::length(n);
    n = len > 0.0f ? n / len : glm::vec3(0.0f);
  }
}

TriangleMesh makeUvSphere(glm::vec3 center, float radius, int rings, int segments) {
  TriangleMesh mesh;
  for (int r = 0; r <= rings; ++r) {
    const float theta = std::numbers::pi_v<float> * float(r) / float(rings);
    for (int s = 0; s <= segments; ++s) {
      const float phi = 2.0f * std::numbers::pi_v<float> * float(s) / float(segments);
      const glm::vec3 n(std::sin(theta) * std::cos(phi), std::cos(theta),
                        -std::sin(theta) * std::sin(phi));
      mesh.positions.push_back(center + radius * n);
      mesh.normals.push_back(n);
      mesh.uvs.emplace_back(float(s) / float(segments), 1.0f - float(r) / float(rings));
    }
  }
  const auto at = [segments](int r, int s) { return std::uint32_t(r * (segments + 1) + s); };
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const std::uint32_t a = at(r, s), b = at(r + 1, s), c = at(r + 1, s + 1), d = at(r, s + 1);
      if (r != 0) mesh.indices.insert(mesh.indices.end(), {a, b, d});
      if (r != rings - 1) mesh.indices.insert(mesh.indices.end(), {d, b, c});
    }
  }
  return mesh;
}

TriangleMesh makeIcosphere(glm::vec3 center, float radius, int subdivisions) {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<glm::vec3> unit = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                                 {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (glm::vec3& p : unit) p = glm::normalize(p);
  std::vector<std::uint32_t> faces = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4,
                                      11, 10, 2, 10, 7, 6, 7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8,
                                      3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  for (int level = 0; level < subdivisions; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto [it, inserted] = midpoints.try_emplace(key, std::uint32_t(unit.size()));
      if (inserted) unit.push_back(glm::normalize(unit[a] + unit[b]));
      return it->second;
    };
    std::vector<std::uint32_t> finer;
    for (std::size_t f = 0; f < faces.size(); f += 3) {
      const std::uint32_t a = faces[f], b = faces[f + 1], c = faces[f + 2];
      const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      finer.insert(finer.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    faces = std::move(finer);
  }
  TriangleMesh mesh;
  for (const glm::vec3& n : unit) {
    mesh.positions.push_back(center + radius * n);
    mesh.normals.push_back(n);
  }
  mesh.indices = std::move(faces);
  return mesh;
}

}  // namespace hg
