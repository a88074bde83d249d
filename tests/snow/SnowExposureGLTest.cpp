// Snow exposure on the GPU (sim/gpu/GpuSnowExposure.h) against the CPU reference
// (snowExposureCpu, sim/snow/SnowExposure.h; docs/methods.md section 5): the open plane, the
// roofed plane and a roof edge's penumbra give the CPU's exposures, and a random cluttered
// scene agrees point for point except for points whose depth lies within 1e-4 m of a
// threshold (map depth + bias), where float (GPU) and double (CPU) interpolation of the map
// may round either way. countHits adds to the counters it is given; bad input is an error.
// Runs on llvmpipe (test::GlTest: no context fails, never skips).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "gl/EmbeddedFiles.h"
#include "gl/GlObjects.h"
#include "gl/ShaderRegistry.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/gpu/GpuSnowExposure.h"
#include "sim/snow/SnowExposure.h"
#include "sim/snow/SnowfallDirections.h"
#include "tests/support/GlTest.h"

#include "tests/support/SnowFixtures.h"

namespace hg {
namespace {

class SnowExposureGLTest : public test::GlTest {};

TriangleMesh quad(float x0, float x1, float z0, float z1, float y, int n = 1) {
  return test::horizontalQuad(x0, x1, z0, z1, y, n);
}

using test::merged;

using test::directionsFor;

/// Points on a line across z = 0 at height y, from x0 to x1.
std::vector<glm::vec3> pointsAlongX(float x0, float x1, int n, float y) {
  std::vector<glm::vec3> points;
  for (int k = 0; k < n; ++k) points.emplace_back(x0 + (x1 - x0) * float(k) / float(n - 1), y, 0.0f);
  return points;
}

std::unique_ptr<GpuSnowExposure> makeGpu(const SnowExposureSettings& settings) {
  auto gpu = GpuSnowExposure::create(settings);
  EXPECT_TRUE(gpu.ok()) << (gpu.ok() ? "" : gpu.error().message);
  return gpu.ok() ? std::move(gpu).value() : nullptr;
}

/// Margin (m) around a threshold within which CPU and GPU may decide a point differently.
constexpr float kThresholdMargin = 1e-4f;

struct Agreement {
  std::vector<float> cpu, gpu;
  std::size_t nearThreshold = 0;  ///< points within kThresholdMargin of a threshold in some direction
  std::size_t differing = 0;      ///< points whose exposures differ
};

/// Runs both backends and checks: a point whose exposures differ is a near tie (a depth
/// within kThresholdMargin of map depth + bias in the CPU's map, or a texel on a silhouette
/// that a neighbour's surface would decide the other way) in at least as many directions as
/// the difference counts (and at most 2 of them).
Agreement compareWithCpu(GpuSnowExposure& gpu, const TriangleMesh& scene, const std::vector<glm::vec3>& points,
                         const std::vector<glm::vec3>& directions) {
  Agreement a;
  const SnowExposureSettings& settings = gpu.settings();
  auto cpu = snowExposureCpu(scene, points, directions, settings);
  auto onGpu = gpu.exposure(scene, points, directions);
  EXPECT_TRUE(cpu.ok()) << (cpu.ok() ? "" : cpu.error().message);
  EXPECT_TRUE(onGpu.ok()) << (onGpu.ok() ? "" : onGpu.error().message);
  if (!cpu.ok() || !onGpu.ok()) return a;
  a.cpu = *cpu;
  a.gpu = *onGpu;
  EXPECT_EQ(a.gpu.size(), points.size());
  if (a.gpu.size() != points.size()) return a;
  // Directions in which each point's decision is a near tie.
  std::vector<int> ties(points.size(), 0);
  const float bias = settings.resolvedBias();
  for (const glm::vec3& direction : directions) {
    auto frame = snowMapFrame(direction, scene, points, settings);
    EXPECT_TRUE(frame.ok());
    if (!frame.ok()) return a;
    const std::vector<float> depth = renderSnowDepthMap(*frame, scene);
    const kernels::SnowMap map = snowMapRecord(*frame, bias);
    for (std::size_t k = 0; k < points.size(); ++k) {
      const glm::ivec2 texel = kernels::snowMapTexel(map, points[k]);
      if (!kernels::snowMapContains(map, texel)) continue;
      auto thresholdAt = [&](glm::ivec2 t) {
        return depth[std::size_t(t.y) * std::size_t(frame->width) + std::size_t(t.x)] + bias;
      };
      const float pointDepth = kernels::snowPointDepth(map, points[k]);
      const float threshold = thresholdAt(texel);
      // A texel on a silhouette, where a neighbour's surface would decide the other way:
      // which of the two covers the texel centre is up to the rasterizer's sub-pixel
      // precision (GL leaves it to the implementation; NVIDIA and llvmpipe differ).
      bool silhouette = false;
      for (const glm::ivec2 step : {glm::ivec2(1, 0), glm::ivec2(-1, 0), glm::ivec2(0, 1), glm::ivec2(0, -1)}) {
        const glm::ivec2 n = texel + step;
        if (kernels::snowMapContains(map, n) && (pointDepth <= thresholdAt(n)) != (pointDepth <= threshold))
          silhouette = true;
      }
      if (std::abs(pointDepth - threshold) <= kThresholdMargin || silhouette) ++ties[k];
    }
  }
  const float n = float(directions.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (ties[k] > 0) ++a.nearThreshold;
    const float difference = std::abs(a.gpu[k] - a.cpu[k]);
    if (difference == 0.0f) continue;
    ++a.differing;
    EXPECT_GT(ties[k], 0) << "point " << k << " (" << points[k].x << ", " << points[k].y << ", " << points[k].z
                          << "): GPU " << a.gpu[k] << ", CPU " << a.cpu[k] << " with no near tie";
    EXPECT_LE(difference, float(std::min(ties[k], 2)) / n + 1e-6f)
        << "point " << k << ": GPU " << a.gpu[k] << ", CPU " << a.cpu[k] << ", " << ties[k] << " near ties";
  }
  std::printf("[ agreement ] %zu points, %zu directions: %zu near a threshold, %zu differ\n", points.size(),
              directions.size(), a.nearThreshold, a.differing);
  return a;
}

TEST_F(SnowExposureGLTest, OpenPlaneReadsOneAsTheCpu) {
  const TriangleMesh ground = quad(-2.0f, 2.0f, -2.0f, 2.0f, 0.0f, 8);
  std::vector<glm::vec3> points;
  for (int j = 0; j < 9; ++j)
    for (int i = 0; i < 9; ++i) points.emplace_back(-1.6f + 0.4f * float(i), 0.0f, -1.6f + 0.4f * float(j));
  SnowExposureSettings settings;
  settings.texel = 0.02f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  for (float cone : {0.0f, 15.0f, 45.0f}) {
    SCOPED_TRACE(::testing::Message() << "cone " << cone);
    const Agreement a = compareWithCpu(*gpu, ground, points, directionsFor(cone, 64));
    ASSERT_EQ(a.gpu.size(), points.size());
    for (std::size_t k = 0; k < points.size(); ++k) EXPECT_EQ(a.gpu[k], 1.0f) << "point " << k;
    EXPECT_EQ(a.differing, 0u);
  }
}

TEST_F(SnowExposureGLTest, RoofedPlaneReadsZeroAndTheRoofOneAsTheCpu) {
  const TriangleMesh scene = merged({quad(-4.0f, 4.0f, -4.0f, 4.0f, 0.0f, 4), quad(-4.0f, 4.0f, -4.0f, 4.0f, 1.0f, 4)});
  const std::vector<glm::vec3> ground = pointsAlongX(-1.0f, 1.0f, 21, 0.0f), roof = pointsAlongX(-1.0f, 1.0f, 21, 1.0f);
  SnowExposureSettings settings;
  settings.texel = 0.02f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  const std::vector<glm::vec3> directions = directionsFor(60.0f, 64);
  const Agreement below = compareWithCpu(*gpu, scene, ground, directions);
  const Agreement above = compareWithCpu(*gpu, scene, roof, directions);
  ASSERT_EQ(below.gpu.size(), ground.size());
  ASSERT_EQ(above.gpu.size(), roof.size());
  for (float e : below.gpu) EXPECT_EQ(e, 0.0f);
  for (float e : above.gpu) EXPECT_EQ(e, 1.0f);
}

TEST_F(SnowExposureGLTest, RoofEdgePenumbraAsTheCpu) {
  // Roof over x < 0 at 1 m: the exposure rises from 0 to 1 across the edge's penumbra.
  const float h = 1.0f;
  const TriangleMesh scene = merged({quad(-3.0f, 3.0f, -3.0f, 3.0f, 0.0f, 4), quad(-3.0f, 0.0f, -3.0f, 3.0f, h, 4)});
  SnowExposureSettings settings;
  settings.texel = 0.01f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  for (const float cone : {20.0f, 35.0f}) {
    const float reach = h * std::tan(glm::radians(cone));
    const std::vector<glm::vec3> points = pointsAlongX(-1.2f * reach, 1.2f * reach, 97, 0.0f);
    for (int count : {32, 64}) {
      SCOPED_TRACE(::testing::Message() << "cone " << cone << ", " << count << " directions");
      const Agreement a = compareWithCpu(*gpu, scene, points, directionsFor(cone, count));
      ASSERT_EQ(a.gpu.size(), points.size());
      EXPECT_EQ(a.gpu.front(), 0.0f);
      EXPECT_EQ(a.gpu.back(), 1.0f);
      EXPECT_EQ(a.differing, 0u);
    }
  }
}

/// A ground slab with boxes, icospheres (some floating: overhangs) and a torus on it.
TriangleMesh clutteredScene(std::mt19937& rng) {
  std::uniform_real_distribution<float> at(-1.7f, 1.7f), size(0.08f, 0.4f), unit(0.0f, 1.0f);
  std::vector<TriangleMesh> parts{makeBox({-2.0f, -0.2f, -2.0f}, {2.0f, 0.0f, 2.0f}, 8)};
  for (int k = 0; k < 14; ++k) {
    const glm::vec3 corner(at(rng), 0.0f, at(rng));
    parts.push_back(makeBox(corner, corner + glm::vec3(size(rng), 2.0f * size(rng), size(rng)), k % 3));
  }
  for (int k = 0; k < 8; ++k) parts.push_back(makeIcosphere({at(rng), 0.1f + 0.8f * unit(rng), at(rng)}, size(rng), 2));
  parts.push_back(makeTorus({0.3f, 0.5f, -0.4f}, 0.45f, 0.1f, 48, 16));
  parts.push_back(makeTorus({-0.8f, 0.1f, 0.9f}, 0.3f, 0.08f, 32, 12));
  return merged(parts);
}

/// `count` points uniformly over the surface (area-weighted triangles, uniform within).
std::vector<glm::vec3> surfacePoints(const TriangleMesh& mesh, int count, std::mt19937& rng) {
  std::vector<double> cumulative;
  double total = 0.0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const glm::vec3 a = mesh.positions[mesh.indices[3 * t]], b = mesh.positions[mesh.indices[3 * t + 1]],
                    c = mesh.positions[mesh.indices[3 * t + 2]];
    total += 0.5 * double(glm::length(glm::cross(b - a, c - a)));
    cumulative.push_back(total);
  }
  std::uniform_real_distribution<double> pick(0.0, total);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<glm::vec3> points;
  for (int k = 0; k < count; ++k) {
    const std::size_t t =
        std::size_t(std::lower_bound(cumulative.begin(), cumulative.end(), pick(rng)) - cumulative.begin());
    const glm::vec3 a = mesh.positions[mesh.indices[3 * t]], b = mesh.positions[mesh.indices[3 * t + 1]],
                    c = mesh.positions[mesh.indices[3 * t + 2]];
    const float r = std::sqrt(unit(rng)), s = unit(rng);
    points.push_back((1.0f - r) * a + r * (1.0f - s) * b + r * s * c);
  }
  return points;
}

TEST_F(SnowExposureGLTest, RandomClutteredSceneAgreesPointForPoint) {
  std::mt19937 rng(2024);
  const TriangleMesh scene = clutteredScene(rng);
  const std::vector<glm::vec3> points = surfacePoints(scene, 2000, rng);
  SnowExposureSettings settings;
  settings.texel = 0.02f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  for (const float tilt : {0.0f, 20.0f}) {
    SCOPED_TRACE(::testing::Message() << "tilt " << tilt);
    const Agreement a = compareWithCpu(*gpu, scene, points, directionsFor(30.0f, 32, tilt));
    ASSERT_EQ(a.gpu.size(), points.size());
    EXPECT_LE(double(a.differing), 0.005 * double(points.size()));
    // The scene is not trivial: some points are shaded, some open, some in between.
    const auto count = [&](auto predicate) { return std::count_if(a.gpu.begin(), a.gpu.end(), predicate); };
    EXPECT_GT(count([](float e) { return e == 0.0f; }), 100);
    EXPECT_GT(count([](float e) { return e == 1.0f; }), 100);
    EXPECT_GT(count([](float e) { return e > 0.0f && e < 1.0f; }), 50);
  }
}

/// Evaluates the shared per-point kernel functions (kernels/snow.glslh) on the driver: per
/// point the texel, and the bits of the image coordinates and of the depth.
constexpr const char* kProbeSource = R"(#version 450 core
#include "kernels/snow.glslh"
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Maps { SnowMap maps[]; };
layout(std430, binding = 1) readonly buffer Points { vec4 points[]; };
layout(std430, binding = 2) writeonly buffer Out { uvec4 results[]; };
layout(location = 0) uniform uint pointCount;
void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= pointCount) return;
  SnowMap map = maps[k % 16u];
  vec3 p = points[k].xyz;
  ivec2 texel = snowMapTexel(map, p);
  vec2 image = snowMapImagePoint(map, p);
  results[k] = uvec4(uint(texel.x), uint(texel.y), floatBitsToUint(image.x + image.y),
                     floatBitsToUint(snowPointDepth(map, p)));
}
)";

