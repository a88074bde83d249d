// The Cyber Radar grasp (sim/radar/Grasp.h; docs/methods.md section 3, "Application in the
// source"): 17 radars per hand, detection by ID past a distractor, an approach that stops
// short of the target, fingers closed joint by joint to contact or their limit without
// penetrating (exact distances to the analytic shape), five hands in one batch a frame.
// Mesh targets (shape "mesh"): parsing errors that name the file, distances from the
// sphere tree within about a voxel of the analytic ones, the bottle scene's grasp.
// Small images (16..24 pixels) and few frames: the file runs in seconds, also under ASan.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/core/Numbers.h"
#include "sim/radar/Grasp.h"
#include "tests/support/GlmExpect.h"

namespace hg {
namespace {

using test::angleDegrees;

constexpr std::uint32_t kTarget = 1, kDistractor = 2;

/// Forwards to the CPU reference and records each batch's size and the last hits.
class RecordingRadar final : public RadarBackend {
 public:
  std::string_view name() const override { return "recording"; }
  Result<std::vector<RadarHit>> run(const RadarScene& scene, std::span<const RadarQuery> queries,
                                    RadarImageSize size) override {
    batches.push_back(queries.size());
    auto hits = m_cpu->run(scene, queries, size);
    if (hits) lastHits = *hits;
    return hits;
  }
  Result<RadarImages> images() const override { return m_cpu->images(); }
  std::vector<std::size_t> batches;
  std::vector<RadarHit> lastHits;

