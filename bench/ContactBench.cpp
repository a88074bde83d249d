// Body contact through depth views against the body's triangle count, stage by
// stage, and against exact closest-point queries (CGAL) for the same cloth points.
//
// Body: a closed torus (major radius 0.3 m, minor 0.12 m; sim/core/TriangleMesh.h) of
// 10k, 100k or 1M triangles, same shape and size (the benchmark argument is the triangle
// count). Cloth: N = 16384 fixed points within +-1 cm of the analytic torus surface
// (area-uniform on the surface, uniform offset along the normal, seed 1), as a draped
// cloth's vertices would be. Views: top, front, back, left, right; 4 layers; texel 2.5 mm.
//
//   render_gpu/<tris>         GpuDepthViewRenderer::render + glFinish: mesh upload (positions,
//                             normals, indices, as an animated body each step) and 5 x 4
//                             peeling passes with their copies into the texel buffers.
//   render_cpu/<tris>         rasterizeDepthViews, the CPU reference (OpenMP, default threads).
//   lookup_cpu/<tris>/<thr>   depthViewContact for all N points on <thr> threads: the
//                             per-vertex lookup of a cloth step, on the CPU images; the points
//                             in a cloth-like memory order (neighbours adjacent).
//   lookup_cpu_random_order/<tris>  the same on 1 thread with the points in random order.
//   exact_cgal/<tris>/<thr>   exactSignedDistances(mesh, N points) on <thr> OpenMP threads: the
//                             call converts the mesh to a CGAL Surface_mesh, builds the AABB
//                             tree and its distance accelerator, then per point a
//                             closest-point query and a Side_of_triangle_mesh ray test.
//   exact_cgal_build/<tris>   the same call for one point: the conversion and tree build alone
//                             (sim/ exposes no way to keep a tree between calls).
//
// Accuracy (counters of lookup_cpu and render_gpu): the depth-view contact's signed gap
// (normalGap.w) against CGAL's exact signed distance to the same mesh, |gap - exact| in mm
// over the points with |exact| <= 5 mm (the contact band), over the penetrating points
// (exact < 0, down to -1 cm) and over all points (outside beyond ~1 cm of every view's hit the
// lookup reports "no contact" with the hit distance as gap, so that figure is not a contact
// error); CGAL is the reference (error 0 to the mesh by definition). exact_cgal reports how far
// the mesh itself (and so CGAL's answer) is from the smooth torus, the faceting error. The
// same figures, the worst point and the error per 1 mm of penetration depth are printed
// ("# body ...") when a body size is first built, with p99 and max per 1 mm band of depth.
//
//   build/bench/hg_contact_bench                    # writes bench/results/contact_<host>.json
//   build/bench/hg_contact_bench --benchmark_out=x.json
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/GlBenchMain.h"

#include "gl/HeadlessContext.h"
#include "sim/cloth/CpuClothSolverBase.h"
#include "sim/contact/DepthViews.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/core/TriangleMesh.h"
#include "sim/gpu/GpuDepthViewRenderer.h"

namespace {

using namespace hg;

std::unique_ptr<gl::HeadlessContext> g_context;

constexpr float kMajorRadius = 0.3f;   // m
constexpr float kMinorRadius = 0.12f;  // m
constexpr int kPoints = 16384;
constexpr float kPointOffset = 0.01f;   // m, points lie within this of the analytic surface
constexpr float kContactBand = 0.005f;  // m, accuracy is reported for |exact| <= this
constexpr float kFriction = 0.3f;

/// Error statistics of a signed gap against a reference, mm.
struct GapErrors {
  double bandP50 = 0, bandP99 = 0, bandMax = 0;  // over |reference| <= kContactBand
  double insideP99 = 0, insideMax = 0;           // over reference < 0 (penetrating, down to -1 cm)
  double allP99 = 0, allMax = 0;                 // over all points (outside beyond the band: "no contact" gaps)
  int bandPoints = 0, insidePoints = 0;
  int signFlips = 0;  // points in the band whose gap and reference disagree in sign by more than 0.1 mm
};

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t at = std::size_t(std::ceil(q * double(values.size()))) - 1;
  return values[std::min(at, values.size() - 1)];
}

