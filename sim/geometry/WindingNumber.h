#pragma once
/// The generalised winding number of a triangle soup (Jacobson, Kavan and Sorkine-Hornung,
/// "Robust Inside-Outside Segmentation using Generalized Winding Numbers", SIGGRAPH 2013):
/// w(p) = sum over triangles of the signed solid angle they subtend at p, over 4 pi, each
/// by Van Oosterom and Strackee's formula (IEEE Trans. Biomed. Eng. 30(2), 1983). It is 1
/// inside and 0 outside a closed, outward-oriented surface, and degrades gracefully where
/// the surface has holes (a scan without soles, an unwelded export): w >= 1/2 is the
/// robust "inside" the paper segments by. Units: none (a fraction of the sphere).
///
/// Evaluated directly, O(triangles) per point (the paper's hierarchical evaluation is not
/// needed at the sizes it is used for here: tens of thousands of body triangles against
/// thousands of cloth vertices, in parallel). CGAL offers no winding number; libigl, which
/// does, is not packaged by Debian 12.
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/core/TriangleMesh.h"

namespace hg {

/// The winding number of `mesh` at `p` (indices must be in range).
double windingNumber(const TriangleMesh& mesh, glm::vec3 p);
/// windingNumber at every point, in parallel (OpenMP).
std::vector<double> windingNumbers(const TriangleMesh& mesh, std::span<const glm::vec3> points);

}  // namespace hg
