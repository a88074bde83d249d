#pragma once
/// `hagoromo grasp SCENE.json [--out DIR] [--backend cpu|gpu] [--quiet]`: the Cyber Radar
/// grasp (sim/radar/Grasp.h; docs/methods.md section 3): hands of 17 radars detect a target by
/// ID, approach it and close their fingers on it; every radar of a frame in one batch.
/// Writes NAME.png (the final grasp), NAME.obj (hands, target, distractors) and NAME.json
/// (per hand: frames per phase, joint angles, per-finger gaps, exact distances to the
/// target; radars per frame and in all), each atomically, at the end.
#include <string>

namespace CLI {
class App;
}

namespace hg::app {

struct GraspOptions {
  std::string scenePath;
  std::string outDir;           ///< overrides the scene's output.directory
  std::string backend = "cpu";  ///< cpu (reference) or gpu (sim/gpu/GpuRadar.h, when built)
  bool quiet = false;
};

/// Adds the `grasp` subcommand to `app`, bound to `options`.
CLI::App* addGraspCommand(CLI::App& app, GraspOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runGrasp(const GraspOptions& options);

}  // namespace hg::app
