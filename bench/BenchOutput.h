#pragma once
// Shared by the benchmark programs: unless the command line names --benchmark_out,
// results go to bench/results/<stem>_<host>.json (named after the machine).
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace hg::bench {

class DefaultOutput {
public:
  /// Copies argv and appends --benchmark_out=<results>/<stem>_<host>.json (JSON format)
  /// when no --benchmark_out was given.
  DefaultOutput(int argc, char** argv, const std::string& stem) : m_args(argv, argv + argc) {
    for (int i = 1; i < argc; ++i) m_explicit |= std::strncmp(argv[i], "--benchmark_out=", 16) == 0;
    if (m_explicit) return;
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    m_path = std::string(HG_BENCH_RESULTS_DIR) + "/" + stem + "_" + host + ".json";
    m_outArg = "--benchmark_out=" + m_path;
    m_args.push_back(m_outArg.data());
    m_args.push_back(m_formatArg.data());
  }
  int* argc() { return &(m_count = int(m_args.size())); }
  char** argv() { return m_args.data(); }
  /// The default file written, or empty when the command line chose one.
  const std::string& path() const { return m_path; }

private:
  std::vector<char*> m_args;
  std::string m_path, m_outArg, m_formatArg = "--benchmark_out_format=json";
  bool m_explicit = false;
  int m_count = 0;
};

}  // namespace hg::bench
