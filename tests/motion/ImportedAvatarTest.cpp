// Imported avatars (the mannequin's own measurements are checked in
// tests/body/MannequinTest.cpp): the shipped test characters (sim/motion/TestCharacters.h) come back
// from glTF, FBX and COLLADA in metres, +Y up, welded, with their naming convention found
// and their measurements within 1 cm of the proportions they were built with; the rest
// pose is the skin's bind pose even where the file's node transforms are another pose;
// the up axis and placement keys; skeleton conventions and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/body/SkeletonConvention.h"
#include "sim/geometry/MeshTopology.h"
#include "sim/motion/CharacterIO.h"
#include "sim/motion/TestCharacters.h"
#include "tests/support/GlmExpect.h"
#include "tests/support/TempDir.h"

using namespace hg;

namespace {

/// The measurements `measureBody` takes against the proportions `params` were built with.
void expectMeasuresAs(const MannequinParams& params, const BodyMeasurements& m, float tolerance) {
  const MannequinParams p = params.resolved();
  EXPECT_NEAR(m.height, p.height, tolerance);
  EXPECT_NEAR(m.chestGirth, p.chestGirth, tolerance);
  EXPECT_NEAR(m.waistGirth, p.waistGirth, tolerance);
  EXPECT_NEAR(m.hipGirth, p.hipGirth, tolerance);
  EXPECT_NEAR(m.neckGirth, p.neckGirth, tolerance);
  EXPECT_NEAR(m.thighGirth, p.thighGirth, tolerance);
  EXPECT_NEAR(m.upperArmGirth, p.upperArmGirth, tolerance);
  EXPECT_NEAR(m.legLength, p.legLength, tolerance);
  EXPECT_NEAR(m.shoulderWidth, p.shoulderWidth, tolerance);
  EXPECT_NEAR(m.armLength, p.armLength, tolerance);
}

std::size_t borderEdges(const TriangleMesh& mesh) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = mesh.indices[t + std::size_t(k)], b = mesh.indices[t + std::size_t((k + 1) % 3)];
      ++count[{std::min(a, b), std::max(a, b)}];
    }
  std::size_t border = 0;
  for (const auto& [edge, n] : count) border += n == 1 ? 1 : 0;
  return border;
}

}  // namespace

TEST(ImportedAvatar, EveryTestCharacterImportsInMetresWithItsConventionAndMeasurements) {
  const test::TempDir dir("test_characters");
  for (const TestCharacterSpec& spec : testCharacters()) {
    SCOPED_TRACE(spec.fileName());
    const Result<std::filesystem::path> file = writeTestCharacter(spec, dir);
    ASSERT_TRUE(file.ok()) << file.error().message;
    const Result<Character> c = importCharacter(*file, ImportFrame{});
    ASSERT_TRUE(c.ok()) << c.error().message;
    const Result<ConventionMatch> convention = detectSkeletonConvention(c->body.skeleton, spec.name);
    ASSERT_TRUE(convention.ok()) << convention.error().message;
    EXPECT_EQ(convention->convention, spec.naming);
    // FBX comes in centimetres (UnitScaleFactor 1) and is scaled by what the file says.
    EXPECT_EQ(c->report.scale, spec.extension == ".fbx" ? 0.01f : 1.0f) << c->report.scaleSource;
    expectMeasuresAs(spec.body, measureBody(c->body), 0.01f);
    if (spec.openAndUnwelded) {
      // A triangle soup welded back into one open surface (the soles are missing).
      EXPECT_GT(c->verticesBeforeWeld, 5 * c->body.mesh.vertexCount());
      EXPECT_GT(borderEdges(c->body.mesh), 20u);
      EXPECT_EQ(connectedComponents(c->body.mesh).count, 1u);
    } else {
      EXPECT_EQ(borderEdges(c->body.mesh), 0u);
    }
  }
}

