// Joint-zone metrics (volume, radius, bulge, self-intersections) on analytic cylinders and
// boxes. The SVG line-plot writer that charts them is tested in tests/io/SvgPlotTest.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/skinning/SkinningMetrics.h"
#include "tests/support/SkinningFixtures.h"

namespace hg {
namespace {

// The reference body: a closed cylinder along x from 0 to 2 m, radius 0.25 m, 17 rings
// (x_i = i / 8 m: exact in float) of 48 vertices. With the joint at x = 1 and a zone radius
// of 0.5 m, a ring vertex is in the zone when (x - 1)^2 + R^2 <= 0.25, |x - 1| <= 0.433:
// the 7 rings x = 0.625 .. 1.375 (6 bands), 2 boundary loops, band length 0.75 m.
constexpr float kLength = 2.0f, kRadius = 0.25f, kZoneRadius = 0.5f;
constexpr int kRings = 17, kSegments = 48;
constexpr int kFirstZoneRing = 5, kLastZoneRing = 11;
constexpr double kBand = 0.75;

TriangleMesh referenceCylinder() { return test::makeCylinder(kLength, kRadius, kRings, kSegments); }

JointAxis referenceAxis() { return {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(2.0f, 0.0f, 0.0f)}; }

JointZoneMeter referenceMeter(const TriangleMesh& mesh) {
  Result<JointZoneMeter> meter = JointZoneMeter::create(mesh, referenceAxis(), kZoneRadius);
  EXPECT_TRUE(meter.ok()) << (meter.ok() ? "" : meter.error().message);
  return std::move(meter).value();
}

/// Signed area (m^2) of a ring's polygon in the (y, z) plane, from the float positions.
double polygonArea(std::span<const glm::vec4> p, int ring) {
  double area = 0.0;
  for (int j = 0; j < kSegments; ++j) {
    const glm::vec4& a = p[std::size_t(ring * kSegments + j)];
    const glm::vec4& b = p[std::size_t(ring * kSegments + (j + 1) % kSegments)];
    area += 0.5 * (double(a.y) * double(b.z) - double(b.y) * double(a.z));
  }
  return area;
}

/// The LBS weight of the second bone (twoBoneCylinder's): 0 at x = 0.5, 1 at x = 1.5.
float blendWeight(float x) { return glm::clamp(x - 0.5f, 0.0f, 1.0f); }

glm::quat aboutX(float angle) { return glm::angleAxis(angle, glm::vec3(1.0f, 0.0f, 0.0f)); }

void expectRelNear(double actual, double expected, double rel, const char* what) {
  EXPECT_NEAR(actual, expected, rel * std::abs(expected)) << what;
}

// --- the zone at rest --------------------------------------------------------------------

TEST(SkinningMetrics, RestZoneIsTheBandOfRings) {
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  const int zoneRings = kLastZoneRing - kFirstZoneRing + 1;
  EXPECT_EQ(meter.zoneVertexCount(), std::size_t(zoneRings * kSegments));
  EXPECT_EQ(meter.zoneTriangleCount(), std::size_t((zoneRings - 1) * kSegments * 2));
  EXPECT_EQ(meter.boundaryLoopCount(), 2u);

  // The closed band is a prism over the ring polygon: volume = area x band length, exactly
  // for the float polygon, and to float precision for the regular polygon's formula.
  const std::vector<glm::vec4> rest = test::restPositions(mesh);
  const double area = polygonArea(rest, kFirstZoneRing);
  EXPECT_EQ(double(rest[kLastZoneRing * kSegments].x) - double(rest[kFirstZoneRing * kSegments].x), kBand);
  expectRelNear(meter.rest().volume, area * kBand, 1e-9, "prism volume of the float polygon");
  const double regular =
      kSegments * 0.5 * double(kRadius) * double(kRadius) * std::sin(2.0 * glm::pi<double>() / kSegments) * kBand;
  expectRelNear(meter.rest().volume, regular, 1e-6, "regular prism volume");
  // The section is the ring x = 1, a regular 48-gon of circumradius R: its thinnest width
  // is twice the apothem (an even polygon's opposite edges are parallel), R cos(pi / 48)
  // (float rounding of cos, sin).
  expectRelNear(meter.rest().minRadius, double(kRadius) * std::cos(glm::pi<double>() / kSegments), 1e-6,
                "rest min radius");

  const JointZoneMeasure again = meter.measure(rest, referenceAxis());
  EXPECT_EQ(again.volume, meter.rest().volume);
  EXPECT_EQ(again.minRadius, meter.rest().minRadius);
  const JointZoneRatios ratios = meter.ratios(rest, referenceAxis(), true);
  EXPECT_DOUBLE_EQ(ratios.volumeRatio, 1.0);
  EXPECT_DOUBLE_EQ(ratios.minRadiusRatio, 1.0);
  EXPECT_NEAR(ratios.maxBulge, 0.0, 1e-7);
  EXPECT_EQ(ratios.selfIntersections, 0u);
}

TEST(SkinningMetrics, LargerZoneHoldsMoreRings) {
  // Zone radius 0.6: |x - 1| <= sqrt(0.36 - 0.0625) = 0.545 -> rings 0.5 .. 1.5 (8 bands).
  const TriangleMesh mesh = referenceCylinder();
  Result<JointZoneMeter> meter = JointZoneMeter::create(mesh, referenceAxis(), 0.6f);
  ASSERT_TRUE(meter.ok()) << meter.error().message;
  EXPECT_EQ(meter->zoneTriangleCount(), std::size_t(8 * kSegments * 2));
  const std::vector<glm::vec4> rest = test::restPositions(mesh);
  expectRelNear(meter->rest().volume, polygonArea(rest, 0) * 1.0, 1e-9, "prism volume, band 1 m");

  // The whole closed cylinder: no boundary, the enclosed volume of the mesh. (The axis is
  // moved off the caps' centre vertices, which would otherwise have radius 0.)
  const JointAxis offAxis{glm::vec3(0.0f, 0.1f, 0.0f), glm::vec3(1.0f, 0.1f, 0.0f), glm::vec3(2.0f, 0.1f, 0.0f)};
  Result<JointZoneMeter> whole = JointZoneMeter::create(mesh, offAxis, 1.5f);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->boundaryLoopCount(), 0u);
  EXPECT_EQ(whole->zoneTriangleCount(), mesh.triangleCount());
  expectRelNear(whole->rest().volume, test::enclosedVolume(rest, mesh.indices), 1e-12, "closed mesh volume");
  expectRelNear(whole->rest().volume, polygonArea(rest, 0) * 2.0, 1e-9, "prism volume, whole cylinder");
}

// --- invariances -------------------------------------------------------------------------

TEST(SkinningMetrics, RigidMotionKeepsVolumeAndRadii) {
  // The moved positions are rounded to float: a vertex moves by up to half an ulp of its
  // largest coordinate per axis, so a single radius (the minimum) can change by about
  // FLT_EPSILON x that extent; the volume sums many such errors, which mostly cancel.
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  const glm::quat rotation = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 3.0f)));
  for (const glm::vec3 shift : {glm::vec3(0.0f), glm::vec3(0.25f, -0.5f, 0.125f), glm::vec3(3.0f, -2.0f, 5.0f)}) {
    SCOPED_TRACE(::testing::Message() << "shift " << shift.x << " " << shift.y << " " << shift.z);
    const auto move = [&](glm::vec3 p) { return rotation * p + shift; };
    std::vector<glm::vec4> moved;
    float extent = 0.0f;
    for (const glm::vec3& p : mesh.positions) {
      moved.emplace_back(move(p), 1.0f);
      extent = std::max({extent, std::abs(moved.back().x), std::abs(moved.back().y), std::abs(moved.back().z)});
    }
    const double radiusTolerance = 2.0 * double(FLT_EPSILON) * double(extent) / double(kRadius);  // relative
    const JointAxis axis = referenceAxis();
    const JointAxis movedAxis{move(axis.parent), move(axis.joint), move(axis.child)};

    const JointZoneMeasure m = meter.measure(moved, movedAxis);
    expectRelNear(m.volume, meter.rest().volume, 1e-6, "volume after a rigid motion");
    expectRelNear(m.minRadius, meter.rest().minRadius, radiusTolerance, "min radius after a rigid motion");
    const JointZoneRatios r = meter.ratios(moved, movedAxis, true);
    EXPECT_NEAR(r.volumeRatio, 1.0, 1e-6);
    EXPECT_NEAR(r.minRadiusRatio, 1.0, radiusTolerance);
    EXPECT_NEAR(r.maxBulge, 0.0, radiusTolerance);
    EXPECT_EQ(r.selfIntersections, 0u);
  }
}

