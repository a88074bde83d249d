#include "sim/core/TriangleMesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>
#include <vector>

#include <glm/geometric.hpp>

namespace hg {

void appendMesh(TriangleMesh& mesh, const TriangleMesh& part) {
  const std::size_t n = mesh.positions.size(), m = part.positions.size();
  const bool normals = mesh.normals.size() == n && part.normals.size() == m;
  const bool uvs = mesh.uvs.size() == n && part.uvs.size() == m;
  const auto base = std::uint32_t(n);
  mesh.positions.insert(mesh.positions.end(), part.positions.begin(), part.positions.end());
  for (std::uint32_t i : part.indices) mesh.indices.push_back(base + i);
  if (normals)
    mesh.normals.insert(mesh.normals.end(), part.normals.begin(), part.normals.end());
  else
    mesh.normals.clear();
  if (uvs)
    mesh.uvs.insert(mesh.uvs.end(), part.uvs.begin(), part.uvs.end());
  else
    mesh.uvs.clear();
}

std::vector<std::uint32_t> positionWeldMap(const TriangleMesh& mesh) {
  std::map<std::tuple<float, float, float>, std::uint32_t> unique;
  std::vector<std::uint32_t> remap(mesh.positions.size());
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    const glm::vec3& p = mesh.positions[i];
    remap[i] = unique.try_emplace({p.x, p.y, p.z}, std::uint32_t(unique.size())).first->second;
  }
  return remap;
}

TriangleMesh weldedByPosition(const TriangleMesh& mesh) {
  TriangleMesh welded;
  const std::vector<std::uint32_t> remap = positionWeldMap(mesh);
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (remap[i] == welded.positions.size()) welded.positions.push_back(mesh.positions[i]);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = remap[mesh.indices[t]], b = remap[mesh.indices[t + 1]], c = remap[mesh.indices[t + 2]];
    if (a == b || b == c || a == c) continue;  // collapsed by the merge
    welded.indices.insert(welded.indices.end(), {a, b, c});
  }
  return welded;
}

