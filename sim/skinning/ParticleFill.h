#pragma once
/// Filling a closed mesh with particles for particle skinning (docs/methods.md
/// section 4, "Filling the mesh with particles"):
///  1. candidate centres in closest packing (face-centred cubic) over the mesh's
///     bounding box;
///  2. inside test by the y-z projection parity: the mesh triangles and the centres are
///     projected onto the y-z plane; for a centre, the triangles whose projection
///     contains it are crossed by the ray from the centre toward -x where their plane
///     lies at a smaller x; the centre is inside iff that count is odd. The test is made
///     robust to rays through vertices and edges by exact predicates and a symbolic
///     perturbation (insideByProjectedParity, sim/geometry/ProjectedParity.h);
///  3. adaptive radii: levels from the coarsest radius down to `radius`; every level
///     but the last keeps only particles whose sphere lies inside the mesh by a margin
///     (near-surface removal), and every later level fills the rest of the inside
///     without overlapping the particles already placed (the "polyhedron approximating
///     the remaining particles" of the source is the union of their spheres).
/// Units: metres. GL-free.
#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct ParticleFillSettings {
  /// Radius (m) of the finest level (the only level when levels == 1). > 0.
  float radius = 0.02f;
  /// Number of radius levels, >= 1: level k (0 = coarsest) has radius
  /// radius * radiusRatio^(levels - 1 - k).
  int levels = 3;
  /// Ratio of consecutive radii, >= 1.5 (2: each level halves the radius).
  float radiusRatio = 2.0f;
  /// Levels but the last keep a particle only if its centre is at least
  /// surfaceMargin * its radius from the surface (1: the sphere lies inside). >= 0.
  float surfaceMargin = 1.0f;
};

/// The particles of a filled mesh, coarsest level first.
struct ParticleFill {
  std::vector<glm::vec4> particles;      ///< xyz centre (m), w radius (m)
  std::vector<int> levels;               ///< level of each particle (0 = coarsest)
  std::vector<float> levelRadii;         ///< radius (m) of each level
  std::vector<std::size_t> levelCounts;  ///< particles kept per level
  std::size_t size() const { return particles.size(); }
};

/// Centres of a face-centred cubic (closest) packing of spheres of `radius` (m) that
/// lie in the box [lo, hi] (m): touching spheres, 12 neighbours at distance 2 radius.
/// Lattice rows run along x, so many centres share (y, z) (one projection per row): the
/// FCC lattice as hexagonal close-packed layers stacked ABC along z (rows 2 radius apart
/// in x, sqrt(3) radius in y, layers 2 sqrt(2/3) radius in z). The lattice is anchored at
/// lo (lo is a centre); centres are computed in double and rounded to float. Empty when
/// radius is not > 0, a bound is not finite, hi < lo on an axis, or the box would hold
/// more than 8e7 centres.
std::vector<glm::vec3> closestPacking(glm::vec3 lo, glm::vec3 hi, float radius);

/// Fills a closed mesh (step 1-3 above). Each level k packs candidates (closestPacking
/// over the mesh's bounding box, radius levelRadii[k]) and keeps those inside
/// (insideByProjectedParity), not overlapping a particle already placed (centre distance
/// >= (r_j + r_k)(1 - 1e-4)) and, on every level but the last, at least surfaceMargin *
/// r_k from the surface (no triangle meets that ball: CGAL AABB tree). levels == 1 gives
/// the constant-radius fill. Error naming the problem if the settings are out of range,
/// the mesh is not closed (or not manifold), the finest level would need more than 2e7
/// candidates, or nothing fits inside (the finest radius is too large for the mesh).
Result<ParticleFill> fillWithParticles(const TriangleMesh& mesh, const ParticleFillSettings& settings);

}  // namespace hg
