#pragma once
/// `hagoromo snow SCENE.json [--out DIR] [--backend cpu|gpu] [--directions N] [--passes N]
/// [--hours H] [--map-resolution N] [--width W] [--height H] [--quiet]`: snow accumulation
/// on a scene (docs/methods.md section 5; sim/snow/SnowCover.h): builds the snow cover, runs
/// the snowfall (accumulation passes from the snowfall directions, each followed by the
/// repose relaxation) and writes, each file atomically, into DIR (default
/// out/snow/<scene name>):
///   before.png               the bare scene (render/SnowSceneView.h)
///   after.png                the scene under its snow, same camera
///   snow.obj                 the ground snow as a closed solid + the objects under their snow
///   snow_depth.png           the ground snow depth, 16-bit greyscale (scale in its tEXt chunk
///                            and in the report), one pixel per cell, north (+z) up
///   snow_depth_preview.png   the same as an 8-bit false-colour picture for people (viridis
///                            from 0 to the 99th percentile of the depth, colour bar at the
///                            bottom; the scale is in the report)
///   report.json              settings, timings, volumes, relaxation and depth statistics
/// and prints a short summary. Nothing is written when the run fails.
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct SnowOptions {
  std::string scenePath;
  std::string outDir;  ///< default out/snow/<scene name>
  std::string
      backend;  ///< cpu or gpu; empty: gpu on a hardware driver, cpu on a software one (or without a GPU solver)
  int directions = -1;             ///< overrides snowfall.directions (count) when >= 1
  int passes = -1;                 ///< overrides the passes when >= 1
  double hours = -1.0;             ///< overrides the snowfall duration (h) when > 0
  int mapResolution = -1;          ///< overrides the depth maps' resolution (texels across) when >= 0
  int rays = 0;                    ///< overrides the rays per direction when >= 1
  int width = 1024, height = 768;  ///< before.png / after.png, pixels
  std::vector<std::string> sets;   ///< --set KEY=VALUE: scene key overrides (sim/io/SceneOverrides.h)
  bool quiet = false;
};

/// Adds the `snow` subcommand to `app`, bound to `options`.
CLI::App* addSnowCommand(CLI::App& app, SnowOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runSnow(const SnowOptions& options);

}  // namespace hg::app
