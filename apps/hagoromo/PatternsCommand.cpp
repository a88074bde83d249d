#include "apps/hagoromo/PatternsCommand.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "sim/garment/AamaDxf.h"
#include "sim/garment/Dressing.h"
#include "sim/garment/GarmentCode.h"
#include "sim/scene/DrapeBody.h"
#include "sim/scene/DrapeFabric.h"
#include "sim/scene/DrapeSceneRead.h"

namespace hg::app {

namespace fs = std::filesystem;

CLI::App* addPatternsCommand(CLI::App& app, PatternsOptions& options) {
  CLI::App* command = app.add_subcommand(
      "patterns",
      "Write every garment of a drape scene as a sewing pattern (GarmentCode JSON and DXF-AAMA), sized to the scene's "
      "avatar");
  command->add_option("scene", options.scenePath, "Drape scene JSON with garments")->required();
  command->add_option("--out", options.outDir, "Output folder (default out/patterns/<scene name>)")->check(nonEmpty());
  command
      ->add_option("--format", options.format,
                   "garmentcode (<name>_specification.json), dxf (DXF-AAMA <name>.dxf with its sidecar "
                   "<name>.seams.json) or all")
      ->check(CLI::IsMember({"garmentcode", "dxf", "all"}))
      ->capture_default_str();
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer("Example: hagoromo patterns scenes/outfit_on_mannequin.json --out /tmp/patterns --format dxf");
  return command;
}

int runPatterns(const PatternsOptions& options) {
  auto scene = loadDrapeScene(options.scenePath);
  if (!scene) return fail(scene.error());
  if (scene->garments.empty()) return fail(Error{options.scenePath + ": garments: the scene has none to write"});
  auto material = sceneClothMaterial(*scene);
  if (!material) return fail(material.error().prefixed(options.scenePath + ": "));
  auto garments = sceneGarments(*scene, material->material);
  if (!garments) return fail(garments.error().prefixed(options.scenePath + ": "));
  if (!options.quiet) std::printf("measuring the avatar ...\n");
  auto body = buildSceneBody(*scene);
  if (!body) return fail(body.error().prefixed(options.scenePath + ": "));
  const GarmentSizing sizing = garmentSizing(body->measurements);
  const BodyFrame frame = bodyFrame(body->measurements);

  const fs::path outDir =
      options.outDir.empty() ? fs::path("out") / "patterns" / scene->name : fs::path(options.outDir);
  OutputSet outputs(outDir);
  for (std::size_t g = 0; g < garments->size(); ++g) {
    const GarmentSpec& spec = (*garments)[g];
    const std::string label = options.scenePath + ": garments[" + std::to_string(g) + "]: ";
    auto pattern = draftGarment(spec, sizing);
    if (!pattern) return fail(pattern.error().prefixed(label));
    const std::vector<PanelTransform> layout = spec.pattern ? spec.pattern->transforms : blockLayout(*pattern, frame);
    std::string name = garmentName(spec);
    for (std::size_t earlier = 0; earlier < g; ++earlier)
      if (garmentName((*garments)[earlier]) == name) name += "_" + std::to_string(g);
    if (options.format != "dxf") {
      auto text = writeGarmentCode(*pattern, layout);
      if (!text) return fail(text.error().prefixed(label));
      if (Status s = outputs.writeText(name + "_specification.json", *text); !s) return fail(s.error());
    }
    if (options.format != "garmentcode") {
      std::string sidecar;
      Status s = outputs.write(name + ".dxf", [&](const fs::path& path) -> Status {
        auto written = writeAamaDxf(*pattern, layout, path);
        if (!written) return written.error();
        sidecar = std::move(written).value();
        return Status::success();
      });
      if (!s) return fail(s.error().prefixed(label));
      if (Status t = outputs.writeText(name + ".seams.json", sidecar); !t) return fail(t.error());
    }
  }
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!options.quiet) {
    std::printf("wrote %zu pattern files:\n", outputs.size());
    for (const fs::path& p : outputs.finalPaths()) std::printf("  %s\n", p.string().c_str());
  }
  return kExitOk;
}

}  // namespace hg::app
