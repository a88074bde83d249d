// Sphere-tree batch queries (sim/spheretree/SphereTreeQueries.h): the CPU
// backend (OpenMP over the queries, all cores) and the GPU backend (one compute invocation
// per query; llvmpipe on the VM) side by side on the same scenes.
//
// Points: 100k cloth-like points near a shape (uniform over its surface, offset along the
// surface normal by -2 .. +10 mm, search radius 20 mm: a contact skin), nearest leaf of the
// one instance. Shapes: the bottle (makeBottle 0.3 m, voxelized at 64: 1,033 spheres) and a
// mannequin-sized capsule (1.8 m tall, radius 0.2 m, voxelized at 128).
// Pairs: 1k and 10k random pairs among 64 instances (32 bottles, 32 tori, random poses in a
// 0.6 m cube; about 8% of the pairs collide, ~720 leaf pairs each): hg::collide's all-pairs
// count per pair.
// Upload: setScene of those scenes (GPU: buffer upload; CPU: validation and copy), measured
// separately; the query timings include uploading the queries and reading the results back
// (GPU) but not the scene.
//
// Counters: queries, us_per_1k_queries, hits (points within the radius) or colliding
// (pairs), leaf_pairs, nodes (scene nodes).
//
// Usage: OMP_WAIT_POLICY=PASSIVE hg_spheretree_gpu_bench [--benchmark_filter=...];
// results in bench/results/spheretree_gpu_<host>.json.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "bench/GlBenchMain.h"
#include "gl/HeadlessContext.h"
#include "sim/core/TriangleMesh.h"
#include "sim/gpu/GpuSphereTreeQueries.h"
#include "sim/spheretree/SphereTree.h"
#include "sim/spheretree/SphereTreeQueries.h"

namespace hg {
namespace {

std::unique_ptr<gl::HeadlessContext> g_context;

constexpr std::size_t kPointCount = 100'000;

struct PointScene {
  std::string name;
  SphereTreeSet set;
  std::vector<glm::vec4> points;
};

/// `count` points near `mesh`'s surface (see the file comment), deterministic.
std::vector<glm::vec4> pointsNear(const TriangleMesh& mesh, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f), offset(-0.002f, 0.010f);
  const std::size_t triangles = mesh.indices.size() / 3;
  std::vector<glm::vec4> points;
  points.reserve(count);
  while (points.size() < count) {
    const std::size_t t = std::size_t(u(rng) * float(triangles)) % triangles;
    const glm::vec3 a = mesh.positions[mesh.indices[3 * t]], b = mesh.positions[mesh.indices[3 * t + 1]],
                    c = mesh.positions[mesh.indices[3 * t + 2]];
    const glm::vec3 n = glm::cross(b - a, c - a);
    if (glm::length(n) < 1e-12f) continue;
    float s = u(rng), r = u(rng);
    if (s + r > 1.0f) {
      s = 1.0f - s;
      r = 1.0f - r;
    }
    const glm::vec3 p = a + s * (b - a) + r * (c - a) + glm::normalize(n) * offset(rng);
    points.emplace_back(p, 0.02f);
  }
  return points;
}

const PointScene& pointScene(int which) {
  static std::unique_ptr<PointScene> scenes[2];
  if (!scenes[which]) {
    auto s = std::make_unique<PointScene>();
    const TriangleMesh mesh = which == 0 ? makeBottle({0.0f, 0.0f, 0.0f}, 0.3f)
                                         : makeCapsule({0.0f, -0.7f, 0.0f}, {0.0f, 0.7f, 0.0f}, 0.2f, 16, 48);
    s->name = which == 0 ? "bottle@64" : "capsule-1.8m@128";
    auto tree = SphereTree::fromMesh(mesh, which == 0 ? 64 : 128, s->name);
    if (!tree) {
      std::fprintf(stderr, "%s\n", tree.error().message.c_str());
      std::exit(2);
    }
    s->set.addInstance(s->set.addTree(*tree), RigidPose{});
    s->points = pointsNear(mesh, kPointCount, 17u + unsigned(which));
    scenes[which] = std::move(s);
  }
  return *scenes[which];
}

/// 64 instances: 32 bottles and 32 tori at random poses in a 0.6 m cube.
const SphereTreeSet& pairScene() {
  static const SphereTreeSet set = [] {
    SphereTreeSet s;
    auto bottle = SphereTree::fromMesh(makeBottle({0.0f, -0.15f, 0.0f}, 0.3f), 64, "bottle");
    auto torus = SphereTree::fromMesh(makeTorus({0.0f, 0.0f, 0.0f}, 0.1f, 0.035f, 48, 24), 64, "torus");
    if (!bottle || !torus) std::exit(2);
    const std::uint32_t b = s.addTree(*bottle), t = s.addTree(*torus);
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::uniform_real_distribution<float> at(-0.3f, 0.3f);
    for (int i = 0; i < 64; ++i) {
      RigidPose pose;
      pose.rotation = glm::mat3_cast(glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng))));
      pose.translation = glm::vec3(at(rng), at(rng), at(rng));
      s.addInstance(i % 2 == 0 ? b : t, pose);
    }
    return s;
  }();
  return set;
}

