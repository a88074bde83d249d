#pragma once
/// Exact inside test of many points against a closed triangle mesh by ray parity.
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

/// The y-z projection parity inside test of every point against a closed triangle
/// mesh: a point is inside when the ray from it toward -x crosses the surface an odd number
/// of times (used by the particle fill and the solid voxels). Exact: orientations are decided with exact predicates
/// (CGAL's filtered Epick predicates) and the degenerate cases of the projection (a ray through a vertex, along an
/// edge, or within a face parallel to x) by a symbolic perturbation of the point's (y, z) to (y + e, z + e^2), so a ray
/// through a shared edge or vertex counts exactly one crossing per surface sheet, and zero-area projected triangles are
/// never crossed. A point exactly on the surface (on any triangle, faces parallel to x
/// included, found exactly) counts as inside, whatever the triangles' orientation; so the
/// perturbation of x that would decide it is never needed. Non-finite points are
/// outside. Only the triangles' geometry is used (no topology, no orientation), so the
/// answer is that of the ray parity for any mesh; it is the inside of the mesh when the
/// mesh is closed. Cost: triangles are bucketed on a y-z grid and points sharing (y, z)
/// share their row's triangles; O(T + P log P + P k). Deterministic (OpenMP over rows).
/// Error if the mesh has no triangles, an index is out of range or a vertex is not finite.
Result<std::vector<bool>> insideByProjectedParity(const TriangleMesh& mesh, std::span<const glm::vec3> points);

}  // namespace hg
