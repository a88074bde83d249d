// Cyber Radar, CPU reference (sim/radar/Radar.h; docs/methods.md section 3): analytic time of
// impact, contact point and normal; non-convex and split sensors; mirroring; eliminated
// pixels; detection by ID; mask reuse; the adaptive volume; the contact centre.
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "sim/core/Numbers.h"
#include "sim/radar/Radar.h"
#include "tests/support/GlmExpect.h"

namespace hg {
namespace {

using test::angleDegrees;

TriangleMesh transformed(TriangleMesh mesh, const glm::mat4& m) {
  for (glm::vec3& p : mesh.positions) p = glm::vec3(m * glm::vec4(p, 1.0f));
  return mesh;
}

TriangleMesh merged(const std::vector<TriangleMesh>& parts) {
  TriangleMesh out;
  for (const TriangleMesh& part : parts) appendMesh(out, part);
  return out;
}

float lowestY(const TriangleMesh& mesh) {
  float y = 1e30f;
  for (const glm::vec3& p : mesh.positions) y = std::min(y, p.y);
  return y;
}

RadarHit runOne(RadarBackend& radar, const RadarScene& scene, const RadarQuery& query, RadarImageSize size) {
  auto hits = radar.run(scene, std::span<const RadarQuery>(&query, 1), size);
  EXPECT_TRUE(hits.ok()) << (hits.ok() ? "" : hits.error().message);
  return hits.ok() ? hits->front() : RadarHit{};
}

constexpr std::uint32_t kGround = 1, kSensor = 9;

TEST(Radar, SphereFallingOntoAPlaneHitsAtTheAnalyticTimeOfImpact) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  const TriangleMesh sphere = makeIcosphere({0.05f, 0.5f, -0.03f}, 0.1f, 3);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  const glm::vec3 displacement(0.0f, -0.6f, 0.0f);
  auto query = makeSweepQuery(kSensor, sphere.positions, displacement, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(query.ok());
  const RadarImageSize size{64, 64};
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, size);
  const float pixel = query->probe.width / float(size.width);
  const float gap = lowestY(sphere);  // the plane is y = 0
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, gap, pixel);
  EXPECT_NEAR(hit.timeOfImpact, gap / 0.6f, pixel / 0.6f);
  EXPECT_NEAR(hit.contactPoint.x, 0.05f, pixel);
  EXPECT_NEAR(hit.contactPoint.z, -0.03f, pixel);
  EXPECT_NEAR(hit.contactPoint.y, 0.0f, 1e-5f);
  EXPECT_LT(angleDegrees(hit.contactNormal, {0, 1, 0}), 5.0f);
  EXPECT_EQ(hit.objectAtContact, kGround);
  EXPECT_GT(hit.sensorPixels, 0u);
}

TEST(Radar, SphereMovingObliquelyOntoABoxHitsItsTopFace) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.5f, -1.0f}, {1.0f, 0.0f, 1.0f}, 2)).ok());
  const TriangleMesh sphere = makeIcosphere({-0.3f, 0.4f, 0.0f}, 0.1f, 4);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  const glm::vec3 displacement(0.3f, -0.6f, 0.0f);
  auto query = makeSweepQuery(kSensor, sphere.positions, displacement, {0, 0, 1}, 0.0f);
  ASSERT_TRUE(query.ok());
  const RadarImageSize size{64, 64};
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, size);
  const glm::vec3 u = glm::normalize(displacement);
  const float bottom = lowestY(sphere);
  const float expectedGap = bottom / -u.y;
  const glm::vec3 expectedPoint = glm::vec3(-0.3f, bottom, 0.0f) + expectedGap * u;
  const float pixel = query->probe.width / float(size.width);
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, expectedGap, pixel);
  EXPECT_LT(glm::length(hit.contactPoint - expectedPoint), 1.5f * pixel);
  EXPECT_LT(angleDegrees(hit.contactNormal, {0, 1, 0}), 5.0f);
}

