#pragma once
// Scenes of the self-contact tests on both backends (tests/cloth/SelfContactTest.cpp,
// SelfContactGLTest.cpp): cloths made of parts whose first part is pinned, a run that
// counts intersecting triangle pairs (exact, CGAL) after every frame.
#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cloth/ClothSolver.h"
#include "sim/geometry/TriangleIntersections.h"
#include "tests/support/ClothFixtures.h"

namespace hg::test {

/// The parts as one cloth; every vertex of the first part is pinned.
inline std::shared_ptr<const ClothModel> clothOfParts(const std::vector<TriangleMesh>& parts) {
  TriangleMesh mesh;
  for (const TriangleMesh& part : parts) appendMesh(mesh, part);
  PinSet pinned;
  for (std::uint32_t v = 0; v < parts[0].vertexCount(); ++v) pinned.push_back(v);
  auto model = buildClothModel(mesh, ClothMaterial{}, pinned);
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// One triangle abc.
inline TriangleMesh singleTriangle(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  TriangleMesh m;
  m.positions = {a, b, c};
  m.uvs = {{0, 0}, {1, 0}, {0, 1}};
  m.indices = {0, 1, 2};
  return m;
}

/// No colliders, no damping, `gravity`; the projective integrator at 10 substeps, the
/// explicit one at its stable count.
inline ClothSettings contactSettings(bool selfContact, ClothIntegrator integrator, glm::vec3 gravity) {
  ClothSettings s = withoutColliders();
  s.gravity = gravity;
  s.velocityDamping = 0.0f;
  s.integrator = integrator;
  s.substeps = integrator == ClothIntegrator::ProjectiveJacobi ? 10 : 0;
  s.selfContact.enabled = selfContact;
  return s;
}

struct ContactOutcome {
  std::size_t mostIntersections = 0;  ///< over the frames
  ClothState last;
  std::optional<SelfContactReport> report;
};

/// Runs `frames` frames from the rest state with every free vertex given `velocity`,
/// counting intersecting triangle pairs after each frame.
/// A backend's solver factory (createCpuClothSolver, createGpuClothSolver).
using SolverFactory = Result<std::unique_ptr<ClothSolver>> (*)(std::shared_ptr<const ClothModel>, const ClothSettings&);

inline ContactOutcome simulateContact(SolverFactory create, std::shared_ptr<const ClothModel> model,
                                      const ClothSettings& settings, glm::vec3 velocity, int frames) {
  auto solver = create(model, settings);
  EXPECT_TRUE(solver) << solver.error().message;
  ContactOutcome run;
  if (!solver) return run;
  ClothState state = restState(*model);
  for (std::size_t i = 0; i < state.positions.size(); ++i)
    if (state.positions[i].w > 0.0f) state.velocities[i] = glm::vec4(velocity, 0.0f);
  (*solver)->writeState(state);
  for (int f = 0; f < frames; ++f) {
    EXPECT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << f;
    run.last = (*solver)->readState();
    run.mostIntersections =
        std::max(run.mostIntersections, countSelfIntersections(run.last.positions, model->triangles));
  }
  run.report = (*solver)->selfContactReport();
  return run;
}

inline float lowestFree(const ClothState& state) {
  float y = 1e30f;
  for (const glm::vec4& p : state.positions)
    if (p.w > 0.0f) y = std::min(y, p.y);
  return y;
}

/// A pinned 0.5 m sheet at y = 1 and a free 0.3 m one 1.5 cm above it, its vertices over
/// the other's cell centres.
inline std::shared_ptr<const ClothModel> stackedSheets() {
  return clothOfParts({squareSheetMesh(15, 0.5f, {0, 1, 0}), squareSheetMesh(9, 0.3f, {0.018f, 1.015f, 0.018f})});
}

/// A 2 cm patch 10 cm above a pinned 0.4 m sheet.
inline std::shared_ptr<const ClothModel> patchOverSheet() {
  return clothOfParts({squareSheetMesh(3, 0.4f, {0, 1, 0}), squareSheetMesh(2, 0.02f, {0.03f, 1.1f, 0.05f})});
}

/// A pinned triangle hanging from its top edge along x at y = 1, and a free one standing
/// on its bottom edge along z 5 cm above: falling, that edge crosses the first at (0, 1, 0).
inline std::shared_ptr<const ClothModel> crossingEdges() {
  return clothOfParts({singleTriangle({-0.2f, 1.0f, 0.0f}, {0.2f, 1.0f, 0.0f}, {0.0f, 0.9f, 0.0f}),
                       singleTriangle({0.0f, 1.05f, -0.2f}, {0.0f, 1.05f, 0.2f}, {0.0f, 1.15f, 0.0f})});
}

/// A pinned sheet at y = 1 (layer 0) and a free one (layer 1) tilted through it: its -x
/// side starts up to 9 mm below the first, its +x side above. Sets the layers in `settings`.
inline std::shared_ptr<const ClothModel> tangledLayers(ClothSettings& settings) {
  TriangleMesh upper = squareSheetMesh(9, 0.3f, {0.018f, 1.0f, 0.018f});
  for (glm::vec3& p : upper.positions) p.y += 0.07f * p.x;
  auto model = clothOfParts({squareSheetMesh(15, 0.5f, {0, 1, 0}), upper});
  settings.selfContact.layerOfVertex.assign(model->vertexCount(), 1u);
  std::fill_n(settings.selfContact.layerOfVertex.begin(), 15 * 15, 0u);
  return model;
}

/// A garment tangled with itself under another layer: a pinned 0.3 m sheet (layer 1) at
/// y = 1; under it, 1 cm lower, a free 0.2 m sheet (layer 0) and a free 6 cm patch of the
/// same layer tilted through that sheet. `settings` get the layers and a 5 g push upward,
/// which presses layer 0 against layer 1 while it untangles.
inline std::shared_ptr<const ClothModel> tangledUnderAnotherLayer(ClothSettings& settings) {
  const glm::vec3 patchCentre(0.013f, 0.99f, 0.017f);
  TriangleMesh patch = squareSheetMesh(4, 0.06f, patchCentre);
  for (glm::vec3& p : patch.positions) p.y += 0.25f * (p.x - patchCentre.x);
  auto model = clothOfParts(
      {squareSheetMesh(9, 0.3f, {0.0f, 1.0f, 0.0f}), squareSheetMesh(7, 0.2f, {0.0f, 0.99f, 0.0f}), patch});
  settings.selfContact.layerOfVertex.assign(model->vertexCount(), 0u);
  std::fill_n(settings.selfContact.layerOfVertex.begin(), 9 * 9, 1u);
  settings.gravity = glm::vec3(0.0f, 50.0f, 0.0f);
  return model;
}

/// Tangled on purpose for the tangle search: two 0.2 m sheets (12 x 12 vertices) 2 mm
/// apart with every vertex jittered by up to +-3 mm vertically and 4 mm sideways, so they
/// cut through each other and themselves in many places, plus the cases a float filter
/// could miss: a triangle coplanar with and inside another, one touching another at a
/// vertex on its face, and two crossing edge on edge. Positions in `x` (w = 1).
struct TangledCloth {
  std::shared_ptr<const ClothModel> model;
  std::vector<glm::vec4> x;
};
inline TangledCloth tangledCloth() {
  TriangleMesh mesh;
  appendMesh(mesh, squareSheetMesh(12, 0.2f, {0.0f, 1.0f, 0.0f}));
  appendMesh(mesh, squareSheetMesh(12, 0.2f, {0.004f, 1.002f, 0.004f}));
  appendMesh(mesh, singleTriangle({0.3f, 1.0f, 0.0f}, {0.4f, 1.0f, 0.0f}, {0.3f, 1.0f, 0.1f}));
  appendMesh(mesh, singleTriangle({0.31f, 1.0f, 0.01f}, {0.33f, 1.0f, 0.01f}, {0.31f, 1.0f, 0.03f}));
  appendMesh(mesh, singleTriangle({0.5f, 1.0f, 0.0f}, {0.6f, 1.0f, 0.0f}, {0.5f, 1.0f, 0.1f}));
  appendMesh(mesh, singleTriangle({0.52f, 1.0f, 0.02f}, {0.55f, 1.05f, 0.02f}, {0.52f, 1.05f, 0.05f}));
  appendMesh(mesh, singleTriangle({0.7f, 1.0f, 0.0f}, {0.8f, 1.0f, 0.0f}, {0.7f, 1.0f, 0.1f}));
  appendMesh(mesh, singleTriangle({0.75f, 0.95f, 0.05f}, {0.75f, 1.05f, 0.05f}, {0.7f, 1.0f, 0.2f}));
  auto model = buildClothModel(mesh, ClothMaterial{}, {});
  EXPECT_TRUE(model) << model.error().message;
  TangledCloth c;
  c.model = std::make_shared<const ClothModel>(std::move(model).value());
  std::mt19937 random(5);
  std::uniform_real_distribution<float> jitter(-1.0f, 1.0f);
  const std::size_t sheetVertices = 2 * 12 * 12;
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    glm::vec3 p = mesh.positions[v];
    if (v < sheetVertices) p += glm::vec3(0.004f * jitter(random), 0.003f * jitter(random), 0.004f * jitter(random));
    c.x.push_back(glm::vec4(p, 1.0f));
  }
  return c;
}

/// An upright square sheet (0.6 m, 13 x 13 vertices, 5 cm apart, nothing pinned) whose
/// bottom edge is 5 cm above the ground and whose top leans 2 cm toward +z, so that it
/// folds onto itself when it lands (a coarse sheets_folds_on_ground.json).
inline std::shared_ptr<const ClothModel> uprightSheet() {
  TriangleMesh mesh = squareSheetMesh(13, 0.6f, {0.0f, 0.0f, 0.0f});
  for (glm::vec3& p : mesh.positions) {
    const float height = p.z + 0.3f;  // 0 .. 0.6 m up the sheet
    p = glm::vec3(p.x, 0.05f + height, 0.02f * height / 0.6f);
  }
  auto model = buildClothModel(mesh, ClothMaterial{}, {});
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// Three free 0.1 m sheets (5 x 5 vertices) side by side, 2 cm above the ground, on the
/// layers 0, 4 and 9 (ranks 0, 1 and 2): they touch no other cloth, so each rests at the
/// distance its layer keeps from the ground (ClothSettings::bodyContactOffsets). The
/// projective integrator (10 substeps) or the explicit one, gravity, damping 2 1/s, a 4 mm
/// contact offset; the layers are set in `settings`.
inline std::shared_ptr<const ClothModel> sheetsOnThreeLayers(ClothSettings& settings, ClothIntegrator integrator) {
  TriangleMesh mesh;
  for (float x : {-0.3f, 0.0f, 0.3f}) appendMesh(mesh, squareSheetMesh(5, 0.1f, {x, 0.02f, 0.0f}));
  auto model = buildClothModel(mesh, ClothMaterial{}, {});
  EXPECT_TRUE(model) << model.error().message;
  settings = contactSettings(true, integrator, {0.0f, -9.81f, 0.0f});
  settings.colliders.grounds = {GroundCollider{}};
  settings.velocityDamping = 2.0f;
  settings.contactOffset = 0.004f;
  settings.selfContact.layerOfVertex.clear();
  for (std::uint32_t layer : {0u, 4u, 9u})
    settings.selfContact.layerOfVertex.insert(settings.selfContact.layerOfVertex.end(), 25, layer);
  return std::make_shared<const ClothModel>(std::move(model).value());
}

/// The mean height (m) of each sheet of sheetsOnThreeLayers.
inline std::vector<float> sheetHeights(const ClothState& state) {
  std::vector<float> heights(3, 0.0f);
  for (std::size_t v = 0; v < state.positions.size(); ++v) heights[v / 25] += state.positions[v].y / 25.0f;
  return heights;
}

/// The settings of the fold: the projective integrator (10 substeps, 30 iterations), the
/// ground at y = 0, gravity, damping 0.3 1/s.
inline ClothSettings foldSettings(bool selfContact) {
  ClothSettings s = contactSettings(selfContact, ClothIntegrator::ProjectiveJacobi, {0.0f, -9.81f, 0.0f});
  s.colliders.grounds = {GroundCollider{}};
  s.solverIterations = 30;
  s.velocityDamping = 0.3f;
  s.contactOffset = 0.004f;
  return s;
}

}  // namespace hg::test
