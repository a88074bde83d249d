// The generalised winding number (sim/geometry/WindingNumber.h): the direct sum against the
// analytic values of closed surfaces (1 inside, 0 outside, 1/2 at the centre of a
// hemisphere's opening) and the hierarchical evaluation (Barill et al. 2018) against the
// direct sum on open and closed surfaces, near and far.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/TriangleMesh.h"
#include "sim/geometry/WindingNumber.h"

namespace hg {
namespace {

/// Two overlapping closed parts (a body-like union: a capsule through a box) with the
/// triangles facing +y above `cut` removed from the capsule: a lidless, scan-like soup.
TriangleMesh openSoup(float cut) {
  TriangleMesh capsule = makeCapsule({0.0f, -0.4f, 0.0f}, {0.0f, 0.4f, 0.0f}, 0.15f, 24, 32);
  TriangleMesh open;
  open.positions = capsule.positions;
  for (std::size_t t = 0; t + 2 < capsule.indices.size(); t += 3) {
    const glm::vec3 a = capsule.positions[capsule.indices[t]], b = capsule.positions[capsule.indices[t + 1]],
                    c = capsule.positions[capsule.indices[t + 2]];
    if (std::min({a.y, b.y, c.y}) > cut) continue;  // the lid
    open.indices.insert(open.indices.end(), capsule.indices.begin() + std::ptrdiff_t(t),
                        capsule.indices.begin() + std::ptrdiff_t(t + 3));
  }
  appendMesh(open, makeBox({-0.3f, -0.1f, -0.05f}, {0.3f, 0.1f, 0.05f}, 3));
  return open;
}

std::vector<glm::vec3> randomPoints(glm::vec3 lo, glm::vec3 hi, int count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<glm::vec3> points;
  for (int i = 0; i < count; ++i)
    points.push_back(lo + (hi - lo) * glm::vec3(unit(random), unit(random), unit(random)));
  return points;
}

TEST(WindingNumber, IsOneInsideAClosedSurfaceZeroOutsideAndAHalfAtAHemispheresOpening) {
  const TriangleMesh sphere = makeIcosphere({0.1f, 0.2f, 0.3f}, 0.5f, 3);
  EXPECT_NEAR(windingNumber(sphere, {0.1f, 0.2f, 0.3f}), 1.0, 1e-9);
  EXPECT_NEAR(windingNumber(sphere, {0.4f, 0.2f, 0.3f}), 1.0, 1e-9);
  EXPECT_NEAR(windingNumber(sphere, {0.1f, 0.9f, 0.3f}), 0.0, 1e-9);
  EXPECT_NEAR(windingNumber(sphere, {5.0f, -3.0f, 2.0f}), 0.0, 1e-9);
  // The lower half of a sphere seen from its centre: half of the whole solid angle, up to
  // the triangles cut along the equator (the icosphere's equator is not a line of edges).
  TriangleMesh lower;
  lower.positions = sphere.positions;
  for (std::size_t t = 0; t + 2 < sphere.indices.size(); t += 3) {
    const float y = (sphere.positions[sphere.indices[t]].y + sphere.positions[sphere.indices[t + 1]].y +
                     sphere.positions[sphere.indices[t + 2]].y) /
                    3.0f;
    if (y < 0.2f)
      lower.indices.insert(lower.indices.end(), sphere.indices.begin() + std::ptrdiff_t(t),
                           sphere.indices.begin() + std::ptrdiff_t(t + 3));
  }
  EXPECT_NEAR(windingNumber(lower, {0.1f, 0.2f, 0.3f}), 0.5, 0.03);
  // Reversed triangles count negatively.
  TriangleMesh inverted = sphere;
  for (std::size_t t = 0; t + 2 < inverted.indices.size(); t += 3)
    std::swap(inverted.indices[t], inverted.indices[t + 1]);
  EXPECT_NEAR(windingNumber(inverted, {0.1f, 0.2f, 0.3f}), -1.0, 1e-9);
}

TEST(WindingNumber, TheHierarchyAgreesWithTheDirectSumNearAndFar) {
  for (const float cut : {0.2f, 10.0f}) {  // lidless, then closed (nothing is cut)
    const TriangleMesh soup = openSoup(cut);
    const WindingNumberTree tree(soup);
    ASSERT_EQ(tree.triangleCount(), soup.indices.size() / 3);
    // Points around the body, many within a few mm of its surface, and far ones.
    std::vector<glm::vec3> points = randomPoints({-0.4f, -0.6f, -0.25f}, {0.4f, 0.6f, 0.25f}, 3000, 7);
    for (const glm::vec3& p : randomPoints({-20.0f, -20.0f, -20.0f}, {20.0f, 20.0f, 20.0f}, 200, 8))
      points.push_back(p);
    for (std::size_t v = 0; v < soup.positions.size(); v += 7)
      points.push_back(soup.positions[v] * 1.003f);  // just beside a vertex
    const std::vector<double> fast = tree.at(points);
    ASSERT_EQ(fast.size(), points.size());
    double worst = 0.0;
    int decisionsDiffer = 0, inside = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double direct = windingNumber(soup, points[i]);
      worst = std::max(worst, std::abs(fast[i] - direct));
      inside += direct >= 0.5 ? 1 : 0;
      if (std::abs(direct - 0.5) > 0.01) decisionsDiffer += (fast[i] >= 0.5) != (direct >= 0.5) ? 1 : 0;
    }
    std::printf("[ winding ] %s: %zu triangles, %zu points (%d inside), worst |fast - direct| %.2e\n",
                cut < 1.0f ? "lidless" : "closed", tree.triangleCount(), points.size(), inside, worst);
    EXPECT_LT(worst, 0.01);
    EXPECT_EQ(decisionsDiffer, 0);
    EXPECT_GT(inside, 300);
    EXPECT_EQ(windingNumbers(soup, points), fast);
  }
}

TEST(WindingNumber, AnEmptySoupIsZeroEverywhere) {
  const WindingNumberTree tree(TriangleMesh{});
  EXPECT_EQ(tree.triangleCount(), 0u);
  EXPECT_EQ(tree.at(glm::vec3(0.0f)), 0.0);
}

}  // namespace
}  // namespace hg