TEST(Radar, NormalOfATiltedObstacleIsWithinFiveDegrees) {
  const glm::mat4 tilt = glm::rotate(glm::mat4(1.0f), 30.0f * kPi / 180.0f, glm::vec3(0, 0, 1));
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, transformed(makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0), tilt)).ok());
  const TriangleMesh sphere = makeIcosphere({0.0f, 0.5f, 0.0f}, 0.1f, 4);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  auto query = makeSweepQuery(kSensor, sphere.positions, {0.0f, -0.8f, 0.0f}, {0, 0, -1}, 0.0f);
  ASSERT_TRUE(query.ok());
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, {64, 64});
  ASSERT_TRUE(hit.collides);
  const glm::vec3 n = glm::vec3(tilt * glm::vec4(0, 1, 0, 0));
  EXPECT_LT(angleDegrees(hit.contactNormal, n), 5.0f);
  EXPECT_TRUE(hit.normalFitted);
  // A sphere touches the plane where the plane's normal through its centre meets it.
  const glm::vec3 centreAtImpact = glm::vec3(0.0f, 0.5f - hit.minKey, 0.0f);
  EXPECT_NEAR(glm::dot(centreAtImpact, n), 0.1f, 2.0f * query->probe.width / 64.0f);
}

TEST(Radar, USensorStraddlingAPostHitsWithItsBaseNotItsProngs) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.6f, -1.0f}, {1.0f, -0.5f, 1.0f}, 0)).ok());
  ASSERT_TRUE(scene.add(2, makeBox({-0.05f, -0.5f, -0.05f}, {0.05f, 0.2f, 0.05f}, 0)).ok());  // the post
  const TriangleMesh u = merged({makeBox({-0.25f, 0.3f, -0.05f}, {-0.2f, 0.65f, 0.05f}, 0),   // left prong
                                 makeBox({0.2f, 0.3f, -0.05f}, {0.25f, 0.65f, 0.05f}, 0),     // right prong
                                 makeBox({-0.2f, 0.6f, -0.05f}, {0.2f, 0.65f, 0.05f}, 0)});   // base
  ASSERT_TRUE(scene.add(kSensor, u).ok());
  auto query = makeSweepQuery(kSensor, u.positions, {0.0f, -0.6f, 0.0f}, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(query.ok());
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, {64, 64});
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, 0.4f, 1e-4f);  // base at 0.6 onto the post top at 0.2
  EXPECT_NEAR(hit.contactPoint.x, 0.0f, 0.01f);
  EXPECT_NEAR(hit.contactPoint.y, 0.2f, 1e-4f);
  EXPECT_EQ(hit.objectAtContact, 2u);
  // A convex proxy of the U (its bounding box) would hit the post at once: gap 0.1.
}

TEST(Radar, SensorInTwoPiecesFindsThePieceThatHitsFirst) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(2, makeBox({0.2f, -0.5f, -0.1f}, {0.4f, 0.1f, 0.1f}, 0)).ok());    // under the right piece
  ASSERT_TRUE(scene.add(3, makeBox({-0.4f, -0.5f, -0.1f}, {-0.2f, 0.0f, 0.1f}, 0)).ok());  // under the left, lower
  const TriangleMesh pieces = merged({makeBox({-0.35f, 0.5f, -0.05f}, {-0.25f, 0.6f, 0.05f}, 0),
                                      makeBox({0.25f, 0.5f, -0.05f}, {0.35f, 0.6f, 0.05f}, 0)});
  ASSERT_TRUE(scene.add(kSensor, pieces).ok());
  auto query = makeSweepQuery(kSensor, pieces.positions, {0.0f, -0.7f, 0.0f}, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(query.ok());
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, {64, 32});
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, 0.4f, 1e-4f);
  EXPECT_NEAR(hit.contactPoint.x, 0.3f, 0.02f);
  EXPECT_EQ(hit.objectAtContact, 2u);
}

