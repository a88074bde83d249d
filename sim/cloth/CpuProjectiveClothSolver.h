#pragma once
/// CPU reference backend of the ProjectiveJacobi integrator (ClothIntegrator): projective
/// dynamics / fast mass-spring (Liu, Bargteil, O'Brien and Kavan 2013; Bouaziz et al.
/// 2014), the global step solved by Jacobi iterations with Chebyshev semi-iteration
/// (Huamin Wang 2015). Per-element math: sim/kernels/projective.glslh; the GPU twin is
/// sim/gpu/GpuProjectiveClothSolver.cpp.
///
/// One substep of h = frameDt / substeps (s):
///   1. v_pred = v + h (g + f_bending(x) / m), y = x + h v_pred: bending (bendingForces)
///      explicit, evaluated once at the start of the substep; with
///      BendingScheme::Implicit no bending force here (f_bending = 0).
///   2. K = solverIterations Jacobi sweeps from x^0 = y; each re-projects every spring
///      (and with implicit bending every hinge, kernels/projective_bending.glslh) at the
///      current iterate (local step) and updates every free vertex from its CSR
///      springs (and hinges) in fixed order (global step), blended with the Chebyshev weight omega_k
///      (rho = chebyshevRho; the recursion restarts every substep). Iterates are kept
///      as displacements u = x - y (float precision: see projective.glslh).
///   3. x = y + u, v = (v_pred + u / h) / (1 + c h) (= (x - x_old) / h with
///      integrateVertex's implicit damping), then the collider contacts (contactAt /
///      resolveContact) and the anomaly bits (vertexAnomaly); then plastic creep.
/// OpenMP schedule(static) over vertices, gathers in CSR order, three iterate buffers
/// (u^{k-1}, u^k, u^{k+1}) so no vertex reads a value written in the same sweep: the
/// result is bitwise identical for any thread count.
///
/// Limitations: the axial spring damping (ClothMaterial::springDamping) is dropped, only
/// the velocity damping c acts; for tensionExponent != 1 each sweep uses the tangent
/// linearisation of the tension law at the current strain (projective.glslh); explicit
/// bending (the default) needs substeps when it is very stiff, implicit bending does not
/// (but, as stiff springs, converges slowly in Jacobi sweeps); contacts are applied once
/// after the solve (a vertex pushed out does not re-enter the solve). Jacobi converges
/// slowly on smooth (low-frequency) error: with too few iterations for the stiffness
/// and step, the solve stays incomplete, which is stable but makes the cloth sag as if
/// softer (a stiff 20 x 20 sheet, E = 2e4 N/m, hung from two corners at one 1/60 s
/// substep reaches ~100% strain at K = 30, rho = 0.9, and < 10% at K = 200, rho = 0.99,
/// tests/cloth/ProjectiveSolverGLTest.cpp). Raise chebyshevRho toward the Jacobi spectral
/// radius (close to 1 for stiff cloth at large steps; too close diverges), or
/// solverIterations, or substeps.
/// Pinned vertices (inverse mass 0) are kinematic: fixed positions, velocities kept.
#include <memory>

#include "sim/cloth/ClothSolver.h"

namespace hg {

/// Factory of the CPU ProjectiveJacobi solver (settings.integrator is not consulted:
/// createCpuClothSolver dispatches here for ClothIntegrator::ProjectiveJacobi); error
/// if the settings or the model are invalid.
Result<std::unique_ptr<ClothSolver>> createCpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model,
                                                                    const ClothSettings& settings);

}  // namespace hg