GapErrors gapErrors(const std::vector<float>& gap, const std::vector<float>& reference) {
  std::vector<double> band, inside, all;
  GapErrors e;
  for (std::size_t i = 0; i < gap.size(); ++i) {
    const double error = 1e3 * std::abs(double(gap[i]) - double(reference[i]));
    all.push_back(error);
    if (reference[i] < 0.0f) inside.push_back(error);
    if (std::abs(reference[i]) <= kContactBand) {
      band.push_back(error);
      if ((gap[i] < -1e-4f && reference[i] > 1e-4f) || (gap[i] > 1e-4f && reference[i] < -1e-4f)) ++e.signFlips;
    }
  }
  e.bandPoints = int(band.size());
  e.bandP50 = percentile(band, 0.5);
  e.bandP99 = percentile(band, 0.99);
  e.bandMax = band.empty() ? 0.0 : *std::max_element(band.begin(), band.end());
  e.insidePoints = int(inside.size());
  e.insideP99 = percentile(inside, 0.99);
  e.insideMax = inside.empty() ? 0.0 : *std::max_element(inside.begin(), inside.end());
  e.allP99 = percentile(all, 0.99);
  e.allMax = *std::max_element(all.begin(), all.end());
  return e;
}

void setGapCounters(benchmark::State& state, const GapErrors& e) {
  state.counters["band_points"] = e.bandPoints;
  state.counters["gap_err_p50_mm"] = e.bandP50;
  state.counters["gap_err_p99_mm"] = e.bandP99;
  state.counters["gap_err_max_mm"] = e.bandMax;
  state.counters["inside_points"] = e.insidePoints;
  state.counters["gap_err_inside_p99_mm"] = e.insideP99;
  state.counters["gap_err_inside_max_mm"] = e.insideMax;
  state.counters["gap_err_all_p99_mm"] = e.allP99;
  state.counters["gap_err_all_max_mm"] = e.allMax;
  state.counters["sign_flips"] = e.signFlips;
}

/// Segments (around Y, around the tube) for an exact triangle count 2 x major x minor.
/// Triangle aspect (major edge at the tube centre / minor edge): 1.25 at 10k and 1M, 0.78 at
/// 100k (50,000 quads has no factorisation nearer 1.25).
std::pair<int, int> torusSegments(int triangles) {
  switch (triangles) {
    case 10000:
      return {100, 50};
    case 100000:
      return {400, 125};
    case 1000000:
      return {1000, 500};
    default: {
      const int around = std::max(3, int(std::sqrt(double(triangles) / 4.0)));
      return {std::max(3, triangles / (2 * around)), around};
    }
  }
}

/// Signed distance to the smooth torus (m, negative inside).
float torusDistance(glm::vec3 p) {
  const float radial = std::sqrt(p.x * p.x + p.z * p.z) - kMajorRadius;
  return std::sqrt(radial * radial + p.y * p.y) - kMinorRadius;
}

/// The cloth points (same for every body size), in a cloth-like memory order: strips of
/// 1/64 turn around Y, each walked around the tube, so consecutive points are neighbours
/// as a cloth mesh's vertices mostly are (randomOrder() shuffles them).
const std::vector<glm::vec3>& clothPoints() {
  static const std::vector<glm::vec3> points = [] {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> angle(0.0f, 2.0f * std::numbers::pi_v<float>);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_real_distribution<float> offset(-kPointOffset, kPointOffset);
    struct Keyed {
      int strip;
      float psi;
      glm::vec3 x;
    };
    std::vector<Keyed> p;
    p.reserve(kPoints);
    while (int(p.size()) < kPoints) {
      const float theta = angle(rng), psi = angle(rng);
      // Area element (R + r cos psi): rejection makes the points area-uniform.
      if (unit(rng) * (kMajorRadius + kMinorRadius) > kMajorRadius + kMinorRadius * std::cos(psi)) continue;
      const glm::vec3 radial(std::cos(theta), 0.0f, std::sin(theta));
      const glm::vec3 n = std::cos(psi) * radial + glm::vec3(0.0f, std::sin(psi), 0.0f);
      const int strip = std::min(63, int(theta / (2.0f * std::numbers::pi_v<float>)*64.0f));
      p.push_back({strip, psi, kMajorRadius * radial + (kMinorRadius + offset(rng)) * n});
    }
    std::stable_sort(p.begin(), p.end(), [](const Keyed& a, const Keyed& b) {
      return a.strip != b.strip ? a.strip < b.strip : a.psi < b.psi;
    });
    std::vector<glm::vec3> x;
    for (const Keyed& k : p) x.push_back(k.x);
    return x;
  }();
  return points;
}

