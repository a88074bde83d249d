// Snowfall directions and the CPU reference of the shadow-map style exposure passes
// (docs/methods.md section 5) against analytic cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/trigonometric.hpp>

#include "sim/snow/SnowExposure.h"
#include "sim/snow/SnowfallDirections.h"

#include "tests/support/SnowFixtures.h"

namespace hg {
namespace {

TriangleMesh quad(float x0, float x1, float z0, float z1, float y, int n = 1) {
  return test::horizontalQuad(x0, x1, z0, z1, y, n);
}

TriangleMesh merged(const TriangleMesh& a, const TriangleMesh& b) { return test::merged({a, b}); }

using test::directionsFor;

double angleDegrees(const glm::vec3& a, const glm::vec3& b) {
  return glm::degrees(std::acos(std::clamp(double(glm::dot(glm::normalize(a), glm::normalize(b))), -1.0, 1.0)));
}

// ---- snowfall directions ---------------------------------------------------------------

TEST(SnowfallDirections, StratifiedOverTheConeOneDirectionPerBand) {
  for (float cone : {0.0f, 10.0f, 30.0f, 60.0f}) {
    for (int count : {1, 7, 32, 64}) {
      SCOPED_TRACE(::testing::Message() << "cone " << cone << ", " << count << " directions");
      const std::vector<glm::vec3> d = directionsFor(cone, count);
      ASSERT_EQ(d.size(), std::size_t(count));
      const double cosCone = std::cos(glm::radians(double(cone)));
      std::vector<int> perBand(std::size_t(count), 0);
      for (const glm::vec3& v : d) {
        EXPECT_NEAR(glm::length(v), 1.0f, 1e-6f);
        EXPECT_LE(angleDegrees(v, glm::vec3(0, -1, 0)), double(cone) + 1e-3);
        // Band of equal solid angle: (1 - cos angle) / (1 - cos cone) in [k, k + 1) / count.
        if (cone > 0.0f) {
          const double u = (1.0 + double(v.y)) / (1.0 - cosCone);  // cos angle = -y
          ++perBand[std::size_t(std::clamp(int(std::floor(u * count + 1e-4)), 0, count - 1))];
        }
      }
      if (cone > 0.0f) {
        for (int k = 0; k < count; ++k) {
          EXPECT_EQ(perBand[std::size_t(k)], 1) << "band " << k;
        }
      }
    }
  }
}

TEST(SnowfallDirections, MeanIsTheAxisAndWindTiltsIt) {
  // Uniform over the cap: the mean direction lies along the axis. Stratified, 64
  // directions bring it within 1 degree.
  for (float tilt : {0.0f, 20.0f}) {
    SnowfallSettings s;
    s.coneDegrees = 30.0f;
    s.windTiltDegrees = tilt;
    s.wind = glm::vec3(0.0f, 0.5f, 2.0f);  // its part along the fall direction does not count
    const auto d = snowfallDirections(s);
    ASSERT_TRUE(d.ok()) << d.error().message;
    glm::vec3 mean(0.0f);
    for (const glm::vec3& v : *d) mean += v;
    const glm::vec3 axis = snowfallAxis(s);
    const glm::vec3 expected(0.0f, -std::cos(glm::radians(tilt)), std::sin(glm::radians(tilt)));
    EXPECT_LT(angleDegrees(axis, expected), 1e-4);
    EXPECT_LT(angleDegrees(mean, axis), 1.0) << "tilt " << tilt;
  }
}

TEST(SnowfallDirections, SameSeedSameDirections) {
  SnowfallSettings s;
  s.coneDegrees = 25.0f;
  const auto a = snowfallDirections(s), b = snowfallDirections(s);
  s.seed = 2;
  const auto c = snowfallDirections(s);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
}

TEST(SnowfallDirections, BadSettingsNameTheSetting) {
  const auto expectError = [](SnowfallSettings s, const std::string& what) {
    const auto d = snowfallDirections(s);
    ASSERT_FALSE(d.ok()) << what;
    EXPECT_NE(d.error().message.find(what), std::string::npos) << d.error().message;
  };
  SnowfallSettings s;
  s.count = 0;
  expectError(s, "directions");
  s = {};
  s.coneDegrees = -1.0f;
  expectError(s, "cone_degrees");
  s.coneDegrees = std::numeric_limits<float>::quiet_NaN();
  expectError(s, "cone_degrees");
  s = {};
  s.coneDegrees = 50.0f;
  s.windTiltDegrees = 45.0f;
  expectError(s, "below 90");
  s = {};
  s.fall = glm::vec3(0.0f);
  expectError(s, "fall direction");
  s = {};
  s.windTiltDegrees = 10.0f;
  s.wind = glm::vec3(0.0f, -3.0f, 0.0f);
  expectError(s, "wind direction across");
}

// ---- exposure: analytic cases --------------------------------------------------------------

/// Points on a line across z = 0 at height y, from x0 to x1.
std::vector<glm::vec3> pointsAlongX(float x0, float x1, int n, float y) {
  std::vector<glm::vec3> points;
  for (int k = 0; k < n; ++k) points.emplace_back(x0 + (x1 - x0) * float(k) / float(n - 1), y, 0.0f);
  return points;
}

TEST(SnowExposure, OpenPlaneReadsOne) {
  // A 4 m ground alone: every point of it is the first surface hit from every direction.
  const TriangleMesh ground = quad(-2.0f, 2.0f, -2.0f, 2.0f, 0.0f, 8);
  std::vector<glm::vec3> points;
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) points.emplace_back(-1.6f + 0.4f * float(i), 0.0f, -1.6f + 0.4f * float(j));
  for (float cone : {0.0f, 15.0f, 45.0f}) {
    SnowExposureSettings settings;
    settings.texel = 0.02f;
    const auto exposure = snowExposureCpu(ground, points, directionsFor(cone, 64), settings);
    ASSERT_TRUE(exposure.ok()) << exposure.error().message;
    for (std::size_t k = 0; k < points.size(); ++k)
      EXPECT_NEAR((*exposure)[k], 1.0f, 0.01f) << "cone " << cone << ", point " << k;
  }
}

TEST(SnowExposure, RoofedPlaneReadsZeroAndTheRoofOne) {
  // A roof 1 m up, reaching 3 m beyond the measured points on every side (farther than a
  // 60-degree cone's slant from 1 m): nothing reaches the ground below; the roof's top is open.
  const TriangleMesh scene = merged(quad(-4.0f, 4.0f, -4.0f, 4.0f, 0.0f, 4), quad(-4.0f, 4.0f, -4.0f, 4.0f, 1.0f, 4));
  const std::vector<glm::vec3> ground = pointsAlongX(-1.0f, 1.0f, 21, 0.0f), roof = pointsAlongX(-1.0f, 1.0f, 21, 1.0f);
  SnowExposureSettings settings;
  settings.texel = 0.02f;
  const auto below = snowExposureCpu(scene, ground, directionsFor(60.0f, 64), settings);
  const auto above = snowExposureCpu(scene, roof, directionsFor(60.0f, 64), settings);
  ASSERT_TRUE(below.ok() && above.ok());
  for (float e : *below) EXPECT_EQ(e, 0.0f);
  for (float e : *above) EXPECT_EQ(e, 1.0f);
}

/// The analytic exposure at x of the ground under a roof over x < 0 at height h, for
/// directions uniform over a cap of half-angle `cone` around the vertical: a direction at
/// angle a from the vertical and azimuth phi (from +x) reaches (x, 0) iff its backward
/// ray leaves the roof's plane at x - h tan(a) cos(phi) >= 0. For a given a that holds
/// for the azimuths with cos(phi) <= s = x / (h tan a): a fraction 1 - acos(s) / pi.
/// Integrated over cos(a), uniform on [cos(cone), 1] (the cap's solid angle), by the
/// midpoint rule with 20000 steps.
double analyticPenumbra(double x, double h, double coneDegrees) {
  const double cosCone = std::cos(glm::radians(coneDegrees));
  const int steps = 20000;
  double sum = 0.0;
  for (int k = 0; k < steps; ++k) {
    const double c = 1.0 - (double(k) + 0.5) / double(steps) * (1.0 - cosCone);
    const double tanA = std::sqrt(std::max(0.0, 1.0 - c * c)) / c;
    const double reach = h * tanA;
    double fraction;
    if (x >= reach)
      fraction = 1.0;
    else if (x <= -reach)
      fraction = 0.0;
    else
      fraction = 1.0 - std::acos(x / reach) / glm::pi<double>();
    sum += fraction;
  }
  return sum / double(steps);
}

TEST(SnowExposure, PenumbraUnderARoofEdgeMatchesTheAnalyticExposure) {
  // Roof over x < 0 at 1 m (6 m deep in z, 3 m back in x), ground 6 m: under the edge the
  // exposure rises from 0 to 1 across [-h tan(cone), h tan(cone)]. One direction is worth
  // 1 / count of exposure, so the estimate is a staircase around the analytic curve: with
  // 64 and 128 directions every point is within 0.05 of it; with 32 the mean error stays
  // below 0.025 and the worst point within 0.07 (two directions). (The issue asks 0.05
  // from 32 directions: not reached by point sampling of the directions; see the note.)
  const float h = 1.0f;
  const TriangleMesh scene = merged(quad(-3.0f, 3.0f, -3.0f, 3.0f, 0.0f, 4), quad(-3.0f, 0.0f, -3.0f, 3.0f, h, 4));
  for (const float cone : {20.0f, 35.0f}) {
    const float reach = h * std::tan(glm::radians(cone));
    const std::vector<glm::vec3> points = pointsAlongX(-1.2f * reach, 1.2f * reach, 49, 0.0f);
    for (int count : {32, 64, 128}) {
      SnowExposureSettings settings;
      settings.texel = 0.01f;
      const auto exposure = snowExposureCpu(scene, points, directionsFor(cone, count), settings);
      ASSERT_TRUE(exposure.ok()) << exposure.error().message;
      double worst = 0.0, sum = 0.0;
      for (std::size_t k = 0; k < points.size(); ++k) {
        const double error =
            std::abs(double((*exposure)[k]) - analyticPenumbra(double(points[k].x), double(h), double(cone)));
        worst = std::max(worst, error);
        sum += error;
      }
      const double mean = sum / double(points.size());
      std::printf(
          "[ penumbra ] cone %.0f deg, %d directions: |exposure - analytic| mean %.4f, worst %.4f over %zu points\n",
          double(cone), count, mean, worst, points.size());
      if (count >= 64) {
        EXPECT_LE(worst, 0.05) << "cone " << cone << ", " << count << " directions";
      } else {
        EXPECT_LE(mean, 0.025) << "cone " << cone << ", " << count << " directions";
        EXPECT_LE(worst, 0.07) << "cone " << cone << ", " << count << " directions";
      }
    }
    // Beyond the penumbra: fully covered and fully open.
    EXPECT_EQ(analyticPenumbra(-1.01 * reach, h, cone), 0.0);
    EXPECT_EQ(analyticPenumbra(1.01 * reach, h, cone), 1.0);
  }
}

TEST(SnowExposure, SubRaysBringThePenumbraWithinTolerance) {
  // The roof edge of the previous test turned to five headings (the error of a point set
  // depends on the edge's heading): 32 maps with 8 sub-rays each (256 rays traced through
  // 32 depth maps) stay within 0.05 of the analytic exposure at every point and heading;
  // the plain shadow-map test (1 ray) from the same 32 maps is printed beside it.
  const float h = 1.0f;
  for (const float cone : {20.0f, 35.0f}) {
    const float reach = h * std::tan(glm::radians(cone));
    double worstPlain = 0.0, worstRays = 0.0, sumRays = 0.0;
    int samples = 0;
    for (const float heading : {0.0f, 30.0f, 55.0f, 90.0f, 125.0f}) {
      const float c = std::cos(glm::radians(heading)), sn = std::sin(glm::radians(heading));
      const auto turn = [&](glm::vec3 p) { return glm::vec3(c * p.x - sn * p.z, p.y, sn * p.x + c * p.z); };
      TriangleMesh scene = merged(quad(-3.0f, 3.0f, -3.0f, 3.0f, 0.0f, 4), quad(-3.0f, 0.0f, -3.0f, 3.0f, h, 4));
      for (glm::vec3& p : scene.positions) p = turn(p);
      std::vector<glm::vec3> points = pointsAlongX(-1.2f * reach, 1.2f * reach, 49, 0.0f);
      for (glm::vec3& p : points) p = turn(p);
      for (int rays : {1, 8}) {
        SnowExposureSettings settings;
        settings.texel = 0.01f;
        settings.raysPerDirection = rays;
        settings.raySpread = snowRaySpread(cone, 32);
        const auto exposure = snowExposureCpu(scene, points, directionsFor(cone, 32), settings);
        ASSERT_TRUE(exposure.ok()) << exposure.error().message;
        for (std::size_t k = 0; k < points.size(); ++k) {
          const double x = -1.2 * double(reach) + 2.4 * double(reach) * double(k) / 48.0;
          const double error = std::abs(double((*exposure)[k]) - analyticPenumbra(x, double(h), double(cone)));
          if (rays == 1) {
            worstPlain = std::max(worstPlain, error);
          } else {
            worstRays = std::max(worstRays, error);
            sumRays += error;
            ++samples;
            EXPECT_LE(error, 0.05) << "cone " << cone << ", heading " << heading << ", point " << k;
          }
        }
      }
    }
    std::printf(
        "[ penumbra ] cone %.0f deg, 32 maps over 5 headings: worst |exposure - analytic| %.4f with 1 ray, "
        "%.4f with 8 rays (mean %.4f)\n",
        double(cone), worstPlain, worstRays, sumRays / samples);
  }
}

TEST(SnowExposure, DepthMapHoldsTheNearestSurface) {
  // Straight down onto two stacked quads: the upper one's depth where it covers, the
  // lower one's elsewhere, +infinity off the scene.
  const TriangleMesh scene = merged(quad(-1.0f, 1.0f, -1.0f, 1.0f, 0.0f), quad(-1.0f, 0.0f, -1.0f, 1.0f, 0.5f));
  SnowExposureSettings settings;
  settings.texel = 0.1f;
  auto frame = snowMapFrame(glm::vec3(0.0f, -1.0f, 0.0f), scene, {}, settings);
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  EXPECT_EQ(frame->width, 22);
  EXPECT_EQ(frame->height, 22);
  const std::vector<float> depth = renderSnowDepthMap(*frame, scene);
  int upper = 0, lower = 0, empty = 0;
  for (int j = 0; j < frame->height; ++j)
    for (int i = 0; i < frame->width; ++i) {
      const float d = depth[std::size_t(j * frame->width + i)];
      const glm::vec3 centre = (frame->minRight + (float(i) + 0.5f) * frame->texel) * frame->right +
                               (frame->minUp + (float(j) + 0.5f) * frame->texel) * frame->up;
      if (std::abs(centre.x) > 1.0f || std::abs(centre.z) > 1.0f) {
        EXPECT_EQ(d, std::numeric_limits<float>::infinity());
        ++empty;
      } else if (centre.x < 0.0f) {
        EXPECT_FLOAT_EQ(d, -0.5f);  // depth along (0, -1, 0): -y
        ++upper;
      } else {
        EXPECT_FLOAT_EQ(d, 0.0f);
        ++lower;
      }
    }
  EXPECT_EQ(upper, 200);
  EXPECT_EQ(lower, 200);
  EXPECT_EQ(empty, 22 * 22 - 400);
}

TEST(SnowExposure, BadInputIsAnErrorNamingIt) {
  const TriangleMesh ground = quad(-1.0f, 1.0f, -1.0f, 1.0f, 0.0f);
  const std::vector<glm::vec3> points{glm::vec3(0.0f)};
  const std::vector<glm::vec3> down{glm::vec3(0.0f, -1.0f, 0.0f)};
  SnowExposureSettings settings;
  const auto expectError = [](const Result<std::vector<float>>& r, const std::string& what) {
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  };
  expectError(snowExposureCpu(ground, points, {}, settings), "no snowfall directions");
  const std::vector<glm::vec3> nan{glm::vec3(std::numeric_limits<float>::quiet_NaN())};
  expectError(snowExposureCpu(ground, points, nan, settings), "snowfall direction");
  expectError(snowExposureCpu(ground, nan, down, settings), "receiving point");
  TriangleMesh broken = ground;
  broken.indices.back() = 99;
  expectError(snowExposureCpu(broken, points, down, settings), "index out of range");
  settings.texel = 0.0f;
  expectError(snowExposureCpu(ground, points, down, settings), "texel");
  settings.texel = 1e-5f;  // 2 m / 10 um = 200000 texels a side
  expectError(snowExposureCpu(ground, points, down, settings), "too large");
}

}  // namespace
}  // namespace hg
