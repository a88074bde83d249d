#pragma once
/// The body's vertices with their outward normals in a uniform grid: the thin-feature
/// samples of the cloth's per-frame feature pass (docs/methods.md section 2, "Thin
/// features"; kernels/thin_features.glslh). GL-free; immutable once built, shared by the
/// colliders of both backends (the GPU backend uploads it).
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct BodyVertexGrid {
  /// How far (m) from a cloth triangle a body vertex is looked at: a feature that came
  /// further through the cloth within one substep is not caught by the pass (at 480
  /// substeps per second, 4.8 m/s relative speed).
  static constexpr float kDefaultReach = 0.01f;
  /// Cells at most; the cell grows past the reach to stay within it.
  static constexpr std::size_t kMaxCells = std::size_t(1) << 21;

  glm::vec3 origin{0.0f};  ///< m, the corner of cell (0, 0, 0)
  float cellSize = 0.0f;   ///< m
  glm::ivec3 cells{0};     ///< along x, y, z
  float reach = kDefaultReach;
  std::vector<std::uint32_t> cellStart;  ///< cells + 1: the first entry of each cell, then the count
  /// Per entry (sorted by cell, then vertex index): position (xyz m, w 1) and outward unit
  /// normal (xyz, w 0), interleaved: entry k at 2k and 2k + 1.
  std::vector<glm::vec4> entries;
};

/// The grid of a closed, outward counter-clockwise body mesh: its vertices, those that share
/// a position merged, with the area-weighted vertex normals, in cells of edge `reach` (or
/// larger, so that at most BodyVertexGrid::kMaxCells cover the body's box grown by one
/// reach). Errors: no vertices, a vertex or the reach not
/// finite, a non-positive reach.
Result<std::shared_ptr<const BodyVertexGrid>> buildBodyVertexGrid(const TriangleMesh& body,
                                                                  float reach = BodyVertexGrid::kDefaultReach);

}  // namespace hg
