// Radar sweeps of cloth patches against the body (sim/radar/ClothSweep.h; docs/methods.md
// section 3): the patch partition, the clamp at the analytic time of impact, patches off
// a collision course untouched, and a sheet dropped fast onto a thin bar at a large step
// that tunnels with the discrete contacts alone and holds with the sweeps (CPU solver,
// CPU radar). Also the scene key solver.continuous_collision and the demo scene.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/contact/DepthViews.h"
#include "sim/radar/ClothSweep.h"
#include "sim/scene/DrapeScene.h"

namespace hg {
namespace {

TriangleMesh sheet(int resolution, float size, glm::vec3 center) {
  auto mesh = makeSquareSheet({resolution, size, center});
  EXPECT_TRUE(mesh.ok());
  return mesh.ok() ? *mesh : TriangleMesh{};
}

ClothState stateOf(const TriangleMesh& mesh, glm::vec3 offset, glm::vec3 velocity) {
  ClothState state;
  for (const glm::vec3& p : mesh.positions) {
    state.positions.emplace_back(p + offset, 1.0f);
    state.velocities.emplace_back(velocity, 0.0f);
  }
  return state;
}

TEST(ClothSweep, PatchesAreConnectedAndCoverEveryTriangleOnce) {
  const TriangleMesh mesh = sheet(16, 0.3f, {0.0f, 0.0f, 0.0f});
  for (int target : {1, 8, 16, 32}) {
    auto patches = partitionClothPatches(mesh.indices, mesh.positions.size(), target);
    ASSERT_TRUE(patches.ok()) << patches.error().message;
    const std::size_t triangles = mesh.indices.size() / 3;
    std::vector<int> seen(triangles, 0);
    for (std::size_t p = 0; p < patches->size(); ++p) {
      const auto tris = patches->trianglesOf(p);
      ASSERT_FALSE(tris.empty());
      EXPECT_LE(int(tris.size()), target + target / 2 + 1) << "patch " << p << " of target " << target;
      for (std::uint32_t t : tris) ++seen[t];
      // Connected through shared edges: a flood fill inside the patch reaches all of it.
      auto sharesEdge = [&](std::uint32_t a, std::uint32_t b) {
        int shared = 0;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            shared += mesh.indices[3 * a + std::uint32_t(i)] == mesh.indices[3 * b + std::uint32_t(j)];
        return shared == 2;
      };
      std::vector<std::uint32_t> reached{tris[0]};
      std::set<std::uint32_t> in{tris[0]};
      for (std::size_t head = 0; head < reached.size(); ++head)
        for (std::uint32_t t : tris)
          if (!in.count(t) && sharesEdge(reached[head], t)) {
            in.insert(t);
            reached.push_back(t);
          }
      EXPECT_EQ(reached.size(), tris.size()) << "patch " << p << " of target " << target << " is not connected";
      // Its vertices are exactly those of its triangles.
      std::set<std::uint32_t> vertices;
      for (std::uint32_t t : tris)
        for (int c = 0; c < 3; ++c) vertices.insert(mesh.indices[3 * t + std::uint32_t(c)]);
      const auto listed = patches->verticesOf(p);
      EXPECT_EQ(std::vector<std::uint32_t>(vertices.begin(), vertices.end()),
                std::vector<std::uint32_t>(listed.begin(), listed.end()));
    }
    for (std::size_t t = 0; t < triangles; ++t) EXPECT_EQ(seen[t], 1) << "triangle " << t << ", target " << target;
    if (target == 16) {
      EXPECT_GE(patches->size(), triangles / 24);  // few tiny patches
      EXPECT_LE(patches->size(), triangles / 8);
    }
  }
  EXPECT_FALSE(partitionClothPatches(std::vector<std::uint32_t>{0, 1}, 3, 16).ok());
  EXPECT_FALSE(partitionClothPatches(std::vector<std::uint32_t>{0, 1, 5}, 3, 16).ok());
  EXPECT_FALSE(partitionClothPatches(std::vector<std::uint32_t>{0, 1, 2}, 3, 0).ok());
}

TEST(ClothSweep, SinglePatchMovingOntoAPlaneStopsAtTheAnalyticTimeOfImpact) {
  // One patch (3 x 3 vertices, 8 triangles) moving obliquely through the top face y = 0 of
  // a slab: it must stop with its (flat) bottom `clearance` above the face.
  const TriangleMesh ground = makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0);
  const TriangleMesh patch = sheet(3, 0.1f, {0.0f, 0.3f, 0.0f});
  ClothSweepSettings settings;
  settings.patchTriangles = 16;
  settings.image = 16;
  settings.clearance = 0.005f;
  auto sweep = ClothSweep::create(patch.indices, patch.positions.size(), ground, settings);
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  ASSERT_EQ((*sweep)->patches().size(), 1u);
  constexpr float kDt = 1.0f / 30.0f;  // s
  const glm::vec3 displacement(0.2f, -0.8f, 0.0f), velocity(6.0f, -24.0f, 0.0f);
  const ClothState before = stateOf(patch, glm::vec3(0.0f), velocity);
  ClothState after = stateOf(patch, displacement, velocity);
  bool changed = false;
  ASSERT_TRUE((*sweep)->resolve(before, after, kDt, changed).ok());
  ASSERT_TRUE(changed);
  const ClothSweepReport& report = (*sweep)->lastReport();
  EXPECT_EQ(report.swept, 1u);
  EXPECT_EQ(report.hits, 1u);
  EXPECT_EQ(report.clampedVertices, patch.positions.size());
  // Analytic: the plane is 0.3 m below along y, so at t = (0.3 - c) / 0.8 the patch is c above.
  const float t = (0.3f - settings.clearance) / 0.8f;
  const float pixel = 0.1f / float(settings.image);  // the volume is at least the patch wide
  EXPECT_NEAR(report.earliestImpact, t, pixel / 0.8f);
  for (std::size_t i = 0; i < patch.positions.size(); ++i) {
    const glm::vec3 expected = patch.positions[i] + t * displacement;
    EXPECT_NEAR(after.positions[i].y, settings.clearance, pixel) << "vertex " << i;
    EXPECT_LT(glm::length(glm::vec3(after.positions[i]) - expected), pixel) << "vertex " << i;
    EXPECT_FLOAT_EQ(after.positions[i].w, 1.0f);
    // The velocity is that of the motion made, t d / dt, less its part into the face (down).
    EXPECT_NEAR(after.velocities[i].y, 0.0f, 0.05f * 24.0f);
    EXPECT_NEAR(after.velocities[i].x, t * displacement.x / kDt, 0.05f * 6.0f);
  }
}

TEST(ClothSweep, PatchesOffACollisionCourseAreUntouched) {
  // A sheet moving down 0.8 m through y = 0, with a slab only under x < -0.1: patches
  // wholly beyond x = 0 keep their motion bitwise; those wholly over the slab stop on it.
  const TriangleMesh slab = makeBox({-1.0f, -0.2f, -1.0f}, {-0.1f, 0.0f, 1.0f}, 0);
  const TriangleMesh cloth = sheet(12, 0.6f, {0.0f, 0.3f, 0.0f});
  ClothSweepSettings settings;
  settings.patchTriangles = 8;
  auto sweep = ClothSweep::create(cloth.indices, cloth.positions.size(), slab, settings);
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  const ClothState before = stateOf(cloth, glm::vec3(0.0f), {0.0f, -24.0f, 0.0f});
  const ClothState free = stateOf(cloth, {0.0f, -0.8f, 0.0f}, {0.0f, -24.0f, 0.0f});
  ClothState after = free;
  bool changed = false;
  ASSERT_TRUE((*sweep)->resolve(before, after, 1.0f / 30.0f, changed).ok());
  EXPECT_TRUE(changed);
  const ClothPatches& patches = (*sweep)->patches();
  std::vector<float> lowestX(cloth.positions.size(), 1e30f), highestX(cloth.positions.size(), -1e30f);
  int farPatches = 0, overPatches = 0;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    float lo = 1e30f, hi = -1e30f;
    for (std::uint32_t v : patches.verticesOf(p)) {
      lo = std::min(lo, cloth.positions[v].x);
      hi = std::max(hi, cloth.positions[v].x);
    }
    farPatches += lo > 0.0f;
    overPatches += hi < -0.1f;
    for (std::uint32_t v : patches.verticesOf(p)) {
      lowestX[v] = std::min(lowestX[v], lo);
      highestX[v] = std::max(highestX[v], hi);
    }
  }
  ASSERT_GT(farPatches, 0);
  ASSERT_GT(overPatches, 0);
  for (std::size_t v = 0; v < cloth.positions.size(); ++v) {
    if (lowestX[v] > 0.0f) {  // every patch of v is far from the slab
      EXPECT_EQ(after.positions[v], free.positions[v]) << "vertex " << v;
      EXPECT_EQ(after.velocities[v], free.velocities[v]) << "vertex " << v;
    } else if (highestX[v] < -0.1f) {  // every patch of v is over the slab
      EXPECT_NEAR(after.positions[v].y, settings.clearance, 0.6f / 16.0f) << "vertex " << v;
    }
  }
  // Moving up, away from the slab: nothing to do.
  ClothState away = stateOf(cloth, {0.0f, 0.8f, 0.0f}, {0.0f, 24.0f, 0.0f});
  const ClothState awayCopy = away;
  ASSERT_TRUE((*sweep)->resolve(before, away, 1.0f / 30.0f, changed).ok());
  EXPECT_FALSE(changed);
  EXPECT_EQ((*sweep)->lastReport().hits, 0u);
  EXPECT_EQ(away.positions, awayCopy.positions);
  // At rest: no radar at all.
  ClothState still = before;
  ASSERT_TRUE((*sweep)->resolve(before, still, 1.0f / 30.0f, changed).ok());
  EXPECT_FALSE(changed);
  EXPECT_EQ((*sweep)->lastReport().swept, 0u);
}

