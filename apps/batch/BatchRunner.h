#pragma once
/// Runs a batch (`hagoromo batch MANIFEST`): every job of the manifest (or of one shard of
/// it) in a pool of local worker processes, each a `hagoromo drape|snow|skin` of its own with
/// its own headless GL context.
///
/// OUT/ (default out/batch/<manifest name>) holds
///   jobs/ID/        a job that passed: its outputs, job.json (its record) and log.txt
///   failed/ID/      a job that did not pass (a failed quality gate, an unstable run, a
///                   crash or time-out after its retries), the same files for inspection
///   history.jsonl   one line per job finished (id, status, attempts, host, pid, shard): what ran
///   .work/          the folders of the jobs running now; a job's folder is renamed into
///                   jobs/ or failed/ only when it is complete, so a folder there is whole
///   results.jsonl, results.csv, summary.md, summary.json, contact_sheet*.png
///                   (apps/batch/BatchResults.h; written at the end, or by `batch merge`)
/// A crashed worker (a signal, exit 70), a time-out (--timeout, then SIGTERM and SIGKILL),
/// a GL or output failure is retried up to --retries times; it never stops the batch.
/// --resume skips every job whose record in jobs/ or failed/ is complete (its outputs all
/// there) and final (passed, failed gates, failed simulation or input); the others run.
/// SIGINT or SIGTERM stops the workers, removes the unfinished folders and exits 130 / 143;
/// finished jobs stay, so a resume loses none and runs none twice.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/batch/BatchManifest.h"

namespace hg::batch {

struct BatchOptions {
  std::filesystem::path out;  ///< the batch's folder
  int jobs = 0;               ///< worker processes; 0: one per usable core (app::usableCores)
  int threads = 0;            ///< OpenMP threads per worker; 0: cores / workers (at least 1)
  bool resume = false;
  double timeoutSeconds = 3600.0;  ///< per job and attempt
  int retries = 2;                 ///< further attempts after a crash or time-out
  Shard shard;
  bool sharded = false;           ///< --shard given: results are left to `batch merge`
  std::string backend;            ///< cpu or gpu for every job; empty: each scene's own
  std::filesystem::path program;  ///< the hagoromo executable the workers run
  bool quiet = false;
};

/// The status of a finished job, as results.jsonl spells it.
enum class JobStatus {
  Passed,            ///< exit 0
  FailedGates,       ///< exit 6: outputs written, a quality gate failed
  FailedSimulation,  ///< exit 4: unstable, seams never closed
  FailedInput,       ///< exit 2: a file the scene names is missing or bad
  FailedOutput,      ///< exit 5 (retried)
  FailedGraphics,    ///< exit 3 (retried)
  Crashed,           ///< a signal or exit 70 (retried)
  TimedOut,          ///< past --timeout (retried)
};
const char* jobStatusName(JobStatus status);
/// Whether a job with this status is done (a resume skips it): the same job would end the same way.
bool isFinal(JobStatus status);
/// The status of a worker that exited with `exitCode` (or was killed by a signal).
JobStatus statusOfExit(int exitCode, bool signalled, bool timedOut);

/// The complete record of `job` in out/jobs or out/failed (its job.json, parsed, every
/// output it lists present), or none.
struct JobRecordFound {
  std::filesystem::path folder;
  std::string status;
  bool final = false;
  nlohmann::json record;  ///< job.json
};
std::optional<JobRecordFound> findJobRecord(const std::filesystem::path& out, const BatchJob& job);

/// Runs the batch; returns the process exit code (0: every job of the shard passed; 6: one
/// did not, results written; 1: bad options; 5: OUT not writable; 130/143 interrupted).
int runBatch(const BatchManifest& manifest, const BatchOptions& options);

}  // namespace hg::batch
