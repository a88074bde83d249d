// Cloth body colliders: the mannequin as a sphere tree (docs/methods.md section 6)
// against its depth views (section 2, the source's method) and the exact signed distance
// grid: build time, time per contact query and the query's gap error against the exact
// distance (CGAL) at points near the body surface. The drape comparison (penetration of
// a whole drape, time per frame) is run with the CLI; see bench/RESULTS.md.
//
//   build/bench/hg_cloth_collider_bench
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>

#include "bench/BenchOutput.h"
#include "sim/body/Mannequin.h"
#include "sim/contact/DepthViews.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/kernels/Kernels.h"
#include "sim/spheretree/SphereTree.h"

namespace {

using namespace hg;

/// The mannequin (a_pose, as scenes/sheet_on_mannequin.json), points near its surface and
/// their exact signed distances.
struct Fixture {
  TriangleMesh body;
  std::vector<glm::vec3> points;  ///< body vertices moved along their normals by -3..+10 mm
  std::vector<float> exact;       ///< CGAL signed distance of each point, m
  float contactOffset = 0.006f;   ///< as the mannequin scenes

  static const Fixture& get() {
    static const Fixture fixture = [] {
      Fixture f;
      MannequinParams params;
      params.pose = MannequinPose::APose;
      auto mannequin = buildMannequin(params);
      if (!mannequin) {
        std::fprintf(stderr, "mannequin: %s\n", mannequin.error().message.c_str());
        std::exit(1);
      }
      f.body = mannequin->mesh;
      if (f.body.normals.size() != f.body.positions.size()) computeVertexNormals(f.body);
      for (std::size_t i = 0; i < f.body.positions.size(); ++i) {
        const float u = -0.003f + 0.013f * float((i * 2654435761u) % 1000u) / 999.0f;
        f.points.push_back(f.body.positions[i] + u * glm::normalize(f.body.normals[i]));
      }
      auto exact = exactSignedDistances(f.body, f.points);
      if (!exact) {
        std::fprintf(stderr, "exact distances: %s\n", exact.error().message.c_str());
        std::exit(1);
      }
      f.exact = std::move(exact).value();
      return f;
    }();
    return fixture;
  }
};

/// Gap error statistics over the points whose exact gap is below 10 mm (where contacts act):
/// mean and max |reported - exact|, and the fraction of points inside the body that the
/// collider reports outside (gap >= 0: missed).
void gapCounters(benchmark::State& state, const std::vector<float>& reported) {
  const Fixture& f = Fixture::get();
  double sum = 0.0, worst = 0.0;
  std::size_t counted = 0, inside = 0, missed = 0;
  for (std::size_t i = 0; i < reported.size(); ++i) {
    if (!(f.exact[i] < 0.01f)) continue;
    const double error = std::abs(double(std::min(reported[i], 0.05f)) - double(f.exact[i]));
    sum += error;
    worst = std::max(worst, error);
    ++counted;
    if (f.exact[i] < 0.0f) {
      ++inside;
      missed += reported[i] >= 0.0f;
    }
  }
  state.counters["gap_error_mean_mm"] = 1e3 * sum / double(std::max<std::size_t>(counted, 1));
  state.counters["gap_error_max_mm"] = 1e3 * worst;
  state.counters["inside_missed_fraction"] = double(missed) / double(std::max<std::size_t>(inside, 1));
  state.counters["points"] = double(counted);
}

void BM_SphereTree(benchmark::State& state) {
  const Fixture& f = Fixture::get();
  const int resolution = int(state.range(0));
  const auto t0 = std::chrono::steady_clock::now();
  auto tree = SphereTree::fromMesh(f.body, resolution, "mannequin");
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!tree) {
    state.SkipWithError(tree.error().message.c_str());
    return;
  }
  const kernels::SphereTreeInstance instance = sphereTreeInstance(*tree, RigidPose{}, 0u);
  const float search = 2.0f * f.contactOffset + 1e-3f;  // ClothSettings::sphereTreeSearchRadius()
  std::vector<float> gaps(f.points.size());
  std::size_t visited = 0;
  for (auto _ : state) {
    visited = 0;
    for (std::size_t i = 0; i < f.points.size(); ++i) {
      const SpherePointHit hit = nearestLeaf(tree->nodes(), instance, f.points[i], search);
      gaps[i] = hit.found ? hit.distance : kernels::noContact().normalGap.w;
      visited += hit.nodesVisited;
    }
    benchmark::DoNotOptimize(gaps.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * f.points.size()));
  gapCounters(state, gaps);
  state.counters["build_s"] = build;
  state.counters["leaf_spheres"] = double(tree->spheres().size());
  state.counters["voxel_mm"] = 1e3 * double(tree->voxel());
  state.counters["nodes_per_query"] = double(visited) / double(f.points.size());
}
BENCHMARK(BM_SphereTree)->Arg(128)->Arg(256)->Arg(384)->Unit(benchmark::kMillisecond);

void BM_DepthViews(benchmark::State& state) {
  const Fixture& f = Fixture::get();
  DepthViewOptions options;  // the scenes' default: 5 views, 4 layers, 2.5 mm texels
  const auto t0 = std::chrono::steady_clock::now();
  auto setup = makeDepthViewSetup(f.body, options);
  auto images = setup ? rasterizeDepthViews(f.body, {}, *setup) : Result<DepthViewImages>(setup.error());
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!images) {
    state.SkipWithError(images.error().message.c_str());
    return;
  }
  std::vector<float> gaps(f.points.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < f.points.size(); ++i)
      gaps[i] = depthViewContact(*images, f.points[i], 0.5f).normalGap.w;
    benchmark::DoNotOptimize(gaps.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * f.points.size()));
  gapCounters(state, gaps);
  state.counters["build_s"] = build;
  state.counters["texel_mm"] = 1e3 * double(options.texelSize);
}
BENCHMARK(BM_DepthViews)->Unit(benchmark::kMillisecond);

void BM_DistanceGrid(benchmark::State& state) {
  const Fixture& f = Fixture::get();
  SignedDistanceOptions options;  // as DrapeScene's contactSettings at 1 cm cells
  options.cellSize = 0.01f;
  options.band = 0.04f;
  options.margin = options.band + 2.0f * options.cellSize;
  const auto t0 = std::chrono::steady_clock::now();
  auto grid = buildSignedDistanceGrid(f.body, options);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!grid) {
    state.SkipWithError(grid.error().message.c_str());
    return;
  }
  std::vector<float> gaps(f.points.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < f.points.size(); ++i) gaps[i] = grid->distance(f.points[i]);
    benchmark::DoNotOptimize(gaps.data());
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * f.points.size()));
  gapCounters(state, gaps);
  state.counters["build_s"] = build;
  state.counters["cell_mm"] = 1e3 * double(options.cellSize);
}
BENCHMARK(BM_DistanceGrid)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  hg::bench::DefaultOutput output(argc, argv, "cloth_colliders");
  benchmark::Initialize(output.argc(), output.argv());
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return output.finish(ran) ? 0 : 1;
}
