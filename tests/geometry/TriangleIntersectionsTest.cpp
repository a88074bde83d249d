// Exact intersecting triangle pairs by group (sim/geometry/TriangleIntersections.h): crossing
// triangles of two groups count between them, within a group on its diagonal, neighbours
// sharing a vertex never, and separated triangles not at all.
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "sim/geometry/TriangleIntersections.h"

namespace hg {
namespace {

/// Triangle 0 lies in z = 0 around the origin; triangle 1 pierces it along z; triangle 2
/// shares vertex 0 with triangle 0 and folds through it; triangle 3 is far away.
struct Fixture {
  std::vector<glm::vec4> positions = {
      {-1.0f, -1.0f, 0.0f, 1.0f},  {1.0f, -1.0f, 0.0f, 1.0f},   {0.0f, 1.0f, 0.0f, 1.0f},      // 0: flat
      {0.0f, 0.0f, -1.0f, 1.0f},   {0.2f, 0.0f, 1.0f, 1.0f},    {-0.2f, 0.0f, 1.0f, 1.0f},     // 1: vertical, through 0
      {0.5f, 0.2f, -0.5f, 1.0f},   {0.5f, 0.2f, 0.5f, 1.0f},                                   // 2: with vertex 0
      {10.0f, 10.0f, 10.0f, 1.0f}, {11.0f, 10.0f, 10.0f, 1.0f}, {10.0f, 11.0f, 10.0f, 1.0f}};  // 3: far
  std::vector<std::uint32_t> triangles = {0, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10};
};

TEST(TriangleIntersections, CrossingPairsCountByTheirGroupsAndNeighboursNever) {
  const Fixture f;
  // Groups: triangles 0 and 2 in group 0 (neighbours: they share vertex 0), 1 and 3 in group 1.
  const std::vector<std::uint32_t> groups = {0, 1, 0, 1};
  const IntersectionCensus census = countIntersectionsByGroup(f.positions, f.triangles, groups, 2);
  EXPECT_EQ(census.between(0, 0), 0u);  // 0 and 2 cross but share a vertex
  EXPECT_EQ(census.between(0, 1), 1u);  // 1 pierces 0 (and passes beside 2)
  EXPECT_EQ(census.between(1, 0), census.between(0, 1));
  EXPECT_EQ(census.between(1, 1), 0u);  // 1 and 3 are apart
  EXPECT_EQ(countSelfIntersections(f.positions, f.triangles), 1u);
}

TEST(TriangleIntersections, WithinAGroupOnTheDiagonalAndNonFiniteSkipped) {
  Fixture f;
  const std::vector<std::uint32_t> oneGroup = {0, 0, 0, 0};
  EXPECT_EQ(countIntersectionsByGroup(f.positions, f.triangles, oneGroup, 1).between(0, 0), 1u);
  f.positions[4].x = std::numeric_limits<float>::quiet_NaN();  // triangle 1 has no place now
  EXPECT_EQ(countSelfIntersections(f.positions, f.triangles), 0u);
}

}  // namespace
}  // namespace hg
