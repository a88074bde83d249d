#pragma once
/// GPU backend of the ProjectiveJacobi integrator (ClothIntegrator): the same substep
/// as the CPU reference (sim/cloth/CpuProjectiveClothSolver.h documents the method, its
/// papers and limitations) as GL 4.5 compute passes per substep:
///   cloth_forces.comp (bending forces at x; its spring forces are not used),
///   cloth_pd_predict.comp (y), solverIterations x cloth_pd_iterate.comp (one Jacobi
///   sweep with Chebyshev blending each, omega_k from the host as a uniform),
///   cloth_pd_finish.comp (velocities, contacts, anomaly bits), cloth_plasticity.comp.
/// State lives in shader storage buffers; only readState() transfers (plus one status
/// word per step). Requires a current OpenGL 4.5 context.
#include <memory>

#include "sim/cloth/ClothSolver.h"

namespace hg {

/// Factory of the GPU ProjectiveJacobi solver (createGpuClothSolver dispatches here for
/// ClothIntegrator::ProjectiveJacobi); error if a shader fails to build (the driver's
/// log is in the message) or the settings are invalid.
Result<std::unique_ptr<ClothSolver>> createGpuProjectiveClothSolver(std::shared_ptr<const ClothModel> model,
                                                                    const ClothSettings& settings);

}  // namespace hg
