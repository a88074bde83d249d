#include "sim/io/SceneJson.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace hg::scenejson {

void checkKeys(const json& object, const std::string& where, const std::set<std::string>& allowed) {
  if (!object.is_object()) throw SceneError{where + " must be an object"};
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw SceneError{"unknown key '" + where + "." + key + "' (allowed: " + list + ")"};
    }
}

float number(const json& object, const std::string& where, const char* key, float fallback) {
  if (!object.contains(key)) return fallback;
  const json& v = object.at(key);
  if (!v.is_number()) throw SceneError{where + "." + key + " must be a number"};
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw SceneError{where + "." + key + " must be finite"};
  return float(d);
}

float positive(const json& object, const std::string& where, const char* key, float fallback) {
  const float v = number(object, where, key, fallback);
  if (!(v > 0.0f)) throw SceneError{where + "." + key + " must be > 0"};
  return v;
}

int integer(const json& object, const std::string& where, const char* key, int fallback) {
  if (!object.contains(key)) return fallback;
  const json& v = object.at(key);
  if (!v.is_number_integer()) throw SceneError{where + "." + key + " must be an integer"};
  return v.get<int>();
}

glm::vec3 vec3(const json& object, const std::string& where, const char* key, glm::vec3 fallback) {
  if (!object.contains(key)) return fallback;
  const json& v = object.at(key);
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
    throw SceneError{where + "." + key + " must be an array of 3 numbers"};
  const glm::vec3 r(v[0].get<float>(), v[1].get<float>(), v[2].get<float>());
  if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z))
    throw SceneError{where + "." + key + " must be finite"};
  return r;
}

Result<std::string> readSceneFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open scene file"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{path.string() + ": read error"};
  return text.str();
}

Error sceneParseError(const std::string& origin) {
  try {
    throw;
  } catch (const json::parse_error& e) {
    return Error{origin + ": not valid JSON: " + e.what()};
  } catch (const json::exception& e) {
    return Error{origin + ": " + e.what()};
  } catch (const SceneError& e) {
    return Error{origin + ": " + e.message};
  }
}

}  // namespace hg::scenejson
