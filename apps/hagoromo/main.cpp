// hagoromo: the command-line front end (headless, batch-friendly).
//
//   hagoromo drape scenes/cloth_on_sphere.json            # simulate, write OBJ + PNG + JSON
//   hagoromo drape scenes/cloth_on_sphere.json --backend cpu --frames 60 --out /tmp/run
//   hagoromo grasp scenes/grasp/five_hands.json --out /tmp/grasp   # Cyber Radar grasp: PNG + OBJ + JSON
//   hagoromo snow scenes/snow/bench_under_roof.json --out /tmp/snow   # snow cover: PNG + OBJ + depth PNG + JSON
//   hagoromo spheres --builtin bottle --out /tmp/spheres   # sphere trees at 64/128/256 voxels: PNG + JSON
//   hagoromo batch jobs.jsonl --jobs 2 --out /tmp/batch          # many jobs: results.jsonl/.csv, contact sheet
//   hagoromo info                                          # which OpenGL driver is used
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/hagoromo/BatchCommand.h"
#include "apps/hagoromo/DrapeCommand.h"
#include "apps/hagoromo/FabricTestCommand.h"
#include "apps/hagoromo/FabricsCommand.h"
#include "apps/hagoromo/GraspCommand.h"
#include "apps/hagoromo/PatternsCommand.h"
#include "apps/hagoromo/SkinCommand.h"
#include "apps/hagoromo/SnowCommand.h"
#include "apps/hagoromo/SpheresCommand.h"
#include "gl/HeadlessContext.h"

namespace {

using namespace hg;
using namespace hg::app;

int runInfo() {
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  std::printf("OpenGL: %s\n", (*context)->description().c_str());
  std::printf("software rasterizer: %s\n", (*context)->isSoftware() ? "yes" : "no");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  ensureSleepingOpenMpThreads(argv);  // first: may re-execute the program
  installInterruptCleanup();          // before any thread starts
  CLI::App app{"hagoromo: GPU cloth and skinning simulation through rasterization"};
  app.set_version_flag("--version", std::string("hagoromo ") + HG_VERSION);
  app.require_subcommand(1);
  app.footer(std::string(kExitCodeHelp) +
             "\nEnvironment: HG_EGL_PLATFORM=auto|device|surfaceless, HG_EGL_LIBRARY=<libEGL>, OMP_NUM_THREADS,\n"
             "OMP_WAIT_POLICY (default here PASSIVE: idle OpenMP threads sleep instead of spinning).");

  DrapeOptions drape;
  CLI::App* drapeCommand = addDrapeCommand(app, drape);

  GraspOptions grasp;
  CLI::App* graspCommand = addGraspCommand(app, grasp);

  SkinOptions skin;
  CLI::App* skinCommand = addSkinCommand(app, skin);

  SnowOptions snow;
  CLI::App* snowCommand = addSnowCommand(app, snow);
  SpheresOptions spheres;
  CLI::App* spheresCommand = addSpheresCommand(app, spheres);
  PatternsOptions patterns;
  CLI::App* patternsCommand = addPatternsCommand(app, patterns);
  FabricsOptions fabrics;
  CLI::App* fabricsCommand = addFabricsCommand(app, fabrics);
  FabricTestOptions fabricTest;
  CLI::App* fabricTestCommand = addFabricTestCommand(app, fabricTest);

  BatchCommandOptions batch;
  CLI::App* batchCommand = addBatchCommand(app, batch);

  app.add_subcommand("info", "Create a headless OpenGL context and print the driver");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;  // --help / --version are not errors
  }
  try {
    if (drapeCommand->parsed()) return runDrape(drape);
    if (graspCommand->parsed()) return runGrasp(grasp);
    if (skinCommand->parsed()) return runSkin(skin);
    if (snowCommand->parsed()) return runSnow(snow);
    if (spheresCommand->parsed()) return runSpheres(spheres);
    if (patternsCommand->parsed()) return runPatterns(patterns);
    if (fabricsCommand->parsed()) return runFabrics(fabrics);
    if (fabricTestCommand->parsed()) return runFabricTest(fabricTest);
    if (batchCommand->parsed()) return runBatchCommand(*batchCommand, batch);
    return runInfo();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hagoromo: error: out of memory (nothing written)\n");
    return kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hagoromo: error: internal error: %s (nothing written; please report it)\n", e.what());
    return kExitInternal;
  }
}
