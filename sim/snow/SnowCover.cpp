#include "sim/snow/SnowCover.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "sim/core/Finite.h"
#include "sim/core/Limits.h"
#include "sim/kernels/Kernels.h"

namespace hg {

namespace {

constexpr float kHeldSnow = 1e-6f;  // m: less than this counts as no snow (float rounding)

float neighbourDistance(const SnowGrid& grid, int k) { return kernels::snowNeighbourDistance(grid.cell, k); }

/// The neighbour cell index of (i, j) in direction k, or kNoCell outside the grid or
/// without ground.
std::uint32_t neighbourCell(const SnowCover& cover, int i, int j, int k) {
  const glm::ivec2 offset = kernels::snowNeighbourOffset(k);
  const int ni = i + offset.x, nj = j + offset.y;
  if (ni < 0 || nj < 0 || ni >= cover.grid.nx || nj >= cover.grid.nz) return SnowCover::kNoCell;
  const std::size_t n = cover.grid.index(ni, nj);
  return cover.hasGround(n) ? std::uint32_t(n) : SnowCover::kNoCell;
}

Status checkMesh(const TriangleMesh& mesh, const char* what) {
  for (const glm::vec3& p : mesh.positions)
    if (!allFinite(p)) return Error{std::string("snow: the ") + what + " has a non-finite vertex"};
  if (mesh.indices.size() % 3 != 0)
    return Error{std::string("snow: the ") + what + "'s index count is not a multiple of 3"};
  for (std::uint32_t index : mesh.indices)
    if (index >= mesh.positions.size())
      return Error{std::string("snow: the ") + what + " has a triangle index out of range (" + std::to_string(index) +
                   " of " + std::to_string(mesh.positions.size()) + " vertices)"};
  return Status::success();
}

/// Vertices at bit-identical positions merged (indices remapped).
TriangleMesh weld(const TriangleMesh& mesh) {
  struct Key {
    std::uint32_t bits[3];
    bool operator==(const Key& o) const { return std::memcmp(bits, o.bits, sizeof bits) == 0; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return (std::size_t(k.bits[0]) * 73856093u) ^ (std::size_t(k.bits[1]) * 19349663u) ^
             (std::size_t(k.bits[2]) * 83492791u);
    }
  };
  std::unordered_map<Key, std::uint32_t, KeyHash> index;
  TriangleMesh out;
  std::vector<std::uint32_t> remap(mesh.positions.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    glm::vec3 p = mesh.positions[v] + glm::vec3(0.0f);  // -0 and +0 weld alike
    Key key;
    std::memcpy(key.bits, &p.x, sizeof key.bits);
    auto [it, inserted] = index.try_emplace(key, std::uint32_t(out.positions.size()));
    if (inserted) out.positions.push_back(p);
    remap[v] = it->second;
  }
  out.indices.reserve(mesh.indices.size());
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = remap[mesh.indices[t]], b = remap[mesh.indices[t + 1]], c = remap[mesh.indices[t + 2]];
    if (a == b || b == c || c == a) continue;  // collapsed by the weld
    out.indices.insert(out.indices.end(), {a, b, c});
  }
  return out;
}

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t(a) << 32) | b : (std::uint64_t(b) << 32) | a;
}

}  // namespace

Status SnowReposeSettings::validate() const {
  if (!std::isfinite(degrees) || !(degrees > 0.0f) || degrees > 80.0f)
    return Error{"snow: repose_degrees must be in (0, 80] (got " + std::to_string(degrees) + ")"};
  if (!std::isfinite(tolerance) || tolerance < 0.0f)
    return Error{"snow: repose_tolerance must be >= 0 (got " + std::to_string(tolerance) + ")"};
  if (maxIterations < 0 || maxIterations > limits::kMaxReposeIterations)
    return Error{"snow: repose_max_iterations must be in 0.." + std::to_string(limits::kMaxReposeIterations)};
  if (checkEvery < 1) return Error{"snow: repose_check_every must be >= 1"};
  return Status::success();
}