// ---- a sheet dropped fast onto a thin bar ----

constexpr float kBarY = 0.5f, kBarRadius = 0.015f;  // m: a bar thinner than a forearm

struct DropOutcome {
  float highestY = 0.0f;   ///< m, the sheet's highest vertex at the end
  float lowestY = 0.0f;    ///< m
  int aboveBar = 0;        ///< vertices above the bar's axis at the end
  ClothSweepReport sweep;  ///< totals of the radar sweeps (none: zeros)
};

/// A 16 x 16 sheet 0.3 m wide (2 cm between vertices), `height` (m) above a horizontal
/// capsule of radius 1.5 cm seen through depth views and falling at `speed` (m/s),
/// simulated at 30 steps per second with 8 projective substeps (4.2 ms): at 6 m/s it
/// travels 2.5 cm per substep, most of the bar's 3 cm diameter, while at rest (speed 0)
/// the discrete contacts alone hold it.
DropOutcome dropOntoBar(bool sweep, int frames, float speed, float height) {
  DropOutcome outcome;
  const TriangleMesh bar = makeCapsule({-0.25f, kBarY, 0.0f}, {0.25f, kBarY, 0.0f}, kBarRadius, 4, 16);
  auto setup = makeDepthViewSetup(bar, DepthViewOptions{});
  EXPECT_TRUE(setup.ok());
  if (!setup) return outcome;
  auto views = rasterizeDepthViews(bar, {}, *setup);
  EXPECT_TRUE(views.ok());
  if (!views) return outcome;
  const TriangleMesh mesh = sheet(16, 0.3f, {0.0f, kBarY + height, 0.0f});
  auto model = buildClothModel(mesh, ClothMaterial{});
  EXPECT_TRUE(model.ok());
  if (!model) return outcome;
  auto shared = std::make_shared<const ClothModel>(std::move(model).value());
  ClothSettings settings;
  settings.colliders.spheres.clear();
  settings.colliders.grounds = {GroundCollider{0.0f}};
  settings.frameDt = 1.0f / 30.0f;
  settings.substeps = 8;
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.threads = 1;
  settings.colliders.depthViews = std::make_shared<const DepthViewImages>(std::move(views).value());
  std::shared_ptr<ClothSweep> radar;
  if (sweep) {
    auto created = ClothSweep::create(shared->triangles, shared->vertexCount(), bar, ClothSweepSettings{});
    EXPECT_TRUE(created.ok());
    if (!created) return outcome;
    radar = *created;
    settings.continuousCollision = radar;
  }
  auto solver = createCpuClothSolver(shared, settings);
  EXPECT_TRUE(solver.ok());
  if (!solver) return outcome;
  ClothState start = restState(*shared);
  for (glm::vec4& v : start.velocities) v = glm::vec4(0.0f, -speed, 0.0f, 0.0f);
  (*solver)->writeState(start);
  for (int f = 0; f < frames; ++f) {
    const StepStatus status = (*solver)->step();
    EXPECT_FALSE(any(status)) << "frame " << f << ": " << describe(status);
    EXPECT_TRUE((*solver)->continuousCollisionStatus().ok());
    if (any(status)) break;
  }
  const ClothState end = (*solver)->readState();
  outcome.highestY = -1e30f;
  outcome.lowestY = 1e30f;
  for (const glm::vec4& p : end.positions) {
    outcome.highestY = std::max(outcome.highestY, p.y);
    outcome.lowestY = std::min(outcome.lowestY, p.y);
    outcome.aboveBar += p.y > kBarY;
  }
  if (radar) outcome.sweep = radar->totals();
  return outcome;
}

