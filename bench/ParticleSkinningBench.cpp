// Particle skinning (docs/methods.md section 4) against vertex blending, side by side in one
// run, and the integrator table of the source (largest stable step, steps to settle).
//
// Frame cost: one frame = 1/60 s of a bending two-bone cylinder (length 2 m, radius
// 0.25 m, 81 rings x 64 segments = 5186 vertices): particle skinning integrates 8 steps
// of the default 1/480 s and rebuilds the surface (local rotations + four votes per vertex + normals);
// LBS / DQS skin the same mesh once. Particle counts 1k / 5k / 20k come from a
// constant-radius fill (levels 1) of radius 41 / 24 / 15 mm. GPU times wait for the
// surface readback (the particle surface is read back; LBS / DQS finish with glFinish).
//
//   build/bench/hg_particle_skinning_bench        # bench/results/particle_skinning_<host>.json
//   build/bench/hg_particle_skinning_bench --integrator-table   # also writes
//                                                  # bench/results/particle_integrators_<host>.md
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <glm/gtc/quaternion.hpp>

#include "bench/GlBenchMain.h"

#include "gl/HeadlessContext.h"
#include "sim/core/AtomicFile.h"
#include "sim/core/TriangleMesh.h"
#include "sim/geometry/ProjectedParity.h"
#include "sim/gpu/GpuBodySkinner.h"
#include "sim/gpu/GpuParticleSkinner.h"
#include "sim/skinning/ParticleFill.h"
#include "sim/skinning/SkinningRig.h"