Status SnowSettings::validate() const {
  if (Status s = fall.validate(); !s) return s;
  if (Status s = exposure.validate(); !s) return s;
  if (Status s = repose.validate(); !s) return s;
  if (mapResolution < 0 || mapResolution > 16384)
    return Error{"snow: map_resolution must be in [0, 16384] texels (got " + std::to_string(mapResolution) + ")"};
  if (!std::isfinite(groundCell) || !(groundCell > 0.0f))
    return Error{"snow: ground_cell must be a positive length in m (got " + std::to_string(groundCell) + ")"};
  if (!std::isfinite(objectEdge)) return Error{"snow: object_edge must be finite"};
  if (!std::isfinite(rateMetresPerHour) || rateMetresPerHour < 0.0f)
    return Error{"snow: rate_m_per_hour must be >= 0 (got " + std::to_string(rateMetresPerHour) + ")"};
  if (!std::isfinite(hours) || hours < 0.0f)
    return Error{"snow: hours must be >= 0 (got " + std::to_string(hours) + ")"};
  if (passes < 1 || passes > limits::kMaxSnowPasses)
    return Error{"snow: passes must be in 1.." + std::to_string(limits::kMaxSnowPasses) + " (got " +
                 std::to_string(passes) + ")"};
  if ((long long)passes * fall.count > limits::kMaxSnowMaps)
    return Error{"snow: " + std::to_string(passes) + " passes x " + std::to_string(fall.count) +
                 " directions is out of range (at most " + std::to_string(limits::kMaxSnowMaps) +
                 " depth maps per run)"};
  return Status::success();
}

bool SnowCover::hasGround(std::size_t cell) const { return cell < ground.size() && !std::isnan(ground[cell]); }

double SnowCover::heldVolume() const {
  double cells = 0.0, vertices = 0.0;
  for (std::size_t c = 0; c < groundSnow.size(); ++c)
    if (hasGround(c)) cells += double(groundSnow[c]);
  for (std::size_t v = 0; v < objectSnow.size(); ++v) vertices += double(objectSnow[v]) * double(objectArea[v]);
  return cells * double(grid.cell) * double(grid.cell) + vertices;
}

double SnowCover::spilledOutsideVolume() const {
  double sum = 0.0;
  for (float v : objectSpilledOutside) sum += double(v);
  return sum;
}

Result<TriangleMesh> refineForSnow(const TriangleMesh& mesh, float maxEdge, std::size_t maxTriangles) {
  if (!std::isfinite(maxEdge) || !(maxEdge > 0.0f))
    return Error{"snow: object_edge must be a positive length in m (got " + std::to_string(maxEdge) + ")"};
  TriangleMesh out = weld(mesh);
  const float maxSquared = maxEdge * maxEdge;
  for (;;) {
    // Mark the long edges, then close: a triangle with two marked edges gets its third.
    std::unordered_map<std::uint64_t, std::uint32_t> midpoint;  // edge -> new vertex (set below)
    const std::size_t triangles = out.indices.size() / 3;
    for (std::size_t t = 0; t < triangles; ++t)
      for (int e = 0; e < 3; ++e) {
        const std::uint32_t a = out.indices[3 * t + std::size_t(e)], b = out.indices[3 * t + std::size_t(e + 1) % 3];
        const glm::vec3 d = out.positions[b] - out.positions[a];
        if (glm::dot(d, d) > maxSquared) midpoint.emplace(edgeKey(a, b), 0u);
      }
    if (midpoint.empty()) break;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t t = 0; t < triangles; ++t) {
        int marked = 0;
        std::uint64_t unmarked = 0;
        for (int e = 0; e < 3; ++e) {
          const std::uint64_t key =
              edgeKey(out.indices[3 * t + std::size_t(e)], out.indices[3 * t + std::size_t(e + 1) % 3]);
          if (midpoint.count(key) != 0)
            ++marked;
          else
            unmarked = key;
        }
        if (marked == 2) {
          midpoint.emplace(unmarked, 0u);
          changed = true;
        }
      }
    }
    // Midpoint vertices in a deterministic order (sorted edges).
    std::vector<std::uint64_t> keys;
    keys.reserve(midpoint.size());
    for (const auto& [key, unused] : midpoint) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    for (std::uint64_t key : keys) {
      const std::uint32_t a = std::uint32_t(key >> 32), b = std::uint32_t(key & 0xffffffffu);
      midpoint[key] = std::uint32_t(out.positions.size());
      out.positions.push_back(0.5f * (out.positions[a] + out.positions[b]));
    }
    std::vector<std::uint32_t> indices;
    indices.reserve(out.indices.size() * 2);
    for (std::size_t t = 0; t < triangles; ++t) {
      const std::uint32_t v[3] = {out.indices[3 * t], out.indices[3 * t + 1], out.indices[3 * t + 2]};
      std::int64_t m[3];
      int marked = 0;
      for (int e = 0; e < 3; ++e) {
        auto it = midpoint.find(edgeKey(v[e], v[(e + 1) % 3]));
        m[e] = it == midpoint.end() ? -1 : std::int64_t(it->second);
        marked += it != midpoint.end();
      }
      if (marked == 0) {
        indices.insert(indices.end(), {v[0], v[1], v[2]});
      } else if (marked == 3) {  // red: four triangles
        const std::uint32_t m0 = std::uint32_t(m[0]), m1 = std::uint32_t(m[1]), m2 = std::uint32_t(m[2]);
        indices.insert(indices.end(), {v[0], m0, m2, m0, v[1], m1, m2, m1, v[2], m0, m1, m2});
      } else {  // green: the split edge e = (v[e], v[e + 1]) with the opposite corner
        const int e = m[0] >= 0 ? 0 : (m[1] >= 0 ? 1 : 2);
        const std::uint32_t a = v[e], b = v[(e + 1) % 3], c = v[(e + 2) % 3], mid = std::uint32_t(m[e]);
        indices.insert(indices.end(), {a, mid, c, mid, b, c});
      }
    }
    out.indices = std::move(indices);
    if (out.indices.size() / 3 > maxTriangles)
      return Error{"snow: refining the objects to edges of " + std::to_string(maxEdge) + " m gives over " +
                   std::to_string(maxTriangles) + " triangles; raise object_edge (or ground_cell)"};
  }
  computeVertexNormals(out);
  return out;
}

