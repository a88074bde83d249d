// Placement: every panel vertex starts outside a closed body with the clearance, front
// panels in front, back panels behind, sleeves along the arms, in T- and A-pose.
#include <cmath>

#include <gtest/gtest.h>

#include "sim/garment/Patterns.h"
#include "sim/garment/Placement.h"
#include "sim/geometry/CgalGeometry.h"
#include "tests/garment/GarmentFixtures.h"

namespace hg {
namespace {

class Poses : public ::testing::TestWithParam<float> {};

TEST_P(Poses, NoPanelVertexStartsInsideTheBody) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, GetParam());
  const TriangleMesh body = test::syntheticBody(s, frame);
  auto query = cgal::ClosedMeshQuery::create(body);
  ASSERT_TRUE(query.ok()) << query.error().message;
  ASSERT_EQ(query->componentCount(), 6u);
  // The inside test itself: the torso centre is inside, a point 1 m in front is not.
  EXPECT_TRUE(query->inside({0.0f, s.chestHeight, 0.0f}));
  EXPECT_FALSE(query->inside({0.0f, s.chestHeight, 1.0f}));
  EXPECT_TRUE(query->inside(0.5f * (frame.leftElbow + frame.leftWrist)));

  PlacementOptions options;
  options.clearance = 0.01f;
  MeshingOptions meshing;
  meshing.targetEdgeLength = 0.025f;
  for (auto pattern : {tShirt(s), skirt(s), trousers(s), dress(s)}) {
    ASSERT_TRUE(pattern.ok()) << pattern.error().message;
    auto meshes = meshPattern(*pattern, meshing);
    ASSERT_TRUE(meshes.ok()) << meshes.error().message;
    auto placed = placePattern(*pattern, *meshes, s, frame, body, options);
    ASSERT_TRUE(placed.ok()) << placed.error().message;
    std::size_t count = 0;
    float clearance = 1e9f;
    for (std::size_t p = 0; p < pattern->panels.size(); ++p) {
      const auto& positions = placed->panelPositions[p];
      ASSERT_EQ(positions.size(), meshes->panels[p].mesh.positions.size());
      glm::vec3 centroid(0.0f);
      for (const glm::vec3& x : positions) {
        EXPECT_FALSE(query->inside(x)) << pattern->panels[p].name;
        clearance = std::min(clearance, glm::distance(x, query->closestPoint(x)));
        centroid += x / float(positions.size());
      }
      count += positions.size();
      const BodyRegion r = pattern->panels[p].region;
      if (r == BodyRegion::TorsoFront) {
        EXPECT_GT(centroid.z, 0.05f) << pattern->panels[p].name;
      }
      if (r == BodyRegion::TorsoBack) {
        EXPECT_LT(centroid.z, -0.05f) << pattern->panels[p].name;
      }
      if (r == BodyRegion::LeftArm) {
        EXPECT_GT(centroid.x, frame.leftShoulder.x) << pattern->panels[p].name;
      }
      if (r == BodyRegion::RightArm) {
        EXPECT_LT(centroid.x, frame.rightShoulder.x) << pattern->panels[p].name;
      }
      if (r == BodyRegion::LeftLegFront || r == BodyRegion::LeftLegBack) {
        EXPECT_GT(centroid.x, 0.0f) << pattern->panels[p].name;
      }
      if (r == BodyRegion::RightLegFront || r == BodyRegion::RightLegBack) {
        EXPECT_LT(centroid.x, 0.0f) << pattern->panels[p].name;
      }
    }
    EXPECT_GE(clearance, options.clearance - 1e-4f) << pattern->name;
    EXPECT_NEAR(placed->minClearance, clearance, 1e-5f);
    std::printf("[ placement ] arms %2.0f deg %-8s %zu vertices, min clearance %.4f m, %d pushed out\n",
                double(GetParam()), pattern->name.c_str(), count, double(placed->minClearance), placed->pushedVertices);
  }
}

INSTANTIATE_TEST_SUITE_P(TAndA, Poses, ::testing::Values(0.0f, 45.0f));

TEST(Placement, RejectsABodyThatIsNotClosed) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s);
  TriangleMesh body = test::syntheticBody(s, frame);
  body.indices.resize(body.indices.size() - 3);  // one hole
  auto pattern = skirt(s);
  ASSERT_TRUE(pattern.ok());
  auto meshes = meshPattern(*pattern);
  ASSERT_TRUE(meshes.ok());
  auto placed = placePattern(*pattern, *meshes, s, frame, body);
  ASSERT_FALSE(placed.ok());
  EXPECT_NE(placed.error().message.find("not closed"), std::string::npos) << placed.error().message;
}

}  // namespace
}  // namespace hg
