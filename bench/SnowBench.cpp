// Snow exposure benchmarks (docs/methods.md section 5): the shadow-map style exposure passes on
// the GPU (sim/gpu/GpuSnowExposure) and the CPU reference (snowExposureCpu), 64 snowfall
// directions (15 degree cone, tilted 10 degrees by wind), maps of about 1024 x 1024 texels
// (texel = scene extent / 1024), on procedural towns of ~10k, ~100k and ~1M triangles: a
// ground grid (half the triangles) with houses (boxes) and trees (a trunk box and an
// icosphere crown) scattered over it (the other half), built once per size. Receivers: the
// centres of a 256 x 256 grid of ground cells plus every scene vertex.
//
// Counters: triangles, receivers, directions, map_texels (mean texels per map),
// ms_per_direction (wall time / directions), mean_exposure (a sanity value; the same for
// both backends up to near-tie points). Heavy cases run one or two iterations so the whole
// program finishes in under a minute on a 2-core llvmpipe machine (the CPU reference runs
// its raster rows on OpenMP threads, so both backends use both cores there).
//
// Usage: OMP_WAIT_POLICY=PASSIVE hg_snow_bench [--benchmark_filter=...];
// results in bench/results/snow_<host>.json.
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/GlBenchMain.h"
#include "gl/HeadlessContext.h"
#include "sim/gpu/GpuSnowExposure.h"
#include "sim/snow/SnowExposure.h"
#include "sim/snow/SnowfallDirections.h"

