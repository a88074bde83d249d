#pragma once
// Shared fixtures of the snow tests (tests/snow/): a horizontal quad to build scenes from,
// and a scratch folder per test for the file outputs.
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/TriangleMesh.h"
#include "sim/snow/SnowfallDirections.h"

namespace hg::test {

/// A horizontal quad [x0, x1] x [z0, z1] at height y (m), n x n cells, facing up
/// (counter-clockwise seen from above).
inline TriangleMesh horizontalQuad(float x0, float x1, float z0, float z1, float y, int n = 1) {
  TriangleMesh mesh;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      mesh.positions.emplace_back(x0 + (x1 - x0) * float(i) / float(n), y, z0 + (z1 - z0) * float(j) / float(n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = std::uint32_t(j * (n + 1) + i), b = a + 1, c = a + std::uint32_t(n + 1), d = c + 1;
      mesh.indices.insert(mesh.indices.end(), {a, c, b, b, c, d});
    }
  return mesh;
}

/// The meshes appended into one.
inline TriangleMesh merged(const std::vector<TriangleMesh>& parts) {
  TriangleMesh out;
  for (const TriangleMesh& part : parts) appendMesh(out, part);
  return out;
}

/// `count` snowfall directions over a cone of `cone` degrees around straight down, tilted
/// `tilt` degrees toward +x (seed 1); empty (and a test failure) on an error.
inline std::vector<glm::vec3> directionsFor(float cone, int count, float tilt = 0.0f) {
  SnowfallSettings s;
  s.coneDegrees = cone;
  s.windTiltDegrees = tilt;
  s.count = count;
  auto d = snowfallDirections(s);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
  return d.ok() ? *d : std::vector<glm::vec3>{};
}

/// A fresh empty folder for the running test (tests run as separate processes, maybe at
/// once), named after `prefix` and the test, removed with everything in it at the end.
struct ScratchFolder {
  std::filesystem::path path;
  explicit ScratchFolder(const std::string& prefix) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path = std::filesystem::temp_directory_path() / (prefix + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

}  // namespace hg::test