TEST(Radar, NoCollisionCasesReportNone) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  const TriangleMesh sphere = makeIcosphere({0.0f, 0.5f, 0.0f}, 0.1f, 3);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  auto radar = makeCpuRadar();
  // Falling short of the plane: the plane is seen but not reached.
  auto shortFall = makeSweepQuery(kSensor, sphere.positions, {0.0f, -0.3f, 0.0f}, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(shortFall.ok());
  RadarHit hit = runOne(*radar, scene, *shortFall, {32, 32});
  EXPECT_FALSE(hit.collides);
  EXPECT_FALSE(hit.seen);  // the volume ends at the sphere's bottom + 0.3 = 0.1 above the plane
  EXPECT_EQ(hit.timeOfImpact, 1.0f);
  // Moving sideways above the plane.
  auto sideways = makeSweepQuery(kSensor, sphere.positions, {0.8f, 0.0f, 0.0f}, {0, 1, 0}, 0.01f);
  ASSERT_TRUE(sideways.ok());
  hit = runOne(*radar, scene, *sideways, {32, 32});
  EXPECT_FALSE(hit.collides);
  EXPECT_EQ(hit.contactPixels, 0u);
  // Moving up, away.
  auto up = makeSweepQuery(kSensor, sphere.positions, {0.0f, 0.5f, 0.0f}, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(up.ok());
  hit = runOne(*radar, scene, *up, {32, 32});
  EXPECT_FALSE(hit.collides);
  EXPECT_FALSE(hit.seen);
}

TEST(Radar, EliminatedPixelsNeverContribute) {
  // A pillar right next to the sensor's path, nearer than anything under the sensor: it is
  // in R (min R) but every one of its pixels has M = d, so L ignores it.
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  ASSERT_TRUE(scene.add(2, makeBox({0.16f, 0.0f, -0.05f}, {0.3f, 0.35f, 0.05f}, 0)).ok());
  const TriangleMesh cube = makeBox({-0.1f, 0.4f, -0.1f}, {0.1f, 0.6f, 0.1f}, 0);
  ASSERT_TRUE(scene.add(kSensor, cube).ok());
  auto query = makeSweepQuery(kSensor, cube.positions, {0.0f, -0.5f, 0.0f}, {0, 0, -1}, 0.0f);
  ASSERT_TRUE(query.ok());
  query->probe.width = 0.8f;  // the volume reaches over the pillar
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, *query, {64, 64});
  EXPECT_TRUE(hit.sees(2));
  EXPECT_NEAR(hit.minRange, query->probe.origin.y - 0.35f, 1e-5f);  // the pillar top, from the rear plane (0.6)
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, 0.4f, 1e-5f);  // the cube's bottom onto the ground, not the pillar
  EXPECT_EQ(hit.objectAtContact, kGround);
  // Check every pixel: L is defined exactly where the mask holds the sensor.
  auto images = radar->images();
  ASSERT_TRUE(images.ok());
  const float d = query->probe.depth;
  for (int j = 0; j < 64; ++j)
    for (int i = 0; i < 64; ++i) {
      const float m = images->mask(0, i, j, d);
      const float r = images->range[std::size_t(j * 64 + i)];
      const float l = kernels::radarLookAt(r, m >= d ? HG_RADAR_NO_SENSOR : d - m, d);
      if (m >= d) {
        EXPECT_EQ(l, HG_RADAR_NO_KEY);
      }
      if (l < HG_RADAR_NO_KEY) {
        EXPECT_GE(l, hit.minKey);
      }
    }
}

