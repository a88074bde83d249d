#pragma once
/// GPU backend of the cloth solver: per substep GL 4.5 compute dispatches of
/// sim/gpu/shaders/cloth_forces.comp, cloth_step.comp and (with colliders) cloth_contact.comp,
/// which call the same kernels as the CPU backend.
/// State lives in shader storage buffers (ping-pong); only readState() transfers.
/// Requires a current OpenGL 4.5 context (hg::gl::HeadlessContext or a window).
#include <memory>

#include "sim/cloth/ClothSolver.h"

namespace hg {

/// Factory of the GPU backend; error if the shader fails to build (the driver's log
/// is in the message) or the settings are invalid.
Result<std::unique_ptr<ClothSolver>> createGpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings);

/// Either backend by name.
Result<std::unique_ptr<ClothSolver>> createClothSolver(Backend backend, std::shared_ptr<const ClothModel> model,
                                                       const ClothSettings& settings);

}  // namespace hg
