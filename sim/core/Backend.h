#pragma once
/// Which implementation of a method runs: the CPU reference or the GPU backend (OpenGL 4.5
/// compute and raster passes, sim/gpu). Every method with both is cross-checked in tests.

namespace hg {

enum class Backend { Cpu, Gpu };

}  // namespace hg