TEST(Radar, MaskIsMirroredSoAnAsymmetricSensorLinesUpWithTheRangeImage) {
  // The sensor is an L: a foot on the right (+x) only. Its foot is over a step on the right.
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  ASSERT_TRUE(scene.add(2, makeBox({0.1f, 0.0f, -0.1f}, {0.3f, 0.1f, 0.1f}, 0)).ok());       // the step
  const TriangleMesh l = merged({makeBox({-0.3f, 0.5f, -0.05f}, {0.3f, 0.55f, 0.05f}, 0),    // bar
                                 makeBox({0.15f, 0.3f, -0.05f}, {0.25f, 0.5f, 0.05f}, 0)});  // right foot
  ASSERT_TRUE(scene.add(kSensor, l).ok());
  RadarQuery query;
  query.mode = RadarMode::Collide;
  query.sensor = kSensor;
  query.probe.origin = {0.0f, 0.55f, 0.0f};
  query.probe.direction = {0.0f, -1.0f, 0.0f};
  query.probe.up = {0.0f, 0.0f, -1.0f};
  query.probe.width = 0.8f;
  query.probe.height = 0.4f;
  query.probe.depth = 0.55f;
  query.moveDistance = 0.3f;
  auto frame = makeRadarFrame(query, {64, 32});
  ASSERT_TRUE(frame.ok());
  ASSERT_GT(frame->right.x, 0.99f);  // image x runs along +x
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, query, {64, 32});
  // The foot (x in [0.15, 0.25]) is the sensor's lowest part: its mask pixels in R's columns.
  auto images = radar->images();
  ASSERT_TRUE(images.ok());
  for (int i = 0; i < 64; ++i) {
    const float x = (float(i) + 0.5f) / 64.0f * 0.8f - 0.4f;
    const float m = images->mask(0, i, 16, query.probe.depth);
    if (x > 0.16f && x < 0.24f) {
      EXPECT_NEAR(m, 0.55f - 0.25f, 1e-5f) << "column " << i;  // foot front at y = 0.3
    }
    if (x < 0.14f && x > -0.29f) {
      EXPECT_NEAR(m, 0.55f - 0.05f, 1e-5f) << "column " << i;  // bar front at y = 0.5
    }
  }
  ASSERT_TRUE(hit.collides);
  EXPECT_NEAR(hit.minKey, 0.2f, 1e-5f);  // foot at 0.3 onto the step at 0.1
  EXPECT_NEAR(hit.contactPoint.x, 0.2f, 0.8f / 64.0f);
  EXPECT_EQ(hit.objectAtContact, 2u);
}

TEST(Radar, DetectsSeveralObjectsByIdInOneView) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(3, makeBox({-0.4f, -0.1f, -0.6f}, {-0.2f, 0.1f, -0.4f}, 0)).ok());
  ASSERT_TRUE(scene.add(7, makeBox({0.0f, -0.1f, -0.3f}, {0.2f, 0.1f, -0.1f}, 0)).ok());  // nearest
  ASSERT_TRUE(scene.add(42, makeIcosphere({0.3f, 0.0f, -0.8f}, 0.1f, 2)).ok());
  ASSERT_TRUE(scene.add(100, makeBox({2.0f, -0.1f, -0.5f}, {2.2f, 0.1f, -0.3f}, 0)).ok());  // outside
  RadarQuery query;
  query.probe.origin = {0.0f, 0.0f, 0.0f};
  query.probe.direction = {0.0f, 0.0f, -1.0f};
  query.probe.width = 1.0f;
  query.probe.height = 0.6f;
  query.probe.depth = 1.0f;
  auto radar = makeCpuRadar();
  const RadarHit hit = runOne(*radar, scene, query, {48, 32});
  EXPECT_TRUE(hit.seen);
  EXPECT_TRUE(hit.sees(3));
  EXPECT_TRUE(hit.sees(7));
  EXPECT_TRUE(hit.sees(42));
  EXPECT_FALSE(hit.sees(100));
  EXPECT_NEAR(hit.minRange, 0.1f, 1e-6f);
  EXPECT_EQ(hit.objectAtContact, 7u);
  EXPECT_NEAR(hit.contactPoint.z, -0.1f, 1e-6f);
  EXPECT_GT(hit.contactPoint.x, 0.0f);
  EXPECT_LT(hit.contactPoint.x, 0.2f);
  auto images = radar->images();
  ASSERT_TRUE(images.ok());
  std::set<std::uint32_t> ids(images->object.begin(), images->object.end());
  EXPECT_EQ(ids, (std::set<std::uint32_t>{3u, 7u, 42u, kRadarNoObject}));
  // Nothing in the volume: min R = d.
  query.probe.direction = {0.0f, 0.0f, 1.0f};
  const RadarHit none = runOne(*radar, scene, query, {48, 32});
  EXPECT_FALSE(none.seen);
  EXPECT_EQ(none.minRange, 1.0f);
}

