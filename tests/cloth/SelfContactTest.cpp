// Self and cloth-cloth contact on the CPU backend (sim/cloth/SelfContact.h): stacked sheets
// pressed together, a small patch shot at a sheet at 20 m/s, two edges crossing at 20 m/s;
// no intersection (exact CGAL count) on both integrators, and the same runs without self
// contact cross (so the checks can fail); a layer started through another is untangled;
// bitwise identical for 1 and 2 threads. The GPU backend runs the same scenes in
// SelfContactGLTest.cpp.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/SelfContact.h"
#include "sim/cloth/SelfContactCandidates.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/SelfContactFixtures.h"

namespace hg {
namespace {

using test::contactSettings;
using test::lowestFree;

test::ContactOutcome simulate(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                              glm::vec3 velocity, int frames) {
  return test::simulateContact(createCpuClothSolver, std::move(model), settings, velocity, frames);
}

/// The free part shot down at 20 m/s for 20 frames: with self contact it never crosses
/// the pinned part and stays above y = 1; without, it passes below.
void expectShotStopsAboveTheSheet(std::shared_ptr<const ClothModel> model, ClothIntegrator integrator) {
  const glm::vec3 shot(0.0f, -20.0f, 0.0f);
  const auto with = simulate(model, contactSettings(true, integrator, glm::vec3(0.0f)), shot, 20);
  EXPECT_EQ(with.mostIntersections, 0u);
  EXPECT_GT(lowestFree(with.last), 1.0f);
  const auto without = simulate(model, contactSettings(false, integrator, glm::vec3(0.0f)), shot, 20);
  EXPECT_LT(lowestFree(without.last), 1.0f);
}

class SelfContactTest : public ::testing::TestWithParam<ClothIntegrator> {};

TEST_P(SelfContactTest, StackedSheetsPressedTogetherNeverCross) {
  const auto model = test::stackedSheets();
  const glm::vec3 pressing(0.0f, -50.0f, 0.0f);  // 5 g
  const auto with = simulate(model, contactSettings(true, GetParam(), pressing), glm::vec3(0.0f), 30);
  EXPECT_EQ(with.mostIntersections, 0u);
  EXPECT_GT(lowestFree(with.last), 1.0f + 0.5f * SelfContactSettings{}.thickness);
  const auto without = simulate(model, contactSettings(false, GetParam(), pressing), glm::vec3(0.0f), 30);
  EXPECT_LT(lowestFree(without.last), 1.0f);
}

TEST_P(SelfContactTest, APatchShotAtASheetAt20MetersPerSecondStopsOnIt) {
  expectShotStopsAboveTheSheet(test::patchOverSheet(), GetParam());
}

TEST_P(SelfContactTest, EdgesCrossingAt20MetersPerSecondDoNotPassThrough) {
  expectShotStopsAboveTheSheet(test::crossingEdges(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Integrators, SelfContactTest,
                         ::testing::Values(ClothIntegrator::SymplecticEuler, ClothIntegrator::ProjectiveJacobi),
                         [](const auto& param) {
                           return std::string(param.param == ClothIntegrator::SymplecticEuler ? "explicit"
                                                                                              : "projective");
                         });

// ClothSettings::bodyContactOffsets: with self contact and layers, the k-th layer from the
// inside keeps contactOffset + k layerOffset from the colliders (default layerOffset:
// thickness + 1 mm); one layer, or self contact off, keeps contactOffset everywhere.
void expectOffsets(const std::vector<float>& offsets, const std::vector<float>& expected) {
  ASSERT_EQ(offsets.size(), expected.size());
  for (std::size_t v = 0; v < offsets.size(); ++v) EXPECT_NEAR(offsets[v], expected[v], 1e-7f) << "vertex " << v;
}

TEST(SelfContactLayers, EachLayerKeepsOneLayerOffsetMoreFromTheBody) {
  ClothSettings settings;
  settings.contactOffset = 0.005f;
  settings.selfContact.enabled = true;
  settings.selfContact.layerOfVertex = {7, 0, 3, 3, 0};
  expectOffsets(settings.bodyContactOffsets(5), {0.013f, 0.005f, 0.009f, 0.009f, 0.005f});
  EXPECT_NEAR(settings.largestContactOffset(), 0.013f, 1e-7f);
  EXPECT_NEAR(settings.sphereTreeSearchRadius(), 2.0f * 0.013f + 1e-3f, 1e-7f);
  settings.selfContact.layerOffset = 0.002f;
  expectOffsets(settings.bodyContactOffsets(5), {0.009f, 0.005f, 0.007f, 0.007f, 0.005f});
  settings.selfContact.layerOffset = 0.06f;
  EXPECT_FALSE(settings.validate());
  settings.selfContact.layerOffset.reset();
  settings.selfContact.layerOfVertex = {2, 2, 2, 2, 2};
  expectOffsets(settings.bodyContactOffsets(5), std::vector<float>(5, 0.005f));
  settings.selfContact.layerOfVertex = {7, 0, 3, 3, 0};
  settings.selfContact.enabled = false;
  expectOffsets(settings.bodyContactOffsets(5), std::vector<float>(5, 0.005f));
}

// Three sheets on three layers dropped side by side onto the ground rest at 4, 8 and
// 12 mm: the contact offset plus one layer offset (thickness 3 mm + 1 mm) per layer.
TEST_P(SelfContactTest, SheetsOnThreeLayersRestOneLayerOffsetApartOnTheGround) {
  ClothSettings settings;
  const auto model = test::sheetsOnThreeLayers(settings, GetParam());
  const auto run = simulate(model, settings, glm::vec3(0.0f), 20);
  const std::vector<float> heights = test::sheetHeights(run.last);
  EXPECT_NEAR(heights[0], 0.004f, 2e-4f);
  EXPECT_NEAR(heights[1], 0.008f, 2e-4f);
  EXPECT_NEAR(heights[2], 0.012f, 2e-4f);
}

TEST(SelfContactUntangling, AnOuterLayerStartedThroughTheInnerOneIsPushedOutAndReported) {
  ClothSettings settings = contactSettings(true, ClothIntegrator::ProjectiveJacobi, glm::vec3(0.0f));
  const auto model = test::tangledLayers(settings);
  ASSERT_GT(countSelfIntersections(restState(*model).positions, model->triangles), 0u);
  const auto run = simulate(model, settings, glm::vec3(0.0f), 30);
  EXPECT_EQ(countSelfIntersections(run.last.positions, model->triangles), 0u);
  EXPECT_GT(lowestFree(run.last), 1.0f);
  ASSERT_TRUE(run.report);
  EXPECT_GT(run.report->firstFramePairs, 0u);
  EXPECT_GT(run.report->untangledAtFrame, 0);
  EXPECT_LT(run.report->untangledAtFrame, 30);
  EXPECT_EQ(run.report->frames, 30);
}

/// A vertex of a triangle tangled with another of its own layer, moved 3 cm up within
/// one substep toward a triangle 1 cm above it: where that triangle is on another layer the
/// vertex is still bounded by it (it untangles within its own layer only) and stops
/// short of it; where it is on the same layer the vertex moves free.
float untanglingVertexEnd(bool aboveIsAnotherLayer) {
  ClothModel model;
  model.restPositions = {
      {0.0f, 0.0f, 0.0f, 1.0f},  {1.0f, 0.0f, 0.0f, 1.0f},  {0.0f, 0.0f, 1.0f, 1.0f},    // flat, layer 0
      {0.2f, -0.1f, 0.2f, 1.0f}, {0.25f, 0.1f, 0.2f, 1.0f}, {0.2f, 0.1f, 0.25f, 1.0f},   // through it, layer 0
      {0.1f, 0.11f, 0.1f, 1.0f}, {0.5f, 0.11f, 0.1f, 1.0f}, {0.1f, 0.11f, 0.5f, 1.0f}};  // above, layer 0 or 1
  model.triangles = {0, 2, 1, 3, 4, 5, 6, 8, 7};
  SelfContactSettings settings;
  settings.enabled = true;
  settings.layerOfVertex = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  if (aboveIsAnotherLayer) settings.layerOfVertex = {0, 0, 0, 0, 0, 0, 1, 1, 1};
  SelfContact contact(model, settings);
  const std::vector<glm::vec4> start = model.restPositions;
  contact.beginFrame(start);
  EXPECT_EQ(contact.tangles().size(), 1u);
  EXPECT_EQ(contact.tangledVertices()[4], HG_TANGLED_WITHIN_LAYER);
  EXPECT_EQ(contact.tangledVertices()[6], 0u);
  std::vector<glm::vec4> positions = start, velocities(start.size(), glm::vec4(0.0f));
  positions[4].y += 0.03f;
  contact.apply(start, positions, velocities, 1.0f / 480.0f);
  return positions[4].y;
}

TEST(SelfContactUntangling, AVertexUntanglingWithinItsLayerIsStillBoundedByAnotherLayer) {
  const float acrossLayers = untanglingVertexEnd(true);
  EXPECT_LT(acrossLayers, 0.11f - 0.5f * SelfContactSettings{}.thickness);  // stopped under the other layer
  EXPECT_GE(acrossLayers, 0.1f);
  const float withinLayer = untanglingVertexEnd(false);
  EXPECT_GT(withinLayer, 0.11f);  // free: through the triangle of its own layer
}

// Both backends' tangle search keeps the edge-triangle pairs that
// kernels::segmentMayCrossTriangle keeps (SelfContactCandidates::tangleCandidates,
// self_contact_tangles.comp); on a tangled cloth, with a coplanar pair, a vertex on a face
// and edges crossing on an edge, the exact test among the triangle pairs they name finds
// every intersecting pair that testing all pairs finds, from a small share of all
// edge-triangle pairs; the grid's candidates are those of brute force, for 1 and 2 threads.
TEST(SelfContactTangleSearch, TheFilteredExactTestFindsEveryTangle) {
  const test::TangledCloth c = test::tangledCloth();
  SelfContact full(*c.model, SelfContactSettings{});
  full.beginFrame(c.x);
  const std::vector<std::array<std::uint32_t, 2>> exact = intersectingTrianglePairs(c.x, full.triangles());
  ASSERT_GT(exact.size(), 50u);
  const std::vector<std::array<std::uint32_t, 2>> fromGrid(full.tangles().begin(), full.tangles().end());
  EXPECT_EQ(fromGrid, exact);
  const std::uint32_t specialCases = std::uint32_t(c.model->triangles.size() / 3) - 6;
  EXPECT_EQ(std::count_if(exact.begin(), exact.end(), [&](const auto& p) { return p[0] >= specialCases; }), 3);

  const std::span<const std::uint32_t> triangles = full.triangles();
  std::vector<glm::uvec2> candidates;
  std::size_t tested = 0;
  for (std::uint32_t e = 0; e < full.edges().size(); ++e) {
    const glm::uvec2 edge = full.edges()[e];
    for (std::uint32_t t = 0; 3 * t < triangles.size(); ++t) {
      const std::uint32_t* v = triangles.data() + 3 * std::size_t(t);
      if (std::find(v, v + 3, edge.x) != v + 3 || std::find(v, v + 3, edge.y) != v + 3) continue;
      ++tested;
      if (kernels::segmentMayCrossTriangle(glm::vec3(c.x[edge.x]), glm::vec3(c.x[edge.y]), glm::vec3(c.x[v[0]]),
                                           glm::vec3(c.x[v[1]]), glm::vec3(c.x[v[2]])))
        candidates.emplace_back(e, t);
    }
  }
  SelfContact filtered(*c.model, SelfContactSettings{});
  filtered.beginFrame(c.x, candidates);
  const std::vector<std::array<std::uint32_t, 2>> found(filtered.tangles().begin(), filtered.tangles().end());
  EXPECT_EQ(found, exact);
  EXPECT_EQ(filtered.report().firstFramePairs, exact.size());
  EXPECT_LT(candidates.size(), tested / 50) << "the filter keeps too much to be worth it";
  const ContactTopology topology = ContactTopology::of(c.model->triangles, c.model->vertexCount());
  EXPECT_EQ(SelfContactCandidates::tangleCandidates(topology, c.x, 1), candidates);
  EXPECT_EQ(SelfContactCandidates::tangleCandidates(topology, c.x, 2), candidates);
  std::printf("[ tangles ] %zu intersecting pairs; %zu of %zu edge-triangle pairs kept\n", exact.size(),
              candidates.size(), tested);
}

TEST(SelfContactDeterminism, OneAndTwoThreadsAreBitwiseIdentical) {
  // 2 x 1296 vertices: above the solvers' parallel threshold.
  const auto model = test::clothOfParts(
      {test::squareSheetMesh(36, 0.6f, {0, 1, 0}), test::squareSheetMesh(36, 0.6f, {0.008f, 1.012f, 0.008f})});
  ClothState last[2];
  for (int threads : {1, 2}) {
    ClothSettings settings = contactSettings(true, ClothIntegrator::ProjectiveJacobi, {0.0f, -30.0f, 0.0f});
    settings.threads = threads;
    last[threads - 1] = simulate(model, settings, glm::vec3(0.0f), 5).last;
  }
  ASSERT_EQ(last[0].positions.size(), last[1].positions.size());
  EXPECT_EQ(
      std::memcmp(last[0].positions.data(), last[1].positions.data(), last[0].positions.size() * sizeof(glm::vec4)), 0);
  EXPECT_EQ(
      std::memcmp(last[0].velocities.data(), last[1].velocities.data(), last[0].velocities.size() * sizeof(glm::vec4)),
      0);
}

}  // namespace
}  // namespace hg
