#pragma once
// Shared by the benchmark programs: unless the command line names --benchmark_out,
// results go to bench/results/<stem>_<host>.json (named after the machine).
//
// The committed results file is never lost to a run that measured nothing or only part of
// the suite: Google Benchmark writes to <file>.partial, and finish() renames it over the
// results file only when benchmarks ran. A run with --benchmark_filter writes
// <stem>_<host>_filtered.json instead, so a partial run never replaces the full one.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace hg::bench {

class DefaultOutput {
 public:
  /// Copies argv and appends --benchmark_out=<results>/<stem>_<host>[_filtered].json.partial
  /// (JSON format) when no --benchmark_out was given.
  DefaultOutput(int argc, char** argv, const std::string& stem) : m_args(argv, argv + argc) {
    bool filtered = false;
    for (int i = 1; i < argc; ++i) {
      m_explicit |= std::strncmp(argv[i], "--benchmark_out=", 16) == 0;
      filtered |= std::strncmp(argv[i], "--benchmark_filter", 18) == 0;
      m_listOnly |= std::strcmp(argv[i], "--benchmark_list_tests") == 0 ||
                    std::strcmp(argv[i], "--benchmark_list_tests=true") == 0;
    }
    if (m_explicit) return;
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    m_path = std::string(HG_BENCH_RESULTS_DIR) + "/" + stem + "_" + host + (filtered ? "_filtered" : "") + ".json";
    m_outArg = "--benchmark_out=" + m_path + ".partial";
    m_args.push_back(m_outArg.data());
    m_args.push_back(m_formatArg.data());
  }
  int* argc() { return &(m_count = int(m_args.size())); }
  char** argv() { return m_args.data(); }

  /// After RunSpecifiedBenchmarks: publishes the default results file when `benchmarksRun`
  /// > 0 and the run wrote results (atomic rename), else discards the partial file and keeps the old results.
  /// Returns false when publishing failed (message printed).
  bool finish(std::size_t benchmarksRun) const {
    if (m_path.empty()) return true;
    const std::filesystem::path partial = m_path + ".partial";
    std::error_code error;
    // Listing counts as "run" for Google Benchmark and leaves an empty file: nothing measured.
    if (benchmarksRun == 0 || m_listOnly || std::filesystem::file_size(partial, error) == 0 || error) {
      std::filesystem::remove(partial, error);
      return true;
    }
    std::filesystem::rename(partial, m_path, error);
    if (error) {
      std::fprintf(stderr, "could not write %s: %s\n", m_path.c_str(), error.message().c_str());
      return false;
    }
    std::printf("results written to %s\n", m_path.c_str());
    return true;
  }

 private:
  std::vector<char*> m_args;
  std::string m_path, m_outArg, m_formatArg = "--benchmark_out_format=json";
  bool m_explicit = false;
  bool m_listOnly = false;
  int m_count = 0;
};

}  // namespace hg::bench
