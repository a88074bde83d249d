#pragma once
/// Exit codes of the hagoromo programs (documented in README.md and --help).
namespace hg::app {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,        ///< bad command line (CLI11 prints the problem)
  kExitInput = 2,        ///< unreadable or invalid input file (scene, mesh, texture)
  kExitGraphics = 3,     ///< no usable OpenGL 4.5 context, or a shader failed to build
  kExitSimulation = 4,   ///< the simulation became unstable (NaN / speed limit); nothing written
  kExitOutput = 5,       ///< an output file could not be written
};

}  // namespace hg::app