 private:
  std::unique_ptr<RadarBackend> m_cpu = makeCpuRadar();
};

GraspSettings fastSettings(int image) {
  GraspSettings s;
  s.image = {image, image};
  s.scanStep = 30.0f * kDegree;
  s.approachStep = 0.1f;
  s.maxFrames = 100;
  return s;
}

GraspHandPlacement handAt(glm::vec3 position, glm::vec3 facing, glm::vec3 fingers) {
  GraspHandPlacement p;
  p.position = position;
  p.facing = facing;
  p.fingers = fingers;
  return p;
}

/// One hand beside a vertical bottle (capsule), facing a distractor ball first; the
/// bottle is a quarter turn away about +y.
GraspScene oneHand(int image) {
  GraspScene scene;
  scene.target.shape = GraspObject::Shape::Capsule;
  scene.target.a = {0.0f, -0.12f, 0.0f};
  scene.target.b = {0.0f, 0.12f, 0.0f};
  scene.target.radius = 0.035f;
  scene.target.id = kTarget;
  scene.target.detail = 3;
  GraspObject ball;
  ball.center = {0.3f, 0.0f, -0.3f};
  ball.radius = 0.05f;
  ball.id = kDistractor;
  ball.detail = 2;
  scene.distractors.push_back(ball);
  scene.hands.push_back(handAt({0.3f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}, {1.0f, 0.0f, 0.0f}));
  scene.settings = fastSettings(image);
  scene.settings.detectWidth = scene.settings.detectHeight = 0.4f;  // the bottle, 0.3 m aside, is out of view
  return scene;
}

/// Five hands around a ball, turned away from it by different angles; a box distractor.
GraspScene fiveHands(int image) {
  GraspScene scene;
  scene.target.radius = 0.12f;
  scene.target.id = kTarget;
  scene.target.detail = 3;
  GraspObject box;
  box.shape = GraspObject::Shape::Box;
  box.center = {0.3f, -0.045f, -0.26f};
  box.size = glm::vec3(0.06f);
  box.id = kDistractor;
  scene.distractors.push_back(box);
  const float offsets[5] = {120.0f, 45.0f, 160.0f, 80.0f, 200.0f};
  for (int h = 0; h < 5; ++h) {
    const float phi = float(h) * 72.0f * kDegree, a = -offsets[h] * kDegree;
    const glm::vec3 inward(-std::cos(phi), 0.0f, -std::sin(phi));
    const glm::vec3 facing(inward.x * std::cos(a) + inward.z * std::sin(a), 0.0f,
                           -inward.x * std::sin(a) + inward.z * std::cos(a));
    scene.hands.push_back(handAt({0.45f * std::cos(phi), -0.045f, 0.45f * std::sin(phi)}, facing, {0, 1, 0}));
  }
  scene.settings = fastSettings(image);
  return scene;
}

/// The largest pixel of a finger segment's sweep (the proximal segment is the longest).
float segmentPixel(const HandModel& hand, int image) {
  float longest = 0.0f;
  for (int s = 1; s < kHandSegments; ++s) {
    const HandSegmentFrame f = hand.segmentFrame(s);
    longest = std::max({longest, f.end - f.start, f.width});
  }
  return longest / float(image - 1);
}

TEST(HandModel, SeventeenRadarsAndSegmentsThatCloseTowardThePalmSide) {
  static_assert(kHandSegments == 16 && kHandRadars == 17);
  HandModel hand;
  ASSERT_TRUE(hand.spec().validate().ok());
  HandPose pose;
  pose.position = {0.1f, 0.2f, 0.3f};
  hand.setPose(pose);
  // The index tip: straight along +y; with the proximal joint closed 90 degrees, along +z.
  const int distal = HandModel::segmentIndex(1, 2);
  HandSegmentFrame tip = hand.segmentFrame(distal);
  EXPECT_LT(angleDegrees(tip.along, {0, 1, 0}), 1e-3f);
  hand.setJointAngle(1, 0, 0.5f * kPi);
  tip = hand.segmentFrame(distal);
  EXPECT_LT(angleDegrees(tip.along, {0, 0, 1}), 1e-3f);
  EXPECT_LT(angleDegrees(tip.normal, {0, -1, 0}), 1e-3f);
  hand.setJointAngle(1, 1, 10.0f);  // clamped to the limit
  EXPECT_FLOAT_EQ(hand.jointAngle(1, 1), hand.jointLimit(1, 1));
  // Hinges on the palm side: a fully bent neighbour stays outside a segment's box.
  hand.open();
  for (int f = 0; f < kHandFingers; ++f)
    for (int k = 0; k < kHandJointsPerFinger; ++k) hand.setJointAngle(f, k, hand.jointLimit(f, k));
  for (int s = 1; s < kHandSegments; ++s) {
    const HandSegmentFrame inner = s % 3 == 1 ? hand.segmentFrame(0) : hand.segmentFrame(s - 1);
    if (s % 3 == 1 && s != 1) continue;  // the four fingers start at the palm's edge; the thumb beside it
    const glm::vec3 lo = s % 3 == 1 ? hand.localMin(0) : hand.localMin(s - 1);
    const glm::vec3 hi = s % 3 == 1 ? hand.localMax(0) : hand.localMax(s - 1);
    for (const glm::vec3& p : hand.segmentPositions(s)) {
      const glm::vec3 d = p - inner.origin;
      const glm::vec3 c(glm::dot(d, inner.lateral), glm::dot(d, inner.along), glm::dot(d, inner.normal));
      const bool inside = c.x > lo.x + 1e-6f && c.x < hi.x - 1e-6f && c.y > lo.y + 1e-6f && c.y < hi.y - 1e-6f &&
                          c.z > lo.z + 1e-6f && c.z < hi.z - 1e-6f;
      EXPECT_FALSE(inside) << "segment " << s;
    }
  }
}

TEST(GraspObject, MeshEnclosesTheAnalyticShapeAndDistancesAreExact) {
  GraspObject capsule;
  capsule.shape = GraspObject::Shape::Capsule;
  capsule.a = {0.0f, -0.1f, 0.0f};
  capsule.b = {0.0f, 0.1f, 0.0f};
  capsule.radius = 0.04f;
  capsule.detail = 2;
  GraspObject sphere;
  sphere.radius = 0.1f;
  sphere.detail = 2;
  for (const GraspObject* o : {&capsule, &sphere}) {
    const TriangleMesh mesh = o->mesh();
    // No face cuts into the shape: every triangle's centroid is outside it.
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
      const glm::vec3 c = (mesh.positions[mesh.indices[3 * t]] + mesh.positions[mesh.indices[3 * t + 1]] +
                           mesh.positions[mesh.indices[3 * t + 2]]) /
                          3.0f;
      ASSERT_GE(o->distance(glm::dvec3(c)), -1e-6) << "triangle " << t;
    }
  }
  // A 2 cm cube 5 cm beside the sphere, and across the capsule's side.
  const std::array<glm::dvec3, 3> axes = {glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)};
  EXPECT_NEAR(sphere.boxDistance({0.15, 0.0, 0.0}, axes, {0.0, -0.01, -0.01}, {0.02, 0.01, 0.01}), 0.05, 1e-7);
  EXPECT_NEAR(capsule.boxDistance({0.0, 0.03, 0.1}, axes, {-0.01, -0.01, 0.0}, {0.01, 0.01, 0.02}), 0.06, 1e-9);
  EXPECT_NEAR(capsule.distance({0.0, 0.15, 0.0}), 0.01, 1e-7);  // float inputs
}

