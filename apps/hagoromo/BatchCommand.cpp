#include "apps/hagoromo/BatchCommand.h"

#include <cstdio>
#include <filesystem>

#include <CLI/CLI.hpp>

#include "apps/batch/BatchManifest.h"
#include "apps/batch/BatchResults.h"
#include "apps/batch/BatchRunner.h"
#include "apps/batch/SlurmScript.h"
#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "sim/core/AtomicFile.h"

namespace hg::app {

namespace fs = std::filesystem;

namespace {

fs::path defaultOut(const std::string& manifest, const std::string& out) {
  return out.empty() ? fs::path("out/batch") / fs::path(manifest).stem() : fs::path(out);
}

fs::path selfExecutable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("hagoromo") : self;
}

/// The options every Slurm task passes on to its `hagoromo batch`.
std::vector<std::string> forwardedArguments(const BatchCommandOptions& o) {
  std::vector<std::string> args{"--timeout", std::to_string(o.timeout), "--retries", std::to_string(o.retries)};
  if (!o.backend.empty()) args.insert(args.end(), {"--backend", o.backend});
  if (o.threads > 0) args.insert(args.end(), {"--threads", std::to_string(o.threads)});
  if (o.quiet) args.push_back("--quiet");
  return args;
}

int writeSlurm(const BatchCommandOptions& o, const batch::BatchManifest& manifest, const fs::path& out) {
  batch::SlurmOptions s;
  s.program = selfExecutable();
  s.manifest = fs::absolute(o.manifest).lexically_normal();
  s.out = fs::absolute(out).lexically_normal();
  s.tasks = int(std::min<std::size_t>(std::size_t(o.tasks), manifest.jobs.size()));
  s.cpusPerTask = o.cpusPerTask;
  s.maxParallel = o.maxParallel;
  s.gres = o.gres;
  s.partition = o.partition;
  s.time = o.time;
  s.sbatchOptions = o.sbatchOptions;
  s.batchArguments = forwardedArguments(o);
  std::error_code ec;
  fs::create_directories(s.out / "slurm", ec);
  const fs::path script = s.out / "batch.sbatch";
  if (Status st = writeFileAtomically(script, batch::slurmArrayScript(s)); !st) return fail(st.error());
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  std::printf("wrote %s: %zu jobs in %d array tasks of %d CPUs%s\n", script.string().c_str(), manifest.jobs.size(),
              s.tasks, s.cpusPerTask, s.gres.empty() ? "" : (", " + s.gres).c_str());
  if (!o.submit) {
    std::printf("submit it with: sbatch %s\nthen, after it ends: %s batch merge %s --out %s\n", script.string().c_str(),
                s.program.string().c_str(), s.manifest.string().c_str(), s.out.string().c_str());
    return kExitOk;
  }
  auto array = batch::runCapture("sbatch --parsable " + batch::shellQuote(script.string()));
  if (!array) return fail(array.error());
  const std::string arrayId = array->substr(0, array->find(';'));
  auto merge = batch::runCapture(batch::slurmMergeCommand(s, arrayId));
  if (!merge) return fail(merge.error());
  std::printf("submitted array job %s and its merge, job %s (after every task): results in %s\n", arrayId.c_str(),
              merge->substr(0, merge->find(';')).c_str(), s.out.string().c_str());
  return kExitOk;
}

int runMerge(const BatchCommandOptions& o) {
  auto manifest = batch::loadBatchManifest(o.mergeManifest);
  if (!manifest) return fail(manifest.error());
  const fs::path out = defaultOut(o.mergeManifest, o.mergeOut);
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return fail(Error{out.string() + ": no batch folder there", ErrorKind::Input});
  const auto records = batch::collectBatchResults(*manifest, out);
  if (Status s = batch::writeBatchResults(records, out, o.quiet); !s) return fail(s.error());
  return batch::allPassed(records) ? kExitOk : kExitQualityGate;
}

}  // namespace

