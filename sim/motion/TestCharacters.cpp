#include "sim/motion/TestCharacters.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string_view>

#include <glm/gtc/constants.hpp>
#include <glm/trigonometric.hpp>
#include <utility>

#include "sim/motion/CharacterIO.h"

namespace hg {
namespace {

MannequinParams proportions(float height, float chestGirth, float cellSize) {
  MannequinParams p;
  p.height = height;
  p.chestGirth = chestGirth;
  p.cellSize = cellSize;
  return p;
}

/// Renames the canonical joints of the mannequin as `naming` does.
void rename(Skeleton& skeleton, SkeletonConvention naming) {
  const std::string prefix = naming == SkeletonConvention::Mixamo ? "mixamorig:" : "";
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c) {
    const int j = skeleton.find(canonicalJointNames()[c]);
    if (j >= 0) skeleton.joints[std::size_t(j)].name = prefix + conventionJointName(naming, c);
  }
}

/// Leaves out the soles (triangles within 2 mm of the floor) and gives every remaining
/// triangle its own three vertices.
void openAndUnweld(SkinnedMesh& body) {
  const TriangleMesh& in = body.mesh;
  TriangleMesh out;
  SkinWeights skin;
  for (std::size_t t = 0; t + 2 < in.indices.size(); t += 3) {
    bool sole = true;
    for (int k = 0; k < 3; ++k) sole = sole && in.positions[in.indices[t + std::size_t(k)]].y < 0.002f;
    if (sole) continue;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = in.indices[t + std::size_t(k)];
      out.indices.push_back(std::uint32_t(out.positions.size()));
      out.positions.push_back(in.positions[v]);
      if (!in.normals.empty()) out.normals.push_back(in.normals[v]);
      skin.joints.push_back(body.skin.joints[v]);
      skin.weights.push_back(body.skin.weights[v]);
    }
  }
  body.mesh = std::move(out);
  body.skin = std::move(skin);
}

}  // namespace

