#include "apps/batch/BatchRunner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "apps/batch/BatchResults.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/UsableCores.h"
#include "sim/core/AtomicFile.h"

extern char** environ;

namespace hg::batch {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// A worker that does not end within this long after SIGTERM (time-out, interrupt) is killed.
constexpr std::chrono::seconds kTerminateGrace{5};

/// The worker processes alive now, shared with the interrupt hook.
struct Workers {
  std::mutex mutex;
  std::set<pid_t> pids;
  bool stopping = false;  ///< the batch is being interrupted: start no worker, retry none
};
Workers& workers() {
  static Workers* instance = new Workers;  // never destroyed: the signal thread may use it at exit
  return *instance;
}

/// The interrupt hook: SIGTERM to every worker (each removes its staged outputs), a short
/// wait, then SIGKILL for any left, so no worker outlives the batch.
void stopWorkers() {
  Workers& w = workers();
  std::lock_guard lock(w.mutex);
  w.stopping = true;
  for (pid_t pid : w.pids) kill(pid, SIGTERM);
  const auto deadline = Clock::now() + kTerminateGrace;
  std::set<pid_t> left = w.pids;
  while (!left.empty() && Clock::now() < deadline) {
    for (auto it = left.begin(); it != left.end();)
      it = waitpid(*it, nullptr, WNOHANG) != 0 ? left.erase(it) : std::next(it);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (pid_t pid : left) kill(pid, SIGKILL);
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string hostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

/// The environment of a worker: ours, with OMP_NUM_THREADS set unless the user set it.
std::vector<std::string> workerEnvironment(int threads) {
  std::vector<std::string> env;
  const bool userThreads = std::getenv("OMP_NUM_THREADS") != nullptr;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  if (!userThreads) env.push_back("OMP_NUM_THREADS=" + std::to_string(threads));
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

/// An exclusive claim on one job among every batch writing to the same folder (a requeued
/// array task while the old one still runs, two resumes started at once): flock(2) on
/// OUT/.claims/ID, held while the job runs and released when closed or when the process
/// ends, however it ends. On NFS Linux maps flock onto the server's byte-range locks.
class JobClaim {
 public:
  JobClaim() = default;
  JobClaim(JobClaim&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)) {}
  JobClaim& operator=(JobClaim&& other) noexcept {
    if (this != &other) {
      release();
      m_fd = std::exchange(other.m_fd, -1);
      m_path = std::move(other.m_path);
    }
    return *this;
  }
  JobClaim(const JobClaim&) = delete;
  JobClaim& operator=(const JobClaim&) = delete;
  ~JobClaim() { release(); }

  /// The claim, or none when another batch holds it (or the claim file cannot be made).
  static std::optional<JobClaim> take(const fs::path& out, const std::string& id) {
    std::error_code ec;
    fs::create_directories(out / ".claims", ec);
    JobClaim claim;
    claim.m_path = out / ".claims" / id;
    claim.m_fd = open(claim.m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (claim.m_fd < 0 || flock(claim.m_fd, LOCK_EX | LOCK_NB) != 0) return std::nullopt;
    return claim;
  }
  /// Done with the job (its record placed): the file goes, then the lock. A batch that opened
  /// the file before it went and locks it after finds the job's record and skips it.
  void finish() {
    if (m_fd < 0) return;
    std::error_code ec;
    fs::remove(m_path, ec);
    release();
  }

 private:
  void release() {
    if (m_fd >= 0) close(m_fd);
    m_fd = -1;
  }
  int m_fd = -1;
  fs::path m_path;
};

struct Running {
  const BatchJob* job = nullptr;
  JobClaim claim;
  pid_t pid = -1;
  int attempt = 1;
  fs::path work;
  Clock::time_point start;
  Clock::time_point terminatedAt{};
  bool timedOut = false;
  double secondsSoFar = 0.0;  ///< earlier attempts
  std::string started;        ///< UTC
  double maxRssMiB = 0.0;     ///< the worker's peak resident memory (its last attempt)
  double cpuSeconds = 0.0;    ///< user + system, every attempt
};

std::vector<std::string> workerArguments(const BatchJob& job, const BatchOptions& options, const fs::path& work) {
  std::vector<std::string> args{options.program.string(), jobKindName(job.kind), job.scenePath.string()};
  for (const std::string& a : sceneOverrideArguments(job.overrides)) args.push_back(a);
  args.insert(args.end(), {"--out", work.string(), "--quiet"});
  if (!options.backend.empty()) args.insert(args.end(), {"--backend", options.backend});
  return args;
}

/// Starts a worker for `job` in the folder `work` (created here, with its log.txt).
Result<pid_t> startWorker(const BatchJob& job, const BatchOptions& options, const fs::path& work, int threads) {
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec) return Error{work.string() + ": cannot create the job's folder: " + ec.message(), ErrorKind::Output};
  app::registerScratchFolder(work);
  const int log = open((work / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return Error{(work / "log.txt").string() + ": cannot be written", ErrorKind::Output};
  std::vector<std::string> args = workerArguments(job, options, work);
  std::vector<std::string> env = workerEnvironment(threads);
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  const pid_t parent = getpid();
  Workers& w = workers();
  std::lock_guard lock(w.mutex);  // the interrupt hook sees every worker started
  if (w.stopping) {
    close(log);
    return Error{"interrupted", ErrorKind::Output};
  }
  const pid_t pid = fork();
  if (pid == 0) {  // the child: async-signal-safe calls only until execve
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // the worker ends with the batch, however it ends
    if (getppid() != parent) _exit(app::kExitTerminated);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // the batch blocks SIGINT/SIGTERM for its signal thread
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(log);
  if (pid < 0) return Error{"cannot start a worker process (fork failed)", ErrorKind::Output};
  w.pids.insert(pid);
  return pid;
}

/// The last non-empty line of the job's log (the worker's error message).
std::string lastLogLine(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

/// The files of a finished job's folder, relative to it, sorted (job.json is added after).
std::vector<std::string> filesIn(const fs::path& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), folder).string());
  std::sort(files.begin(), files.end());
  return files;
}

json readJson(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  return json::parse(in, nullptr, false);  // discarded (is_discarded) when malformed
}

/// What the job's own outputs say: its metrics (state hash, quality gates) and its picture.
void addOutputsOf(json& record, const BatchJob& job, const fs::path& work) {
  fs::path metrics, picture;
  switch (job.kind) {
    case JobKind::Drape:
      metrics = work / (job.outputName + ".json");
      picture = work / (job.outputName + ".png");
      break;
    case JobKind::Snow:
      metrics = work / "report.json";
      picture = work / "after.png";
      break;
    case JobKind::Skin:
      picture = work / "comparison.png";
      break;
  }
  record["thumbnail"] = fs::exists(picture) ? json(picture.filename().string()) : json(nullptr);
  const json m = metrics.empty() ? json(nullptr) : readJson(metrics);
  if (!m.is_object()) return;
  if (m.contains("state_hash")) record["state_hash"] = m["state_hash"];
  if (m.contains("quality_gates") && m["quality_gates"].is_object()) {
    json values = json::object(), failed = json::array();
    for (const json& g : m["quality_gates"].value("gates", json::array())) {
      values[g.value("name", "")] = g.value("value", json(nullptr));
      if (!g.value("passed", true)) failed.push_back(g.value("name", ""));
    }
    record["gates"] = {{"passed", failed.empty()}, {"failed", failed}, {"values", values}};
  }
  if (m.contains("seconds")) record["job_seconds"] = m["seconds"];
}

/// One line per job placed, appended to OUT/history.jsonl: the audit trail of what ran,
/// when, where and how often. The append holds an exclusive flock on the file: O_APPEND
/// alone keeps lines whole on one machine's file system, but an NFS client appends at the
/// size it last saw; taking the lock makes it fetch the file's size first (Linux maps flock
/// onto NFS byte-range locks), so shards on several nodes append whole lines.
void appendHistory(const fs::path& out, const json& record) {
  const json line = {{"id", record["id"]},
                     {"status", record["status"]},
                     {"attempts", record["attempts"]},
                     {"finished", record["finished"]},
                     {"host", record["host"]},
                     {"pid", getpid()},
                     {"shard", record["shard"]}};
  const std::string text = line.dump() + "\n";
  const int fd = open((out / "history.jsonl").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;                           // the audit trail is a convenience: the job's folder is the record
  const bool locked = flock(fd, LOCK_EX) == 0;  // unlocked if the file system refuses locks
  [[maybe_unused]] const ssize_t written = write(fd, text.data(), text.size());
  if (locked) flock(fd, LOCK_UN);
  close(fd);
}

/// Moves the finished job's folder to jobs/ID or failed/ID (replacing an older record of a
/// job that is run again), its record written last inside it.
Status placeJob(const fs::path& out, const Running& run, JobStatus status, int exitCode, const BatchOptions& options) {
  json record = jobSpecJson(*run.job);
  record["status"] = jobStatusName(status);
  record["exit_code"] = exitCode;
  record["attempts"] = run.attempt;
  record["seconds"] = run.secondsSoFar + std::chrono::duration<double>(Clock::now() - run.start).count();
  record["started"] = run.started;
  record["cpu_seconds"] = run.cpuSeconds;
  record["max_rss_mib"] = run.maxRssMiB;
  record["finished"] = utcNow();
  record["host"] = hostName();
  record["shard"] = std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
  record["backend"] = options.backend.empty() ? json("scene") : json(options.backend);
  if (status != JobStatus::Passed) record["message"] = lastLogLine(run.work / "log.txt");
  addOutputsOf(record, *run.job, run.work);
  std::vector<std::string> files = filesIn(run.work);
  record["outputs"] = files;
  if (Status s = writeFileAtomically(run.work / "job.json", record.dump(2) + "\n"); !s) return s;
  const fs::path final = out / (status == JobStatus::Passed ? "jobs" : "failed") / run.job->id;
  std::error_code ec;
  fs::create_directories(final.parent_path(), ec);
  for (const char* other : {"jobs", "failed"}) {  // an older record of this job (a crash run again)
    const fs::path old = out / other / run.job->id;
    if (!fs::exists(old, ec)) continue;
    const fs::path trash = out / ".work" / (run.job->id + ".old." + std::to_string(getpid()));
    fs::rename(old, trash, ec);
    fs::remove_all(trash, ec);
  }
  fs::rename(run.work, final, ec);
  if (ec) return Error{final.string() + ": cannot move the job's folder there: " + ec.message(), ErrorKind::Output};
  app::releaseScratchFolder(run.work);
  appendHistory(out, record);
  return {};
}

bool interrupted() {
  std::lock_guard lock(workers().mutex);
  return workers().stopping;
}

/// The signal thread is cleaning up and ends the process (exit 130 or 143).
int waitForInterrupt() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

bool retryable(JobStatus status) { return !isFinal(status); }

/// One line per job ended (a batch's log reads well in a file and on a terminal), with the
/// batch's elapsed time and its estimate of the time left.
void printFinished(const Running& run, JobStatus status, std::size_t done, std::size_t total, bool retry,
                   Clock::time_point batchStart) {
  const double s = run.secondsSoFar + std::chrono::duration<double>(Clock::now() - run.start).count();
  const double elapsed = std::chrono::duration<double>(Clock::now() - batchStart).count();
  const double left = done > 0 ? elapsed * double(total - done) / double(done) : 0.0;
  std::printf("[%zu/%zu] %s %-28s %s%s (%.1f s; %.0f s elapsed, ETA %.0f s)\n", done, total, run.job->id.c_str(),
              run.job->name.empty() ? run.job->scene.c_str() : run.job->name.c_str(), jobStatusName(status),
              retry ? ", retrying" : "", s, elapsed, left);
  std::fflush(stdout);
}

/// The jobs of this shard not yet done (every one without --resume).
std::vector<const BatchJob*> jobsToRun(const BatchManifest& manifest, const BatchOptions& options,
                                       std::size_t& skipped) {
  std::vector<const BatchJob*> todo;
  skipped = 0;
  for (std::size_t p = 0; p < manifest.jobs.size(); ++p) {
    if (!inShard(p, options.shard)) continue;
    const BatchJob& job = manifest.jobs[p];
    if (options.resume) {
      auto found = findJobRecord(options.out, job);
      if (found && found->final) {
        ++skipped;
        continue;
      }
    }
    todo.push_back(&job);
  }
  return todo;
}

/// The folders a batch that was killed (SIGKILL, a reboot) left in .work for the job `id`;
/// called with the job's claim held, so no live batch is using them.
void removeStaleWork(const fs::path& out, const std::string& id) {
  std::error_code ec;
  const fs::path work = out / ".work";
  if (!fs::is_directory(work, ec)) return;
  std::vector<fs::path> stale;
  for (const auto& entry : fs::directory_iterator(work, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.substr(0, name.find('.')) == id) stale.push_back(entry.path());
  }
  for (const fs::path& path : stale) fs::remove_all(path, ec);
}

/// Whether OUT already holds finished jobs of this manifest (a run without --resume would replace them).
std::size_t finishedRecords(const BatchManifest& manifest, const BatchOptions& options) {
  std::size_t n = 0;
  for (std::size_t p = 0; p < manifest.jobs.size(); ++p)
    if (inShard(p, options.shard) && findJobRecord(options.out, manifest.jobs[p])) ++n;
  return n;
}

}  // namespace

const char* jobStatusName(JobStatus status) {
  switch (status) {
    case JobStatus::Passed:
      return "passed";
    case JobStatus::FailedGates:
      return "failed_gates";
    case JobStatus::FailedSimulation:
      return "failed_simulation";
    case JobStatus::FailedInput:
      return "failed_input";
    case JobStatus::FailedOutput:
      return "failed_output";
    case JobStatus::FailedGraphics:
      return "failed_graphics";
    case JobStatus::Crashed:
      return "crashed";
    case JobStatus::TimedOut:
      return "timed_out";
  }
  return "crashed";
}

bool isFinal(JobStatus status) {
  return status == JobStatus::Passed || status == JobStatus::FailedGates || status == JobStatus::FailedSimulation ||
         status == JobStatus::FailedInput;
}

JobStatus statusOfExit(int exitCode, bool signalled, bool timedOut) {
  if (timedOut) return JobStatus::TimedOut;
  if (signalled) return JobStatus::Crashed;
  switch (exitCode) {
    case app::kExitOk:
      return JobStatus::Passed;
    case app::kExitQualityGate:
      return JobStatus::FailedGates;
    case app::kExitSimulation:
      return JobStatus::FailedSimulation;
    case app::kExitInput:
      return JobStatus::FailedInput;
    case app::kExitOutput:
      return JobStatus::FailedOutput;
    case app::kExitGraphics:
      return JobStatus::FailedGraphics;
    default:
      return JobStatus::Crashed;
  }
}

std::optional<JobRecordFound> findJobRecord(const fs::path& out, const BatchJob& job) {
  for (const char* where : {"jobs", "failed"}) {
    const fs::path folder = out / where / job.id;
    const json record = readJson(folder / "job.json");
    if (!record.is_object() || record.value("id", "") != job.id || !record.contains("outputs")) continue;
    bool whole = true;
    for (const json& file : record["outputs"])
      whole = whole && file.is_string() && fs::exists(folder / file.get<std::string>());
    if (!whole) continue;
    JobRecordFound found{folder, record.value("status", ""), false, record};
    for (JobStatus s : {JobStatus::Passed, JobStatus::FailedGates, JobStatus::FailedSimulation, JobStatus::FailedInput})
      found.final = found.final || found.status == jobStatusName(s);
    return found;
  }
  return std::nullopt;
}

int runBatch(const BatchManifest& manifest, const BatchOptions& options) {
  const int cores = app::usableCores();
  const int pool = options.jobs > 0 ? options.jobs : cores;
  const int threads = options.threads > 0 ? options.threads : std::max(1, cores / pool);
  if (!options.resume)
    if (const std::size_t n = finishedRecords(manifest, options); n > 0)
      return app::failUsage(options.out.string() + " already holds " + std::to_string(n) +
                            " finished jobs of this manifest: add --resume to go on, or choose another --out");
  std::size_t skipped = 0;
  std::vector<const BatchJob*> todo = jobsToRun(manifest, options, skipped);
  std::error_code ec;
  fs::create_directories(options.out / ".work", ec);
  if (ec)
    return app::fail(
        Error{options.out.string() + ": cannot create the batch folder: " + ec.message(), ErrorKind::Output});
  app::addInterruptHook(stopWorkers);
  const std::size_t total = todo.size();
  if (!options.quiet)
    std::printf("batch %s: %zu jobs%s, %zu to run (%zu done before), %d workers x %d threads -> %s\n",
                manifest.path.string().c_str(), manifest.jobs.size(),
                options.sharded ? (" (shard " + std::to_string(options.shard.index) + "/" +
                                   std::to_string(options.shard.count) + ")")
                                      .c_str()
                                : "",
                total, skipped, pool, threads, options.out.string().c_str());
  std::deque<Running> queue;
  for (const BatchJob* job : todo) {
    Running run;
    run.job = job;
    queue.push_back(std::move(run));
  }
  std::vector<Running> running;
  std::size_t done = 0, passed = 0, elsewhere = 0;
  int exitCode = app::kExitOk;
  const auto timeout = std::chrono::duration<double>(options.timeoutSeconds);
  const Clock::time_point batchStart = Clock::now();
  while (!queue.empty() || !running.empty()) {
    while (!queue.empty() && int(running.size()) < pool) {
      Running run = std::move(queue.front());
      queue.pop_front();
      if (run.attempt == 1) {  // claim the job, or leave it to the batch that holds it
        auto claim = JobClaim::take(options.out, run.job->id);
        const auto found = claim ? findJobRecord(options.out, *run.job) : std::nullopt;
        if (!claim || (found && found->final)) {  // running, or finished meanwhile, in another batch
          if (claim) claim->finish();
          ++elsewhere;
          if (!options.quiet)
            std::printf("[-] %s %s in another batch\n", run.job->id.c_str(), claim ? "finished" : "running");
          continue;
        }
        removeStaleWork(options.out, run.job->id);
        run.claim = std::move(*claim);
      }
      run.work =
          options.out / ".work" / (run.job->id + "." + std::to_string(getpid()) + "." + std::to_string(run.attempt));
      run.start = Clock::now();
      if (run.started.empty()) run.started = utcNow();
      auto pid = startWorker(*run.job, options, run.work, threads);
      if (!pid && interrupted()) return waitForInterrupt();
      if (!pid) return app::fail(pid.error());
      run.pid = *pid;
      running.push_back(std::move(run));
    }
    int status = 0;
    rusage usage{};
    const pid_t ended = wait4(-1, &status, WNOHANG, &usage);
    if (ended > 0) {
      auto it = std::find_if(running.begin(), running.end(), [&](const Running& r) { return r.pid == ended; });
      if (it == running.end()) continue;
      {
        std::lock_guard lock(workers().mutex);
        workers().pids.erase(ended);
      }
      Running run = std::move(*it);
      running.erase(it);
      run.maxRssMiB = double(usage.ru_maxrss) / 1024.0;  // Linux: KiB
      run.cpuSeconds += double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                        1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
      if (interrupted()) return waitForInterrupt();  // the worker was stopped by the interrupt
      const bool signalled = WIFSIGNALED(status);
      const int code = signalled ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
      const JobStatus result = statusOfExit(code, signalled, run.timedOut);
      if (retryable(result) && run.attempt <= options.retries) {
        if (!options.quiet) printFinished(run, result, done, total, true, batchStart);
        fs::remove_all(run.work, ec);
        app::releaseScratchFolder(run.work);
        run.secondsSoFar += std::chrono::duration<double>(Clock::now() - run.start).count();
        ++run.attempt;
        run.timedOut = false;
        queue.push_front(std::move(run));
        continue;
      }
      if (Status s = placeJob(options.out, run, result, code, options); !s) return app::fail(s.error());
      run.claim.finish();
      ++done;
      passed += result == JobStatus::Passed;
      if (result != JobStatus::Passed) exitCode = app::kExitQualityGate;
      if (!options.quiet) printFinished(run, result, done, total, false, batchStart);
      continue;
    }
    const auto now = Clock::now();
    for (Running& run : running) {
      if (!run.timedOut && now - run.start > timeout) {
        run.timedOut = true;
        run.terminatedAt = now;
        kill(run.pid, SIGTERM);
      } else if (run.timedOut && now - run.terminatedAt > kTerminateGrace) {
        kill(run.pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  fs::remove(options.out / ".work", ec);  // when empty (another shard may be using it)
  fs::remove(options.out / ".claims", ec);
  if (!options.quiet) {
    std::printf("%zu of %zu jobs passed\n", passed, done);
    if (elsewhere > 0) std::printf("%zu jobs were left to another batch on %s\n", elsewhere, options.out.c_str());
  }
  if (!options.sharded) {
    const std::vector<json> records = collectBatchResults(manifest, options.out);
    if (Status s = writeBatchResults(records, options.out, options.quiet); !s) return app::fail(s.error());
    // A resumed batch: jobs that failed before count too.
    if (exitCode == app::kExitOk && !allPassed(records)) exitCode = app::kExitQualityGate;
  }
  return exitCode;
}

}  // namespace hg::batch