namespace hg {
namespace {

std::unique_ptr<gl::HeadlessContext> g_context;

constexpr float kExtent = 200.0f;  // m, the town's side
constexpr int kMapEdge = 1024;     // texels across the extent
constexpr int kReceiverGrid = 256;
constexpr int kDirections = 64;
const int kTargetTriangles[] = {10'000, 100'000, 1'000'000};

struct Town {
  TriangleMesh scene;
  std::vector<glm::vec3> receivers;
};

/// A square ground grid of `cells` x `cells` over the extent at y = 0, facing up.
TriangleMesh groundGrid(int cells) {
  TriangleMesh mesh;
  const float step = kExtent / float(cells), origin = -0.5f * kExtent;
  for (int j = 0; j <= cells; ++j)
    for (int i = 0; i <= cells; ++i)
      mesh.positions.emplace_back(origin + step * float(i), 0.0f, origin + step * float(j));
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      const auto a = std::uint32_t(j * (cells + 1) + i), b = a + 1, c = a + std::uint32_t(cells + 1), d = c + 1;
      mesh.indices.insert(mesh.indices.end(), {a, c, b, b, c, d});
    }
  return mesh;
}

/// The town of about `triangles` triangles (see the file comment), deterministic.
Town buildTown(int triangles) {
  Town result;
  const int cells = int(std::lround(std::sqrt(double(triangles) / 4.0)));
  result.scene = groundGrid(cells);
  // Houses (12 triangles) and trees (12 + 80) alternate: 52 triangles per object on average.
  const int objects = (triangles - int(result.scene.triangleCount())) / 52;
  const float spacing = kExtent / std::sqrt(float(std::max(objects, 1)));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> at(-0.48f * kExtent, 0.48f * kExtent), unit(0.0f, 1.0f);
  for (int k = 0; k < objects; ++k) {
    const glm::vec3 base(at(rng), 0.0f, at(rng));
    const float size = spacing * (0.3f + 0.3f * unit(rng));
    if (k % 2 == 0) {  // a house
      const glm::vec3 half(0.5f * size, 0.0f, 0.5f * size * (0.6f + 0.8f * unit(rng)));
      appendMesh(result.scene,
                 makeBox(base - half, base + half + glm::vec3(0.0f, size * (0.6f + 0.6f * unit(rng)), 0.0f), 0));
    } else {  // a tree: trunk and crown
      const float trunk = 0.08f * size, height = size * (0.8f + 0.6f * unit(rng));
      appendMesh(result.scene,
                 makeBox(base - glm::vec3(trunk, 0.0f, trunk), base + glm::vec3(trunk, height, trunk), 0));
      appendMesh(result.scene, makeIcosphere(base + glm::vec3(0.0f, height, 0.0f), 0.45f * size, 1));
    }
  }
  const float step = kExtent / float(kReceiverGrid), origin = -0.5f * kExtent + 0.5f * step;
  for (int j = 0; j < kReceiverGrid; ++j)
    for (int i = 0; i < kReceiverGrid; ++i)
      result.receivers.emplace_back(origin + step * float(i), 0.0f, origin + step * float(j));
  result.receivers.insert(result.receivers.end(), result.scene.positions.begin(), result.scene.positions.end());
  return result;
}

const Town& town(int size) {
  static std::map<int, Town> towns;
  auto it = towns.find(size);
  if (it == towns.end()) it = towns.emplace(size, buildTown(kTargetTriangles[size])).first;
  return it->second;
}

const std::vector<glm::vec3>& directions() {
  static const std::vector<glm::vec3> d = [] {
    SnowfallSettings s;
    s.coneDegrees = 15.0f;
    s.windTiltDegrees = 10.0f;
    s.count = kDirections;
    auto made = snowfallDirections(s);
    return made ? *made : std::vector<glm::vec3>{};
  }();
  return d;
}

/// 1024^2-texel maps; `rays` per direction (1: the plain shadow-map test; 8: the default
/// of the snow solver, spread over the direction's share of the 15-degree cone).
SnowExposureSettings settings(int rays = 1) {
  SnowExposureSettings s;
  s.texel = kExtent / float(kMapEdge);
  s.raysPerDirection = rays;
  s.raySpread = snowRaySpread(15.0f, kDirections);
  return s;
}

/// Mean texels per map of the town's frames.
double meanMapTexels(const Town& t) {
  double sum = 0.0;
  for (const glm::vec3& d : directions()) {
    auto frame = snowMapFrame(d, t.scene, t.receivers, settings());
    if (frame) sum += double(frame->width) * double(frame->height);
  }
  return sum / double(directions().size());
}

/// Args: backend (0 CPU reference, 1 GPU), town size (0: ~10k, 1: ~100k, 2: ~1M
/// triangles), rays per direction.
void BM_SnowExposure(benchmark::State& state) {
  const bool onGpu = state.range(0) == 1;
  const Town& t = town(int(state.range(1)));
  const int rays = int(state.range(2));
  static std::map<int, std::unique_ptr<GpuSnowExposure>> gpus;
  std::unique_ptr<GpuSnowExposure>& gpu = gpus[rays];
  if (onGpu && !gpu) {
    auto created = GpuSnowExposure::create(settings(rays));
    if (!created) {
      state.SkipWithError(created.error().message.c_str());
      return;
    }
    gpu = std::move(created).value();
  }
  double meanExposure = 0.0, seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto exposure = onGpu ? gpu->exposure(t.scene, t.receivers, directions())
                          : snowExposureCpu(t.scene, t.receivers, directions(), settings(rays));
    if (!exposure) {
      state.SkipWithError(exposure.error().message.c_str());
      return;
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    meanExposure = std::accumulate(exposure->begin(), exposure->end(), 0.0) / double(exposure->size());
    benchmark::DoNotOptimize(exposure->data());
  }
  state.counters["triangles"] = double(t.scene.triangleCount());
  state.counters["receivers"] = double(t.receivers.size());
  state.counters["directions"] = double(directions().size());
  state.counters["rays_per_direction"] = double(rays);
  state.counters["map_texels"] = meanMapTexels(t);
  state.counters["ms_per_direction"] = 1e3 * seconds / double(state.iterations()) / double(directions().size());
  state.counters["mean_exposure"] = meanExposure;
  state.SetLabel(std::string(onGpu ? "gpu" : "cpu") + " " + std::to_string(kTargetTriangles[state.range(1)] / 1000) +
                 "k-triangle town, " + std::to_string(rays) + (rays == 1 ? " ray" : " rays") + " per direction");
}

// All three towns on both backends, with the plain test (1 ray) and the solver's default
// 8 rays per direction; the heavy cases once (about 10-40 s each on 2 cores).
BENCHMARK(BM_SnowExposure)->Args({1, 0, 1})->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({1, 1, 1})->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({1, 2, 1})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 0, 1})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 1, 1})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 2, 1})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({1, 0, 8})->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({1, 1, 8})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({1, 2, 8})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 0, 8})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 1, 8})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SnowExposure)->Args({0, 2, 8})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace hg

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_snow_bench", "snow", hg::g_context);
}