namespace {

/// The ground grid: cells of `cell` m from the ground triangles' smallest x and z, enough
/// to cover them. Error: more than 2^26 cells.
Status placeGroundGrid(const TriangleMesh& ground, float cell, SnowGrid& grid) {
  float lo[2] = {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()};
  float hi[2] = {-lo[0], -lo[1]};
  for (std::uint32_t index : ground.indices) {
    const glm::vec3& p = ground.positions[index];
    lo[0] = std::min(lo[0], p.x);
    hi[0] = std::max(hi[0], p.x);
    lo[1] = std::min(lo[1], p.z);
    hi[1] = std::max(hi[1], p.z);
  }
  grid.cell = cell;
  grid.originX = lo[0];
  grid.originZ = lo[1];
  const double nx = std::max(1.0, std::ceil(double(hi[0] - lo[0]) / double(grid.cell)));
  const double nz = std::max(1.0, std::ceil(double(hi[1] - lo[1]) / double(grid.cell)));
  if (nx * nz > double(1u << 26))
    return Error{"snow: a ground grid of " + std::to_string(std::llround(nx)) + " x " +
                 std::to_string(std::llround(nz)) + " cells is too large; raise ground_cell (now " +
                 std::to_string(grid.cell) + " m)"};
  grid.nx = int(nx);
  grid.nz = int(nz);
  return Status::success();
}

/// Ground heights: the ground's top surface seen straight down, with the depth maps'
/// rules (NaN: no ground in the cell); no snow yet.
void sampleGroundHeights(const TriangleMesh& ground, SnowCover& cover) {
  const SnowGrid& grid = cover.grid;
  SnowMapFrame top;
  top.direction = {0.0f, -1.0f, 0.0f};
  top.right = {1.0f, 0.0f, 0.0f};
  top.up = {0.0f, 0.0f, 1.0f};
  top.minRight = grid.originX;
  top.minUp = grid.originZ;
  top.texel = grid.cell;
  top.width = grid.nx;
  top.height = grid.nz;
  const std::vector<float> depth = renderSnowDepthMap(top, ground);
  cover.ground.resize(grid.cellCount());
  for (std::size_t c = 0; c < depth.size(); ++c)
    cover.ground[c] = std::isinf(depth[c]) ? std::numeric_limits<float>::quiet_NaN() : -depth[c];
  cover.groundSnow.assign(grid.cellCount(), 0.0f);
}

/// The objects' upward areas per vertex (cover.objectArea, m^2 seen from above; 0 on the
/// border of an open surface) and each vertex's neighbours through triangle edges
/// (unsorted, with repeats).
std::vector<std::vector<std::uint32_t>> upwardAreasAndAdjacency(SnowCover& cover) {
  const TriangleMesh& objects = cover.objects;
  const std::size_t n = objects.positions.size();
  std::vector<std::vector<std::uint32_t>> adjacency(n);
  for (std::size_t t = 0; t + 2 < objects.indices.size(); t += 3) {
    const std::uint32_t v[3] = {objects.indices[t], objects.indices[t + 1], objects.indices[t + 2]};
    const glm::vec3 normal = glm::cross(objects.positions[v[1]] - objects.positions[v[0]],
                                        objects.positions[v[2]] - objects.positions[v[0]]);
    if (normal.y > 0.0f)  // upward-facing: holds snow; half the cross product's y is its area seen from above
      for (std::uint32_t corner : v) cover.objectArea[corner] += normal.y / 6.0f;
    for (int e = 0; e < 3; ++e) {
      adjacency[v[e]].push_back(v[(e + 1) % 3]);
      adjacency[v[(e + 1) % 3]].push_back(v[e]);
    }
  }
  // Vertices on the border of an open surface (an edge of one triangle) hold nothing:
  // snow reaching them falls over the edge, as it falls off a closed roof's rim down its
  // walls.
  std::unordered_map<std::uint64_t, int> edgeUse;
  for (std::size_t t = 0; t + 2 < objects.indices.size(); t += 3)
    for (int e = 0; e < 3; ++e)
      ++edgeUse[edgeKey(objects.indices[t + std::size_t(e)], objects.indices[t + std::size_t(e + 1) % 3])];
  for (const auto& [key, uses] : edgeUse)
    if (uses == 1) {
      cover.objectArea[std::size_t(key >> 32)] = 0.0f;
      cover.objectArea[std::size_t(key & 0xffffffffu)] = 0.0f;
    }
  return adjacency;
}

/// The neighbour table of the object vertices (CSR, ascending): horizontal distances and,
/// per entry v -> w, the entry w -> v.
void buildObjectNeighbours(std::vector<std::vector<std::uint32_t>> adjacency, SnowCover& cover) {
  const TriangleMesh& objects = cover.objects;
  const std::size_t n = objects.positions.size();
  cover.objectNeighbourStart.assign(n + 1, 0u);
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::uint32_t>& row = adjacency[v];
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    cover.objectNeighbourStart[v + 1] = cover.objectNeighbourStart[v] + std::uint32_t(row.size());
  }
  for (std::size_t v = 0; v < n; ++v)
    for (std::uint32_t w : adjacency[v]) {
      cover.objectNeighbours.push_back(w);
      const glm::vec3 d = objects.positions[w] - objects.positions[v];
      cover.objectNeighbourDistance.push_back(std::sqrt(d.x * d.x + d.z * d.z));
    }
  cover.objectReverseEntry.resize(cover.objectNeighbours.size());
  for (std::size_t v = 0; v < n; ++v)
    for (std::uint32_t e = cover.objectNeighbourStart[v]; e < cover.objectNeighbourStart[v + 1]; ++e) {
      const std::uint32_t w = cover.objectNeighbours[e];
      const auto begin = cover.objectNeighbours.begin() + cover.objectNeighbourStart[w];
      const auto end = cover.objectNeighbours.begin() + cover.objectNeighbourStart[w + 1];
      cover.objectReverseEntry[e] =
          std::uint32_t(std::lower_bound(begin, end, std::uint32_t(v)) - cover.objectNeighbours.begin());
    }
}

