#include "sim/core/TriangleMesh.h"

#include <cmath>
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

}  // namespace hg
