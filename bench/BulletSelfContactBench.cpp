// Cloth-cloth contact of our CPU backend next to Bullet's soft-body vertex-face collision,
// in one Google Benchmark run. Two sheets 1.6 m wide, 4 mm apart (the upper shifted by half
// a cell), gravity off; the upper sheet starts moving down onto the lower at 0.5 m/s. One
// iteration = one 1/60 s frame of 10 substeps; 10 frames per run (the upper sheet would
// travel 83 mm: through the lower one unless contact stops it). Each side runs with and
// without its contact, so the overhead ratios are measured side by side; after the 10th
// frame the intersecting triangle pairs are counted exactly (CGAL,
// sim/geometry/TriangleIntersections.h) and the upper sheet's mean height over the lower
// one's is reported (negative: it went through; two flat sheets that passed through each
// other intersect nowhere), for both codes.
//
//   build/bench/hg_self_contact_peer_bench     # writes bench/results/self_contact_peer_<host>.json
//
// Matched: the sheets (resolution x resolution vertices each, CreatePatch with diagonals,
// the same vertex count), mass 0.15 kg/m^2, 10 substeps of 1/600 s, the contact distance
// (ours: thickness 3 mm; Bullet: the two bodies' collision margins, 1.5 mm each, which its
// vertex-face test adds), friction 0.3. Not matched: the physics. Ours is the projective
// integrator (20 Jacobi iterations) with self contact (docs/methods.md section 8, run on 2
// threads); Bullet projects its links (1 position iteration, as in BulletClothBench.cpp)
// and collides the nodes of one body with the faces of the other (fCollision::VF_SS: its
// vertex-face soft-soft collision through the bodies' dynamic AABB trees, one thread).
// Bullet's VF_SS acts between two soft bodies only; within one body its soft-rigid world
// has only cluster self-collision (CL_SELF), which is not a cloth's thickness-scale contact,
// so the two sheets are two Bullet bodies and one cloth of ours (contact within a cloth and
// between garments is the same pass here).
#include <chrono>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/BenchOutput.h"

#include <BulletSoftBody/btSoftBodyHelpers.h>

#include "bench/BulletSoftWorld.h"

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/geometry/TriangleIntersections.h"

