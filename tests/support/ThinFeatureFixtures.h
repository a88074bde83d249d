#pragma once
// A fingertip-sized capsule that has come up through the middle of a coarse cloth square,
// between its vertices (tests/contact/ThinFeatureTest.cpp and ThinFeatureGLTest.cpp).
#include <memory>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/contact/BodyVertexGrid.h"
#include "sim/contact/DepthViews.h"
#include "sim/geometry/TriangleIntersections.h"

namespace hg::test {

/// The capsule's top, m.
constexpr float kFingerTop = 0.1f + 0.007f;

struct FingerThroughSheet {
  TriangleMesh finger;  ///< radius 7 mm, axis from y = 0 to 0.1 m
  std::shared_ptr<const ClothModel> model;
  ClothSettings settings;
};

/// The sheet (6 cm, edges 2 cm, no gravity) lies `poke` m below the finger's top, the tip
/// inside one triangle; the finger is seen through 1 mm depth views, with the body-vertex
/// grid when `thinFeatures`.
inline FingerThroughSheet fingerThroughSheet(float poke, bool thinFeatures, ClothIntegrator integrator) {
  FingerThroughSheet f;
  f.finger = makeCapsule({0.0f, 0.0f, 0.0f}, {0.0f, 0.1f, 0.0f}, 0.007f, 6, 16);
  auto sheet = makeSquareSheet({4, 0.06f, {0.0025f, kFingerTop - poke, 0.0015f}});
  EXPECT_TRUE(sheet);
  auto model = buildClothModel(*sheet, ClothMaterial{});
  EXPECT_TRUE(model);
  f.model = std::make_shared<const ClothModel>(std::move(model).value());
  DepthViewOptions options;
  options.texelSize = 0.001f;
  auto setup = makeDepthViewSetup(f.finger, options);
  EXPECT_TRUE(setup);
  auto views = rasterizeDepthViews(f.finger, {}, *setup);
  EXPECT_TRUE(views);
  f.settings.colliders = ClothColliders{};
  f.settings.colliders.depthViews = std::make_shared<const DepthViewImages>(std::move(views).value());
  if (thinFeatures) f.settings.colliders.bodyVertices = buildBodyVertexGrid(f.finger).value();
  f.settings.gravity = glm::vec3(0.0f);
  f.settings.contactOffset = 0.002f;
  f.settings.integrator = integrator;
  f.settings.substeps = integrator == ClothIntegrator::ProjectiveJacobi ? 10 : 0;  // 0: the stable count
  return f;
}

/// Intersecting pairs of cloth triangles with the finger's triangles (exact).
inline std::size_t clothFingerCrossings(const FingerThroughSheet& f, const ClothState& state) {
  std::vector<glm::vec4> positions = state.positions;
  std::vector<std::uint32_t> triangles = f.model->triangles, groups(f.model->triangles.size() / 3, 0u);
  const auto offset = std::uint32_t(positions.size());
  for (const glm::vec3& p : f.finger.positions) positions.emplace_back(p, 1.0f);
  for (std::uint32_t i : f.finger.indices) triangles.push_back(offset + i);
  groups.resize(triangles.size() / 3, 1u);
  return countIntersectionsByGroup(positions, triangles, groups, 2).between(0, 1);
}

}  // namespace hg::test