TEST(SkinningMetrics, VolumeDoesNotDependOnTheOrigin) {
  // Only the surface moves (the axis stays): the closed zone's volume is unchanged; a
  // surface that is not closed would change by the open boundary's flux.
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  for (const glm::vec3 shift : {glm::vec3(0.5f, -0.25f, 0.75f), glm::vec3(-3.0f, 4.0f, 2.0f)}) {
    std::vector<glm::vec4> moved;
    for (const glm::vec3& p : mesh.positions) moved.emplace_back(p + shift, 1.0f);
    expectRelNear(meter.measure(moved, referenceAxis()).volume, meter.rest().volume, 1e-6, "translated volume");
  }
  // The same for a bent pose, whose two boundary loops are no longer parallel (for parallel
  // equal loops even a wrongly oriented closure would not notice a translation).
  const glm::vec3 joint(1.0f, 0.0f, 0.0f);
  const glm::quat bend = glm::angleAxis(glm::radians(60.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  std::vector<glm::vec4> bent, bentMoved;
  for (const glm::vec3& p : mesh.positions) {
    const glm::vec3 q = p.x > 1.0f ? joint + bend * (p - joint) : p;
    bent.emplace_back(q, 1.0f);
    bentMoved.emplace_back(q + glm::vec3(-1.5f, 2.0f, 0.5f), 1.0f);
  }
  const double bentVolume = meter.measure(bent, referenceAxis()).volume;
  expectRelNear(meter.measure(bentMoved, referenceAxis()).volume, bentVolume, 1e-6, "translated bent volume");
}

TEST(SkinningMetrics, RadialScalingScalesVolumeAndRadius) {
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  for (const float s : {0.4f, 1.7f}) {
    std::vector<glm::vec4> scaled;
    for (const glm::vec3& p : mesh.positions) scaled.emplace_back(p.x, s * p.y, s * p.z, 1.0f);
    const JointZoneMeasure m = meter.measure(scaled, referenceAxis());
    expectRelNear(m.volume, double(s) * double(s) * meter.rest().volume, 1e-6, "volume ~ s^2");
    expectRelNear(m.minRadius, double(s) * meter.rest().minRadius, 1e-6, "min radius ~ s");
    const JointZoneRatios r = meter.ratios(scaled, referenceAxis(), false);
    EXPECT_NEAR(r.volumeRatio, double(s) * double(s), 1e-6);
    EXPECT_NEAR(r.minRadiusRatio, double(s), 1e-6);
    EXPECT_NEAR(r.maxBulge, double(s) - 1.0, 1e-6);
  }
}

// --- twists ------------------------------------------------------------------------------

TEST(SkinningMetrics, LinearBlendTwistCollapsesTheMidRing) {
  // LBS of a 180-degree twist: p' = (1 - w) p + w R(pi) p. For a ring direction e,
  // |(1 - w) e + w R(theta) e|^2 = (1 - w)^2 + w^2 + 2 w (1 - w) cos(theta), so for theta = pi
  // the section is the rest polygon scaled by (1 - 2w) = 2 (1 - x): it collapses to the axis
  // at x = 1 (w = 1/2). Each half of the zone is then a pyramid with its apex on the axis at
  // x = 1, base scale 0.75 and height 0.375: V = 2 (A 0.75^2) 0.375 / 3 = 0.140625 A, against
  // 0.75 A at rest: ratio 0.1875. The largest radius ratio is the boundary rings' 0.75.
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  const glm::quat half = aboutX(glm::pi<float>());
  std::vector<glm::vec4> blended;
  for (const glm::vec3& p : mesh.positions) {
    const float w = blendWeight(p.x);
    blended.emplace_back((1.0f - w) * p + w * (half * p), 1.0f);
  }
  const JointZoneRatios lbs = meter.ratios(blended, referenceAxis(), false);
  EXPECT_NEAR(lbs.minRadiusRatio, 0.0, 1e-6);
  EXPECT_NEAR(lbs.volumeRatio, 0.1875, 1e-6);
  EXPECT_NEAR(lbs.maxBulge, -0.25, 1e-6);

  // The same end transforms without blending: the whole body turned by pi is rigid.
  std::vector<glm::vec4> turned;
  for (const glm::vec3& p : mesh.positions) turned.emplace_back(half * p, 1.0f);
  const JointZoneRatios rigid = meter.ratios(turned, referenceAxis(), true);
  EXPECT_NEAR(rigid.volumeRatio, 1.0, 1e-6);
  EXPECT_NEAR(rigid.minRadiusRatio, 1.0, 1e-6);
  EXPECT_NEAR(rigid.maxBulge, 0.0, 1e-6);
  EXPECT_EQ(rigid.selfIntersections, 0u);
}

TEST(SkinningMetrics, PureTwistKeepsTheRadius) {
  // Rotating each ring by pi w(x) about the axis (what a twist-preserving method does)
  // keeps every radius. The volume shrinks a little, because the side triangles cut the
  // corners between the turned rings; each band is a prismatoid (all vertices on its two
  // ring planes), so its volume is h / 6 (A_0 + 4 A_mid + A_1) with A_mid the area of the
  // polygon through the midpoints of its side edges, in order: (P_j + Q_j) / 2, (P_j +
  // Q_{j+1}) / 2 for the triangles (P_j, Q_{j+1}, Q_j) and (P_j, P_{j+1}, Q_{j+1}).
  const TriangleMesh mesh = referenceCylinder();
  const JointZoneMeter meter = referenceMeter(mesh);
  std::vector<glm::vec4> twisted;
  for (const glm::vec3& p : mesh.positions) twisted.emplace_back(aboutX(glm::pi<float>() * blendWeight(p.x)) * p, 1.0f);
  const JointZoneRatios r = meter.ratios(twisted, referenceAxis(), true);
  EXPECT_NEAR(r.minRadiusRatio, 1.0, 1e-6);
  EXPECT_NEAR(r.maxBulge, 0.0, 1e-6);
  EXPECT_EQ(r.selfIntersections, 0u);

  double expected = 0.0;
  for (int ring = kFirstZoneRing; ring < kLastZoneRing; ++ring) {
    const auto P = [&](int j) { return glm::dvec3(twisted[std::size_t(ring * kSegments + j % kSegments)]); };
    const auto Q = [&](int j) { return glm::dvec3(twisted[std::size_t((ring + 1) * kSegments + j % kSegments)]); };
    std::vector<glm::dvec3> mid;
    for (int j = 0; j < kSegments; ++j) {
      mid.push_back(0.5 * (P(j) + Q(j)));
      mid.push_back(0.5 * (P(j) + Q(j + 1)));
    }
    double midArea = 0.0;
    for (std::size_t k = 0; k < mid.size(); ++k) {
      const glm::dvec3& a = mid[k];
      const glm::dvec3& b = mid[(k + 1) % mid.size()];
      midArea += 0.5 * (a.y * b.z - b.y * a.z);
    }
    const double h = Q(0).x - P(0).x;
    expected += h / 6.0 * (polygonArea(twisted, ring) + 4.0 * midArea + polygonArea(twisted, ring + 1));
  }
  EXPECT_NEAR(r.volumeRatio * meter.rest().volume, expected, 1e-9 * expected);
  EXPECT_LT(r.volumeRatio, 1.0 - 1e-4);  // the corner cutting is real ...
  EXPECT_GT(r.volumeRatio, 0.95);        // ... but far from the LBS collapse
}

// --- the axis distance -------------------------------------------------------------------

TEST(SkinningMetrics, DistanceToJointAxis) {
  const JointAxis bent{glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(1.0f, 1.0f, 0.0f)};
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(0.5f, -0.3f, 0.0f), bent), 0.3f);             // parent segment
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(1.4f, 0.5f, 0.0f), bent), 0.4f);              // child segment
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(2.0f, -1.0f, 0.0f), bent), std::sqrt(2.0f));  // the joint
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(1.0f, 3.0f, 0.0f), bent), 2.0f);              // past the child point
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(-1.0f, 0.0f, 2.0f), bent), std::sqrt(5.0f));  // past the parent
  // A leaf joint (child = joint): the second segment is a point.
  const JointAxis leaf{glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)};
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(4.0f, 4.0f, 0.0f), leaf), 5.0f);
  // All three points equal: the distance to that point.
  const JointAxis point{glm::vec3(1.0f, 2.0f, 3.0f), glm::vec3(1.0f, 2.0f, 3.0f), glm::vec3(1.0f, 2.0f, 3.0f)};
  EXPECT_FLOAT_EQ(distanceToJointAxis(glm::vec3(1.0f, 2.0f, 5.0f), point), 2.0f);
}

