#include "apps/hagoromo/SnowCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "gl/HeadlessContext.h"
#include "render/Image.h"
#include "render/SnowSceneView.h"
#include "sim/core/Limits.h"
#include "sim/gpu/GpuSnowSolver.h"
#include "sim/io/SceneOverrides.h"
#include "sim/snow/SnowCover.h"
#include "sim/snow/SnowExport.h"
#include "sim/snow/SnowSceneJson.h"

namespace hg::app {
namespace {

namespace fs = std::filesystem;

/// The solver with the time spent in each of its calls (s): accumulation passes, repose
/// relaxations and the reads of the cover (runSnowfall reads it around every relaxation).
class TimedSolver final : public SnowSolver {
 public:
  explicit TimedSolver(SnowSolver& inner) : m_inner(inner) {}
  const char* name() const override { return m_inner.name(); }
  Status accumulate(std::span<const glm::vec3> directions, float depthOnOpenGround) override {
    const auto t = Clock::now();
    Status s = m_inner.accumulate(directions, depthOnOpenGround);
    accumulateSeconds += seconds(t, Clock::now());
    return s;
  }
  Result<SnowRelaxation> relax(const SnowReposeSettings& settings) override {
    const auto t = Clock::now();
    auto r = m_inner.relax(settings);
    relaxSeconds += seconds(t, Clock::now());
    return r;
  }
  Result<SnowCover> cover() override {
    const auto t = Clock::now();
    auto c = m_inner.cover();
    readSeconds += seconds(t, Clock::now());
    return c;
  }
  Result<double> totalVolume() override {
    const auto t = Clock::now();
    auto v = m_inner.totalVolume();
    readSeconds += seconds(t, Clock::now());
    return v;
  }
  Result<std::vector<float>> lastExposure() override { return m_inner.lastExposure(); }

  double accumulateSeconds = 0.0, relaxSeconds = 0.0, readSeconds = 0.0;

 private:
  SnowSolver& m_inner;
};

/// Maximum and mean (m) of `values` where `take(i)`; count of those.
struct DepthStats {
  double max = 0.0, mean = 0.0;
  std::size_t count = 0;
};
template <class Take>
DepthStats depthStats(const std::vector<float>& values, Take take) {
  DepthStats s;
  double sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!take(i)) continue;
    s.max = std::max(s.max, double(values[i]));
    sum += double(values[i]);
    ++s.count;
  }
  s.mean = s.count > 0 ? sum / double(s.count) : 0.0;
  return s;
}

nlohmann::json statsJson(const DepthStats& s, const char* what) {
  return {{"max_m", s.max}, {"mean_m", s.mean}, {what, s.count}};
}

/// Exposure (the last pass's, in [0, 1]) over a range of receivers.
nlohmann::json exposureJson(std::span<const float> e) {
  if (e.empty()) return {{"receivers", 0}};
  double sum = 0.0, lo = 1.0, hi = 0.0;
  std::size_t sheltered = 0, open = 0;
  for (float v : e) {
    sum += double(v);
    lo = std::min(lo, double(v));
    hi = std::max(hi, double(v));
    sheltered += v <= 0.0f;
    open += v >= 1.0f;
  }
  const double n = double(e.size());
  return {{"receivers", e.size()},
          {"mean", sum / n},
          {"min", lo},
          {"max", hi},
          {"fraction_sheltered", double(sheltered) / n},
          {"fraction_open", double(open) / n}};
}

/// Viridis (approximated by 5 stops), t in [0, 1] -> sRGB bytes.
void viridis(float t, std::uint8_t* rgb) {
  static const float stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
  const int k = std::min(int(x), 3);
  const float f = x - float(k);
  for (int c = 0; c < 3; ++c) rgb[c] = std::uint8_t(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c])));
}