/// The ground cell under each object vertex that snow spilling off it lands in (kNoCell:
/// off the grid or no ground there).
void findSpillCells(SnowCover& cover) {
  const TriangleMesh& objects = cover.objects;
  const SnowGrid& grid = cover.grid;
  const std::size_t n = objects.positions.size();
  cover.objectSpillCell.assign(n, SnowCover::kNoCell);
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3& p = objects.positions[v];
    const int i = int(std::floor((p.x - grid.originX) / grid.cell)),
              j = int(std::floor((p.z - grid.originZ) / grid.cell));
    if (i < 0 || j < 0 || i >= grid.nx || j >= grid.nz) continue;
    if (cover.hasGround(grid.index(i, j))) cover.objectSpillCell[v] = std::uint32_t(grid.index(i, j));
  }
}

}  // namespace

Result<SnowCover> makeSnowCover(const SnowScene& scene, const SnowSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  if (scene.ground.indices.empty()) return Error{"snow: the scene has no ground triangles"};
  if (Status s = checkMesh(scene.ground, "ground"); !s) return s.error();
  if (Status s = checkMesh(scene.objects, "objects"); !s) return s.error();

  SnowCover cover;
  if (Status s = placeGroundGrid(scene.ground, settings.groundCell, cover.grid); !s) return s.error();
  sampleGroundHeights(scene.ground, cover);

  // Objects: welded, refined, their areas, adjacency and spill cells.
  if (!scene.objects.indices.empty()) {
    auto refined = refineForSnow(scene.objects, settings.resolvedObjectEdge());
    if (!refined) return refined.error();
    cover.objects = std::move(refined).value();
  }
  const std::size_t n = cover.objects.positions.size();
  cover.objectArea.assign(n, 0.0f);
  cover.objectSnow.assign(n, 0.0f);
  cover.objectSpilledOutside.assign(n, 0.0f);
  buildObjectNeighbours(upwardAreasAndAdjacency(cover), cover);
  findSpillCells(cover);
  return cover;
}