// --- self-intersections ------------------------------------------------------------------

std::size_t countMesh(const TriangleMesh& mesh) {
  return countSelfIntersections(test::restPositions(mesh), mesh.indices);
}

TriangleMesh merged(const TriangleMesh& a, const TriangleMesh& b) {
  TriangleMesh mesh = a;
  appendMesh(mesh, b);
  return mesh;
}

TEST(SkinningMetrics, ClosedBoxHasNoSelfIntersection) {
  for (int s : {0, 1, 3}) EXPECT_EQ(countMesh(makeBox(glm::vec3(-1.0f), glm::vec3(1.0f), s)), 0u) << s;
  EXPECT_EQ(countMesh(referenceCylinder()), 0u);
  EXPECT_EQ(countMesh(makeIcosphere(glm::vec3(0.0f), 1.0f, 2)), 0u);
}

TEST(SkinningMetrics, PiercingBoxCountsExactly) {
  // A thin box B (no subdivision) pokes through the top face z = 1 of the box A = [-1, 1]^3.
  // Its footprint x in [0.4, 0.6], y in [-0.2, -0.05] lies strictly inside one triangle of
  // A's top face whatever the diagonals (grid cell [0, 1] x [-1, 0], on the side of both of
  // its diagonals nearer y = 0), and each of B's 8 side triangles holds corners at both z =
  // 0.9 and 1.1, so each crosses z = 1 inside that one triangle: 8 pairs. B's caps and A's
  // other triangles touch nothing.
  const TriangleMesh a = makeBox(glm::vec3(-1.0f), glm::vec3(1.0f), 1);
  const TriangleMesh b = makeBox(glm::vec3(0.4f, -0.2f, 0.9f), glm::vec3(0.6f, -0.05f, 1.1f), 0);
  EXPECT_EQ(countMesh(merged(a, b)), 8u);
  EXPECT_EQ(countMesh(merged(b, a)), 8u);
  EXPECT_EQ(countMesh(merged(makeBox(glm::vec3(-1.0f), glm::vec3(1.0f), 0), b)), 8u);
  // Through the bottom face too: each side triangle crosses both faces, 16 pairs.
  const TriangleMesh through = makeBox(glm::vec3(0.4f, -0.2f, -1.1f), glm::vec3(0.6f, -0.05f, 1.1f), 0);
  EXPECT_EQ(countMesh(merged(a, through)), 16u);
  // Moved clear of A: none.
  const TriangleMesh clear = makeBox(glm::vec3(0.4f, -0.2f, 1.1f), glm::vec3(0.6f, -0.05f, 1.3f), 0);
  EXPECT_EQ(countMesh(merged(a, clear)), 0u);
}

