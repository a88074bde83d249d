// Oriented bounding boxes (sim/geometry/Obb.h, sim/kernels/obb.glslh; docs/methods.md section 7):
// the point distance against an exact brute-force reference (closest point on the box's 12
// triangles) per region, the OBB-sphere test, the signed contact, and the fits.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/matrix.hpp>

#include "sim/geometry/Obb.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/RandomFixtures.h"

namespace hg {
namespace {

/// Closest point to p on triangle abc (Ericson, Real-Time Collision Detection 5.1.5),
/// double precision. Degenerate triangles are not supported (the caller skips them).
glm::dvec3 closestOnTriangle(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
  const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const glm::dvec3 bp = p - b;
  const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const glm::dvec3 cp = p - c;
  const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

/// Brute-force reference: the box's surface as 12 triangles (from its corners, in double);
/// the distance is 0 for points inside (decided in the box's own frame, in double).
struct Reference {
  double distance = 0.0;
  glm::dvec3 closest{0.0};  ///< on the surface (also for inside points)
  double surfaceDistance = 0.0;
};

Reference bruteForce(const Obb& box, glm::dvec3 p) {
  std::array<glm::dvec3, 8> c{};
  for (int k = 0; k < 8; ++k) {
    glm::dvec3 x(box.centre);
    for (int a = 0; a < 3; ++a)
      x += ((k >> a) & 1 ? 1.0 : -1.0) * double(box.halfLengths[a]) * glm::dvec3(box.axes[std::size_t(a)]);
    c[std::size_t(k)] = x;
  }
  // Faces: for axis a and side s, the 4 corners with bit a == s, as two triangles.
  Reference ref;
  double best = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 2; ++s) {
      std::array<int, 4> q{};
      int n = 0;
      const int b1 = (a + 1) % 3, b2 = (a + 2) % 3;
      for (int uv : {0, 1, 3, 2}) {  // around the face
        const int k = (s << a) | ((uv & 1) << b1) | (((uv >> 1) & 1) << b2);
        q[std::size_t(n++)] = k;
      }
      for (const std::array<int, 3>& t : {std::array<int, 3>{q[0], q[1], q[2]}, std::array<int, 3>{q[0], q[2], q[3]}}) {
        const glm::dvec3 ta = c[std::size_t(t[0])], tb = c[std::size_t(t[1])], tc = c[std::size_t(t[2])];
        if (glm::length(glm::cross(tb - ta, tc - ta)) < 1e-15) continue;  // a flat box's collapsed sides
        const glm::dvec3 x = closestOnTriangle(p, ta, tb, tc);
        const double d = glm::length(p - x);
        if (d < best) {
          best = d;
          ref.closest = x;
        }
      }
    }
  ref.surfaceDistance = best;
  const glm::dvec3 d = p - glm::dvec3(box.centre);
  bool inside = true;
  for (int a = 0; a < 3; ++a)
    inside = inside && std::abs(glm::dot(d, glm::dvec3(box.axes[std::size_t(a)]))) <= double(box.halfLengths[a]);
  ref.distance = inside ? 0.0 : best;
  return ref;
}

using test::randomRotation;

Obb randomBox(std::mt19937& rng, bool flat = false) {
  std::uniform_real_distribution<float> centre(-1.0f, 1.0f), half(0.01f, 1.0f);
  const glm::mat3 r = randomRotation(rng);
  Obb box;
  box.centre = glm::vec3(centre(rng), centre(rng), centre(rng));
  box.axes = {r[0], r[1], r[2]};
  box.halfLengths = glm::vec3(half(rng), half(rng), flat ? 0.0f : half(rng));
  return box;
}

/// A point whose local coordinates stick out along exactly `outside` axes (chosen at
/// random): |s| < 0.98 L on the others, L (1.02 .. 3) on those.
glm::dvec3 pointInRegion(const Obb& box, int outside, std::mt19937& rng) {
  std::array<int, 3> order{0, 1, 2};
  std::shuffle(order.begin(), order.end(), rng);
  std::uniform_real_distribution<double> in(-0.98, 0.98), out(1.02, 3.0);
  std::bernoulli_distribution sign;
  glm::dvec3 p(box.centre);
  for (int k = 0; k < 3; ++k) {
    const int a = order[std::size_t(k)];
    const double L = double(box.halfLengths[a]);
    const double s = k < outside ? (sign(rng) ? 1.0 : -1.0) * out(rng) * std::max(L, 0.05) : in(rng)*L;
    p += s * glm::dvec3(box.axes[std::size_t(a)]);
  }
  return p;
}

double boxScale(const Obb& box) {
  return std::max({1.0f, glm::length(box.centre), box.halfLengths.x, box.halfLengths.y, box.halfLengths.z});
}

TEST(ObbDistance, MatchesTheTrianglesPerRegion) {
  std::mt19937 rng(17);
  const char* names[4] = {"inside", "face", "edge", "corner"};
  for (bool flat : {false, true}) {
    double worst[4] = {0, 0, 0, 0};
    for (int region = 0; region < 4; ++region) {
      if (flat && region == 0) continue;  // a flat box has no inside
      for (int n = 0; n < 1500; ++n) {
        const Obb box = randomBox(rng, flat);
        const glm::dvec3 p = pointInRegion(box, region, rng);
        const glm::vec3 pf(p);
        const double ref = bruteForce(box, glm::dvec3(pf)).distance;
        const double d = box.distance(pf);
        EXPECT_EQ(float(d),
                  kernels::obbPointDistance(box.centre, box.axes[0], box.axes[1], box.axes[2], box.halfLengths, pf));
        const double err = std::abs(d - ref);
        worst[region] = std::max(worst[region], err / boxScale(box));
        ASSERT_LE(err, 1e-5 * boxScale(box)) << names[region] << " point " << n;
        if (region == 0) {
          EXPECT_EQ(d, 0.0);
        }  // |s| <= 0.98 L: no rounding reaches a face
        if (region > 0) {
          EXPECT_GT(d, 0.0);
        }
      }
    }
    std::printf(
        "[ obb ] %s boxes, 1500 points per region, max |distance - brute force| / scale: inside %.3g, face "
        "%.3g, edge %.3g, corner %.3g\n",
        flat ? "flat (L2 = 0)" : "solid", worst[0], worst[1], worst[2], worst[3]);
  }
}

TEST(ObbDistance, SphereOverlapMatchesBruteForce) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> factor(0.0, 2.0);
  int overlaps = 0, tested = 0;
  for (int n = 0; n < 4000; ++n) {
    const Obb box = randomBox(rng);
    const glm::vec3 c(pointInRegion(box, n % 4, rng));
    const double ref = bruteForce(box, glm::dvec3(c)).distance;
    const double r = factor(rng) * std::max(ref, 0.05);
    if (std::abs(r - ref) < 1e-4 * boxScale(box)) continue;  // too close to call in float
    const bool expected = ref < r;
    EXPECT_EQ(box.overlapsSphere(c, float(r)), expected) << "sphere " << n;
    EXPECT_EQ(
        kernels::obbSphereOverlap(box.centre, box.axes[0], box.axes[1], box.axes[2], box.halfLengths, c, float(r)),
        expected);
    overlaps += expected;
    ++tested;
  }
  std::printf("[ obb ] sphere test: %d spheres, %d overlapping, all equal brute force\n", tested, overlaps);
  EXPECT_GT(overlaps, tested / 4);
  EXPECT_LT(overlaps, tested - tested / 4);
}

TEST(ObbDistance, SignedContact) {
  std::mt19937 rng(29);
  double worstInside = 0.0, worstOutside = 0.0, worstNormal = 0.0;
  for (int n = 0; n < 4000; ++n) {
    const Obb box = randomBox(rng);
    const int region = n % 4;
    const glm::vec3 p(pointInRegion(box, region, rng));
    const glm::vec4 contact = box.signedContact(p);
    const glm::vec3 normal(contact);
    EXPECT_NEAR(glm::length(normal), 1.0f, 1e-5f);
    const glm::dvec3 d = glm::dvec3(p) - glm::dvec3(box.centre);
    const double scale = boxScale(box);
    if (region == 0) {
      // Inside: minus the distance to the nearest face, whose outward normal it returns.
      double margin[3];
      for (int a = 0; a < 3; ++a)
        margin[a] = double(box.halfLengths[a]) - std::abs(glm::dot(d, glm::dvec3(box.axes[std::size_t(a)])));
      const int face = int(std::min_element(margin, margin + 3) - margin);
      EXPECT_LT(contact.w, 0.0f);
      const double err = std::abs(double(contact.w) + margin[face]);
      worstInside = std::max(worstInside, err / scale);
      EXPECT_LE(err, 1e-5 * scale);
      double second = std::numeric_limits<double>::infinity();
      for (int a = 0; a < 3; ++a)
        if (a != face) second = std::min(second, margin[a]);
      if (second - margin[face] > 1e-5 * scale) {
        const double side = glm::dot(d, glm::dvec3(box.axes[std::size_t(face)])) < 0.0 ? -1.0 : 1.0;
        const double nerr = glm::length(glm::dvec3(normal) - side * glm::dvec3(box.axes[std::size_t(face)]));
        worstNormal = std::max(worstNormal, nerr);
        EXPECT_LT(nerr, 1e-5);
      }
      EXPECT_TRUE(box.contains(p));
    } else {
      const Reference ref = bruteForce(box, glm::dvec3(p));
      const double err = std::abs(double(contact.w) - ref.distance);
      worstOutside = std::max(worstOutside, err / scale);
      EXPECT_LE(err, 1e-5 * scale);
      const glm::dvec3 expected = glm::normalize(glm::dvec3(p) - ref.closest);
      const double nerr = glm::length(glm::dvec3(normal) - expected);
      worstNormal = std::max(worstNormal, nerr);
      // Points at least 0.02 L out: the direction is well conditioned.
      EXPECT_LT(nerr, 1e-3) << "point " << n;
      EXPECT_FALSE(box.contains(p));
    }
  }
  std::printf("[ obb ] signed contact: max error / scale inside %.3g, outside %.3g; max normal error %.3g\n",
              worstInside, worstOutside, worstNormal);
}

// ---------------------------------------------------------------------------------------
// Fits

/// Every point is in the box (distance 0 within 1e-5) and every face touches a point
/// (within 1e-4 m): the box is the tightest one with its axes.
void expectContainsAndTight(const Obb& box, const std::vector<glm::vec3>& points) {
  std::array<double, 6> nearest{};
  nearest.fill(std::numeric_limits<double>::infinity());
  for (const glm::vec3& p : points) {
    EXPECT_LE(box.distance(p), 1e-5f);
    const glm::dvec3 d = glm::dvec3(p) - glm::dvec3(box.centre);
    for (int a = 0; a < 3; ++a) {
      const double s = glm::dot(d, glm::dvec3(box.axes[std::size_t(a)]));
      nearest[std::size_t(2 * a)] = std::min(nearest[std::size_t(2 * a)], std::abs(s - double(box.halfLengths[a])));
      nearest[std::size_t(2 * a + 1)] =
          std::min(nearest[std::size_t(2 * a + 1)], std::abs(s + double(box.halfLengths[a])));
    }
  }
  for (int f = 0; f < 6; ++f) EXPECT_LE(nearest[std::size_t(f)], 1e-4) << "face " << f;
  // Orthonormal, right-handed.
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(glm::length(box.axes[std::size_t(a)]), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(box.axes[0], box.axes[1]), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(glm::cross(box.axes[0], box.axes[1]), box.axes[2]), 1.0f, 1e-5f);
}

TEST(ObbFit, RecoversARotatedBox) {
  // A 0.4 x 0.2 x 0.1 m box, randomly rotated and placed: its 8 corners plus random inside
  // points, each with its 7 mirror images through the box's planes (so the covariance is
  // diagonal in the box's frame and PCA's axes are the box's, up to rounding).
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  double worstVolume = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const glm::mat3 r = randomRotation(rng);
    const glm::vec3 centre(u(rng), u(rng), u(rng));
    const glm::vec3 half(0.2f, 0.1f, 0.05f);
    std::vector<glm::vec3> points;
    auto add = [&](glm::vec3 local) {
      for (int m = 0; m < 8; ++m) {
        const glm::vec3 mirrored(m & 1 ? -local.x : local.x, m & 2 ? -local.y : local.y, m & 4 ? -local.z : local.z);
        points.push_back(centre + r * mirrored);
      }
    };
    add(half);  // the 8 corners
    for (int k = 0; k < 100; ++k) add(half * glm::vec3(u(rng), u(rng), u(rng)));
    const Obb box = fitObb(points);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectContainsAndTight(box, points);
    const double rel = std::abs(double(box.volume()) - 0.4 * 0.2 * 0.1) / (0.4 * 0.2 * 0.1);
    worstVolume = std::max(worstVolume, rel);
    EXPECT_LT(rel, 0.01);
    EXPECT_LT(glm::length(box.centre - centre), 1e-4f);
    // Axes: the box's, longest first, up to sign.
    for (int a = 0; a < 3; ++a) EXPECT_GT(std::abs(glm::dot(box.axes[std::size_t(a)], r[a])), 1.0f - 1e-4f);
  }
  std::printf("[ obb ] fitObb on 20 rotated 0.4 x 0.2 x 0.1 boxes (808 points each): max volume error %.3g %%\n",
              100.0 * worstVolume);
}

