#include "sim/cloth/ClothModel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

namespace hg {

TriangleMesh ClothModel::restMesh() const {
  TriangleMesh mesh;
  mesh.positions.reserve(restPositions.size());
  for (const glm::vec4& p : restPositions) mesh.positions.emplace_back(p);
  mesh.uvs = uvs;
  mesh.indices = triangles;
  computeVertexNormals(mesh);
  return mesh;
}

void buildSpringAdjacency(ClothModel& model) {
  const std::size_t n = model.vertexCount();
  std::vector<std::uint32_t> counts(n + 1, 0);
  for (const Spring& s : model.springs) {
    ++counts[s.a + 1];
    ++counts[s.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) counts[i + 1] += counts[i];
  model.springOffsets = counts;
  model.springEntries.assign(counts[n], kernels::SpringEntry{});
  std::vector<std::uint32_t> cursor(counts.begin(), counts.end() - 1);
  for (const Spring& s : model.springs) {
    model.springEntries[cursor[s.a]++] = {s.b, s.restLength, s.stiffness, s.damping};
    model.springEntries[cursor[s.b]++] = {s.a, s.restLength, s.stiffness, s.damping};
  }
  for (std::size_t i = 0; i < n; ++i)
    std::sort(model.springEntries.begin() + counts[i], model.springEntries.begin() + counts[i + 1],
              [](const kernels::SpringEntry& x, const kernels::SpringEntry& y) {
                return x.neighbor < y.neighbor;
              });
}

Result<ClothModel> makeSquareCloth(const SquareClothSpec& spec) {
  const int r = spec.resolution;
  if (r < 2 || r > 4096)
    return Error{"cloth resolution " + std::to_string(r) + " is outside 2..4096 vertices per side"};
  if (!(spec.size > 0.0f) || !std::isfinite(spec.size))
    return Error{"cloth size must be a positive number of metres"};
  if (!(spec.mass > 0.0f) || !std::isfinite(spec.mass))
    return Error{"cloth mass must be a positive number of kilograms"};
  for (float k : {spec.stretchStiffness, spec.shearStiffness, spec.bendStiffness, spec.springDamping})
    if (!(k >= 0.0f) || !std::isfinite(k))
      return Error{"cloth stiffness and damping must be finite and >= 0"};

  ClothModel model;
  const std::size_t n = std::size_t(r) * std::size_t(r);
  const float inverseMass = float(n) / spec.mass;  // W/p per vertex (seed 004)
  auto index = [r](int row, int col) { return std::uint32_t(row * r + col); };
  for (int row = 0; row < r; ++row) {
    for (int col = 0; col < r; ++col) {
      const float u = float(col) / float(r - 1), v = float(row) / float(r - 1);
      // u along +x (warp), v along -z so the sheet faces +y with CCW triangles.
      const glm::vec3 p = spec.center + glm::vec3((u - 0.5f) * spec.size, 0.0f, (0.5f - v) * spec.size);
      model.restPositions.emplace_back(p, inverseMass);
      model.uvs.emplace_back(u, v);
    }
  }
  for (std::uint32_t pin : spec.pinned) {
    if (pin >= n)
      return Error{"pinned vertex " + std::to_string(pin) + " is outside the cloth's " +
                   std::to_string(n) + " vertices"};
    model.restPositions[pin].w = 0.0f;
  }
  for (int row = 0; row + 1 < r; ++row) {
    for (int col = 0; col + 1 < r; ++col) {
      // Alternate the diagonal so the sheet has no preferred shear direction.
      const std::uint32_t a = index(row, col), b = index(row, col + 1), c = index(row + 1, col + 1),
                          d = index(row + 1, col);
      if ((row + col) % 2 == 0)
        model.triangles.insert(model.triangles.end(), {a, b, c, a, c, d});
      else
        model.triangles.insert(model.triangles.end(), {a, b, d, b, c, d});
    }
  }
  auto addSpring = [&](int r0, int c0, int r1, int c1, float k) {
    if (r1 < 0 || r1 >= r || c1 < 0 || c1 >= r || k <= 0.0f) return;
    const std::uint32_t a = index(r0, c0), b = index(r1, c1);
    const float rest = glm::distance(glm::vec3(model.restPositions[a]), glm::vec3(model.restPositions[b]));
    model.springs.push_back({std::min(a, b), std::max(a, b), rest, k, spec.springDamping});
  };
  for (int row = 0; row < r; ++row) {
    for (int col = 0; col < r; ++col) {
      addSpring(row, col, row, col + 1, spec.stretchStiffness);
      addSpring(row, col, row + 1, col, spec.stretchStiffness);
      addSpring(row, col, row + 1, col + 1, spec.shearStiffness);
      addSpring(row, col, row + 1, col - 1, spec.shearStiffness);
      addSpring(row, col, row, col + 2, spec.bendStiffness);
      addSpring(row, col, row + 2, col, spec.bendStiffness);
    }
  }
  buildSpringAdjacency(model);
  return model;
}

}  // namespace hg