/// A fixed random permutation of the cloth points' indices (a worst-case memory order).
const std::vector<std::uint32_t>& randomOrder() {
  static const std::vector<std::uint32_t> order = [] {
    std::vector<std::uint32_t> o(clothPoints().size());
    for (std::size_t i = 0; i < o.size(); ++i) o[i] = std::uint32_t(i);
    std::shuffle(o.begin(), o.end(), std::mt19937(2));
    return o;
  }();
  return order;
}

/// A body size, built once: mesh, view setup, CPU images, exact distances, accuracy.
struct Body {
  TriangleMesh mesh;
  DepthViewSetup setup;
  DepthViewImages images;      // rasterizeDepthViews
  std::vector<float> exact;    // exactSignedDistances, m
  std::vector<float> cpuGap;   // depthViewContact gaps on `images`, m
  GapErrors cpuErrors;         // cpuGap vs exact
  double facetingMaxMm = 0.0;  // max |exact - smooth torus distance|, mm
  double facetingP99Mm = 0.0;
  std::string error;  // set when a stage failed
};

std::vector<float> lookupGaps(const DepthViewImages& images) {
  const std::vector<glm::vec3>& points = clothPoints();
  std::vector<float> gap(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) gap[i] = depthViewContact(images, points[i], kFriction).normalGap.w;
  return gap;
}

