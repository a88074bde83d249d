#pragma once
/// The CGAL-backed geometry (2D constrained Delaunay meshing of garment panels,
/// inside/outside and distance queries on closed triangle meshes) behind a CGAL-free
/// interface, so that CGAL's heavy headers compile in one translation unit
/// (CgalGeometry.cpp) and its -frounding-math flag stays out of the rest of hg_sim.
/// Used by garment meshing and placement and by the particle fill's closedness check.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg::cgal {

/// A triangulated planar region: points (m) and counter-clockwise triangles (3 x T).
struct PlanarMesh {
  std::vector<glm::dvec2> points;
  std::vector<std::uint32_t> triangles;
};

/// Quality mesh of the inside of a simple counter-clockwise polygon with CGAL's
/// Delaunay_mesher_no_edge_refinement_2 (Shewchuk's / Ruppert's refinement without
/// splitting the constrained boundary): triangles with edges up to `maxEdgeLength` (m)
/// and, away from the boundary, smallest angle >= asin(sqrt(shapeBound)) (CGAL's shape
/// criterion b = sin^2(min angle); 0.125 = 20.7 degrees). The first boundary.size()
/// points of the result are the boundary points in order; no point is added on the
/// boundary (checked: the error says so if CGAL did).
///
/// `interiorLoop` (optional): a closed polygon strictly inside the boundary whose edges the
/// mesh must keep as edges (e.g. the rim of the support disc a drape test clamps, so that
/// the clamped vertices are exactly those inside it); its points follow the boundary's in
/// the result, likewise unrefined.
Result<PlanarMesh> meshPolygon(std::span<const glm::dvec2> boundary, double maxEdgeLength, double shapeBound,
                               int lloydIterations, std::span<const glm::dvec2> interiorLoop = {});

/// Exact inside/outside (CGAL Side_of_triangle_mesh, ray parity over an AABB tree) and
/// distance queries on a body's triangle mesh. Vertices with identical positions are
/// merged first; each connected component is tested on its own, so a body made of
/// overlapping closed parts (torso, limbs) is the union of their insides. A component with
/// border edges (a scan with holes, a body without soles) has no exact inside: it is
/// tested by the generalised winding number, inside where w >= 1/2
/// (sim/geometry/WindingNumber.h, evaluated hierarchically: O(log triangles) per query far
/// from the surface).
class ClosedMeshQuery {
 public:
  static Result<ClosedMeshQuery> create(const TriangleMesh& mesh);
  ClosedMeshQuery(ClosedMeshQuery&&) noexcept;
  ClosedMeshQuery& operator=(ClosedMeshQuery&&) noexcept;
  ~ClosedMeshQuery();

  /// True inside any component or on its surface.
  bool inside(glm::vec3 p) const;
  /// The nearest point on the surface (m).
  glm::vec3 closestPoint(glm::vec3 p) const;
  std::size_t componentCount() const;
  /// Components tested by the winding number (open ones).
  std::size_t openComponentCount() const;

 private:
  struct Impl;
  explicit ClosedMeshQuery(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace hg::cgal
