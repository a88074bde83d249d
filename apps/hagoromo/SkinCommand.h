#pragma once
/// `hagoromo skin RIG.json [--out DIR] [--backend cpu|gpu] [--methods LIST] [--quiet]`:
/// runs a skinning rig (sim/skinning/SkinningRig.h) with every method it names (linear
/// blend, dual quaternion, particle skinning: docs/methods.md section 4) and writes, each file
/// atomically:
///   METHOD/frame_NNNN.obj   the skinned surface per frame (every rig.output.obj_every)
///   comparison.png          the last frame, one panel per method, side by side
///   metrics.csv             per frame and method: parameter, volume ratio, min radius
///                           ratio, bulge, self-intersections, ms, settle steps
///   plot_*.svg              each metric against the angle (or time), one curve per method
/// and prints a summary table (metrics at the last frame, particle counts per level).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct SkinOptions {
  std::string rigPath;
  std::string outDir;             ///< overrides the rig's output.directory
  std::string backend = "cpu";    ///< cpu (reference) or gpu (sim/gpu backends)
  std::string methods;            ///< comma-separated override of the rig's methods
  bool methodsGiven = false;      ///< --methods was on the command line
  std::vector<std::string> sets;  ///< --set KEY=VALUE: scene key overrides (sim/io/SceneOverrides.h)
  bool quiet = false;
};

/// Adds the `skin` subcommand to `app`, bound to `options`.
CLI::App* addSkinCommand(CLI::App& app, SkinOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runSkin(const SkinOptions& options);

}  // namespace hg::app
