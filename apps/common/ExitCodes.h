#pragma once
/// Exit codes of the hagoromo programs: one table from the kind of failure (hg::ErrorKind)
/// to the code, documented in docs/user-guide.md and --help (kExitCodeHelp).
#include <cstdio>
#include <string>

#include "sim/core/Result.h"

namespace hg::app {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,        ///< bad command line (the option is named)
  kExitInput = 2,        ///< unreadable or invalid input file (scene, mesh, texture, motion): file and key named
  kExitGraphics = 3,     ///< no usable OpenGL 4.5 context, a shader that does not build, a GL error
  kExitSimulation = 4,   ///< the simulation failed (unstable: NaN or speed limit; seams never closed); nothing written
  kExitOutput = 5,       ///< an output file could not be written; nothing written
  kExitQualityGate = 6,  ///< finished, but a quality gate failed (sim/scene/QualityGates.h), or a batch job did
                         ///< not pass; outputs written
  kExitInternal = 70,    ///< a bug or out of memory (an unexpected exception); nothing written
  kExitInterrupted = 130,  ///< SIGINT (Ctrl-C): staged outputs removed
  kExitTerminated = 143,   ///< SIGTERM: staged outputs removed
};

/// The one table: the exit code of a failure of `kind`.
constexpr ExitCode exitCodeOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::CommandLine:
      return kExitUsage;
    case ErrorKind::Input:
      return kExitInput;
    case ErrorKind::Graphics:
      return kExitGraphics;
    case ErrorKind::Simulation:
      return kExitSimulation;
    case ErrorKind::Output:
      return kExitOutput;
  }
  return kExitInternal;
}

/// The exit codes as the programs' --help prints them.
inline constexpr const char* kExitCodeHelp =
    "Exit codes: 0 ok, 1 bad command line, 2 invalid input file (named, with the key), 3 no OpenGL 4.5\n"
    "context, shader or GL error, 4 simulation failed (unstable, seams not closed), 5 output not writable,\n"
    "6 a drape finished but failed a quality gate, or a batch job did not pass (outputs written for\n"
    "inspection), 70 internal error or out of memory, 130 interrupted (SIGINT), 143 terminated\n"
    "(SIGTERM). Otherwise nothing is written unless the run succeeds: outputs are staged and appear\n"
    "together at the end.";

/// Prints "PROGRAM: error: MESSAGE" to stderr and returns the code of its kind (for `return fail(...)`).
inline int fail(const Error& error, const char* program = "hagoromo") {
  std::fprintf(stderr, "%s: error: %s\n", program, error.message.c_str());
  return exitCodeOf(error.kind);
}

/// A command-line error ("--frames: ..."): exit 1.
inline int failUsage(const std::string& message, const char* program = "hagoromo") {
  return fail(Error{message, ErrorKind::CommandLine}, program);
}

}  // namespace hg::app
