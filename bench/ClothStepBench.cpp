// Cloth step throughput, CPU and GPU backends side by side in one run.
// Counter "vertex_substeps/s" = vertices x substeps per second of wall time.
// GPU timings wait for completion (step() reads back the status word each frame).
//
//   build/bench/hg_cloth_bench                       # writes bench/results/cloth_step_<host>.json
//   build/bench/hg_cloth_bench --benchmark_out=x.json
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/GlBenchMain.h"

#include "render/gl/HeadlessContext.h"
#include "sim/gpu/GpuClothSolver.h"

namespace {

using namespace hg;

std::unique_ptr<gl::HeadlessContext> g_context;

void clothStep(benchmark::State& state, Backend backend, ClothIntegrator integrator) {
  const int resolution = int(state.range(0));
  SquareClothSpec spec;
  spec.resolution = resolution;
  auto model =
      std::make_shared<const ClothModel>(buildClothModel(makeSquareSheet(spec).value(), ClothMaterial{}).value());
  ClothSettings settings;
  settings.substeps = 10;
  settings.integrator = integrator;  // projective: 20 Jacobi iterations per substep (the default)
  auto solver = createClothSolver(backend, model, settings);
  if (!solver) {
    state.SkipWithError(solver.error().message.c_str());
    return;
  }
  (void)(*solver)->step();  // warm-up: first dispatch compiles on some drivers
  for (auto _ : state) benchmark::DoNotOptimize((*solver)->step());
  const double vertexSubsteps = double(model->vertexCount()) * settings.substeps;
  state.counters["vertices"] = double(model->vertexCount());
  state.counters["iterations"] = integrator == ClothIntegrator::ProjectiveJacobi ? settings.solverIterations : 1;
  state.counters["vertex_substeps/s"] =
      benchmark::Counter(vertexSubsteps * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(backend == Backend::Gpu ? g_context->renderer() : "OpenMP");
}

// 4k, 16k, 64k, 256k vertices; each backend with each integrator.
BENCHMARK_CAPTURE(clothStep, cpu_symplectic, Backend::Cpu, ClothIntegrator::SymplecticEuler)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(clothStep, gpu_symplectic, Backend::Gpu, ClothIntegrator::SymplecticEuler)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(clothStep, cpu_projective, Backend::Cpu, ClothIntegrator::ProjectiveJacobi)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(clothStep, gpu_projective, Backend::Gpu, ClothIntegrator::ProjectiveJacobi)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_cloth_bench", "cloth_step", g_context);
}
