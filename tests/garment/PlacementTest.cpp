// Placement: every panel vertex starts outside the body (closed, or open and tested by its
// winding number) with the clearance, front
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

// An outer layer (PlacementOptions::radialOffset) wraps the same bones on surfaces larger by
// the offset. With nothing to push out of (a small body far below): a torso vertex lies on
// the torso ellipse of its height grown by the offset (half-width a + offset, the depth in
// proportion, so it contains the inner one), a sleeve vertex on the upper arm is the offset
// further from the bone, and heights do not change. (A clearance grown by the offset
// instead moved only the vertices near the body, in steps: the top of
// scenes/layered_jacket_over_tshirt.json then sewed in 309 frames with a sleeve pulled into
// the torso.)
TEST(Placement, ARadialOffsetGrowsEveryWrappingSurfaceByTheOffset) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, 45.0f);
  const TriangleMesh farBody = makeIcosphere({0.0f, -5.0f, 0.0f}, 0.05f, 1);
  auto pattern = tShirt(s);
  ASSERT_TRUE(pattern.ok()) << pattern.error().message;
  MeshingOptions meshing;
  meshing.targetEdgeLength = 0.03f;
  auto meshes = meshPattern(*pattern, meshing);
  ASSERT_TRUE(meshes.ok()) << meshes.error().message;
  PlacementOptions inner, outer;
  outer.radialOffset = 0.025f;
  auto a = placePattern(*pattern, *meshes, s, frame, farBody, inner);
  auto b = placePattern(*pattern, *meshes, s, frame, farBody, outer);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->pushedVertices, 0);
  EXPECT_EQ(b->pushedVertices, 0);
  // The half-width of the torso ellipse through x (relative to the torso axis).
  const auto halfWidth = [&](glm::vec3 x) {
    const glm::vec2 d = glm::vec2(x.x, x.z) - frame.torsoAxis;
    return std::sqrt(d.x * d.x + (d.y / frame.torsoDepthRatio) * (d.y / frame.torsoDepthRatio));
  };
  // Distance from the line through the shoulder and elbow, and where x projects on it (0 at
  // the shoulder, 1 at the elbow).
  const auto fromUpperArm = [](glm::vec3 x, glm::vec3 sh, glm::vec3 el) {
    const glm::vec3 bone = el - sh;
    const float t = glm::dot(x - sh, bone) / glm::dot(bone, bone);
    return std::pair{glm::distance(x, sh + t * bone), t};
  };
  int torso = 0, sleeve = 0;
  for (std::size_t p = 0; p < pattern->panels.size(); ++p) {
    const BodyRegion r = pattern->panels[p].region;
    const std::string& name = pattern->panels[p].name;
    for (std::size_t v = 0; v < a->panelPositions[p].size(); ++v) {
      const glm::vec3 x = a->panelPositions[p][v], y = b->panelPositions[p][v];
      if (r == BodyRegion::TorsoFront || r == BodyRegion::TorsoBack) {
        EXPECT_NEAR(y.y, x.y, 1e-6f) << name << " vertex " << v;
        EXPECT_NEAR(halfWidth(y) - halfWidth(x), outer.radialOffset, 1e-4f) << name << " vertex " << v;
        ++torso;
      } else if (r == BodyRegion::LeftArm || r == BodyRegion::RightArm) {
        const bool left = r == BodyRegion::LeftArm;
        const glm::vec3 sh = left ? frame.leftShoulder : frame.rightShoulder;
        const glm::vec3 el = left ? frame.leftElbow : frame.rightElbow;
        const auto [d0, t0] = fromUpperArm(x, sh, el);
        const auto [d1, t1] = fromUpperArm(y, sh, el);
        if (t0 < 0.05f || t0 > 0.95f) continue;  // the cap and the elbow: other axis points
        EXPECT_NEAR(t1, t0, 1e-4f) << name << " vertex " << v;
        EXPECT_NEAR(d1 - d0, outer.radialOffset, 1e-4f) << name << " vertex " << v;
        ++sleeve;
      }
    }
  }
  EXPECT_GT(torso, 100);
  EXPECT_GT(sleeve, 30);
  outer.radialOffset = -0.01f;
  EXPECT_FALSE(placePattern(*pattern, *meshes, s, frame, farBody, outer).ok());
}

TEST(Placement, AroundABodyWithHolesTheInsideIsTheWindingNumbers) {
  // A scan-like body: holes in the torso. Its open component is tested by the generalised
  // winding number (Jacobson et al. 2013), which agrees with the closed body's exact test.
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s);
  const TriangleMesh closed = test::syntheticBody(s, frame);
  TriangleMesh body = closed;
  for (int hole = 0; hole < 3; ++hole)
    body.indices.erase(body.indices.begin() + 3 * (100 + 40 * hole), body.indices.begin() + 3 * (101 + 40 * hole));
  auto exact = cgal::ClosedMeshQuery::create(closed);
  auto open = cgal::ClosedMeshQuery::create(body);
  ASSERT_TRUE(exact.ok() && open.ok()) << (open.ok() ? exact.error().message : open.error().message);
  EXPECT_EQ(exact->openComponentCount(), 0u);
  EXPECT_GE(open->openComponentCount(), 1u);
  int disagree = 0;
  for (int i = 0; i < 400; ++i) {  // a grid of points through the torso and arms
    const glm::vec3 q(-0.8f + 1.6f * float(i % 20) / 19.0f, s.chestHeight - 0.2f + 0.4f * float(i / 20) / 19.0f, 0.02f);
    disagree += exact->inside(q) != open->inside(q) ? 1 : 0;
  }
  EXPECT_EQ(disagree, 0);
  auto pattern = skirt(s);
  ASSERT_TRUE(pattern.ok());
  auto meshes = meshPattern(*pattern);
  ASSERT_TRUE(meshes.ok());
  auto placed = placePattern(*pattern, *meshes, s, frame, body);
  ASSERT_TRUE(placed.ok()) << placed.error().message;
  for (const auto& positions : placed->panelPositions)
    for (const glm::vec3& x : positions) EXPECT_FALSE(exact->inside(x));
}

}  // namespace
}  // namespace hg
