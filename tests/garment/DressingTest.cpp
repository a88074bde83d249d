// The dressing pipeline on the built-in mannequin (sim/garment/Dressing.h): measurements
// to patterns, placed, sewn, welded, then draped against the body collider.
#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "sim/body/Mannequin.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/garment/Dressing.h"
#include "sim/garment/Sewing.h"

namespace hg {
namespace {

struct Avatar {
  SkinnedMesh body;
  BodyMeasurements measurements;
  std::shared_ptr<const SignedDistanceGrid> collider;
};

const Avatar& mannequin() {
  static const Avatar avatar = [] {
    MannequinParams params;
    params.cellSize = 0.015f;
    Avatar a;
    a.body = buildMannequin(params).value();
    a.measurements = measureBody(a.body);
    SignedDistanceOptions options;
    options.cellSize = 0.015f;
    options.band = 0.045f;
    options.margin = 0.075f;
    a.collider = std::make_shared<const SignedDistanceGrid>(buildSignedDistanceGrid(a.body.mesh, options).value());
    return a;
  }();
  return avatar;
}

ClothSolverFactory cpuFactory() {
  return [](std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    return createCpuClothSolver(std::move(model), settings);
  };
}

TEST(Dressing, SizingFromTheMannequinIsValidAndFollowsIt) {
  const GarmentSizing sizing = garmentSizing(mannequin().measurements);
  ASSERT_TRUE(sizing.validate()) << sizing.validate().error().message;
  EXPECT_FLOAT_EQ(sizing.hipGirth, mannequin().measurements.hipGirth);
  EXPECT_GT(sizing.shoulderHeight, sizing.chestHeight);
  EXPECT_NEAR(sizing.crotchHeight, mannequin().measurements.crotchHeight, 1e-6f);
}

TEST(Dressing, ASkirtAndATShirtAreSewnAroundTheBodyAndDrape) {
  const Avatar& avatar = mannequin();
  std::vector<GarmentSpec> outfit(2);
  outfit[0].kind = GarmentKind::Skirt;
  outfit[1].kind = GarmentKind::TShirt;
  ClothMaterial material;
  material.tensileStiffness = 1500.0f;
  material.bendingRigidity = 2e-5f;
  ClothSettings settings;
  settings.colliders.spheres.clear();
  settings.colliders.distanceGrid = avatar.collider;
  settings.contactOffset = 0.005f;
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.substeps = 8;
  settings.solverIterations = 30;
  settings.velocityDamping = 0.5f;
  DressingSettings dressing;
  dressing.edgeLength = 0.03f;  // coarse: a quick test
  int lastFrame = 0;
  auto dressed = dressAvatar(avatar.body.mesh, avatar.measurements, outfit, material, std::nullopt, settings,
                             cpuFactory(), dressing, [&](int frame, float) { lastFrame = frame; });
  ASSERT_TRUE(dressed) << dressed.error().message;
  std::printf(
      "[ dressing ] %zu vertices, sewn in %d frames, gap before the weld %.2f mm, %zu welded, placement "
      "clearance %.1f mm\n",
      dressed->model.vertexCount(), dressed->sewingFrames, 1e3 * double(dressed->largestGapBeforeWeld),
      dressed->weldedVertices, 1e3 * double(dressed->placementClearance));
  EXPECT_EQ(lastFrame, dressed->sewingFrames);
  EXPECT_LE(dressed->largestGapBeforeWeld, dressing.weldGap);
  EXPECT_GE(dressed->placementClearance, dressing.clearance - 1e-4f);
  EXPECT_GT(dressed->weldedVertices, 0u);
  ASSERT_EQ(dressed->garmentOfVertex.size(), dressed->model.vertexCount());
  // Each garment is one piece after welding: two garments, two pieces.
  EXPECT_EQ(connectedPieces(dressed->model.restMesh()), 2u);
  for (std::uint32_t g = 0; g < 2; ++g)
    EXPECT_GT(std::count(dressed->garmentOfVertex.begin(), dressed->garmentOfVertex.end(), g), 200) << g;

  // Drape for half a second: nothing ends inside the body, and the skirt hangs around the hips.
  auto model = std::make_shared<const ClothModel>(dressed->model);
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver) << solver.error().message;
  (*solver)->writeState(dressed->state);
  for (int f = 0; f < 30; ++f) ASSERT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << f;
  const ClothState state = (*solver)->readState();
  float deepest = 1.0f, skirtLowest = 10.0f;
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    deepest = std::min(deepest, avatar.collider->distance(glm::vec3(state.positions[i])));
    if (dressed->garmentOfVertex[i] == 0) skirtLowest = std::min(skirtLowest, state.positions[i].y);
  }
  std::printf(
      "[ dressing ] after 0.5 s: smallest distance to the body %.2f mm, skirt hem at %.3f m (hip line %.3f m)\n",
      1e3 * double(deepest), double(skirtLowest), double(avatar.measurements.hipHeight));
  EXPECT_GE(deepest, 0.0f);
  EXPECT_LT(skirtLowest, avatar.measurements.hipHeight - 0.2f);
  EXPECT_GT(skirtLowest, 0.1f);
}

