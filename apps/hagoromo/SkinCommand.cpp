#include "apps/hagoromo/SkinCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "gl/HeadlessContext.h"
#include "render/MeshRenderer.h"
#include "render/OffscreenTarget.h"
#include "render/RenderShaders.h"
#include "sim/gpu/GpuBodySkinner.h"
#include "sim/gpu/GpuParticleSkinner.h"
#include "sim/io/MeshExport.h"
#include "sim/io/SceneOverrides.h"
#include "sim/io/SvgPlot.h"
#include "sim/skinning/SkinningRig.h"

namespace hg::app {
namespace {

namespace fs = std::filesystem;

/// One method's frames (surfaces kept for the outputs) and metrics.
struct MethodResult {
  RigMethodRun run;
  std::vector<std::vector<glm::vec4>> frames;
};

TriangleMesh posedMesh(const TriangleMesh& rest, std::span<const glm::vec4> positions) {
  TriangleMesh mesh;
  mesh.indices = rest.indices;
  mesh.positions.reserve(positions.size());
  for (const glm::vec4& p : positions) mesh.positions.emplace_back(p);
  computeVertexNormals(mesh);
  return mesh;
}

glm::vec3 methodColour(const std::string& method) {
  if (method == "linear") return {0.85f, 0.35f, 0.3f};
  if (method == "dual_quaternion") return {0.35f, 0.55f, 0.9f};
  return {0.4f, 0.8f, 0.45f};
}

/// The last frame of every method, one panel each, side by side, same camera.
Result<Image> renderComparison(const SkinningRig& rig, const std::vector<MethodResult>& results) {
  auto renderer = MeshRenderer::create(renderShaders());
  if (!renderer) return renderer.error();
  std::vector<TriangleMesh> meshes;
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const MethodResult& r : results) {
    meshes.push_back(posedMesh(rig.body->mesh, r.frames.back()));
    for (const glm::vec3& p : meshes.back().positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  }
  const int panelWidth = rig.imageWidth / int(results.size());
  OrbitCamera camera;
  camera.azimuth = 0.35f;
  camera.elevation = 0.35f;
  // OrbitCamera::frame fits the vertical field of view; a narrow panel needs the sphere
  // to fit horizontally too.
  const float aspect = float(panelWidth) / float(rig.imageHeight);
  camera.frame(0.5f * (lo + hi), 0.5f * glm::length(hi - lo) / std::min(1.0f, aspect));
  Image combined;
  combined.width = panelWidth * int(results.size());
  combined.height = rig.imageHeight;
  combined.rgba.assign(std::size_t(combined.width) * std::size_t(combined.height) * 4, 255);
  for (std::size_t m = 0; m < results.size(); ++m) {
    OffscreenTarget target(panelWidth, rig.imageHeight);
    target.bind();
    const glm::vec3 colour = methodColour(results[m].run.method);
    const DrawItem item{&meshes[m], colour, 0.5f * colour, false};
    renderer->draw(std::span<const DrawItem>(&item, 1), camera, panelWidth, rig.imageHeight);
    const Image panel = target.read();
    for (int y = 0; y < panel.height; ++y)
      std::copy_n(panel.rgba.begin() + std::ptrdiff_t(y) * panel.width * 4, std::size_t(panel.width) * 4,
                  combined.rgba.begin() + (std::ptrdiff_t(y) * combined.width + std::ptrdiff_t(m) * panelWidth) * 4);
  }
  return combined;
}

std::string csv(const SkinningRig& rig, const std::vector<MethodResult>& results) {
  std::ostringstream out;
  out << "method,frame,parameter,volume_ratio,min_radius_ratio,max_bulge,self_intersections,ms,settle_steps\n";
  for (const MethodResult& r : results)
    for (std::size_t f = 0; f < r.run.ratios.size(); ++f) {
      const JointZoneRatios& q = r.run.ratios[f];
      char line[256];
      std::snprintf(line, sizeof line, "%s,%zu,%.4f,%.6f,%.6f,%.6f,%zu,%.3f,%d\n", r.run.method.c_str(), f,
                    double(rig.parameters[f]), q.volumeRatio, q.minRadiusRatio, q.maxBulge, q.selfIntersections,
                    r.run.milliseconds[f], r.run.settleSteps[f]);
      out << line;
    }
  return out.str();
}

Status writePlots(const SkinningRig& rig, const std::vector<MethodResult>& results, OutputSet& outputs,
                  std::vector<std::string>& written) {
  struct Metric {
    const char* file;
    const char* label;
    double (*value)(const JointZoneRatios&);
    std::vector<double> references;
  };
  const std::vector<Metric> metrics{
      {"plot_volume.svg", "joint-zone volume / rest", [](const JointZoneRatios& q) { return q.volumeRatio; }, {0.95}},
      {"plot_min_radius.svg",
       "min joint radius / rest",
       [](const JointZoneRatios& q) { return q.minRadiusRatio; },
       {0.8}},
      {"plot_bulge.svg", "max bulge (r / r_rest - 1)", [](const JointZoneRatios& q) { return q.maxBulge; }, {}},
      {"plot_self_intersections.svg",
       "self-intersecting triangle pairs",
       [](const JointZoneRatios& q) { return double(q.selfIntersections); },
       {}},
  };
  for (const Metric& metric : metrics) {
    if (!rig.angleRig() && std::string(metric.file) == "plot_self_intersections.svg") continue;
    LinePlot plot;
    plot.title = rig.name + ": " + metric.label;
    plot.xLabel = rig.parameterName;
    plot.yLabel = metric.label;
    plot.referenceLines = metric.references;
    for (const MethodResult& r : results) {
      PlotSeries series;
      series.name = r.run.method;
      for (std::size_t f = 0; f < r.run.ratios.size(); ++f) {
        const bool counted = std::string(metric.file) != "plot_self_intersections.svg" ||
                             (std::abs(rig.parameters[f]) >= rig.intersectionsFrom &&
                              std::abs(rig.parameters[f]) <= rig.intersectionsTo);
        if (!counted) continue;
        series.x.push_back(rig.parameters[f]);
        series.y.push_back(metric.value(r.run.ratios[f]));
      }
      plot.series.push_back(std::move(series));
    }
    if (Status s = outputs.write(metric.file, [&](const fs::path& p) { return writeSvgLinePlot(plot, p); }); !s)
      return s;
    written.push_back((outputs.directory() / metric.file).string());
  }
  return Status::success();
}

using Clock = std::chrono::steady_clock;

/// The rig with the command line's overrides; an unknown or empty --methods is a
/// command-line error (exit 1).
Result<SkinningRig> loadSkin(const SkinOptions& options) {
  auto overrides = parseSceneOverrides(options.sets);
  if (!overrides) return overrides.error();
  auto loaded = loadSkinningRig(options.rigPath, *overrides);
  if (!loaded) return loaded.error();
  SkinningRig rig = std::move(*loaded);
  if (!options.outDir.empty()) rig.outputDirectory = options.outDir;
  if (!options.methodsGiven) return rig;
  rig.methods.clear();
  std::stringstream list(options.methods);
  for (std::string method; std::getline(list, method, ',');) {
    if (method != "particle" && !parseSkinningMethod(method))
      return Error{"--methods: unknown method '" + method + "' (linear, dual_quaternion, particle)",
                   ErrorKind::CommandLine};
    rig.methods.push_back(method == "lbs" ? "linear" : method == "dqs" ? "dual_quaternion" : method);
  }
  if (rig.methods.empty())
    return Error{"--methods: give at least one method (linear, dual_quaternion, particle)", ErrorKind::CommandLine};
  return rig;
}

/// The particle skinner of the rig (docs/methods.md section 4), its particles printed.
Result<std::unique_ptr<ParticleSkinner>> particleSkinner(const SkinningRig& rig, Backend backend,
                                                         const SkinOptions& options) {
  const auto tBuild = Clock::now();
  auto model = buildParticleSkinModel(rig.body, rig.particles);
  if (!model) return model.error().prefixed(options.rigPath + ": ");
  if (!options.quiet) {
    const ParticleFill& fill = (*model)->fill;
    std::printf("particles: %zu (", (*model)->particleCount());
    for (std::size_t l = 0; l < fill.levelCounts.size(); ++l)
      std::printf("%s%zu of radius %.4g m", l ? ", " : "", fill.levelCounts[l], double(fill.levelRadii[l]));
    std::printf("), %zu links, built in %.2f s\n", (*model)->links.size(),
                std::chrono::duration<double>(Clock::now() - tBuild).count());
  }
  auto skinner = createParticleSkinner(backend, *model);
  if (!skinner) return skinner.error().prefixed(options.rigPath + ": ");
  return std::move(skinner).value();
}

/// One method over the rig's frames, with a progress bar, keeping every frame's surface.
Result<MethodResult> runMethod(const SkinningRig& rig, const std::string& method, Backend backend,
                               const SkinOptions& options) {
  MethodResult result;
  Progress bar(method, long(rig.poses.size()), !options.quiet && isatty(STDERR_FILENO));
  const auto keep = [&](std::size_t frame, std::span<const glm::vec4> positions) {
    result.frames.emplace_back(positions.begin(), positions.end());
    bar.update(long(frame + 1));
    return Status::success();
  };
  Result<RigMethodRun> run = Error{""};
  if (method == "particle") {
    auto skinner = particleSkinner(rig, backend, options);
    if (!skinner) return skinner.error();
    run = runRig(rig, **skinner, keep);
  } else {
    auto skinner = createBodySkinner(backend, rig.body, *parseSkinningMethod(method));
    if (!skinner) return skinner.error().prefixed(options.rigPath + ": ");
    run = runRig(rig, **skinner, keep);
  }
  bar.finish();
  // Divergence is ErrorKind::Simulation at its source; a rig the metrics cannot measure (an
  // empty joint zone, say) is an input error.
  if (!run) return run.error().prefixed(options.rigPath + ": ", "; no output written");
  result.run = std::move(*run);
  return result;
}

/// Every output, staged: the OBJs per frame, the comparison, the CSV and the plots;
/// `written` lists them for the summary.
Status stageSkin(const SkinningRig& rig, const std::vector<MethodResult>& results, OutputSet& outputs,
                 std::vector<std::string>& written) {
  const fs::path dir = rig.outputDirectory;
  for (const MethodResult& r : results) {
    if (rig.objEvery <= 0) break;
    for (std::size_t f = 0; f < r.frames.size(); ++f) {
      if (f % std::size_t(rig.objEvery) != 0 && f + 1 != r.frames.size()) continue;
      char name[32];
      std::snprintf(name, sizeof name, "frame_%04zu.obj", f);
      const TriangleMesh posed = posedMesh(rig.body->mesh, r.frames[f]);
      if (Status s = outputs.write(r.run.method + "/" + name, [&](const fs::path& p) { return exportMesh(posed, p); });
          !s)
        return s;
    }
    written.push_back((dir / r.run.method / "frame_*.obj").string());
  }
  auto image = renderComparison(rig, results);
  if (!image) return image.error();
  if (Status s = outputs.write("comparison.png", [&](const fs::path& p) { return writePng(*image, p); }); !s) return s;
  written.push_back((dir / "comparison.png").string());
  if (Status s = outputs.writeText("metrics.csv", csv(rig, results)); !s) return s;
  written.push_back((dir / "metrics.csv").string());
  return writePlots(rig, results, outputs, written);
}

/// The last frame's metrics per method, the times and the files written.
void printSkinSummary(const SkinningRig& rig, const std::vector<MethodResult>& results, Clock::time_point start,
                      Clock::time_point simulated, const std::vector<std::string>& written) {
  std::printf("\n%s = %g, last frame:\n", rig.parameterName.c_str(), double(rig.parameters.back()));
  std::printf("  %-16s %8s %10s %8s %8s %10s\n", "method", "volume", "min radius", "bulge", "self-x", "ms/frame");
  for (const MethodResult& r : results) {
    const JointZoneRatios& q = r.run.ratios.back();
    double ms = 0.0;
    for (double t : r.run.milliseconds) ms += t;
    std::printf("  %-16s %8.3f %10.3f %8.3f %8zu %10.2f\n", r.run.method.c_str(), q.volumeRatio, q.minRadiusRatio,
                q.maxBulge, q.selfIntersections, ms / double(r.run.milliseconds.size()));
  }
  std::printf("simulated in %.2f s, total %.2f s; wrote:\n", std::chrono::duration<double>(simulated - start).count(),
              std::chrono::duration<double>(Clock::now() - start).count());
  for (const std::string& path : written) std::printf("  %s\n", path.c_str());
}

}  // namespace

CLI::App* addSkinCommand(CLI::App& app, SkinOptions& options) {
  CLI::App* command = app.add_subcommand(
      "skin",
      "Run a skinning rig: LBS, DQS and particle skinning over a bend, twist or animation; writes OBJ per "
      "frame, a comparison PNG, metrics CSV and SVG plots");
  command->add_option("rig", options.rigPath, "Rig JSON file (see scenes/skin/)")->required();
  command
      ->add_option("--set", options.sets,
                   "Override a key of the scene file before it is read: KEY=VALUE, KEY a dotted path (cloth.fabric, "
                   "garments.0.size), VALUE JSON or text; repeatable")
      ->type_name("KEY=VALUE");
  command->add_option("--out", options.outDir, "Override the output folder")->check(nonEmpty());
  command->add_option("--backend", options.backend, "Skinning backend (default cpu)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_option("--methods", options.methods, "Comma-separated methods (linear,dual_quaternion,particle)")
      ->check(nonEmpty())
      ->each([&options](const std::string&) { options.methodsGiven = true; });
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer("Example: hagoromo skin scenes/skin/bend_cylinder.json --out /tmp/skin");
  return command;
}

int runSkin(const SkinOptions& options) {
  const auto tStart = Clock::now();
  auto rig = loadSkin(options);
  if (!rig) return fail(rig.error());
  const Backend backend = options.backend == "gpu" ? Backend::Gpu : Backend::Cpu;
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) {
    std::printf("OpenGL: %s\n", (*context)->description().c_str());
    std::printf("rig %s: %zu vertices, %zu joints, %zu frames of %s, joint '%s', %s backend\n", rig->name.c_str(),
                rig->body->mesh.positions.size(), rig->body->skeleton.size(), rig->poses.size(),
                rig->parameterName.c_str(), rig->body->skeleton.joints[std::size_t(rig->joint)].name.c_str(),
                options.backend.c_str());
  }
  std::vector<MethodResult> results;
  for (const std::string& method : rig->methods) {
    auto result = runMethod(*rig, method, backend, options);
    if (!result) return fail(result.error());
    results.push_back(std::move(result).value());
  }
  const auto tSimulated = Clock::now();

  // Outputs, staged and moved into place together after the whole run succeeded.
  OutputSet outputs(rig->outputDirectory);
  std::vector<std::string> written;
  if (Status s = stageSkin(*rig, results, outputs, written); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!options.quiet) printSkinSummary(*rig, results, tStart, tSimulated, written);
  return kExitOk;
}

}  // namespace hg::app