TEST(Grasp, DetectsTheTargetByIdAndNotTheDistractorInFront) {
  auto sim = GraspSimulation::create(oneHand(16));
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  RecordingRadar radar;
  // Frame 1: the hand faces the distractor; its ID is seen, the target's is not: it turns on.
  ASSERT_TRUE(sim->step(radar).ok());
  ASSERT_EQ(radar.lastHits.size(), std::size_t(kHandRadars));
  EXPECT_TRUE(radar.lastHits[0].sees(kDistractor));
  EXPECT_FALSE(radar.lastHits[0].sees(kTarget));
  EXPECT_EQ(sim->phase(0), GraspPhase::Detect);
  while (sim->phase(0) == GraspPhase::Detect && sim->frame() < 20) ASSERT_TRUE(sim->step(radar).ok());
  ASSERT_EQ(sim->phase(0), GraspPhase::Approach);
  const GraspHandReport report = sim->report().hands[0];
  EXPECT_TRUE(report.targetSeen);
  EXPECT_GE(report.scanFrames, 1);
  // It now faces the bottle: the palm normal points at its axis (horizontally).
  const HandModel& hand = sim->hand(0);
  glm::vec3 toTarget = -hand.palmCentre();
  toTarget.y = 0.0f;
  EXPECT_LT(angleDegrees(hand.palmNormal(), toTarget), 2.0f);
  EXPECT_NEAR(report.targetSeenAt.x, 0.035f, 0.01f);  // the bottle's near side
}

TEST(Grasp, ApproachStopsJustShortOfTheTarget) {
  const GraspScene scene = oneHand(16);
  auto sim = GraspSimulation::create(scene);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  RecordingRadar radar;
  while (sim->phase(0) != GraspPhase::Close && sim->frame() < 30) ASSERT_TRUE(sim->step(radar).ok());
  ASSERT_EQ(sim->phase(0), GraspPhase::Close);
  const GraspHandReport report = sim->report().hands[0];
  EXPECT_EQ(report.approachObject, kTarget);
  EXPECT_NEAR(report.approachGap, scene.settings.approachClearance, 1e-5f);
  EXPECT_TRUE(report.maskReused);  // the fitted volume's M kept while the hand translates
  // Exact: the palm is clear of the analytic bottle by about the clearance, under a few mm.
  const double palm = report.segmentExactDistance[0];
  EXPECT_GT(palm, 0.0);
  EXPECT_LT(palm, double(scene.settings.approachClearance) + 0.002);
  for (double d : report.segmentExactDistance) EXPECT_GT(d, 0.0);
}

TEST(Grasp, FingersCloseToContactOrTheirLimitWithoutPenetrating) {
  const GraspScene scene = oneHand(24);
  auto sim = GraspSimulation::create(scene);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  RecordingRadar radar;
  ASSERT_TRUE(sim->run(radar).ok());
  const GraspReport report = sim->report();
  ASSERT_TRUE(report.finished);
  const GraspHandReport& hand = report.hands[0];
  ASSERT_EQ(hand.phase, GraspPhase::Done) << hand.failure;
  EXPECT_GT(hand.phaseFrames[2], 3);
  const float pixel = segmentPixel(sim->hand(0), 24);
  const float band = scene.settings.graspClearance + scene.settings.contactTolerance;
  int contacts = 0;
  for (int f = 0; f < kHandFingers; ++f) {
    const GraspFingerReport& finger = hand.fingers[std::size_t(f)];
    EXPECT_TRUE(finger.contact || finger.atLimit) << "finger " << f;
    for (int k = 0; k < kHandJointsPerFinger; ++k) {
      EXPECT_GE(finger.angles[std::size_t(k)], 0.0f);
      EXPECT_LE(finger.angles[std::size_t(k)], sim->hand(0).jointLimit(f, k));
    }
    if (finger.contact) {
      ++contacts;
      EXPECT_EQ(finger.contactObject, kTarget) << "finger " << f;
      // In contact: within about a pixel of the bottle (exact), the radar's gap in the band.
      EXPECT_LT(finger.exactDistance, double(band + pixel)) << "finger " << f;
      EXPECT_GE(finger.radarGap, 0.0f) << "finger " << f;
      EXPECT_LE(finger.radarGap, band + 1e-4f) << "finger " << f;
    }
  }
  EXPECT_GE(contacts, 4);
  // No penetration: solid boxes and vertices against the analytic capsule.
  for (int s = 0; s < kHandSegments; ++s) {
    EXPECT_GE(hand.segmentExactDistance[std::size_t(s)], 0.0) << "segment " << s;
    EXPECT_GE(hand.segmentVertexDistance[std::size_t(s)], 0.0) << "segment " << s;
  }
  // One batch a frame, 17 radars each.
  for (std::size_t b : radar.batches) EXPECT_EQ(b, std::size_t(kHandRadars));
}