TEST(Radar, ReusedMaskGivesIdenticalAnswers) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  ASSERT_TRUE(scene.add(2, makeBox({0.25f, 0.0f, -0.1f}, {0.5f, 0.2f, 0.1f}, 0)).ok());
  TriangleMesh sphere = makeIcosphere({0.0f, 0.5f, 0.0f}, 0.1f, 3);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  auto first = makeSweepQuery(kSensor, sphere.positions, {0.0f, -0.6f, 0.0f}, {0, 0, -1}, 0.01f);
  ASSERT_TRUE(first.ok());
  const RadarImageSize size{40, 40};
  auto radar = makeCpuRadar();
  (void)runOne(*radar, scene, *first, size);
  // The sensor moves by an exact translation (a multiple of the pixel size, exact in
  // binary) with its probe; the mask is kept, the distance to move changes.
  const glm::vec3 shift(0.375f, 0.0f, 0.0f);
  for (glm::vec3& p : sphere.positions) p += shift;
  ASSERT_TRUE(scene.setPositions(kSensor, sphere.positions).ok());
  RadarQuery moved = *first;
  moved.probe.origin += shift;
  moved.moveDistance = 0.5f;
  moved.probe.depth = first->probe.depth - 0.1f;
  RadarQuery reused = moved;
  reused.reuseMask = true;
  const RadarHit withReuse = runOne(*radar, scene, reused, size);
  const RadarHit fresh = runOne(*radar, scene, moved, size);
  EXPECT_TRUE(withReuse.collides);
  EXPECT_EQ(withReuse.minKey, fresh.minKey);
  EXPECT_EQ(withReuse.contactPoint, fresh.contactPoint);
  EXPECT_EQ(withReuse.contactNormal, fresh.contactNormal);
  EXPECT_EQ(withReuse.contactPixels, fresh.contactPixels);
  EXPECT_EQ(withReuse.sensorPixels, fresh.sensorPixels);
  EXPECT_EQ(withReuse.objectAtContact, 2u);
  // A mask cannot be reused across image sizes.
  EXPECT_FALSE(radar->run(scene, std::span<const RadarQuery>(&reused, 1), {20, 20}).ok());
}

TEST(Radar, AdaptiveVolumeFitsTheMaskAndSharpensTheAnswer) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  const TriangleMesh sphere = makeIcosphere({0.1f, 0.5f, 0.05f}, 0.1f, 4);
  ASSERT_TRUE(scene.add(kSensor, sphere).ok());
  RadarQuery maxSize;  // MaxSize: a 1.2 m square volume around the probe
  maxSize.mode = RadarMode::Collide;
  maxSize.sensor = kSensor;
  maxSize.probe.origin = {0.0f, 0.6f, 0.0f};
  maxSize.probe.direction = {0.0f, -1.0f, 0.0f};
  maxSize.probe.up = {0.0f, 0.0f, -1.0f};
  maxSize.probe.width = maxSize.probe.height = 1.2f;
  maxSize.probe.depth = 0.8f;
  maxSize.moveDistance = 0.6f;
  const RadarImageSize size{32, 32};
  auto radar = makeCpuRadar();
  const RadarHit coarse = runOne(*radar, scene, maxSize, size);
  ASSERT_GT(coarse.sensorPixels, 0u);
  const RadarQuery fitted = fitProbeToMask(maxSize, size, coarse, 1);
  const float coarsePixel = 1.2f / 32.0f;
  EXPECT_NEAR(fitted.probe.width, 0.2f + 2.0f * coarsePixel, 2.0f * coarsePixel);
  EXPECT_LT(fitted.probe.width, 0.4f);
  EXPECT_NEAR(fitted.probe.origin.x, 0.1f, coarsePixel);
  EXPECT_NEAR(fitted.probe.origin.z, 0.05f, coarsePixel);
  const RadarHit fine = runOne(*radar, scene, fitted, size);
  const float gap = lowestY(sphere) - 0.0f;
  ASSERT_TRUE(fine.collides);
  EXPECT_NEAR(fine.minKey, gap, fitted.probe.width / 32.0f);
  EXPECT_LE(std::abs(fine.minKey - gap), std::abs(coarse.minKey - gap) + 1e-6f);
  EXPECT_NEAR(fine.contactPoint.x, 0.1f, fitted.probe.width / 32.0f);
}

/// radarContactCentre of the pixel set given as (row, first column, last column) runs.
glm::vec2 contactCentre(std::initializer_list<glm::ivec3> runs) {
  int rowMin[HG_RADAR_MAX_IMAGE], rowMax[HG_RADAR_MAX_IMAGE];
  for (int j = 0; j < HG_RADAR_MAX_IMAGE; ++j) rowMin[j] = 1000, rowMax[j] = -1;
  for (const glm::ivec3& run : runs) rowMin[run.x] = run.y, rowMax[run.x] = run.z;
  return kernels::radarContactCentre(16, rowMin, rowMax);
}

