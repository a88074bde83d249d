// Cloth step throughput, CPU and GPU backends side by side in one run.
// Counter "vertex_substeps/s" = vertices x substeps per second of wall time.
// GPU timings wait for completion (step() reads back the status word each frame).
// Every step is checked: a benchmark whose cloth goes unstable stops with an error. The
// explicit integrator's 10 substeps are made stable by shortening the frame to 10 of its
// stable substeps (sim/cloth/StableStep.h): at 1/60 s per frame, as this benchmark ran
// until 2026-11-27, the sheets needed 32 (4k vertices) to 378 (262k) substeps, so it timed
// a cloth that had blown up (NaN positions, every vertex setting the status word).
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

#include "gl/HeadlessContext.h"
#include "sim/cloth/StableStep.h"
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
  if (integrator == ClothIntegrator::SymplecticEuler)
    settings.frameDt = float(settings.substeps * explicitStableStep(*model, settings).maxSubstep);
  auto solver = createClothSolver(backend, model, settings);
  if (!solver) {
    state.SkipWithError(solver.error().message.c_str());
    return;
  }
  StepStatus status = (*solver)->step();  // warm-up: first dispatch compiles on some drivers
  for (auto _ : state) status |= (*solver)->step();
  if (any(status)) {
    state.SkipWithError(("the cloth went unstable: " + describe(status)).c_str());
    return;
  }
  const double vertexSubsteps = double(model->vertexCount()) * settings.substeps;
  state.counters["vertices"] = double(model->vertexCount());
  state.counters["iterations"] = integrator == ClothIntegrator::ProjectiveJacobi ? settings.solverIterations : 1;
  state.counters["frame_ms"] = 1e3 * double(settings.frameDt);
  state.counters["vertex_substeps/s"] =
      benchmark::Counter(vertexSubsteps * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(backend == Backend::Gpu ? g_context->renderer() : "OpenMP");
}

/// The sizes measured (sheet resolutions; see the comment below), in ms of real time: the
/// explicit integrator up to 512 x 512, the projective one up to 256 x 256.
void explicitSizes(benchmark::internal::Benchmark* b) {
  for (int n : {64, 128, 256, 512}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}
void projectiveSizes(benchmark::internal::Benchmark* b) {
  for (int n : {64, 128, 256}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

// 4k, 16k, 64k, 256k vertices; each backend with each integrator.
BENCHMARK_CAPTURE(clothStep, cpu_symplectic, Backend::Cpu, ClothIntegrator::SymplecticEuler)->Apply(explicitSizes);
BENCHMARK_CAPTURE(clothStep, gpu_symplectic, Backend::Gpu, ClothIntegrator::SymplecticEuler)->Apply(explicitSizes);
BENCHMARK_CAPTURE(clothStep, cpu_projective, Backend::Cpu, ClothIntegrator::ProjectiveJacobi)->Apply(projectiveSizes);
BENCHMARK_CAPTURE(clothStep, gpu_projective, Backend::Gpu, ClothIntegrator::ProjectiveJacobi)->Apply(projectiveSizes);

}  // namespace

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_cloth_bench", "cloth_step", g_context);
}
