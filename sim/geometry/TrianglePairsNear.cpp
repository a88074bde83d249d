#include "sim/geometry/TrianglePairsNear.h"

#include <CGAL/box_intersection_d.h>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace hg {

std::vector<std::array<std::uint32_t, 2>> trianglePairsNear(std::span<const glm::vec4> positions,
                                                            std::span<const std::uint32_t> triangles, float radius) {
  assert(triangles.size() % 3 == 0);
  // Box_with_info_d keeps the triangle index; ID_EXPLICIT gives each box its own id, so
  // equal boxes of different triangles are still both reported.
  using Box = CGAL::Box_intersection_d::Box_with_info_d<float, 3, std::uint32_t, CGAL::Box_intersection_d::ID_EXPLICIT>;
  const float grow = 0.5f * radius;
  std::vector<Box> boxes;
  boxes.reserve(triangles.size() / 3);
  for (std::size_t t = 0; 3 * t < triangles.size(); ++t) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    bool finite = true;
    for (int k = 0; k < 3; ++k) {
      const glm::vec4& p = positions[triangles[3 * t + std::size_t(k)]];
      for (int c = 0; c < 3; ++c) {
        finite = finite && std::isfinite(p[c]);
        lo[c] = std::min(lo[c], p[c] - grow);
        hi[c] = std::max(hi[c], p[c] + grow);
      }
    }
    if (finite) boxes.emplace_back(lo, hi, std::uint32_t(t));
  }
  // Sorted as 64-bit keys (first << 32 | second): the order does not depend on CGAL's.
  std::vector<std::uint64_t> keys;
  CGAL::box_self_intersection_d(boxes.begin(), boxes.end(), [&](const Box& a, const Box& b) {
    keys.push_back(std::uint64_t(std::min(a.info(), b.info())) << 32 | std::max(a.info(), b.info()));
  });
  std::sort(keys.begin(), keys.end());
  std::vector<std::array<std::uint32_t, 2>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {std::uint32_t(keys[i] >> 32), std::uint32_t(keys[i])};
  return pairs;
}

}  // namespace hg
