#include "sim/contact/SignedDistanceGrid.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <omp.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <CGAL/AABB_face_graph_triangle_primitive.h>
#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/boost/graph/helpers.h>

#include "sim/geometry/WindingNumber.h"

namespace hg {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using SurfaceMesh = CGAL::Surface_mesh<Point>;
using Primitive = CGAL::AABB_face_graph_triangle_primitive<SurfaceMesh>;
using Tree = CGAL::AABB_tree<CGAL::AABB_traits<Kernel, Primitive>>;
using InsideTest = CGAL::Side_of_triangle_mesh<SurfaceMesh, Kernel, CGAL::Default, Tree>;

constexpr std::int64_t kMaxGridPoints = 64ll << 20;

/// The mesh as a CGAL surface, vertices with identical positions merged: an imported
/// avatar comes as a triangle soup (assimp's OBJ and STL readers give every triangle
/// its own corners) or split at UV and normal seams, and is closed only once welded.
/// Triangles that the merge collapses are left out.
Result<SurfaceMesh> toSurfaceMesh(const TriangleMesh& mesh, bool requireClosed = true) {
  for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
    const glm::vec3 p = mesh.positions[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{"body mesh: vertex " + std::to_string(i) + " is not finite"};
  }
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t)
    for (int k = 0; k < 3; ++k)
      if (const std::uint32_t v = mesh.indices[3 * t + std::size_t(k)]; v >= mesh.vertexCount())
        return Error{"body mesh: triangle " + std::to_string(t) + " has vertex index " + std::to_string(v) +
                     " out of range"};
  const TriangleMesh welded = weldedByPosition(mesh);
  SurfaceMesh out;
  for (const glm::vec3& p : welded.positions) out.add_vertex(Point(p.x, p.y, p.z));
  for (std::size_t t = 0; t < welded.triangleCount(); ++t) {
    const std::uint32_t* v = welded.indices.data() + 3 * t;
    if (out.add_face(SurfaceMesh::Vertex_index(v[0]), SurfaceMesh::Vertex_index(v[1]),
                     SurfaceMesh::Vertex_index(v[2])) == SurfaceMesh::null_face())
      return Error{"body mesh: triangle " + std::to_string(t) +
                   " makes the surface non-manifold (or is degenerate / repeated)"};
  }
  if (requireClosed && !CGAL::is_closed(out))
    return Error{"body mesh is not closed (it has border edges): inside and outside are undefined"};
  return out;
}

/// Error: a cell size that is not positive, a band under two cells, a margin that does
/// not exceed the band by a cell.
Status checkGridOptions(const SignedDistanceOptions& options) {
  if (!(options.cellSize > 0.0f) || !std::isfinite(options.cellSize))
    return Error{"signed distance grid: cellSize must be > 0 m"};
  if (!(options.band >= 2.0f * options.cellSize))
    return Error{"signed distance grid: band (" + std::to_string(options.band) + " m) must be at least two cells (" +
                 std::to_string(2.0f * options.cellSize) + " m)"};
  if (!(options.margin >= options.band + options.cellSize))
    return Error{
        "signed distance grid: margin must exceed band + one cell, so the grid's border lies outside the band"};
  return Status::success();
}