TEST(ObbFit, ArbitraryCloudsAreContainedTightly) {
  std::mt19937 rng(37);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (int trial = 0; trial < 20; ++trial) {
    const glm::mat3 r = randomRotation(rng);
    const glm::vec3 spread(0.3f, 0.1f, 0.02f + 0.1f * float(trial % 3));
    std::vector<glm::vec3> points;
    for (int k = 0; k < 300; ++k) points.push_back(glm::vec3(0.5f) + r * (spread * glm::vec3(n(rng), n(rng), n(rng))));
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectContainsAndTight(fitObb(points), points);
  }
  // A nearly isotropic set (a cube's lattice): no larger than the axis-aligned box.
  std::vector<glm::vec3> cube;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 5; ++k) cube.emplace_back(0.1f * float(i), 0.1f * float(j), 0.1f * float(k));
  const Obb box = fitObb(cube);
  expectContainsAndTight(box, cube);
  EXPECT_LE(box.volume(), 0.4f * 0.4f * 0.4f * (1.0f + 1e-5f));
}

TEST(ObbFit, InFrameGivesTheExtentsAndEmptyInputAZeroBox) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const glm::mat3 r = randomRotation(rng);
  const std::array<glm::vec3, 3> axes{r[0], r[1], r[2]};
  const glm::vec3 origin(0.3f, -0.2f, 0.1f);
  std::vector<glm::vec3> points;
  for (int k = 0; k < 200; ++k) points.emplace_back(u(rng), 0.5f * u(rng), 2.0f * u(rng));
  const Obb box = fitObbInFrame(points, axes, origin);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(box.axes[std::size_t(a)], axes[std::size_t(a)]);
    float lo = std::numeric_limits<float>::max(), hi = -lo;
    for (const glm::vec3& p : points) {
      const float s = glm::dot(p - origin, axes[std::size_t(a)]);
      lo = std::min(lo, s);
      hi = std::max(hi, s);
    }
    const float mid = glm::dot(box.centre - origin, axes[std::size_t(a)]);
    EXPECT_NEAR(mid - box.halfLengths[a], lo, 1e-6f);
    EXPECT_NEAR(mid + box.halfLengths[a], hi, 1e-6f);
  }
  expectContainsAndTight(box, points);

  const Obb none = fitObbInFrame({}, axes, origin);
  EXPECT_EQ(none.centre, origin);
  EXPECT_EQ(none.halfLengths, glm::vec3(0.0f));
  EXPECT_EQ(none.volume(), 0.0f);
  const Obb empty = fitObb({});
  EXPECT_EQ(empty.centre, glm::vec3(0.0f));
  EXPECT_EQ(empty.halfLengths, glm::vec3(0.0f));
}

}  // namespace
}  // namespace hg