std::vector<glm::uvec2> randomPairs(std::size_t count) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> pick(0, 63);
  std::vector<glm::uvec2> pairs;
  while (pairs.size() < count) {
    const glm::uvec2 p(pick(rng), pick(rng));
    if (p.x != p.y) pairs.push_back(p);
  }
  return pairs;
}

/// The backend (0 CPU, 1 GPU), created once.
SphereTreeQueryBackend* backend(bool gpu) {
  static std::unique_ptr<SphereTreeQueryBackend> backends[2];
  std::unique_ptr<SphereTreeQueryBackend>& b = backends[gpu ? 1 : 0];
  if (!b) {
    if (gpu) {
      auto created = GpuSphereTreeQueries::create();
      if (created)
        b = std::move(created).value();
      else
        std::fprintf(stderr, "%s\n", created.error().message.c_str());
    } else {
      auto created = CpuSphereTreeQueries::create();
      if (created) b = std::move(created).value();
    }
  }
  return b.get();
}

/// Args: backend (0 CPU, 1 GPU), shape (0 bottle, 1 capsule).
void BM_Points(benchmark::State& state) {
  const bool gpu = state.range(0) == 1;
  const PointScene& scene = pointScene(int(state.range(1)));
  SphereTreeQueryBackend* b = backend(gpu);
  if (!b) {
    state.SkipWithError("no backend");
    return;
  }
  if (Status s = b->setScene(scene.set); !s) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  std::size_t hits = 0;
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto results = b->queryPoints(scene.points, 0u);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!results) {
      state.SkipWithError(results.error().message.c_str());
      return;
    }
    hits = 0;
    for (const kernels::SpherePointResult& r : *results) hits += r.normalDistance.w < HG_NO_CONTACT_GAP;
    benchmark::DoNotOptimize(results->data());
  }
  state.counters["queries"] = double(scene.points.size());
  state.counters["hits"] = double(hits);
  state.counters["nodes"] = double(scene.set.nodes.size());
  state.counters["us_per_1k_queries"] =
      1e6 * seconds / double(state.iterations()) / (1e-3 * double(scene.points.size()));
  state.SetLabel(std::string(b->name()) + " 100k points near " + scene.name);
}

/// Args: backend (0 CPU, 1 GPU), pairs.
void BM_Pairs(benchmark::State& state) {
  const bool gpu = state.range(0) == 1;
  const std::vector<glm::uvec2> pairs = randomPairs(std::size_t(state.range(1)));
  SphereTreeQueryBackend* b = backend(gpu);
  if (!b) {
    state.SkipWithError("no backend");
    return;
  }
  if (Status s = b->setScene(pairScene()); !s) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  std::size_t colliding = 0, incomplete = 0;
  double leafPairs = 0.0, seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto results = b->queryPairs(pairs);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!results) {
      state.SkipWithError(results.error().message.c_str());
      return;
    }
    colliding = incomplete = 0;
    leafPairs = 0.0;
    for (const kernels::SpherePairResult& r : *results) {
      colliding += r.counts.x > 0;
      leafPairs += double(r.counts.x);
      incomplete += r.counts.y != 0;
    }
    benchmark::DoNotOptimize(results->data());
  }
  state.counters["queries"] = double(pairs.size());
  state.counters["colliding"] = double(colliding);
  state.counters["leaf_pairs"] = leafPairs;
  state.counters["flagged"] = double(incomplete);
  state.counters["nodes"] = double(pairScene().nodes.size());
  state.counters["us_per_1k_queries"] = 1e6 * seconds / double(state.iterations()) / (1e-3 * double(pairs.size()));
  state.SetLabel(std::string(b->name()) + " " + std::to_string(pairs.size()) + " pairs of 64 instances");
}

/// Args: backend (0 CPU, 1 GPU), scene (0 bottle, 1 capsule, 2 the 64-instance pair scene).
void BM_Upload(benchmark::State& state) {
  const bool gpu = state.range(0) == 1;
  const SphereTreeSet& set = state.range(1) == 2 ? pairScene() : pointScene(int(state.range(1))).set;
  SphereTreeQueryBackend* b = backend(gpu);
  if (!b) {
    state.SkipWithError("no backend");
    return;
  }
  for (auto _ : state) {
    if (Status s = b->setScene(set); !s) {
      state.SkipWithError(s.error().message.c_str());
      return;
    }
    if (gpu) glFinish();  // the upload has reached the GPU
  }
  state.counters["nodes"] = double(set.nodes.size());
  state.counters["instances"] = double(set.instances.size());
  state.counters["bytes"] = double(set.nodes.size() * sizeof(kernels::SphereTreeNode) +
                                   set.instances.size() * sizeof(kernels::SphereTreeInstance));
  state.SetLabel(std::string(b->name()) + " setScene " +
                 (state.range(1) == 2 ? std::string("64 instances") : pointScene(int(state.range(1))).name));
}

BENCHMARK(BM_Points)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Pairs)->ArgsProduct({{0, 1}, {1000, 10000}})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Upload)->ArgsProduct({{0, 1}, {0, 1, 2}})->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace hg

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_spheretree_gpu_bench", "spheretree_gpu", hg::g_context);
}
