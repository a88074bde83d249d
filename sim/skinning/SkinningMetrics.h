#pragma once
/// Joint-quality metrics of a skinned surface, to compare skinning methods (LBS, DQS,
/// particle skinning) on the rigs of `hagoromo skin`:
///  - joint-zone volume: the volume enclosed by the surface near a joint, the zone
///    being the triangles whose three rest vertices lie within `zoneRadius` of the
///    joint's rest position, its open boundary loops closed by fans to each loop's
///    centroid (so the zone is a closed surface and its volume is exact for any mesh);
///  - joint radius: the cross-section of the zone surface by the plane through the joint
///    that bisects the bend (perpendicular to a straight limb); its radius is half the
///    cut's smallest width (thickness), so a section that moves but stays round keeps
///    it. The minimum radius ratio is the current radius over the rest radius (1 = no
///    collapse; LBS pinches the inside of a bend and collapses a 180-degree twist to the
///    axis, the "candy wrapper", 0);
///  - bulge: a zone vertex's distance to the skeleton polyline through the joint (parent
///    point - joint - child point) over its rest distance, minus 1, the largest over the
///    zone (DQS bulges at bends);
///  - surface self-intersections: pairs of zone triangles that intersect and share no
///    vertex (CGAL exact predicates over a box-intersection broad phase).
/// Units: metres. GL-free.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/geometry/TriangleIntersections.h"  // countSelfIntersections

namespace hg {

/// The skeleton polyline through a joint (m): the parent's point, the joint, the child's
/// point (for a root or leaf joint repeat the joint for the missing end).
struct JointAxis {
  glm::vec3 parent{0.0f};
  glm::vec3 joint{0.0f};
  glm::vec3 child{0.0f};
};

/// Distance (m) from p to the polyline parent - joint - child.
float distanceToJointAxis(glm::vec3 p, const JointAxis& axis);

/// Absolute measurements of the joint zone in one pose.
struct JointZoneMeasure {
  double volume = 0.0;     ///< m^3, the closed zone's enclosed volume (see the file comment)
  double minRadius = 0.0;  ///< m, the joint cross-section radius (see the file comment)
};

/// The joint metrics relative to the rest pose.
struct JointZoneRatios {
  double volumeRatio = 1.0;           ///< volume / rest volume
  double minRadiusRatio = 1.0;        ///< cross-section radius / rest cross-section radius
  double maxBulge = 0.0;              ///< max over zone vertices of r / r_rest - 1 (0 at rest)
  std::size_t selfIntersections = 0;  ///< intersecting zone-triangle pairs sharing no vertex
};

/// Measures one joint zone of one mesh topology in any pose. The zone, its boundary
/// loops and the rest measurements are computed once in create().
class JointZoneMeter {
 public:
  /// Error if the mesh is invalid (index out of range), `zoneRadius` is not > 0, the zone
  /// holds no triangle, a zone triangle repeats a vertex, the zone is not an oriented
  /// 2-manifold near its boundary (an edge on three or more zone triangles, an edge used
  /// twice in the same direction, a vertex on two boundary loops: "not a set of closed
  /// loops"), a rest zone vertex lies on the joint axis (radius below 1e-6 zoneRadius), or
  /// the closed zone's rest volume is not positive (triangles must be counter-clockwise
  /// seen from outside). The mesh should be welded: a seam of duplicated vertices through
  /// the zone becomes boundary, closed by fans like any other loop.
  static Result<JointZoneMeter> create(const TriangleMesh& restMesh, const JointAxis& restAxis, float zoneRadius);

  /// Volume and minimum radius for the surface `positions` (one per rest vertex, w
  /// ignored) with the skeleton at `axis`.
  JointZoneMeasure measure(std::span<const glm::vec4> positions, const JointAxis& axis) const;
  /// All ratios against the rest pose; the self-intersection count only when
  /// `countIntersections` (it costs a CGAL pass).
  JointZoneRatios ratios(std::span<const glm::vec4> positions, const JointAxis& axis, bool countIntersections) const;

  const JointZoneMeasure& rest() const { return m_rest; }
  std::size_t zoneTriangleCount() const { return m_triangles.size() / 3; }
  std::size_t zoneVertexCount() const { return m_vertices.size(); }
  std::size_t boundaryLoopCount() const { return m_loops.size(); }

 private:
  std::vector<std::uint32_t> m_triangles;           ///< zone triangles (3 indices each)
  std::vector<std::uint32_t> m_vertices;            ///< zone vertices
  std::vector<float> m_restRadii;                   ///< per zone vertex, rest distance to the axis
  std::vector<std::vector<std::uint32_t>> m_loops;  ///< boundary loops, ordered edge chains
  JointZoneMeasure m_rest;
};

}  // namespace hg
