#pragma once
/// GPU time per named pass from GL timestamp queries, for finding where a chain of compute
/// passes spends its time on a real driver (where no GL-aware profiler runs headless).
/// Disabled (every call a no-op) unless constructed enabled; the callers enable it from the
/// environment variable HG_GPU_PASS_TIMES=1. Enabled, each resolve() waits for the GPU.
///
///   timer.begin();  dispatch A;  timer.mark("A");  dispatch B;  timer.mark("B");
///   timer.resolve();   // adds A's and B's GPU time to their totals
///   timer.report("self contact", substeps);   // prints ms per substep, per pass
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gl/Gl.h"

namespace hg::gl {

/// Whether HG_GPU_PASS_TIMES=1 is set.
bool passTimesRequested();

class PassTimer {
 public:
  explicit PassTimer(bool enabled) : m_enabled(enabled) {}
  PassTimer(const PassTimer&) = delete;
  PassTimer& operator=(const PassTimer&) = delete;
  ~PassTimer();

  bool enabled() const { return m_enabled; }
  /// Starts a chain: the next mark's pass begins here.
  void begin();
  /// Ends the pass `name` (a string literal: kept by pointer) at this point of the GPU's command stream.
  void mark(const char* name);
  /// Waits for the chain's queries and adds each pass's time to its total.
  void resolve();
  /// Prints each pass's total in ms per substep (`per`: the substeps), its share, and the sum.
  void report(const char* what, double per) const;
  /// Adds time measured elsewhere (CPU work between the passes, say), in ns.
  void add(const char* name, std::uint64_t ns);
  /// The total of pass `name` so far, ns (0 when never marked or disabled).
  std::uint64_t totalNs(const std::string& name) const;

 private:
  bool m_enabled;
  std::vector<std::pair<const char*, GLuint>> m_pending;        ///< (pass ending here, query); first: the start
  std::vector<std::pair<std::string, std::uint64_t>> m_totals;  ///< ns, in first-seen order
  std::vector<GLuint> m_free;
  GLuint query();
};

}  // namespace hg::gl
