// Cloth step of our CPU backend next to Bullet's soft-body cloth, in one
// Google Benchmark run. One iteration = one 1/60 s frame of S = 10 substeps.
//
//   build/bench/hg_cloth_peer_bench                  # writes bench/results/cloth_peer_<host>.json
//   build/bench/hg_cloth_peer_bench --benchmark_out=x.json
//
// What is matched (see bench/RESULTS.md, "Cloth step vs Bullet soft body"):
//   - the sheet: square, 1.6 m side, resolution x resolution vertices (64, 128, 256),
//     horizontal at y = 1.3 m, triangulated with alternating diagonals, so the springs
//     (ours) and the links (Bullet, CreatePatch with gendiags) are the same edge set;
//   - mass: 0.15 kg/m^2 x 1.6^2 m^2 = 0.384 kg, split equally over the vertices;
//   - gravity -9.81 m/s^2; no pinned vertex in either; no colliders (ours: no sphere and
//     no ground in ClothSettings::colliders; Bullet: no rigid body in the world, no self-collision);
//   - S = 10 substeps of 1/600 s per frame (Bullet: stepSimulation(1/60, 10, 1/600); the
//     substeps Bullet really took are counted with its internal tick callback);
//   - air drag: our velocityDamping 0.2 1/s, Bullet kDP = 0.2 x 1/600 per substep (the same
//     velocity factor per substep);
//   - both free-fall from rest and are reset to rest every 10 frames (outside the timing);
//   - Bullet: one position iteration (m_cfg.piterations = 1), no velocity / drift iterations.
// What is not matched: the physics. Ours integrates forces (Hookean springs with E = 500 N/m,
// discrete-shell bending hinges, spring damping) explicitly; Bullet projects links toward their
// rest length (position based, kLST = 1, one Gauss-Seidel sweep) and has no bending unless
// bending links are added ("bullet_bend": generateBendingConstraints(2), links between
// vertices two edges apart, Bullet's usual cloth bending). Free fall leaves every spring at
// its rest length: our explicit integrator is stable at S = 10 here only because nothing
// deforms (a cloth hanging from two corners diverges at S = 10, see RESULTS.md); the cost per
// substep does not depend on the strain in either code (no early-outs). Bullet single-threaded (its
// default soft-body solver has no threads); ours with OpenMP on all cores ("ours") and on
// one thread ("ours_1thread").
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/BenchOutput.h"

#include <BulletSoftBody/btSoftBodyHelpers.h>

#include "bench/BulletSoftWorld.h"

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/cloth/CpuClothSolver.h"

