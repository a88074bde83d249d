#include "apps/common/OutputSet.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "apps/common/ExitCodes.h"
#include "sim/core/AtomicFile.h"

namespace hg::app {
namespace fs = std::filesystem;

namespace {

/// The staging folders (and output folders the runs created) alive now. Staging a file and
/// the signal thread's cleanup take turns through `mutex`.
struct Registry {
  std::mutex mutex;
  std::set<fs::path> staging;
  std::set<std::pair<fs::path, fs::path>> createdDirectories;  ///< (output folder, outermost folder created)
  std::vector<std::function<void()>> hooks;                    ///< run first on an interrupt
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: the signal thread may use it at exit
  return *instance;
}

std::atomic<unsigned> g_stagingCounter{0};

/// Removes `directory` and its parents up to `top` while they are empty (the output
/// folders a run created and did not fill).
void removeCreated(const fs::path& directory, const fs::path& top) {
  std::error_code ec;
  for (fs::path d = directory;; d = d.parent_path()) {
    if (!fs::is_directory(d, ec) || !fs::is_empty(d, ec) || !fs::remove(d, ec)) break;
    if (d == top || !d.has_parent_path() || d.parent_path() == d) break;
  }
}

bool safeRelativeName(const std::string& name) {
  if (name.empty() || name.front() == '/') return false;
  for (const auto& part : fs::path(name))
    if (part == ".." || part == ".") return false;
  return true;
}

}  // namespace

OutputSet::OutputSet(fs::path directory) : m_directory(directory.empty() ? fs::path(".") : std::move(directory)) {}

OutputSet::~OutputSet() {
  if (!m_committed) discard();
}

Status OutputSet::write(const std::string& name, const std::function<Status(const fs::path&)>& writer) {
  if (!safeRelativeName(name)) return outputError("output name '" + name + "' leaves the output folder");
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (m_committed) return outputError("output set already committed");
  if (m_staging.empty()) {
    std::error_code ec;
    if (!fs::exists(m_directory, ec)) {
      // The outermost folder this run creates: removed again (when empty) if the run fails.
      fs::path top = m_directory;
      while (top.has_parent_path() && top.parent_path() != top && !fs::exists(top.parent_path(), ec))
        top = top.parent_path();
      fs::create_directories(m_directory, ec);
      if (ec) return outputError("cannot create the output folder " + m_directory.string() + ": " + ec.message());
      m_createdTop = top;
      r.createdDirectories.insert({m_directory, top});
    } else if (!fs::is_directory(m_directory, ec)) {
      return outputError("cannot write to " + m_directory.string() + ": it is not a folder");
    }
    fs::path staging = m_directory / (".hagoromo-staging-" + std::to_string(::getpid()) + "-" +
                                      std::to_string(g_stagingCounter.fetch_add(1)));
    fs::create_directory(staging, ec);
    if (ec) return outputError("cannot write to " + m_directory.string() + ": " + ec.message());
    m_staging = std::move(staging);
    r.staging.insert(m_staging);
  }
  const fs::path target = m_staging / name;
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (Status s = writer(target); !s) return s.error().as(ErrorKind::Output);
  if (std::find(m_names.begin(), m_names.end(), name) == m_names.end()) m_names.push_back(name);
  return Status::success();
}

Status OutputSet::writeText(const std::string& name, std::string_view text) {
  return write(name, [&](const fs::path& path) { return writeFileAtomically(path, text); });
}

Status OutputSet::commit() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<fs::path> moved;
  for (const std::string& name : m_names) {
    const fs::path to = m_directory / name;
    std::error_code ec;
    if (to.has_parent_path()) fs::create_directories(to.parent_path(), ec);
    fs::rename(m_staging / name, to, ec);
    if (ec) {
      for (const fs::path& p : moved) fs::remove(p, ec);
      return outputError("cannot move " + name + " into " + m_directory.string() + ": " + ec.message() +
                         " (no output written)");
    }
    moved.push_back(to);
  }
  std::error_code ec;
  if (!m_staging.empty()) fs::remove_all(m_staging, ec);
  r.staging.erase(m_staging);
  r.createdDirectories.erase({m_directory, m_createdTop});
  m_committed = true;
  return Status::success();
}

std::vector<fs::path> OutputSet::finalPaths() const {
  std::vector<fs::path> paths;
  for (const std::string& name : m_names) paths.push_back(m_directory / name);
  return paths;
}

std::vector<std::string> OutputSet::finalPathStrings() const {
  std::vector<std::string> paths;
  for (const fs::path& p : finalPaths()) paths.push_back(p.string());
  return paths;
}

void OutputSet::discard() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::error_code ec;
  if (!m_staging.empty()) {
    fs::remove_all(m_staging, ec);
    r.staging.erase(m_staging);
  }
  if (!m_createdTop.empty()) {
    removeCreated(m_directory, m_createdTop);
    r.createdDirectories.erase({m_directory, m_createdTop});
  }
  m_names.clear();
}

void installInterruptCleanup() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) return;  // signals keep their default action
  std::thread([signals] {
    int received = 0;
    while (sigwait(&signals, &received) != 0) {
    }
    Registry& r = registry();
    r.mutex.lock();  // held until exit: no run stages another file
    for (const auto& hook : r.hooks) hook();
    std::error_code ec;
    for (const fs::path& staging : r.staging) fs::remove_all(staging, ec);
    for (const auto& [directory, top] : r.createdDirectories) removeCreated(directory, top);
    std::fflush(stdout);
    std::_Exit(received == SIGINT ? kExitInterrupted : kExitTerminated);
  }).detach();
}

void addInterruptHook(std::function<void()> hook) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.hooks.push_back(std::move(hook));
}

void registerScratchFolder(const fs::path& folder) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.staging.insert(folder);
}

void releaseScratchFolder(const fs::path& folder) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.staging.erase(folder);
}

void ensureSleepingOpenMpThreads(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;
  char self[4096];
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0 || ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  self[length] = '\0';
  ::execv(self, argv);
  // Not re-executed (no /proc, say): go on with the default policy.
}

}  // namespace hg::app
