// Dressing any body: time from scene to dressed avatar (import, measure, draft, place,
// sew, weld; PreparedDrape::prepare with dressing.settle_frames 0) for a two-garment outfit
// (skirt and T-shirt, edge 2 cm, the demo's settings) on the mannequin and on every test
// character (sim/motion/TestCharacters.h: Mixamo glTF, Unreal FBX, SMPL COLLADA, open scan),
// and per garment (each alone). Counters: sewing frames and passes, the largest seam gap
// before the weld (mm). Goal (issue 21): under 30 s per two-garment outfit on this VM.
//
//   build/bench/hg_dressing_bench
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include "bench/BenchOutput.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/motion/TestCharacters.h"
#include "sim/scene/PreparedDrape.h"

namespace {

using namespace hg;

const std::filesystem::path& characterFolder() {
  static const std::filesystem::path folder = [] {
    const std::filesystem::path f =
        std::filesystem::temp_directory_path() / ("hg_dressing_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(f);
    for (const TestCharacterSpec& spec : testCharacters())
      if (auto written = writeTestCharacter(spec, f); !written) {
        std::fprintf(stderr, "%s\n", written.error().message.c_str());
        std::exit(1);
      }
    return f;
  }();
  return folder;
}

/// The scene: `avatar` (a file or the mannequin block), `garments` (JSON list).
std::string sceneText(const std::string& avatar, const std::string& garments) {
  return R"({"avatar": {)" + avatar + R"(, "contact": {"method": "depth_views"}}, "garments": )" + garments + R"(,
    "cloth": {"areal_density": 0.15, "tensile_stiffness": 1500, "bending_rigidity": 2e-5},
    "dressing": {"edge_length": 0.02, "settle_frames": 0},
    "solver": {"backend": "cpu", "self_contact": true, "integrator": "projective_jacobi", "substeps": 8,
               "iterations": 30, "contact_offset": 0.005}})";
}

void dress(benchmark::State& state, const std::string& avatar, const std::string& garments) {
  auto scene = parseDrapeScene(sceneText(avatar, garments), "dressing_bench.json");
  if (!scene) {
    state.SkipWithError(scene.error().message.c_str());
    return;
  }
  scene->directory = characterFolder();
  const ClothSolverFactory cpu = [](std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    return createCpuClothSolver(std::move(model), settings);
  };
  for (auto _ : state) {
    auto prepared = PreparedDrape::prepare(*scene, cpu);
    if (!prepared) {
      state.SkipWithError(prepared.error().message.c_str());
      return;
    }
    const DressedAvatar& dressed = *prepared->dressing();
    state.counters["sewing_frames"] = dressed.sewingFrames;
    state.counters["sewing_passes"] = dressed.sewingPasses;
    state.counters["seam_gap_mm"] = 1e3 * double(dressed.largestGapBeforeWeld);
    state.counters["vertices"] = double(prepared->model()->vertexCount());
  }
}

const char* kOutfit =
    R"([{"type": "skirt", "length": 0.5, "flare": 0.35}, {"type": "tshirt", "hem_below_waist": 0.13, "chest_ease": 0.12}])";

void registerAll() {
  std::vector<std::pair<std::string, std::string>> bodies = {{"mannequin", R"("mannequin": {"height": 1.7})"}};
  for (const TestCharacterSpec& spec : testCharacters())
    bodies.emplace_back(spec.name, R"("file": ")" + spec.fileName() + "\"");
  for (const auto& [name, avatar] : bodies)
    benchmark::RegisterBenchmark(("BM_DressOutfit/" + name).c_str(),
                                 [avatar = avatar](benchmark::State& s) { dress(s, avatar, kOutfit); })
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
  const std::vector<std::pair<std::string, std::string>> garments = {
      {"skirt", R"([{"type": "skirt", "length": 0.5, "flare": 0.35}])"},
      {"tshirt", R"([{"type": "tshirt", "hem_below_waist": 0.13, "chest_ease": 0.12}])"},
      {"trousers", R"([{"type": "trousers"}])"}};
  for (const auto& [name, garment] : garments)
    benchmark::RegisterBenchmark(("BM_DressGarment/" + name).c_str(),
                                 [g = garment](benchmark::State& s) { dress(s, R"("mannequin": {"height": 1.7})", g); })
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
}

}  // namespace

int main(int argc, char** argv) {
  hg::bench::DefaultOutput output(argc, argv, "dressing");
  registerAll();
  benchmark::Initialize(output.argc(), output.argv());
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(characterFolder());
  return output.finish(ran) ? 0 : 1;
}