TriangleMesh coveredSceneMesh(const SnowCover& cover) {
  TriangleMesh mesh;
  const SnowGrid& grid = cover.grid;
  std::vector<std::uint32_t> vertexOfCell(grid.cellCount(), SnowCover::kNoCell);
  for (int j = 0; j < grid.nz; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t c = grid.index(i, j);
      if (!cover.hasGround(c)) continue;
      vertexOfCell[c] = std::uint32_t(mesh.positions.size());
      const glm::vec2 centre = grid.centre(i, j);
      mesh.positions.emplace_back(centre.x, cover.ground[c] + std::max(cover.groundSnow[c], 0.0f), centre.y);
    }
  for (int j = 0; j + 1 < grid.nz; ++j)
    for (int i = 0; i + 1 < grid.nx; ++i) {
      const std::uint32_t a = vertexOfCell[grid.index(i, j)], b = vertexOfCell[grid.index(i + 1, j)],
                          c = vertexOfCell[grid.index(i + 1, j + 1)], d = vertexOfCell[grid.index(i, j + 1)];
      if (a == SnowCover::kNoCell || b == SnowCover::kNoCell || c == SnowCover::kNoCell || d == SnowCover::kNoCell)
        continue;
      mesh.indices.insert(mesh.indices.end(), {a, c, b, a, d, c});  // counter-clockwise seen from above
    }
  const std::uint32_t offset = std::uint32_t(mesh.positions.size());
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v)
    mesh.positions.push_back(cover.objects.positions[v] + glm::vec3(0.0f, std::max(cover.objectSnow[v], 0.0f), 0.0f));
  for (std::uint32_t index : cover.objects.indices) mesh.indices.push_back(offset + index);
  return mesh;
}

SnowReceivers snowReceivers(const SnowCover& cover) {
  SnowReceivers r;
  const SnowGrid& grid = cover.grid;
  for (int j = 0; j < grid.nz; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t c = grid.index(i, j);
      if (!cover.hasGround(c)) continue;
      const glm::vec2 centre = grid.centre(i, j);
      r.cells.push_back(std::uint32_t(c));
      r.points.emplace_back(centre.x, cover.ground[c] + std::max(cover.groundSnow[c], 0.0f), centre.y);
    }
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v) {
    if (!(cover.objectArea[v] > 0.0f)) continue;
    r.vertices.push_back(std::uint32_t(v));
    r.points.push_back(cover.objects.positions[v] + glm::vec3(0.0f, std::max(cover.objectSnow[v], 0.0f), 0.0f));
  }
  return r;
}

