#pragma once
/// A one-line progress bar with ETA on stderr when it is a terminal; silent otherwise
/// (batch runs and CI logs stay clean). No Debian package offers one for C++.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace hg::app {

using Clock = std::chrono::steady_clock;
/// Wall-clock seconds from a to b (the commands' phase timings in their metrics).
inline double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

class Progress {
 public:
  Progress(std::string label, long total, bool enabled = isatty(STDERR_FILENO) != 0)
      : m_label(std::move(label)), m_total(total), m_enabled(enabled && total > 0), m_start(Clock::now()) {}
  ~Progress() { finish(); }

  /// `note`: shown after the bar (e.g. the largest seam gap while sewing).
  void update(long done, const std::string& note = {}) {
    if (!m_enabled) return;
    const auto now = Clock::now();
    if (done < m_total && now - m_lastDraw < std::chrono::milliseconds(100)) return;
    m_lastDraw = now;
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    // Past the total (work that ran over its estimate) the bar stays full.
    const double fraction = std::clamp(double(done) / double(m_total), 0.0, 1.0);  // m_total > 0 when enabled
    const double eta = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    constexpr int kWidth = 30;
    const int filled = int(fraction * kWidth + 0.5);
    std::fprintf(stderr, "\r%s [%s%s] %3d%% %ld/%ld  %.1fs elapsed, ETA %.1fs %s", m_label.c_str(),
                 std::string(std::size_t(filled), '#').c_str(), std::string(std::size_t(kWidth - filled), '.').c_str(),
                 int(fraction * 100.0 + 0.5), done, m_total, elapsed, eta, note.c_str());
    std::fflush(stderr);
    m_drawn = true;
  }

  void finish() {
    if (m_drawn) std::fputc('\n', stderr);
    m_drawn = false;
  }

 private:
  std::string m_label;
  long m_total;
  bool m_enabled;
  bool m_drawn = false;
  Clock::time_point m_start;
  Clock::time_point m_lastDraw{};
};

}  // namespace hg::app
