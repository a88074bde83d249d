#include "apps/batch/BatchManifest.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/io/SceneJson.h"
#include "sim/scene/DrapeScene.h"
#include "sim/skinning/SkinningRig.h"
#include "sim/snow/SnowSceneJson.h"

namespace hg::batch {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::set<std::string> kLineKeys{"kind", "name", "scene", "set"};
const std::set<std::string> kSweepKeys{"kind", "name", "scene", "set", "vary"};

/// A manifest is read up to this size (a sweep file is small; a million lines fit).
constexpr std::size_t kMaxManifestBytes = std::size_t(512) << 20;

/// FNV-1a, 64 bit: a stable, dependency-free hash of the job's resolved spec (ids only, not
/// security; a collision between two different jobs is reported as a duplicate id).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex16(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

/// What one line or one sweep combination asks for, before its scene is read.
struct JobSpec {
  std::string kind = "drape";
  std::string name;
  std::string scene;
  SceneOverrides overrides;
};

Result<JobKind> jobKindOf(const std::string& name) {
  if (name == "drape") return JobKind::Drape;
  if (name == "snow") return JobKind::Snow;
  if (name == "skin") return JobKind::Skin;
  return Error{"kind '" + name + "' is not one of drape, snow, skin"};
}

Result<std::string> stringKey(const json& object, const char* key) {
  if (!object[key].is_string() || object[key].get<std::string>().empty())
    return Error{std::string("'") + key + "' must be a non-empty string"};
  return object[key].get<std::string>();
}

Status readOverrides(const json& set, SceneOverrides& overrides) {
  if (!set.is_object()) return Error{"'set' must be an object of scene keys (\"cloth.fabric\": \"denim_11oz\")"};
  for (const auto& [key, value] : set.items()) {
    if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos)
      return Error{"'set' key '" + key + "' is not a dotted path of scene keys"};
    overrides.push_back({key, value});
  }
  return {};
}

/// The common keys of a line and of a sweep: kind, name, scene, set.
Status readSpec(const json& object, JobSpec& spec, bool sceneRequired) {
  if (object.contains("kind")) {
    auto kind = stringKey(object, "kind");
    if (!kind) return kind.error();
    spec.kind = *kind;
  }
  if (object.contains("name")) {
    auto name = stringKey(object, "name");
    if (!name) return name.error();
    spec.name = *name;
  }
  if (object.contains("scene")) {
    auto scene = stringKey(object, "scene");
    if (!scene) return scene.error();
    spec.scene = *scene;
  } else if (sceneRequired) {
    return Error{"'scene' is missing (the scene file of the job)"};
  }
  if (object.contains("set"))
    if (Status s = readOverrides(object["set"], spec.overrides); !s) return s;
  return {};
}

Status checkKeysOf(const json& object, const std::set<std::string>& allowed) {
  if (!object.is_object()) return Error{"a job must be a JSON object"};
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return Error{"unknown key '" + key + "' (allowed: " + list + ")"};
    }
  return {};
}

/// Reads the job's scene with its overrides through the scene reader of its kind (every
/// key checked) and gives the job its id.
Result<BatchJob> resolveJob(const JobSpec& spec, const fs::path& manifestFolder, std::size_t line) {
  auto kind = jobKindOf(spec.kind);
  if (!kind) return kind.error();
  BatchJob job;
  job.line = line;
  job.name = spec.name;
  job.kind = *kind;
  job.scene = spec.scene;
  job.scenePath = (manifestFolder / spec.scene).lexically_normal();
  job.overrides = spec.overrides;
  auto document = readSceneDocument(job.scenePath.string(), job.overrides);
  if (!document) return document.error();
  // Compact, keys sorted: the text the reader checks is also the canonical form the id hashes.
  const std::string text = document->dump();
  switch (job.kind) {
    case JobKind::Drape: {
      auto scene = parseDrapeScene(text, job.scenePath.string());
      if (!scene) return scene.error();
      job.outputName = scene->name;
      break;
    }
    case JobKind::Snow:
      if (auto scene = parseSnowScene(text, job.scenePath); !scene) return scene.error();
      break;
    case JobKind::Skin:
      if (auto rig = loadSkinningRig(job.scenePath, job.overrides); !rig) return rig.error();
      break;
  }
  job.id = hex16(fnv1a(std::string(jobKindName(job.kind)) + "\n" + fs::path(spec.scene).lexically_normal().string() +
                       "\n" + text));
  return job;
}