const Body& body(int triangles) {
  static std::map<int, std::unique_ptr<Body>> cache;
  std::unique_ptr<Body>& slot = cache[triangles];
  if (slot) return *slot;
  slot = std::make_unique<Body>();
  Body& b = *slot;
  const auto [majorSegments, minorSegments] = torusSegments(triangles);
  b.mesh = makeTorus(glm::vec3(0.0f), kMajorRadius, kMinorRadius, majorSegments, minorSegments);
  DepthViewOptions options;  // the defaults (the full method), spelled out so the bench stays fixed
  options.directions = {DepthViewDirection::Top, DepthViewDirection::Front, DepthViewDirection::Back,
                        DepthViewDirection::Left, DepthViewDirection::Right};
  options.layers = 4;
  options.texelSize = 0.0025f;
  auto setup = makeDepthViewSetup(b.mesh, options);
  if (!setup) {
    b.error = setup.error().message;
    return b;
  }
  b.setup = std::move(setup).value();
  auto images = rasterizeDepthViews(b.mesh, {}, b.setup);
  if (!images) {
    b.error = images.error().message;
    return b;
  }
  b.images = std::move(images).value();
  auto exact = exactSignedDistances(b.mesh, clothPoints());
  if (!exact) {
    b.error = exact.error().message;
    return b;
  }
  b.exact = std::move(exact).value();
  b.cpuGap = lookupGaps(b.images);
  b.cpuErrors = gapErrors(b.cpuGap, b.exact);
  std::vector<double> faceting(b.exact.size());
  for (std::size_t i = 0; i < faceting.size(); ++i)
    faceting[i] = 1e3 * std::abs(double(b.exact[i]) - double(torusDistance(clothPoints()[i])));
  b.facetingMaxMm = *std::max_element(faceting.begin(), faceting.end());
  b.facetingP99Mm = percentile(faceting, 0.99);
  std::printf(
      "# body %zu triangles (%d x %d segments), %zu texels: depth-view gap error vs CGAL over %d band points: "
      "p50 %.3f p99 %.3f max %.3f mm, %d sign flips; inside (%d points) p99 %.3f max %.3f mm; all points p99 %.3f "
      "max %.3f mm; "
      "mesh vs smooth torus: p99 %.3f max %.3f mm\n",
      b.mesh.triangleCount(), majorSegments, minorSegments, b.setup.texelCount(), b.cpuErrors.bandPoints,
      b.cpuErrors.bandP50, b.cpuErrors.bandP99, b.cpuErrors.bandMax, b.cpuErrors.signFlips, b.cpuErrors.insidePoints,
      b.cpuErrors.insideP99, b.cpuErrors.insideMax, b.cpuErrors.allP99, b.cpuErrors.allMax, b.facetingP99Mm,
      b.facetingMaxMm);
  // The worst point and how the errors grow with penetration depth (1 mm bins inside).
  std::size_t worst = 0;
  for (std::size_t i = 1; i < b.exact.size(); ++i)
    if (std::abs(b.cpuGap[i] - b.exact[i]) > std::abs(b.cpuGap[worst] - b.exact[worst])) worst = i;
  const glm::vec3 w = clothPoints()[worst];
  std::printf("#   worst point (%.4f, %.4f, %.4f): exact %.3f mm, depth-view gap %.3f mm; inside, by depth:", w.x, w.y,
              w.z, 1e3 * b.exact[worst], 1e3 * b.cpuGap[worst]);
  for (int bin = 0; bin < 10; ++bin) {
    std::vector<double> errors;
    for (std::size_t i = 0; i < b.exact.size(); ++i)
      if (b.exact[i] < -0.001f * float(bin) && b.exact[i] >= -0.001f * float(bin + 1))
        errors.push_back(1e3 * std::abs(double(b.cpuGap[i]) - double(b.exact[i])));
    int over1mm = 0;
    for (double e : errors) over1mm += e > 1.0;
    int shallow = 0, outside = 0;  // of the points over 1 mm: gap above exact, gap >= 0 (taken as outside)
    for (std::size_t i = 0; i < b.exact.size(); ++i)
      if (b.exact[i] < -0.001f * float(bin) && b.exact[i] >= -0.001f * float(bin + 1) &&
          std::abs(b.cpuGap[i] - b.exact[i]) > 0.001f) {
        shallow += b.cpuGap[i] > b.exact[i];
        outside += b.cpuGap[i] >= 0.0f;
      }
    std::printf(" [%d,%d) mm: %zu pts p99 %.2f max %.2f >1mm %d (shallow %d, gap>=0 %d);", bin, bin + 1, errors.size(),
                percentile(errors, 0.99), errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end()),
                over1mm, shallow, outside);
  }
  std::printf("\n");
  std::fflush(stdout);
  return b;
}

/// The body of the benchmark's first argument, or null after SkipWithError.
const Body* bodyOrSkip(benchmark::State& state) {
  const Body& b = body(int(state.range(0)));
  if (!b.error.empty()) {
    state.SkipWithError(b.error.c_str());
    return nullptr;
  }
  return &b;
}

void setBodyCounters(benchmark::State& state, const Body& b) {
  state.counters["triangles"] = double(b.mesh.triangleCount());
  state.counters["texels"] = double(b.setup.texelCount());
}