TEST(Radar, ContactCentreIsThePixelTheMidpointOrTheHullCentroid) {
  EXPECT_EQ(contactCentre({}), glm::vec2(-1.0f));
  EXPECT_EQ(contactCentre({{3, 5, 5}}), glm::vec2(5.5f, 3.5f));  // one pixel
  EXPECT_EQ(contactCentre({{3, 2, 5}}), glm::vec2(4.0f, 3.5f));  // two pixels (2, 3) and (5, 3): midpoint
  EXPECT_EQ(contactCentre({{3, 2, 5}, {4, 2, 5}, {5, 2, 5}, {6, 2, 5}}), glm::vec2(4.0f, 5.0f));  // 4 x 4 block
  // A right triangle of pixel centres (0.5, 0.5), (6.5, 0.5), (0.5, 6.5): centroid at 1/3.
  glm::vec2 c = contactCentre({{0, 0, 6}, {1, 0, 5}, {2, 0, 4}, {3, 0, 3}, {4, 0, 2}, {5, 0, 1}, {6, 0, 0}});
  EXPECT_NEAR(c.x, 0.5f + 6.0f / 3.0f, 1e-5f);
  EXPECT_NEAR(c.y, 0.5f + 6.0f / 3.0f, 1e-5f);
  // The same triangle mirrored (hypotenuse on the left): the left chain's turns.
  c = contactCentre({{0, 0, 6}, {1, 1, 6}, {2, 2, 6}, {3, 3, 6}, {4, 4, 6}, {5, 5, 6}, {6, 6, 6}});
  EXPECT_NEAR(c.x, 0.5f + 12.0f / 3.0f, 1e-5f);
  EXPECT_NEAR(c.y, 0.5f + 6.0f / 3.0f, 1e-5f);
  // Pixels inside the hull do not matter; rows may be missing: a diamond's hull
  // (4, 0), (8, 4), (4, 8), (0, 4) is its centre.
  EXPECT_EQ(contactCentre({{0, 4, 4}, {2, 3, 5}, {4, 0, 8}, {6, 3, 5}, {8, 4, 4}}), glm::vec2(4.5f, 4.5f));
  // A dent on the right (a non-convex set): the hull bridges it.
  c = contactCentre({{0, 0, 4}, {1, 0, 1}, {2, 0, 4}});
  EXPECT_NEAR(c.x, 2.5f, 1e-5f);  // the hull is the 5 x 3 rectangle of centres
  EXPECT_NEAR(c.y, 1.5f, 1e-5f);
  EXPECT_EQ(contactCentre({{1, 1, 1}, {4, 4, 4}, {7, 7, 7}}), glm::vec2(4.5f, 4.5f));  // collinear diagonal
}

TEST(Radar, BadQueriesAreErrorsThatNameTheQuery) {
  RadarScene scene;
  ASSERT_TRUE(scene.add(kGround, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0)).ok());
  EXPECT_FALSE(scene.add(kGround, makeBox({0, 0, 0}, {1, 1, 1}, 0)).ok());
  EXPECT_FALSE(scene.add(kRadarNoObject, makeBox({0, 0, 0}, {1, 1, 1}, 0)).ok());
  std::vector<RadarQuery> queries(2);
  queries[1].probe.direction = {0, 1, 0};  // parallel to up
  auto radar = makeCpuRadar();
  auto result = radar->run(scene, queries, {16, 16});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("radar query 1"), std::string::npos) << result.error().message;
  queries[1] = RadarQuery{};
  queries[1].mode = RadarMode::Collide;
  queries[1].sensor = 77;
  result = radar->run(scene, queries, {16, 16});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("77"), std::string::npos);
  EXPECT_FALSE(radar->run(scene, std::span<const RadarQuery>(queries.data(), 1), {0, 16}).ok());
  EXPECT_FALSE(radar->run(scene, std::span<const RadarQuery>(queries.data(), 1), {HG_RADAR_MAX_IMAGE + 1, 16}).ok());
}

}  // namespace
}  // namespace hg
