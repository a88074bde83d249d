#include "sim/scene/DrapeFabric.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include <glm/trigonometric.hpp>

#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/cloth/FabricPresets.h"
#include "sim/garment/AamaDxf.h"
#include "sim/garment/GarmentCode.h"
#include "sim/garment/Placement.h"

namespace hg {

namespace {

/// A preset of published KES values (sim/cloth/FabricPresets.h).
FabricMaterial kesFabricMaterial(const FabricPreset& preset) {
  FabricMaterial result;
  const float reference = std::max({preset.stretchWarp, preset.stretchWeft, preset.stretchBias});
  result.material.arealDensity = preset.arealDensity;
  result.material.tensileStiffness = reference;
  result.material.bendingRigidity = float(hingeRigidityFor(preset.bendingRigidity));  // the measured B is continuum
  result.anisotropy =
      glm::vec4(preset.stretchWarp, preset.stretchWeft, preset.stretchBias, preset.stretchBias) / reference;
  return result;
}

}  // namespace

Result<FabricMaterial> fabricMaterial(const std::filesystem::path& sceneDirectory, const std::string& name) {
  if (namesFabricFile(name)) {  // the user's own fabric in physical units
    auto physical = loadPhysicalFabric(sceneDirectory / name);
    if (!physical) return physical.error();
    const SpringFabric spring = springFabricOf(*physical);
    return FabricMaterial{spring.material, spring.anisotropy};
  }
  const std::filesystem::path local = sceneDirectory / "fabrics.json";
  if (auto kes = findNamedFabricPreset(local, name)) {
    if (!*kes) return kes->error();
    return kesFabricMaterial(**kes);
  }
  auto measured = findLibraryFabric(fabricLibraryDirectory(), name);
  if (!measured) {
    if (std::filesystem::exists(local)) return Error{measured.error().message + "; nor in " + local.string()};
    return measured.error();
  }
  const SpringFabric spring = springFabricOf(measured->physical);
  return FabricMaterial{spring.material, spring.anisotropy};
}

Result<SceneClothMaterial> sceneClothMaterial(const DrapeScene& scene) {
  ClothMaterial material = scene.material;
  std::optional<glm::vec4> uniform = scene.anisotropyUniform;
  std::optional<float> fabricScale;  ///< the anisotropy scale of a preset's multipliers
  if (!scene.fabric.empty()) {
    auto fabric = fabricMaterial(scene.directory, scene.fabric);
    if (!fabric) return fabric.error().prefixed("cloth.fabric: ");
    auto overridden = [&](const char* key) {
      return std::find(scene.materialOverrides.begin(), scene.materialOverrides.end(), key) !=
             scene.materialOverrides.end();
    };
    if (!overridden("areal_density")) material.arealDensity = fabric->material.arealDensity;
    if (!overridden("tensile_stiffness")) {
      material.tensileStiffness = fabric->material.tensileStiffness;
      material.strainStiffening = fabric->material.strainStiffening;
    }
    if (!overridden("area_weighted_mass")) material.areaWeightedMass = fabric->material.areaWeightedMass;
    if (!overridden("bending_rigidity")) {
      material.bendingRigidity = fabric->material.bendingRigidity;
      material.bendingAnisotropy = fabric->material.bendingAnisotropy;
    }
    if (!uniform && scene.anisotropyTexture.empty()) {
      uniform = fabric->anisotropy;
      // A preset's multipliers are at most 1: stored in 8 bits of 0..1 they are within 1/510
      // of E (0..2, the scene default, would double that).
      fabricScale = 1.0f;
    }
  }
  std::optional<AnisotropyTexture> anisotropy;
  if (!scene.anisotropyTexture.empty()) {
    auto texture = loadAnisotropyTexture(scene.directory / scene.anisotropyTexture, scene.anisotropyScale);
    if (!texture) return texture.error().prefixed("cloth: ");
    anisotropy = std::move(texture).value();
  } else if (uniform) {
    anisotropy = AnisotropyTexture::uniform(*uniform, fabricScale.value_or(scene.anisotropyScale));
  }
  return SceneClothMaterial{material, std::move(anisotropy)};
}

Result<ClothModel> buildSceneCloth(const DrapeScene& scene) {
  auto material = sceneClothMaterial(scene);
  if (!material) return material.error();
  Result<TriangleMesh> mesh = scene.mesh.empty() ? makeSquareSheet(scene.sheet)
                                                 : importClothMesh(scene.directory / scene.mesh, scene.meshFrame);
  if (!mesh) return mesh.error().prefixed("cloth: ");
  auto model = buildClothModel(*mesh, material->material, scene.pinned, std::move(material->anisotropy));
  if (!model) return model.error().prefixed("cloth: ");
  return model;
}

Result<std::vector<GarmentSpec>> sceneGarments(const DrapeScene& scene, const ClothMaterial& outfit) {
  std::vector<GarmentSpec> garments = scene.garments;
  for (std::size_t g = 0; g < garments.size(); ++g) {
    GarmentSpec& spec = garments[g];
    if (spec.kind == GarmentKind::Pattern) {
      GarmentCodeOptions options;
      options.ease = spec.ease;
      const std::filesystem::path path = scene.directory / spec.patternFile;
      std::string extension = path.extension().string();
      for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
      auto file = extension == ".dxf" ? readAamaDxf(path,
                                                    spec.patternSidecar.empty() ? aamaSidecarPath(path)
                                                                                : scene.directory / spec.patternSidecar,
                                                    options)
                                      : readGarmentCode(path, options);
      if (!file) return file.error().prefixed("garments[" + std::to_string(g) + "].file: ");
      const std::string key = "garments[" + std::to_string(g) + "]";
      if (spec.placeAroundBody && !file->regionsGiven())
        return Error{key + ".placement: \"around_body\" needs every panel's region in the file (" +
                     std::to_string(file->regionCount) + " of " + std::to_string(file->pattern.panels.size()) +
                     " panels have one; hagoromo patterns writes them)"};
      if (spec.placeAroundBody && spec.grainDegrees != 0.0f)
        return Error{key + ".grain_degrees: cannot turn the grain of a pattern placed around the body"};
      if (spec.grainDegrees != 0.0f)
        for (std::size_t p = 0; p < file->pattern.panels.size(); ++p)
          turnPanel(file->pattern.panels[p], file->transforms[p], -glm::radians(double(spec.grainDegrees)));
      spec.pattern = std::make_shared<const PatternFile>(std::move(file).value());
    }
    if (spec.fabric.empty() && !spec.arealDensity && !spec.tensileStiffness && !spec.bendingRigidity) continue;
    ClothMaterial m = outfit;
    if (!spec.fabric.empty()) {
      auto fabric = fabricMaterial(scene.directory, spec.fabric);
      if (!fabric) return fabric.error().prefixed("garments[" + std::to_string(g) + "].fabric: ");
      m.arealDensity = fabric->material.arealDensity;
      m.tensileStiffness = fabric->material.tensileStiffness;
      m.strainStiffening = fabric->material.strainStiffening;
      m.bendingRigidity = fabric->material.bendingRigidity;
      m.bendingAnisotropy = fabric->material.bendingAnisotropy;
      spec.anisotropy = fabric->anisotropy;
    }
    // An explicit key replaces the garment fabric's value and the shape it gives it, as the
    // cloth's keys do (sceneClothMaterial): that tension is linear, that D the same along
    // every direction; the stretch multipliers stay the fabric's. Without a fabric of its own
    // the keys scale the outfit's material, shape and all.
    const bool ownFabric = !spec.fabric.empty();
    if (spec.arealDensity) m.arealDensity = *spec.arealDensity;
    if (spec.tensileStiffness) {
      m.tensileStiffness = *spec.tensileStiffness;
      if (ownFabric) m.strainStiffening = glm::vec4(0.0f);
    }
    if (spec.bendingRigidity) {
      m.bendingRigidity = *spec.bendingRigidity;
      if (ownFabric) m.bendingAnisotropy = glm::vec3(1.0f);
    }
    spec.material = m;
  }
  return garments;
}

}  // namespace hg
