#pragma once
/// Triangulates the panels of a sewing pattern for the cloth simulation.
///
/// Every panel edge is first resampled at equal arc length; the two edges of a seam get
/// the same number of points, so after meshing seam vertex k of one edge meets seam
/// vertex k (or n - 1 - k, Seam::reversed) of the other. The interior is then meshed by
/// CGAL's 2D constrained Delaunay mesher without boundary refinement
/// (Delaunay_mesher_no_edge_refinement_2), so the boundary points stay exactly these;
/// CGAL's Lloyd smoothing then relaxes the interior vertices.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/garment/Pattern.h"

namespace hg {

struct MeshingOptions {
  float targetEdgeLength = 0.02f;  ///< m: boundary spacing and upper bound on interior edge length
  /// Shape criterion of the Delaunay refinement (degrees). Refinement guarantees it away
  /// from the boundary; triangles next to the fixed boundary may fall below it
  /// (PanelMesherTest measures the smallest angle). CGAL's proven bound is 20.7 degrees.
  float minAngleDegrees = 20.7f;
  int lloydIterations = 10;   ///< CGAL lloyd_optimize_mesh_2 iterations (0: none)
  float textureScale = 1.0f;  ///< m of panel per UV unit: uv = (y, -x) / textureScale
  /// m: sewn edges may differ in length by this much (Pattern::validate); infinity for a
  /// pattern whose seams ease the longer edge onto the shorter (GarmentCodeOptions::ease).
  double seamLengthTolerance = 0.003;
};

/// The UV of a panel-plane point (m): u along the grain (panel +y, warp), v along the
/// weft (panel -x), divided by the texture scale. A rotation: triangles keep their
/// orientation in UV.
inline glm::vec2 panelUv(glm::vec2 panelPoint, float textureScale) {
  return glm::vec2(panelPoint.y, -panelPoint.x) / textureScale;
}

/// One meshed panel.
struct PanelMesh {
  /// Positions (x, y, 0) in the panel plane (m), uvs (panelUv), counter-clockwise
  /// triangles, normals +z.
  TriangleMesh mesh;
  /// Per panel edge, the vertex indices along it from its first point to its last
  /// (both corners included; consecutive edges share their corner vertex).
  std::vector<std::vector<std::uint32_t>> edgeVertices;
};

struct PatternMesh {
  std::vector<PanelMesh> panels;  ///< one per Pattern::panels entry
  float textureScale = 1.0f;
};

/// Meshes every panel. Errors name the panel (invalid pattern, CGAL failure).
Result<PatternMesh> meshPattern(const Pattern& pattern, const MeshingOptions& options = {});

/// Smallest interior angle (degrees) of the mesh's triangles in the xy plane of their
/// positions (panel plane) or, with `inUv`, of their UVs.
double minTriangleAngleDegrees(const TriangleMesh& mesh, bool inUv = false);

}  // namespace hg
