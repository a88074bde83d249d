#pragma once
/// `hagoromo drape SCENE.json [--backend cpu|gpu] [--frames N] [--out DIR] [--threads N]
/// [--quiet] [--measure-penetration] [--measure-intersections]`: simulates a drape scene (sim/scene/DrapeScene.h)
/// headless: the scene is prepared (sim/scene/PreparedDrape.h: the avatar and its collider,
/// the props, the cloth or the sewn garments), run frame by frame (or to rest with
/// solver.until_rest) and rendered, and writes, each file atomically, into the scene's
/// output folder:
///   NAME.obj                the draped cloth
///   NAME.png                the overview; with an avatar also NAME_front/_side/_back.png
///   NAME_depth_views.png    with depth-view contact: the body as the cloth saw it
///   NAME_body.obj, NAME.glb with an avatar: its surface, and the body with the drape as shape keys
///   NAME_props.obj          the boxes and props as placed
///   NAME_frame_NNNN.obj     with output.obj_every: the cloth every N frames
///   NAME.json               metrics: substeps, timings, state hash, contact and exact-reference statistics
/// and prints a short summary. Nothing is written when the run fails.
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct DrapeOptions {
  std::string scenePath;
  std::string backend;            ///< overrides solver.backend when not empty
  int frames = -1;                ///< overrides solver.frames when >= 0
  std::string outDir;             ///< overrides output.directory
  int threads = -1;               ///< overrides solver.threads when >= 0
  std::vector<std::string> sets;  ///< --set KEY=VALUE: scene key overrides (sim/io/SceneOverrides.h)
  bool quiet = false;
  bool measurePenetration = false;    ///< penetration percentiles against the exact body mesh in the metrics
  bool measureIntersections = false;  ///< exact intersecting triangle pairs in the metrics (always with garments)
  bool noGates = false;               ///< report the quality gates without failing the run
  int intersectionsEvery = 0;         ///< > 0: also count intersections every this many frames
};

/// Adds the `drape` subcommand to `app`, bound to `options`.
CLI::App* addDrapeCommand(CLI::App& app, DrapeOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runDrape(const DrapeOptions& options);

}  // namespace hg::app
