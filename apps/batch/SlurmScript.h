#pragma once
/// `hagoromo batch MANIFEST --slurm`: the batch as a Slurm job array (docs/user-guide.md,
/// "Batches on a Slurm cluster"). Task t of N runs `hagoromo batch MANIFEST --out OUT
/// --shard t/N --resume` on its node: the shards are disjoint, each job's folder appears
/// whole or not at all, and submitting the script again resumes whatever did not finish.
/// `hagoromo batch merge MANIFEST --out OUT` then writes the results of all shards.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Result.h"

namespace hg::batch {

struct SlurmOptions {
  std::filesystem::path program;   ///< the hagoromo executable (absolute; the nodes must see it)
  std::filesystem::path manifest;  ///< absolute
  std::filesystem::path out;       ///< absolute, on a file system every node shares
  int tasks = 4;                   ///< array tasks = shards
  int cpusPerTask = 4;             ///< also the workers per task (--jobs)
  int maxParallel = 0;             ///< > 0: at most this many tasks at once (--array=0-N%K)
  std::string gres;                ///< e.g. gpu:1 (then each task's jobs see one GPU)
  std::string partition;
  std::string time;  ///< --time, e.g. 02:00:00
  std::string jobName = "hagoromo-batch";
  std::vector<std::string> sbatchOptions;   ///< further "#SBATCH" lines, each "--key=value"
  std::vector<std::string> batchArguments;  ///< passed on to every task's `hagoromo batch` (--timeout, --backend, ...)
};

/// A shell word in single quotes (every character kept).
std::string shellQuote(const std::string& word);

/// The sbatch script (bash) of the array.
std::string slurmArrayScript(const SlurmOptions& options);

/// The command that submits the merge after every task ended (afterany: also after failed
/// or cancelled tasks, whose finished jobs count).
std::string slurmMergeCommand(const SlurmOptions& options, const std::string& arrayJobId);

/// Runs `command` through the shell; its standard output (trimmed) or an error naming it.
Result<std::string> runCapture(const std::string& command);

}  // namespace hg::batch
