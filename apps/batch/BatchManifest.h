#pragma once
/// The jobs of a batch (`hagoromo batch MANIFEST`), read and checked before anything runs.
///
/// A manifest is JSON Lines, one job per line (blank lines and lines starting with '#' are
/// skipped):
///   {"scene": "scenes/cloth_on_sphere.json", "set": {"cloth.fabric": "denim_11oz"}}
///   {"scene": "scenes/snow/bench_under_roof.json", "kind": "snow", "name": "bench"}
/// keys: "scene" (required; relative to the manifest's folder), "kind" (drape, snow or skin;
/// default drape), "set" (scene keys to override, sim/io/SceneOverrides.h), "name" (a label).
///
/// Or a sweep file, one JSON object that expands a product of parameters into jobs:
///   {"sweep": {"scene": "scenes/x.json", "kind": "drape", "set": {"solver.frames": 30},
///              "vary": {"cloth.fabric": ["denim_11oz", "cotton_jersey"], "scene": ["a.json", "b.json"]}}}
/// "vary" maps keys to lists of values (the key "scene" varies the scene file); every
/// combination is one job, in the order of the keys as sorted by name, the last varying fastest.
///
/// Each job's id is a hash of its full resolved spec (the kind, the scene path as written
/// and the scene's JSON after the overrides), so the same job has the same id in every
/// manifest and every run, and changing the scene file changes the id. Every job's scene is
/// read and parsed with its overrides while the manifest is read: a malformed line, an
/// unknown key, a missing scene, a bad override or two lines with one id is an error naming
/// the line, and nothing runs.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/Result.h"
#include "sim/io/SceneOverrides.h"

namespace hg::batch {

enum class JobKind { Drape, Snow, Skin };

/// "drape", "snow", "skin" (also the hagoromo subcommand that runs it).
const char* jobKindName(JobKind kind);

struct BatchJob {
  std::string id;        ///< 16 hex digits
  std::size_t line = 0;  ///< the manifest line (1-based), or the job's number in a sweep (1-based)
  std::string name;      ///< the user's label; in a sweep the varied values ("fabric=denim_11oz,seed=2")
  JobKind kind = JobKind::Drape;
  std::string scene;                ///< as written in the manifest
  std::filesystem::path scenePath;  ///< resolved against the manifest's folder
  SceneOverrides overrides;
  std::string outputName;  ///< drape: the scene's name (its NAME.png and NAME.json)
};

struct BatchManifest {
  std::filesystem::path path;
  bool sweep = false;
  std::vector<BatchJob> jobs;  ///< in the manifest's order
};

/// The job as its record and the results list it: id, name, line, kind, scene, set.
nlohmann::json jobSpecJson(const BatchJob& job);

/// A manifest holds at most this many jobs (a sweep's product is checked before it is expanded).
inline constexpr std::size_t kMaxBatchJobs = 1000000;

/// Reads, expands and checks a manifest (see the file comment). Errors (ErrorKind::Input)
/// name the file and the line: "jobs.jsonl:3: unknown key 'sceen' (allowed: ...)".
Result<BatchManifest> loadBatchManifest(const std::filesystem::path& path);

/// `--shard i/N`: the i-th of N disjoint slices (0 <= i < N); the jobs at positions p with
/// p mod N == i, so slices differ by at most one job.
struct Shard {
  int index = 0;
  int count = 1;
};
Result<Shard> parseShard(const std::string& text);
bool inShard(std::size_t position, Shard shard);

}  // namespace hg::batch
