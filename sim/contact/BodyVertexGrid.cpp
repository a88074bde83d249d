#include "sim/contact/BodyVertexGrid.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/core/Finite.h"

namespace hg {

Result<std::shared_ptr<const BodyVertexGrid>> buildBodyVertexGrid(const TriangleMesh& body, float reach) {
  if (body.positions.empty()) return Error{"body vertex grid: the body has no vertices"};
  if (!(reach > 0.0f) || !std::isfinite(reach)) return Error{"body vertex grid: the reach must be > 0 m"};
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (std::size_t i = 0; i < body.positions.size(); ++i) {
    const glm::vec3& p = body.positions[i];
    if (!allFinite(p)) return Error{"body vertex grid: vertex " + std::to_string(i) + " is not finite"};
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  // Vertices that share a position are one (an OBJ or STL avatar is a triangle soup; a
  // glTF one is split at UV seams): the normals are then the surface's, not its faces'.
  for (std::uint32_t i : body.indices)
    if (i >= body.positions.size()) return Error{"body vertex grid: a triangle has a vertex index out of range"};
  TriangleMesh welded = weldedByPosition(body);
  computeVertexNormals(welded);

  auto grid = std::make_shared<BodyVertexGrid>();
  grid->reach = reach;
  grid->origin = lo - glm::vec3(reach);
  const glm::vec3 extent = hi - lo + glm::vec3(2.0f * reach);
  float cell = reach;
  auto cellsOf = [&](float size) { return glm::max(glm::ivec3(glm::ceil(extent / size)), glm::ivec3(1)); };
  while (double(cellsOf(cell).x) * cellsOf(cell).y * cellsOf(cell).z > double(BodyVertexGrid::kMaxCells)) cell *= 1.25f;
  grid->cellSize = cell;
  grid->cells = cellsOf(cell);
  const glm::ivec3 dims = grid->cells;
  auto cellOf = [&](const glm::vec3& p) {
    const glm::ivec3 c = glm::clamp(glm::ivec3(glm::floor((p - grid->origin) / cell)), glm::ivec3(0), dims - 1);
    return std::uint32_t(c.x) +
           std::uint32_t(dims.x) * (std::uint32_t(c.y) + std::uint32_t(dims.y) * std::uint32_t(c.z));
  };
  // Counting sort by cell; within a cell by vertex index (stable).
  const std::size_t cellCount = std::size_t(dims.x) * std::size_t(dims.y) * std::size_t(dims.z);
  grid->cellStart.assign(cellCount + 1, 0u);
  for (const glm::vec3& p : welded.positions) ++grid->cellStart[cellOf(p) + 1];
  for (std::size_t c = 0; c < cellCount; ++c) grid->cellStart[c + 1] += grid->cellStart[c];
  std::vector<std::uint32_t> next(grid->cellStart.begin(), grid->cellStart.end() - 1);
  grid->entries.resize(2 * welded.positions.size());
  for (std::size_t i = 0; i < welded.positions.size(); ++i) {
    const std::uint32_t k = next[cellOf(welded.positions[i])]++;
    grid->entries[2 * std::size_t(k)] = glm::vec4(welded.positions[i], 1.0f);
    grid->entries[2 * std::size_t(k) + 1] = glm::vec4(welded.normals[i], 0.0f);
  }
  return std::shared_ptr<const BodyVertexGrid>(std::move(grid));
}

}  // namespace hg
