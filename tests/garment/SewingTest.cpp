// Sewing: seam springs close the seam gaps of a placed T-shirt in the CPU cloth solver
// (gravity off), welding then merges the pairs into one connected garment whose cloth
// model builds; trousers, skirt and dress weld too.
#include <cmath>
#include <cstdlib>
#include <map>

#include <gtest/gtest.h>

#include "sim/cloth/ClothSolver.h"
#include "sim/cloth/CpuClothSolver.h"
#include "sim/garment/Patterns.h"
#include "sim/garment/Sewing.h"
#include "tests/garment/GarmentFixtures.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

SewnGarment sewnGarment(const Result<Pattern>& pattern, float edge, float armDegrees = 45.0f) {
  EXPECT_TRUE(pattern.ok()) << pattern.error().message;
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, armDegrees);
  MeshingOptions meshing;
  meshing.targetEdgeLength = edge;
  auto meshes = meshPattern(*pattern, meshing);
  EXPECT_TRUE(meshes.ok()) << meshes.error().message;
  auto placed = placePattern(*pattern, *meshes, s, frame, test::syntheticBody(s, frame));
  EXPECT_TRUE(placed.ok()) << placed.error().message;
  auto sewn = assembleGarment(*pattern, *meshes, *placed);
  EXPECT_TRUE(sewn.ok()) << sewn.error().message;
  return std::move(sewn).value();
}

TEST(ClothModelSprings, AddSpringsAppendsAndRebuildsTheAdjacency) {
  auto model = *test::sheet(4);
  const std::size_t before = model.springs.size();
  const std::vector<SpringSpec> extra{{0, 15, 0.0f, 100.0f, 0.01f}};
  ASSERT_TRUE(addSprings(model, extra).ok());
  ASSERT_EQ(model.springs.size(), before + 1);
  EXPECT_EQ(model.springs.back().a, 0u);
  EXPECT_EQ(model.springs.back().b, 15u);
  EXPECT_FLOAT_EQ(model.springs.back().stiffness, 100.0f);
  bool found = false;
  for (std::uint32_t e = model.springOffsets[15]; e < model.springOffsets[16]; ++e)
    found = found || (model.springEntries[e].neighbor == 0 && model.springEntries[e].spring == before);
  EXPECT_TRUE(found);
  const std::vector<SpringSpec> bad{{0, 99, 0.0f, 1.0f, 0.0f}};
  const Status s = addSprings(model, bad);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("outside"), std::string::npos);
  EXPECT_EQ(model.springs.size(), before + 1);
}

/// With `panelMaterial` (scene key dressing.rest_from_panels) the garment's rest state is
/// the flat fabric's: a model built from the T-shirt as placed around the body (its panels
/// curved, stretched and squeezed) gets, after applyPanelRest, the springs, hinges and
/// masses of one built from the flat panels. (Without it, stiffness and masses come from
/// the placed shape: a squeezed spot on the 1.80 m mannequin makes a spring 10^4 times too
/// stiff, and sewing blows up.)
TEST(Sewing, PanelRestGivesThePlacedGarmentTheFlatPanelsSpringsHingesAndMasses) {
  const SewnGarment sewn = sewnGarment(tShirt(GarmentSizing{}), 0.03f);
  TriangleMesh flat = sewn.mesh;  // every vertex at its panel coordinates (panels side by side is not needed)
  for (std::size_t c = 0; c < sewn.cornerPanelCoords.size(); ++c)
    flat.positions[sewn.mesh.indices[c]] = glm::vec3(sewn.cornerPanelCoords[c], 0.0f);
  for (bool areaWeighted : {false, true}) {
    ClothMaterial material;
    material.areaWeightedMass = areaWeighted;
    auto placed = buildClothModel(sewn.mesh, material);
    auto panels = buildClothModel(flat, material);
    ASSERT_TRUE(placed && panels);
    ASSERT_TRUE(applyPanelRest(*placed, sewn.cornerPanelCoords, sewn.textureScale, true, true));
    ASSERT_TRUE(applyPanelRest(*panels, sewn.cornerPanelCoords, sewn.textureScale, true, true));
    ASSERT_EQ(placed->springs.size(), panels->springs.size());
    float changed = 0.0f;  // how far the placed shape's stiffness was from the panels'
    for (std::size_t i = 0; i < placed->springs.size(); ++i) {
      const kernels::ClothSpring &p = placed->springs[i], &f = panels->springs[i];
      EXPECT_NEAR(p.restLength, f.restLength, 1e-6f * f.restLength);
      EXPECT_NEAR(p.stiffness, f.stiffness, 1e-4f * f.stiffness) << "spring " << i;
    }
    for (std::size_t i = 0; i < placed->hinges.size(); ++i)
      EXPECT_NEAR(placed->hinges[i].stiffness, panels->hinges[i].stiffness, 1e-4f * panels->hinges[i].stiffness);
    for (std::size_t v = 0; v < placed->vertexCount(); ++v)
      EXPECT_NEAR(placed->restPositions[v].w, panels->restPositions[v].w, 1e-4f * panels->restPositions[v].w);
    EXPECT_NEAR(placed->totalMass, panels->totalMass, 1e-4f * panels->totalMass);
    auto unscaled = buildClothModel(sewn.mesh, material);  // the panel's rest lengths, the placed shape's stiffness
    ASSERT_TRUE(applyPanelRest(*unscaled, sewn.cornerPanelCoords, sewn.textureScale));
    for (std::size_t i = 0; i < placed->springs.size(); ++i)
      changed = std::max(changed, std::abs(unscaled->springs[i].stiffness / placed->springs[i].stiffness - 1.0f));
    EXPECT_GT(changed, 0.05f) << "the placement distorts the panels, so the rescaling must matter";
  }
}

