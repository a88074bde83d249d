// kernels/self_contact.glslh: closest points against brute-force sampling, the pair
// correction's separation and friction, the displacement bound and truncation, the query
// radius from the move histogram, and the GPU grid's neighbourhood guarantee.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "sim/kernels/Kernels.h"

namespace hg::kernels {
namespace {

glm::vec3 randomPoint(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  return {u(rng), u(rng), u(rng)};
}

TEST(SelfContactKernel, TriangleClosestPointIsNoFartherThanAnySampledPoint) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const glm::vec3 p = randomPoint(rng), a = randomPoint(rng), b = randomPoint(rng), c = randomPoint(rng);
    const glm::vec3 w = triangleClosestWeights(p, a, b, c);
    EXPECT_NEAR(w.x + w.y + w.z, 1.0f, 1e-5f);
    EXPECT_GE(std::min({w.x, w.y, w.z}), -1e-5f);
    const float found = glm::length(p - (w.x * a + w.y * b + w.z * c));
    float best = 1e30f;
    for (int i = 0; i <= 100; ++i)
      for (int j = 0; i + j <= 100; ++j) {
        const float u = float(i) / 100.0f, v = float(j) / 100.0f;
        best = std::min(best, glm::length(p - ((1.0f - u - v) * a + u * b + v * c)));
      }
    EXPECT_LE(found, best + 1e-5f) << "trial " << trial;
    EXPECT_GE(found, best - 0.03f) << "trial " << trial;  // the sampling's own error
  }
}

TEST(SelfContactKernel, SegmentClosestPointsAreNoFartherThanAnySampledPair) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const glm::vec3 p1 = randomPoint(rng), q1 = randomPoint(rng), p2 = randomPoint(rng);
    // Every fourth pair is parallel.
    const glm::vec3 q2 = trial % 4 == 0 ? p2 + 0.7f * (q1 - p1) : randomPoint(rng);
    const glm::vec4 w = edgeEdgeWeights(p1, q1, p2, q2);
    const float found = glm::length(pairSeparation(w, p1, q1, p2, q2));
    float best = 1e30f;
    for (int i = 0; i <= 200; ++i)
      for (int j = 0; j <= 200; ++j)
        best = std::min(best, glm::length(glm::mix(p1, q1, float(i) / 200.0f) - glm::mix(p2, q2, float(j) / 200.0f)));
    EXPECT_LE(found, best + 1e-5f) << "trial " << trial;
    EXPECT_GE(found, best - 0.02f) << "trial " << trial;
  }
}

TEST(SelfContactKernel, CorrectionBringsTheSeparationToTheThicknessAndFrictionStopsSmallSlides) {
  // A vertex 1 mm above the centroid of a triangle in the plane y = 0; thickness 3 mm.
  const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 0, 1), p(1.0f / 3.0f, 0.001f, 1.0f / 3.0f);
  const glm::vec4 w = vertexTriangleWeights(p, a, b, c);
  EXPECT_NEAR(w.y, -1.0f / 3.0f, 1e-6f);
  const glm::vec4 inverseMass(1.0f, 1.0f, 1.0f, 1.0f);
  const glm::vec3 n(0, 1, 0);
  auto corrected = [&](glm::vec3 relativeMove, float mu) {
    const glm::vec3 d = pairCorrection(w, inverseMass, n, 0.001f, relativeMove, 0.003f, mu);
    return pairSeparation(w, p + inverseMass.x * w.x * d, a + inverseMass.y * w.y * d, b + inverseMass.z * w.z * d,
                          c + inverseMass.w * w.w * d);
  };
  // No slide: the separation along n becomes the thickness.
  EXPECT_NEAR(corrected(glm::vec3(0.0f), 0.5f).y, 0.003f, 1e-7f);
  // A slide of 0.5 mm with mu 0.5 (limit 0.5 * 2 mm = 1 mm) is stopped ...
  glm::vec3 s = corrected(glm::vec3(0.0005f, 0.0f, 0.0f), 0.5f);
  EXPECT_NEAR(s.x, -0.0005f, 1e-7f);
  // ... a slide of 5 mm is shortened by 1 mm; without friction not at all.
  s = corrected(glm::vec3(0.005f, 0.0f, 0.0f), 0.5f);
  EXPECT_NEAR(s.x, -0.001f, 1e-7f);
  EXPECT_NEAR(corrected(glm::vec3(0.005f, 0.0f, 0.0f), 0.0f).x, 0.0f, 1e-7f);
  // Already apart, or all pinned: nothing.
  EXPECT_EQ(pairCorrection(w, inverseMass, n, 0.004f, glm::vec3(0.0f), 0.003f, 0.5f), glm::vec3(0.0f));
  EXPECT_EQ(pairCorrection(w, glm::vec4(0.0f), n, 0.001f, glm::vec3(0.0f), 0.003f, 0.5f), glm::vec3(0.0f));
  // A pinned triangle: only the vertex moves, by the whole 2 mm.
  const glm::vec3 d = pairCorrection(w, glm::vec4(1, 0, 0, 0), n, 0.001f, glm::vec3(0.0f), 0.003f, 0.0f);
  EXPECT_NEAR(w.x * d.y, 0.002f, 1e-7f);
}

