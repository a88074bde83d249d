#pragma once
/// Exit codes of the hagoromo programs (documented in README.md and --help).
#include <cstdio>
#include <string>

namespace hg::app {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,        ///< bad command line (CLI11 prints the problem)
  kExitInput = 2,        ///< unreadable or invalid input file (scene, mesh, texture)
  kExitGraphics = 3,     ///< no usable OpenGL 4.5 context, or a shader failed to build
  kExitSimulation = 4,   ///< the simulation became unstable (NaN / speed limit); nothing written
  kExitOutput = 5,       ///< an output file could not be written
};

/// Prints "PROGRAM: error: MESSAGE" to stderr and returns `code` (for `return fail(...)`).
inline int fail(int code, const std::string& message, const char* program = "hagoromo") {
  std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return code;
}

}  // namespace hg::app