TEST_F(SnowExposureGLTest, KernelMathMatchesTheCpuBitForBit) {
  // The texel of a point, its image coordinates and its depth come out of GLSL (precise)
  // with the same bits as from C++: CPU and GPU look every point up in the same texel.
  std::vector<embedded::EmbeddedFile> files(embedded::gpuShaderFiles().begin(), embedded::gpuShaderFiles().end());
  files.push_back({"test/snow_probe.comp", kProbeSource});
  auto program = gl::ShaderRegistry(files).buildCompute("test/snow_probe.comp");
  ASSERT_TRUE(program.ok()) << program.error().message;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> at(-60.0f, 60.0f);
  const std::vector<glm::vec3> directions = directionsFor(40.0f, 16, 20.0f);
  std::vector<glm::vec3> points(20000);
  for (glm::vec3& p : points) p = glm::vec3(at(rng), 0.2f * at(rng), at(rng));
  SnowExposureSettings settings;
  settings.texel = 0.0731f;
  std::vector<kernels::SnowMap> maps;
  for (const glm::vec3& d : directions) {
    auto frame = snowMapFrame(d, TriangleMesh{}, points, settings);
    ASSERT_TRUE(frame.ok());
    maps.push_back(snowMapRecord(*frame, settings.resolvedBias()));
  }
  std::vector<glm::vec4> padded;
  for (const glm::vec3& p : points) padded.emplace_back(p, 0.0f);
  const gl::Buffer mapBuffer = gl::createBuffer(std::span<const kernels::SnowMap>(maps), 0);
  const gl::Buffer pointBuffer = gl::createBuffer(std::span<const glm::vec4>(padded), 0);
  const gl::Buffer out = gl::createBuffer(points.size() * sizeof(glm::uvec4), nullptr, 0);
  glUseProgram(program->id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, mapBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, pointBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, out.id());
  glUniform1ui(0, GLuint(points.size()));
  glDispatchCompute(GLuint((points.size() + 63) / 64), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glUseProgram(0);
  std::vector<glm::uvec4> results(points.size());
  gl::readBuffer(out, results.size() * sizeof(glm::uvec4), results.data());
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const kernels::SnowMap& map = maps[k % 16];
    const glm::ivec2 texel = kernels::snowMapTexel(map, points[k]);
    const glm::vec2 image = kernels::snowMapImagePoint(map, points[k]);
    const float imageSum = image.x + image.y, depth = kernels::snowPointDepth(map, points[k]);
    std::uint32_t imageBits = 0, depthBits = 0;
    std::memcpy(&imageBits, &imageSum, 4);
    std::memcpy(&depthBits, &depth, 4);
    const glm::uvec4 expected(std::uint32_t(texel.x), std::uint32_t(texel.y), imageBits, depthBits);
    if (results[k] != expected && ++mismatches <= 5)
      ADD_FAILURE() << "point " << k << ": GPU texel (" << int(results[k].x) << ", " << int(results[k].y) << "), CPU ("
                    << texel.x << ", " << texel.y << "); image/depth bits differ: " << (results[k].z != imageBits)
                    << "/" << (results[k].w != depthBits);
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST_F(SnowExposureGLTest, CountHitsAddsToTheCountersOnTheGpu) {
  // Points produced on the GPU by another pass: countHits adds to the counters it is given.
  const TriangleMesh scene = merged({quad(-3.0f, 3.0f, -3.0f, 3.0f, 0.0f, 4), quad(-3.0f, 0.0f, -3.0f, 3.0f, 1.0f, 4)});
  const std::vector<glm::vec3> points = pointsAlongX(-1.0f, 1.0f, 41, 0.0f);
  SnowExposureSettings settings;
  settings.texel = 0.01f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  const std::vector<glm::vec3> directions = directionsFor(30.0f, 32);
  std::vector<SnowMapFrame> frames;
  for (const glm::vec3& d : directions) {
    auto frame = snowMapFrame(d, scene, points, settings);
    ASSERT_TRUE(frame.ok());
    frames.push_back(*frame);
  }
  std::vector<glm::vec4> padded;
  for (const glm::vec3& p : points) padded.emplace_back(p, 0.0f);
  const std::vector<std::uint32_t> start(points.size(), 5u);
  const gl::Buffer pointBuffer = gl::createBuffer(std::span<const glm::vec4>(padded), 0);
  const gl::Buffer hitBuffer = gl::createBuffer(std::span<const std::uint32_t>(start), 0);
  ASSERT_TRUE(gpu->countHits(scene, pointBuffer.id(), points.size(), frames, hitBuffer.id()).ok());
  ASSERT_TRUE(gpu->countHits(scene, pointBuffer.id(), points.size(), frames, hitBuffer.id()).ok());
  std::vector<std::uint32_t> hits(points.size());
  gl::readBuffer(hitBuffer, hits.size() * sizeof(std::uint32_t), hits.data());
  const auto cpu = snowExposureCpu(scene, points, directions, settings);
  ASSERT_TRUE(cpu.ok());
  for (std::size_t k = 0; k < points.size(); ++k)
    EXPECT_EQ(hits[k], 5u + 2u * std::uint32_t(std::lround((*cpu)[k] * float(directions.size())))) << "point " << k;
}

TEST_F(SnowExposureGLTest, BadInputIsAnErrorNamingIt) {
  const TriangleMesh ground = quad(-1.0f, 1.0f, -1.0f, 1.0f, 0.0f);
  const std::vector<glm::vec3> points{glm::vec3(0.0f)};
  const std::vector<glm::vec3> down{glm::vec3(0.0f, -1.0f, 0.0f)};
  const auto expectError = [](const Result<std::vector<float>>& r, const std::string& what) {
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_EQ(r.error().message.rfind("snow exposure (GPU): ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  };
  SnowExposureSettings settings;
  settings.texel = 0.0f;
  const auto invalid = GpuSnowExposure::create(settings);
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(invalid.error().message.find("snow exposure (GPU): texel"), std::string::npos) << invalid.error().message;

  settings.texel = 0.01f;
  auto gpu = makeGpu(settings);
  ASSERT_TRUE(gpu);
  expectError(gpu->exposure(ground, points, {}), "no snowfall directions");
  const std::vector<glm::vec3> nan{glm::vec3(std::numeric_limits<float>::quiet_NaN())};
  expectError(gpu->exposure(ground, points, nan), "snowfall direction");
  expectError(gpu->exposure(ground, nan, down), "receiving point is not finite");
  TriangleMesh broken = ground;
  broken.indices.back() = 99;
  expectError(gpu->exposure(broken, points, down), "index out of range");

  // Over the settings' texel budget (as the CPU) ...
  settings.texel = 1e-5f;  // 2 m / 10 um = 200000 texels a side
  auto fine = makeGpu(settings);
  ASSERT_TRUE(fine);
  expectError(fine->exposure(ground, points, down), "too large");
  // ... and within it but wider than the GPU's largest texture: 1 mm texels on a strip
  // 10 texels longer than GL_MAX_TEXTURE_SIZE and 2 mm wide.
  GLint maxSize = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
  ASSERT_GT(maxSize, 0);
  settings.texel = 1e-3f;
  auto strip = makeGpu(settings);
  ASSERT_TRUE(strip);
  const TriangleMesh longStrip = quad(0.0f, 1e-3f * float(maxSize + 10), 0.0f, 2e-3f, 0.0f);
  expectError(strip->exposure(longStrip, points, down), "GL_MAX_TEXTURE_SIZE");
  const auto stripOnCpu = snowExposureCpu(longStrip, points, down, settings);
  EXPECT_TRUE(stripOnCpu.ok()) << "the CPU has no such limit";
  // The context is still usable after the errors.
  const auto fineAgain = strip->exposure(ground, points, down);
  ASSERT_TRUE(fineAgain.ok()) << fineAgain.error().message;
  EXPECT_EQ(fineAgain->front(), 1.0f);
}

}  // namespace
}  // namespace hg