SnowSpillLists snowSpillLists(const SnowCover& cover) {
  const std::size_t cells = cover.grid.cellCount();
  std::vector<std::vector<std::uint32_t>> perCell(cells);
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v)
    for (std::uint32_t e = cover.objectNeighbourStart[v]; e < cover.objectNeighbourStart[v + 1]; ++e) {
      const std::uint32_t w = cover.objectNeighbours[e];
      if (cover.objectArea[w] > 0.0f || cover.objectSpillCell[w] == SnowCover::kNoCell) continue;
      perCell[cover.objectSpillCell[w]].push_back(e);
    }
  SnowSpillLists lists;
  lists.start.assign(cells + 1, 0u);
  for (std::size_t c = 0; c < cells; ++c) {
    lists.start[c + 1] = lists.start[c] + std::uint32_t(perCell[c].size());
    lists.entries.insert(lists.entries.end(), perCell[c].begin(), perCell[c].end());
  }
  return lists;
}

double maxReposeRatio(const SnowCover& cover, float reposeDegrees) {
  const double tanRepose = std::tan(glm::radians(double(reposeDegrees)));
  const SnowGrid& grid = cover.grid;
  double worst = 0.0;
  for (int j = 0; j < grid.nz; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t c = grid.index(i, j);
      if (!cover.hasGround(c) || !(cover.groundSnow[c] > kHeldSnow)) continue;
      const double surface = double(cover.ground[c]) + double(cover.groundSnow[c]);
      for (int k = 0; k < 8; ++k) {
        const std::uint32_t n = neighbourCell(cover, i, j, k);
        if (n == SnowCover::kNoCell) continue;
        const double drop = surface - (double(cover.ground[n]) + double(cover.groundSnow[n]));
        worst = std::max(worst, drop / (double(neighbourDistance(grid, k)) * tanRepose));
      }
    }
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v) {
    if (!(cover.objectArea[v] > 0.0f) || !(cover.objectSnow[v] > kHeldSnow)) continue;
    const double surface = double(cover.objects.positions[v].y) + double(cover.objectSnow[v]);
    for (std::uint32_t e = cover.objectNeighbourStart[v]; e < cover.objectNeighbourStart[v + 1]; ++e) {
      const std::uint32_t w = cover.objectNeighbours[e];
      const double drop = surface - (double(cover.objects.positions[w].y) + double(cover.objectSnow[w]));
      if (!(drop > 0.0)) continue;
      const double run = double(cover.objectNeighbourDistance[e]) * tanRepose;
      worst = std::max(worst, run > 0.0 ? drop / run : std::numeric_limits<double>::infinity());
    }
  }
  return worst;
}

SnowExposureSettings resolvedExposureSettings(const SnowCover& cover, const SnowSettings& settings) {
  SnowExposureSettings exposure = settings.exposure;
  if (settings.mapResolution > 0) {
    const float extent = std::max(float(cover.grid.nx), float(cover.grid.nz)) * cover.grid.cell;
    exposure.texel = extent / float(settings.mapResolution);
  }
  if (!(exposure.raySpread > 0.0f)) exposure.raySpread = snowRaySpread(settings.fall.coneDegrees, settings.fall.count);
  return exposure;
}

namespace {

/// The CPU reference: the same two sweeps as the compute passes (sim/gpu/shaders/snow_repose_*.comp),
/// in float, in the same order of summation.
class CpuSnowSolver final : public SnowSolver {
 public:
  CpuSnowSolver(SnowCover cover, const SnowExposureSettings& exposure)
      : m_cover(std::move(cover)), m_exposureSettings(exposure) {
    const std::size_t cells = m_cover.grid.cellCount();
    m_groundOut.assign(cells * 8, 0.0f);
    m_objectOut.assign(m_cover.objectNeighbours.size(), 0.0f);
    SnowSpillLists spill = snowSpillLists(m_cover);
    m_spillStart = std::move(spill.start);
    m_spillEntries = std::move(spill.entries);
  }

  const char* name() const override { return "cpu"; }

