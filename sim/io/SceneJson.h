#pragma once
/// Reading scene files (JSON, nlohmann-json) with errors that name the file and the key:
/// shared by the drape scenes (sim/scene/DrapeScene.h) and the grasp scenes
/// (sim/radar/Grasp.h). Parsers throw SceneError for a bad value while they walk the
/// document; the parse function converts every failure to an Error at its boundary with
/// sceneParseError (inside a catch block).
#include <filesystem>
#include <set>
#include <string>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "sim/core/Result.h"

namespace hg::scenejson {

using json = nlohmann::json;

/// Thrown inside scene parsers only; converted to an Error at the boundary.
struct SceneError {
  std::string message;
};

/// `object` must be a JSON object whose keys are all in `allowed` (a typo must not fall back
/// to a default silently): "unknown key 'where.key' (allowed: ...)".
void checkKeys(const json& object, const std::string& where, const std::set<std::string>& allowed);
/// object[key] as a finite number, or `fallback` when absent.
float number(const json& object, const std::string& where, const char* key, float fallback);
/// number(), which must also be > 0.
float positive(const json& object, const std::string& where, const char* key, float fallback);
/// object[key] as an integer, or `fallback` when absent.
int integer(const json& object, const std::string& where, const char* key, int fallback);
/// object[key] as an array of 3 finite numbers, or `fallback` when absent.
glm::vec3 vec3(const json& object, const std::string& where, const char* key, glm::vec3 fallback);

/// The whole text of a scene file; error "PATH: cannot open scene file" or "PATH: read error".
Result<std::string> readSceneFile(const std::filesystem::path& path);

/// Call inside `catch (...)` around a parser: the current exception as "ORIGIN: ..." (invalid
/// JSON, a JSON type error, a SceneError); rethrows anything else.
Error sceneParseError(const std::string& origin);

}  // namespace hg::scenejson
