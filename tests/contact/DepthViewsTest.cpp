// Depth views of a body, CPU reference (sim/contact/DepthViews.h): the view boxes, and
// rasterized depths, normals and velocities against analytic spheres, tori and boxes;
// option and input validation. The GPU renderer is checked against this one in
// DepthViewsGLTest.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <utility>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/contact/DepthViews.h"

namespace hg {
namespace {

const std::vector<DepthViewDirection> kAll{DepthViewDirection::Top,   DepthViewDirection::Front,
                                           DepthViewDirection::Back,  DepthViewDirection::Left,
                                           DepthViewDirection::Right, DepthViewDirection::Bottom};

/// The centre ray of texel (i, j) of a view: its origin on the image plane.
glm::dvec3 rayOrigin(const kernels::DepthView& v, int i, int j) {
  const double h = v.origin.w;
  return glm::dvec3(v.origin) + h * (i + 0.5) * glm::dvec3(v.right) + h * (j + 0.5) * glm::dvec3(v.up);
}

std::size_t texelIndex(const kernels::DepthView& v, int k, int i, int j) {
  return std::size_t(v.texels.x) + (std::size_t(k) * std::size_t(v.up.w) + std::size_t(j)) * std::size_t(v.right.w) +
         std::size_t(i);
}

/// Number of layers of texel (i, j) holding a surface.
int crossings(const DepthViewImages& images, const kernels::DepthView& v, int i, int j) {
  int count = 0;
  for (int k = 0; k < int(v.texels.y); ++k)
    if (images.normalDepth[texelIndex(v, k, i, j)].w < HG_NO_SURFACE_DEPTH) ++count;
  return count;
}

/// Edge-manifold check: every directed edge appears once and its reverse once (closed,
/// consistently oriented), and the enclosed volume is positive (outward).
void expectClosedOutward(const TriangleMesh& mesh, double expectedVolume, double volumeTolerance) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  double volume = 0.0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t a = mesh.indices[3 * t], b = mesh.indices[3 * t + 1], c = mesh.indices[3 * t + 2];
    ++directed[{a, b}];
    ++directed[{b, c}];
    ++directed[{c, a}];
    volume += glm::dot(glm::dvec3(mesh.positions[a]),
                       glm::cross(glm::dvec3(mesh.positions[b]), glm::dvec3(mesh.positions[c]))) /
              6.0;
  }
  int bad = 0;
  for (const auto& [edge, count] : directed)
    if (count != 1 || directed.count({edge.second, edge.first}) != 1 || directed.at({edge.second, edge.first}) != 1)
      ++bad;
  EXPECT_EQ(bad, 0) << "edges that are not shared by exactly two opposite half-edges";
  EXPECT_NEAR(volume, expectedVolume, volumeTolerance);
  ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t a = mesh.indices[3 * t], b = mesh.indices[3 * t + 1], c = mesh.indices[3 * t + 2];
    const glm::vec3 face = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
    EXPECT_GT(glm::dot(face, mesh.normals[a] + mesh.normals[b] + mesh.normals[c]), 0.0f) << "triangle " << t;
  }
}

TEST(DepthViews, NamesRoundTrip) {
  for (DepthViewDirection d : kAll) {
    auto parsed = parseDepthViewDirection(depthViewName(d));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, d);
  }
  auto bad = parseDepthViewDirection("sideways");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("sideways"), std::string::npos);
}

TEST(DepthViews, OptionsAreValidated) {
  EXPECT_TRUE(DepthViewOptions{}.validate());
  auto expectError = [](DepthViewOptions o, const char* word) {
    const Status s = o.validate();
    ASSERT_FALSE(s) << word;
    EXPECT_NE(s.error().message.find(word), std::string::npos) << s.error().message;
  };
  DepthViewOptions o;
  o.texelSize = 0.0f;
  expectError(o, "texelSize");
  o.texelSize = std::numeric_limits<float>::quiet_NaN();
  expectError(o, "texelSize");
  o.texelSize = std::numeric_limits<float>::infinity();
  expectError(o, "texelSize");
  o = {};
  o.layers = 0;
  expectError(o, "layers");
  o.layers = HG_MAX_DEPTH_LAYERS + 1;
  expectError(o, "layers");
  o = {};
  o.margin = -0.01f;
  expectError(o, "margin");
  o = {};
  o.directions.clear();
  expectError(o, "directions");
  o.directions = {DepthViewDirection::Top, DepthViewDirection::Front, DepthViewDirection::Top};
  expectError(o, "twice");
  // The texel guard.
  o = {};
  o.texelSize = 0.001f;
  o.maxTexelsPerView = 1000;
  auto setup = makeDepthViewSetup(glm::vec3(0.0f), glm::vec3(1.0f), o);
  ASSERT_FALSE(setup);
  EXPECT_NE(setup.error().message.find("maxTexelsPerView"), std::string::npos);
}

