// Cyber Radar benchmarks (docs/methods.md section 3).
//
// 1. Cost against the number of radars (1 to 4096, 32 x 32) and against the image size
//    (16^2 to 256^2, 64 radars), CPU reference and GPU backend, on the source's test scene:
//    50 spheres of 128 polygons in a box (6,412 triangles here), every radar a collision
//    radar of one sphere sweeping its motion (R of the scene without it, M of it alone,
//    analysis). Counters: radars per second and microseconds per radar (linear cost =
//    a flat us/radar column).
// 2. Continuous collision against FCL (conservative advancement on RSS trees, the
//    same meshes, side by side): a 1,280-triangle sphere falling 0.6 m onto the ground of the
//    50-sphere box; time of impact error against the exact one (the sphere mesh's lowest
//    vertex over the ground plane), and the time per query.
//
// Usage: hg_radar_bench [--benchmark_filter=...]; results in bench/results/radar_<host>.json.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>
#include <fcl/fcl.h>
#include <glm/geometric.hpp>

#include "bench/GlBenchMain.h"
#include "gl/HeadlessContext.h"
#include "sim/gpu/GpuRadar.h"
#include "sim/radar/Radar.h"

namespace hg {
namespace {

std::unique_ptr<gl::HeadlessContext> g_context;

constexpr int kSpheres = 50;
constexpr std::uint32_t kBoxId = 1000;

/// The source's scene: 50 spheres of 128 polygons (8 x 8 UV quads) in a 2 m box.
const RadarScene& sphereBox() {
  static const RadarScene scene = [] {
    RadarScene s;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> at(-0.8f, 0.8f);
    for (int k = 0; k < kSpheres; ++k)
      (void)s.add(std::uint32_t(k), makeUvSphere({at(rng), at(rng) + 1.0f, at(rng)}, 0.08f, 8, 8));
    (void)s.add(kBoxId, makeBox({-1.0f, 0.0f, -1.0f}, {1.0f, 2.0f, 1.0f}, 0));
    return s;
  }();
  return scene;
}

/// `count` collision radars: radar k sweeps sphere k % 50 by 0.3 m in a random direction.
std::vector<RadarQuery> sweeps(int count) {
  const RadarScene& scene = sphereBox();
  std::vector<RadarQuery> queries;
  std::mt19937 rng(7);
  std::normal_distribution<float> gauss;
  for (int k = 0; k < count; ++k) {
    const auto sensor = std::uint32_t(k % kSpheres);
    glm::vec3 direction(gauss(rng), gauss(rng), gauss(rng));
    direction = 0.3f * glm::normalize(direction);
    auto q = makeSweepQuery(sensor, scene.positionsOf(sensor), direction, {0, 1, 0}, 0.01f);
    if (q) queries.push_back(*q);
  }
  return queries;
}

/// Why the GPU radar could not be made (empty when it was).
std::string g_gpuError;

RadarBackend* backend(int gpu) {
  static std::unique_ptr<RadarBackend> cpu = makeCpuRadar();
  static std::unique_ptr<RadarBackend> onGpu = []() -> std::unique_ptr<RadarBackend> {
    auto r = makeGpuRadar();
    if (!r) {
      g_gpuError = r.error().message;
      return nullptr;
    }
    return std::move(r).value();
  }();
  return gpu ? onGpu.get() : cpu.get();
}

/// Args: backend (0 CPU, 1 GPU), radars, image edge.
void BM_RadarBatch(benchmark::State& state) {
  RadarBackend* radar = backend(int(state.range(0)));
  if (!radar) {
    state.SkipWithError(g_gpuError.c_str());
    return;
  }
  const int count = int(state.range(1)), edge = int(state.range(2));
  const std::vector<RadarQuery> queries = sweeps(count);
  int collisions = 0;
  for (auto _ : state) {
    auto hits = radar->run(sphereBox(), queries, {edge, edge});
    if (!hits) {
      state.SkipWithError(hits.error().message.c_str());
      return;
    }
    collisions = int(std::count_if(hits->begin(), hits->end(), [](const RadarHit& h) { return h.collides; }));
    benchmark::DoNotOptimize(hits->data());
  }
  state.counters["radars_per_s"] = benchmark::Counter(double(count), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["us_per_radar"] = benchmark::Counter(
      1e-6 * double(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["collisions"] = collisions;
  state.counters["triangles"] = double(sphereBox().triangleCount());
  state.SetLabel(std::string(radar->name()) + " " + std::to_string(edge) + "x" + std::to_string(edge));
}

void radarBatchArgs(benchmark::internal::Benchmark* b) {
  for (int gpu : {0, 1}) {
    for (int count : {1, 4, 16, 64, 256, 1024, 4096}) b->Args({gpu, count, 32});
    for (int edge : {16, 64, 128, 256}) b->Args({gpu, 64, edge});
  }
}
BENCHMARK(BM_RadarBatch)->Apply(radarBatchArgs)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.2);

// ---- continuous collision: radar against FCL ----

struct FallCase {
  RadarScene scene;
  TriangleMesh sensor;
  glm::vec3 displacement{0.0f, -0.6f, 0.0f};
  float exactToi = 0.0f;  // fraction of the move
};

const FallCase& fallCase() {
  static const FallCase c = [] {
    FallCase f;
    f.scene = RadarScene();
    const RadarScene& box = sphereBox();
    // The obstacles: the 50 spheres and the box, as in sphereBox(); the sensor drops onto the floor.
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> at(-0.8f, 0.8f);
    for (int k = 0; k < kSpheres; ++k)
      (void)f.scene.add(std::uint32_t(k), makeUvSphere({at(rng), at(rng) + 1.0f, at(rng)}, 0.08f, 8, 8));
    (void)f.scene.add(kBoxId, makeBox({-1.0f, -0.2f, -1.0f}, {1.0f, 0.0f, 1.0f}, 0));
    (void)box;
    // A clear column above the floor for the sensor (x = 0.9, z = 0.9 corner).
    f.sensor = makeIcosphere({0.9f, 0.45f, 0.9f}, 0.1f, 3);
    (void)f.scene.add(2000, f.sensor);
    float lowest = 1e30f;
    for (const glm::vec3& p : f.sensor.positions) lowest = std::min(lowest, p.y);
    f.exactToi = lowest / 0.6f;
    return f;
  }();
  return c;
}

void BM_RadarContinuous(benchmark::State& state) {
  RadarBackend* radar = backend(int(state.range(0)));
  if (!radar) {
    state.SkipWithError(g_gpuError.c_str());
    return;
  }
  const FallCase& c = fallCase();
  const int edge = int(state.range(1));
  auto query = makeSweepQuery(2000, c.sensor.positions, c.displacement, {0, 0, -1}, 0.005f);
  float toi = 1.0f;
  for (auto _ : state) {
    auto hits = radar->run(c.scene, std::span<const RadarQuery>(&*query, 1), {edge, edge});
    if (!hits) {
      state.SkipWithError(hits.error().message.c_str());
      return;
    }
    toi = hits->front().timeOfImpact;
  }
  state.counters["toi"] = toi;
  state.counters["toi_error_mm"] = 1e3 * std::abs(toi - c.exactToi) * 0.6;
  state.counters["triangles"] = double(c.scene.triangleCount());
  state.SetLabel(std::string(radar->name()) + " " + std::to_string(edge) + "x" + std::to_string(edge));
}
BENCHMARK(BM_RadarContinuous)
    ->Args({0, 32})
    ->Args({0, 64})
    ->Args({0, 128})
    ->Args({1, 32})
    ->Args({1, 64})
    ->Args({1, 128})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// RSS trees: FCL 0.7's conservative advancement between meshes is broken for OBBRSS (the
// signed bounds of MeshConservativeAdvancementTraversalNode::leafTesting cancel; fcl issue
// #555, pull request #550) and works for RSS. The naive solver (discrete checks) uses
// OBBRSS, FCL's fastest tree for discrete mesh collision.
template <class FclModel>
std::shared_ptr<FclModel> fclModel(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices,
                                   std::uint32_t base) {
  auto model = std::make_shared<FclModel>();
  std::vector<fcl::Vector3d> vertices;
  for (const glm::vec3& p : positions) vertices.emplace_back(p.x, p.y, p.z);
  std::vector<fcl::Triangle> triangles;
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3)
    triangles.emplace_back(indices[t] - base, indices[t + 1] - base, indices[t + 2] - base);
  model->beginModel();
  model->addSubModel(vertices, triangles);
  model->endModel();
  return model;
}

/// Args: solver (0 conservative advancement, 1 naive: discrete checks at evenly spaced
/// samples), samples for the naive solver.
template <class FclModel>
void BM_FclContinuous(benchmark::State& state) {
  const FallCase& c = fallCase();
  // One FCL object per scene object (the same meshes the radar draws).
  std::vector<std::shared_ptr<FclModel>> obstacles;
  const auto& objects = c.scene.triangleObjects();
  const auto& indices = c.scene.indices();
  std::map<std::uint32_t, std::vector<std::uint32_t>> byObject;
  for (std::size_t t = 0; t < objects.size(); ++t)
    if (objects[t] != 2000)
      for (int k = 0; k < 3; ++k) byObject[objects[t]].push_back(indices[3 * t + std::size_t(k)]);
  for (auto& [id, tri] : byObject) {
    const std::uint32_t base = *std::min_element(tri.begin(), tri.end());
    const std::uint32_t top = *std::max_element(tri.begin(), tri.end());
    obstacles.push_back(
        fclModel<FclModel>(std::span<const glm::vec3>(c.scene.positions().data() + base, top - base + 1), tri, base));
  }
  auto sensor = fclModel<FclModel>(c.sensor.positions, c.sensor.indices, 0);
  fcl::ContinuousCollisionRequestd request;
  request.ccd_motion_type = fcl::CCDM_TRANS;
  request.gjk_solver_type = fcl::GST_LIBCCD;
  request.ccd_solver_type = state.range(0) == 0 ? fcl::CCDC_CONSERVATIVE_ADVANCEMENT : fcl::CCDC_NAIVE;
  request.num_max_iterations = state.range(0) == 0 ? 100 : std::size_t(state.range(1));
  request.toc_err = 1e-4;
  const fcl::Transform3d identity = fcl::Transform3d::Identity();
  fcl::Transform3d end = fcl::Transform3d::Identity();
  end.translation() = fcl::Vector3d(c.displacement.x, c.displacement.y, c.displacement.z);
  double toi = 1.0;
  for (auto _ : state) {
    toi = 1.0;
    for (const auto& obstacle : obstacles) {
      fcl::ContinuousCollisionResultd result;
      fcl::continuousCollide(sensor.get(), identity, end, obstacle.get(), identity, identity, request, result);
      if (result.is_collide) toi = std::min(toi, result.time_of_contact);
    }
    benchmark::DoNotOptimize(toi);
  }
  state.counters["toi"] = toi;
  state.counters["toi_error_mm"] = 1e3 * std::abs(toi - double(c.exactToi)) * 0.6;
  state.counters["triangles"] = double(c.scene.triangleCount());
  state.SetLabel(state.range(0) == 0 ? "fcl conservative advancement (RSS)"
                                     : "fcl naive (" + std::to_string(state.range(1)) + " samples)");
}
BENCHMARK_TEMPLATE(BM_FclContinuous, fcl::BVHModel<fcl::RSSd>)
    ->Args({0, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_FclContinuous, fcl::BVHModel<fcl::OBBRSSd>)
    ->Args({1, 10})
    ->Args({1, 100})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace hg

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_radar_bench", "radar", hg::g_context);
}
