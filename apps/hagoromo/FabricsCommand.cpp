#include "apps/hagoromo/FabricsCommand.h"

#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"

namespace hg::app {

namespace {

nlohmann::json fabricJson(const LibraryFabric& fabric) {
  const SpringFabric spring = springFabricOf(fabric.physical);
  const MembraneModuli& strained = spring.strainedModuli;
  const auto moduli = [](const MembraneModuli& m) {
    return nlohmann::json{{"warp", m.warp}, {"weft", m.weft}, {"bias", m.bias}};
  };
  return {
      {"name", fabric.name},
      {"description", fabric.description},
      {"file", fabric.file.string()},
      {"kind", fabric.measured ? "measured" : "calibrated, not measured"},
      {"drape_coefficient_band",
       fabric.drapeBand ? nlohmann::json{fabric.drapeBand->x, fabric.drapeBand->y} : nlohmann::json(nullptr)},
      {"source", fabric.source},
      {"areal_density_g_m2", 1000.0 * fabric.physical.density},
      {"modulus_at_zero_strain_N_m", moduli(spring.moduli)},
      {"modulus_at_one_sixth_strain_N_m", moduli(strained)},
      {"bending_rigidity_N_m",
       {{"warp", spring.bendingRigidity.x}, {"bias", spring.bendingRigidity.y}, {"weft", spring.bendingRigidity.z}}},
      {"model",
       {{"tensile_stiffness_N_m", spring.material.tensileStiffness},
        {"anisotropy", {spring.anisotropy.x, spring.anisotropy.y, spring.anisotropy.z, spring.anisotropy.w}},
        {"bending_rigidity_N_m", spring.material.bendingRigidity},
        {"strain_stiffening",
         {spring.material.strainStiffening.x, spring.material.strainStiffening.y, spring.material.strainStiffening.z,
          spring.material.strainStiffening.w}},
        {"bending_anisotropy",
         {spring.material.bendingAnisotropy.x, spring.material.bendingAnisotropy.y,
          spring.material.bendingAnisotropy.z}},
        {"largest_modulus_error", spring.largestFitError}}},
      {"mesh_correction", fabric.physical.meshCorrection.none() ? nlohmann::json(nullptr)
                                                                : meshCorrectionJson(fabric.physical.meshCorrection)}};
}

}  // namespace

CLI::App* addFabricsCommand(CLI::App& app, FabricsOptions& options) {
  CLI::App* command = app.add_subcommand(
      "fabrics",
      "List the fabric library: measured presets (cloth.fabric) with density, stiffness, bending and source");
  command->add_flag("--json", options.json, "Print JSON (every number, and the cloth model's parameters)");
  command->footer(
      "The library is found in $HG_FABRICS_DIR, else share/hagoromo/fabrics beside the installed binary, else the "
      "source tree's data/fabrics. A fabrics.json beside a scene adds presets of published KES values.");
  return command;
}

int runFabrics(const FabricsOptions& options) {
  const std::filesystem::path directory = fabricLibraryDirectory();
  auto library = loadFabricLibrary(directory);
  if (!library) return fail(library.error());
  auto source = fabricLibrarySource(directory);
  if (!source) return fail(source.error());
  if (options.json) {
    nlohmann::json out{{"library", directory.string()}, {"source", *source}, {"fabrics", nlohmann::json::array()}};
    for (const LibraryFabric& fabric : *library) out["fabrics"].push_back(fabricJson(fabric));
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  std::printf("Fabric library %s\n", directory.string().c_str());
  std::printf("%-22s %6s  %-23s  %-23s  %-20s  %s\n", "name", "g/m^2", "N/m at 0: warp weft bias",
              "N/m at 1/6: warp weft bias", "uN m: warp bias weft", "fit");
  for (const LibraryFabric& fabric : *library) {
    const SpringFabric spring = springFabricOf(fabric.physical);
    const MembraneModuli& strained = spring.strainedModuli;
    std::printf("%-22s %6.0f  %7.0f %7.0f %7.0f  %7.0f %7.0f %7.0f  %6.1f %6.1f %6.1f  %s\n", fabric.name.c_str(),
                1000.0 * fabric.physical.density, spring.moduli.warp, spring.moduli.weft, spring.moduli.bias,
                strained.warp, strained.weft, strained.bias, 1e6 * spring.bendingRigidity.x,
                1e6 * spring.bendingRigidity.y, 1e6 * spring.bendingRigidity.z,
                spring.largestFitError < 0.01
                    ? "exact"
                    : (std::to_string(int(100.0 * spring.largestFitError + 0.5)) + "% off").c_str());
  }
  std::printf("Source of the measured fabrics: %s\n", source->c_str());
  for (const LibraryFabric& fabric : *library) {
    if (fabric.measured) continue;
    std::printf("%s: calibrated, not measured", fabric.name.c_str());
    if (fabric.drapeBand)
      std::printf(" (to a drape coefficient of %.0f-%.0f %%)", fabric.drapeBand->x, fabric.drapeBand->y);
    std::printf(": %s\n", fabric.source.c_str());
  }
  std::printf(
      "Moduli: tension per unit width per unit strain of a strip with free sides. \"fit\": how far the\n"
      "springs' moduli at zero strain are from these times the preset's mesh correction (the factors\n"
      "that make the meshed strips read the data; --json lists them; docs/methods.md section 10).\n");
  return kExitOk;
}

}  // namespace hg::app