namespace {

using namespace hg;

constexpr int kSubsteps = 10;
constexpr float kFrameDt = 1.0f / 60.0f;
constexpr float kSize = 1.6f;
constexpr float kHeight = 1.3f;
constexpr float kArealDensity = 0.15f;  // kg/m^2, ClothMaterial{} default
constexpr float kDamping = 0.2f;        // 1/s, ClothSettings{} default
/// Both cloths fall freely (no pins, no colliders); every kResetFrames frames both are put
/// back to their rest state outside the timed region. Without it Bullet's 64 x 64 patch with
/// one position iteration diverges from rounding noise (max link strain 1e-4 at frame 10,
/// 0.8 at frame 30) and Bullet disables the body once its AABB passes 1e6 m, after which a
/// frame costs nothing; coordinates also stay in the range of a real scene.
constexpr int kResetFrames = 10;

/// Heap bytes in use (glibc: arena + mmapped chunks).
std::size_t heapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

/// Seconds per frame of the last run of each benchmark, by name; the Bullet
/// benchmarks (registered after ours at the same N) turn them into ratio counters.
std::map<std::string, double> g_secondsPerFrame;

std::string key(const char* what, int resolution) { return std::string(what) + "/" + std::to_string(resolution); }

template <class T>
double bytesOf(const std::vector<T>& v) {
  return double(v.size() * sizeof(T));
}

void oursStep(benchmark::State& state, int threads, const char* name) {
  const int resolution = int(state.range(0));
  const std::size_t heapBefore = heapInUse();
  SquareClothSpec spec;
  spec.resolution = resolution;
  spec.size = kSize;
  spec.center = glm::vec3(0.0f, kHeight, 0.0f);
  auto model =
      std::make_shared<const ClothModel>(buildClothModel(makeSquareSheet(spec).value(), ClothMaterial{}).value());
  ClothSettings settings;
  settings.substeps = kSubsteps;
  settings.colliders.spheres.clear();
  settings.colliders.grounds.clear();
  settings.threads = threads;
  auto solver = createCpuClothSolver(model, settings);
  if (!solver) {
    state.SkipWithError(solver.error().message.c_str());
    return;
  }
  const double heapBytes = double(heapInUse() - heapBefore);

  const ClothState rest = restState(*model);
  std::uint32_t status = 0;
  status |= std::uint32_t((*solver)->step());  // warm-up (first touch of the buffers, OpenMP pool)
  (*solver)->writeState(rest);
  double seconds = 0.0;
  int frame = 0;
  for (auto _ : state) {
    if (++frame % kResetFrames == 0) {
      state.PauseTiming();
      (*solver)->writeState(rest);
      state.ResumeTiming();
    }
    const auto start = std::chrono::steady_clock::now();
    status |= std::uint32_t((*solver)->step());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  g_secondsPerFrame[key(name, resolution)] = seconds / double(state.iterations());

  const ClothModel& m = *model;
  const double n = double(m.vertexCount());
  // Model arrays (shared by every solver of the model).
  const double modelBytes = bytesOf(m.restPositions) + bytesOf(m.uvs) + bytesOf(m.triangles) + bytesOf(m.springs) +
                            bytesOf(m.hinges) + bytesOf(m.springOffsets) + bytesOf(m.springEntries) +
                            bytesOf(m.hingeOffsets) + bytesOf(m.hingeEntries);
  // One ClothState: positions + velocities.
  const double stateBytes = 2.0 * n * sizeof(glm::vec4);
  // The solver's own working set (sim/cloth/CpuClothSolver.cpp): current + next state,
  // its copies of springs and hinges (plasticity), one force per spring + four per hinge.
  const double solverBytes = 2.0 * stateBytes + bytesOf(m.springs) + bytesOf(m.hinges) +
                             double(m.springs.size() + 4 * m.hinges.size()) * sizeof(glm::vec4);
  const ClothState end = (*solver)->readState();
  bool finite = true;
  for (const glm::vec4& x : end.positions)
    finite = finite && std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z);
  double maxStrain = 0.0;
  for (const kernels::ClothSpring& spring : m.springs)
    maxStrain =
        std::max(maxStrain,
                 std::abs(double(glm::distance(glm::vec3(end.positions[spring.a]), glm::vec3(end.positions[spring.b])) /
                                 spring.restLength) -
                          1.0));
  state.counters["max_strain"] = maxStrain;  // at the end of the run (< kResetFrames frames after a reset)

  state.counters["vertices"] = n;
  state.counters["substeps/frame"] = double(kSubsteps);
  state.counters["vertex_substeps/s"] =
      benchmark::Counter(n * kSubsteps * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["springs/vertex"] = double(m.springs.size()) / n;
  state.counters["hinges/vertex"] = double(m.hinges.size()) / n;
  state.counters["model_B/vertex"] = modelBytes / n;
  state.counters["state_B/vertex"] = stateBytes / n;
  state.counters["model+state_B/vertex"] = (modelBytes + stateBytes) / n;
  state.counters["model+solver_B/vertex"] = (modelBytes + solverBytes) / n;
  state.counters["heap_B/vertex"] = heapBytes / n;  // measured: model + solver (+ allocator slack)
  state.counters["finite"] = finite ? 1.0 : 0.0;
  state.SetLabel(std::string(threads == 1 ? "1 thread" : "OpenMP all cores") +
                 (status == 0 ? "" : ", status " + std::to_string(status)));
}

/// Bullet's generateBendingConstraints(2, material): a link, flagged as bending, between every
/// two nodes whose shortest path along the links has two edges, appended in the same order
/// (j ascending, then i > j ascending). Bullet's own version allocates an n x n int matrix
/// (1 GiB at 16k nodes) and overflows its 32-bit size at 64k nodes, so it is rebuilt here
/// from adjacency lists; the links it creates are the same.
void appendBendingLinks(btSoftBody& body, btSoftBody::Material* material) {
  const int n = body.m_nodes.size();
  std::vector<std::vector<int>> neighbours(static_cast<std::size_t>(n));
  for (int l = 0; l < body.m_links.size(); ++l) {
    const int a = int(body.m_links[l].m_n[0] - &body.m_nodes[0]), b = int(body.m_links[l].m_n[1] - &body.m_nodes[0]);
    neighbours[std::size_t(a)].push_back(b);
    neighbours[std::size_t(b)].push_back(a);
  }
  std::vector<int> mark(static_cast<std::size_t>(n), -1);
  std::vector<int> found;
  for (int j = 0; j < n; ++j) {
    mark[std::size_t(j)] = j;
    for (int k : neighbours[std::size_t(j)]) mark[std::size_t(k)] = j;  // distance 0 and 1
    found.clear();
    for (int k : neighbours[std::size_t(j)])
      for (int i : neighbours[std::size_t(k)])
        if (i > j && mark[std::size_t(i)] != j) {
          mark[std::size_t(i)] = j;
          found.push_back(i);
        }
    std::sort(found.begin(), found.end());
    for (int i : found) {
      body.appendLink(i, j, material);
      body.m_links[body.m_links.size() - 1].m_bbending = -1;  // `int : 1`: Bullet's "= 1" stores -1 too
    }
  }
}

int g_bulletSubsteps = 0;
void countSubstep(btDynamicsWorld*, btScalar) { ++g_bulletSubsteps; }

void bulletStep(benchmark::State& state, bool bending, const char* name) {
  const int resolution = int(state.range(0));
  bench::BulletSoftWorld peer(btVector3(0, btScalar(-9.81), 0));
  btSoftRigidDynamicsWorld* world = peer.world.get();
  btSoftBodyWorldInfo& info = peer.info();

  const std::size_t heapBefore = heapInUse();  // the soft body only, not the world's pools
  const btScalar h = kSize / 2;
  btSoftBody* cloth = btSoftBodyHelpers::CreatePatch(info, btVector3(-h, kHeight, h), btVector3(h, kHeight, h),
                                                     btVector3(-h, kHeight, -h), btVector3(h, kHeight, -h), resolution,
                                                     resolution, /*fixeds=*/0, /*gendiags=*/true);
  cloth->m_cfg.piterations = 1;
  cloth->m_cfg.viterations = 0;
  cloth->m_cfg.diterations = 0;
  cloth->m_cfg.kDP = kDamping * kFrameDt / kSubsteps;
  cloth->m_materials[0]->m_kLST = 1;
  if (bending) appendBendingLinks(*cloth, cloth->m_materials[0]);
  cloth->setTotalMass(kArealDensity * kSize * kSize, /*fromfaces=*/false);
  world->addSoftBody(cloth);
  world->setInternalTickCallback(countSubstep);
  const double heapBytes = double(heapInUse() - heapBefore);

  std::vector<btVector3> rest(static_cast<std::size_t>(cloth->m_nodes.size()));
  for (int i = 0; i < cloth->m_nodes.size(); ++i) rest[std::size_t(i)] = cloth->m_nodes[i].m_x;
  auto reset = [&] {
    for (int i = 0; i < cloth->m_nodes.size(); ++i) {
      btSoftBody::Node& node = cloth->m_nodes[i];
      node.m_x = node.m_q = rest[std::size_t(i)];
      node.m_v = node.m_f = btVector3(0, 0, 0);
    }
  };
  world->stepSimulation(kFrameDt, kSubsteps, kFrameDt / kSubsteps);  // warm-up
  reset();
  g_bulletSubsteps = 0;
  double seconds = 0.0;
  int frame = 0;
  for (auto _ : state) {
    if (++frame % kResetFrames == 0) {
      state.PauseTiming();
      reset();
      state.ResumeTiming();
    }
    const auto start = std::chrono::steady_clock::now();
    world->stepSimulation(kFrameDt, kSubsteps, kFrameDt / kSubsteps);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  const double secondsPerFrame = seconds / double(state.iterations());
  g_secondsPerFrame[key(name, resolution)] = secondsPerFrame;

  const double n = double(cloth->m_nodes.size());
  const double links = double(cloth->m_links.size()), faces = double(cloth->m_faces.size());
  // Estimate: the node, link and face arrays plus one dbvt node per tree node (2 leaves - 1
  // per tree); leaves out the btSoftBody object, array slack, the world and the broadphase.
  const double treeNodes =
      double(std::max(0, 2 * cloth->m_ndbvt.m_leaves - 1) + std::max(0, 2 * cloth->m_fdbvt.m_leaves - 1));
  const double estimate = n * sizeof(btSoftBody::Node) + links * sizeof(btSoftBody::Link) +
                          faces * sizeof(btSoftBody::Face) + treeNodes * sizeof(btDbvtNode);
  bool finite = cloth->getActivationState() != DISABLE_SIMULATION;
  for (int i = 0; i < cloth->m_nodes.size(); ++i) finite = finite && std::isfinite(cloth->m_nodes[i].m_x.y());
  double maxStrain = 0.0;  // stretch links only
  for (int l = 0; l < cloth->m_links.size(); ++l) {
    const btSoftBody::Link& link = cloth->m_links[l];
    if (!link.m_bbending)
      maxStrain =
          std::max(maxStrain, std::abs(double((link.m_n[0]->m_x - link.m_n[1]->m_x).length() / link.m_rl) - 1.0));
  }
  state.counters["max_strain"] = maxStrain;  // at the end of the run (< kResetFrames frames after a reset)

  state.counters["vertices"] = n;
  state.counters["substeps/frame"] = double(g_bulletSubsteps) / double(state.iterations());
  state.counters["vertex_substeps/s"] = benchmark::Counter(n * double(g_bulletSubsteps), benchmark::Counter::kIsRate);
  state.counters["links/vertex"] = links / n;
  state.counters["faces/vertex"] = faces / n;
  state.counters["estimate_B/vertex"] = estimate / n;
  state.counters["heap_B/vertex"] = heapBytes / n;  // measured: the soft body (+ allocator slack)
  state.counters["finite"] = finite ? 1.0 : 0.0;
  // Ratio counters: our time per frame / Bullet's at this N (from the runs just before).
  for (const char* ours : {"ours", "ours_1thread"})
    if (auto it = g_secondsPerFrame.find(key(ours, resolution)); it != g_secondsPerFrame.end())
      state.counters[std::string(ours) + "/bullet_time"] = it->second / secondsPerFrame;
  state.SetLabel(bending ? "links + bending links, 1 thread" : "links, 1 thread");

  world->removeSoftBody(cloth);
  delete cloth;
}

/// Console output as usual, plus the median real time of each benchmark (the single
/// run without repetitions) for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool aggregate = run.run_type == Run::RT_Aggregate;
      if (aggregate && run.aggregate_name != "median") continue;
      if (!aggregate && run.repetitions > 1) continue;
      const double toSeconds = 1.0 / benchmark::GetTimeUnitMultiplier(run.time_unit);
      medians[run.run_name.str()] = run.GetAdjustedRealTime() * toSeconds;
    }
  }
  std::map<std::string, double> medians;  // "name/resolution/real_time" -> s per frame
};

}  // namespace