TEST(DepthViews, ViewsCoverTheGrownBox) {
  DepthViewOptions o;
  o.directions = kAll;
  o.texelSize = 0.01f;
  o.layers = 3;
  o.margin = 0.05f;
  const glm::vec3 lo(-0.2f, 0.1f, -0.33f), hi(0.41f, 1.7f, 0.12f);
  auto setup = makeDepthViewSetup(lo, hi, o);
  ASSERT_TRUE(setup) << setup.error().message;
  ASSERT_EQ(setup->views.size(), 6u);
  EXPECT_EQ(setup->layers, 3);
  EXPECT_FLOAT_EQ(setup->texelSize(), 0.01f);
  std::size_t offset = 0;
  for (std::size_t v = 0; v < 6; ++v) {
    const kernels::DepthView& view = setup->views[v];
    SCOPED_TRACE(std::string(depthViewName(setup->directions[v])));
    const DepthViewAxes axes = depthViewAxes(setup->directions[v]);
    EXPECT_EQ(glm::vec3(view.right), axes.right);
    EXPECT_EQ(glm::vec3(view.up), axes.up);
    EXPECT_EQ(glm::vec3(view.forward), axes.forward);
    EXPECT_EQ(glm::cross(axes.right, axes.up), -axes.forward);
    EXPECT_EQ(view.texels.x, offset);
    EXPECT_EQ(view.texels.y, 3u);
    offset += std::size_t(view.right.w) * std::size_t(view.up.w) * 3;
    // Every corner of the grown box projects into the image and the depth range, and
    // the image is no more than one texel larger than the box.
    double uMax = 0, vMax = 0, dMax = 0;
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 p((c & 1) ? hi.x + 0.05f : lo.x - 0.05f, (c & 2) ? hi.y + 0.05f : lo.y - 0.05f,
                        (c & 4) ? hi.z + 0.05f : lo.z - 0.05f);
      const glm::vec3 d = p - glm::vec3(view.origin);
      const float u = glm::dot(d, glm::vec3(view.right)), w = glm::dot(d, glm::vec3(view.up)),
                  depth = glm::dot(d, glm::vec3(view.forward));
      EXPECT_GE(u, -1e-6f);
      EXPECT_GE(w, -1e-6f);
      EXPECT_GE(depth, -1e-6f);
      uMax = std::max(uMax, double(u));
      vMax = std::max(vMax, double(w));
      dMax = std::max(dMax, double(depth));
    }
    EXPECT_LE(uMax, view.right.w * 0.01 + 1e-6);
    EXPECT_GT(uMax, (view.right.w - 1) * 0.01);
    EXPECT_LE(vMax, view.up.w * 0.01 + 1e-6);
    EXPECT_GT(vMax, (view.up.w - 1) * 0.01);
    EXPECT_NEAR(dMax, view.forward.w, 1e-6);
  }
  EXPECT_EQ(setup->texelCount(), offset);
}

struct SphereCase {
  glm::vec3 center{0.05f, 1.1f, -0.02f};
  float radius = 0.3f;
};

