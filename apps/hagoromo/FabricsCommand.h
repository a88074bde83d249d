#pragma once
/// `hagoromo fabrics [--json]`: lists the fabric library (sim/cloth/FabricLibrary.h): each
/// preset's density, measured moduli along warp, weft and bias at zero and 1/6 strain, its
/// bending rigidity per direction, the cloth model's parameters it maps to
/// (sim/cloth/FabricMapping.h) with the error of that fit, and the source.
#include <string>

namespace CLI {
class App;
}

namespace hg::app {

struct FabricsOptions {
  bool json = false;
};

/// Adds the `fabrics` subcommand to `app`, bound to `options`.
CLI::App* addFabricsCommand(CLI::App& app, FabricsOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runFabrics(const FabricsOptions& options);

}  // namespace hg::app