int main(int argc, char** argv) {
  const int resolutions[] = {64, 128, 256};  // 4k, 16k, 64k vertices
  for (int r : resolutions) {
    benchmark::RegisterBenchmark("ours", oursStep, 0, "ours")->Arg(r)->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("ours_1thread", oursStep, 1, "ours_1thread")
        ->Arg(r)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("bullet", bulletStep, false, "bullet")
        ->Arg(r)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("bullet_bend", bulletStep, true, "bullet_bend")
        ->Arg(r)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }

  bench::DefaultOutput output(argc, argv, "cloth_peer");
  benchmark::Initialize(output.argc(), output.argv());
  benchmark::AddCustomContext("bullet_version", std::to_string(btGetVersion()));
  benchmark::AddCustomContext("substeps_per_frame", std::to_string(kSubsteps));
  SummaryReporter reporter;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  // Summary: our time per frame / Bullet's at equal N (< 1/3: at least 3x faster).
  std::printf("\n%-8s %-14s %12s %12s %12s %14s\n", "N", "ours", "ours ms", "Bullet", "Bullet ms", "ours/Bullet");
  for (int r : resolutions)
    for (const char* ours : {"ours", "ours_1thread"})
      for (const char* peer : {"bullet", "bullet_bend"}) {
        const auto a = reporter.medians.find(key(ours, r) + "/real_time");
        const auto b = reporter.medians.find(key(peer, r) + "/real_time");
        if (a == reporter.medians.end() || b == reporter.medians.end()) continue;
        std::printf("%-8d %-14s %12.3f %12s %12.3f %8.3f (%.2fx)\n", r * r, ours, a->second * 1e3, peer,
                    b->second * 1e3, a->second / b->second, b->second / a->second);
      }
  return output.finish(ran) ? 0 : 1;
}