TEST(ClothSweep, FastSheetTunnelsThroughAThinBarWithoutSweepsAndHoldsWithThem) {
  constexpr int kFrames = 45;  // 1.5 s
  // The step is fine enough for the discrete contacts when the sheet is laid on the bar.
  const DropOutcome slow = dropOntoBar(false, kFrames, 0.0f, 0.02f);
  EXPECT_GT(slow.highestY, kBarY + kBarRadius);
  EXPECT_GT(slow.aboveBar, 0);
  const DropOutcome without = dropOntoBar(false, kFrames, 6.0f, 0.1f);
  const DropOutcome with = dropOntoBar(true, kFrames, 6.0f, 0.1f);
  // Without sweeps: the whole sheet ends below the bar (on the ground).
  EXPECT_LT(without.highestY, kBarY - kBarRadius) << "the discrete contacts alone caught the sheet";
  EXPECT_EQ(without.aboveBar, 0);
  // With them: it hangs over the bar, its top resting on the bar's top.
  EXPECT_GT(with.highestY, kBarY + kBarRadius) << "the sheet tunnelled with the sweeps";
  // Not floating: the top rests on the bar, folded into a small roof of stopped patches
  // (patches stop as wholes; 4.7 cm above the bar's top at most here).
  EXPECT_LT(with.highestY, kBarY + kBarRadius + 0.06f);
  EXPECT_GT(with.aboveBar, 0);
  EXPECT_GT(with.lowestY, kBarY - 0.3f);  // hanging from the bar, nothing on the ground
  EXPECT_GT(with.sweep.hits, 0u);
  std::printf(
      "[ thin bar ] top %.4f m; highest vertex laid on it %.4f m, dropped at 6 m/s without sweeps %.4f m, "
      "with %.4f m (lowest %.4f m); %zu + %zu radars, %zu stops, %zu overlapping, %.1f ms of sweeps in "
      "%d frames\n",
      double(kBarY + kBarRadius), double(slow.highestY), double(without.highestY), double(with.highestY),
      double(with.lowestY), with.sweep.swept, with.sweep.retried, with.sweep.hits, with.sweep.overlapping,
      1e3 * with.sweep.seconds, kFrames);
}

