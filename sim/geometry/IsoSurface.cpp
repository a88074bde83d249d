#include "sim/geometry/IsoSurface.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <unordered_map>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {
namespace {

/// A cube corner as a bit mask: bit 0 = +x, bit 1 = +y, bit 2 = +z.
using Corner = int;

/// The six Kuhn tetrahedra of the unit cube: for each ordering (a, b, c) of the axes,
/// corners 0, e_a, e_a + e_b, e_a + e_b + e_c (= 7), reordered so that every tetrahedron is
/// positively oriented: det(v1 - v0, v2 - v0, v3 - v0) > 0.
std::array<std::array<Corner, 4>, 6> kuhnTetrahedra() {
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::array<std::array<Corner, 4>, 6> tets{};
  const auto coords = [](Corner c) { return glm::ivec3(c & 1, (c >> 1) & 1, (c >> 2) & 1); };
  for (int t = 0; t < 6; ++t) {
    const int a = orders[t][0], b = orders[t][1];
    std::array<Corner, 4> tet = {0, 1 << a, (1 << a) | (1 << b), 7};
    const glm::ivec3 u = coords(tet[1]) - coords(tet[0]);
    const glm::ivec3 v = coords(tet[2]) - coords(tet[0]);
    const glm::ivec3 w = coords(tet[3]) - coords(tet[0]);
    const int det = u.x * (v.y * w.z - v.z * w.y) - u.y * (v.x * w.z - v.z * w.x) + u.z * (v.x * w.y - v.y * w.x);
    if (det < 0) std::swap(tet[2], tet[3]);
    tets[std::size_t(t)] = tet;
  }
  return tets;
}

/// True when the permutation `order` of {0, 1, 2, 3} is even.
bool isEven(const std::array<int, 4>& order) {
  int inversions = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) inversions += order[std::size_t(i)] > order[std::size_t(j)] ? 1 : 0;
  return inversions % 2 == 0;
}

/// `order` made an even permutation by swapping its last two entries if needed (the
/// callers only care which set the last two belong to, not their order).
std::array<int, 4> evenOrder(std::array<int, 4> order) {
  if (!isEven(order)) std::swap(order[2], order[3]);
  return order;
}

/// Moves p onto the zero set of `field` by Newton steps along the central-difference
/// gradient (step `h` m), each move limited to h.
glm::vec3 projectOntoSurface(const ScalarField& field, glm::vec3 p, float h) {
  const float e = 0.05f * h;
  for (int iteration = 0; iteration < 2; ++iteration) {
    const float f = field(p);
    const glm::vec3 g((field(p + glm::vec3(e, 0, 0)) - field(p - glm::vec3(e, 0, 0))) / (2.0f * e),
                      (field(p + glm::vec3(0, e, 0)) - field(p - glm::vec3(0, e, 0))) / (2.0f * e),
                      (field(p + glm::vec3(0, 0, e)) - field(p - glm::vec3(0, 0, e))) / (2.0f * e));
    const float g2 = glm::dot(g, g);
    if (!(g2 > 1e-12f) || !std::isfinite(f)) break;
    glm::vec3 step = -f / g2 * g;
    const float length = glm::length(step);
    if (length > h) step *= h / length;
    p += step;
    if (length < 1e-6f * h) break;
  }
  return p;
}

glm::vec3 triangleNormal(glm::vec3 a, glm::vec3 b, glm::vec3 c) { return glm::cross(b - a, c - a); }

