#pragma once
/// `hagoromo patterns SCENE [--out DIR] [--quiet]`: writes every garment of a drape scene as
/// a GarmentCode specification (sim/garment/GarmentCode.h), for a pattern tool (GarmentCode,
/// or Marvelous Designer / CLO through GarmentCode's exporters) or to edit and read back.
/// Built-in blocks are drafted from the scene's avatar as a drape would draft them, laid out
/// flat around the body (blockLayout); a pattern garment is written as it was read. Files:
/// DIR/<garment>_specification.json (default out/patterns/<scene name>), all or none.
#include <string>

namespace CLI {
class App;
}

namespace hg::app {

struct PatternsOptions {
  std::string scenePath;
  std::string outDir;          ///< default out/patterns/<scene name>
  std::string format = "all";  ///< garmentcode, dxf or all
  bool quiet = false;
};

/// Adds the `patterns` subcommand to `app`, bound to `options`.
CLI::App* addPatternsCommand(CLI::App& app, PatternsOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runPatterns(const PatternsOptions& options);

}  // namespace hg::app
