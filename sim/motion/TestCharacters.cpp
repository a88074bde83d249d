#include "sim/motion/TestCharacters.h"

#include <string_view>
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