TEST(SkinningMetrics, CrossingBoxesIntersectSymmetrically) {
  const TriangleMesh a = makeBox(glm::vec3(-1.0f, -0.3f, -0.3f), glm::vec3(1.0f, 0.3f, 0.3f), 1);
  const TriangleMesh b = makeBox(glm::vec3(-0.2f, -1.0f, -0.2f), glm::vec3(0.2f, 1.0f, 0.2f), 1);
  const std::size_t ab = countMesh(merged(a, b));
  EXPECT_GT(ab, 0u);
  EXPECT_EQ(countMesh(merged(b, a)), ab);
  // Moving B out along y through A's side: fewer contacts on the way out, none when clear.
  const TriangleMesh out = makeBox(glm::vec3(-0.2f, 0.1f, -0.2f), glm::vec3(0.2f, 2.1f, 0.2f), 1);
  const std::size_t half = countMesh(merged(a, out));
  EXPECT_GT(half, 0u);
  EXPECT_LT(half, ab);
  EXPECT_EQ(countMesh(merged(out, a)), half);
  const TriangleMesh away = makeBox(glm::vec3(-0.2f, 0.4f, -0.2f), glm::vec3(0.2f, 2.4f, 0.2f), 1);
  EXPECT_EQ(countMesh(merged(a, away)), 0u);
}

