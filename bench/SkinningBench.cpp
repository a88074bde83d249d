// Body skinning throughput, CPU and GPU backends, linear blend and dual quaternion.
// Counter "vertices/s" = skinned vertices per second of wall time. One iteration is one
// update() (skinning matrices / dual quaternions of every joint, then every vertex);
// GPU timings wait for completion with glFinish (no readback: a contact pass binds the
// buffers), so they include the joint upload and the dispatch.
//
//   build/bench/hg_skinning_bench                    # writes bench/results/skinning_<host>.json
//   build/bench/hg_skinning_bench --benchmark_out=x.json
#include <cstdio>
#include <memory>
#include <random>

#include <benchmark/benchmark.h>

#include "bench/GlBenchMain.h"

#include "gl/HeadlessContext.h"
#include "sim/gpu/GpuBodySkinner.h"
#include "tests/support/SkinningFixtures.h"

namespace {

using namespace hg;

std::unique_ptr<gl::HeadlessContext> g_context;

void skinning(benchmark::State& state, Backend backend, SkinningMethod method) {
  // A cylinder on a 16-joint chain, up to four influences per vertex: rings x 64 + 2 vertices.
  auto body = test::chainCylinder(16, int(state.range(0)), 64);
  auto skinner = createBodySkinner(backend, body, method);
  if (!skinner) {
    state.SkipWithError(skinner.error().message.c_str());
    return;
  }
  std::mt19937 rng(1);
  const Pose pose = test::randomPose(body->skeleton, rng, 0.8f);
  if (!(*skinner)->update(pose)) {  // warm-up: the first dispatch compiles on some drivers
    state.SkipWithError("update failed");
    return;
  }
  if (backend == Backend::Gpu) glFinish();
  for (auto _ : state) {
    benchmark::DoNotOptimize((*skinner)->update(pose));
    if (backend == Backend::Gpu) glFinish();
  }
  const double vertices = double(body->mesh.vertexCount());
  state.counters["vertices"] = vertices;
  state.counters["vertices/s"] = benchmark::Counter(vertices * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(backend == Backend::Gpu ? g_context->renderer() : "OpenMP");
}

/// The sizes measured (grid resolutions; see the comment below), in ms of real time.
void skinningSizes(benchmark::internal::Benchmark* b) {
  for (int n : {64, 256, 1024, 4096}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

// 4k, 16k, 64k, 256k vertices.
BENCHMARK_CAPTURE(skinning, cpu_linear, Backend::Cpu, SkinningMethod::Linear)->Apply(skinningSizes);
BENCHMARK_CAPTURE(skinning, cpu_dual_quaternion, Backend::Cpu, SkinningMethod::DualQuaternion)->Apply(skinningSizes);
BENCHMARK_CAPTURE(skinning, gpu_linear, Backend::Gpu, SkinningMethod::Linear)->Apply(skinningSizes);
BENCHMARK_CAPTURE(skinning, gpu_dual_quaternion, Backend::Gpu, SkinningMethod::DualQuaternion)->Apply(skinningSizes);

}  // namespace

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_skinning_bench", "skinning", g_context);
}