TEST(Grasp, FiveHandsGraspOneBallWithAllTheirRadarsInOneBatchPerFrame) {
  const GraspScene scene = fiveHands(16);
  auto sim = GraspSimulation::create(scene);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  RecordingRadar radar;
  ASSERT_TRUE(sim->run(radar).ok());
  const GraspReport report = sim->report();
  ASSERT_TRUE(report.finished);
  EXPECT_EQ(report.radarsPerFrame, std::size_t(5 * 17));
  ASSERT_EQ(radar.batches.size(), std::size_t(report.frames));
  for (std::size_t b : radar.batches) EXPECT_EQ(b, std::size_t(85));
  EXPECT_EQ(radar.lastHits.size(), std::size_t(85));
  EXPECT_EQ(report.radarsRun, std::size_t(85) * std::size_t(report.frames));
  const float pixel = segmentPixel(sim->hand(0), 16);
  const float band = scene.settings.graspClearance + scene.settings.contactTolerance;
  for (std::size_t h = 0; h < report.hands.size(); ++h) {
    const GraspHandReport& hand = report.hands[h];
    ASSERT_EQ(hand.phase, GraspPhase::Done) << "hand " << h << ": " << hand.failure;
    EXPECT_EQ(hand.approachObject, kTarget) << "hand " << h;
    for (int f = 0; f < kHandFingers; ++f) {
      const GraspFingerReport& finger = hand.fingers[std::size_t(f)];
      EXPECT_TRUE(finger.contact || finger.atLimit) << "hand " << h << " finger " << f;
      if (finger.contact) {
        EXPECT_LT(finger.exactDistance, double(band + pixel)) << "hand " << h << " finger " << f;
      }
    }
    for (double d : hand.segmentExactDistance) EXPECT_GE(d, 0.0) << "hand " << h;
    for (double d : hand.segmentVertexDistance) EXPECT_GE(d, 0.0) << "hand " << h;
  }
}

/// Writes an OBJ of `mesh` (positions and faces only).
void writeObj(const std::filesystem::path& path, const TriangleMesh& mesh) {
  std::ofstream out(path);
  for (const glm::vec3& p : mesh.positions) out << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t)
    out << "f " << mesh.indices[3 * t] + 1 << ' ' << mesh.indices[3 * t + 1] + 1 << ' ' << mesh.indices[3 * t + 2] + 1
        << '\n';
}