TEST(Dressing, EachGarmentCanHaveItsOwnMaterial) {
  // A skirt in the outfit's material and a T-shirt twice as stiff, a third as bending-stiff
  // and half as heavy: its springs, hinges and masses scale by exactly those ratios.
  const Avatar& avatar = mannequin();
  std::vector<GarmentSpec> outfit(2);
  outfit[0].kind = GarmentKind::Skirt;
  outfit[1].kind = GarmentKind::TShirt;
  ClothMaterial base;
  base.tensileStiffness = 1500.0f;
  base.bendingRigidity = 3e-5f;
  base.arealDensity = 0.2f;
  ClothMaterial light = base;
  light.tensileStiffness = 3000.0f;
  light.bendingRigidity = 1e-5f;
  light.arealDensity = 0.1f;
  ClothSettings settings;
  settings.colliders.spheres.clear();
  settings.colliders.distanceGrid = avatar.collider;
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.substeps = 4;
  DressingSettings dressing;
  dressing.edgeLength = 0.04f;
  auto plain =
      dressAvatar(avatar.body.mesh, avatar.measurements, outfit, base, std::nullopt, settings, cpuFactory(), dressing);
  outfit[1].material = light;
  auto mixed =
      dressAvatar(avatar.body.mesh, avatar.measurements, outfit, base, std::nullopt, settings, cpuFactory(), dressing);
  ASSERT_TRUE(plain && mixed) << (plain ? mixed.error().message : plain.error().message);
  ASSERT_EQ(plain->model.springs.size(), mixed->model.springs.size());
  ASSERT_EQ(plain->model.vertexCount(), mixed->model.vertexCount());
  int shirtSprings = 0;
  for (std::size_t s = 0; s < plain->model.springs.size(); ++s) {
    const bool shirt = mixed->garmentOfVertex[mixed->model.springs[s].a] == 1;
    shirtSprings += shirt;
    // Two pipeline runs agree closely but not bitwise (see the note in Dressing.h): the
    // welded rest lengths have differed by up to 6.5e-5 relative between runs, so the
    // ratio is checked to 5e-4 of the expected value.
    const float expected = plain->model.springs[s].baseStiffness * (shirt ? 2.0f : 1.0f);
    EXPECT_NEAR(mixed->model.springs[s].baseStiffness, expected, 5e-4f * expected);
  }
  EXPECT_GT(shirtSprings, 100);
  for (std::size_t h = 0; h < plain->model.hinges.size(); ++h) {
    const bool shirt = mixed->garmentOfVertex[mixed->model.hinges[h].vertices.x] == 1;
    const float expected = plain->model.hinges[h].stiffness * (shirt ? 1.0f / 3.0f : 1.0f);
    EXPECT_NEAR(mixed->model.hinges[h].stiffness, expected, 5e-4f * expected);
  }
  for (std::size_t v = 0; v < plain->model.vertexCount(); ++v) {
    const bool shirt = mixed->garmentOfVertex[v] == 1;
    const float expected = plain->model.restPositions[v].w * (shirt ? 2.0f : 1.0f);
    EXPECT_NEAR(mixed->model.restPositions[v].w, expected, 5e-4f * expected);
    EXPECT_EQ(mixed->state.positions[v].w, mixed->model.restPositions[v].w);  // the state carries the masses
  }
}