  Status accumulate(std::span<const glm::vec3> directions, float depthOnOpenGround) override {
    if (!std::isfinite(depthOnOpenGround) || depthOnOpenGround < 0.0f)
      return Error{"snow: the snow depth of a pass must be finite and >= 0"};
    const TriangleMesh scene = coveredSceneMesh(m_cover);
    const SnowReceivers receivers = snowReceivers(m_cover);
    auto exposure = snowExposureCpu(scene, receivers.points, directions, m_exposureSettings);
    if (!exposure) return exposure.error();
    m_exposure = std::move(exposure).value();
    for (std::size_t r = 0; r < receivers.cells.size(); ++r)
      m_cover.groundSnow[receivers.cells[r]] += depthOnOpenGround * m_exposure[r];
    for (std::size_t r = 0; r < receivers.vertices.size(); ++r)
      m_cover.objectSnow[receivers.vertices[r]] += depthOnOpenGround * m_exposure[receivers.cells.size() + r];
    return Status::success();
  }

  Result<SnowRelaxation> relax(const SnowReposeSettings& settings) override {
    if (Status s = settings.validate(); !s) return s.error();
    const float tanRepose = float(std::tan(glm::radians(double(settings.degrees))));
    SnowRelaxation result;
    result.maxRatio = maxReposeRatio(m_cover, settings.degrees);
    result.converged = result.maxRatio <= 1.0 + double(settings.tolerance);
    while (!result.converged && result.iterations < settings.maxIterations) {
      const int sweeps = std::min(settings.checkEvery, settings.maxIterations - result.iterations);
      for (int s = 0; s < sweeps; ++s) sweep(tanRepose);
      result.iterations += sweeps;
      result.maxRatio = maxReposeRatio(m_cover, settings.degrees);
      result.converged = result.maxRatio <= 1.0 + double(settings.tolerance);
    }
    return result;
  }

  Result<SnowCover> cover() override { return m_cover; }
  Result<double> totalVolume() override { return m_cover.totalVolume(); }
  Result<std::vector<float>> lastExposure() override { return m_exposure; }