/// The grid's cell, band, origin and dimensions: the mesh's box grown by the margin.
/// Error: more than kMaxGridPoints points.
Status placeGrid(const TriangleMesh& closedMesh, const SignedDistanceOptions& options, SignedDistanceGrid& grid) {
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
  for (const glm::vec3& p : closedMesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  grid.cellSize = options.cellSize;
  grid.band = options.band;
  grid.origin = lo - glm::vec3(options.margin);
  grid.dims = glm::ivec3(glm::ceil((hi - lo + 2.0f * options.margin) / options.cellSize)) + 1;
  const std::int64_t total = std::int64_t(grid.dims.x) * grid.dims.y * grid.dims.z;
  if (total > kMaxGridPoints)
    return Error{"signed distance grid of " + std::to_string(grid.dims.x) + " x " + std::to_string(grid.dims.y) +
                 " x " + std::to_string(grid.dims.z) + " points is too large: raise cellSize"};
  return Status::success();
}

/// Candidates: per grid point, 1 within `band` of some triangle's bounding box.
std::vector<std::uint8_t> nearTriangleBoxes(const TriangleMesh& closedMesh, const SignedDistanceGrid& grid,
                                            float band) {
  const std::int64_t total = std::int64_t(grid.dims.x) * grid.dims.y * grid.dims.z;
  std::vector<std::uint8_t> inBand(std::size_t(total), 0);
  for (std::size_t t = 0; t < closedMesh.triangleCount(); ++t) {
    glm::vec3 a = closedMesh.positions[closedMesh.indices[3 * t]];
    glm::vec3 b = a;
    for (int k = 1; k < 3; ++k) {
      a = glm::min(a, closedMesh.positions[closedMesh.indices[3 * t + std::size_t(k)]]);
      b = glm::max(b, closedMesh.positions[closedMesh.indices[3 * t + std::size_t(k)]]);
    }
    const glm::ivec3 from = glm::max(glm::ivec3(glm::floor((a - band - grid.origin) / grid.cellSize)), 0);
    const glm::ivec3 to = glm::min(glm::ivec3(glm::ceil((b + band - grid.origin) / grid.cellSize)), grid.dims - 1);
    for (int z = from.z; z <= to.z; ++z)
      for (int y = from.y; y <= to.y; ++y)
        for (int x = from.x; x <= to.x; ++x) inBand[grid.index(x, y, z)] = 1;
  }
  return inBand;
}

/// The exact signed distances of the candidate points within the band; the others
/// (farther than the band) leave it (inBand = 0) for the flood fill.
void fillBand(const std::vector<std::int64_t>& candidates, const Tree& tree, const InsideTest& inside,
              const SignedDistanceOptions& options, std::vector<std::uint8_t>& inBand, SignedDistanceGrid& grid) {
  const auto count = std::int64_t(candidates.size());
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  // Each point's value depends on that point only, so dynamic scheduling keeps the
  // result independent of the thread count.
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (std::int64_t c = 0; c < count; ++c) {
    const std::int64_t i = candidates[std::size_t(c)];
    const int x = int(i % grid.dims.x), y = int((i / grid.dims.x) % grid.dims.y),
              z = int(i / (std::int64_t(grid.dims.x) * grid.dims.y));
    const glm::vec3 p = grid.origin + grid.cellSize * glm::vec3(x, y, z);
    const Point q(p.x, p.y, p.z);
    const double d = std::sqrt(CGAL::to_double(tree.squared_distance(q)));
    if (d > double(options.band)) {
      inBand[std::size_t(i)] = 0;  // far: classified by the flood fill below
      continue;
    }
    const CGAL::Bounded_side side = inside(q);
    const double signedDistance = side == CGAL::ON_BOUNDED_SIDE ? -d : side == CGAL::ON_BOUNDARY ? 0.0 : d;
    grid.values[std::size_t(i)] = float(signedDistance);
  }
}

/// Far field: the points outside the band form connected regions that the surface
/// does not cross (the band separates them from it); one exact inside query per region
/// gives the sign of all its points (a cavity enclosed by an inverted shell is outside).
void fillFarField(const std::vector<std::uint8_t>& inBand, const InsideTest& inside, float band,
                  SignedDistanceGrid& grid) {
  const std::int64_t total = std::int64_t(grid.dims.x) * grid.dims.y * grid.dims.z;
  std::vector<std::uint8_t> visited(std::size_t(total), 0);
  std::vector<std::int64_t> region;
  for (std::int64_t start = 0; start < total; ++start) {
    if (inBand[std::size_t(start)] || visited[std::size_t(start)]) continue;
    region.clear();
    region.push_back(start);
    visited[std::size_t(start)] = 1;
    for (std::size_t head = 0; head < region.size(); ++head) {
      const std::int64_t i = region[head];
      const int x = int(i % grid.dims.x), y = int((i / grid.dims.x) % grid.dims.y),
                z = int(i / (std::int64_t(grid.dims.x) * grid.dims.y));
      auto visit = [&](int nx, int ny, int nz) {
        const std::size_t n = grid.index(nx, ny, nz);
        if (inBand[n] || visited[n]) return;
        visited[n] = 1;
        region.push_back(std::int64_t(n));
      };
      if (x > 0) visit(x - 1, y, z);
      if (x + 1 < grid.dims.x) visit(x + 1, y, z);
      if (y > 0) visit(x, y - 1, z);
      if (y + 1 < grid.dims.y) visit(x, y + 1, z);
      if (z > 0) visit(x, y, z - 1);
      if (z + 1 < grid.dims.z) visit(x, y, z + 1);
    }
    const int x = int(start % grid.dims.x), y = int((start / grid.dims.x) % grid.dims.y),
              z = int(start / (std::int64_t(grid.dims.x) * grid.dims.y));
    const glm::vec3 p = grid.origin + grid.cellSize * glm::vec3(x, y, z);
    const float value = inside(Point(p.x, p.y, p.z)) == CGAL::ON_BOUNDED_SIDE ? -band : band;
    for (const std::int64_t i : region) grid.values[std::size_t(i)] = value;
  }
}

}  // namespace

