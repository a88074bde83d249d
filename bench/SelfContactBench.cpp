// The cost of self contact (sim/cloth/SelfContact.h, sim/gpu/GpuSelfContact.h) on both
// backends: one frame (10 substeps, projective integrator, 20 Jacobi iterations) of two
// stacked sheets 4 mm apart (every vertex within the query radius of the other sheet: the
// dense case), with and without self contact, at 4k, 16k, 64k and 256k vertices in all; the
// summary prints each backend's overhead ratio measured side by side in this run, and the
// GPU's milliseconds per substep. Without a GL context only the CPU runs.
//
//   build/bench/hg_self_contact_bench        # writes bench/results/self_contact_<host>.json
//   build/bench/hg_self_contact_bench --benchmark_filter='gpu.*/(45|90|181)/'  # llvmpipe: skip 256k
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/BenchOutput.h"
#include "gl/HeadlessContext.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/gpu/GpuClothSolver.h"

namespace {

using namespace hg;

/// Two free sheets of resolution x resolution vertices, 1.6 m wide, 4 mm apart, the upper
/// shifted by half a cell; gravity off, so the contact stays dense while timed.
std::shared_ptr<const ClothModel> stackedSheets(int resolution) {
  TriangleMesh mesh;
  for (int layer = 0; layer < 2; ++layer) {
    SquareClothSpec spec;
    spec.resolution = resolution;
    const float halfCell = 0.5f * spec.size / float(resolution - 1);
    spec.center = glm::vec3(layer * halfCell, 1.0f + 0.004f * float(layer), layer * halfCell);
    appendMesh(mesh, makeSquareSheet(spec).value());
  }
  return std::make_shared<const ClothModel>(buildClothModel(mesh, ClothMaterial{}).value());
}

std::unique_ptr<gl::HeadlessContext> g_context;

void frame(benchmark::State& state, Backend backend, bool selfContact) {
  const auto model = stackedSheets(int(state.range(0)));
  ClothSettings settings;
  settings.colliders = {};
  settings.gravity = glm::vec3(0.0f);
  settings.substeps = 10;
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.selfContact.enabled = selfContact;
  auto solver = backend == Backend::Cpu ? createCpuClothSolver(model, settings) : createGpuClothSolver(model, settings);
  if (!solver) {
    state.SkipWithError(solver.error().message.c_str());
    return;
  }
  (*solver)->step();  // warm-up: shader compilation, first allocations
  // step() reads the step's status word back, so it waits for the GPU's passes.
  for (auto _ : state) benchmark::DoNotOptimize((*solver)->step());
  state.counters["vertices"] = double(model->vertexCount());
}

/// Median real time per run name ("with/64/real_time" -> s).
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    benchmark::ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs)
      if (!run.error_occurred && run.run_type == Run::RT_Iteration)
        medians[run.run_name.str()] = run.GetAdjustedRealTime() * 1e-3;  // ms -> s
  }
  std::map<std::string, double> medians;
};

}  // namespace

int main(int argc, char** argv) {
  const int resolutions[] = {45, 90, 181, 362};  // 2 sheets: 4k, 16k, 64k, 256k vertices
  auto context = gl::HeadlessContext::create();
  if (context)
    g_context = std::move(context).value();
  else
    std::fprintf(stderr, "hg_self_contact_bench: no GL context (%s): the CPU backend only\n",
                 context.error().message.c_str());
  std::vector<std::pair<Backend, const char*>> backends = {{Backend::Cpu, "cpu"}};
  if (g_context) backends.push_back({Backend::Gpu, "gpu"});
  for (const auto& [backend, name] : backends)
    for (int r : resolutions)
      for (bool with : {false, true}) {
        const std::string label = std::string(name).append(with ? "_with" : "_without");
        benchmark::RegisterBenchmark(label.c_str(), frame, backend, with)
            ->Arg(r)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(r > 200 ? 1 : 3);
      }
  bench::DefaultOutput output(argc, argv, "self_contact");
  benchmark::Initialize(output.argc(), output.argv());
  if (g_context) benchmark::AddCustomContext("gl_renderer", g_context->description());
  SummaryReporter reporter;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\n%-8s %-10s %14s %14s %10s %16s\n", "backend", "vertices", "without ms", "with ms", "with/without",
              "with ms/substep");
  for (const auto& [backend, name] : backends)
    for (int r : resolutions) {
      const std::string arg = std::string("/")
                                  .append(std::to_string(r))
                                  .append("/iterations:")
                                  .append(r > 200 ? "1" : "3")
                                  .append("/real_time");
      const auto a = reporter.medians.find(std::string(name).append("_without").append(arg)),
                 b = reporter.medians.find(std::string(name).append("_with").append(arg));
      if (a == reporter.medians.end() || b == reporter.medians.end()) continue;
      std::printf("%-8s %-10d %14.1f %14.1f %10.2f %16.2f\n", name, 2 * r * r, a->second * 1e3, b->second * 1e3,
                  b->second / a->second, b->second * 1e3 / 10.0);
    }
  g_context.reset();
  return output.finish(ran) ? 0 : 1;
}
