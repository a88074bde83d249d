#pragma once
/// `hagoromo batch MANIFEST [--out DIR] [--jobs N] [--resume] [--timeout S] [--retries N]
/// [--shard I/N] [--backend cpu|gpu] [--check] [--slurm [--submit] ...]` and
/// `hagoromo batch merge MANIFEST [--out DIR]`: many drape, snow and skin jobs from a
/// manifest (apps/batch/BatchManifest.h) in a pool of worker processes
/// (apps/batch/BatchRunner.h), with results, a contact sheet and a summary
/// (apps/batch/BatchResults.h), on one machine or as a Slurm job array
/// (apps/batch/SlurmScript.h).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct BatchCommandOptions {
  std::string manifest;
  std::string out;  ///< default out/batch/<manifest name>
  int jobs = 0;
  int threads = 0;
  bool resume = false;
  double timeout = 3600.0;
  int retries = 2;
  std::string shard;
  std::string backend;
  bool check = false;  ///< read and check the manifest, run nothing
  bool quiet = false;
  // --slurm
  bool slurm = false;
  bool submit = false;
  int tasks = 4;
  int cpusPerTask = 4;
  int maxParallel = 0;
  std::string gres, partition, time;
  std::vector<std::string> sbatchOptions;
  // merge
  std::string mergeManifest;
  std::string mergeOut;
};

/// Adds `batch` (and `batch merge`) to `app`, bound to `options`.
CLI::App* addBatchCommand(CLI::App& app, BatchCommandOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runBatchCommand(CLI::App& command, const BatchCommandOptions& options);

}  // namespace hg::app