TEST(ImportedAvatar, TheRestPoseIsTheSkinsBindPoseNotTheFilesNodeTransforms) {
  // The file's nodes hold another pose (the pelvis 1.2 m up and turned onto its back, the
  // left arm raised), its inverse bind matrices the bind pose: as a DirectX .x character.
  MannequinParams params;
  params.cellSize = 0.03f;
  const Result<SkinnedMesh> bind = buildMannequin(params);
  ASSERT_TRUE(bind.ok()) << bind.error().message;
  SkinnedMesh stored = *bind;
  Skeleton& s = stored.skeleton;
  Transform& pelvis = s.joints[std::size_t(s.find("pelvis"))].rest;
  pelvis.translation += glm::vec3(0.3f, 1.2f, -0.5f);
  pelvis.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(1.0f, 0.0f, 0.0f)) * pelvis.rotation;
  Transform& arm = s.joints[std::size_t(s.find("upper_arm_l"))].rest;
  arm.rotation = glm::angleAxis(glm::radians(70.0f), glm::vec3(0.0f, 0.0f, 1.0f)) * arm.rotation;
  // inverseBind stays the bind pose's; the mesh is at the bind pose.
  const test::TempDir dir("bind_pose");
  ASSERT_TRUE(exportAnimatedGltf(dir / "posed_nodes.glb", stored, {}, {}).ok());
  const Result<Character> c = importCharacter(dir / "posed_nodes.glb");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->body.mesh.vertexCount(), bind->mesh.vertexCount());
  float worst = 0.0f;
  for (std::size_t v = 0; v < bind->mesh.vertexCount(); ++v)
    worst = std::max(worst, glm::length(c->body.mesh.positions[v] - bind->mesh.positions[v]));
  EXPECT_LT(worst, 1e-4f);
  const std::vector<glm::mat4> want = globalMatrices(bind->skeleton, restPose(bind->skeleton));
  const std::vector<glm::mat4> got = globalMatrices(c->body.skeleton, restPose(c->body.skeleton));
  for (std::size_t j = 0; j < want.size(); ++j) {
    const int g = c->body.skeleton.find(bind->skeleton.joints[j].name);
    ASSERT_GE(g, 0);
    test::expectNear(glm::vec3(got[std::size_t(g)][3]), glm::vec3(want[j][3]), 1e-4f, bind->skeleton.joints[j].name);
  }
  // The rest pose skins to the mesh: the skinning matrices are the identity.
  for (const glm::mat4& m : skinningMatrices(c->body.skeleton, restPose(c->body.skeleton)))
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(glm::length(m[k] - glm::mat4(1.0f)[k]), 0.0f, 1e-4f);
    }
}

TEST(ImportedAvatar, UpAxisScaleRotationAndPositionPutAZUpFileStanding) {
  MannequinParams params;
  params.cellSize = 0.03f;
  const Result<SkinnedMesh> body = buildMannequin(params);
  ASSERT_TRUE(body.ok()) << body.error().message;
  // The body as a Z-up tool in centimetres stores it: (x, y, z) -> (x, -z, y) * 100.
  Character zUp{*body, {}, {}, 0};
  const glm::mat4 toFile =
      glm::scale(glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(1, 0, 0)), glm::vec3(100.0f));
  ASSERT_TRUE(transformCharacter(zUp, toFile).ok());
  const test::TempDir dir("z_up");
  ASSERT_TRUE(exportCharacter(dir / "z_up_cm.glb", zUp.body, {}).ok());
  ImportFrame frame;
  frame.up = FileAxis::PosZ;
  frame.scale = 0.01f;
  frame.rotationDegrees = {0.0f, 90.0f, 0.0f};
  frame.position = {1.0f, 0.0f, -2.0f};
  const Result<Character> c = importCharacter(dir / "z_up_cm.glb", frame);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->report.upSource, "scene");
  // Standing again, turned 90 degrees about y (facing +x) and moved.
  const glm::mat4 placed = glm::translate(glm::mat4(1.0f), frame.position) *
                           glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(0, 1, 0));
  for (std::size_t v = 0; v < body->mesh.vertexCount(); v += 97)
    test::expectNear(c->body.mesh.positions[v], glm::vec3(placed * glm::vec4(body->mesh.positions[v], 1.0f)), 1e-4f,
                     "vertex " + std::to_string(v));
  const BodyMeasurements m = measureBody(c->body), original = measureBody(*body);
  EXPECT_NEAR(m.height, original.height, 1e-3f);
  EXPECT_NEAR(m.chestGirth, original.chestGirth, 1e-3f);
  // Skinning still works in the world frame: identity at rest.
  for (const glm::mat4& sm : skinningMatrices(c->body.skeleton, restPose(c->body.skeleton)))
    test::expectNear(glm::vec3(sm[3]), glm::vec3(0.0f), 1e-4f, "skinning translation");
}

