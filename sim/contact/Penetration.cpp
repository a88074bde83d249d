#include "sim/contact/Penetration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace hg {

PenetrationStats penetrationStats(std::span<const float> signedDistances) {
  PenetrationStats stats;
  stats.points = signedDistances.size();
  if (signedDistances.empty()) return stats;
  std::vector<float> depths(signedDistances.size());
  for (std::size_t i = 0; i < depths.size(); ++i) {
    depths[i] = std::max(0.0f, -signedDistances[i]);
    stats.inside += signedDistances[i] < 0.0f;
  }
  std::sort(depths.begin(), depths.end());
  // Nearest rank: the smallest value with at least q of the points at or below it.
  auto percentile = [&](double q) {
    const auto rank = std::size_t(std::ceil(q * double(depths.size())));
    return depths[std::clamp<std::size_t>(rank, 1, depths.size()) - 1];
  };
  stats.p50 = percentile(0.5);
  stats.p99 = percentile(0.99);
  stats.p999 = percentile(0.999);
  stats.max = depths.back();
  return stats;
}

std::string describe(const PenetrationStats& s) {
  char text[160];
  std::snprintf(text, sizeof text, "%zu inside of %zu, p50 / p99 / p99.9 / max = %.2f / %.2f / %.2f / %.2f mm",
                s.inside, s.points, 1e3 * double(s.p50), 1e3 * double(s.p99), 1e3 * double(s.p999),
                1e3 * double(s.max));
  return text;
}

}  // namespace hg
