#pragma once
/// CPU reference backend of the cloth solver: OpenMP over vertices, gathering each
/// vertex's springs in CSR order (no atomics, no float reductions across threads),
/// so results are bitwise identical for any thread count.
#include <memory>

#include "sim/cloth/ClothSolver.h"

namespace hg {

/// Factory of the CPU backend; error if the settings or the model are invalid.
Result<std::unique_ptr<ClothSolver>> createCpuClothSolver(std::shared_ptr<const ClothModel> model,
                                                          const ClothSettings& settings);

}  // namespace hg