/// Records every resolve() a solver makes: its interval and the motion it saw.
class RecordingPass final : public ContinuousCollision {
 public:
  explicit RecordingPass(int passes) : m_passes(passes) {}
  Status resolve(const ClothState& before, ClothState& after, float dt, bool& changed) override {
    intervals.push_back(dt);
    drops.push_back(before.positions[0].y - after.positions[0].y);
    changed = false;
    return Status::success();
  }
  int passesPerFrame() const override { return m_passes; }
  std::vector<float> intervals;  // s
  std::vector<float> drops;      // m, of vertex 0
 private:
  int m_passes;
};

// A free-falling sheet (no springs stretched, no contact): with n passes per frame the
// solver splits the frame's substeps into n runs as even as the count allows, hands each
// its own motion, and the frame ends where one pass per frame ends it (same substeps).
TEST(ClothSweep, PassesPerFrameSplitTheSubstepsAndSeeEachRunsMotion) {
  auto model =
      std::make_shared<const ClothModel>(buildClothModel(sheet(4, 0.2f, glm::vec3(0.0f, 1.0f, 0.0f)), {}).value());
  auto fall = [&](int passes, std::vector<float>& intervals, std::vector<float>& drops) {
    ClothSettings settings;
    settings.substeps = 7;
    settings.frameDt = 1.0f / 60.0f;
    auto recorder = std::make_shared<RecordingPass>(passes);
    settings.continuousCollision = recorder;
    auto solver = createCpuClothSolver(model, settings).value();
    EXPECT_EQ(solver->step(), StepStatus::Ok);
    intervals = recorder->intervals;
    drops = recorder->drops;
    return solver->readState();
  };
  std::vector<float> intervals, drops;
  const ClothState once = fall(1, intervals, drops);
  ASSERT_EQ(intervals.size(), 1u);
  EXPECT_FLOAT_EQ(intervals[0], 1.0f / 60.0f);
  const float wholeDrop = drops[0];
  const ClothState thrice = fall(3, intervals, drops);
  ASSERT_EQ(intervals.size(), 3u);
  // 7 substeps in 3 runs: 2, 2, 3.
  const float substep = 1.0f / 60.0f / 7.0f;
  EXPECT_FLOAT_EQ(intervals[0], 2.0f * substep);
  EXPECT_FLOAT_EQ(intervals[1], 2.0f * substep);
  EXPECT_FLOAT_EQ(intervals[2], 3.0f * substep);
  // Each run saw its own part of the fall (accelerating: later runs fall farther per substep).
  EXPECT_GT(drops[0], 0.0f);
  EXPECT_GT(drops[1], drops[0]);
  EXPECT_NEAR(drops[0] + drops[1] + drops[2], wholeDrop, 1e-6f);
  for (std::size_t i = 0; i < once.positions.size(); ++i)
    EXPECT_EQ(once.positions[i], thrice.positions[i]) << "vertex " << i;
  // More passes than substeps: one per substep.
  fall(20, intervals, drops);
  EXPECT_EQ(intervals.size(), 7u);
}