// Icosphere (subdivisions 5) against the analytic ray-sphere crossings from all six views.
TEST(DepthViews, SphereMatchesTheAnalyticCrossings) {
  const SphereCase s;
  const TriangleMesh mesh = makeIcosphere(s.center, s.radius, 5);
  DepthViewOptions o;
  o.directions = kAll;
  o.texelSize = 0.005f;
  o.layers = 4;
  auto setup = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup) << setup.error().message;
  auto images = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(images) << images.error().message;
  // The faceted sphere lies in the shell [R - delta, R]: delta = max over faces of
  // R - (distance of the face's plane from the centre) (~R (1 - cos(edge angle / sqrt 3))).
  double delta = 0.0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
        c(mesh.positions[mesh.indices[3 * t + 2]]);
    const glm::dvec3 n = glm::normalize(glm::cross(b - a, c - a));
    delta = std::max(delta, s.radius - glm::dot(n, a - glm::dvec3(s.center)));
  }
  std::printf("[ sphere   ] shell thickness delta = %.3g m\n", delta);
  EXPECT_LT(delta, 2e-4);
  const double h = o.texelSize, R = s.radius;
  for (std::size_t vi = 0; vi < setup->views.size(); ++vi) {
    const kernels::DepthView& v = setup->views[vi];
    SCOPED_TRACE(std::string(depthViewName(setup->directions[vi])));
    int inside = 0, missed = 0, wrongCount = 0, badDepth = 0, badNormal = 0;
    double worstDepth = 0.0, worstAngle = 0.0;
    for (int j = 0; j < int(v.up.w); ++j) {
      for (int i = 0; i < int(v.right.w); ++i) {
        const glm::dvec3 o0 = rayOrigin(v, i, j), f(v.forward);
        const glm::dvec3 toCentre = glm::dvec3(s.center) - o0;
        const double along = glm::dot(toCentre, f);
        const double rho = glm::length(toCentre - along * f);
        const int count = crossings(*images, v, i, j);
        if (rho > R + h) {
          if (count != 0) ++wrongCount;
          ++missed;
          continue;
        }
        if (rho >= R - 2 * h) continue;  // silhouette band: either way
        ++inside;
        if (count != 2) {
          ++wrongCount;
          continue;
        }
        for (int k = 0; k < 2; ++k) {
          const glm::vec4 nd = images->normalDepth[texelIndex(v, k, i, j)];
          const double chord = std::sqrt(R * R - rho * rho);
          const double expected = k == 0 ? along - chord : along + chord;
          // Crossing of the shell [R - delta, R] along this ray.
          const double tolerance = chord - std::sqrt((R - delta) * (R - delta) - rho * rho) + 1e-6;
          const double err = std::abs(double(nd.w) - expected);
          worstDepth = std::max(worstDepth, err / tolerance);
          if (err > tolerance) ++badDepth;
          const glm::dvec3 hit = o0 + double(nd.w) * f;
          const glm::dvec3 analytic = glm::normalize(hit - glm::dvec3(s.center));
          const double angle = std::acos(std::min(1.0, glm::dot(analytic, glm::dvec3(nd))));
          worstAngle = std::max(worstAngle, angle);
          if (angle > 2.0 * std::numbers::pi / 180.0) ++badNormal;
          EXPECT_NEAR(glm::length(glm::vec3(nd)), 1.0f, 1e-5f);
        }
        EXPECT_EQ(images->normalDepth[texelIndex(v, 2, i, j)].w, HG_NO_SURFACE_DEPTH);
      }
    }
    std::printf(
        "[ sphere   ] %-6s %d texels inside, %d outside; worst depth error %.2f of its bound, worst normal %.3f deg\n",
        std::string(depthViewName(setup->directions[vi])).c_str(), inside, missed, worstDepth,
        worstAngle * 180.0 / std::numbers::pi);
    EXPECT_GT(inside, 9000);
    EXPECT_GT(missed, 1000);
    EXPECT_EQ(wrongCount, 0);
    EXPECT_EQ(badDepth, 0);
    EXPECT_EQ(badNormal, 0);
  }
}

