// Writes the test characters of sim/motion/TestCharacters.h into a folder: the built-in
// mannequin in other proportions with its joints named the Mixamo, Unreal and SMPL ways,
// as glTF, FBX and COLLADA, an open, unwelded scan-like variant, and a walk clip in the CMU
// BVH layout (walk_cmu_layout.bvh). Use them to try
// importing, measuring and dressing an avatar without third-party files:
//
//   build/apps/hg_make_test_characters scenes/characters
//
// then point a scene's avatar.file at one (scenes/outfit_on_imported_avatar.json uses
// scenes/characters/smpl_average.dae, the one that is shipped). scripts/character-matrix.sh
// dresses and moves every one of them.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "sim/motion/TestCharacters.h"

int main(int argc, char** argv) {
  CLI::App app{"Writes the test characters (glTF, FBX, COLLADA, an open scan) and a CMU-layout walk clip"};
  std::filesystem::path folder;
  app.add_option("folder", folder, "output folder (created if missing)")->required();
  CLI11_PARSE(app, argc, argv);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::fprintf(stderr, "cannot create %s: %s\n", folder.string().c_str(), ec.message().c_str());
    return 1;
  }
  for (const hg::TestCharacterSpec& spec : hg::testCharacters()) {
    auto written = hg::writeTestCharacter(spec, folder);
    if (!written) {
      std::fprintf(stderr, "%s\n", written.error().message.c_str());
      return 1;
    }
    std::printf("wrote %s\n", written->string().c_str());
  }
  const std::filesystem::path walk = folder / "walk_cmu_layout.bvh";
  if (!(std::ofstream(walk) << hg::testWalkBvh(60))) {
    std::fprintf(stderr, "cannot write %s\n", walk.string().c_str());
    return 1;
  }
  std::printf("wrote %s\n", walk.string().c_str());
  return 0;
}