CLI::App* addBatchCommand(CLI::App& app, BatchCommandOptions& o) {
  CLI::App* command = app.add_subcommand(
      "batch",
      "Run many drape, snow and skin jobs from a manifest (JSON Lines or a sweep) in parallel worker processes");
  command->add_option("manifest", o.manifest, "Manifest: JSON Lines, one job per line, or a sweep file");
  command->add_option("--out", o.out, "The batch's folder (default out/batch/<manifest name>)")->check(nonEmpty());
  command->add_option("--jobs,-j", o.jobs, "Worker processes (default: one per core)")->check(CLI::Range(1, 1024));
  command->add_option("--threads", o.threads, "OpenMP threads per worker (default: cores / workers)")
      ->check(CLI::Range(1, 1024));
  command->add_flag("--resume", o.resume, "Skip the jobs already finished in --out; run the rest");
  command->add_option("--timeout", o.timeout, "Seconds a job may run before it is stopped (and retried)")
      ->check(CLI::Range(0.1, 1e7));
  command->add_option("--retries", o.retries, "Further attempts after a crash or time-out")->check(CLI::Range(0, 100));
  command->add_option("--shard", o.shard, "Run only the I-th of N disjoint slices of the jobs (0 <= I < N)")
      ->type_name("I/N");
  command->add_option("--backend", o.backend, "Backend of every job (default: each scene's)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_flag("--check", o.check, "Read and check the manifest (every job's scene) and run nothing");
  command->add_flag("--quiet,-q", o.quiet, "Print errors and the summary only");
  command->add_flag("--slurm", o.slurm,
                    "Write OUT/batch.sbatch, a Slurm job array running the shards, instead of running");
  command->add_flag("--submit", o.submit, "With --slurm: submit it (sbatch) and a merge that runs after it");
  command->add_option("--tasks", o.tasks, "With --slurm: array tasks (shards)")->check(CLI::Range(1, 100000));
  command->add_option("--cpus-per-task", o.cpusPerTask, "With --slurm: CPUs (and workers) per task")
      ->check(CLI::Range(1, 1024));
  command->add_option("--max-parallel", o.maxParallel, "With --slurm: at most this many tasks at once")
      ->check(CLI::Range(1, 100000));
  command->add_option("--gres", o.gres, "With --slurm: generic resources per task, e.g. gpu:1");
  command->add_option("--partition", o.partition, "With --slurm: the partition");
  command->add_option("--time", o.time, "With --slurm: time limit per task (HH:MM:SS)");
  command->add_option("--sbatch-option", o.sbatchOptions,
                      "With --slurm: a further #SBATCH line (--key=value); repeatable");
  CLI::App* merge = command->add_subcommand("merge",
                                            "Write the results of a batch run in shards (or resumed): "
                                            "results.jsonl/.csv, summary, contact sheet");
  merge->add_option("manifest", o.mergeManifest, "The batch's manifest")->required();
  merge->add_option("--out", o.mergeOut, "The batch's folder (default out/batch/<manifest name>)")->check(nonEmpty());
  merge->add_flag("--quiet,-q", o.quiet, "Print errors only");
  return command;
}

int runBatchCommand(CLI::App& command, const BatchCommandOptions& o) {
  if (command.get_subcommand("merge")->parsed()) return runMerge(o);
  if (o.manifest.empty()) return failUsage("batch: a manifest is required (or: batch merge MANIFEST)");
  if (o.submit && !o.slurm) return failUsage("--submit: only with --slurm");
  batch::BatchOptions options;
  if (!o.shard.empty()) {
    auto shard = batch::parseShard(o.shard);
    if (!shard) return fail(shard.error());
    options.shard = *shard;
    options.sharded = true;
  }
  auto manifest = batch::loadBatchManifest(o.manifest);
  if (!manifest) return fail(manifest.error());
  const fs::path out = defaultOut(o.manifest, o.out);
  if (o.check) {
    std::printf("%s: %zu jobs, all valid\n", o.manifest.c_str(), manifest->jobs.size());
    return kExitOk;
  }
  if (o.slurm) return writeSlurm(o, *manifest, out);
  options.out = out;
  options.jobs = o.jobs;
  options.threads = o.threads;
  options.resume = o.resume;
  options.timeoutSeconds = o.timeout;
  options.retries = o.retries;
  options.backend = o.backend;
  options.program = selfExecutable();
  options.quiet = o.quiet;
  return batch::runBatch(*manifest, options);
}

}  // namespace hg::app