 private:
  /// One relaxation sweep: outflows per edge from the old state, then the gather.
  void sweep(float tanRepose) {
    SnowCover& c = m_cover;
    const SnowGrid& grid = c.grid;
    // Ground outflows (volumes in m x cell^2; every cell has area 1 in those units).
#pragma omp parallel for schedule(static)
    for (int j = 0; j < grid.nz; ++j)
      for (int i = 0; i < grid.nx; ++i) {
        const std::size_t cell = grid.index(i, j);
        float* out = m_groundOut.data() + cell * 8;
        if (!c.hasGround(cell)) {
          std::fill(out, out + 8, 0.0f);
          continue;
        }
        const float surface = c.ground[cell] + c.groundSnow[cell];
        float excess[8], largest = 0.0f, sum = 0.0f;
        for (int k = 0; k < 8; ++k) {
          const std::uint32_t n = neighbourCell(c, i, j, k);
          excess[k] = n == SnowCover::kNoCell ? 0.0f
                                              : kernels::snowReposeExcess(surface, c.ground[n] + c.groundSnow[n],
                                                                          neighbourDistance(grid, k), tanRepose);
          largest = std::max(largest, kernels::snowPairVolume(excess[k], 1.0f, 1.0f));
          sum += excess[k];
        }
        const float perExcess = kernels::snowOutflowPerExcess(c.groundSnow[cell], largest, sum);
        for (int k = 0; k < 8; ++k) out[k] = excess[k] * perExcess;
      }
    // Object outflows (m^3) along the adjacency; only holders send.
    const std::ptrdiff_t vertices = std::ptrdiff_t(c.objects.positions.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t vi = 0; vi < vertices; ++vi) {
      const std::size_t v = std::size_t(vi);
      const std::uint32_t begin = c.objectNeighbourStart[v], end = c.objectNeighbourStart[v + 1];
      const float area = c.objectArea[v];
      if (!(area > 0.0f)) {
        std::fill(m_objectOut.begin() + begin, m_objectOut.begin() + end, 0.0f);
        continue;
      }
      const float surface = c.objects.positions[v].y + c.objectSnow[v];
      float largest = 0.0f, sum = 0.0f;
      for (std::uint32_t e = begin; e < end; ++e) {
        const std::uint32_t w = c.objectNeighbours[e];
        const float excess = kernels::snowReposeExcess(surface, c.objects.positions[w].y + c.objectSnow[w],
                                                       c.objectNeighbourDistance[e], tanRepose);
        m_objectOut[e] = excess;
        largest = std::max(largest, kernels::snowPairVolume(excess, area, c.objectArea[w]));
        sum += excess;
      }
      const float perExcess = kernels::snowOutflowPerExcess(c.objectSnow[v] * area, largest, sum);
      for (std::uint32_t e = begin; e < end; ++e) m_objectOut[e] *= perExcess;
    }
    // Gather: ground cells (their own flows, then the snow falling off objects onto them).
    const float cellArea = grid.cell * grid.cell;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < grid.nz; ++j)
      for (int i = 0; i < grid.nx; ++i) {
        const std::size_t cell = grid.index(i, j);
        if (!c.hasGround(cell)) continue;
        float sent = 0.0f, received = 0.0f;
        for (int k = 0; k < 8; ++k) {
          sent += m_groundOut[cell * 8 + std::size_t(k)];
          const std::uint32_t n = neighbourCell(c, i, j, k);
          if (n != SnowCover::kNoCell) received += m_groundOut[std::size_t(n) * 8 + std::size_t(k ^ 1)];
        }
        float fallen = 0.0f;
        for (std::uint32_t s = m_spillStart[cell]; s < m_spillStart[cell + 1]; ++s)
          fallen += m_objectOut[m_spillEntries[s]];
        c.groundSnow[cell] = c.groundSnow[cell] - sent + received + fallen / cellArea;
      }
      // Gather: object vertices (holders keep theirs; spill vertices with no cell below count it).
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t vi = 0; vi < vertices; ++vi) {
      const std::size_t v = std::size_t(vi);
      const float area = c.objectArea[v];
      float sent = 0.0f, received = 0.0f;
      for (std::uint32_t e = c.objectNeighbourStart[v]; e < c.objectNeighbourStart[v + 1]; ++e) {
        sent += m_objectOut[e];
        received += m_objectOut[c.objectReverseEntry[e]];
      }
      if (area > 0.0f)
        c.objectSnow[v] = (c.objectSnow[v] * area - sent + received) / area;
      else if (c.objectSpillCell[v] == SnowCover::kNoCell)
        c.objectSpilledOutside[v] += received;
    }
  }

  SnowCover m_cover;
  SnowExposureSettings m_exposureSettings;
  std::vector<float> m_exposure;
  std::vector<float> m_groundOut, m_objectOut;
  std::vector<std::uint32_t> m_spillStart, m_spillEntries;
};

}  // namespace

std::unique_ptr<SnowSolver> makeCpuSnowSolver(SnowCover initial, const SnowExposureSettings& exposure) {
  return std::make_unique<CpuSnowSolver>(std::move(initial), exposure);
}

Result<SnowfallReport> runSnowfall(SnowSolver& solver, const SnowSettings& settings,
                                   const std::function<void(int)>& progress) {
  if (Status s = settings.validate(); !s) return s.error();
  SnowfallReport report;
  const float depthPerPass = settings.rateMetresPerHour * settings.hours / float(settings.passes);
  double previousVolume = 0.0;
  for (int pass = 0; pass < settings.passes; ++pass) {
    SnowfallSettings fall = settings.fall;
    fall.seed = settings.fall.seed + std::uint32_t(pass);
    auto directions = snowfallDirections(fall);
    if (!directions) return directions.error();
    if (Status s = solver.accumulate(*directions, depthPerPass); !s) return s.error();
    auto fallen = solver.totalVolume();
    if (!fallen) return fallen.error();
    const double volumeBefore = *fallen;
    report.fallenVolume += volumeBefore - previousVolume;
    auto relaxation = solver.relax(settings.repose);
    if (!relaxation) return relaxation.error();
    auto relaxed = solver.totalVolume();
    if (!relaxed) return relaxed.error();
    previousVolume = *relaxed;
    if (volumeBefore > 0.0)
      report.maxRelativeMassDrift =
          std::max(report.maxRelativeMassDrift, std::abs(previousVolume - volumeBefore) / volumeBefore);
    report.relaxations.push_back(*relaxation);
    ++report.passes;
    if (progress) progress(pass + 1);
  }
  report.finalVolume = previousVolume;
  return report;
}

}  // namespace hg