TEST(GraspScene, MeshTargetsLoadFromFilesAndBuiltinsAndErrorsNameTheFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "hg_grasp_mesh_test";
  std::filesystem::create_directories(dir);
  TriangleMesh box = makeBox(glm::vec3(-0.05f), glm::vec3(0.05f), 0);
  writeObj(dir / "box.obj", box);
  TriangleMesh open = box;
  open.indices.resize(open.indices.size() - 3);  // one triangle short: an open boundary
  writeObj(dir / "open.obj", open);
  const std::string hands = R"("hands": [{"position": [0.3, 0, 0]}])";

  // A file relative to the scene's folder, scaled, rotated and placed.
  auto parsed = parseGraspScene(R"({"target": {"shape": "mesh", "mesh": "box.obj", "scale": 2, "resolution": 32,
      "position": [0.1, 0.2, 0.3], "rotation_deg": [0, 0, 45]}, )" +
                                    hands + "}",
                                "a.json", dir);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const GraspObject& target = parsed->target;
  ASSERT_EQ(target.shape, GraspObject::Shape::Mesh);
  ASSERT_TRUE(target.meshShape);
  EXPECT_EQ(target.meshShape->source, "box.obj");
  EXPECT_EQ(target.meshShape->local.triangleCount(), box.triangleCount());
  EXPECT_EQ(target.meshShape->resolution, 32);
  EXPECT_NEAR(target.meshShape->tree.voxel(), 0.2f / 32.0f, 1e-6f);
  // The 0.2 m cube turned 45 degrees about z: its centre at the position, a corner edge
  // reaching 0.1 sqrt(2) along x.
  EXPECT_NEAR(glm::length(target.centre() - glm::vec3(0.1f, 0.2f, 0.3f)), 0.0f, 1e-5f);
  const TriangleMesh world = target.mesh();
  float reach = 0.0f;
  for (const glm::vec3& p : world.positions) reach = std::max(reach, p.x - 0.1f);
  EXPECT_NEAR(reach, 0.1f * std::sqrt(2.0f), 1e-5f);
  // Distances: the cube's face (along the rotated x axis) within about a voxel.
  const glm::vec3 faceNormal(std::cos(kPi / 4), std::sin(kPi / 4), 0.0f);
  const glm::dvec3 outside = glm::dvec3(glm::vec3(0.1f, 0.2f, 0.3f) + 0.15f * faceNormal);
  EXPECT_NEAR(target.distance(outside), 0.05, double(target.meshShape->tree.voxel()));
  // The built-in bottle.
  auto bottle = parseGraspScene(
      R"({"target": {"shape": "mesh", "builtin": "bottle", "resolution": 32}, )" + hands + "}", "a.json");
  ASSERT_TRUE(bottle.ok()) << bottle.error().message;
  EXPECT_EQ(bottle->target.meshShape->local.triangleCount(), 12090u);
  EXPECT_NEAR(bottle->target.centre().y, 0.15f, 1e-3f);

  struct Case {
    std::string target, expected;
  };
  const std::string missing = (dir / "missing.obj").string();
  const Case cases[] = {
      {R"({"shape": "mesh"})", "target: a mesh object needs one of \"mesh\" (a file) or \"builtin\""},
      {R"({"shape": "mesh", "mesh": "box.obj", "builtin": "bottle"})", "needs one of"},
      {R"({"shape": "mesh", "builtin": "cup"})", "target.builtin must be \"bottle\""},
      {R"({"shape": "mesh", "builtin": "bottle", "radius": 0.1})", "target.radius does not apply to a mesh"},
      {R"({"shape": "mesh", "builtin": "bottle", "resolution": 4})", "target.resolution = 4 is out of range (8..512)"},
      {R"({"shape": "mesh", "builtin": "bottle", "scale": -1})", "target.scale"},
      {R"({"builtin": "bottle"})", "target.builtin applies to a mesh only"},
      {R"({"shape": "cone"})", "target.shape must be \"sphere\", \"capsule\" or \"mesh\""},
      {R"({"shape": "mesh", "mesh": "missing.obj"})", "target.mesh: " + missing + ": cannot read mesh"},
      {R"({"shape": "mesh", "mesh": "open.obj"})",
       "target (" + (dir / "open.obj").string() + "): voxelize: the mesh is not watertight"},
  };
  for (const Case& c : cases) {
    auto bad = parseGraspScene("{\"target\": " + c.target + ", " + hands + "}", "a.json", dir);
    ASSERT_FALSE(bad.ok()) << c.target;
    EXPECT_EQ(bad.error().message.rfind("a.json: ", 0), 0u) << bad.error().message;
    EXPECT_NE(bad.error().message.find(c.expected), std::string::npos) << bad.error().message;
  }
  // A mesh distractor too.
  auto distractor = parseGraspScene(
      "{\"target\": {}, " + hands + R"(, "distractors": [{"shape": "mesh", "mesh": "open.obj", "id": 5}]})", "a.json",
      dir);
  ASSERT_FALSE(distractor.ok());
  EXPECT_NE(distractor.error().message.find("distractors[0] (" + (dir / "open.obj").string() + ")"), std::string::npos)
      << distractor.error().message;
  std::filesystem::remove_all(dir);
}

