#pragma once
/// Penetration statistics of points (cloth vertices) against a body, from exact signed
/// distances (exactSignedDistances, CGAL: negative inside): how deep into the body the
/// cloth went, as percentiles over all points (a point outside counts as 0).
#include <cstddef>
#include <span>
#include <string>

namespace hg {

struct PenetrationStats {
  std::size_t points = 0;  ///< points measured
  std::size_t inside = 0;  ///< of them strictly inside the body
  float p50 = 0.0f;        ///< m, median penetration depth max(0, -d)
  float p99 = 0.0f;        ///< m, 99th percentile
  float p999 = 0.0f;       ///< m, 99.9th percentile
  float max = 0.0f;        ///< m, deepest
};

/// Percentiles (nearest rank) of max(0, -d) over `signedDistances` (m).
PenetrationStats penetrationStats(std::span<const float> signedDistances);

/// "n inside of N, p50 / p99 / p99.9 / max = a / b / c / d mm".
std::string describe(const PenetrationStats& stats);

}  // namespace hg