TEST(SkinningMetrics, TrianglePairsAndDegenerateTriangles) {
  const auto count = [](std::vector<glm::vec3> points, std::vector<std::uint32_t> triangles) {
    std::vector<glm::vec4> p;
    for (const glm::vec3& x : points) p.emplace_back(x, 1.0f);
    return countSelfIntersections(p, triangles);
  };
  const std::vector<glm::vec3> flat{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}};
  const auto with = [&](std::vector<glm::vec3> more) {
    std::vector<glm::vec3> all = flat;
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  // A triangle standing through the flat one: 1. Lifted clear: 0.
  EXPECT_EQ(count(with({{0, 0, -1}, {0.5f, 0, 1}, {-0.5f, 0, 1}}), {0, 1, 2, 3, 4, 5}), 1u);
  EXPECT_EQ(count(with({{0, 0, 0.5f}, {0.5f, 0, 1}, {-0.5f, 0, 1}}), {0, 1, 2, 3, 4, 5}), 0u);
  // Sharing a vertex: skipped even though they cross.
  EXPECT_EQ(count(with({{0.5f, 0, 1}, {0, 0.2f, -1}}), {0, 1, 2, 0, 3, 4}), 0u);
  // The same crossing with the shared point duplicated under another index: counted.
  EXPECT_EQ(count(with({{0.5f, 0, 1}, {0, 0.2f, -1}, {-1, -1, 0}}), {0, 1, 2, 5, 3, 4}), 1u);
  // Degenerate triangles: a segment piercing the flat triangle, a point on it, a point off it.
  EXPECT_EQ(count(with({{0, 0, -1}, {0, 0, 1}, {0, 0, 0.5f}}), {0, 1, 2, 3, 4, 5}), 1u);
  EXPECT_EQ(count(with({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}), {0, 1, 2, 3, 4, 5}), 1u);
  EXPECT_EQ(count(with({{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}), {0, 1, 2, 3, 4, 5}), 0u);
  // Two degenerate segments crossing each other, and two coincident points.
  EXPECT_EQ(count({{-1, 0, 5}, {1, 0, 5}, {0, 0, 5}, {0, -1, 5}, {0, 1, 5}, {0, 1, 5}}, {0, 1, 2, 3, 4, 5}), 1u);
  EXPECT_EQ(count({{2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}}, {0, 1, 2, 3, 4, 5}), 1u);
  // A NaN vertex takes its triangle out of the count.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(count(with({{0, 0, -1}, {0.5f, 0, 1}, {nan, 0, 1}}), {0, 1, 2, 3, 4, 5}), 0u);
  EXPECT_EQ(count({}, {}), 0u);
}

TEST(SkinningMetrics, BentCylinderFoldsThroughItself) {
  // Turn the half x > 1 of a cylinder rigidly by 120 degrees about z through the joint: the
  // inner sides of the two halves pass through each other near the joint.
  const TriangleMesh mesh = test::makeCylinder(kLength, kRadius, 33, 32);
  const JointAxis restAxis = referenceAxis();
  Result<JointZoneMeter> meter = JointZoneMeter::create(mesh, restAxis, kZoneRadius);
  ASSERT_TRUE(meter.ok()) << meter.error().message;
  const glm::vec3 joint = restAxis.joint;
  const glm::quat bend = glm::angleAxis(glm::radians(120.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  std::vector<glm::vec4> bent;
  for (const glm::vec3& p : mesh.positions) bent.emplace_back(p.x > 1.0f ? joint + bend * (p - joint) : p, 1.0f);
  const JointAxis bentAxis{restAxis.parent, joint, joint + bend * (restAxis.child - joint)};

  EXPECT_EQ(countSelfIntersections(test::restPositions(mesh), mesh.indices), 0u);
  const std::size_t all = countSelfIntersections(bent, mesh.indices);
  EXPECT_GT(all, 0u);
  const JointZoneRatios r = meter->ratios(bent, bentAxis, true);
  EXPECT_GT(r.selfIntersections, 0u);
  EXPECT_LE(r.selfIntersections, all);                                    // the zone's pairs are a subset of the mesh's
  EXPECT_EQ(meter->ratios(bent, bentAxis, false).selfIntersections, 0u);  // not counted when not asked
}

// --- errors ------------------------------------------------------------------------------

TEST(SkinningMetrics, ErrorsNameTheProblem) {
  const TriangleMesh mesh = referenceCylinder();
  {  // empty zone: the joint far from the body
    const JointAxis far{glm::vec3(9.0f, 0.0f, 0.0f), glm::vec3(10.0f, 0.0f, 0.0f), glm::vec3(11.0f, 0.0f, 0.0f)};
    Result<JointZoneMeter> m = JointZoneMeter::create(mesh, far, kZoneRadius);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("empty zone"), std::string::npos) << m.error().message;
  }
  {  // zero radius: the cap's centre vertex at x = 0 lies on the axis
    const JointAxis root{glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f)};
    Result<JointZoneMeter> m = JointZoneMeter::create(mesh, root, 0.3f);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("on the joint axis"), std::string::npos) << m.error().message;
  }
  {  // zone radius
    Result<JointZoneMeter> m = JointZoneMeter::create(mesh, referenceAxis(), 0.0f);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("zone radius"), std::string::npos) << m.error().message;
  }
  {  // an index out of range
    TriangleMesh broken = mesh;
    broken.indices[7] = std::uint32_t(mesh.vertexCount());
    Result<JointZoneMeter> m = JointZoneMeter::create(broken, referenceAxis(), kZoneRadius);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("out of range"), std::string::npos) << m.error().message;
  }
  {  // turned inside out: the rest volume is negative
    TriangleMesh flipped = mesh;
    for (std::size_t t = 0; t < flipped.indices.size(); t += 3)
      std::swap(flipped.indices[t + 1], flipped.indices[t + 2]);
    Result<JointZoneMeter> m = JointZoneMeter::create(flipped, referenceAxis(), kZoneRadius);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("not positive"), std::string::npos) << m.error().message;
  }
}

