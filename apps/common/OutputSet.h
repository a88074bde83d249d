#pragma once
/// The outputs of one run, written as a set: all of them or none.
///
/// Every file is first written into a hidden staging folder inside the output folder
/// (`.hagoromo-staging-PID-N/`, the same file system, so moving is a rename) and moved into
/// place only by commit(), after every file was written. A failed write, an error before
/// commit, SIGINT or SIGTERM removes the staging folder (and the output folder when the run
/// created it), so a failed or interrupted run leaves nothing behind: no partial file, no
/// temporary file, no first half of a set next to an old second half.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/Result.h"

namespace hg::app {

class OutputSet {
 public:
  /// Outputs go to `directory` (created when the first file is staged).
  explicit OutputSet(std::filesystem::path directory);
  ~OutputSet();  ///< removes whatever is staged unless commit() succeeded
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Stages the file `name` (a plain file name, or a relative path inside the folder without
  /// '..'): calls `writer` with the path to write it to. An error of the writer comes back
  /// as ErrorKind::Output with its message. Writing a name twice replaces it.
  Status write(const std::string& name, const std::function<Status(const std::filesystem::path&)>& writer);
  /// Stages a text file.
  Status writeText(const std::string& name, std::string_view text);

  /// Moves every staged file into the output folder (replacing older files of the same
  /// names), in the order they were staged. Error (rare: a rename within one folder
  /// failed): the files moved so far are removed again and the rest discarded.
  Status commit();

  std::size_t size() const { return m_names.size(); }
  /// Where each staged file will be (or is, after commit()), in staging order.
  std::vector<std::filesystem::path> finalPaths() const;
  /// finalPaths() as strings (for the metrics' "outputs").
  std::vector<std::string> finalPathStrings() const;
  const std::filesystem::path& directory() const { return m_directory; }

 private:
  void discard();

  std::filesystem::path m_directory;
  std::filesystem::path m_staging;     ///< empty until the first write
  std::filesystem::path m_createdTop;  ///< the outermost folder this run created; empty when it created none
  bool m_committed = false;
  std::vector<std::string> m_names;
};

/// SIGINT and SIGTERM for the whole process: call first thing in main, before any thread
/// starts (OpenMP, the GL driver), so that every thread inherits the blocked signals. A
/// dedicated thread waits for them; on one it removes every staged output (the runs'
/// staging folders, output folders a run created) and exits with 130 (SIGINT) or 143
/// (SIGTERM). No file is half-written by the handler: staging and cleaning take turns.
void installInterruptCleanup();

/// Work the interrupt cleanup does first, on the signal thread, before it removes the
/// staging folders (the batch stops its worker processes here). Call before the work starts.
void addInterruptHook(std::function<void()> hook);
/// A folder the interrupt cleanup removes with everything in it (a batch job's unfinished
/// folder), until releaseScratchFolder.
void registerScratchFolder(const std::filesystem::path& folder);
void releaseScratchFolder(const std::filesystem::path& folder);

/// OpenMP threads that sleep when idle: unless the user set OMP_WAIT_POLICY, sets it to
/// PASSIVE and re-executes the program (libgomp reads it once, before main). With the
/// default (spinning) policy a loaded machine ran the cloth 14x and particle skinning up
/// to 2x slower (bench/RESULTS.md). Call first in main; returns only if the policy is
/// already chosen or the re-execution failed (then the run goes on with the default).
/// Under valgrind, set OMP_WAIT_POLICY yourself (the re-executed program would run
/// outside valgrind).
void ensureSleepingOpenMpThreads(char** argv);

}  // namespace hg::app
