#pragma once
// A fingertip-sized capsule that has come up through the middle of a coarse cloth square,
// between its vertices, or a square pressed into its flank (tests/contact/ThinFeatureTest.cpp and
// ThinFeatureGLTest.cpp).
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

/// `finger` and `sheet` (no gravity) as a FingerThroughSheet: the finger is seen through
/// 1 mm depth views, with the body-vertex grid when `thinFeatures`.
inline FingerThroughSheet sheetAroundFinger(TriangleMesh finger, const TriangleMesh& sheet, bool thinFeatures,
                                            ClothIntegrator integrator) {
  FingerThroughSheet f;
  f.finger = std::move(finger);
  auto model = buildClothModel(sheet, ClothMaterial{});
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

/// The sheet (6 cm, edges 2 cm) lies `poke` m below the finger's top, the tip inside one
/// triangle.
inline FingerThroughSheet fingerThroughSheet(float poke, bool thinFeatures, ClothIntegrator integrator) {
  auto sheet = makeSquareSheet({4, 0.06f, {0.0025f, kFingerTop - poke, 0.0015f}});
  EXPECT_TRUE(sheet);
  return sheetAroundFinger(makeCapsule({0.0f, 0.0f, 0.0f}, {0.0f, 0.1f, 0.0f}, 0.007f, 6, 16), *sheet, thinFeatures,
                           integrator);
}

/// The same sheet upright in the plane x = `depth` - 7 mm, pressed `depth` m into the -x
/// flank of a finger with vertices all along it (a cylinder of radius 7 mm along y from 0
/// to 0.1 m, rings 5 mm apart): the finger's axis passes inside one triangle (its vertices
/// are outside the finger), the near flank is `depth` behind the sheet and the far flank's
/// vertices, facing +x, within the thin-feature reach (1 cm) beyond it.
inline FingerThroughSheet sheetPressedIntoFlank(float depth, ClothIntegrator integrator) {
  TriangleMesh finger = makeCylinder(0.1f, 0.007f, 21, 16);
  for (glm::vec3& p : finger.positions) p = glm::vec3(-p.y, p.x, p.z);  // +x to +y: a turn about z
  for (glm::vec3& n : finger.normals) n = glm::vec3(-n.y, n.x, n.z);
  auto sheet = makeSquareSheet({4, 0.06f, {0.0f, 0.0f, 0.0f}});
  EXPECT_TRUE(sheet);
  for (glm::vec3& p : sheet->positions) p = glm::vec3(depth - 0.007f, 0.05f + p.x, p.z);
  return sheetAroundFinger(std::move(finger), *sheet, true, integrator);
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
