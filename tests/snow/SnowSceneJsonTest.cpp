// Snow scene files and their procedural props (docs/methods.md section 5): closed, outward
// solids of the analytic volume; every shipped scene in scenes/snow loads; bad files give
// errors naming the file and the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/trigonometric.hpp>

#include "sim/geometry/MeshTopology.h"
#include "sim/io/MeshExport.h"
#include "sim/snow/SnowProps.h"
#include "sim/snow/SnowSceneJson.h"

#include "tests/support/SnowFixtures.h"

namespace hg {
namespace {

namespace fs = std::filesystem;

fs::path writeText(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

void expectClosedSolid(const TriangleMesh& mesh, double volume, double tolerance = 1e-4) {
  const Status s = checkWatertight(mesh);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  EXPECT_NEAR(signedVolume(mesh), volume, tolerance * volume);
}

double polygonArea(float radius, int segments) {
  return 0.5 * segments * double(radius) * double(radius) * std::sin(2.0 * glm::pi<double>() / segments);
}

// ---- props ----------------------------------------------------------------------------------

TEST(SnowProps, CylinderAndConeAreClosedOutwardWithThePolygonVolume) {
  for (int segments : {3, 8, 16}) {
    SCOPED_TRACE(segments);
    const TriangleMesh cylinder = makeVerticalCylinder({1.0f, 0.5f, -2.0f}, 0.3f, 2.0f, segments);
    expectClosedSolid(cylinder, polygonArea(0.3f, segments) * 2.0);
    EXPECT_EQ(eulerCharacteristic(cylinder), 2);
    const TriangleMesh cone = makeCone({0.0f, 1.0f, 0.0f}, 1.5f, 3.0f, segments);
    expectClosedSolid(cone, polygonArea(1.5f, segments) * 3.0 / 3.0);
    EXPECT_EQ(eulerCharacteristic(cone), 2);
    float top = -1e9f;
    for (const glm::vec3& p : cone.positions) top = std::max(top, p.y);
    EXPECT_FLOAT_EQ(top, 4.0f);
  }
}

TEST(SnowProps, TreeIsThreeClosedParts) {
  const TriangleMesh tree = makeSnowTree({0.0f, 0.0f, 0.0f}, 5.0f, 1.5f, 12);
  const double expected =
      polygonArea(0.15f, 6) * 1.5 + polygonArea(1.5f, 12) * 2.5 / 3.0 + polygonArea(1.05f, 12) * 2.5 / 3.0;
  expectClosedSolid(tree, expected);
  EXPECT_EQ(connectedComponents(tree).count, 3u);
  float top = -1e9f;
  for (const glm::vec3& p : tree.positions) top = std::max(top, p.y);
  EXPECT_FLOAT_EQ(top, 5.0f);
}

TEST(SnowProps, GableRoofHouseIsClosedWithEaves) {
  for (bool alongX : {true, false}) {
    SCOPED_TRACE(alongX ? "ridge along x" : "ridge along z");
    GableHouse house;
    house.min = alongX ? glm::vec2(1.0f, 2.0f) : glm::vec2(2.0f, 1.0f);
    house.max = alongX ? glm::vec2(7.0f, 6.0f) : glm::vec2(6.0f, 7.0f);  // 6 along the ridge, 4 across
    house.wallHeight = 2.5f;
    house.roofHeight = 1.5f;
    house.y = -0.5f;
    const TriangleMesh mesh = makeGableRoofHouse(house);
    const double walls = 6.0 * 4.0 * 2.5, roof = 0.5 * (4.0 + 0.4) * 1.5 * (6.0 + 0.4);
    expectClosedSolid(mesh, walls + roof);
    EXPECT_EQ(connectedComponents(mesh).count, 2u);
    // The ridge runs along the longer side, at wall top + roof height, over the middle.
    float top = -1e9f;
    for (const glm::vec3& p : mesh.positions) top = std::max(top, p.y);
    EXPECT_FLOAT_EQ(top, 3.5f);
    for (const glm::vec3& p : mesh.positions)
      if (p.y == top) {
        EXPECT_FLOAT_EQ(alongX ? p.z : p.x, 4.0f);
      }
    // The eaves overhang 0.2 m.
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const glm::vec3& p : mesh.positions) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    EXPECT_NEAR(lo.x, std::min(house.min.x, house.max.x) - 0.2f, 1e-5f);
    EXPECT_NEAR(hi.z, std::max(house.min.y, house.max.y) + 0.2f, 1e-5f);
  }
}

TEST(SnowProps, TerrainHillsAndGrid) {
  TerrainSpec spec;
  spec.min = {-10.0f, -5.0f};
  spec.max = {10.0f, 5.0f};
  spec.cell = 0.5f;
  spec.y = 1.0f;
  spec.hills = {{{2.0f, 1.0f}, 4.0f, 3.0f}, {{-6.0f, 0.0f}, 2.0f, -1.0f}};
  EXPECT_FLOAT_EQ(terrainHeight(spec, 2.0f, 1.0f), 4.0f);
  EXPECT_FLOAT_EQ(terrainHeight(spec, -6.0f, 0.0f), 0.0f);
  EXPECT_NEAR(terrainHeight(spec, 2.0f + 2.0f, 1.0f), 1.0f + 1.5f, 1e-5f);  // half way: half the height
  EXPECT_FLOAT_EQ(terrainHeight(spec, 9.0f, -4.0f), 1.0f);
  auto mesh = makeTerrain(spec);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message;
  EXPECT_EQ(mesh->positions.size(), std::size_t(41 * 21));
  EXPECT_EQ(mesh->triangleCount(), std::size_t(2 * 40 * 20));
  for (const glm::vec3& n : mesh->normals) EXPECT_GT(n.y, 0.0f);
  // Noise stays within its amplitude and depends on the seed.
  spec.hills.clear();
  spec.noise = 0.3f;
  float lo = 1e9f, hi = -1e9f;
  for (float x = -10.0f; x <= 10.0f; x += 0.37f) {
    lo = std::min(lo, terrainHeight(spec, x, 0.4f * x));
    hi = std::max(hi, terrainHeight(spec, x, 0.4f * x));
  }
  EXPECT_GE(lo, 0.7f);
  EXPECT_LE(hi, 1.3f);
  EXPECT_GT(hi - lo, 0.1f);
  TerrainSpec other = spec;
  other.seed = 2;
  EXPECT_NE(terrainHeight(spec, 1.3f, 2.7f), terrainHeight(other, 1.3f, 2.7f));
  spec.cell = -1.0f;
  EXPECT_FALSE(makeTerrain(spec).ok());
}

// ---- the shipped scenes -------------------------------------------------------------------------

TEST(SnowSceneJson, EveryShippedSceneLoads) {
  const fs::path folder = fs::path(HG_SOURCE_DIR) / "scenes" / "snow";
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    auto file = loadSnowScene(entry.path());
    ASSERT_TRUE(file.ok()) << file.error().message;
    names.push_back(file->name);
    EXPECT_EQ(file->path, entry.path());
    EXPECT_FALSE(file->scene.ground.indices.empty());
    EXPECT_FALSE(file->scene.objects.indices.empty());
    EXPECT_TRUE(file->camera.set);
    // Every object is a closed solid (or several).
    const Status closed = checkWatertight(file->scene.objects);
    EXPECT_TRUE(closed.ok()) << (closed.ok() ? "" : closed.error().message);
    auto cover = makeSnowCover(file->scene, file->settings);
    ASSERT_TRUE(cover.ok()) << cover.error().message;
    std::size_t withGround = 0;
    for (std::size_t c = 0; c < cover->grid.cellCount(); ++c) withGround += cover->hasGround(c);
    EXPECT_EQ(withGround, cover->grid.cellCount());
    if (file->name == "terrain") {
      // Some ground is steeper than the angle of repose, so the relaxation matters there.
      const SnowGrid& g = cover->grid;
      double steepest = 0.0;
      for (int j = 0; j + 1 < g.nz; ++j)
        for (int i = 0; i + 1 < g.nx; ++i) {
          const float h = cover->ground[g.index(i, j)];
          steepest = std::max({steepest, double(std::abs(cover->ground[g.index(i + 1, j)] - h)) / g.cell,
                               double(std::abs(cover->ground[g.index(i, j + 1)] - h)) / g.cell});
        }
      EXPECT_GT(steepest, std::tan(glm::radians(double(file->settings.repose.degrees))) * 1.1);
    }
  }
  for (const char* shipped : {"bench_under_roof", "terrain", "village"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), shipped), names.end()) << shipped;
  }
}

