#include "sim/io/SceneJson.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>

namespace hg::scenejson {

namespace {

/// "where.key" for messages.
std::string keyName(const std::string& where, const char* key) { return where + "." + key; }

/// d as a float, or SceneError when it is not finite or a float cannot hold it.
float toFloat(double d, const std::string& name) {
  if (!std::isfinite(d)) throw SceneError{name + " must be finite"};
  if (std::abs(d) > double(FLT_MAX)) {
    std::ostringstream s;
    s << name << " = " << d << " is out of range (at most " << FLT_MAX << " in magnitude)";
    throw SceneError{s.str()};
  }
  return float(d);
}

}  // namespace

json parseDocument(const std::string& text) {
  // One frame per open object or array: the keys an object has seen and the last one.
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string lastKey;
  };
  std::vector<Frame> open;
  // The path to a key of the innermost open object, for the message (built only then:
  // deep nesting must stay linear).
  const auto pathTo = [&](const std::string& key) {
    std::string path;
    for (std::size_t i = 0; i + 1 < open.size(); ++i) {
      if (open[i].object)
        path += (path.empty() ? "" : ".") + open[i].lastKey;
      else
        path += "[]";
    }
    return path.empty() ? key : path + "." + key;
  };
  const json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        open.push_back(Frame{event == json::parse_event_t::object_start, {}, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!open.empty()) open.pop_back();
        break;
      case json::parse_event_t::key: {
        Frame& f = open.back();
        f.lastKey = parsed.get<std::string>();
        if (!f.keys.insert(f.lastKey).second)
          throw SceneError{"duplicate key '" + pathTo(f.lastKey) + "' (each key may appear once in an object)"};
        break;
      }
      case json::parse_event_t::value:
        break;
    }
    return true;
  };
  return json::parse(text, callback);
}

void checkKeys(const json& object, const std::string& where, const std::set<std::string>& allowed) {
  if (!object.is_object()) throw SceneError{where + " must be an object"};
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw SceneError{"unknown key '" + where + "." + key + "' (allowed: " + list + ")"};
    }
}

float numberValue(const json& value, const std::string& name) {
  if (!value.is_number()) throw SceneError{name + " must be a number"};
  return toFloat(value.get<double>(), name);
}

double realValue(const json& value, const std::string& name) {
  if (!value.is_number()) throw SceneError{name + " must be a number"};
  const double d = value.get<double>();
  if (!std::isfinite(d)) throw SceneError{name + " must be finite"};
  return d;
}

float number(const json& object, const std::string& where, const char* key, float fallback) {
  if (!object.contains(key)) return fallback;
  return numberValue(object.at(key), keyName(where, key));
}

float positive(const json& object, const std::string& where, const char* key, float fallback) {
  const float v = number(object, where, key, fallback);
  if (!(v > 0.0f)) throw SceneError{keyName(where, key) + " must be > 0"};
  return v;
}

void checkRange(const std::string& name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    throw SceneError{name + " = " + std::to_string(value) + " is out of range (" + std::to_string(lo) + ".." +
                     std::to_string(hi) + ")"};
}

long long wholeNumber(const json& v, const std::string& name, long long lo, long long hi) {
  std::string range = "(";  // appended, not `"(" + ...`: GCC 12 warns falsely (-Wrestrict) on that
  range.append(std::to_string(lo)).append("..").append(std::to_string(hi)).append(")");
  if (v.is_number_unsigned()) {  // nlohmann keeps non-negative literals as uint64
    const auto u = v.get<std::uint64_t>();
    if (u > std::uint64_t(hi < 0 ? 0 : hi) || (lo > 0 && u < std::uint64_t(lo)))
      throw SceneError{name + " = " + std::to_string(u) + " is out of range " + range};
    return (long long)u;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    checkRange(name, i, lo, hi);
    return i;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15) {  // 1e3 or 2.0: a whole number
      if (d < double(lo) || d > double(hi)) {
        std::ostringstream s;
        s << name << " = " << d << " is out of range " << range;
        throw SceneError{s.str()};
      }
      return (long long)d;
    }
  }
  throw SceneError{name + " must be a whole number " + range};
}

int integer(const json& object, const std::string& where, const char* key, int fallback, int lo, int hi) {
  if (!object.contains(key)) return fallback;
  return int(wholeNumber(object.at(key), keyName(where, key), lo, hi));
}

glm::vec3 vec3(const json& object, const std::string& where, const char* key, glm::vec3 fallback) {
  if (!object.contains(key)) return fallback;
  const json& v = object.at(key);
  const std::string name = keyName(where, key);
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
    throw SceneError{name + " must be an array of 3 numbers"};
  return {toFloat(v[0].get<double>(), name), toFloat(v[1].get<double>(), name), toFloat(v[2].get<double>(), name)};
}

Status checkOutputName(const std::string& name, const std::string& where) {
  if (name.empty()) return Error{where + " must not be empty (it names the output files)"};
  if (name.front() == '.')
    return Error{where + " '" + name + "' must not start with '.' (hidden files, parent folders)"};
  for (const char c : name) {
    if (c == '/' || c == '\\')
      return Error{where + " '" + name + "' must be a plain name without folders (outputs go to --out)"};
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return Error{where + " must not contain control characters"};
  }
  if (name.size() > 200) return Error{where + " is longer than 200 characters"};
  return Status::success();
}

std::string outputName(const json& value, const std::string& where) {
  if (!value.is_string()) throw SceneError{where + " must be a string"};
  const std::string name = value.get<std::string>();
  if (Status s = checkOutputName(name, where); !s) throw SceneError{s.error().message};
  return name;
}

Result<std::string> readSceneFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path.string() + ": is a folder, not a scene file"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open scene file"};
  // Read at most the limit (+1 to notice more): a device or a runaway file is refused, not read forever.
  std::string text;
  char chunk[1 << 16];
  while (in && text.size() <= kMaxSceneFileBytes) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, std::size_t(in.gcount()));
  }
  if (in.bad()) return Error{path.string() + ": read error"};
  if (text.size() > kMaxSceneFileBytes)
    return Error{path.string() + ": larger than " + std::to_string(kMaxSceneFileBytes >> 20) +
                 " MiB, too large for a scene file"};
  return text;
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
