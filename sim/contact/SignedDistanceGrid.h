#pragma once
/// A sampled signed distance field of a closed body mesh: the simple, correct body
/// collider that the cloth solvers sample per vertex and substep
/// (sim/kernels/body_contact.glslh), on both backends. The three-direction depth
/// buffers (sim/contact/DepthViews.h) replace it for animated bodies; this one suits a body that holds
/// still while the garment drapes.
///
/// Values are exact (CGAL AABB-tree closest-point distance, CGAL Side_of_triangle_mesh
/// sign) at grid points within `band` of the surface, clamped to +-band elsewhere
/// (outside +band, inside -band: every connected region of far points takes the sign of
/// one exact inside query). Between points the solvers interpolate trilinearly, which is
/// exact to O(h^2 / radius of curvature) where all eight neighbours lie within
/// band - h sqrt(3)/2 of the surface.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct SignedDistanceGrid {
  glm::vec3 origin{0.0f};     ///< m, position of grid point (0, 0, 0)
  float cellSize = 0.0f;      ///< m, spacing h of the grid points
  glm::ivec3 dims{0};         ///< number of grid points along x, y, z
  float band = 0.0f;          ///< m, |values| are clamped to this
  std::vector<float> values;  ///< m, negative inside; index x + dims.x (y + dims.y z)

  std::size_t index(int x, int y, int z) const {
    return std::size_t(x) + std::size_t(dims.x) * (std::size_t(y) + std::size_t(dims.y) * std::size_t(z));
  }
  /// Trilinear distance at p (m); +band outside the grid.
  float distance(glm::vec3 p) const;
};

struct SignedDistanceOptions {
  float cellSize = 0.01f;  ///< m
  float band = 0.04f;      ///< m, exact within this distance of the surface (>= 2 cells)
  float margin = 0.06f;    ///< m of grid beyond the mesh's bounding box on every side
  int threads = 0;         ///< OpenMP threads (0 = default)
};

/// A segment from a to b grown by `radius` (m): a capsule.
struct Capsule {
  glm::vec3 a{0.0f}, b{0.0f};
  float radius = 0.0f;
};

/// Adds capsules to the grid's body (the union of the two): each grid point within
/// `reach` (m) of a capsule's surface takes the smaller of its value and its exact signed
/// distance to the capsule. Outside the union the result is the exact distance to the
/// union wherever the nearer of the two parts is within reach; inside a capsule it is
/// the distance to that capsule's surface (a bound on the union's). The capsules should
/// lie within the grid (a point off the grid reads +band).
void addCapsules(SignedDistanceGrid& grid, std::span<const Capsule> capsules, float reach);

/// Exact signed distances (m, negative inside) of `points` to a body mesh: CGAL AABB-tree
/// closest point and, for a closed mesh, Side_of_triangle_mesh; an open mesh (a scan with
/// holes) is signed by its generalised winding number instead (inside where w >= 1/2,
/// sim/geometry/WindingNumber.h). No grid. The exact reference that checks the collider's
/// result (penetration statistics of a drape). `closed`, when given, says which test signed.
Result<std::vector<float>> exactSignedDistances(const TriangleMesh& mesh, const std::vector<glm::vec3>& points,
                                                bool* closed = nullptr);

/// Samples the signed distance of a closed, consistently oriented triangle mesh.
/// Errors (named in the message): an empty or non-finite mesh, bad options, a grid
/// over 64 M points.
Result<SignedDistanceGrid> buildSignedDistanceGrid(const TriangleMesh& closedMesh,
                                                   const SignedDistanceOptions& options = {});

}  // namespace hg