// A torus (axis Y): vertical rays through the tube cross it twice; horizontal rays in the
// mid-plane that pass through the hole cross it four times.
TEST(DepthViews, TorusCrossingCounts) {
  const glm::vec3 c(0.0f, 0.8f, 0.1f);
  const float R = 0.3f, r = 0.1f;
  const TriangleMesh mesh = makeTorus(c, R, r, 128, 64);
  DepthViewOptions o;
  o.directions = {DepthViewDirection::Top, DepthViewDirection::Front};
  o.texelSize = 0.004f;
  o.layers = 4;
  auto setup = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup) << setup.error().message;
  auto images = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(images) << images.error().message;
  const double h = o.texelSize;
  // Facets: the polygon circles lie inside the true ones by at most 4e-4 m here.
  const double slack = 2 * h;
  {  // top: vertical ray at distance rho from the axis
    const kernels::DepthView& v = setup->views[0];
    int two = 0, none = 0, wrong = 0;
    for (int j = 0; j < int(v.up.w); ++j)
      for (int i = 0; i < int(v.right.w); ++i) {
        const glm::dvec3 p = rayOrigin(v, i, j);
        const double rho = std::hypot(p.x - c.x, p.z - c.z);
        const int count = crossings(*images, v, i, j);
        if (std::abs(rho - R) < r - slack) {
          ++two;
          if (count != 2) ++wrong;
          // Depths: the tube's upper and lower surface.
          const double s = std::sqrt(r * r - (rho - R) * (rho - R));
          const double top = v.origin.y - (c.y + s), bottom = v.origin.y - (c.y - s);
          if (count == 2) {
            EXPECT_NEAR(images->normalDepth[texelIndex(v, 0, i, j)].w, top, 2e-3);
            EXPECT_NEAR(images->normalDepth[texelIndex(v, 1, i, j)].w, bottom, 2e-3);
          }
        } else if (std::abs(rho - R) > r + h) {
          ++none;
          if (count != 0) ++wrong;
        }
      }
    std::printf("[ torus    ] top: %d texels with 2 crossings, %d with none, %d wrong\n", two, none, wrong);
    EXPECT_GT(two, 5000);
    EXPECT_GT(none, 5000);
    EXPECT_EQ(wrong, 0);
  }
  {  // front: horizontal ray (along -Z) at height eta above the mid-plane, x offset xi
    const kernels::DepthView& v = setup->views[1];
    int four = 0, two = 0, wrong = 0;
    for (int j = 0; j < int(v.up.w); ++j)
      for (int i = 0; i < int(v.right.w); ++i) {
        const glm::dvec3 p = rayOrigin(v, i, j);
        const double eta = p.y - c.y, xi = std::abs(p.x - c.x);
        if (std::abs(eta) > r - slack) continue;
        const double s = std::sqrt(r * r - eta * eta);
        const int count = crossings(*images, v, i, j);
        if (xi < R - s - slack) {
          ++four;
          if (count != 4) {
            ++wrong;
            continue;
          }
          // z of the crossings, nearest first (depth = origin.z - z).
          const double outer = std::sqrt((R + s) * (R + s) - xi * xi), inner = std::sqrt((R - s) * (R - s) - xi * xi);
          const double z[4] = {c.z + outer, c.z + inner, c.z - inner, c.z - outer};
          for (int k = 0; k < 4; ++k) {
            const double depth = v.origin.z - z[k];
            // Grazing crossings (inner tube walls near xi -> R - s) get a looser bound.
            EXPECT_NEAR(images->normalDepth[texelIndex(v, k, i, j)].w, depth, 0.01) << i << "," << j << " k " << k;
          }
        } else if (xi > R - s + slack && xi < R + s - slack) {
          ++two;
          if (count != 2) ++wrong;
        }
      }
    std::printf("[ torus    ] front: %d texels with 4 crossings, %d with 2, %d wrong\n", four, two, wrong);
    EXPECT_GT(four, 1000);
    EXPECT_GT(two, 1000);
    EXPECT_EQ(wrong, 0);
  }
}

