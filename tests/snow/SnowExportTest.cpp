// Snow exports (docs/methods.md section 5): the ground snow as a closed solid whose volume is
// the snow's integral, the OBJ with its two groups, the 16-bit depth PNG round trip, and
// atomic writes that name the path when they fail.
#include <gtest/gtest.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "sim/geometry/MeshTopology.h"
#include "sim/snow/SnowExport.h"

#include "tests/support/SnowFixtures.h"

namespace hg {
namespace {

namespace fs = std::filesystem;

/// Files in `folder` (names), to check that nothing half-written was left.
std::vector<std::string> filesIn(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  return names;
}

/// A cover of nx x nz cells of `cell` m with ground(i, j) and snow(i, j) set by hand; a
/// NaN ground is a cell without ground.
template <class Ground, class Snow>
SnowCover handCover(int nx, int nz, float cell, Ground ground, Snow snow) {
  SnowCover cover;
  cover.grid.originX = -1.0f;
  cover.grid.originZ = 2.0f;
  cover.grid.cell = cell;
  cover.grid.nx = nx;
  cover.grid.nz = nz;
  cover.ground.resize(cover.grid.cellCount());
  cover.groundSnow.resize(cover.grid.cellCount());
  for (int j = 0; j < nz; ++j)
    for (int i = 0; i < nx; ++i) {
      const glm::vec2 c = cover.grid.centre(i, j);
      cover.ground[cover.grid.index(i, j)] = ground(i, j, c.x, c.y);
      cover.groundSnow[cover.grid.index(i, j)] = snow(i, j);
    }
  return cover;
}

/// The snow's integral over the quads of cells with ground, by the trapezoid rule over
/// each of the quad's two triangles (diagonal from (i, j) to (i + 1, j + 1)):
/// cell^2 / 2 x (mean of the three corners), summed: cell^2 / 6 x (2 a + b + 2 c + d).
double trapezoidIntegral(const SnowCover& cover) {
  const SnowGrid& g = cover.grid;
  double sum = 0.0;
  for (int j = 0; j + 1 < g.nz; ++j)
    for (int i = 0; i + 1 < g.nx; ++i) {
      const std::size_t a = g.index(i, j), b = g.index(i + 1, j), c = g.index(i + 1, j + 1), d = g.index(i, j + 1);
      if (!cover.hasGround(a) || !cover.hasGround(b) || !cover.hasGround(c) || !cover.hasGround(d)) continue;
      auto s = [&](std::size_t k) { return double(std::max(cover.groundSnow[k], 0.0f)); };
      sum += double(g.cell) * double(g.cell) / 6.0 * (2.0 * s(a) + s(b) + 2.0 * s(c) + s(d));
    }
  return sum;
}

void expectClosedOutwardSolid(const SnowCover& cover, double expectedVolume) {
  const TriangleMesh solid = snowGroundSolid(cover);
  const Status watertight = checkWatertight(solid);
  EXPECT_TRUE(watertight.ok()) << (watertight.ok() ? "" : watertight.error().message);
  EXPECT_EQ(solid.normals.size(), solid.positions.size());
  const double volume = signedVolume(solid);
  EXPECT_NEAR(volume, expectedVolume, 1e-5 * std::max(1.0, expectedVolume));
  if (expectedVolume > 0.0) {
    EXPECT_GT(volume, 0.0);
  }
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- the ground snow solid ---------------------------------------------------------------

TEST(SnowGroundSolid, OneQuadByHand) {
  // One 2 x 2 block of 1 m cells, snow a = 0.1, b = 0.2, c = 0.3, d = 0.4 at (0, 0), (1, 0),
  // (1, 1), (0, 1): triangles (a, c, b) and (a, d, c), each 0.5 m^2:
  // 0.5 (0.1 + 0.3 + 0.2) / 3 + 0.5 (0.1 + 0.4 + 0.3) / 3 = 0.1 + 0.4 / 3 = 0.2333... m^3.
  const float snow[2][2] = {{0.1f, 0.2f}, {0.4f, 0.3f}};  // [j][i]
  const SnowCover cover = handCover(
      2, 2, 1.0f, [](int, int, float, float) { return 0.5f; }, [&](int i, int j) { return snow[j][i]; });
  expectClosedOutwardSolid(cover, 0.1 + 0.4 / 3.0);
  const TriangleMesh solid = snowGroundSolid(cover);
  EXPECT_EQ(solid.positions.size(), 8u);           // 4 corners, top and bottom
  EXPECT_EQ(solid.triangleCount(), 2u + 2u + 8u);  // top, bottom, four walls
}

TEST(SnowGroundSolid, FlatAndSlopedGroundWatertightOutwardVolumeIsTheIntegral) {
  auto snow = [](int i, int j) {
    return 0.05f + 0.01f * float(i) + 0.02f * float((i * 7 + j * 3) % 5) - (j == 2 ? 0.05f : 0.0f);
  };
  const std::vector<std::pair<const char*, SnowCover>> covers = {
      {"flat", handCover(
                   7, 6, 0.25f, [](int, int, float, float) { return 0.0f; }, snow)},
      {"sloped", handCover(
                     7, 6, 0.25f, [](int, int, float x, float z) { return 0.3f * x - 0.8f * z + 1.0f; }, snow)},
  };
  for (const auto& [name, cover] : covers) {
    SCOPED_TRACE(name);
    const double expected = trapezoidIntegral(cover);
    EXPECT_GT(expected, 0.0);
    expectClosedOutwardSolid(cover, expected);
  }
}

TEST(SnowGroundSolid, ConstantSnowGivesQuadsTimesDepth) {
  const SnowCover cover = handCover(
      5, 4, 0.5f, [](int i, int, float, float) { return 0.1f * float(i); }, [](int, int) { return 0.2f; });
  expectClosedOutwardSolid(cover, 4.0 * 3.0 * 0.25 * 0.2);  // 4 x 3 quads of 0.25 m^2
}

TEST(SnowGroundSolid, HolesAndPinchedCornersStayWatertight) {
  // Cells (1, 1) and (3, 3) have no ground: two holes whose missing quads meet diagonally
  // at cell (2, 2) (its quads to -x +z and +x -z remain, meeting only there); a third
  // hole at the border, (5, 0); one zero-snow cell (the sheets touch) and one negative.
  auto ground = [](int i, int j, float x, float) {
    if ((i == 1 && j == 1) || (i == 3 && j == 3) || (i == 5 && j == 0)) return kNaN;
    return 0.2f * x;
  };
  auto snow = [](int i, int j) {
    if (i == 4 && j == 4) return 0.0f;
    if (i == 0 && j == 5) return -0.1f;  // counts as 0
    return 0.1f + 0.03f * float(i) + 0.05f * float(j % 2);
  };
  const SnowCover cover = handCover(6, 6, 0.2f, ground, snow);
  const double expected = trapezoidIntegral(cover);
  EXPECT_GT(expected, 0.0);
  expectClosedOutwardSolid(cover, expected);
  // The pinched corner is two vertex pairs at one position.
  const TriangleMesh solid = snowGroundSolid(cover);
  const glm::vec2 centre = cover.grid.centre(2, 2);
  int atCorner = 0;
  for (const glm::vec3& p : solid.positions) atCorner += p.x == centre.x && p.z == centre.y;
  EXPECT_EQ(atCorner, 4);
}

TEST(SnowGroundSolid, NoSnowIsClosedWithZeroVolumeAndNoQuadIsEmpty) {
  const SnowCover bare = handCover(
      4, 4, 0.1f, [](int, int, float, float) { return 1.0f; }, [](int, int) { return 0.0f; });
  expectClosedOutwardSolid(bare, 0.0);
  EXPECT_FALSE(snowGroundSolid(bare).indices.empty());
  const SnowCover none = handCover(
      4, 4, 0.1f, [](int i, int j, float, float) { return (i + j) % 2 ? 0.0f : kNaN; }, [](int, int) { return 0.1f; });
  EXPECT_TRUE(snowGroundSolid(none).indices.empty());
}

// ---- objects, OBJ ---------------------------------------------------------------------------

SnowCover coverWithObject() {
  SnowCover cover = handCover(
      8, 6, 0.25f, [](int, int, float x, float) { return 0.1f * x; },
      [](int i, int j) { return 0.05f + 0.01f * float(i + j); });
  cover.objects = makeBox({-0.5f, 0.0f, 2.5f}, {0.0f, 0.5f, 3.0f}, 1);
  cover.objectSnow.assign(cover.objects.positions.size(), 0.0f);
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v)
    if (cover.objects.positions[v].y > 0.4f) cover.objectSnow[v] = 0.08f;
  return cover;
}

TEST(SnowCoveredObjects, VerticesRaisedByTheirSnow) {
  const SnowCover cover = coverWithObject();
  const TriangleMesh objects = snowCoveredObjects(cover);
  ASSERT_EQ(objects.positions.size(), cover.objects.positions.size());
  EXPECT_EQ(objects.indices, cover.objects.indices);
  EXPECT_EQ(objects.normals.size(), objects.positions.size());
  for (std::size_t v = 0; v < objects.positions.size(); ++v) {
    const glm::vec3 expected = cover.objects.positions[v] + glm::vec3(0.0f, cover.objectSnow[v], 0.0f);
    EXPECT_EQ(objects.positions[v], expected) << "vertex " << v;
  }
  // The top face's normal still points up.
  for (std::size_t v = 0; v < objects.positions.size(); ++v)
    if (cover.objects.positions[v].y > 0.4f && std::abs(cover.objects.positions[v].x + 0.25f) < 1e-4f &&
        std::abs(cover.objects.positions[v].z - 2.75f) < 1e-4f) {
      EXPECT_NEAR(objects.normals[v].y, 1.0f, 1e-5f);
    }
}

TEST(SnowExportObj, TwoNamedGroupsReadBackWithAssimp) {
  const test::ScratchFolder scratch("hg_snow_export_");
  const fs::path& folder = scratch.path;
  const SnowCover cover = coverWithObject();
  const fs::path path = folder / "snow.obj";
  const Status s = exportSnowObj(cover, path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(filesIn(folder), std::vector<std::string>{"snow.obj"});

  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("g snow_ground"), std::string::npos);
  EXPECT_NE(text.str().find("g objects_with_snow"), std::string::npos);

  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path.string(), aiProcess_Triangulate);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  ASSERT_EQ(scene->mNumMeshes, 2u);
  const TriangleMesh solid = snowGroundSolid(cover), objects = snowCoveredObjects(cover);
  std::size_t faces[2] = {scene->mMeshes[0]->mNumFaces, scene->mMeshes[1]->mNumFaces};
  EXPECT_EQ(faces[0], solid.triangleCount());
  EXPECT_EQ(faces[1], objects.triangleCount());
  // The first group is the solid: its bounds are the solid's.
  float minY = 1e9f, maxY = -1e9f;
  for (unsigned v = 0; v < scene->mMeshes[0]->mNumVertices; ++v) {
    minY = std::min(minY, scene->mMeshes[0]->mVertices[v].y);
    maxY = std::max(maxY, scene->mMeshes[0]->mVertices[v].y);
  }
  float solidMin = 1e9f, solidMax = -1e9f;
  for (const glm::vec3& p : solid.positions) {
    solidMin = std::min(solidMin, p.y);
    solidMax = std::max(solidMax, p.y);
  }
  EXPECT_NEAR(minY, solidMin, 1e-5f);
  EXPECT_NEAR(maxY, solidMax, 1e-5f);
}

// ---- the 16-bit depth PNG ---------------------------------------------------------------------

TEST(SnowDepthPng, RoundTripWithinHalfAUnitNorthUp) {
  const test::ScratchFolder scratch("hg_snow_export_");
  const fs::path& folder = scratch.path;
  const SnowCover cover = handCover(
      9, 5, 0.2f, [](int i, int j, float, float) { return i == 2 && j == 3 ? kNaN : 0.0f; },
      [](int i, int j) { return 0.013f * float(i) + 0.071f * float(j) + 0.0004f * float(i * j); });
  const float scale = snowDepthPngScale(cover);
  EXPECT_NEAR(scale, (0.013f * 8 + 0.071f * 4 + 0.0004f * 32) / 65535.0f, 1e-12f);
  const fs::path path = folder / "depth.png";
  const Status s = writeSnowDepthPng16(cover, path, scale);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(filesIn(folder), std::vector<std::string>{"depth.png"});

  int width = 0, height = 0;
  float readScale = 0.0f;
  auto pixels = readSnowDepthPng16(path, &width, &height, &readScale);
  ASSERT_TRUE(pixels.ok()) << pixels.error().message;
  ASSERT_EQ(width, 9);
  ASSERT_EQ(height, 5);
  EXPECT_EQ(readScale, scale);
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 9; ++i) {
      const std::uint16_t value = (*pixels)[std::size_t(4 - j) * 9 + std::size_t(i)];  // row 0 = far z
      const std::size_t c = cover.grid.index(i, j);
      if (!cover.hasGround(c)) {
        EXPECT_EQ(value, 0) << i << ", " << j;
        continue;
      }
      EXPECT_LE(std::abs(double(value) * double(scale) - double(cover.groundSnow[c])), 0.5 * double(scale) * 1.0001)
          << i << ", " << j;
    }
  EXPECT_EQ((*pixels)[std::size_t(0) * 9 + 8], 65535);  // the deepest cell, (8, 4), is the far row's last

