#pragma once
/// The static equilibrium of a cloth under gravity and its pins, by Newton's method: for
/// quasi-static tests (the fabric bench's tensile strips and cantilevers), where relaxing
/// the dynamics to rest takes up to a million explicit substeps (bench/RESULTS.md).
///
/// Energy (J), minimised over the free vertices (pinned ones, inverse mass 0, stay put):
/// - each spring: the integral of the tension law kernels::tensionMagnitude (Hooke's law
///   with compressionScale / extensionScale and the strain stiffening; tensionExponent 1);
/// - each hinge: the quadratic bending of kernels/projective_bending.glslh, w/2 |K x|^2,
///   which equals the explicit hinge's k (1 - cos theta) for folds of a flat rest state
///   that keep the wings' shape (the hinges must rest flat);
/// - gravity: -sum m g . x.
/// Each Newton step solves H dx = -grad E with the Hessian's spring part projected to
/// positive semidefinite (the transverse term f/r I of a compressed spring dropped), by
/// Eigen's sparse Cholesky (SimplicialLDLT), then backtracks on E (Armijo). Double
/// precision throughout.
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/core/Result.h"

namespace hg {

struct StaticSolveSettings {
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
  float compressionScale = 1.0f;          ///< a of the tension law (ClothSettings)
  float extensionScale = 1.0f;            ///< b
  int maxIterations = 200;                ///< Newton steps
  /// Converged when no free vertex moved more than this in the last step (m).
  double stepTolerance = 1e-9;
};

struct StaticSolveReport {
  bool converged = false;
  int iterations = 0;         ///< Newton steps taken
  double lastStep = 0.0;      ///< m, the largest vertex move of the last step
  double energy = 0.0;        ///< J at the result
  double largestForce = 0.0;  ///< N, the largest net force on a free vertex at the result
};

/// Moves the free vertices of `positions` (xyz m, w inverse mass as the model's rest
/// positions; pinned vertices are held where they are) to the equilibrium nearest them.
/// Errors: a hinge with a rest angle, positions of the wrong count, a Hessian that cannot
/// be factored.
Result<StaticSolveReport> solveStaticEquilibrium(const ClothModel& model, const StaticSolveSettings& settings,
                                                 std::vector<glm::vec4>& positions);

}  // namespace hg