Result<std::string> readManifestText(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error{path.string() + ": is a folder, not a manifest"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open the manifest"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{path.string() + ": read error"};
  if (text.str().size() > kMaxManifestBytes)
    return Error{path.string() + ": larger than " + std::to_string(kMaxManifestBytes >> 20) + " MiB"};
  return text.str();
}

/// A single JSON object with the key "sweep" (a JSON Lines manifest has one object per line).
bool isSweep(const std::string& text, json& document) {
  try {
    document = scenejson::parseDocument(text);
  } catch (...) {
    return false;
  }
  return document.is_object() && document.contains("sweep");
}

/// The combinations of a sweep, as specs numbered from 1.
Result<std::vector<JobSpec>> expandSweep(const json& sweep) {
  if (Status s = checkKeysOf(sweep, kSweepKeys); !s) return s.error().prefixed("sweep: ");
  JobSpec base;
  if (Status s = readSpec(sweep, base, false); !s) return s.error().prefixed("sweep: ");
  std::vector<std::pair<std::string, std::vector<json>>> axes;
  std::size_t combinations = 1;
  if (sweep.contains("vary")) {
    if (!sweep["vary"].is_object()) return Error{"sweep: 'vary' must be an object of key: [values]"};
    for (const auto& [key, values] : sweep["vary"].items()) {
      if (!values.is_array() || values.empty())
        return Error{"sweep: 'vary." + key + "' must be a non-empty array of values"};
      if (key == "scene")
        for (const json& v : values)
          if (!v.is_string()) return Error{"sweep: 'vary.scene' must list scene file names"};
      if (combinations > kMaxBatchJobs / values.size())
        return Error{"sweep: more than " + std::to_string(kMaxBatchJobs) + " combinations"};
      combinations *= values.size();
      axes.emplace_back(key, std::vector<json>(values.begin(), values.end()));
    }
  }
  if (base.scene.empty() && std::none_of(axes.begin(), axes.end(), [](const auto& a) { return a.first == "scene"; }))
    return Error{"sweep: 'scene' is missing (or vary it: \"vary\": {\"scene\": [...]})"};
  std::vector<JobSpec> specs;
  specs.reserve(combinations);
  for (std::size_t c = 0; c < combinations; ++c) {
    JobSpec spec = base;
    std::string label;
    std::size_t rest = c;
    std::vector<std::size_t> choice(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {  // the last axis varies fastest
      choice[a] = rest % axes[a].second.size();
      rest /= axes[a].second.size();
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const auto& [key, values] = axes[a];
      const json& value = values[choice[a]];
      if (key == "scene")
        spec.scene = value.get<std::string>();
      else
        spec.overrides.push_back({key, value});
      const std::string shortKey = key.substr(key.find_last_of('.') + 1);
      label +=
          (label.empty() ? "" : ",") + shortKey + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    }
    spec.name = base.name.empty() ? label : base.name + (label.empty() ? "" : ":" + label);
    specs.push_back(std::move(spec));
  }
  return specs;
}

/// The lines of a JSON Lines manifest as specs; `lines` gets each spec's line number.
Result<std::vector<JobSpec>> readLines(const std::string& text, const std::string& origin,
                                       std::vector<std::size_t>& lines) {
  std::vector<JobSpec> specs;
  std::istringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::string where = origin + ":" + std::to_string(number) + ": ";
    json object;
    try {
      object = scenejson::parseDocument(line);
    } catch (...) {
      return scenejson::sceneParseError(where.substr(0, where.size() - 2));
    }
    if (Status s = checkKeysOf(object, kLineKeys); !s) return s.error().prefixed(where);
    JobSpec spec;
    if (Status s = readSpec(object, spec, true); !s) return s.error().prefixed(where);
    if (specs.size() >= kMaxBatchJobs) return Error{where + "more than " + std::to_string(kMaxBatchJobs) + " jobs"};
    specs.push_back(std::move(spec));
    lines.push_back(number);
  }
  return specs;
}

}  // namespace

const char* jobKindName(JobKind kind) {
  switch (kind) {
    case JobKind::Drape:
      return "drape";
    case JobKind::Snow:
      return "snow";
    case JobKind::Skin:
      return "skin";
  }
  return "drape";
}

json jobSpecJson(const BatchJob& job) {
  json set = json::object();
  for (const SceneOverride& o : job.overrides) set[o.key] = o.value;
  return {{"id", job.id},       {"name", job.name}, {"line", job.line}, {"kind", jobKindName(job.kind)},
          {"scene", job.scene}, {"set", set}};
}

Result<BatchManifest> loadBatchManifest(const fs::path& path) {
  auto text = readManifestText(path);
  if (!text) return text.error();
  BatchManifest manifest;
  manifest.path = path;
  const std::string origin = path.string();
  std::vector<std::size_t> lines;
  json document;
  Result<std::vector<JobSpec>> specs = std::vector<JobSpec>{};
  if (isSweep(*text, document)) {
    manifest.sweep = true;
    specs = expandSweep(document["sweep"]);
    if (!specs) return specs.error().prefixed(origin + ": ");
    for (std::size_t i = 0; i < specs->size(); ++i) lines.push_back(i + 1);
  } else {
    specs = readLines(*text, origin, lines);
    if (!specs) return specs.error();
  }
  if (specs->empty()) return Error{origin + ": no jobs (one JSON object per line, or a sweep)"};
  std::map<std::string, std::size_t> lineOfId;
  const fs::path folder = path.parent_path();
  const char* unit = manifest.sweep ? " (sweep job " : ":";
  for (std::size_t i = 0; i < specs->size(); ++i) {
    const std::string where =
        origin + unit + std::to_string(lines[i]) + (manifest.sweep ? ", " + (*specs)[i].name + "): " : ": ");
    auto job = resolveJob((*specs)[i], folder, lines[i]);
    if (!job) return job.error().prefixed(where);
    if (auto [it, added] = lineOfId.emplace(job->id, lines[i]); !added)
      return Error{where + "the same job as " + (manifest.sweep ? "sweep job " : "line ") + std::to_string(it->second) +
                   " (id " + job->id + "): remove one, or tell them apart with a key in 'set'"};
    manifest.jobs.push_back(std::move(*job));
  }
  return manifest;
}

Result<Shard> parseShard(const std::string& text) {
  Shard shard;
  const std::size_t slash = text.find('/');
  const auto number = [](const std::string& s, int& value) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count) || shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    return Error{"--shard '" + text + "': expected I/N with 0 <= I < N (e.g. 0/4)", ErrorKind::CommandLine};
  return shard;
}

bool inShard(std::size_t position, Shard shard) {
  return position % std::size_t(shard.count) == std::size_t(shard.index);
}

}  // namespace hg::batch