// Planar faces: depths exact, normals exactly the face normals away from the box's edges.
TEST(DepthViews, BoxDepthsAreExact) {
  const glm::vec3 lo(-0.21f, 0.33f, -0.17f), hi(0.19f, 0.71f, 0.26f);
  const TriangleMesh mesh = makeBox(lo, hi, 3);
  DepthViewOptions o;
  o.directions = kAll;
  o.texelSize = 0.005f;
  o.layers = 3;
  o.margin = 0.02f;
  auto setup = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup) << setup.error().message;
  auto images = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(images) << images.error().message;
  const double h = o.texelSize;
  for (std::size_t vi = 0; vi < setup->views.size(); ++vi) {
    const kernels::DepthView& v = setup->views[vi];
    SCOPED_TRACE(std::string(depthViewName(setup->directions[vi])));
    const glm::dvec3 f(v.forward), right(v.right), up(v.up);
    // Box extents in this view's coordinates.
    auto coord = [&](glm::dvec3 axis, glm::dvec3 p) { return glm::dot(p - glm::dvec3(v.origin), axis); };
    double uLo = 1e9, uHi = -1e9, vLo = 1e9, vHi = -1e9, dLo = 1e9, dHi = -1e9;
    for (int cnr = 0; cnr < 8; ++cnr) {
      const glm::dvec3 p((cnr & 1) ? hi.x : lo.x, (cnr & 2) ? hi.y : lo.y, (cnr & 4) ? hi.z : lo.z);
      uLo = std::min(uLo, coord(right, p)), uHi = std::max(uHi, coord(right, p));
      vLo = std::min(vLo, coord(up, p)), vHi = std::max(vHi, coord(up, p));
      dLo = std::min(dLo, coord(f, p)), dHi = std::max(dHi, coord(f, p));
    }
    const double faceCellU = (uHi - uLo) / 4.0, faceCellV = (vHi - vLo) / 4.0;
    int covered = 0, wrong = 0, interiorNormals = 0;
    double worst = 0.0;
    for (int j = 0; j < int(v.up.w); ++j)
      for (int i = 0; i < int(v.right.w); ++i) {
        const double u = h * (i + 0.5), w = h * (j + 0.5);
        const int count = crossings(*images, v, i, j);
        const bool in = u > uLo + 1e-6 && u < uHi - 1e-6 && w > vLo + 1e-6 && w < vHi - 1e-6;
        const bool out = u < uLo - 1e-6 || u > uHi + 1e-6 || w < vLo - 1e-6 || w > vHi + 1e-6;
        if (out && count != 0) ++wrong;
        if (!in) continue;
        ++covered;
        if (count != 2) {
          ++wrong;
          continue;
        }
        const glm::vec4 near = images->normalDepth[texelIndex(v, 0, i, j)];
        const glm::vec4 far = images->normalDepth[texelIndex(v, 1, i, j)];
        worst = std::max({worst, std::abs(near.w - dLo), std::abs(far.w - dHi)});
        // Away from the grid lines at the box's edges the normal is the face normal.
        if (u > uLo + faceCellU && u < uHi - faceCellU && w > vLo + faceCellV && w < vHi - faceCellV) {
          ++interiorNormals;
          EXPECT_LT(glm::length(glm::dvec3(near) + f), 1e-6);
          EXPECT_LT(glm::length(glm::dvec3(far) - f), 1e-6);
        }
      }
    std::printf("[ box      ] %-6s %d texels covered, worst depth error %.3g m\n",
                std::string(depthViewName(setup->directions[vi])).c_str(), covered, worst);
    EXPECT_GT(covered, 3000);
    EXPECT_GT(interiorNormals, 500);
    EXPECT_EQ(wrong, 0);
    EXPECT_LE(worst, 1e-6);
  }
}

// Rigid translation with velocity w: every covered texel of every layer carries w.
TEST(DepthViews, RigidVelocityIsReproduced) {
  const TriangleMesh mesh = makeCapsule({0.0f, 0.2f, 0.0f}, {0.1f, 0.6f, -0.05f}, 0.12f, 8, 32);
  const glm::vec3 w(0.3f, -1.25f, 0.07f);
  const std::vector<glm::vec3> velocities(mesh.vertexCount(), w);
  DepthViewOptions o;
  o.directions = kAll;
  o.texelSize = 0.005f;
  o.layers = 2;
  auto setup = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup);
  auto images = rasterizeDepthViews(mesh, velocities, *setup);
  ASSERT_TRUE(images) << images.error().message;
  std::size_t covered = 0;
  float worst = 0.0f;
  for (std::size_t t = 0; t < images->normalDepth.size(); ++t) {
    if (images->normalDepth[t].w >= HG_NO_SURFACE_DEPTH) {
      EXPECT_EQ(images->velocity[t], glm::vec4(0.0f));
      continue;
    }
    ++covered;
    worst = std::max(worst, glm::length(glm::vec3(images->velocity[t]) - w));
    EXPECT_EQ(images->velocity[t].w, 0.0f);
  }
  EXPECT_GT(covered, 10000u);
  EXPECT_LE(worst, 1e-6f * glm::length(w));
  // Still body: zero velocity everywhere.
  auto still = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(still);
  for (const glm::vec4& v : still->velocity) ASSERT_EQ(v, glm::vec4(0.0f));
}