// ---- parsing --------------------------------------------------------------------------------------

TEST(SnowSceneJson, EveryKeyIsRead) {
  const test::ScratchFolder scratch("hg_snow_scene_");
  const fs::path& folder = scratch.path;
  ASSERT_TRUE(exportMesh(makeBox({0, 0, 0}, {1, 2, 3}, 0), folder / "meshes" / "box.obj").ok());
  const fs::path path = writeText(folder / "all.json", R"({
    "name": "everything",
    "ground": {"terrain": {"min": [-4, -3], "max": [4, 3], "cell": 0.5, "y": 0.25,
                           "hills": [{"centre": [1, 1], "radius": 2, "height": 1.5}], "seed": 3, "noise": 0.05,
                           "noise_scale": 1.5}},
    "objects": [
      {"box": {"min": [-1, 0, -1], "max": [1, 1, 1]}},
      {"cylinder": {"base": [2, 0, 0], "radius": 0.2, "height": 1, "segments": 8}},
      {"cone": {"base": [-2, 0, 0], "radius": 0.5, "height": 1.5}},
      {"tree": {"base": [0, 0, 2], "height": 3, "radius": 1}},
      {"house": {"min": [-3, -2], "max": [-1, 0], "wall_height": 2, "roof_height": 1, "y": -0.1, "eaves": 0.3}},
      {"mesh": "meshes/box.obj", "scale": 0.5, "translate": [3, 0, -2]}
    ],
    "snowfall": {"directions": 16, "cone_degrees": 10, "wind_tilt_degrees": 5, "wind": [0, 0, 1], "fall": [0, -1, 0],
                 "seed": 7},
    "snow": {"rate_m_per_hour": 0.03, "hours": 4, "passes": 3, "ground_cell": 0.1, "object_edge": 0.2,
             "map_resolution": 512, "texel_m": 0.02, "bias_m": 0.01, "repose_degrees": 40, "repose_tolerance": 0.02,
             "repose_max_iterations": 500, "repose_check_every": 8},
    "camera": {"eye": [5, 4, 6], "target": [0, 1, 0]}
  })");
  auto file = loadSnowScene(path);
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file->name, "everything");
  EXPECT_EQ(file->path, path);
  EXPECT_EQ(file->scene.ground.positions.size(), std::size_t(17 * 13));
  const SnowSettings& s = file->settings;
  EXPECT_EQ(s.fall.count, 16);
  EXPECT_EQ(s.fall.coneDegrees, 10.0f);
  EXPECT_EQ(s.fall.windTiltDegrees, 5.0f);
  EXPECT_EQ(s.fall.wind, glm::vec3(0, 0, 1));
  EXPECT_EQ(s.fall.seed, 7u);
  EXPECT_EQ(s.rateMetresPerHour, 0.03f);
  EXPECT_EQ(s.hours, 4.0f);
  EXPECT_EQ(s.passes, 3);
  EXPECT_EQ(s.groundCell, 0.1f);
  EXPECT_EQ(s.objectEdge, 0.2f);
  EXPECT_EQ(s.mapResolution, 512);
  EXPECT_EQ(s.exposure.texel, 0.02f);
  EXPECT_EQ(s.exposure.bias, 0.01f);
  EXPECT_EQ(s.repose.degrees, 40.0f);
  EXPECT_EQ(s.repose.tolerance, 0.02f);
  EXPECT_EQ(s.repose.maxIterations, 500);
  EXPECT_EQ(s.repose.checkEvery, 8);
  EXPECT_TRUE(file->camera.set);
  EXPECT_EQ(file->camera.eye, glm::vec3(5, 4, 6));
  EXPECT_EQ(file->camera.target, glm::vec3(0, 1, 0));
  EXPECT_TRUE(checkWatertight(file->scene.objects).ok());
  EXPECT_EQ(connectedComponents(file->scene.objects).count, 1u + 1u + 1u + 3u + 2u + 1u);
  // The mesh, scaled then translated: its box [0, 1] x [0, 2] x [0, 3] to [3, 3.5] x [0, 1] x [-2, -0.5].
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : file->scene.objects.positions)
    if (p.x > 2.9f && p.z < -0.4f) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  EXPECT_NEAR(lo.x, 3.0f, 1e-6f);
  EXPECT_NEAR(hi.x, 3.5f, 1e-6f);
  EXPECT_NEAR(hi.y, 1.0f, 1e-6f);
  EXPECT_NEAR(lo.z, -2.0f, 1e-6f);
  EXPECT_NEAR(hi.z, -0.5f, 1e-6f);
}