TEST(SkinningMetrics, NonManifoldBoundaryIsAnError) {
  const JointAxis axis{glm::vec3(0.3f, 0.2f, -1.0f), glm::vec3(0.3f, 0.2f, 0.0f), glm::vec3(0.3f, 0.2f, 1.0f)};
  {  // a bow tie: two triangles meeting at one vertex, whose boundary passes it twice
    TriangleMesh bowTie;
    bowTie.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
    bowTie.indices = {0, 1, 2, 0, 3, 4};
    Result<JointZoneMeter> m = JointZoneMeter::create(bowTie, axis, 5.0f);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("not a set of closed loops"), std::string::npos) << m.error().message;
  }
  {  // three triangles on one edge
    TriangleMesh fin;
    fin.positions = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}, {0.5f, 0, 1}};
    fin.indices = {0, 1, 2, 1, 0, 3, 1, 0, 4};
    Result<JointZoneMeter> m = JointZoneMeter::create(fin, axis, 5.0f);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("non-manifold"), std::string::npos) << m.error().message;
  }
  {  // inconsistent orientation: an edge used twice in the same direction
    TriangleMesh folded;
    folded.positions = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}};
    folded.indices = {0, 1, 2, 0, 1, 3};
    Result<JointZoneMeter> m = JointZoneMeter::create(folded, axis, 5.0f);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("orientation"), std::string::npos) << m.error().message;
  }
}

}  // namespace
}  // namespace hg