/// Collapses edges shorter than minLength where the link condition holds and no triangle
/// turns by more than 60 degrees (see IsoSurfaceSettings::collapseEdgeFraction).
void collapseShortEdges(TriangleMesh& mesh, float minLength, const ScalarField& field, float h) {
  const std::size_t vertexCount = mesh.positions.size(), triangleCount = mesh.indices.size() / 3;
  std::vector<std::vector<std::uint32_t>> vertexTriangles(vertexCount);
  for (std::size_t t = 0; t < triangleCount; ++t)
    for (int c = 0; c < 3; ++c) vertexTriangles[mesh.indices[3 * t + std::size_t(c)]].push_back(std::uint32_t(t));
  std::vector<char> triangleAlive(triangleCount, 1), vertexAlive(vertexCount, 1);
  std::uint32_t* idx = mesh.indices.data();
  const auto neighbours = [&](std::uint32_t v) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t t : vertexTriangles[v])
      for (int c = 0; c < 3; ++c)
        if (idx[3 * t + std::uint32_t(c)] != v) out.push_back(idx[3 * t + std::uint32_t(c)]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  for (int pass = 0; pass < 4; ++pass) {
    std::vector<std::pair<float, std::uint64_t>> candidates;
    for (std::size_t t = 0; t < triangleCount; ++t) {
      if (!triangleAlive[t]) continue;
      for (int c = 0; c < 3; ++c) {
        const std::uint32_t a = idx[3 * t + std::size_t(c)], b = idx[3 * t + std::size_t((c + 1) % 3)];
        const float length = glm::length(mesh.positions[a] - mesh.positions[b]);
        if (a < b && length < minLength) candidates.emplace_back(length, (std::uint64_t(a) << 32) | b);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    std::size_t collapsed = 0;
    for (const auto& [length0, key] : candidates) {
      const std::uint32_t a = std::uint32_t(key >> 32), b = std::uint32_t(key);
      if (!vertexAlive[a] || !vertexAlive[b]) continue;
      if (glm::length(mesh.positions[a] - mesh.positions[b]) >= minLength) continue;
      // The two triangles on edge ab and their opposite vertices.
      std::uint32_t shared[2], opposite[2];
      int sharedCount = 0;
      for (std::uint32_t t : vertexTriangles[a]) {
        const std::uint32_t* v = &idx[3 * t];
        if (v[0] != b && v[1] != b && v[2] != b) continue;
        if (sharedCount < 2) {
          shared[sharedCount] = t;
          opposite[sharedCount] = v[0] != a && v[0] != b ? v[0] : v[1] != a && v[1] != b ? v[1] : v[2];
        }
        ++sharedCount;
      }
      if (sharedCount != 2 || opposite[0] == opposite[1]) continue;
      // Link condition: the common neighbours of a and b are exactly the two opposite vertices.
      const std::vector<std::uint32_t> na = neighbours(a), nb = neighbours(b);
      std::vector<std::uint32_t> common;
      std::set_intersection(na.begin(), na.end(), nb.begin(), nb.end(), std::back_inserter(common));
      if (common.size() != 2) continue;
      const glm::vec3 merged = projectOntoSurface(field, 0.5f * (mesh.positions[a] + mesh.positions[b]), h);
      // No remaining triangle may turn by more than 60 degrees or degenerate.
      bool acceptable = true;
      for (const std::uint32_t v : {a, b}) {
        for (std::uint32_t t : vertexTriangles[v]) {
          if (t == shared[0] || t == shared[1]) continue;
          glm::vec3 p[3], q[3];
          for (int c = 0; c < 3; ++c) {
            p[c] = mesh.positions[idx[3 * t + std::uint32_t(c)]];
            q[c] = idx[3 * t + std::uint32_t(c)] == a || idx[3 * t + std::uint32_t(c)] == b ? merged : p[c];
          }
          const glm::vec3 before = triangleNormal(p[0], p[1], p[2]), after = triangleNormal(q[0], q[1], q[2]);
          const float lb = glm::length(before), la = glm::length(after);
          if (!(la > 1e-12f) || glm::dot(before, after) < 0.5f * lb * la) acceptable = false;
        }
      }
      if (!acceptable) continue;
      // Collapse b into a.
      for (int s = 0; s < 2; ++s) {
        triangleAlive[shared[s]] = 0;
        for (const std::uint32_t v : {a, b, opposite[0], opposite[1]}) std::erase(vertexTriangles[v], shared[s]);
      }
      for (std::uint32_t t : vertexTriangles[b]) {
        for (int c = 0; c < 3; ++c)
          if (idx[3 * t + std::uint32_t(c)] == b) idx[3 * t + std::uint32_t(c)] = a;
        vertexTriangles[a].push_back(t);
      }
      vertexTriangles[b].clear();
      vertexAlive[b] = 0;
      mesh.positions[a] = merged;
      ++collapsed;
    }
    if (collapsed == 0) break;
  }
  // Compact.
  std::vector<std::uint32_t> remap(vertexCount, ~0u);
  std::vector<glm::vec3> positions;
  for (std::size_t v = 0; v < vertexCount; ++v)
    if (vertexAlive[v] && !vertexTriangles[v].empty()) {
      remap[v] = std::uint32_t(positions.size());
      positions.push_back(mesh.positions[v]);
    }
  std::vector<std::uint32_t> indices;
  for (std::size_t t = 0; t < triangleCount; ++t)
    if (triangleAlive[t])
      for (int c = 0; c < 3; ++c) indices.push_back(remap[idx[3 * t + std::size_t(c)]]);
  mesh.positions = std::move(positions);
  mesh.indices = std::move(indices);
}

/// The sample points: nx x ny x nz points h apart from the box's min corner, x fastest.
struct SampleGrid {
  std::int64_t nx = 0, ny = 0, nz = 0;
  glm::vec3 min{0.0f};
  float h = 0.0f;
  std::int64_t index(std::int64_t i, std::int64_t j, std::int64_t k) const { return i + nx * (j + ny * k); }
  glm::vec3 point(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return min + h * glm::vec3(float(i), float(j), float(k));
  }
};

/// A whole number of cells of h per axis (the box grows at its max side). Error: more
/// than maxGridPoints sample points.
Result<SampleGrid> sampleGrid(const Box3& box, float h, std::size_t maxGridPoints) {
  glm::ivec3 cells;
  double points = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double n = std::ceil(double(box.max[a] - box.min[a]) / double(h));
    points *= n + 1.0;
    if (n > 1e6 || points > double(maxGridPoints))
      return Error{"extractIsoSurface: a grid of cell size " + std::to_string(h) + " m over the box needs more than " +
                   std::to_string(maxGridPoints) + " sample points; use a larger cell size"};
    cells[a] = std::max(1, int(n));
  }
  SampleGrid grid;
  grid.nx = cells.x + 1, grid.ny = cells.y + 1, grid.nz = cells.z + 1;
  grid.min = box.min;
  grid.h = h;
  return grid;
}

/// Samples; the boundary layer is forced outside (h) so the surface closes inside the
/// box. Error: a non-finite field value (the error names the point).
Result<std::vector<float>> sampleField(const ScalarField& field, const SampleGrid& grid) {
  const std::int64_t nx = grid.nx, ny = grid.ny, nz = grid.nz;
  const float h = grid.h;
  std::vector<float> values(std::size_t(nx * ny * nz));
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t i = 0; i < nx; ++i) {
        const bool boundary = i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1;
        values[std::size_t(grid.index(i, j, k))] = boundary ? h : field(grid.point(i, j, k));
      }
  for (std::size_t p = 0; p < values.size(); ++p)
    if (!std::isfinite(values[p])) {
      const std::int64_t i = std::int64_t(p) % nx, j = (std::int64_t(p) / nx) % ny, k = std::int64_t(p) / (nx * ny);
      const glm::vec3 q = grid.point(i, j, k);
      return Error{"extractIsoSurface: the field is not finite at (" + std::to_string(q.x) + ", " +
                   std::to_string(q.y) + ", " + std::to_string(q.z) + ") m"};
    }
  return values;
}