TEST(Sewing, SeamSpringsCloseATShirtAndWeldingMakesOnePiece) {
  const SewnGarment sewn = sewnGarment(tShirt(GarmentSizing{}), 0.025f);
  ClothMaterial material;
  auto built = buildClothModel(sewn.mesh, material);
  ASSERT_TRUE(built.ok()) << built.error().message;
  ClothModel model = std::move(built).value();
  ASSERT_TRUE(applyPanelRest(model, sewn.cornerPanelCoords, sewn.textureScale).ok());
  // Seam springs 10x stiffer than a typical cloth edge spring (E A / L^2 ~ 150 N/m here).
  ASSERT_TRUE(addSprings(model, seamSprings(sewn, 1500.0f, 0.0f)).ok());
  auto shared = std::make_shared<const ClothModel>(std::move(model));
  ClothSettings settings = test::withoutColliders();
  settings.gravity = glm::vec3(0.0f);
  // Projective dynamics (Liu et al. 2013) stays stable with the stiff seam springs at a few
  // substeps per frame; strong air damping removes the closing motion's energy.
  settings.integrator = ClothIntegrator::ProjectiveJacobi;
  settings.substeps = 4;
  settings.solverIterations = 20;
  settings.velocityDamping = 10.0f;
  settings.maxSpeed = 1e4f;
  settings.threads = 1;
  auto solver = createCpuClothSolver(shared, settings);
  ASSERT_TRUE(solver.ok()) << solver.error().message;
  ClothState state = (*solver)->readState();
  const float initial = maxSeamGap(state.positions, sewn.pairs);
  std::printf("[ sewing ] t-shirt: %zu vertices, %zu seam pairs, initial max gap %.4f m\n", sewn.mesh.vertexCount(),
              sewn.pairs.size(), double(initial));
  EXPECT_GT(initial, 0.05f);  // the seams really start open
  // A fixed, bounded run: the gap must fall below 1 mm and stay there while the cloth settles.
  const int frames = std::getenv("HG_SEW_FRAMES") ? std::atoi(std::getenv("HG_SEW_FRAMES")) : 120;
  float gap = initial;
  int closedAt = -1;
  for (int frame = 0; frame < frames; ++frame) {
    (void)(*solver)->step();
    state = (*solver)->readState();
    gap = maxSeamGap(state.positions, sewn.pairs);
    if (closedAt < 0 && gap < 1e-3f) closedAt = frame + 1;
    if (frame < 5 || (frame + 1) % 20 == 0)
      std::printf("[ sewing ] frame %3d: max seam gap %.5f m\n", frame + 1, double(gap));
  }
  double strain = 0.0;  // largest relative stretch of a cloth (non-seam) spring
  for (const auto& sp : shared->springs)
    if (sp.restLength > 0.0f)
      strain = std::max(
          strain, std::abs(double(glm::distance(glm::vec3(state.positions[sp.a]), glm::vec3(state.positions[sp.b]))) /
                               sp.restLength -
                           1.0));
  std::printf("[ sewing ] gap below 1 mm from frame %d; after %d frames %.5f m, largest cloth strain %.3f\n", closedAt,
              frames, double(gap), strain);
  ASSERT_LT(gap, 1e-3f);
  std::vector<float> perSeam(sewn.seamNames.size(), 0.0f);
  for (const SeamPair& p : sewn.pairs)
    perSeam[p.seam] =
        std::max(perSeam[p.seam], glm::distance(glm::vec3(state.positions[p.a]), glm::vec3(state.positions[p.b])));
  for (std::size_t i = 0; i < perSeam.size(); ++i)
    std::printf("[ sewing ]   seam %-22s max gap %.5f m\n", sewn.seamNames[i].c_str(), double(perSeam[i]));
  ASSERT_LT(gap, 1e-3f);

  auto welded = weldSeams(sewn, state.positions, 1e-3f);
  ASSERT_TRUE(welded.ok()) << welded.error().message;
  for (const SeamPair& p : sewn.pairs) EXPECT_EQ(welded->oldToNew[p.a], welded->oldToNew[p.b]);
  EXPECT_EQ(welded->mesh.vertexCount() + welded->mergedVertices, sewn.mesh.vertexCount());
  // No duplicate vertices left: no two welded vertices closer than 0.1 mm.
  std::map<std::tuple<int, int, int>, int> cells;
  int duplicates = 0;
  for (const glm::vec3& p : welded->mesh.positions)
    duplicates += cells[{int(std::floor(p.x / 1e-4f)), int(std::floor(p.y / 1e-4f)), int(std::floor(p.z / 1e-4f))}]++;
  EXPECT_EQ(duplicates, 0);
  EXPECT_EQ(connectedPieces(sewn.mesh), 4u);
  EXPECT_EQ(connectedPieces(welded->mesh), 1u);
  auto weldedModel = buildClothModel(welded->mesh, material);
  ASSERT_TRUE(weldedModel.ok()) << weldedModel.error().message;
  EXPECT_GT(weldedModel->hinges.size(), shared->hinges.size());  // hinges across the seams
  ASSERT_TRUE(applyPanelRest(*weldedModel, welded->cornerPanelCoords, welded->textureScale).ok());
  const ClothState carried = carryState(state, *welded, *weldedModel);
  ASSERT_EQ(carried.positions.size(), weldedModel->vertexCount());
  for (std::size_t v = 0; v < welded->oldToNew.size(); ++v)
    EXPECT_LT(glm::distance(glm::vec3(carried.positions[welded->oldToNew[v]]), glm::vec3(state.positions[v])), 1e-3f);
  std::printf("[ welding ] t-shirt: %zu -> %zu vertices, %zu hinges\n", sewn.mesh.vertexCount(),
              welded->mesh.vertexCount(), weldedModel->hinges.size());
}

