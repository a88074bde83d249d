#pragma once
/// Iso-surface extraction from a scalar field sampled on a regular box grid, by marching
/// tetrahedra. GL-free.
///
/// Method: the field is sampled at the grid points; every grid cube is split into the six
/// tetrahedra of the Kuhn (Freudenthal) subdivision, which all share the cube's main
/// diagonal (0,0,0)-(1,1,1). That split is the same in every cube, so two neighbouring
/// cubes cut their common face along the same diagonal and the tetrahedra form a
/// conforming tetrahedral mesh of the box. Inside a tetrahedron the zero set of the
/// linearly interpolated field is one triangle or one quad (two triangles); its vertices
/// lie on tetrahedron edges and are shared (welded) by edge, so the surface is a closed,
/// oriented 2-manifold: every edge has exactly two triangles and every vertex one disk
/// (Bloomenthal, "Polygonization of implicit surfaces", CAGD 5, 1988; Treece, Prager, Gee,
/// "Regularised marching tetrahedra", Computers & Graphics 23, 1999).
///
/// Robustness: a sample that is exactly 0 is classified as outside (values >= 0 are
/// outside), so no vertex is ambiguous; the samples on the box's boundary layer are forced
/// outside, so the surface is closed even where the field's inside touches the box. Edge
/// crossings are clamped to [kMinEdgeFraction, 1 - kMinEdgeFraction] of the edge so that
/// no two surface vertices coincide (no zero-length edges).
#include <functional>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

/// Scalar field: negative inside the solid, positive outside, zero on the surface
/// (a signed distance in metres is ideal but any continuous function works). Called
/// concurrently from several threads: it must be thread-safe (a pure function).
using ScalarField = std::function<float(const glm::vec3&)>;

/// Axis-aligned box, metres.
struct Box3 {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
};

/// Smallest distance of a surface vertex from a grid point, as a fraction of its edge.
inline constexpr float kMinEdgeFraction = 1e-3f;

struct IsoSurfaceSettings {
  float cellSize = 0.01f;                 ///< grid spacing, metres (> 0)
  std::size_t maxGridPoints = 64u << 20;  ///< refuse grids with more sample points than this
  /// After extraction, edges shorter than this fraction of cellSize are collapsed (0 keeps
  /// the raw marching-tetrahedra mesh, whose many slivers and tiny edges are bad for cloth
  /// contact). A collapse merges the edge's ends at its midpoint projected back onto the
  /// surface (Newton steps on the field), and is skipped unless it keeps the surface a
  /// closed 2-manifold of the same topology (the link condition of Dey, Edelsbrunner, Guha,
  /// Nekhayev, "Topology preserving edge contraction", 1999) and turns no triangle by more
  /// than 60 degrees.
  float collapseEdgeFraction = 0.0f;
};

/// Triangulates the surface {p : field(p) = 0} inside `box` on a grid of cubes of edge
/// settings.cellSize (the box is grown to a whole number of cells). Triangles are
/// counter-clockwise seen from outside (positive field), so the signed volume of the
/// result is positive. Normals are the area-weighted vertex normals; uvs are empty.
/// Errors: non-positive or non-finite cell size, an empty or non-finite box, a grid larger
/// than settings.maxGridPoints, a non-finite field value (the error names the point).
Result<TriangleMesh> extractIsoSurface(const ScalarField& field, const Box3& box, const IsoSurfaceSettings& settings);

}  // namespace hg