TEST(GraspObject, MeshOfASphereGivesTheAnalyticDistancesWithinAVoxel) {
  GraspObject sphere;
  sphere.radius = 0.08f;
  sphere.detail = 4;
  // The same sphere as a mesh object: its (enclosing) mesh centred at the origin, turned
  // and placed at the sphere's centre.
  const glm::vec3 centre(0.02f, -0.01f, 0.03f);
  sphere.center = centre;
  GraspObject atOrigin = sphere;
  atOrigin.center = glm::vec3(0.0f);
  RigidPose pose;
  pose.rotation = glm::mat3_cast(glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 3.0f))));
  pose.translation = centre;
  auto mesh = makeMeshGraspObject(atOrigin.mesh(), pose, 64, 1, "sphere", "sphere");
  ASSERT_TRUE(mesh.ok()) << mesh.error().message;
  const double voxel = double(mesh->meshShape->tree.voxel());
  ASSERT_GT(voxel, 0.0);
  EXPECT_LT(glm::length(mesh->centre() - centre), 1e-3f);
  std::mt19937 rng(5);
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::uniform_real_distribution<float> gap(0.0f, 0.1f), half(0.002f, 0.03f);
  double worstPoint = 0.0, worstBox = 0.0;
  for (int c = 0; c < 100; ++c) {
    const glm::vec3 dir = glm::normalize(glm::vec3(n(rng), n(rng), n(rng)));
    // Points outside the sphere.
    const glm::dvec3 p = glm::dvec3(centre + (sphere.radius + gap(rng)) * dir);
    EXPECT_NEAR(mesh->distance(p), sphere.distance(p), voxel) << "point " << c;
    worstPoint = std::max(worstPoint, std::abs(mesh->distance(p) - sphere.distance(p)));
    // Boxes (a finger segment's frame) apart from it, turned at random.
    const glm::mat3 r = glm::mat3_cast(glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng))));
    const std::array<glm::dvec3, 3> axes = {glm::dvec3(r[0]), glm::dvec3(r[1]), glm::dvec3(r[2])};
    const glm::dvec3 h(half(rng), half(rng), half(rng));
    const glm::dvec3 origin = glm::dvec3(centre) + double(sphere.radius + 0.05f + gap(rng)) * glm::dvec3(dir);
    const double analytic = sphere.boxDistance(origin, axes, -h, h);
    if (!(analytic > 0.0)) continue;
    EXPECT_NEAR(mesh->boxDistance(origin, axes, -h, h), analytic, voxel) << "box " << c;
    worstBox = std::max(worstBox, std::abs(mesh->boxDistance(origin, axes, -h, h) - analytic));
  }
  std::printf("sphere r = %.2f m as a mesh at 64 voxels (%.2f mm): largest error %.3f mm (points), %.3f mm (boxes)\n",
              double(sphere.radius), 1e3 * voxel, 1e3 * worstPoint, 1e3 * worstBox);
  // Inside: negative, about the depth.
  EXPECT_LT(mesh->distance(glm::dvec3(centre)), -0.5 * double(sphere.radius));
}

TEST(Grasp, FingersCloseOnTheBottleSceneAndTheSphereTreeCheckSeesNoDeepPenetration) {
  const std::filesystem::path scenes = std::filesystem::path(HG_SOURCE_DIR) / "scenes";
  auto scene = loadGraspScene(scenes / "grasp" / "bottle.json");
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  ASSERT_EQ(scene->target.shape, GraspObject::Shape::Mesh);
  scene->settings.image = {24, 24};  // faster; the scene runs at 32
  auto sim = GraspSimulation::create(*scene);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  EXPECT_EQ(sim->targetMesh().triangleCount(), 12090u);
  RecordingRadar radar;
  ASSERT_TRUE(sim->run(radar).ok());
  const GraspReport report = sim->report();
  ASSERT_TRUE(report.finished);
  EXPECT_EQ(report.distanceMethod, "sphere_tree");
  const float voxel = scene->target.meshShape->tree.voxel();
  EXPECT_EQ(report.distanceVoxel, voxel);
  EXPECT_EQ(report.checkSpheres, scene->target.meshShape->tree.spheres().size());
  const GraspHandReport& hand = report.hands[0];
  ASSERT_EQ(hand.phase, GraspPhase::Done) << hand.failure;
  EXPECT_EQ(hand.approachObject, kTarget);
  const float pixel = segmentPixel(sim->hand(0), 24);
  const float band = scene->settings.graspClearance + scene->settings.contactTolerance;
  int contacts = 0;
  for (int f = 0; f < kHandFingers; ++f) {
    const GraspFingerReport& finger = hand.fingers[std::size_t(f)];
    if (!finger.contact) continue;
    ++contacts;
    EXPECT_EQ(finger.contactObject, kTarget) << "finger " << f;
    // In contact: within about a pixel of the bottle (its sphere tree, about a voxel).
    EXPECT_LT(finger.exactDistance, double(band + pixel + voxel)) << "finger " << f;
  }
  EXPECT_GE(contacts, 4);
  // No segment enters the bottle deeper than the tree's accuracy; the check agrees with
  // the exact-distance columns (both from the same tree).
  for (int s = 0; s < kHandSegments; ++s) {
    EXPECT_GT(hand.segmentExactDistance[std::size_t(s)], -double(voxel)) << "segment " << s;
    EXPECT_GT(hand.segmentVertexDistance[std::size_t(s)], -double(voxel)) << "segment " << s;
    EXPECT_NEAR(hand.segmentTreePenetration[std::size_t(s)], -hand.segmentExactDistance[std::size_t(s)], 1e-9);
    EXPECT_EQ(hand.segmentTreeOverlap[std::size_t(s)], hand.segmentTreePenetration[std::size_t(s)] > 0.0)
        << "segment " << s;
  }
}