TEST(Sewing, WeldingRefusesOpenSeamsAndNamesThem) {
  const SewnGarment sewn = sewnGarment(skirt(GarmentSizing{}), 0.03f);
  std::vector<glm::vec4> positions;
  for (const glm::vec3& p : sewn.mesh.positions) positions.emplace_back(p, 1.0f);
  // The skirt's side seams start (nearly) together on the ellipse; pull one vertex away.
  positions[sewn.pairs.front().a] += glm::vec4(0.05f, 0.0f, 0.0f, 0.0f);
  auto welded = weldSeams(sewn, positions, 1e-3f);
  ASSERT_FALSE(welded.ok());
  EXPECT_NE(welded.error().message.find("seam 'side_"), std::string::npos) << welded.error().message;
}

TEST(Sewing, EveryGarmentWeldsIntoAValidClothModelWhenItsSeamsMeet) {
  // Seams moved together by hand (each pair to its midpoint): welding and the rebuilt
  // model must accept the topology of every generator.
  for (auto pattern :
       {tShirt(GarmentSizing{}), skirt(GarmentSizing{}), trousers(GarmentSizing{}), dress(GarmentSizing{})}) {
    const SewnGarment sewn = sewnGarment(pattern, 0.03f);
    std::vector<glm::vec4> positions;
    for (const glm::vec3& p : sewn.mesh.positions) positions.emplace_back(p, 1.0f);
    for (int pass = 0; pass < 8; ++pass)  // corners belong to several seams: iterate to a common point
      for (const SeamPair& p : sewn.pairs) positions[p.a] = positions[p.b] = 0.5f * (positions[p.a] + positions[p.b]);
    auto welded = weldSeams(sewn, positions, 1e-3f);
    ASSERT_TRUE(welded.ok()) << pattern->name << ": " << welded.error().message;
    auto model = buildClothModel(welded->mesh, ClothMaterial{});
    ASSERT_TRUE(model.ok()) << pattern->name << ": " << model.error().message;
    EXPECT_EQ(connectedPieces(welded->mesh), 1u) << pattern->name;
    std::printf("[ welding ] %-8s %zu -> %zu vertices\n", pattern->name.c_str(), sewn.mesh.vertexCount(),
                welded->mesh.vertexCount());
  }
}

}  // namespace
}  // namespace hg