// K = 1 keeps the nearest crossing only: layer 0 of K = 4.
TEST(DepthViews, OneLayerKeepsTheNearest) {
  const TriangleMesh mesh = makeTorus({0.0f, 0.0f, 0.0f}, 0.3f, 0.1f, 64, 32);
  DepthViewOptions o;
  o.directions = {DepthViewDirection::Front, DepthViewDirection::Left};
  o.texelSize = 0.005f;
  o.layers = 4;
  auto setup4 = makeDepthViewSetup(mesh, o);
  o.layers = 1;
  auto setup1 = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup4 && setup1);
  auto four = rasterizeDepthViews(mesh, {}, *setup4);
  auto one = rasterizeDepthViews(mesh, {}, *setup1);
  ASSERT_TRUE(four && one);
  ASSERT_EQ(4 * one->normalDepth.size(), four->normalDepth.size());
  int deeper = 0;
  for (std::size_t v = 0; v < 2; ++v) {
    const kernels::DepthView &v1 = setup1->views[v], &v4 = setup4->views[v];
    for (int j = 0; j < int(v1.up.w); ++j)
      for (int i = 0; i < int(v1.right.w); ++i) {
        ASSERT_EQ(one->normalDepth[texelIndex(v1, 0, i, j)], four->normalDepth[texelIndex(v4, 0, i, j)]);
        if (four->normalDepth[texelIndex(v4, 1, i, j)].w < HG_NO_SURFACE_DEPTH) {
          ++deeper;
          EXPECT_GT(four->normalDepth[texelIndex(v4, 1, i, j)].w, four->normalDepth[texelIndex(v4, 0, i, j)].w);
        }
      }
  }
  EXPECT_GT(deeper, 1000);
  // Deterministic: the same call gives the same bits.
  auto again = rasterizeDepthViews(mesh, {}, *setup4);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->normalDepth == four->normalDepth);
}

TEST(DepthViews, InputsAreValidated) {
  TriangleMesh mesh = makeIcosphere({0.0f, 0.0f, 0.0f}, 0.2f, 2);
  DepthViewOptions o;
  auto setup = makeDepthViewSetup(mesh, o);
  ASSERT_TRUE(setup);
  EXPECT_FALSE(rasterizeDepthViews(mesh, {}, DepthViewSetup{}));
  const std::vector<glm::vec3> tooFew(mesh.vertexCount() - 1, glm::vec3(0.0f));
  auto mismatch = rasterizeDepthViews(mesh, tooFew, *setup);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.error().message.find("velocities"), std::string::npos) << mismatch.error().message;
  TriangleMesh broken = mesh;
  broken.positions[7].y = std::numeric_limits<float>::quiet_NaN();
  auto nan = rasterizeDepthViews(broken, {}, *setup);
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().message.find("vertex 7"), std::string::npos) << nan.error().message;
  EXPECT_FALSE(makeDepthViewSetup(broken, o));
  // Texels carry the triangles' own normals: a mesh without vertex normals gives the
  // same images, and the top view's centre sees an outward (upward) face.
  TriangleMesh bare = mesh;
  bare.normals.clear();
  auto images = rasterizeDepthViews(bare, {}, *setup);
  auto withNormals = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(images);
  ASSERT_TRUE(withNormals);
  EXPECT_TRUE(images->normalDepth == withNormals->normalDepth);
  const kernels::DepthView& top = setup->views[0];
  const glm::vec4 centre = images->normalDepth[texelIndex(top, 0, int(top.right.w) / 2, int(top.up.w) / 2)];
  EXPECT_NEAR(glm::length(glm::vec3(centre)), 1.0f, 1e-6f);
  EXPECT_GT(centre.y, 0.9f);
}

TEST(DepthViews, PrimitivesAreClosedAndOutward) {
  const double pi = std::numbers::pi;
  {
    SCOPED_TRACE("box");
    expectClosedOutward(makeBox({-0.1f, 0.0f, 0.2f}, {0.3f, 0.5f, 0.4f}, 2), 0.4 * 0.5 * 0.2, 1e-6);
  }
  {
    SCOPED_TRACE("capsule");
    const double r = 0.1, len = 0.5;
    // Inscribed polygons: a few per cent below the analytic volume.
    expectClosedOutward(makeCapsule({0.0f, 0.0f, 0.0f}, {0.3f, 0.4f, 0.0f}, float(r), 16, 64),
                        pi * r * r * len + 4.0 / 3.0 * pi * r * r * r, 0.01 * pi * r * r * len);
  }
  {
    SCOPED_TRACE("torus");
    const double R = 0.3, r = 0.08;
    expectClosedOutward(makeTorus({0.1f, 0.2f, 0.0f}, float(R), float(r), 96, 48), 2 * pi * pi * R * r * r,
                        0.01 * 2 * pi * pi * R * r * r);
  }
  {
    SCOPED_TRACE("icosphere");
    expectClosedOutward(makeIcosphere({0.0f, 0.0f, 0.0f}, 0.2f, 3), 4.0 / 3.0 * pi * 0.008,
                        0.02 * 4.0 / 3.0 * pi * 0.008);
  }
}

}  // namespace
}  // namespace hg
