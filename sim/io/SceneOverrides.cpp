#include "sim/io/SceneOverrides.h"

#include <charconv>

#include "sim/io/SceneJson.h"

namespace hg {

using nlohmann::json;

namespace {

std::vector<std::string> pathParts(const std::string& key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

/// `part` as an array index, or -1 when it is not a plain decimal number.
long arrayIndex(const std::string& part) {
  long index = -1;
  const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), index);
  return ec == std::errc() && end == part.data() + part.size() ? index : -1;
}

Status applyOne(json& document, const SceneOverride& o, const std::string& origin) {
  const std::vector<std::string> parts = pathParts(o.key);
  json* node = &document;
  std::string walked;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool last = i + 1 == parts.size();
    walked += (walked.empty() ? "" : ".") + part;
    if (node->is_array()) {
      const long index = arrayIndex(part);
      if (index < 0 || std::size_t(index) >= node->size())
        return Error{origin + ": override '" + o.key + "': '" + walked + "' is not an index of the array (0.." +
                         std::to_string(node->size()) + ")",
                     ErrorKind::Input};
      node = &(*node)[std::size_t(index)];
    } else {
      if (node->is_null()) *node = json::object();
      if (!node->is_object())
        return Error{origin + ": override '" + o.key + "': '" + walked.substr(0, walked.size() - part.size() - 1) +
                         "' is a " + node->type_name() + ", not an object",
                     ErrorKind::Input};
      node = &(*node)[part];
    }
    if (last) *node = o.value;
  }
  return {};
}

}  // namespace

Result<SceneOverride> parseSceneOverride(const std::string& argument) {
  const std::size_t eq = argument.find('=');
  if (eq == std::string::npos)
    return Error{"--set '" + argument + "': expected KEY=VALUE (e.g. cloth.fabric=denim_11oz)", ErrorKind::CommandLine};
  SceneOverride o;
  o.key = argument.substr(0, eq);
  for (const std::string& part : pathParts(o.key))
    if (part.empty())
      return Error{"--set '" + argument + "': the key has an empty part (keys are dotted: solver.frames)",
                   ErrorKind::CommandLine};
  const std::string text = argument.substr(eq + 1);
  o.value = json::accept(text) ? json::parse(text) : json(text);
  return o;
}

Result<SceneOverrides> parseSceneOverrides(const std::vector<std::string>& arguments) {
  SceneOverrides overrides;
  for (const std::string& a : arguments) {
    auto o = parseSceneOverride(a);
    if (!o) return o.error();
    overrides.push_back(std::move(*o));
  }
  return overrides;
}

Status applySceneOverrides(json& document, const SceneOverrides& overrides, const std::string& origin) {
  if (!overrides.empty() && !document.is_object())
    return Error{origin + ": overrides need a scene that is a JSON object", ErrorKind::Input};
  for (const SceneOverride& o : overrides) {
    if (o.key.empty()) return Error{origin + ": an override with an empty key", ErrorKind::Input};
    if (Status s = applyOne(document, o, origin); !s) return s;
  }
  return {};
}

Result<json> readSceneDocument(const std::string& path, const SceneOverrides& overrides) {
  auto text = scenejson::readSceneFile(path);
  if (!text) return text.error();
  json document;
  try {
    document = scenejson::parseDocument(*text);
  } catch (...) {
    return scenejson::sceneParseError(path);
  }
  if (Status s = applySceneOverrides(document, overrides, path); !s) return s.error();
  return document;
}

Result<std::string> readSceneFileWithOverrides(const std::string& path, const SceneOverrides& overrides) {
  if (overrides.empty()) return scenejson::readSceneFile(path);  // as written: errors keep its line numbers
  auto document = readSceneDocument(path, overrides);
  if (!document) return document.error();
  return document->dump(2);
}

std::vector<std::string> sceneOverrideArguments(const SceneOverrides& overrides) {
  std::vector<std::string> arguments;
  for (const SceneOverride& o : overrides) {
    arguments.push_back("--set");
    arguments.push_back(o.key + "=" + o.value.dump());
  }
  return arguments;
}

}  // namespace hg