/// The ground snow depth seen from above as false colour: viridis from 0 to `maxDepth`
/// (m; deeper cells saturate), cells without ground grey, each cell a square of pixels (the larger side about
/// 512 pixels), north (+z) up and east (+x) right like snow_depth.png; a colour bar
/// (0 left, maxDepth right) along the bottom.
Image snowDepthPreview(const SnowCover& cover, float maxDepth) {
  const SnowGrid& grid = cover.grid;
  const int scale = std::max(1, 512 / std::max(grid.nx, grid.nz));
  const int mapHeight = grid.nz * scale, width = grid.nx * scale;
  const int gap = 4, bar = std::max(10, mapHeight / 24);
  Image image{width, mapHeight + gap + bar, {}};
  image.rgba.assign(std::size_t(image.width) * std::size_t(image.height) * 4, 255);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = image.pixel(x, y);
      if (y < mapHeight) {
        const int i = x / scale, j = grid.nz - 1 - y / scale;
        const std::size_t c = grid.index(i, j);
        if (!cover.hasGround(c)) {
          p[0] = p[1] = p[2] = 96;
        } else {
          viridis(cover.groundSnow[c] / maxDepth, p);
        }
      } else if (y < mapHeight + gap) {
        p[0] = p[1] = p[2] = 255;
      } else {
        viridis((float(x) + 0.5f) / float(width), p);
      }
    }
  return image;
}