/// Two square sheets side by side as two garments of one model, with an anisotropic outfit
/// texture: garment 1 gets a fabric of its own (stiffness, anisotropy, strain stiffening,
/// bending anisotropy, density).
TEST(Dressing, AGarmentsOwnFabricGivesItsSpringsTheFabricsAnisotropyAndStiffening) {
  TriangleMesh both;
  for (float x : {0.0f, 1.0f}) {
    auto sheet = makeSquareSheet({6, 0.5f, glm::vec3(x, 1.0f, 0.0f)});
    ASSERT_TRUE(sheet);
    const auto offset = std::uint32_t(both.positions.size());
    both.positions.insert(both.positions.end(), sheet->positions.begin(), sheet->positions.end());
    both.uvs.insert(both.uvs.end(), sheet->uvs.begin(), sheet->uvs.end());
    for (std::uint32_t i : sheet->indices) both.indices.push_back(i + offset);
  }
  ClothMaterial base;
  base.tensileStiffness = 1500.0f;
  base.bendingRigidity = 2e-5f;
  base.arealDensity = 0.15f;
  const glm::vec4 outfitChannels(1.0f, 0.5f, 0.25f, 0.25f);
  auto built = buildClothModel(both, base, {}, AnisotropyTexture::uniform(outfitChannels, 1.0f));
  ASSERT_TRUE(built) << built.error().message;
  const ClothModel plain = *built;
  std::vector<std::uint32_t> garmentOfVertex(both.positions.size(), 0);
  std::fill(garmentOfVertex.begin() + std::ptrdiff_t(garmentOfVertex.size() / 2), garmentOfVertex.end(), 1u);

  std::vector<GarmentSpec> outfit(2);
  ClothMaterial denim = base;
  denim.tensileStiffness = 10000.0f;
  denim.strainStiffening = glm::vec4(0.1f, 0.2f, 1.0f, 1.0f);
  denim.bendingRigidity = 6e-6f;
  denim.bendingAnisotropy = glm::vec3(0.75f, 0.8f, 1.4f);
  denim.arealDensity = 0.3f;
  outfit[1].material = denim;
  const glm::vec4 denimChannels(0.2f, 1.0f, 0.0f, 0.0f);
  outfit[1].anisotropy = denimChannels;
  ClothModel dressed = plain;
  applyGarmentMaterials(dressed, garmentOfVertex, outfit, base);

  // The factors are baked into the base stiffness, so a setup pass without the texture
  // (applyAnisotropy, cloth_setup.comp) keeps them.
  EXPECT_FALSE(dressed.anisotropy);
  int denimSprings = 0, weftSprings = 0;
  for (std::size_t i = 0; i < plain.springs.size(); ++i) {
    const kernels::ClothSpring &before = plain.springs[i], &after = dressed.springs[i];
    const glm::vec2 direction(before.uv.z, before.uv.w);
    const bool own = garmentOfVertex[before.a] == 1;
    denimSprings += own;
    const float expected =
        own ? before.baseStiffness * 10000.0f / 1500.0f * kernels::anisotropyFactor(denimChannels, direction)
            : before.stiffness;
    EXPECT_NEAR(after.stiffness, expected, 1e-5f * before.baseStiffness * 10.0f) << "spring " << i;
    EXPECT_EQ(after.baseStiffness, after.stiffness);
    EXPECT_FLOAT_EQ(after.strainStiffening, own ? kernels::anisotropyFactor(denim.strainStiffening, direction) : 0.0f);
    if (own && direction.x == 0.0f) {  // along the weft: the fabric's full E
      ++weftSprings;
      EXPECT_NEAR(after.stiffness, before.baseStiffness * 10000.0f / 1500.0f, 1e-3f * after.stiffness);
    }
  }
  EXPECT_GT(denimSprings, 50);
  EXPECT_GT(weftSprings, 10);
  for (std::size_t h = 0; h < plain.hinges.size(); ++h) {
    const glm::uvec4 v = plain.hinges[h].vertices;
    const bool own = garmentOfVertex[v.x] == 1;
    const float along = bendingDirectionFactor(denim, plain.uvs[v.y] - plain.uvs[v.x]);
    EXPECT_NEAR(dressed.hinges[h].stiffness, plain.hinges[h].stiffness * (own ? 6e-6f / 2e-5f * along : 1.0f),
                1e-5f * plain.hinges[h].stiffness);
  }
  for (std::size_t i = 0; i < plain.vertexCount(); ++i)
    EXPECT_FLOAT_EQ(dressed.restPositions[i].w, plain.restPositions[i].w * (garmentOfVertex[i] == 1 ? 0.5f : 1.0f));
  // A solver built on either model starts from the same stiffnesses after its setup pass.
  ClothModel again = dressed;
  applyAnisotropy(again);
  for (std::size_t i = 0; i < again.springs.size(); ++i)
    EXPECT_EQ(again.springs[i].stiffness, dressed.springs[i].stiffness);
}

TEST(Dressing, ErrorsNameTheGarment) {
  const Avatar& avatar = mannequin();
  std::vector<GarmentSpec> outfit(1);
  outfit[0].kind = GarmentKind::Skirt;
  outfit[0].skirt.length = 0.01f;  // above the hip line: the block refuses it
  auto dressed = dressAvatar(avatar.body.mesh, avatar.measurements, outfit, ClothMaterial{}, std::nullopt,
                             ClothSettings{}, cpuFactory());
  ASSERT_FALSE(dressed);
  EXPECT_NE(dressed.error().message.find("garment 0 (skirt)"), std::string::npos) << dressed.error().message;
  EXPECT_FALSE(dressAvatar(avatar.body.mesh, avatar.measurements, {}, ClothMaterial{}, std::nullopt, ClothSettings{},
                           cpuFactory()));
  // Seams that do not close in time (to within a nanometre in 2 frames): the message names
  // the widest one.
  outfit[0].kind = GarmentKind::TShirt;
  DressingSettings dressing;
  dressing.edgeLength = 0.05f;
  dressing.weldGap = 1e-9f;
  dressing.maxSewingFrames = 2;
  auto unsewn = dressAvatar(avatar.body.mesh, avatar.measurements, outfit, ClothMaterial{}, std::nullopt,
                            ClothSettings{}, cpuFactory(), dressing);
  ASSERT_FALSE(unsewn);
  EXPECT_NE(unsewn.error().message.find("did not close within 2 frames"), std::string::npos) << unsewn.error().message;
  EXPECT_NE(unsewn.error().message.find("seam '"), std::string::npos) << unsewn.error().message;
  EXPECT_EQ(unsewn.error().message.find("seam ''"), std::string::npos) << unsewn.error().message;
  EXPECT_EQ(parseGarmentKind("trousers").value(), GarmentKind::Trousers);
  EXPECT_FALSE(parseGarmentKind("kimono"));
}

}  // namespace
}  // namespace hg
