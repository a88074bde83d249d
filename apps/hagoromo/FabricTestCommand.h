#pragma once
/// `hagoromo fabric-test PRESET... [--out DIR]`: the virtual fabric bench (sim/garment/FabricBench.h)
/// on one fabric: tensile curves along warp, weft and bias, Peirce's cantilever along warp and
/// weft, and the Cusick drape test. Writes, as one set (apps/common/OutputSet.h), into DIR
/// (default out/fabric-test/PRESET):
///
/// - `fabric_test.json`: every number (`drape_coefficient` in percent, `nodes`, the curves,
///   bending lengths and rigidities) and, for a measured preset, the measured values beside
///   the bench's with their relative errors;
/// - `tensile.svg`: tension against strain per direction, the measured curves dashed;
/// - `drape_top.png`: the drape's shadow from above, the support disc and the flat disc's rim;
/// - `drape.obj`: the draped disc.
///
/// Several presets (or `all`, the whole library) run one after another, each into DIR/PRESET
/// (default DIR out/fabric-test), then DIR gets `drapes.png` (their top views side by side,
/// five to a row, in the order run), `summary.md` (a table of them) and `summary.json`.
///
/// Exit 6 when a specimen did not come to rest in the time allowed (outputs written).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct FabricTestOptions {
  std::vector<std::string> presets;
  std::string outDir;
  std::string backend = "cpu";
  double edgeMillimetres = 10.0;
  double restSpeed = 2e-3;  ///< m/s (FabricBenchSettings::restSpeed)
  std::string tests = "tensile,cantilever,drape";
  int jobs = 1;                    ///< presets run at once (CPU backend), each solver on cores / jobs threads
  std::string statics = "newton";  ///< tensile and cantilever: newton (static solve) or dynamics
  bool quiet = false;
  bool calibrateMesh = false;  ///< fit each preset's mesh correction instead of benching it
};

CLI::App* addFabricTestCommand(CLI::App& app, FabricTestOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runFabricTest(const FabricTestOptions& options);

}  // namespace hg::app