namespace {

using namespace hg;

constexpr int kSubsteps = 10;
constexpr int kFrames = 10;
constexpr float kFrameDt = 1.0f / 60.0f;
constexpr float kSize = 1.6f;
constexpr float kHeight = 1.0f;
constexpr float kGap = 0.004f;        // m between the sheets at the start
constexpr float kSpeed = 0.5f;        // m/s, the upper sheet toward the lower
constexpr float kThickness = 0.003f;  // m
constexpr float kFriction = 0.3f;
constexpr float kArealDensity = 0.15f;  // kg/m^2

float halfCell(int resolution) { return 0.5f * kSize / float(resolution - 1); }

/// Seconds per frame, crossing pairs and the upper sheet's mean height over the lower
/// one's (mm; negative: it went through) at the end, by benchmark name.
std::map<std::string, double> g_secondsPerFrame;
std::map<std::string, double> g_crossings;
std::map<std::string, double> g_layerGap;

/// The first half of the vertices is the lower sheet, the second the upper one.
double layerGapMm(const std::vector<glm::vec4>& positions) {
  const std::size_t half = positions.size() / 2;
  double lower = 0.0, upper = 0.0;
  for (std::size_t v = 0; v < half; ++v) lower += double(positions[v].y);
  for (std::size_t v = half; v < positions.size(); ++v) upper += double(positions[v].y);
  return 1e3 * (upper - lower) / double(half);
}

void record(benchmark::State& state, const std::string& name, double seconds, const std::vector<glm::vec4>& positions,
            std::span<const std::uint32_t> triangles) {
  g_secondsPerFrame[name] = seconds / double(state.iterations());
  g_crossings[name] = double(intersectingTrianglePairs(positions, triangles).size());
  g_layerGap[name] = layerGapMm(positions);
  state.counters["vertices"] = double(positions.size());
  state.counters["crossing_pairs"] = g_crossings[name];
  state.counters["layer_gap_mm"] = g_layerGap[name];
}

std::string key(const char* name, int resolution) { return std::string(name) + "/" + std::to_string(resolution); }

void ours(benchmark::State& state, bool contact, const char* name) {
  const int resolution = int(state.range(0));
  TriangleMesh mesh;
  for (int layer = 0; layer < 2; ++layer) {
    SquareClothSpec spec;
    spec.resolution = resolution;
    spec.size = kSize;
    const float shift = float(layer) * halfCell(resolution);
    spec.center = glm::vec3(shift, kHeight + kGap * float(layer), shift);
    appendMesh(mesh, makeSquareSheet(spec).value());
  }
  ClothMaterial material;
  material.arealDensity = kArealDensity;
  const auto model = std::make_shared<const ClothModel>(buildClothModel(mesh, material).value());
  ClothSettings settings;
  settings.colliders = {};
  settings.gravity = glm::vec3(0.0f);
  settings.substeps = kSubsteps;
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.selfContact.enabled = contact;
  settings.selfContact.thickness = kThickness;
  settings.selfContact.friction = kFriction;
  auto solver = createCpuClothSolver(model, settings);
  if (!solver) {
    state.SkipWithError(solver.error().message.c_str());
    return;
  }
  ClothState start = restState(*model);
  for (std::size_t v = start.velocities.size() / 2; v < start.velocities.size(); ++v)
    start.velocities[v] = glm::vec4(0.0f, -kSpeed, 0.0f, 0.0f);
  (*solver)->writeState(start);
  double seconds = 0.0;
  for (auto _ : state) {
    const auto begin = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize((*solver)->step());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  record(state, key(name, resolution), seconds, (*solver)->readState().positions, model->triangles);
}

void bullet(benchmark::State& state, bool contact, const char* name) {
  const int resolution = int(state.range(0));
  bench::BulletSoftWorld peer(btVector3(0, 0, 0));
  btSoftRigidDynamicsWorld* world = peer.world.get();
  btSoftBodyWorldInfo& info = peer.info();
  std::vector<btSoftBody*> sheets;
  for (int layer = 0; layer < 2; ++layer) {
    const btScalar h = kSize / 2, shift = btScalar(layer) * halfCell(resolution), y = kHeight + kGap * float(layer);
    btSoftBody* sheet = btSoftBodyHelpers::CreatePatch(
        info, btVector3(-h + shift, y, h + shift), btVector3(h + shift, y, h + shift),
        btVector3(-h + shift, y, -h + shift), btVector3(h + shift, y, -h + shift), resolution, resolution,
        /*fixeds=*/0, /*gendiags=*/true);
    sheet->m_cfg.piterations = 1;
    sheet->m_cfg.kDF = kFriction;
    sheet->m_cfg.collisions = btSoftBody::fCollision::SDF_RS | (contact ? btSoftBody::fCollision::VF_SS : 0);
    sheet->getCollisionShape()->setMargin(0.5f * kThickness);
    sheet->m_materials[0]->m_kLST = 1;
    sheet->setTotalMass(kArealDensity * kSize * kSize, /*fromfaces=*/false);
    if (layer == 1)
      for (int i = 0; i < sheet->m_nodes.size(); ++i) sheet->m_nodes[i].m_v = btVector3(0, -kSpeed, 0);
    world->addSoftBody(sheet);
    sheets.push_back(sheet);
  }
  double seconds = 0.0;
  for (auto _ : state) {
    const auto begin = std::chrono::steady_clock::now();
    world->stepSimulation(kFrameDt, kSubsteps, kFrameDt / kSubsteps);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  // Both sheets as one mesh for the exact count.
  std::vector<glm::vec4> positions;
  std::vector<std::uint32_t> triangles;
  for (btSoftBody* sheet : sheets) {
    const auto first = std::uint32_t(positions.size());
    for (int i = 0; i < sheet->m_nodes.size(); ++i) {
      const btVector3& x = sheet->m_nodes[i].m_x;
      positions.push_back(glm::vec4(float(x.x()), float(x.y()), float(x.z()), 1.0f));
    }
    for (int f = 0; f < sheet->m_faces.size(); ++f)
      for (int k = 0; k < 3; ++k)
        triangles.push_back(first + std::uint32_t(sheet->m_faces[f].m_n[k] - &sheet->m_nodes[0]));
  }
  record(state, key(name, resolution), seconds, positions, triangles);
  for (btSoftBody* sheet : sheets) {
    world->removeSoftBody(sheet);
    delete sheet;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int resolutions[] = {45, 90, 181};  // 2 sheets: 4k, 16k, 64k vertices
  struct Run {
    const char* name;
    void (*run)(benchmark::State&, bool, const char*);
    bool contact;
  };
  const Run runs[] = {{"ours_without", ours, false},
                      {"ours_with", ours, true},
                      {"bullet_without", bullet, false},
                      {"bullet_with", bullet, true}};
  for (int r : resolutions)
    for (const Run& run : runs)
      benchmark::RegisterBenchmark(run.name, run.run, run.contact, run.name)
          ->Arg(r)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(kFrames);
  bench::DefaultOutput output(argc, argv, "self_contact_peer");
  benchmark::Initialize(output.argc(), output.argv());
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::printf("\n%-7s %-8s %11s %11s %9s %24s %22s\n", "code", "vertices", "without ms", "with ms", "with/w.o.",
              "crossing pairs (w / w.o.)", "layer gap mm (w / w.o.)");
  for (int r : resolutions)
    for (const char* code : {"ours", "bullet"}) {
      const std::string without = key((std::string(code) + "_without").c_str(), r),
                        with = key((std::string(code) + "_with").c_str(), r);
      if (!g_secondsPerFrame.contains(without) || !g_secondsPerFrame.contains(with)) continue;
      std::printf("%-7s %-8d %11.1f %11.1f %9.2f %13.0f / %-10.0f %10.1f / %.1f\n", code, 2 * r * r,
                  g_secondsPerFrame[without] * 1e3, g_secondsPerFrame[with] * 1e3,
                  g_secondsPerFrame[with] / g_secondsPerFrame[without], g_crossings[with], g_crossings[without],
                  g_layerGap[with], g_layerGap[without]);
    }
  return output.finish(ran) ? 0 : 1;
}
