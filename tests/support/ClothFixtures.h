#pragma once
// Small cloth models for tests.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"

namespace hg::test {

/// The mesh of a square sheet (SquareClothSpec) of `resolution` vertices a side.
inline TriangleMesh squareSheetMesh(int resolution, float size, glm::vec3 centre) {
  SquareClothSpec spec;
  spec.resolution = resolution;
  spec.size = size;
  spec.center = centre;
  auto mesh = makeSquareSheet(spec);
  EXPECT_TRUE(mesh) << mesh.error().message;
  return mesh ? *mesh : TriangleMesh{};
}

/// A horizontal square sheet of resolution x resolution vertices, 1.6 m wide at y = 1.3.
inline std::shared_ptr<const ClothModel> sheet(int resolution, PinSet pinned = {}, ClothMaterial material = {},
                                               std::optional<AnisotropyTexture> anisotropy = std::nullopt,
                                               float size = 1.6f) {
  SquareClothSpec spec;
  spec.resolution = resolution;
  spec.size = size;
  auto mesh = makeSquareSheet(spec);
  EXPECT_TRUE(mesh) << mesh.error().message;
  auto model = buildClothModel(*mesh, material, pinned, std::move(anisotropy));
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// A stiff (20 kN/m) 24 x 24 sheet pinned at two corners: 40 fixed substeps of the explicit
/// integrator blow it up, its stable count (sim/cloth/StableStep.h) does not.
inline std::shared_ptr<const ClothModel> stiffPinnedSheet() {
  ClothMaterial material;
  material.tensileStiffness = 20000.0f;
  return sheet(24, {0, 23}, material);
}

/// The settings with the analytic sphere and ground switched off.
inline ClothSettings withoutColliders(ClothSettings settings = {}) {
  settings.colliders.spheres.clear();
  settings.colliders.grounds.clear();
  return settings;
}

/// Starts `solver` at `start`, runs `frames` steps (each must be Ok) and returns how far
/// the vertices' centroid moved, m (how far a patch slid).
inline double centroidTravel(ClothSolver& solver, const ClothState& start, int frames) {
  solver.writeState(start);
  glm::vec3 from(0.0f), to(0.0f);
  for (const glm::vec4& p : start.positions) from += glm::vec3(p);
  for (int f = 0; f < frames; ++f) EXPECT_EQ(solver.step(), StepStatus::Ok);
  for (const glm::vec4& p : solver.readState().positions) to += glm::vec3(p);
  return double(glm::length(to - from)) / double(start.positions.size());
}

/// A 35 x 35 sheet wrapped onto a sphere, started from 2 mm inside to 6 mm outside a shell
/// 2 mm out, with moderate velocities: most vertices are in contact in the first substep.
inline std::pair<std::shared_ptr<const ClothModel>, ClothState> wrappedSheet(glm::vec3 centre, float sphereRadius) {
  SquareClothSpec spec;
  spec.resolution = 35;  // 1225 vertices: not a multiple of the workgroup size
  auto mesh = makeSquareSheet(spec);
  EXPECT_TRUE(mesh);
  for (glm::vec3& p : mesh->positions) p = centre + (sphereRadius + 0.002f) * glm::normalize(p - centre);
  auto built = buildClothModel(*mesh, ClothMaterial{});
  EXPECT_TRUE(built) << built.error().message;
  auto model = std::make_shared<const ClothModel>(std::move(built).value());
  ClothState start = restState(*model);
  for (std::size_t i = 0; i < start.positions.size(); ++i) {
    const float t = float(i);
    const glm::vec3 direction = glm::normalize(glm::vec3(start.positions[i]) - centre);
    const float radius = sphereRadius + 0.002f + 0.004f * std::sin(1.7f * t);
    start.positions[i] = glm::vec4(centre + radius * direction, start.positions[i].w);
    start.velocities[i] = glm::vec4(0.3f * std::cos(t), -0.5f, 0.2f * std::sin(2.0f * t), 0.0f);
  }
  return {model, start};
}

// ---- CPU vs GPU comparisons ------------------------------------------------------------

/// Largest |a - b| - (atol + rtol |b|) over all xyz components; <= 0 passes.
inline float worstExcess(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b, float atol, float rtol) {
  float worst = -1e30f;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int c = 0; c < 3; ++c)
      worst = std::max(worst, std::abs(a[i][c] - b[i][c]) - (atol + rtol * std::abs(b[i][c])));
  return worst;
}

/// Largest distance between corresponding points (xyz).
inline float worstDifference(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
  float worst = 0.0f;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, glm::distance(glm::vec3(a[i]), glm::vec3(b[i])));
  return worst;
}

/// Writes both states (positions and velocities) to <temp>/<name>.csv when a comparison
/// fails, and prints the path.
inline void dumpStates(const ClothState& cpu, const ClothState& gpu, const std::string& name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / (name + ".csv");
  std::printf("[ dump ] both states written to %s\n", path.c_str());
  std::ofstream out(path);
  out << "vertex,cpu_x,cpu_y,cpu_z,gpu_x,gpu_y,gpu_z,cpu_vx,cpu_vy,cpu_vz,gpu_vx,gpu_vy,gpu_vz\n";
  out.precision(9);
  for (std::size_t i = 0; i < cpu.positions.size(); ++i)
    out << i << ',' << cpu.positions[i].x << ',' << cpu.positions[i].y << ',' << cpu.positions[i].z << ','
        << gpu.positions[i].x << ',' << gpu.positions[i].y << ',' << gpu.positions[i].z << ',' << cpu.velocities[i].x
        << ',' << cpu.velocities[i].y << ',' << cpu.velocities[i].z << ',' << gpu.velocities[i].x << ','
        << gpu.velocities[i].y << ',' << gpu.velocities[i].z << '\n';
}

}  // namespace hg::test