/// A walk in the CMU BVH layout (centimetres, Y up, facing +Z): LHipJoint / RHipJoint hip
/// bones, LowerBack, Neck1, toes, a T-pose with the legs splayed 20 degrees outwards as the
/// CMU conversions have them, and the root recorded 50 cm off the origin. Frame k at
/// 30 fps: thighs straightened by -/+20 degrees about z and swung +/-25 degrees about x,
/// the swinging leg's knee bent, the feet kept flat, the hips lifted so that the stance ankle is 8 cm above
/// the floor, moving forward at 1.2 m/s.
std::string testWalkBvh(int frames) {
  const float splay = glm::radians(20.0f), thigh = 42.0f, shin = 42.0f;
  std::ostringstream out;
  const char* channels = "CHANNELS 3 Zrotation Xrotation Yrotation\n";
  const auto leg = [&](const char* side, const char* longSide, float sign) {
    const float sx = sign * std::sin(splay), sy = -std::cos(splay);
    out << "JOINT " << side << "HipJoint\n{\nOFFSET 0 0 0\n" << channels;
    out << "JOINT " << longSide << "UpLeg\n{\nOFFSET " << sign * 8.0f << " -6 0\n" << channels;
    out << "JOINT " << longSide << "Leg\n{\nOFFSET " << thigh * sx << " " << thigh * sy << " 0\n" << channels;
    out << "JOINT " << longSide << "Foot\n{\nOFFSET " << shin * sx << " " << shin * sy << " 0\n" << channels;
    out << "JOINT " << longSide << "ToeBase\n{\nOFFSET 0 -6 12\n" << channels;
    out << "End Site\n{\nOFFSET 0 0 4\n}\n}\n}\n}\n}\n}\n";
  };
  const auto arm = [&](const char* side, float sign) {
    out << "JOINT " << side << "Shoulder\n{\nOFFSET " << sign * 3.0f << " 17 0\n" << channels;
    out << "JOINT " << side << "Arm\n{\nOFFSET " << sign * 15.0f << " 0 0\n" << channels;
    out << "JOINT " << side << "ForeArm\n{\nOFFSET " << sign * 28.0f << " 0 0\n" << channels;
    out << "JOINT " << side << "Hand\n{\nOFFSET " << sign * 25.0f << " 0 0\n" << channels;
    out << "End Site\n{\nOFFSET " << sign * 10.0f << " 0 0\n}\n}\n}\n}\n}\n";
  };
  out << "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
         "Yrotation\n";
  leg("L", "Left", 1.0f);
  leg("R", "Right", -1.0f);
  const char* spine[] = {"LowerBack", "Spine", "Spine1", "Neck", "Neck1", "Head"};
  const float rise[] = {2.0f, 10.0f, 15.0f, 20.0f, 4.0f, 5.0f};
  for (int k = 0; k < 6; ++k) out << "JOINT " << spine[k] << "\n{\nOFFSET 0 " << rise[k] << " 0\n" << channels;
  // Spine1 carries the shoulders: the arms follow once the neck chain is closed.
  out << "End Site\n{\nOFFSET 0 15 0\n}\n}\n}\n}\n";  // Head, Neck1, Neck
  arm("Left", 1.0f);
  arm("Right", -1.0f);
  out << "}\n}\n}\n}\n";  // Spine1, Spine, LowerBack, Hips
  // Channel order: Hips (6), LHipJoint, LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase, the right
  // leg likewise, LowerBack, Spine, Spine1, Neck, Neck1, Head, the left arm's four joints,
  // the right arm's four: 6 + 3 * 24 numbers.
  out << "MOTION\nFrames: " << frames << "\nFrame Time: 0.0333333\n";
  for (int f = 0; f < frames; ++f) {
    const float phase = 2.0f * glm::pi<float>() * float(f) / 30.0f;  // one stride per second
    const float swing = 25.0f * std::sin(phase);                     // left thigh forward > 0
    const float kneeL = std::max(0.0f, -std::sin(phase)) * 40.0f, kneeR = std::max(0.0f, std::sin(phase)) * 40.0f;
    // Hip height: the straighter (stance) leg's ankle 8 cm above the floor.
    const float hipY = 8.0f + 6.0f + (thigh + shin) * std::cos(glm::radians(std::abs(swing)));
    out << 50.0f << " " << hipY << " " << 120.0f * float(f) / 30.0f << " 0 0 0";
    const auto joint = [&out](float z, float x, float y) { out << " " << z << " " << x << " " << y; };
    joint(0, 0, 0);                              // LHipJoint
    joint(-20, -swing, 0);                       // LeftUpLeg: straightened, swung
    joint(0, kneeL, 0);                          // LeftLeg
    joint(0, swing - kneeL, 0);                  // LeftFoot: kept flat
    joint(0, 0, 0);                              // LeftToeBase
    joint(0, 0, 0);                              // RHipJoint
    joint(20, swing, 0);                         // RightUpLeg
    joint(0, kneeR, 0);                          // RightLeg
    joint(0, -swing - kneeR, 0);                 // RightFoot
    joint(0, 0, 0);                              // RightToeBase
    for (int k = 0; k < 6; ++k) joint(0, 0, 0);  // LowerBack .. Head
    // The arms 45 degrees below horizontal, as the relaxed A-pose garments are sewn in
    // (relaxedAPose): lowered further, the T-shirt's underarm is pinched between arm and
    // torso and buzzes at up to 3.6 m/s, and the walk went unstable (measured 2026-11-28).
    joint(0, 0, 0);    // LeftShoulder
    joint(-45, 0, 0);  // LeftArm
    joint(0, 0, 0);
    joint(0, 0, 0);
    joint(0, 0, 0);
    joint(45, 0, 0);  // RightArm
    joint(0, 0, 0);
    joint(0, 0, 0);
    out << "\n";
  }
  return out.str();
}

const std::vector<TestCharacterSpec>& testCharacters() {
  static const std::vector<TestCharacterSpec> all = {
      {"mixamo_tall", SkeletonConvention::Mixamo, proportions(1.85f, 0.0f, 0.015f), ".glb", false},
      {"unreal_short", SkeletonConvention::Unreal, proportions(1.60f, 0.98f, 0.015f), ".fbx", false},
      {"smpl_average", SkeletonConvention::Smpl, proportions(1.70f, 0.0f, 0.015f), ".dae", false},
      {"scan_open", SkeletonConvention::Mannequin, proportions(1.75f, 0.0f, 0.015f), ".dae", true},
  };
  return all;
}

Result<SkinnedMesh> buildTestCharacter(const TestCharacterSpec& spec) {
  auto body = buildMannequin(spec.body);
  if (!body) return body.error().prefixed(spec.name + ": ");
  rename(body->skeleton, spec.naming);
  if (spec.openAndUnwelded) openAndUnweld(*body);
  return body;
}

Result<std::filesystem::path> writeTestCharacter(const TestCharacterSpec& spec, const std::filesystem::path& folder) {
  auto body = buildTestCharacter(spec);
  if (!body) return body.error();
  const std::filesystem::path path = folder / spec.fileName();
  if (Status s = exportCharacter(path, *body, {}); !s) return s.error();
  return path;
}

}  // namespace hg