TEST(Grasp, TheSphereTreeCheckOfAnAnalyticTargetAgreesWithTheExactDistances) {
  const GraspScene scene = oneHand(24);
  auto sim = GraspSimulation::create(scene);
  ASSERT_TRUE(sim.ok()) << sim.error().message;
  RecordingRadar radar;
  ASSERT_TRUE(sim->run(radar).ok());
  const GraspReport report = sim->report();
  EXPECT_EQ(report.distanceMethod, "analytic");
  EXPECT_EQ(report.checkResolution, kGraspCheckResolution);
  ASSERT_GT(report.checkVoxel, 0.0f);
  ASSERT_GT(report.checkSpheres, 100u);
  const GraspHandReport& hand = report.hands[0];
  // The tree fills the capsule's (enclosing) mesh: its penetration estimate is minus the
  // exact box distance to within about a voxel (and the mesh's few tenths of a mm).
  for (int s = 0; s < kHandSegments; ++s) {
    EXPECT_NEAR(hand.segmentTreePenetration[std::size_t(s)], -hand.segmentExactDistance[std::size_t(s)],
                1.5 * double(report.checkVoxel))
        << "segment " << s;
  }
}

TEST(GraspScene, ShippedScenesLoadAndErrorsNameTheFileAndKey) {
  const std::filesystem::path scenes = std::filesystem::path(HG_SOURCE_DIR) / "scenes";
  auto five = loadGraspScene(scenes / "grasp" / "five_hands.json");
  ASSERT_TRUE(five.ok()) << five.error().message;
  EXPECT_EQ(five->hands.size(), 5u);
  EXPECT_TRUE(GraspSimulation::create(*five).ok());
  auto one = loadGraspScene(scenes / "grasp" / "one_hand.json");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(one->target.shape, GraspObject::Shape::Capsule);
  auto bottle = loadGraspScene(scenes / "grasp" / "bottle.json");
  ASSERT_TRUE(bottle.ok()) << bottle.error().message;
  EXPECT_EQ(bottle->target.shape, GraspObject::Shape::Mesh);

  auto missing = loadGraspScene("/nonexistent/grasp.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/grasp.json: cannot open scene file"), std::string::npos);
  const std::string hands = R"("hands": [{"position": [0.3, 0, 0]}])";
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {"{\"target\": {}, " + hands, "a.json: not valid JSON"},
      {"{\"target\": {}, " + hands + ", \"motion\": {\"joint_stepdeg\": 5}}", "unknown key 'motion.joint_stepdeg'"},
      {"{\"target\": {\"id\": 200}, " + hands + "}", "target.id must be < 128"},
      {"{\"target\": {\"shape\": \"box\"}, " + hands + "}", "target.shape"},
      {"{\"target\": {}, \"hands\": []}", "hands must be a non-empty array"},
      {"{\"target\": {}, \"hands\": [{\"position\": [0, 0]}]}", "hands[0].position must be an array of 3 numbers"},
      {"{\"target\": {}, " + hands + ", \"distractors\": [{\"id\": 1}]}", "distractors[0].id 1 is already used"},
      {"{\"target\": {}, " + hands + ", \"radar\": {\"image\": 4}}", "radar.image"},
  };
  for (const Case& c : cases) {
    auto parsed = parseGraspScene(c.text, "a.json");
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_EQ(parsed.error().message.rfind("a.json: ", 0), 0u) << parsed.error().message;
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
  }
}

}  // namespace
}  // namespace hg