void computeVertexNormals(TriangleMesh& mesh) {
  mesh.normals.assign(mesh.positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    // Cross product length = 2 * area: summing it weights by area.
    const glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
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
      const glm::vec3 n(std::sin(theta) * std::cos(phi), std::cos(theta), -std::sin(theta) * std::sin(phi));
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
  std::vector<glm::vec3> unit = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                                 {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  for (glm::vec3& p : unit) p = glm::normalize(p);
  std::vector<std::uint32_t> faces = {0, 11, 5,  0, 5,  1, 0, 1, 7, 0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                                      4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3,  9,  4, 3,  4,  2, 3, 2, 6, 3,
                                      6, 8,  3,  8, 9,  4, 9, 5, 2, 4, 11, 6,  2, 10, 8,  6, 7, 9, 8, 1};
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

TriangleMesh makeBox(glm::vec3 min, glm::vec3 max, int subdivisions) {
  const int n = std::max(subdivisions, 0) + 1;  // quads per box edge
  TriangleMesh mesh;
  // Surface lattice points (i, j, k) in [0, n]^3 -> vertex; one position per point, so
  // faces meeting at an edge share its vertices.
  std::map<std::array<int, 3>, std::uint32_t> vertices;
  auto vertex = [&](std::array<int, 3> l) {
    const auto [it, inserted] = vertices.try_emplace(l, std::uint32_t(mesh.positions.size()));
    if (inserted) {
      glm::vec3 p;
      for (int c = 0; c < 3; ++c)
        p[c] = l[std::size_t(c)] == 0   ? min[c]
               : l[std::size_t(c)] == n ? max[c]
                                        : min[c] + (max[c] - min[c]) * (float(l[std::size_t(c)]) / float(n));
      mesh.positions.push_back(p);
    }
    return it->second;
  };
  for (int c = 0; c < 3; ++c) {
    for (int side = 0; side < 2; ++side) {
      // Tangent axes s, t with e_s x e_t = the outward normal (+-e_c).
      const int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      const int s = side == 1 ? c1 : c2, t = side == 1 ? c2 : c1;
      auto at = [&](int a, int b) {
        std::array<int, 3> l{};
        l[std::size_t(c)] = side == 1 ? n : 0;
        l[std::size_t(s)] = a;
        l[std::size_t(t)] = b;
        return vertex(l);
      };
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
          const std::uint32_t v00 = at(a, b), v10 = at(a + 1, b), v11 = at(a + 1, b + 1), v01 = at(a, b + 1);
          mesh.indices.insert(mesh.indices.end(), {v00, v10, v11, v00, v11, v01});
        }
      }
    }
  }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh makeCapsule(glm::vec3 a, glm::vec3 b, float radius, int rings, int segments) {
  rings = std::max(rings, 1);
  segments = std::max(segments, 3);
  const glm::vec3 d = glm::normalize(b - a);
  // Right-handed frame (e1, e2, d).
  const glm::vec3 helper = std::abs(d.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  const glm::vec3 e1 = glm::normalize(glm::cross(helper, d));
  const glm::vec3 e2 = glm::cross(d, e1);
  TriangleMesh mesh;
  auto add = [&](glm::vec3 centre, glm::vec3 n) {
    mesh.positions.push_back(centre + radius * n);
    mesh.normals.push_back(n);
  };
  add(b, d);  // top pole
  // Latitude rings from the top pole down: rings at b (theta in (0, pi/2]), then at a
  // (theta in [pi/2, pi)); the two equators bound the cylinder.
  const float halfPi = std::numbers::pi_v<float> / 2.0f;
  std::vector<std::pair<glm::vec3, float>> latitudes;
  for (int r = 1; r <= rings; ++r) latitudes.emplace_back(b, halfPi * float(r) / float(rings));
  for (int r = 0; r < rings; ++r) latitudes.emplace_back(a, halfPi + halfPi * float(r) / float(rings));
  for (const auto& [centre, theta] : latitudes) {
    for (int s = 0; s < segments; ++s) {
      const float phi = 2.0f * std::numbers::pi_v<float> * float(s) / float(segments);
      const glm::vec3 radial = std::cos(phi) * e1 + std::sin(phi) * e2;
      add(centre, glm::normalize(std::sin(theta) * radial + std::cos(theta) * d));
    }
  }
  const std::uint32_t bottom = std::uint32_t(mesh.positions.size());
  add(a, -d);
  const int rows = int(latitudes.size());
  const auto at = [segments](int row, int s) { return std::uint32_t(1 + row * segments + (s % segments)); };
  for (int s = 0; s < segments; ++s) mesh.indices.insert(mesh.indices.end(), {0u, at(0, s), at(0, s + 1)});
  for (int row = 0; row + 1 < rows; ++row) {
    for (int s = 0; s < segments; ++s) {
      const std::uint32_t u0 = at(row, s), u1 = at(row, s + 1), l0 = at(row + 1, s), l1 = at(row + 1, s + 1);
      mesh.indices.insert(mesh.indices.end(), {u0, l0, l1, u0, l1, u1});
    }
  }
  for (int s = 0; s < segments; ++s)
    mesh.indices.insert(mesh.indices.end(), {at(rows - 1, s), bottom, at(rows - 1, s + 1)});
  return mesh;
}

TriangleMesh makeTorus(glm::vec3 center, float majorRadius, float minorRadius, int majorSegments, int minorSegments) {
  majorSegments = std::max(majorSegments, 3);
  minorSegments = std::max(minorSegments, 3);
  TriangleMesh mesh;
  for (int i = 0; i < majorSegments; ++i) {
    const float phi = 2.0f * std::numbers::pi_v<float> * float(i) / float(majorSegments);
    const glm::vec3 radial(std::cos(phi), 0.0f, std::sin(phi));
    for (int j = 0; j < minorSegments; ++j) {
      const float psi = 2.0f * std::numbers::pi_v<float> * float(j) / float(minorSegments);
      const glm::vec3 n = glm::normalize(std::cos(psi) * radial + glm::vec3(0.0f, std::sin(psi), 0.0f));
      mesh.positions.push_back(center + majorRadius * radial + minorRadius * n);
      mesh.normals.push_back(n);
    }
  }
  const auto at = [=](int i, int j) {
    return std::uint32_t((i % majorSegments) * minorSegments + (j % minorSegments));
  };
  // d/dpsi x d/dphi points outward: quads (i, j), (i, j+1), (i+1, j+1), (i+1, j).
  for (int i = 0; i < majorSegments; ++i) {
    for (int j = 0; j < minorSegments; ++j) {
      const std::uint32_t v00 = at(i, j), v01 = at(i, j + 1), v11 = at(i + 1, j + 1), v10 = at(i + 1, j);
      mesh.indices.insert(mesh.indices.end(), {v00, v01, v11, v00, v11, v10});
    }
  }
  return mesh;
}

TriangleMesh makeCylinder(float length, float radius, int rings, int segments) {
  TriangleMesh mesh;
  for (int i = 0; i < rings; ++i) {
    const float x = length * float(i) / float(rings - 1);
    for (int j = 0; j < segments; ++j) {
      const float theta = 2.0f * std::numbers::pi_v<float> * float(j) / float(segments);
      mesh.positions.emplace_back(x, radius * std::cos(theta), radius * std::sin(theta));
    }
  }
  const auto at = [segments](int i, int j) { return std::uint32_t(i * segments + (j % segments)); };
  for (int i = 0; i + 1 < rings; ++i)
    for (int j = 0; j < segments; ++j)
      mesh.indices.insert(mesh.indices.end(), {at(i, j), at(i + 1, j + 1), at(i + 1, j),  //
                                               at(i, j), at(i, j + 1), at(i + 1, j + 1)});
  const auto start = std::uint32_t(mesh.positions.size());
  mesh.positions.emplace_back(0.0f, 0.0f, 0.0f);
  mesh.positions.emplace_back(length, 0.0f, 0.0f);
  for (int j = 0; j < segments; ++j) {
    mesh.indices.insert(mesh.indices.end(), {start, at(0, j + 1), at(0, j)});                      // normal -x
    mesh.indices.insert(mesh.indices.end(), {start + 1, at(rings - 1, j), at(rings - 1, j + 1)});  // normal +x
  }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh makeLathe(glm::vec3 base, const std::vector<glm::vec2>& profile, int segments) {
  TriangleMesh mesh;
  const int rings = int(profile.size());
  for (const glm::vec2& p : profile)
    for (int j = 0; j < segments; ++j) {
      const float theta = 2.0f * std::numbers::pi_v<float> * float(j) / float(segments);
      mesh.positions.push_back(base + glm::vec3(p.x * std::cos(theta), p.y, -p.x * std::sin(theta)));
    }
  const auto at = [segments](int i, int j) { return std::uint32_t(i * segments + (j % segments)); };
  for (int i = 0; i + 1 < rings; ++i)
    for (int j = 0; j < segments; ++j)
      mesh.indices.insert(mesh.indices.end(), {at(i, j), at(i, j + 1), at(i + 1, j + 1),  //
                                               at(i, j), at(i + 1, j + 1), at(i + 1, j)});
  const auto start = std::uint32_t(mesh.positions.size());
  mesh.positions.push_back(base + glm::vec3(0.0f, profile.front().y, 0.0f));
  mesh.positions.push_back(base + glm::vec3(0.0f, profile.back().y, 0.0f));
  for (int j = 0; j < segments; ++j) {
    mesh.indices.insert(mesh.indices.end(), {start, at(0, j + 1), at(0, j)});                      // bottom, -y
    mesh.indices.insert(mesh.indices.end(), {start + 1, at(rings - 1, j), at(rings - 1, j + 1)});  // top, +y
  }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh makeBottle(glm::vec3 base, float height) {
  // Profile in units of the height: a cylindrical body to 0.62, a shoulder (half a cosine)
  // to 0.80, the neck to 0.97, a lip ring to the top; small bevels at the base and lip.
  constexpr int kPoints = 93;
  constexpr float body = 0.123f, neck = 0.043f, lip = 0.05f;
  std::vector<glm::vec2> profile;
  for (int i = 0; i < kPoints; ++i) {
    const float t = float(i) / float(kPoints - 1);
    float r;
    if (t < 0.02f)
      r = body - 0.5f * (0.02f - t);  // base bevel
    else if (t < 0.62f)
      r = body;
    else if (t < 0.80f)
      r = neck + (body - neck) * 0.5f * (1.0f + std::cos(std::numbers::pi_v<float> * (t - 0.62f) / 0.18f));
    else if (t < 0.95f)
      r = neck;
    else
      r = lip - 0.3f * std::max(0.0f, t - 0.985f);  // lip with a bevel at the top
    profile.emplace_back(r * height, t * height);
  }
  return makeLathe(base, profile, 65);
}

}  // namespace hg