bool allFinite(const std::vector<float>& values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

/// The scene with the command line's overrides, validated. Only a combination can fail
/// here (each option is checked by CLI11): with an override that is a command-line error.
Result<SnowSceneFile> loadSnow(const SnowOptions& options) {
  auto overrides = parseSceneOverrides(options.sets);
  if (!overrides) return overrides.error();
  auto loaded = loadSnowScene(options.scenePath, *overrides);
  if (!loaded) return loaded.error();
  SnowSceneFile scene = std::move(loaded).value();
  SnowSettings& settings = scene.settings;
  if (options.directions >= 1) settings.fall.count = options.directions;
  if (options.passes >= 1) settings.passes = options.passes;
  if (options.hours > 0.0) settings.hours = float(options.hours);
  if (options.mapResolution >= 0) settings.mapResolution = options.mapResolution;
  if (options.rays >= 1) settings.exposure.raysPerDirection = options.rays;
  const bool overridden = options.directions >= 1 || options.passes >= 1 || options.hours > 0.0 ||
                          options.mapResolution >= 0 || options.rays >= 1;
  if (Status s = settings.validate(); !s)
    return overridden
               ? Error{"the scene " + options.scenePath + " with the command line's options: " + s.error().message,
                       ErrorKind::CommandLine}
               : s.error().prefixed(options.scenePath + ": ");
  return scene;
}

/// The backend: by default the GPU solver (sim/gpu/GpuSnowSolver.h) on a hardware
/// driver and the CPU reference on a software rasterizer (llvmpipe), where the CPU one is
/// about 2x faster (scenes/snow/bench_under_roof.json: 59 s against 132 s); the CPU one
/// too when the GPU one cannot be made and was not asked for. `backend` becomes the name
/// of the one made.
Result<std::unique_ptr<SnowSolver>> makeSnowSolver(const SnowOptions& options, const gl::HeadlessContext& context,
                                                   const SnowCover& bare, const SnowExposureSettings& exposure,
                                                   std::string& backend) {
  backend = !options.backend.empty() ? options.backend : context.isSoftware() ? "cpu" : "gpu";
  if (backend == "gpu") {
    auto gpu = makeGpuSnowSolver(bare, exposure);
    if (gpu) return std::move(gpu).value();
    if (!options.backend.empty()) return gpu.error().prefixed("the GPU snow solver: ");
    if (!options.quiet)
      std::printf("GPU snow solver unavailable (%s); using the CPU one\n", gpu.error().message.c_str());
    backend = "cpu";
  }
  return makeCpuSnowSolver(bare, exposure);
}

/// A finished snowfall: the report, the cover and the last pass's exposure.
struct Snowfall {
  SnowfallReport report;
  SnowCover cover;
  std::vector<float> lastExposure;  ///< per receiver: the ground cells, then the object vertices
};

/// The snowfall passes with a progress bar; non-finite depths are a simulation failure.
Result<Snowfall> runTimedSnowfall(TimedSolver& timed, const SnowSceneFile& scene, const std::string& backend,
                                  const SnowOptions& options) {
  Progress progress("snow " + scene.name + " (" + backend + ")", scene.settings.passes,
                    !options.quiet && isatty(STDERR_FILENO));
  auto report = runSnowfall(timed, scene.settings, [&](int pass) { progress.update(pass); });
  progress.finish();
  if (!report) return report.error().prefixed(options.scenePath + ": snowfall: ");
  auto cover = timed.cover();
  if (!cover) return cover.error();
  auto lastExposure = timed.lastExposure();
  if (!lastExposure) return lastExposure.error();
  if (!allFinite(cover->groundSnow) || !allFinite(cover->objectSnow) || !std::isfinite(report->finalVolume))
    return simulationError(options.scenePath + ": the snow depths are not finite (NaN or infinite); no output written");
  return Snowfall{std::move(report).value(), std::move(cover).value(), std::move(lastExposure).value()};
}

/// m, the preview's colour bar's right end: the 99th percentile of the ground snow (the
/// deepest cells, drifts at drip lines, would leave the open ground in one flat colour),
/// at least 1 cm.
float previewMaxDepth(const SnowCover& cover) {
  std::vector<float> depths;
  for (std::size_t c = 0; c < cover.groundSnow.size(); ++c)
    if (cover.hasGround(c)) depths.push_back(cover.groundSnow[c]);
  float previewMax = 0.01f;
  if (!depths.empty()) {
    const auto at = depths.begin() + std::ptrdiff_t((depths.size() - 1) * 99 / 100);
    std::nth_element(depths.begin(), at, depths.end());
    previewMax = std::max(*at, 0.01f);
  }
  return previewMax;
}

struct SnowPictures {
  SnowCamera camera;
  Image before, after, preview;
  float previewMax = 0.01f;  ///< m, the preview's colour bar's right end
};

/// The bare scene and the covered one from the same camera, and the depth preview.
Result<SnowPictures> renderSnow(const SnowSceneFile& scene, const SnowCover& cover, const SnowSolver& solver,
                                const SnowOptions& options) {
  auto view = SnowSceneView::create(cover);
  if (!view) return view.error();
  SnowPictures pictures;
  pictures.camera =
      scene.camera.set ? snowCameraLookingAt(scene.camera.eye, scene.camera.target) : defaultSnowCamera(cover);
  auto before = (*view)->render(pictures.camera, options.width, options.height, /*withSnow=*/false);
  if (!before) return before.error();
  // The GPU solver's snow is drawn from its own texture and buffer (no upload); the
  // CPU one's was uploaded with the cover.
  if (const GpuSnowTextures textures = gpuSnowTextures(solver); textures.groundSnowTexture != 0)
    (*view)->setSnowTextures(textures.groundSnowTexture, textures.objectSnowBuffer);
  auto after = (*view)->render(pictures.camera, options.width, options.height, /*withSnow=*/true);
  if (!after) return after.error();
  view->reset();
  pictures.before = std::move(before).value();
  pictures.after = std::move(after).value();
  pictures.previewMax = previewMaxDepth(cover);
  pictures.preview = snowDepthPreview(cover, pictures.previewMax);
  return pictures;
}

/// The pictures, the snow as OBJ and the 16-bit depth PNG (`pngScale` m per unit).
Status stageSnowFiles(OutputSet& outputs, const SnowPictures& pictures, const SnowCover& cover, float pngScale) {
  const std::pair<const Image*, const char*> images[] = {
      {&pictures.before, "before.png"}, {&pictures.after, "after.png"}, {&pictures.preview, "snow_depth_preview.png"}};
  for (const auto& [image, name] : images)
    if (Status s = outputs.write(name, [&](const fs::path& p) { return writePng(*image, p); }); !s) return s;
  if (Status s = outputs.write("snow.obj", [&](const fs::path& p) { return exportSnowObj(cover, p); }); !s) return s;
  return outputs.write("snow_depth.png", [&](const fs::path& p) { return writeSnowDepthPng16(cover, p, pngScale); });
}

/// The moments between the stages of a run (the report's "seconds").
struct SnowTimes {
  Clock::time_point start, loaded, cover, solver, snowfall, rendered, written;
};

/// What the report and the summary are made of.
struct SnowOutcome {
  const SnowOptions& options;
  const SnowSceneFile& scene;
  const SnowExposureSettings& exposure;
  std::size_t groundCells = 0;
  const Snowfall& snowfall;
  const SnowPictures& pictures;
  const TimedSolver& timed;
  std::string backend, device, gl;
  DepthStats ground, objects;  ///< snow depth on the ground cells and the object vertices
};

nlohmann::json secondsJson(const SnowOutcome& run, const SnowTimes& t) {
  return {{"load", seconds(t.start, t.loaded)},
          {"cover", seconds(t.loaded, t.cover)},
          {"solver_setup", seconds(t.cover, t.solver)},
          {"accumulate", run.timed.accumulateSeconds},
          {"relax", run.timed.relaxSeconds},
          {"read_cover", run.timed.readSeconds},
          {"snowfall", seconds(t.solver, t.snowfall)},
          {"render", seconds(t.snowfall, t.rendered)},
          {"write", seconds(t.rendered, t.written)},
          {"total", seconds(t.start, t.written)}};
}

nlohmann::json relaxationJson(const SnowfallReport& report) {
  nlohmann::json passes = nlohmann::json::array();
  for (std::size_t p = 0; p < report.relaxations.size(); ++p) {
    const SnowRelaxation& r = report.relaxations[p];
    passes.push_back({{"pass", p + 1},
                      {"relaxation_iterations", r.iterations},
                      {"max_repose_ratio", r.maxRatio},
                      {"converged", r.converged}});
  }
  return passes;
}

/// The scene's camera and the preview's colour map.
nlohmann::json picturesJson(const SnowOutcome& run) {
  const SnowCamera& camera = run.pictures.camera;
  return {{"snow_depth_preview",
           {{"colormap", "viridis"},
            {"min_m", 0.0},
            {"max_m", run.pictures.previewMax},
            {"max_is", "99th percentile of the ground snow (deeper cells saturate)"},
            {"no_ground", "grey"},
            {"orientation", "x right, z up (north up)"}}},
          {"camera",
           {{"eye", {camera.eye().x, camera.eye().y, camera.eye().z}},
            {"target", {camera.target.x, camera.target.y, camera.target.z}},
            {"from_scene", run.scene.camera.set}}}};
}

nlohmann::json snowReport(const SnowOutcome& run, const SnowTimes& times, float pngScale) {
  const SnowSettings& settings = run.scene.settings;
  const SnowCover& cover = run.snowfall.cover;
  const SnowfallReport& report = run.snowfall.report;
  const std::span<const float> e(run.snowfall.lastExposure);
  const std::size_t cellReceivers = std::min(run.groundCells, e.size());
  nlohmann::json json = {
      {"scene", run.options.scenePath},
      {"name", run.scene.name},
      {"backend", run.backend},
      {"device", run.device},
      {"gl", run.gl},
      {"directions", settings.fall.count},
      {"passes", settings.passes},
      {"hours", settings.hours},
      {"rate_m_per_hour", settings.rateMetresPerHour},
      {"repose_degrees", settings.repose.degrees},
      {"cell_m", cover.grid.cell},
      {"map_texel_m", run.exposure.texel},
      {"map_resolution", settings.mapResolution},
      {"rays_per_direction", run.exposure.raysPerDirection},
      {"ray_spread", run.exposure.raySpread},
      {"grid",
       {{"nx", cover.grid.nx},
        {"nz", cover.grid.nz},
        {"cells_with_ground", run.groundCells},
        {"origin_m", {cover.grid.originX, cover.grid.originZ}}}},
      {"objects",
       {{"vertices", cover.objects.positions.size()},
        {"triangles", cover.objects.indices.size() / 3},
        {"holding_vertices", run.objects.count}}},
      {"seconds", secondsJson(run, times)},
      {"fallen_volume_m3", report.fallenVolume},
      {"final_volume_m3", report.finalVolume},
      {"spilled_outside_m3", cover.spilledOutsideVolume()},
      {"max_relative_mass_drift", report.maxRelativeMassDrift},
      {"relaxation", relaxationJson(report)},
      {"snow_depth", {{"ground", statsJson(run.ground, "cells")}, {"objects", statsJson(run.objects, "vertices")}}},
      {"exposure_last_pass",
       {{"ground", exposureJson(e.subspan(0, cellReceivers))}, {"objects", exposureJson(e.subspan(cellReceivers))}}},
      {"snow_depth_png", {{"metres_per_unit", pngScale}, {"bits", 16}}},
  };
  json.update(picturesJson(run));
  return json;
}

void printSnowSummary(const SnowOutcome& run, const SnowTimes& times, const OutputSet& outputs) {
  const SnowSettings& settings = run.scene.settings;
  const SnowfallReport& report = run.snowfall.report;
  std::printf("snowfall: %d passes x %d directions in %.2f s (accumulate %.2f s, relax %.2f s)\n", settings.passes,
              settings.fall.count, seconds(times.solver, times.snowfall), run.timed.accumulateSeconds,
              run.timed.relaxSeconds);
  int iterations = 0;
  for (const SnowRelaxation& r : report.relaxations) iterations += r.iterations;
  std::printf(
      "volume: fallen %.4g m^3, final %.4g m^3, max mass drift %.2g; %d relaxation sweeps, last max repose "
      "ratio %.3f\n",
      report.fallenVolume, report.finalVolume, report.maxRelativeMassDrift, iterations,
      report.relaxations.empty() ? 0.0 : report.relaxations.back().maxRatio);
  std::printf("snow depth: ground max %.1f cm, mean %.1f cm; objects max %.1f cm, mean %.1f cm\n",
              100.0 * run.ground.max, 100.0 * run.ground.mean, 100.0 * run.objects.max, 100.0 * run.objects.mean);
  std::printf("preview colour bar: 0 to %.1f cm; total %.2f s; wrote:\n", 100.0 * double(run.pictures.previewMax),
              seconds(times.start, Clock::now()));
  for (const fs::path& path : outputs.finalPaths()) std::printf("  %s\n", path.c_str());
}

/// Stages every file, then the report, and moves them into place together after
/// everything succeeded (apps/common/OutputSet.h); prints the summary.
int writeSnow(const SnowOutcome& run, SnowTimes times, const fs::path& outDir) {
  OutputSet outputs(outDir);
  const float pngScale = snowDepthPngScale(run.snowfall.cover);
  if (Status s = stageSnowFiles(outputs, run.pictures, run.snowfall.cover, pngScale); !s) return fail(s.error());
  times.written = Clock::now();
  nlohmann::json json = snowReport(run, times, pngScale);
  json["outputs"] = outputs.finalPathStrings();
  if (Status s = outputs.writeText("report.json", json.dump(2) + "\n"); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!run.options.quiet) printSnowSummary(run, times, outputs);
  return kExitOk;
}

}  // namespace