TEST(SelfContactKernel, DisplacementIsTruncatedToLessThanHalfTheNearestGap) {
  EXPECT_FLOAT_EQ(displacementBound(0.01f, 0.05f), 0.0045f);
  EXPECT_FLOAT_EQ(displacementBound(0.08f, 0.05f), 0.0225f);
  const glm::vec3 start(1, 2, 3);
  EXPECT_EQ(truncatedPosition(start, start + glm::vec3(0.001f, 0, 0), 0.002f), start + glm::vec3(0.001f, 0, 0));
  const glm::vec3 t = truncatedPosition(start, start + glm::vec3(0, 0.03f, 0.04f), 0.01f);
  EXPECT_NEAR(glm::length(t - start), 0.01f, 1e-6f);
  EXPECT_NEAR(t.z - start.z, 0.008f, 1e-6f);
}

TEST(SelfContactKernel, QueryRadiusComesFromThe99thPercentileBucket) {
  EXPECT_EQ(queryMoveRank(1u), 0u);
  EXPECT_EQ(queryMoveRank(100u), 99u);
  EXPECT_EQ(queryMoveRank(150u), 148u);                // floor(148.5)
  EXPECT_EQ(queryMoveRank(4000000000u), 3960000000u);  // no overflow
  EXPECT_EQ(moveBucket(0.0f), 0u);
  EXPECT_EQ(moveBucket(1.0f), HG_SELF_CONTACT_MOVE_BUCKETS - 1u);
  EXPECT_EQ(moveBucket(std::nanf("")), HG_SELF_CONTACT_MOVE_BUCKETS - 1u);
  const float thickness = 0.003f;
  for (float move : {0.0f, 1e-4f, 2e-3f, 7e-3f}) {
    // The GPU radius (of the move's bucket) is at least the CPU's (of the move) and at most 2.2 buckets above it.
    const float radius = queryRadiusOfBucket(moveBucket(move), thickness);
    const float exact = queryRadiusOfMove(move, thickness);
    EXPECT_GE(radius, exact) << move;
    EXPECT_LE(radius, exact + 2.2f * HG_SELF_CONTACT_MOVE_BUCKET + 1e-7f) << move;
  }
  EXPECT_EQ(queryRadiusOfBucket(HG_SELF_CONTACT_MOVE_BUCKETS - 1u, thickness), HG_SELF_CONTACT_MAX_QUERY_RADIUS);
}

TEST(SelfContactKernel, PairsWithinTheQueryRadiusLieInNeighbouringGridCells) {
  // The GPU's grid (self_contact_prepare.comp): cell = 1.01 (radius + longest edge). A
  // vertex within the radius of a triangle is in a cell next to the triangle centroid's;
  // two edges within it have their midpoints in neighbouring cells.
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const glm::vec3 origin = 3.0f * randomPoint(rng);
    const float edge = 0.02f, radius = 0.01f, cell = 1.01f * (radius + edge);
    const glm::vec3 a = origin, b = a + 0.5f * edge * randomPoint(rng), c = a + 0.5f * edge * randomPoint(rng);
    const glm::vec3 p = a + 0.05f * randomPoint(rng);
    const glm::vec3 w = triangleClosestWeights(p, a, b, c);
    if (glm::length(p - (w.x * a + w.y * b + w.z * c)) >= radius) continue;
    const glm::ivec3 gap = selfContactCell(p, cell) - selfContactCell((a + b + c) / 3.0f, cell);
    EXPECT_LE(glm::max(glm::max(std::abs(gap.x), std::abs(gap.y)), std::abs(gap.z)), 1);
    const glm::vec3 q = p + 0.5f * edge * randomPoint(rng);
    const glm::vec2 st = segmentClosestParameters(a, b, p, q);
    if (glm::length((a + st.x * (b - a)) - (p + st.y * (q - p))) >= radius) continue;
    const glm::ivec3 midGap = selfContactCell(0.5f * (a + b), cell) - selfContactCell(0.5f * (p + q), cell);
    EXPECT_LE(glm::max(glm::max(std::abs(midGap.x), std::abs(midGap.y)), std::abs(midGap.z)), 1);
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(SelfContactKernel, CellHashStaysInTheTableForNegativeCells) {
  for (glm::ivec3 cell : {glm::ivec3(0), glm::ivec3(-1, -7, 3), glm::ivec3(1 << 29, -(1 << 29), 5)})
    EXPECT_LT(selfContactCellHash(cell, 1024u), 1024u);
  EXPECT_NE(selfContactCellHash(glm::ivec3(-1, 0, 0), 1u << 20), selfContactCellHash(glm::ivec3(1, 0, 0), 1u << 20));
}

}  // namespace
}  // namespace hg::kernels