void addCapsules(SignedDistanceGrid& grid, std::span<const Capsule> capsules, float reach) {
  for (const Capsule& c : capsules) {
    const glm::vec3 lo = glm::min(c.a, c.b) - (c.radius + reach), hi = glm::max(c.a, c.b) + (c.radius + reach);
    const glm::ivec3 first = glm::max(glm::ivec3(glm::ceil((lo - grid.origin) / grid.cellSize)), glm::ivec3(0));
    const glm::ivec3 last = glm::min(glm::ivec3(glm::floor((hi - grid.origin) / grid.cellSize)), grid.dims - 1);
    const glm::vec3 axis = c.b - c.a;
    const float length2 = glm::dot(axis, axis);
    for (int z = first.z; z <= last.z; ++z)
      for (int y = first.y; y <= last.y; ++y)
        for (int x = first.x; x <= last.x; ++x) {
          const glm::vec3 p = grid.origin + grid.cellSize * glm::vec3(x, y, z);
          const float t = length2 > 0.0f ? std::clamp(glm::dot(p - c.a, axis) / length2, 0.0f, 1.0f) : 0.0f;
          const float d = glm::distance(p, c.a + t * axis) - c.radius;
          float& value = grid.values[grid.index(x, y, z)];
          value = std::min(value, d);
        }
  }
}

float SignedDistanceGrid::distance(glm::vec3 p) const {
  const glm::vec3 g = (p - origin) / cellSize;
  const glm::ivec3 base(glm::floor(g));
  if (base.x < 0 || base.y < 0 || base.z < 0 || base.x >= dims.x - 1 || base.y >= dims.y - 1 || base.z >= dims.z - 1)
    return band;
  const glm::vec3 f = g - glm::vec3(base);
  float c[8];
  for (int k = 0; k < 8; ++k) c[k] = values[index(base.x + (k & 1), base.y + ((k >> 1) & 1), base.z + ((k >> 2) & 1))];
  const float x00 = glm::mix(c[0], c[1], f.x), x10 = glm::mix(c[2], c[3], f.x);
  const float x01 = glm::mix(c[4], c[5], f.x), x11 = glm::mix(c[6], c[7], f.x);
  return glm::mix(glm::mix(x00, x10, f.y), glm::mix(x01, x11, f.y), f.z);
}

Result<std::vector<float>> exactSignedDistances(const TriangleMesh& mesh, const std::vector<glm::vec3>& points,
                                                bool* closed) {
  Result<SurfaceMesh> surface = toSurfaceMesh(mesh, /*requireClosed=*/false);
  if (!surface) return surface.error();
  const bool isClosed = CGAL::is_closed(*surface);
  if (closed) *closed = isClosed;
  Tree tree(faces(*surface).first, faces(*surface).second, *surface);
  tree.build();
  tree.accelerate_distance_queries();
  std::vector<float> distances(points.size());
  const auto count = std::int64_t(points.size());
  if (!isClosed) {
    // Open (a scan with holes): the sign from the generalised winding number, w >= 1/2 inside.
    const TriangleMesh welded = weldedByPosition(mesh);
    const std::vector<double> winding = windingNumbers(welded, points);
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < count; ++i) {
      const glm::vec3 p = points[std::size_t(i)];
      const double d = std::sqrt(CGAL::to_double(tree.squared_distance(Point(p.x, p.y, p.z))));
      distances[std::size_t(i)] = float(winding[std::size_t(i)] >= 0.5 ? -d : d);
    }
    return distances;
  }
  const InsideTest inside(tree);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < count; ++i) {
    const glm::vec3 p = points[std::size_t(i)];
    const Point q(p.x, p.y, p.z);
    const double d = std::sqrt(CGAL::to_double(tree.squared_distance(q)));
    const CGAL::Bounded_side side = inside(q);
    distances[std::size_t(i)] = float(side == CGAL::ON_BOUNDED_SIDE ? -d : side == CGAL::ON_BOUNDARY ? 0.0 : d);
  }
  return distances;
}

Result<SignedDistanceGrid> buildSignedDistanceGrid(const TriangleMesh& closedMesh,
                                                   const SignedDistanceOptions& options) {
  if (Status s = checkGridOptions(options); !s) return s.error();
  if (closedMesh.triangleCount() == 0) return Error{"body mesh has no triangles"};
  Result<SurfaceMesh> surface = toSurfaceMesh(closedMesh);
  if (!surface) return surface.error();
  SignedDistanceGrid grid;
  if (Status s = placeGrid(closedMesh, options, grid); !s) return s.error();

  std::vector<std::uint8_t> inBand = nearTriangleBoxes(closedMesh, grid, options.band);
  std::vector<std::int64_t> candidates;
  for (std::int64_t i = 0; i < std::int64_t(inBand.size()); ++i)
    if (inBand[std::size_t(i)]) candidates.push_back(i);

  Tree tree(faces(*surface).first, faces(*surface).second, *surface);
  tree.build();
  tree.accelerate_distance_queries();
  const InsideTest inside(tree);

  grid.values.assign(inBand.size(), options.band);
  fillBand(candidates, tree, inside, options, inBand, grid);
  fillFarField(inBand, inside, options.band, grid);
  return grid;
}

}  // namespace hg