// ---- the scene key ----

TEST(ClothSweep, SceneKeyParsesAndRejectsBadValues) {
  const std::string avatar = R"("avatar": {"file": "bar.obj"}, )";
  auto parse = [&](const std::string& solver, bool withAvatar = true) {
    return parseDrapeScene("{" + (withAvatar ? avatar : std::string()) + R"("solver": )" + solver + "}", "test.json");
  };
  auto off = parse(R"({"frames": 1})");
  ASSERT_TRUE(off.ok()) << off.error().message;
  EXPECT_FALSE(off->continuousCollision.has_value());
  auto none = parse(R"({"continuous_collision": null})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->continuousCollision.has_value());
  auto noneMethod = parse(R"({"continuous_collision": {"method": "none"}})");
  ASSERT_TRUE(noneMethod.ok());
  EXPECT_FALSE(noneMethod->continuousCollision.has_value());
  auto on = parse(
      R"({"contact_offset": 0.004, "continuous_collision": {"method": "radar", "patch_triangles": 8, "image": 24}})");
  ASSERT_TRUE(on.ok()) << on.error().message;
  ASSERT_TRUE(on->continuousCollision.has_value());
  EXPECT_EQ(on->continuousCollision->patchTriangles, 8);
  EXPECT_EQ(on->continuousCollision->image, 24);
  EXPECT_FLOAT_EQ(on->continuousCollision->clearance, 0.004f);  // the contact offset
  auto clearance = parse(R"({"continuous_collision": {"clearance": 0.002}})");
  ASSERT_TRUE(clearance.ok());
  EXPECT_FLOAT_EQ(clearance->continuousCollision->clearance, 0.002f);
  EXPECT_EQ(clearance->continuousCollision->sweepsPerFrame, 1);
  auto sweeps = parse(R"({"continuous_collision": {"sweeps_per_frame": 4}})");
  ASSERT_TRUE(sweeps.ok()) << sweeps.error().message;
  EXPECT_EQ(sweeps->continuousCollision->sweepsPerFrame, 4);

  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"continuous_collision": {"method": "ray"}})", "solver.continuous_collision.method"},
      {R"({"continuous_collision": {"patch_triangles": 0}})", "solver.continuous_collision.patch_triangles"},
      {R"({"continuous_collision": {"patch_triangles": 2.5}})", "solver.continuous_collision.patch_triangles"},
      {R"({"continuous_collision": {"image": 1}})", "solver.continuous_collision.image"},
      {R"({"continuous_collision": {"image": 100000}})", "solver.continuous_collision.image"},
      {R"({"continuous_collision": {"clearance": -1}})", "solver.continuous_collision.clearance"},
      {R"({"continuous_collision": {"sweeps_per_frame": 0}})", "solver.continuous_collision.sweeps_per_frame"},
      {R"({"continuous_collision": {"sweeps_per_frame": 65}})", "solver.continuous_collision.sweeps_per_frame"},
      {R"({"continuous_collision": {"patches": 16}})", "solver.continuous_collision.patches"},
      {R"({"continuous_collision": "radar"})", "solver.continuous_collision"},
  };
  for (const auto& [solver, key] : bad) {
    auto scene = parse(solver);
    ASSERT_FALSE(scene.ok()) << solver;
    EXPECT_NE(scene.error().message.find(key), std::string::npos) << scene.error().message;
  }
  auto noAvatar = parse(R"({"continuous_collision": {"method": "radar"}})", false);
  ASSERT_FALSE(noAvatar.ok());
  EXPECT_NE(noAvatar.error().message.find("avatar"), std::string::npos) << noAvatar.error().message;
}

}  // namespace
}  // namespace hg