CLI::App* addSnowCommand(CLI::App& app, SnowOptions& options) {
  CLI::App* command = app.add_subcommand(
      "snow",
      "Snow accumulation on a scene: snowfall passes (shadow-map exposure) and repose relaxation; writes "
      "before/after PNGs, the snow as OBJ, a 16-bit depth PNG, a preview and a report JSON");
  command->add_option("scene", options.scenePath, "Snow scene JSON file (see scenes/snow/)")->required();
  command
      ->add_option("--set", options.sets,
                   "Override a key of the scene file before it is read: KEY=VALUE, KEY a dotted path (cloth.fabric, "
                   "garments.0.size), VALUE JSON or text; repeatable")
      ->type_name("KEY=VALUE");
  command->add_option("--out", options.outDir, "Output folder (default out/snow/<scene name>)")->check(nonEmpty());
  command
      ->add_option("--backend", options.backend,
                   "Snow solver (default: gpu on a hardware driver, cpu on a software rasterizer)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_option("--directions", options.directions, "Snowfall directions per pass")
      ->check(CLI::Range(1, limits::kMaxSnowDirections));
  command->add_option("--passes", options.passes, "Accumulation passes")->check(CLI::Range(1, limits::kMaxSnowPasses));
  command->add_option("--hours", options.hours, "Snowfall duration, hours")->check(CLI::PositiveNumber);
  command
      ->add_option("--map-resolution", options.mapResolution,
                   "Depth map texels across the scene (0 keeps the scene's texel)")
      ->check(CLI::Range(0, 16384));
  command
      ->add_option("--rays", options.rays,
                   "Rays traced through each depth map (1: the plain shadow-map test; default 8)")
      ->check(CLI::Range(1, 64));
  command->add_option("--width", options.width, "Image width, pixels (default 1024)")
      ->check(CLI::Range(limits::kMinImageSide, limits::kMaxImageSide));
  command->add_option("--height", options.height, "Image height, pixels (default 768)")
      ->check(CLI::Range(limits::kMinImageSide, limits::kMaxImageSide));
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer("Example: hagoromo snow scenes/snow/bench_under_roof.json --backend cpu --out /tmp/snow");
  return command;
}

int runSnow(const SnowOptions& options) {
  SnowTimes times;
  times.start = Clock::now();
  auto scene = loadSnow(options);
  if (!scene) return fail(scene.error());
  const fs::path outDir = options.outDir.empty() ? fs::path("out") / "snow" / scene->name : fs::path(options.outDir);
  // A context for the renders, made first so that a missing driver fails before the snowfall.
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) std::printf("OpenGL: %s\n", (*context)->description().c_str());
  times.loaded = Clock::now();

  auto made = makeSnowCover(scene->scene, scene->settings);
  if (!made) return fail(made.error().prefixed(options.scenePath + ": "));
  const SnowCover bare = std::move(made).value();
  const SnowExposureSettings exposure = resolvedExposureSettings(bare, scene->settings);
  std::size_t groundCells = 0;
  for (std::size_t c = 0; c < bare.grid.cellCount(); ++c) groundCells += bare.hasGround(c);
  times.cover = Clock::now();

  std::string backend;
  auto solver = makeSnowSolver(options, **context, bare, exposure, backend);
  if (!solver) return fail(solver.error());
  if (!options.quiet)
    std::printf(
        "scene %s: %d x %d cells of %.3f m (%zu with ground), %zu object vertices; %d passes x %d directions, "
        "%.3g h, depth maps of %.4f m texels, %s backend\n",
        scene->name.c_str(), bare.grid.nx, bare.grid.nz, double(bare.grid.cell), groundCells,
        bare.objects.positions.size(), scene->settings.passes, scene->settings.fall.count,
        double(scene->settings.hours), double(exposure.texel), backend.c_str());
  times.solver = Clock::now();
  TimedSolver timed(**solver);
  auto snowfall = runTimedSnowfall(timed, *scene, backend, options);
  if (!snowfall) return fail(snowfall.error());
  times.snowfall = Clock::now();

  auto pictures = renderSnow(*scene, snowfall->cover, **solver, options);
  if (!pictures) return fail(pictures.error());
  const SnowCover& cover = snowfall->cover;
  const SnowOutcome outcome{options,
                            *scene,
                            exposure,
                            groundCells,
                            *snowfall,
                            *pictures,
                            timed,
                            backend,
                            (*context)->renderer(),
                            (*context)->description(),
                            depthStats(cover.groundSnow, [&](std::size_t c) { return cover.hasGround(c); }),
                            depthStats(cover.objectSnow, [&](std::size_t v) { return cover.objectArea[v] > 0.0f; })};
  times.rendered = Clock::now();
  return writeSnow(outcome, times, outDir);
}

}  // namespace hg::app
