#include "apps/hagoromo/FabricTestCommand.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "apps/common/UsableCores.h"
#include "gl/HeadlessContext.h"
#include "render/Image.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/cloth/FabricPresets.h"
#include "sim/garment/FabricBench.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/io/MeshExport.h"
#include "sim/io/SvgPlot.h"
#include "sim/scene/DrapeFabric.h"

namespace hg::app {

namespace {

namespace fs = std::filesystem;

/// The jaw strains of the tensile test: to 10 % (the standard's curve), then 1/6 (where the
/// measured data's second point lies).
const std::vector<double> kGripStrains = {0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 1.0 / 6.0};

constexpr BenchDirection kDirections[3] = {BenchDirection::Warp, BenchDirection::Weft, BenchDirection::Bias};

/// The library preset PRESET names, when it names one (and no fabrics.json in the working
/// folder shadows it, fabricMaterial's order): its measured data or physical units.
std::optional<LibraryFabric> libraryData(const std::string& preset) {
  if (namesFabricFile(preset)) {  // the user's fabric file: its own numbers
    auto physical = loadPhysicalFabric(fs::current_path() / preset);
    if (!physical) return std::nullopt;
    LibraryFabric fabric;
    fabric.name = preset;
    fabric.physical = *physical;
    return fabric;
  }
  const fs::path local = fs::current_path() / "fabrics.json";
  if (fs::exists(local) && findFabricPreset(local, preset)) return std::nullopt;
  auto fabric = findLibraryFabric(fabricLibraryDirectory(), preset);
  if (!fabric) return std::nullopt;
  return std::move(fabric).value();
}

/// The reference secant modulus (N/m) along `angle` at `strain`: the measured data's, or a
/// calibrated fabric's modulus (linear).
double referenceModulus(const LibraryFabric& fabric, double angle, double strain) {
  if (fabric.measured) return uniaxialModulus(*fabric.measured, angle, strain);
  const MembraneModuli& m = fabric.physical.moduli;
  return angle == 0.0 ? m.warp : angle > 1.0 ? m.weft : m.bias;
}

double relativeError(double value, double reference) { return (value - reference) / reference; }

/// The continuum flexural rigidity (N m) the material's hinges stand for, for a strip along
/// `direction`: its folds lie across it (a warp strip folds along the weft).
double intendedRigidity(const ClothMaterial& material, BenchDirection direction) {
  const double fold = benchDirectionAngle(direction) + 0.5 * std::acos(-1.0);
  return hingeSheetRigidity(double(material.bendingRigidity), glm::dvec3(material.bendingAnisotropy), fold);
}

/// The reference rigidity for a strip along `direction` (the fold across it).
double referenceRigidity(const LibraryFabric& fabric, BenchDirection direction) {
  const glm::dvec3& b = fabric.physical.bendingRigidity;  // folds along warp, bias, weft
  return direction == BenchDirection::Warp ? b.z : direction == BenchDirection::Weft ? b.x : b.y;
}

/// The tests of a --tests list.
struct TestSelection {
  bool tensile = false, cantilever = false, drape = false;
};
/// --tests parsed; error (exit 1) names an unknown test.
Result<TestSelection> parseTests(const std::string& list) {
  TestSelection selection;
  for (std::stringstream in(list); in.good();) {
    std::string item;
    std::getline(in, item, ',');
    if (item == "tensile")
      selection.tensile = true;
    else if (item == "cantilever")
      selection.cantilever = true;
    else if (item == "drape")
      selection.drape = true;
    else
      return Error{"--tests: unknown test '" + item + "' (tensile, cantilever, drape)", ErrorKind::CommandLine};
  }
  return selection;
}

/// The top view: the shadow (dark blue) over the support disc (lighter), the flat disc's rim
/// as a grey circle, on white.
Image shadowPicture(const DrapeShadow& shadow) {
  Image image;
  image.width = image.height = shadow.size;
  image.rgba.assign(std::size_t(shadow.size) * std::size_t(shadow.size) * 4, 255);
  const double pixel = shadow.extent / shadow.size;
  const double rim = 0.5 * kCusickDiscDiameter, support = 0.5 * kCusickSupportDiameter;
  for (int j = 0; j < shadow.size; ++j)
    for (int i = 0; i < shadow.size; ++i) {
      const double x = -0.5 * shadow.extent + (i + 0.5) * pixel, z = -0.5 * shadow.extent + (j + 0.5) * pixel;
      const double r = std::hypot(x, z);
      // Row 0 of the picture is the far side (-z), so the top view reads as seen from above.
      std::uint8_t* p = image.pixel(i, j);
      const bool covered = shadow.covered[std::size_t(j) * std::size_t(shadow.size) + std::size_t(i)] != 0;
      auto set = [p](int red, int green, int blue) {
        p[0] = std::uint8_t(red);
        p[1] = std::uint8_t(green);
        p[2] = std::uint8_t(blue);
      };
      if (covered) set(38, 74, 122);
      if (r <= support) set(120, 150, 190);
      if (std::abs(r - rim) < 0.75 * pixel || std::abs(r - support) < 0.5 * pixel) set(150, 150, 150);
    }
  return image;
}

nlohmann::json relaxJson(const RelaxOutcome& relax) {
  if (relax.newtonSteps > 0)
    return {{"converged", relax.converged},
            {"method", "static (Newton)"},
            {"newton_steps", relax.newtonSteps},
            {"largest_force_N", relax.largestForce}};
  return {{"converged", relax.converged}, {"substeps", relax.substeps}, {"largest_speed_m_s", relax.largestSpeed}};
}

}  // namespace

CLI::App* addFabricTestCommand(CLI::App& app, FabricTestOptions& options) {
  CLI::App* command = app.add_subcommand(
      "fabric-test",
      "Virtual fabric bench on one preset: tensile curves (warp, weft, bias), Peirce cantilever, Cusick drape "
      "coefficient; writes fabric_test.json, tensile.svg, drape_top.png and drape.obj");
  command
      ->add_option("presets", options.presets,
                   "Fabric presets (hagoromo fabrics lists them), or all; several run one after another")
      ->required();
  command
      ->add_option("--out", options.outDir,
                   "Output folder (default out/fabric-test/PRESET; with several presets out/fabric-test, one "
                   "folder each and drapes.png, summary.md, summary.json)")
      ->check(nonEmpty());
  command->add_option("--backend", options.backend, "Cloth solver (default cpu)")->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_option("--edge", options.edgeMillimetres, "Target edge length of the specimens' meshes, mm")
      ->check(CLI::Range(2.0, 40.0));
  command
      ->add_option("--rest-speed", options.restSpeed,
                   "A specimen is at rest when no vertex moves faster than this, m/s (default 0.002)")
      ->check(CLI::Range(1e-6, 0.1));
  command->add_option("--tests", options.tests, "Comma-separated subset of tensile,cantilever,drape");
  command
      ->add_option("--jobs", options.jobs,
                   "Presets benched at once (CPU backend), the costliest drape first, each solver on cores / jobs "
                   "threads; the results are the same for any count (default 1)")
      ->check(CLI::Range(1, 256));
  command
      ->add_option("--statics", options.statics,
                   "How the tensile strips and cantilevers come to equilibrium: newton (a static solve on the CPU, "
                   "the default) or dynamics (the backend's solver relaxed to rest, as the drape always is)")
      ->check(CLI::IsMember({"newton", "dynamics"}));
  command->add_flag("--calibrate-mesh", options.calibrateMesh,
                    "Instead of the bench: fit each preset's mesh correction (the factors on its moduli that make "
                    "the tensile strips at --edge read its data; docs/methods.md section 10) and write it as "
                    "mesh_correction.json, the block a library entry takes");
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer(
      "The drape test follows ISO 9073-9 (30 cm disc on an 18 cm support); the tensile test ISO 13934-1 (50 x 200 mm "
      "strip, extensometer on the middle half); the cantilever BS 3356 (25 mm strip). A preset of the measured "
      "library is compared with its data (relative errors in the JSON).\nExample: hagoromo fabric-test denim_11oz "
      "--out /tmp/denim");
  return command;
}

namespace {

/// A preset named on the command line, resolved once: its material and, for a library preset
/// or a fabric file, the numbers it is compared with.
struct ResolvedPreset {
  std::string name;
  FabricMaterial fabric;
  std::optional<LibraryFabric> library;
};

/// What one preset's bench left for the summary of several.
struct PresetRun {
  nlohmann::json result;
  std::optional<Image> picture;  ///< the drape's top view
};

/// The bench on one preset into `outDir`; an exit code of apps/common/ExitCodes.h.
int runPreset(const ResolvedPreset& resolved, const fs::path& outDir, const FabricTestOptions& options,
              const TestSelection& tests, const FabricBenchSettings& settings, PresetRun& run) {
  const std::string& preset = resolved.name;
  const std::optional<LibraryFabric>& library = resolved.library;
  const BenchFabric specimen{resolved.fabric.material, resolved.fabric.anisotropy};
  const bool tensile = tests.tensile, cantilever = tests.cantilever, drape = tests.drape;
  const long total = (tensile ? 3 : 0) + (cantilever ? 2 : 0) + (drape ? 1 : 0);
  Progress progress("fabric-test " + preset, total, !options.quiet && options.jobs == 1 && isatty(STDERR_FILENO) != 0);
  long done = 0;
  bool converged = true;

  nlohmann::json out{{"preset", preset},
                     {"backend", options.backend},
                     {"edge_length_mm", options.edgeMillimetres},
                     {"areal_density_g_m2", 1000.0 * resolved.fabric.material.arealDensity},
                     {"measured", library && library->measured},
                     {"calibrated", library && !library->measured && !namesFabricFile(preset)},
                     {"fabric_file", namesFabricFile(preset)}};
  if (library && library->drapeBand) out["drape_coefficient_band"] = {library->drapeBand->x, library->drapeBand->y};
  OutputSet outputs(outDir);
  const Clock::time_point start = Clock::now();

  if (tensile) {
    LinePlot plot;
    plot.title = preset + ": uniaxial tension (ISO 13934-1 strip)";
    plot.xLabel = "strain (%)";
    plot.yLabel = "tension (N/m)";
    for (const BenchDirection direction : kDirections) {
      progress.update(done, benchDirectionName(direction));
      auto curve = runTensileTest(specimen, direction, kGripStrains, settings);
      if (!curve) return fail(curve.error().prefixed(preset + ": "));
      converged = converged && curve->relax.converged;
      nlohmann::json entry{{"strain", curve->strain},
                           {"tension_N_m", curve->tension},
                           {"vertices", curve->vertices},
                           {"relax", relaxJson(curve->relax)}};
      PlotSeries model{std::string(benchDirectionName(direction)), {}, {}};
      PlotSeries data{
          std::string(benchDirectionName(direction)) + (library && library->measured ? " (measured)" : " (target)"),
          {},
          {}};
      std::vector<double> secant, reference;
      for (std::size_t i = 0; i < curve->strain.size(); ++i) {
        model.x.push_back(100.0 * curve->strain[i]);
        model.y.push_back(curve->tension[i]);
        secant.push_back(curve->secantModulus(i));
        if (library) {
          const double k = referenceModulus(*library, benchDirectionAngle(direction), curve->strain[i]);
          reference.push_back(k);
          data.x.push_back(100.0 * curve->strain[i]);
          data.y.push_back(k * curve->strain[i]);
        }
      }
      const double atZero = curve->modulusAtZeroStrain();
      entry["secant_modulus_N_m"] = secant;
      entry["modulus_at_zero_strain_N_m"] = atZero;
      entry["modulus_at_one_sixth_strain_N_m"] = secant.back();
      if (library) {
        entry["measured_secant_modulus_N_m"] = reference;
        entry["measured_modulus_at_zero_strain_N_m"] = referenceModulus(*library, benchDirectionAngle(direction), 0.0);
        entry["error_at_zero_strain"] =
            relativeError(atZero, entry["measured_modulus_at_zero_strain_N_m"].get<double>());
        entry["error_at_one_sixth_strain"] = relativeError(secant.back(), reference.back());
      }
      out["tensile"][benchDirectionName(direction)] = entry;
      plot.series.push_back(std::move(model));
      if (library) plot.series.push_back(std::move(data));
      progress.update(++done);
    }
    if (auto s = outputs.write("tensile.svg", [&](const fs::path& p) { return writeSvgLinePlot(plot, p); }); !s)
      return fail(s.error());
  }

  if (cantilever) {
    for (const BenchDirection direction : {BenchDirection::Warp, BenchDirection::Weft}) {
      progress.update(done, std::string("cantilever ") + benchDirectionName(direction));
      const double intended = intendedRigidity(specimen.material, direction);
      auto result = runCantileverTest(specimen, direction, intended, settings);
      if (!result) return fail(result.error().prefixed(preset + ": "));
      converged = converged && result->relax.converged;
      nlohmann::json entry{{"overhang_mm", 1e3 * result->overhang},
                           {"chord_angle_deg", result->chordAngle * 180.0 / std::acos(-1.0)},
                           {"bending_length_mm", 1e3 * result->bendingLength},
                           {"flexural_rigidity_N_m", result->flexuralRigidity},
                           {"model_rigidity_N_m", intended},
                           {"error_vs_model", relativeError(result->flexuralRigidity, intended)},
                           {"vertices", result->vertices},
                           {"relax", relaxJson(result->relax)}};
      if (library) {
        const double reference = referenceRigidity(*library, direction);
        entry["measured_rigidity_N_m"] = reference;
        entry["error_vs_measured"] = relativeError(result->flexuralRigidity, reference);
      }
      out["cantilever"][benchDirectionName(direction)] = entry;
      progress.update(++done);
    }
  }

  if (drape) {
    progress.update(done, "drape");
    auto result = runDrapeTest(specimen, settings);
    if (!result) return fail(result.error().prefixed(preset + ": "));
    converged = converged && result->relax.converged;
    out["drape_coefficient"] = result->drapeCoefficient;
    if (library && library->drapeBand)
      out["inside_band"] =
          result->drapeCoefficient >= library->drapeBand->x && result->drapeCoefficient <= library->drapeBand->y;
    out["nodes"] = result->nodes;
    out["drape"] = {{"drape_coefficient", result->drapeCoefficient},
                    {"nodes", result->nodes},
                    {"shadow_area_m2", result->shadowArea},
                    {"rim_radius_mm",
                     [&] {
                       std::vector<double> mm;
                       for (double r : result->rimRadius) mm.push_back(1e3 * r);
                       return mm;
                     }()},
                    {"vertices", result->vertices},
                    {"relax", relaxJson(result->relax)}};
    run.picture = shadowPicture(result->shadow);
    if (auto s = outputs.write("drape_top.png", [&](const fs::path& p) { return writePng(*run.picture, p); }); !s)
      return fail(s.error());
    if (auto s = outputs.write("drape.obj", [&](const fs::path& p) { return exportMesh(result->draped, p); }); !s)
      return fail(s.error());
    progress.update(++done);
  }
  progress.finish();
  out["converged"] = converged;
  out["seconds"] = seconds(start, Clock::now());
  if (auto s = outputs.writeText("fabric_test.json", out.dump(2) + "\n"); !s) return fail(s.error());
  if (auto s = outputs.commit(); !s) return fail(s.error());

  if (!options.quiet) {
    static std::mutex printing;  // presets benched at once print their reports whole
    const std::lock_guard lock(printing);
    std::printf("fabric-test %s (%s, %.0f mm edges, %.1f s)\n", preset.c_str(), options.backend.c_str(),
                options.edgeMillimetres, seconds(start, Clock::now()));
    if (out.contains("tensile"))
      for (const BenchDirection direction : kDirections) {
        const auto& t = out["tensile"][benchDirectionName(direction)];
        std::printf("  tensile %-4s  modulus %7.1f N/m at 0 %%, %7.1f N/m at %.1f %%", benchDirectionName(direction),
                    t["modulus_at_zero_strain_N_m"].get<double>(), t["modulus_at_one_sixth_strain_N_m"].get<double>(),
                    100.0 * t["strain"].back().get<double>());
        if (library)
          std::printf("  (measured %+.0f %%, %+.0f %%)", 100.0 * t["error_at_zero_strain"].get<double>(),
                      100.0 * t["error_at_one_sixth_strain"].get<double>());
        std::printf("\n");
      }
    if (out.contains("cantilever"))
      for (const BenchDirection direction : {BenchDirection::Warp, BenchDirection::Weft}) {
        const auto& c = out["cantilever"][benchDirectionName(direction)];
        std::printf("  cantilever %-4s bending length %.1f mm, rigidity %.3g N m (model %+.0f %%",
                    benchDirectionName(direction), c["bending_length_mm"].get<double>(),
                    c["flexural_rigidity_N_m"].get<double>(), 100.0 * c["error_vs_model"].get<double>());
        if (library) std::printf(", measured %+.0f %%", 100.0 * c["error_vs_measured"].get<double>());
        std::printf(")\n");
      }
    if (out.contains("drape"))
      std::printf("  drape coefficient %.1f %%, %d nodes\n", out["drape_coefficient"].get<double>(),
                  out["nodes"].get<int>());
    if (!converged) std::printf("  not at rest within the time allowed: see \"relax\" in fabric_test.json\n");
    for (const fs::path& p : outputs.finalPaths()) std::printf("  wrote %s\n", p.string().c_str());
  }
  run.result = std::move(out);
  return converged ? kExitOk : kExitQualityGate;
}

/// The presets' top views side by side, five to a row, in the order given, at half their
/// size (2 x 2 pixels averaged).
Image contactSheet(const std::vector<Image>& pictures) {
  constexpr int kColumns = 5;
  const int size = pictures.front().width / 2;
  Image sheet;
  sheet.width = size * std::min<int>(kColumns, int(pictures.size()));
  sheet.height = size * ((int(pictures.size()) + kColumns - 1) / kColumns);
  sheet.rgba.assign(std::size_t(sheet.width) * std::size_t(sheet.height) * 4, 255);
  for (std::size_t k = 0; k < pictures.size(); ++k) {
    const int x0 = int(k % kColumns) * size, y0 = int(k / kColumns) * size;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        for (int c = 0; c < 4; ++c) {
          const Image& p = pictures[k];
          const int sum = p.pixel(2 * x, 2 * y)[c] + p.pixel(2 * x + 1, 2 * y)[c] + p.pixel(2 * x, 2 * y + 1)[c] +
                          p.pixel(2 * x + 1, 2 * y + 1)[c];
          sheet.pixel(x0 + x, y0 + y)[c] = std::uint8_t((sum + 2) / 4);
        }
  }
  return sheet;
}

/// summary.md: one row per preset (drape coefficient, nodes, band, the tensile and
/// cantilever errors against the data).
std::string summaryTable(const std::vector<nlohmann::json>& results) {
  std::string table =
      "| preset | kind | DC % | band % | nodes | tensile error at 0 (warp, weft, bias) | at 1/6 | cantilever error "
      "(warp, weft) |\n| --- | --- | ---: | --- | ---: | --- | --- | --- |\n";
  char cell[160];
  for (const nlohmann::json& r : results) {
    table += "| `" + r["preset"].get<std::string>() + "` | " +
             (r["measured"].get<bool>()     ? "measured"
              : r["calibrated"].get<bool>() ? "calibrated"
                                            : "other") +
             " | ";
    if (r.contains("drape_coefficient")) {
      std::snprintf(cell, sizeof cell, "%.1f", r["drape_coefficient"].get<double>());
      table += cell;
    }
    table += " | ";
    if (r.contains("drape_coefficient_band")) {
      std::snprintf(cell, sizeof cell, "%.0f-%.0f", r["drape_coefficient_band"][0].get<double>(),
                    r["drape_coefficient_band"][1].get<double>());
      table += cell;
    }
    table += " | " + (r.contains("nodes") ? std::to_string(r["nodes"].get<int>()) : std::string()) + " | ";
    for (const char* key : {"error_at_zero_strain", "error_at_one_sixth_strain"}) {
      if (r.contains("tensile") && r["tensile"]["warp"].contains(key)) {
        std::snprintf(cell, sizeof cell, "%+.0f, %+.0f, %+.0f %%", 100.0 * r["tensile"]["warp"][key].get<double>(),
                      100.0 * r["tensile"]["weft"][key].get<double>(), 100.0 * r["tensile"]["bias"][key].get<double>());
        table += cell;
      }
      table += " | ";
    }
    if (r.contains("cantilever") && r["cantilever"]["warp"].contains("error_vs_measured")) {
      std::snprintf(cell, sizeof cell, "%+.0f, %+.0f %%",
                    100.0 * r["cantilever"]["warp"]["error_vs_measured"].get<double>(),
                    100.0 * r["cantilever"]["weft"]["error_vs_measured"].get<double>());
      table += cell;
    }
    table += " |\n";
  }
  return table;
}

/// --calibrate-mesh: every preset's mesh correction, printed and written to
/// DIR/mesh_correction.json ({preset: block}); an exit code.
int calibrateMeshes(const std::vector<ResolvedPreset>& presets, const fs::path& outDir,
                    const FabricTestOptions& options, const FabricBenchSettings& settings) {
  nlohmann::json blocks = nlohmann::json::object();
  for (const ResolvedPreset& preset : presets) {
    if (!preset.library)
      return failUsage("--calibrate-mesh: '" + preset.name +
                       "' has no data to calibrate to (a library preset or a fabric file)");
    const LibraryFabric& library = *preset.library;
    const ReferenceModulus reference = [&library](double angle, double strain) {
      return referenceModulus(library, angle, strain);
    };
    auto fit = fitMeshCorrection(library.physical, reference, settings);
    if (!fit) return fail(fit.error().prefixed(preset.name + ": "));
    const std::string how = "hagoromo fabric-test " + preset.name + " --calibrate-mesh --edge " +
                            std::to_string(int(std::lround(options.edgeMillimetres)));
    blocks[preset.name] = meshCorrectionJson(fit->correction);
    blocks[preset.name]["how"] = how;
    if (!options.quiet) {
      const auto percent = [](const glm::dvec3& e) {
        char text[64];
        std::snprintf(text, sizeof text, "%+.0f, %+.0f, %+.0f %%", 100.0 * e.x, 100.0 * e.y, 100.0 * e.z);
        return std::string(text);
      };
      std::printf("%-22s errors at 0: %s -> %s; at 1/6: %s -> %s (%d rounds)\n", preset.name.c_str(),
                  percent(fit->initialErrorAtZero).c_str(), percent(fit->errorAtZero).c_str(),
                  percent(fit->initialErrorAtOneSixth).c_str(), percent(fit->errorAtOneSixth).c_str(), fit->rounds);
    }
  }
  OutputSet outputs(outDir);
  if (auto s = outputs.writeText("mesh_correction.json", blocks.dump(2) + "\n"); !s) return fail(s.error());
  if (auto s = outputs.commit(); !s) return fail(s.error());
  if (!options.quiet)
    for (const fs::path& p : outputs.finalPaths()) std::printf("wrote %s\n", p.string().c_str());
  return kExitOk;
}

}  // namespace

int runFabricTest(const FabricTestOptions& options) {
  auto tests = parseTests(options.tests);
  if (!tests) return fail(tests.error());
  auto backend = parseBackend(options.backend);
  if (!backend) return failUsage("--backend: " + backend.error().message);
  // "all": every fabric of the library, in its order.
  std::vector<std::string> names;
  for (const std::string& preset : options.presets) {
    if (preset != "all") {
      names.push_back(preset);
      continue;
    }
    auto library = loadFabricLibrary(fabricLibraryDirectory());
    if (!library) return fail(library.error());
    for (const LibraryFabric& fabric : *library) names.push_back(fabric.name);
  }
  // Every name resolved first, so that a typo fails before hours of benches.
  std::vector<ResolvedPreset> presets;
  for (const std::string& name : names) {
    auto fabric = fabricMaterial(fs::current_path(), name);
    if (!fabric) return fail(fabric.error());
    presets.push_back({name, *fabric, libraryData(name)});
  }

  if (options.jobs > 1 && *backend == Backend::Gpu)
    return failUsage("--jobs: presets run at once only on the CPU backend (the GPU backend has one GL context)");
  std::unique_ptr<gl::HeadlessContext> context;
  if (*backend == Backend::Gpu) {
    auto made = gl::HeadlessContext::create();
    if (!made) return fail(made.error());
    context = std::move(made).value();
  }
  FabricBenchSettings settings;
  settings.edgeLength = options.edgeMillimetres * 1e-3;
  settings.restSpeed = options.restSpeed;
  settings.staticSolve = options.statics == "newton";
  settings.solverFactory = [backend = *backend](std::shared_ptr<const ClothModel> model, const ClothSettings& s) {
    return createClothSolver(backend, std::move(model), s);
  };
  if (options.calibrateMesh)
    return calibrateMeshes(presets, options.outDir.empty() ? fs::path("out") / "fabric-test" : fs::path(options.outDir),
                           options, settings);
  if (presets.size() == 1) {
    PresetRun run;
    return runPreset(
        presets[0],
        options.outDir.empty() ? fs::path("out") / "fabric-test" / presets[0].name : fs::path(options.outDir), options,
        *tests, settings, run);
  }
  // Several: each into DIR/PRESET, then the contact sheet and the table of them all in DIR.
  const fs::path root = options.outDir.empty() ? fs::path("out") / "fabric-test" : fs::path(options.outDir);
  std::vector<PresetRun> runs(presets.size());
  std::vector<int> codes(presets.size(), kExitOk);
  const int jobs = std::min<int>(options.jobs, int(presets.size()));
  if (jobs > 1) settings.threads = std::max(1, usableCores() / jobs);  // every solver is bitwise the same on any count
  // The queue, the costliest drape first (longest processing time first: the last preset
  // taken is a quick one); one at a time, the order given.
  std::vector<std::size_t> queue(presets.size());
  std::iota(queue.begin(), queue.end(), std::size_t(0));
  if (jobs > 1 && tests->drape) {
    std::vector<double> cost(presets.size(), 0.0);
    for (std::size_t k = 0; k < presets.size(); ++k)
      if (auto c = drapeTestCost({presets[k].fabric.material, presets[k].fabric.anisotropy}, settings)) cost[k] = *c;
    std::stable_sort(queue.begin(), queue.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  }
  std::atomic<std::size_t> next{0};
  const auto benchTheRest = [&] {  // each takes the next preset until none is left
    for (std::size_t q = next++; q < queue.size(); q = next++) {
      const std::size_t k = queue[q];
      codes[k] = runPreset(presets[k], root / presets[k].name, options, *tests, settings, runs[k]);
    }
  };
  std::vector<std::thread> helpers;  // the GPU backend's GL context stays on this thread (jobs is 1 there)
  for (int w = 1; w < jobs; ++w) helpers.emplace_back(benchTheRest);
  benchTheRest();
  for (std::thread& helper : helpers) helper.join();
  int worst = kExitOk;
  std::vector<nlohmann::json> results;
  std::vector<Image> pictures;
  for (std::size_t k = 0; k < presets.size(); ++k) {  // in the order given, whatever finished first
    if (codes[k] != kExitOk && codes[k] != kExitQualityGate) {
      worst = codes[k];
      continue;  // named on stderr; the others still ran
    }
    if (worst == kExitOk) worst = codes[k];
    results.push_back(runs[k].result);
    if (runs[k].picture) pictures.push_back(std::move(*runs[k].picture));
  }
  OutputSet summary(root);
  nlohmann::json all{{"presets", results}};
  if (auto s = summary.writeText("summary.json", all.dump(2) + "\n"); !s) return fail(s.error());
  if (auto s = summary.writeText("summary.md", summaryTable(results)); !s) return fail(s.error());
  if (!pictures.empty()) {
    const Image sheet = contactSheet(pictures);
    if (auto s = summary.write("drapes.png", [&](const fs::path& p) { return writePng(sheet, p); }); !s)
      return fail(s.error());
  }
  if (auto s = summary.commit(); !s) return fail(s.error());
  if (!options.quiet)
    for (const fs::path& p : summary.finalPaths()) std::printf("wrote %s\n", p.string().c_str());
  return worst;
}

}  // namespace hg::app