  // The cell size chunk, and clamping at 65535 with a fine scale.
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_NE(bytes.str().find("hagoromo:cell_m"), std::string::npos);
  ASSERT_TRUE(writeSnowDepthPng16(cover, path, 1e-6f).ok());
  pixels = readSnowDepthPng16(path, &width, &height, &readScale);
  ASSERT_TRUE(pixels.ok());
  EXPECT_EQ(readScale, 1e-6f);
  EXPECT_EQ((*pixels)[std::size_t(4) * 9 + 1], 13000);  // cell (1, 0): 0.013 m
  EXPECT_EQ((*pixels)[std::size_t(0) * 9 + 8], 65535);  // clamped
}

TEST(SnowDepthPng, ScaleHasAFloor) {
  const SnowCover bare = handCover(
      3, 3, 0.1f, [](int, int, float, float) { return 0.0f; }, [](int, int) { return 0.0f; });
  EXPECT_EQ(snowDepthPngScale(bare), 1e-6f);
}

// ---- failures name the path and leave no file ----------------------------------------------------

TEST(SnowExportErrors, BadPathsNameThePathAndLeaveNoFile) {
  const test::ScratchFolder scratch("hg_snow_export_");
  const fs::path& folder = scratch.path;
  const SnowCover cover = coverWithObject();
  // A regular file where a folder should be, and an existing folder where the file should be.
  std::ofstream(folder / "plain.txt") << "not a folder";
  fs::create_directories(folder / "taken.obj");
  fs::create_directories(folder / "taken.png");
  const std::vector<fs::path> objPaths = {folder / "plain.txt" / "snow.obj", folder / "taken.obj"};
  for (const fs::path& path : objPaths) {
    const Status s = exportSnowObj(cover, path);
    ASSERT_FALSE(s.ok()) << path;
    EXPECT_NE(s.error().message.find(path.string()), std::string::npos) << s.error().message;
  }
  const std::vector<fs::path> pngPaths = {folder / "plain.txt" / "depth.png", folder / "taken.png"};
  for (const fs::path& path : pngPaths) {
    const Status s = writeSnowDepthPng16(cover, path, snowDepthPngScale(cover));
    ASSERT_FALSE(s.ok()) << path;
    EXPECT_NE(s.error().message.find(path.string()), std::string::npos) << s.error().message;
  }
  // A bad scale writes nothing.
  for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), kNaN}) {
    const Status s = writeSnowDepthPng16(cover, folder / "scale.png", bad);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find((folder / "scale.png").string()), std::string::npos) << s.error().message;
  }
  // Nothing but what was there: no temporary file, no partial output.
  std::vector<std::string> names = filesIn(folder);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"plain.txt", "taken.obj", "taken.png"}));
  EXPECT_TRUE(fs::is_directory(folder / "taken.obj"));
  EXPECT_TRUE(fs::is_empty(folder / "taken.obj"));

  auto missing = readSnowDepthPng16(folder / "missing.png", nullptr, nullptr, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find((folder / "missing.png").string()), std::string::npos);
  auto notPng = readSnowDepthPng16(folder / "plain.txt", nullptr, nullptr, nullptr);
  ASSERT_FALSE(notPng.ok());
  EXPECT_NE(notPng.error().message.find("plain.txt"), std::string::npos);
}

TEST(SnowExportErrors, EmptyCoverIsAnError) {
  const test::ScratchFolder scratch("hg_snow_export_");
  const fs::path& folder = scratch.path;
  SnowCover empty;
  const Status obj = exportSnowObj(empty, folder / "e.obj");
  ASSERT_FALSE(obj.ok());
  EXPECT_NE(obj.error().message.find("e.obj"), std::string::npos);
  const Status png = writeSnowDepthPng16(empty, folder / "e.png", 1e-3f);
  ASSERT_FALSE(png.ok());
  EXPECT_NE(png.error().message.find("e.png"), std::string::npos);
  EXPECT_TRUE(filesIn(folder).empty());
}

}  // namespace
}  // namespace hg
