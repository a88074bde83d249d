#pragma once
/// Reading scene files (JSON, nlohmann-json) with errors that name the file and the key:
/// shared by every reader of the project's JSON files (drape, snow, grasp and skin-rig
/// scenes, fabric presets, joint maps). Parsers throw SceneError for a bad value while they
/// walk the document; the parse function converts every failure to an Error at its
/// boundary with sceneParseError (inside a catch block).
///
/// Numbers are checked where they are read: integers are whole numbers inside a range the
/// caller states (no truncation, no wrap-around: 4294967298 is out of range, not 2), and a
/// number must be finite and fit a float ("out of range (at most 3.4e+38)").
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

/// `text` as a JSON document. A key given twice in one object is an error naming it
/// ("duplicate key 'solver.frames'": JSON leaves it undefined and the last one would win
/// silently). Throws json::parse_error for malformed text, SceneError for a duplicate key.
json parseDocument(const std::string& text);

/// `object` must be a JSON object whose keys are all in `allowed` (a typo must not fall back
/// to a default silently): "unknown key 'where.key' (allowed: ...)".
void checkKeys(const json& object, const std::string& where, const std::set<std::string>& allowed);
/// `value` as a finite number that fits a float; errors name it `name` ("NAME must be a
/// number", "NAME = V is out of range (at most 3.4e+38 in magnitude)").
float numberValue(const json& value, const std::string& name);
/// `value` as a finite number (double precision): "NAME must be a number", "NAME must be finite".
double realValue(const json& value, const std::string& name);
/// `value` as a whole number in [lo, hi] (1e3 and 2.0 are whole): "NAME must be a whole
/// number (LO..HI)", "NAME = V is out of range (LO..HI)".
long long wholeNumber(const json& value, const std::string& name, long long lo, long long hi);

/// object[key] as a finite number that fits a float, or `fallback` when absent.
float number(const json& object, const std::string& where, const char* key, float fallback);
/// number(), which must also be > 0.
float positive(const json& object, const std::string& where, const char* key, float fallback);
/// object[key] as a whole number in [lo, hi], or `fallback` when absent (not checked):
/// "where.key must be a whole number", "where.key = V is out of range (LO..HI)".
int integer(const json& object, const std::string& where, const char* key, int fallback, int lo, int hi);
/// object[key] as an array of 3 finite numbers that fit a float, or `fallback` when absent.
glm::vec3 vec3(const json& object, const std::string& where, const char* key, glm::vec3 fallback);
/// "where.key = V is out of range (LO..HI)" for a value read before, e.g. after a default.
void checkRange(const std::string& name, long long value, long long lo, long long hi);

/// An output base name from a scene: not empty, not hidden (no leading '.'), no folder
/// parts ('/', '\\') and no control characters, so every output stays inside --out.
/// Throws SceneError naming `where`.
std::string outputName(const json& value, const std::string& where);
/// The same check for a name from anywhere (a command line option, say); error names `where`.
Status checkOutputName(const std::string& name, const std::string& where);

/// Scene files are read up to this size (bytes).
inline constexpr std::size_t kMaxSceneFileBytes = std::size_t(64) << 20;

/// The whole text of a scene file; error "PATH: cannot open scene file", "PATH: is a
/// folder, not a scene file", "PATH: larger than 64 MiB ..." or "PATH: read error".
Result<std::string> readSceneFile(const std::filesystem::path& path);

/// Call inside `catch (...)` around a parser: the current exception as "ORIGIN: ..." (invalid
/// JSON, a JSON type error, a SceneError); rethrows anything else.
Error sceneParseError(const std::string& origin);

}  // namespace hg::scenejson
