#pragma once
/// Overrides of a scene file's keys: `cloth.fabric=denim_11oz`, `solver.frames=30`,
/// `garments.0.size=L`. A key is a dotted path through objects (and array indices); its
/// value replaces (or adds) that key before the scene is parsed, so every check of the
/// scene's reader applies to it (an unknown key is refused by name). Used by
/// `hagoromo drape|snow|skin --set KEY=VALUE` and by the batch manifests' "set" objects
/// (apps/batch/BatchManifest.h).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/Result.h"

namespace hg {

struct SceneOverride {
  std::string key;  ///< dotted path: "cloth.fabric", "garments.0.size"
  nlohmann::json value;
};
using SceneOverrides = std::vector<SceneOverride>;

/// "KEY=VALUE" from a command line: VALUE is read as JSON when it is valid JSON (30, 1.5,
/// true, [0,1,0], {"a":1}, "text") and as a plain string otherwise (denim_11oz).
/// Error: no '=', an empty key or an empty part of the path.
Result<SceneOverride> parseSceneOverride(const std::string& argument);

/// Every "KEY=VALUE" of a command line (parseSceneOverride each), in order.
Result<SceneOverrides> parseSceneOverrides(const std::vector<std::string>& arguments);

/// Applies the overrides in order to `document`; `origin` names the file in errors. A key
/// through a value that is not an object ("cloth.size.x" where cloth.size is a number) or
/// an array index out of range is an error naming the key. Missing objects on the way are
/// created.
Status applySceneOverrides(nlohmann::json& document, const SceneOverrides& overrides, const std::string& origin);

/// The scene file as a JSON document with the overrides applied (scenejson::readSceneFile,
/// scenejson::parseDocument); errors name the file.
Result<nlohmann::json> readSceneDocument(const std::string& path, const SceneOverrides& overrides);

/// The scene file's text with the overrides applied (the file's text unchanged without
/// any): reads with scenejson::readSceneFile, parses with scenejson::parseDocument.
Result<std::string> readSceneFileWithOverrides(const std::string& path, const SceneOverrides& overrides);

/// The overrides as the command line gives them ("--set KEY=JSON" each): for the batch's workers.
std::vector<std::string> sceneOverrideArguments(const SceneOverrides& overrides);

}  // namespace hg