/// Restores the OpenMP thread count when the benchmark ends.
class OmpThreads {
 public:
  explicit OmpThreads(int threads) : m_saved(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreads() { omp_set_num_threads(m_saved); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int m_saved;
};

void renderGpu(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  auto renderer = GpuDepthViewRenderer::create(b->setup);
  if (!renderer) {
    state.SkipWithError(renderer.error().message.c_str());
    return;
  }
  if (Status s = (*renderer)->render(b->mesh, {}); !s) {  // warm-up: first draw compiles on some drivers
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  glFinish();
  // Accuracy of the GPU images (read back once, looked up on the CPU).
  const GapErrors gpuErrors = gapErrors(lookupGaps((*renderer)->read()), b->exact);
  for (auto _ : state) {
    benchmark::DoNotOptimize((*renderer)->render(b->mesh, {}));
    glFinish();
  }
  setBodyCounters(state, *b);
  setGapCounters(state, gpuErrors);
  state.counters["triangles/s"] =
      benchmark::Counter(double(b->mesh.triangleCount()) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(g_context->renderer());
}

void renderCpu(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  for (auto _ : state) {
    auto images = rasterizeDepthViews(b->mesh, {}, b->setup);
    benchmark::DoNotOptimize(images);
  }
  setBodyCounters(state, *b);
  state.counters["triangles/s"] =
      benchmark::Counter(double(b->mesh.triangleCount()) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel("OpenMP, " + std::to_string(omp_get_max_threads()) + " threads");
}

void lookupCpu(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  const int threads = int(state.range(1));
  const std::vector<glm::vec3>& points = clothPoints();
  std::vector<float> gap(points.size());
  const auto count = std::int64_t(points.size());
  for (auto _ : state) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::int64_t i = 0; i < count; ++i)
      gap[std::size_t(i)] = depthViewContact(b->images, points[std::size_t(i)], kFriction).normalGap.w;
    benchmark::DoNotOptimize(gap.data());
    benchmark::ClobberMemory();
  }
  if (gap != b->cpuGap) state.SkipWithError("lookup is not deterministic");
  setBodyCounters(state, *b);
  setGapCounters(state, b->cpuErrors);
  state.counters["points"] = double(points.size());
  state.counters["points/s"] =
      benchmark::Counter(double(points.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(threads) + (threads == 1 ? " thread" : " threads"));
}

void lookupCpuRandomOrder(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  const std::vector<glm::vec3>& points = clothPoints();
  const std::vector<std::uint32_t>& order = randomOrder();
  std::vector<float> gap(points.size());
  for (auto _ : state) {
    for (std::uint32_t i : order) gap[i] = depthViewContact(b->images, points[i], kFriction).normalGap.w;
    benchmark::DoNotOptimize(gap.data());
    benchmark::ClobberMemory();
  }
  if (gap != b->cpuGap) state.SkipWithError("lookup is not deterministic");
  setBodyCounters(state, *b);
  state.counters["points"] = double(points.size());
  state.counters["points/s"] =
      benchmark::Counter(double(points.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel("1 thread, points in random order");
}

void exactCgal(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  const int threads = int(state.range(1));
  const OmpThreads scope(threads);
  const std::vector<glm::vec3>& points = clothPoints();
  for (auto _ : state) {
    auto exact = exactSignedDistances(b->mesh, points);
    benchmark::DoNotOptimize(exact);
  }
  setBodyCounters(state, *b);
  state.counters["points"] = double(points.size());
  state.counters["points/s"] =
      benchmark::Counter(double(points.size()) * double(state.iterations()), benchmark::Counter::kIsRate);
  // CGAL's answer is the reference (error 0 to the mesh); the mesh's own distance from the
  // smooth torus over the same points:
  state.counters["mesh_vs_torus_p99_mm"] = b->facetingP99Mm;
  state.counters["mesh_vs_torus_max_mm"] = b->facetingMaxMm;
  state.SetLabel("tree build + " + std::to_string(points.size()) + " queries, " + std::to_string(threads) +
                 (threads == 1 ? " thread" : " threads"));
}

void exactCgalBuild(benchmark::State& state) {
  const Body* b = bodyOrSkip(state);
  if (!b) return;
  const OmpThreads scope(1);
  const std::vector<glm::vec3> one{clothPoints().front()};
  for (auto _ : state) {
    auto exact = exactSignedDistances(b->mesh, one);
    benchmark::DoNotOptimize(exact);
  }
  setBodyCounters(state, *b);
  state.SetLabel("Surface_mesh conversion + AABB tree build + 1 query");
}

BENCHMARK(renderGpu)
    ->Name("render_gpu")
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(renderCpu)
    ->Name("render_cpu")
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(lookupCpu)
    ->Name("lookup_cpu")
    ->ArgsProduct({{10000, 100000, 1000000}, {1, 2}})
    ->ArgNames({"", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(lookupCpuRandomOrder)
    ->Name("lookup_cpu_random_order")
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(exactCgal)
    ->Name("exact_cgal")
    ->ArgsProduct({{10000, 100000, 1000000}, {1, 2}})
    ->ArgNames({"", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(exactCgalBuild)
    ->Name("exact_cgal_build")
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return hg::bench::runGlBenchmarks(argc, argv, "hg_contact_bench", "contact", g_context);
}