namespace {

using namespace hg;

std::unique_ptr<gl::HeadlessContext> g_context;

std::shared_ptr<const SkinnedMesh> benchBody() {
  static std::shared_ptr<const SkinnedMesh> body = makeTwoBoneCylinder(2.0f, 0.25f, 81, 64, 1.0f);
  return body;
}

Pose bend(const SkinnedMesh& body, float degrees) {
  Pose pose = restPose(body.skeleton);
  pose[1].rotation = glm::angleAxis(glm::radians(degrees), glm::vec3(0.0f, 0.0f, 1.0f));
  return pose;
}

/// Fill radius (m) for about `particles` particles in the bench cylinder (volume 0.39 m^3,
/// closest packing: 4 sqrt(2) r^3 per particle).
float radiusFor(long particles) { return float(std::cbrt(0.3927 / (5.657 * double(particles)))); }

void particleFrame(benchmark::State& state, Backend backend) {
  auto body = benchBody();
  ParticleSkinSettings settings;
  settings.fill.radius = radiusFor(state.range(0));
  settings.fill.levels = 1;
  auto model = buildParticleSkinModel(body, settings);
  if (!model) {
    state.SkipWithError(model.error().message.c_str());
    return;
  }
  auto skinner = createParticleSkinner(backend, *model);
  if (!skinner) {
    state.SkipWithError(skinner.error().message.c_str());
    return;
  }
  int frame = 0;
  for (auto _ : state) {
    const float degrees = 90.0f * (0.5f - 0.5f * std::cos(0.05f * float(frame++)));  // back and forth
    if (Status s = (*skinner)->advance(bend(*body, degrees), 8); !s) {               // 1/60 s at 1/480 s
      state.SkipWithError(s.error().message.c_str());
      return;
    }
    auto surface = (*skinner)->surface();
    benchmark::DoNotOptimize(surface);
  }
  state.counters["particles"] = double((*model)->particleCount());
  state.counters["links"] = double((*model)->links.size());
  state.counters["vertices"] = double(body->mesh.vertexCount());
  state.SetLabel(backend == Backend::Gpu ? g_context->renderer() : "OpenMP");
}

void blendFrame(benchmark::State& state, Backend backend, SkinningMethod method) {
  auto body = benchBody();
  auto skinner = createBodySkinner(backend, body, method);
  if (!skinner) {
    state.SkipWithError(skinner.error().message.c_str());
    return;
  }
  int frame = 0;
  for (auto _ : state) {
    const float degrees = 90.0f * (0.5f - 0.5f * std::cos(0.05f * float(frame++)));
    benchmark::DoNotOptimize((*skinner)->update(bend(*body, degrees)));
    if (backend == Backend::Gpu) glFinish();
  }
  state.counters["vertices"] = double(body->mesh.vertexCount());
  state.SetLabel(backend == Backend::Gpu ? g_context->renderer() : "OpenMP");
}

/// The particle frames measured: 1,000, 5,000 and 20,000 particles, in ms of real time.
void particleCounts(benchmark::internal::Benchmark* b) {
  for (int n : {1000, 5000, 20000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_CAPTURE(blendFrame, cpu_linear, Backend::Cpu, SkinningMethod::Linear)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(blendFrame, cpu_dual_quaternion, Backend::Cpu, SkinningMethod::DualQuaternion)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(particleFrame, cpu, Backend::Cpu)->Apply(particleCounts);
BENCHMARK_CAPTURE(blendFrame, gpu_linear, Backend::Gpu, SkinningMethod::Linear)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(blendFrame, gpu_dual_quaternion, Backend::Gpu, SkinningMethod::DualQuaternion)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(particleFrame, gpu, Backend::Gpu)->Apply(particleCounts);

/// The particle fill (ParticleFill.h) of a 0.3 m icosphere (20480 triangles) at a finest
/// radius of 3 mm: the parity test alone over the closest-packing candidates, and the whole
/// fill with 1 level (constant radius) and 3 levels (adaptive); counters give the counts.
void particleFill(benchmark::State& state) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.0f), 0.3f, 5);
  ParticleFillSettings settings;
  settings.radius = 0.003f;
  settings.levels = int(state.range(0));
  std::size_t particles = 0, finest = 0;
  for (auto _ : state) {
    auto fill = fillWithParticles(sphere, settings);
    if (!fill) {
      state.SkipWithError(fill.error().message.c_str());
      return;
    }
    particles = fill->particles.size();
    finest = fill->levelCounts.empty() ? 0 : fill->levelCounts.back();
  }
  state.counters["particles"] = double(particles);
  state.counters["finest_level"] = double(finest);
  state.counters["triangles"] = double(sphere.triangleCount());
}

void parityTest(benchmark::State& state) {
  const TriangleMesh sphere = makeIcosphere(glm::vec3(0.0f), 0.3f, 5);
  const std::vector<glm::vec3> candidates = closestPacking(glm::vec3(-0.3f), glm::vec3(0.3f), 0.003f);
  for (auto _ : state) {
    auto inside = insideByProjectedParity(sphere, candidates);
    benchmark::DoNotOptimize(inside);
  }
  state.counters["points"] = double(candidates.size());
  state.counters["triangles"] = double(sphere.triangleCount());
}

BENCHMARK(parityTest)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(particleFill)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Integrator table -------------------------------------------------------------------

/// Whether the integrator is stable at `dt`: 30 frames of 1/60 s bending to 90 degrees,
/// then 1 s held; stable if it never diverges and the fastest particle ends below 0.05 m/s.
bool stableAt(const std::shared_ptr<const SkinnedMesh>& body, ParticleSkinSettings settings, float dt) {
  settings.timeStep = dt;
  auto model = buildParticleSkinModel(body, settings);
  if (!model) return false;
  auto skinner = createCpuParticleSkinner(*model);
  const int steps = std::max(1, int(std::lround((1.0f / 60.0f) / dt)));
  for (int f = 1; f <= 90; ++f)
    if (!(*skinner)->advance(bend(*body, 3.0f * float(std::min(f, 30))), steps)) return false;
  float fastest = 0.0f;
  for (const glm::vec4& v : (*skinner)->readParticles().velocities)
    fastest = std::max(fastest, glm::length(glm::vec3(v)));
  return fastest < 0.05f;
}

int writeIntegratorTable() {
  auto body = makeTwoBoneCylinder(1.0f, 0.15f, 21, 24, 0.5f);
  ParticleSkinSettings base;
  base.fill.radius = 0.02f;
  base.fill.levels = 2;
  std::string table =
      "| integrator | iterations | evaluations / step | largest stable step (ms) | vs. leapfrog without iteration | "
      "steps to "
      "settle at 1/480 s | ms / step |\n|---|---|---|---|---|---|---|\n";
  double leapfrogStep = 0.0;
  struct Row {
    ParticleIntegrator integrator;
    int iterations;
  };
  const Row rows[] = {
      {ParticleIntegrator::Leapfrog, 0}, {ParticleIntegrator::ImprovedEuler, 0}, {ParticleIntegrator::Adams, 0},
      {ParticleIntegrator::Leapfrog, 1}, {ParticleIntegrator::Leapfrog, 3},      {ParticleIntegrator::Leapfrog, 10},
      {ParticleIntegrator::Adams, 1},    {ParticleIntegrator::Adams, 3},         {ParticleIntegrator::Adams, 10}};
  std::size_t particles = 0;
  for (const Row& row : rows) {
    ParticleSkinSettings settings = base;
    settings.integrator = row.integrator;
    settings.iterations = row.iterations;
    // Bisection of the largest stable step between 0.1 ms and 40 ms (12 halvings).
    float lo = 1e-4f, hi = 0.04f;
    if (!stableAt(body, settings, lo)) lo = 0.0f;
    for (int k = 0; k < 12 && lo > 0.0f; ++k) {
      const float mid = std::sqrt(lo * hi);
      (stableAt(body, settings, mid) ? lo : hi) = mid;
    }
    if (row.integrator == ParticleIntegrator::Leapfrog && row.iterations == 0) leapfrogStep = lo;
    // Steps to settle from the 90-degree bend applied at once, at the default step.
    settings.timeStep = ParticleSkinSettings{}.timeStep;
    auto model = buildParticleSkinModel(body, settings);
    if (!model) {
      std::fprintf(stderr, "integrator table: %s\n", model.error().message.c_str());
      return 1;
    }
    particles = (*model)->particleCount();
    auto skinner = createCpuParticleSkinner(*model);
    const auto start = std::chrono::steady_clock::now();
    auto settled = (*skinner)->settle(bend(*body, 90.0f), 1e-4f, 100000);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const int evaluations = row.integrator == ParticleIntegrator::ImprovedEuler ? 2
                            : row.integrator == ParticleIntegrator::Adams       ? 2 + row.iterations
                                                                                : 1 + row.iterations;
    char line[320];
    std::snprintf(line, sizeof line, "| %s | %d | %d | %.3f | %.2fx | %s | %.4f |\n",
                  std::string(particleIntegratorName(row.integrator)).c_str(), row.iterations, evaluations,
                  1000.0 * double(lo), leapfrogStep > 0.0 ? double(lo) / leapfrogStep : 0.0,
                  settled ? (*settled > 100000 ? "> 100000" : std::to_string(*settled).c_str()) : "diverged",
                  settled && *settled > 0 ? ms / double(std::min(*settled, 100000)) : 0.0);
    table += line;
    std::fputs(line, stdout);
    std::fflush(stdout);
  }
  char host[128] = "host";
  gethostname(host, sizeof host - 1);
  const std::string header = "# Particle skinning integrators\n\nTwo-bone cylinder 1 m x 0.15 m, " +
                             std::to_string(particles) +
                             " particles (radius 20 / 40 mm), CPU backend. Stable: 30 frames of 1/60 s bending to 90 "
                             "degrees and 1 s held without divergence, fastest particle < 0.05 m/s at the end. Settle: "
                             "the 90-degree bend applied at once, until every particle is slower than 1e-4 m/s.\n\n";
  const std::string path = std::string(HG_BENCH_RESULTS_DIR) + "/particle_integrators_" + host + ".md";
  if (Status s = writeFileAtomically(path, header + table); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 1;
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--integrator-table") == 0) {
      if (int code = writeIntegratorTable(); code != 0) return code;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  return hg::bench::runGlBenchmarks(argc, argv, "hg_particle_skinning_bench", "particle_skinning", g_context);
}
