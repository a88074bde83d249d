#pragma once
/// The largest stable substep of the explicit integrator (symplectic Euler), a CFL-style
/// bound computed from the model before the first step.
///
/// Symplectic Euler on x'' = -omega^2 x - gamma x' is stable while
///   omega^2 dt^2 + 2 gamma dt < 4
/// (the update matrix has determinant 1 - gamma dt and trace 2 - omega^2 dt^2 - gamma dt;
/// Jury's conditions). For the whole cloth, omega^2 is the largest eigenvalue of
/// M^-1 K and gamma the largest of M^-1 C; both are bounded from above row by row
/// (Gershgorin's theorem on M^-1/2 K M^-1/2, so unequal masses are handled): a spring of
/// stiffness k between vertices i and j adds k (w_i + sqrt(w_i w_j)) to vertex i's row
/// (w: inverse mass, 0 for a pinned vertex), its axial damping c likewise to gamma, and a
/// bending hinge of stiffness D adds w_i D |g_i| sum_j |g_j|, with g the gradients of the
/// dihedral angle at the rest shape (|g| = 1 / height of the wing triangle). The tension
/// law's scales and exponent multiply k by max(a, b) n (strain up to 1 for n > 1). Because
/// every term is an upper bound the substep is safe, not sharp: the shipped sheets step
/// 1.5-3x below it. Plasticity moves rest lengths and angles, not stiffnesses, so the bound
/// holds after it too (exponent 1; for n > 1 up to strain 1). Strain stiffening s raises
/// the slope to at most k (1 + 2 s) (at strain 1/6).
#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"

namespace hg {

struct StableStep {
  double omegaSquared = 0.0;  ///< 1/s^2, upper bound of the stiffest mode
  double damping = 0.0;       ///< 1/s, upper bound of the damping rate (springs + velocity damping)
  double maxSubstep = 0.0;    ///< s, the largest stable substep (with a 0.9 safety factor); infinity with no springs
  int substepsPerFrame = 1;   ///< ceil(frameDt / maxSubstep)
};

/// The bound for `model` simulated with `settings` (its frameDt, velocityDamping and
/// tension law).
StableStep explicitStableStep(const ClothModel& model, const ClothSettings& settings);

/// `settings` with substeps = 0 ("auto") replaced: for the explicit integrator by the
/// stable count, for the projective one (stable at any step) by kProjectiveAutoSubsteps.
/// Counts given explicitly are kept. Error: the stable count exceeds limits::kMaxSubsteps.
/// Every solver factory applies it.
Result<ClothSettings> withAutoSubsteps(const ClothModel& model, ClothSettings settings);

/// The policy of scene runs (PreparedDrape::prepare): withAutoSubsteps, and an explicit count of
/// the explicit integrator below the stable count is an error naming the count it needs.
Result<ClothSettings> resolveSubsteps(const ClothModel& model, ClothSettings settings);

}  // namespace hg