TEST(SkeletonConvention, EveryConventionIsFoundAndAnUnknownRigNamesItsMissingJoints) {
  MannequinParams params;
  params.cellSize = 0.03f;
  const Result<SkinnedMesh> body = buildMannequin(params);
  ASSERT_TRUE(body.ok()) << body.error().message;
  for (const SkeletonConvention convention : skeletonConventions()) {
    SCOPED_TRACE(skeletonConventionName(convention));
    Skeleton s = body->skeleton;
    for (std::size_t c = 0; c < kCanonicalJointCount; ++c)
      s.joints[std::size_t(s.find(canonicalJointNames()[c]))].name = conventionJointName(convention, c);
    if (convention == SkeletonConvention::CmuBvh) {
      // CMU files carry LowerBack between Hips and Spine (and LHipJoint, Neck1): markers
      // that tell them from Mixamo, whose names they otherwise share.
      s.joints.push_back(Joint{"LowerBack", 0, {}});
      s.inverseBind.push_back(glm::mat4(1.0f));
    }
    const Result<ConventionMatch> found = detectSkeletonConvention(s, "rig");
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found->convention, convention);
    for (std::size_t c = 0; c < kCanonicalJointCount; ++c)
      EXPECT_EQ(found->joint[c], body->skeleton.find(canonicalJointNames()[c])) << canonicalJointNames()[c];
  }
  // Spellings tools write: a namespace, an exporter prefix, other case and separators.
  Skeleton smpl = body->skeleton;
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c) {
    std::string name = conventionJointName(SkeletonConvention::Smpl, c);
    if (name.starts_with("left_")) name = "L_" + name.substr(5);
    if (name.starts_with("right_")) name = "R_" + name.substr(6);
    smpl.joints[std::size_t(smpl.find(canonicalJointNames()[c]))].name = "SMPLX:m_avg_" + name;
  }
  const Result<ConventionMatch> fbxSmpl = detectSkeletonConvention(smpl, "smpl.fbx");
  ASSERT_TRUE(fbxSmpl.ok()) << fbxSmpl.error().message;
  EXPECT_EQ(fbxSmpl->convention, SkeletonConvention::Smpl);
  // A rig missing its knees: the error names the file, the closest convention and the joints.
  Skeleton kneeless = body->skeleton;
  kneeless.joints[std::size_t(kneeless.find("shin_l"))].name = "knee_a";
  kneeless.joints[std::size_t(kneeless.find("shin_r"))].name = "knee_b";
  const Result<ConventionMatch> missing = detectSkeletonConvention(kneeless, "rig.glb");
  ASSERT_FALSE(missing.ok());
  for (const char* needle : {"rig.glb", "mannequin", "shin_l", "shin_r"})
    EXPECT_NE(missing.error().message.find(needle), std::string::npos) << missing.error().message;
  EXPECT_EQ(missing.error().message.find("thigh_l"), std::string::npos) << missing.error().message;
}