TEST(SnowSceneJson, DefaultsAndAPlaneGround) {
  const test::ScratchFolder scratch("hg_snow_scene_");
  const fs::path& folder = scratch.path;
  auto file = loadSnowScene(
      writeText(folder / "minimal.json", R"({"ground": {"plane": {"min": [-1, -2], "max": [3, 4], "y": 0.5}}})"));
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file->name, "minimal");
  EXPECT_FALSE(file->camera.set);
  EXPECT_TRUE(file->scene.objects.indices.empty());
  EXPECT_EQ(file->scene.ground.positions.size(), 4u);
  for (const glm::vec3& p : file->scene.ground.positions) EXPECT_EQ(p.y, 0.5f);
  const SnowSettings defaults;
  EXPECT_EQ(file->settings.groundCell, defaults.groundCell);
  EXPECT_EQ(file->settings.passes, defaults.passes);
  EXPECT_EQ(file->settings.fall.count, defaults.fall.count);
}

TEST(SnowSceneJson, BadFilesNameTheFileAndTheKey) {
  const test::ScratchFolder scratch("hg_snow_scene_");
  const fs::path& folder = scratch.path;
  const std::string plane = R"("ground": {"plane": {"min": [0, 0], "max": [1, 1]}})";
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {"unknown_top", "{" + plane + R"(, "snowflakes": 3})", {"scene.snowflakes"}},
      {"unknown_snow", "{" + plane + R"(, "snow": {"ground_cel": 0.1}})", {"snow.ground_cel"}},
      {"unknown_object",
       "{" + plane + R"(, "objects": [{"box": {"min": [0,0,0], "max": [1,1,1]}},
                                                        {"box": {"min": [0,0,0], "size": [1,1,1]}}]})",
       {"objects[1].box.size"}},
      {"unknown_hill",
       R"({"ground": {"terrain": {"min": [0, 0], "max": [1, 1], "hills": [{"center": [0, 0]}]}}})",
       {"ground.terrain.hills[0].center"}},
      {"missing_ground", R"({"name": "x"})", {"ground"}},
      {"two_grounds",
       R"({"ground": {"plane": {"min": [0, 0], "max": [1, 1]}, "mesh": "a.obj"}})",
       {"ground", "plane", "mesh"}},
      {"negative_terrain_cell",
       R"({"ground": {"terrain": {"min": [0, 0], "max": [1, 1], "cell": -0.5}}})",
       {"ground.terrain.cell"}},
      {"negative_ground_cell", "{" + plane + R"(, "snow": {"ground_cell": -0.05}})", {"ground_cell"}},
      {"bad_repose", "{" + plane + R"(, "snow": {"repose_degrees": 95}})", {"repose_degrees"}},
      {"bad_directions", "{" + plane + R"(, "snowfall": {"directions": 0}})", {"snowfall"}},
      {"bad_mesh_path", R"({"ground": {"mesh": "no_such_ground.obj"}})", {"ground.mesh", "no_such_ground.obj"}},
      {"bad_object_mesh",
       "{" + plane + R"(, "objects": [{"mesh": "no_such_bench.obj"}]})",
       {"objects[0].mesh", "no_such_bench.obj"}},
      {"malformed", "{" + plane + ", ", {"not valid JSON"}},
      {"wrong_type", "{" + plane + R"(, "snow": {"passes": "many"}})", {"snow.passes"}},
      {"missing_radius",
       "{" + plane + R"(, "objects": [{"cylinder": {"base": [0, 0, 0], "height": 1}}]})",
       {"objects[0].cylinder.radius"}},
      {"empty_box",
       "{" + plane + R"(, "objects": [{"box": {"min": [0, 0, 0], "max": [1, 0, 1]}}]})",
       {"objects[0].box"}},
      {"scale_without_mesh",
       "{" + plane + R"(, "objects": [{"box": {"min": [0,0,0], "max": [1,1,1]}, "scale": 2}]})",
       {"objects[0]", "scale"}},
      {"half_camera", "{" + plane + R"(, "camera": {"eye": [1, 2, 3]}})", {"camera.target"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path path = writeText(folder / (std::string(c.name) + ".json"), c.text);
    auto file = loadSnowScene(path);
    ASSERT_FALSE(file.ok());
    const std::string& message = file.error().message;
    EXPECT_EQ(message.rfind(path.string() + ": ", 0), 0u) << message;  // starts with the file
    for (const std::string& m : c.mentions) EXPECT_NE(message.find(m), std::string::npos) << message;
  }
  auto missing = loadSnowScene(folder / "absent.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find((folder / "absent.json").string()), std::string::npos);
}

}  // namespace
}  // namespace hg
