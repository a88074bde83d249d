#pragma once
/// A drape scene's cloth: its material from the fabric presets beside the scene
/// (fabrics.json, sim/cloth/FabricPresets.h) and the scene's explicit keys, its anisotropy
/// (docs/methods.md section 1), the cloth model of a sheet or mesh, and the garments'
/// own materials.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/cloth/ClothModel.h"
#include "sim/core/Result.h"
#include "sim/garment/Dressing.h"
#include "sim/scene/DrapeScene.h"

namespace hg {

/// Material and uniform anisotropy of the fabric `name` (see FabricMaterial): a fabric file in
/// physical units when `name` ends in `.json` (relative to the scene; loadPhysicalFabric,
/// sim/cloth/FabricLibrary.h), else a preset of
/// published KES values in `sceneDirectory`/fabrics.json when that file names it, else the
/// measured fabric of the library (sim/cloth/FabricLibrary.h) mapped to the springs
/// (springFabricOf, sim/cloth/FabricMapping.h); the error lists the names of both.
Result<FabricMaterial> fabricMaterial(const std::filesystem::path& sceneDirectory, const std::string& name);

/// The cloth's material and anisotropy (fabric preset, explicit keys, texture or
/// uniform); errors name the scene key and the file.
Result<SceneClothMaterial> sceneClothMaterial(const DrapeScene& scene);

/// The scene's cloth model (mesh or sheet, material, pins, anisotropy); errors name
/// the scene file and the mesh or texture file.
Result<ClothModel> buildSceneCloth(const DrapeScene& scene);

/// The scene's garments, each with its own material where it names one: its fabric
/// preset, then its explicit keys, over `outfit` (the cloth block's material); errors
/// name the garment ("garments[1].fabric: ...").
Result<std::vector<GarmentSpec>> sceneGarments(const DrapeScene& scene, const ClothMaterial& outfit);

}  // namespace hg