/// The zero set of the samples: per cube, its six Kuhn tetrahedra, each cut into a
/// triangle or a quad with vertices on the edges (shared between neighbours).
TriangleMesh marchTetrahedra(const std::vector<float>& values, const SampleGrid& grid) {
  const std::int64_t nx = grid.nx, ny = grid.ny, nz = grid.nz;
  static const std::array<std::array<Corner, 4>, 6> kTets = kuhnTetrahedra();
  const std::int64_t cornerOffset[8] = {0, 1, nx, 1 + nx, nx * ny, 1 + nx * ny, nx + nx * ny, 1 + nx + nx * ny};

  TriangleMesh mesh;
  // Surface vertex of the grid edge from point `lo` to the point `lo + offset(mask)`,
  // keyed by lo * 8 + mask (every Kuhn edge goes from a corner to a corner with
  // componentwise larger coordinates, so the mask is a non-zero 3-bit offset).
  std::unordered_map<std::uint64_t, std::uint32_t> edgeVertex;
  edgeVertex.reserve(1u << 16);
  const auto vertexOnEdge = [&](std::int64_t base, Corner ca, Corner cb) -> std::uint32_t {
    if (ca > cb) std::swap(ca, cb);  // Kuhn edges: ca's bits are a subset of cb's
    const std::int64_t lo = base + cornerOffset[ca], hi = base + cornerOffset[cb];
    const std::uint64_t key = std::uint64_t(lo) * 8u + std::uint64_t(ca ^ cb);
    const auto [it, inserted] = edgeVertex.try_emplace(key, std::uint32_t(mesh.positions.size()));
    if (inserted) {
      const float va = values[std::size_t(lo)], vb = values[std::size_t(hi)];
      const float t = std::clamp(va / (va - vb), kMinEdgeFraction, 1.0f - kMinEdgeFraction);
      const std::int64_t li = lo % nx, lj = (lo / nx) % ny, lk = lo / (nx * ny);
      const glm::vec3 pa = grid.point(li, lj, lk);
      const glm::vec3 pb = grid.point(li + ((ca ^ cb) & 1), lj + (((ca ^ cb) >> 1) & 1), lk + (((ca ^ cb) >> 2) & 1));
      mesh.positions.push_back(pa + t * (pb - pa));
    }
    return it->second;
  };
  const auto triangle = [&mesh](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    mesh.indices.insert(mesh.indices.end(), {a, b, c});
  };

  for (std::int64_t k = 0; k + 1 < nz; ++k)
    for (std::int64_t j = 0; j + 1 < ny; ++j)
      for (std::int64_t i = 0; i + 1 < nx; ++i) {
        const std::int64_t base = grid.index(i, j, k);
        int insideMask = 0;
        for (int c = 0; c < 8; ++c)
          if (values[std::size_t(base + cornerOffset[c])] < 0.0f) insideMask |= 1 << c;
        if (insideMask == 0 || insideMask == 0xff) continue;
        for (const auto& tet : kTets) {
          std::array<int, 4> in{}, out{};
          int nIn = 0, nOut = 0;
          for (int v = 0; v < 4; ++v) {
            if (insideMask & (1 << tet[std::size_t(v)]))
              in[std::size_t(nIn++)] = v;
            else
              out[std::size_t(nOut++)] = v;
          }
          // Local tetrahedron vertex -> surface vertex on its edge to another local vertex.
          const auto edge = [&](int a, int b) { return vertexOnEdge(base, tet[std::size_t(a)], tet[std::size_t(b)]); };
          // With (p, q, r, s) an even permutation of a positively oriented tetrahedron, the
          // triangle on edges pq, pr, ps faces away from p (see the header for sources).
          if (nIn == 1) {
            const auto o = evenOrder({in[0], out[0], out[1], out[2]});
            triangle(edge(o[0], o[1]), edge(o[0], o[2]), edge(o[0], o[3]));  // faces away from the inside vertex
          } else if (nIn == 3) {
            const auto o = evenOrder({out[0], in[0], in[1], in[2]});
            triangle(edge(o[0], o[1]), edge(o[0], o[3]), edge(o[0], o[2]));  // reversed: faces the outside vertex
          } else if (nIn == 2) {
            // Quad on edges ik, il, jl, jk of the even permutation (i, j, k, l), i and j inside.
            const auto o = evenOrder({in[0], in[1], out[0], out[1]});
            const std::uint32_t ik = edge(o[0], o[2]), il = edge(o[0], o[3]);
            const std::uint32_t jl = edge(o[1], o[3]), jk = edge(o[1], o[2]);
            triangle(ik, il, jl);
            triangle(ik, jl, jk);
          }
        }
      }
  return mesh;
}

}  // namespace

Result<TriangleMesh> extractIsoSurface(const ScalarField& field, const Box3& box, const IsoSurfaceSettings& settings) {
  const float h = settings.cellSize;
  if (!std::isfinite(h) || h <= 0.0f)
    return Error{"extractIsoSurface: cell size " + std::to_string(h) + " m must be finite and positive"};
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(box.min[a]) || !std::isfinite(box.max[a]) || !(box.max[a] > box.min[a]))
      return Error{"extractIsoSurface: the box is empty or not finite along axis " + std::to_string(a)};
  const Result<SampleGrid> grid = sampleGrid(box, h, settings.maxGridPoints);
  if (!grid) return grid.error();
  const Result<std::vector<float>> values = sampleField(field, *grid);
  if (!values) return values.error();
  TriangleMesh mesh = marchTetrahedra(*values, *grid);
  if (settings.collapseEdgeFraction > 0.0f) collapseShortEdges(mesh, settings.collapseEdgeFraction * h, field, h);
  computeVertexNormals(mesh);
  return mesh;
}

}  // namespace hg
