// Writes scenes/skin/mannequin_walk.glb, the imported character of the skinning rig
// scenes/skin/character_walk.json: the built-in mannequin (1.75 m, 2 cm surface cells,
// A-pose) with a one-second clip of its own, exported as binary glTF through assimp
// (exportAnimatedGltf), so that `hagoromo skin` exercises a real import (importCharacter)
// of a skinned mesh with its animation.
//
// The clip (keys every 0.25 s, linear): a walk-like cycle that bends the elbows to 100
// degrees, the knees to 90, swings the thighs +-30 degrees and turns the chest +-15.
//
//   build/apps/hg_make_skin_character scenes/skin/mannequin_walk.glb
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include <glm/gtc/quaternion.hpp>

#include "sim/body/Mannequin.h"
#include "sim/motion/CharacterIO.h"

int main(int argc, char** argv) {
  using namespace hg;
  CLI::App app{"Writes the skinning rig's animated mannequin (scenes/skin/mannequin_walk.glb)"};
  std::string out;
  app.add_option("out", out, "output .glb")->required();
  CLI11_PARSE(app, argc, argv);
  MannequinParams params;
  params.cellSize = 0.02f;
  auto body = buildMannequin(params);
  if (!body) {
    std::fprintf(stderr, "%s\n", body.error().message.c_str());
    return 2;
  }
  const Skeleton& skeleton = body->skeleton;
  Animation clip;
  clip.name = "walk_cycle";
  clip.duration = 1.0f;
  const float times[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
  const float phase[] = {0.0f, 1.0f, 0.0f, -1.0f, 0.0f};  // swing
  const float flex[] = {0.0f, 1.0f, 0.4f, 1.0f, 0.0f};    // bend amount
  const auto channel = [&](const char* joint, glm::vec3 axis, auto angleAt) {
    AnimationChannel c;
    c.joint = skeleton.find(joint);
    for (int k = 0; k < 5; ++k) {
      c.rotation.times.push_back(times[k]);
      c.rotation.values.push_back(skeleton.joints[std::size_t(c.joint)].rest.rotation *
                                  glm::angleAxis(glm::radians(angleAt(k)), glm::normalize(axis)));
    }
    clip.channels.push_back(c);
  };
  const float arm = 0.70710678f;
  channel("forearm_l", glm::vec3(-arm, -arm, 0.0f), [&](int k) { return 100.0f * flex[k]; });
  channel("forearm_r", glm::vec3(-arm, arm, 0.0f), [&](int k) { return 100.0f * flex[k]; });
  channel("shin_l", glm::vec3(1.0f, 0.0f, 0.0f), [&](int k) { return 90.0f * flex[k]; });
  channel("shin_r", glm::vec3(1.0f, 0.0f, 0.0f), [&](int k) { return 90.0f * flex[4 - k]; });
  channel("thigh_l", glm::vec3(1.0f, 0.0f, 0.0f), [&](int k) { return -30.0f * phase[k]; });
  channel("thigh_r", glm::vec3(1.0f, 0.0f, 0.0f), [&](int k) { return 30.0f * phase[k]; });
  channel("chest", glm::vec3(0.0f, 1.0f, 0.0f), [&](int k) { return 15.0f * phase[k]; });
  if (Status valid = clip.validate(skeleton); !valid) {
    std::fprintf(stderr, "%s\n", valid.error().message.c_str());
    return 2;
  }
  if (Status s = exportAnimatedGltf(out, *body, {clip}, {}); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 3;
  }
  std::printf("wrote %s: %zu vertices, %zu joints, clip %s of %.2f s\n", out.c_str(), body->mesh.positions.size(),
              skeleton.size(), clip.name.c_str(), double(clip.duration));
  return 0;
}
