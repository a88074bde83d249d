// Sphere trees against OBBs (sim/spheretree/SphereTreeObb.h; docs/methods.md sections 6 and 7):
// the branch-and-bound minimum of (section 7's box-to-centre distance - radius) over the
// leaves against brute force over every leaf, for random trees, poses and boxes; the
// yes/no OBB-sphere test against brute force; and a filled icosphere against a box,
// within about a voxel of the analytic sphere-box distance.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/core/TriangleMesh.h"
#include "sim/geometry/Obb.h"
#include "sim/spheretree/SphereTreeObb.h"
#include "tests/support/RandomFixtures.h"

namespace hg {
namespace {

using test::randomRotation;

Obb randomBox(std::mt19937& rng, float reach, float maxHalf) {
  std::uniform_real_distribution<float> u(-reach, reach), h(0.0f, maxHalf);
  const glm::mat3 r = randomRotation(rng);
  Obb box;
  box.centre = {u(rng), u(rng), u(rng)};
  box.axes = {r[0], r[1], r[2]};
  box.halfLengths = {h(rng), h(rng), h(rng)};
  return box;
}

/// Brute force over every leaf in world coordinates: min of distance(centre) - radius.
std::pair<float, std::uint32_t> bruteForce(const SphereTree& tree, const RigidPose& pose, const Obb& box) {
  float best = std::numeric_limits<float>::infinity();
  std::uint32_t leaf = 0;
  for (std::size_t i = 0; i < tree.spheres().size(); ++i) {
    const glm::vec4 s = tree.spheres()[i];
    const glm::vec3 c = pose.rotation * glm::vec3(s) + pose.translation;
    const float d = box.distance(c) - s.w;
    if (d < best) best = d, leaf = std::uint32_t(i);
  }
  return {best, leaf};
}

void checkAgainstBruteForce(const SphereTree& tree, std::mt19937& rng, int cases, float reach, float maxHalf) {
  std::uniform_real_distribution<float> u(-reach, reach);
  int overlaps = 0, apart = 0;
  for (int c = 0; c < cases; ++c) {
    RigidPose pose;
    pose.rotation = randomRotation(rng);
    pose.translation = {u(rng), u(rng), u(rng)};
    const Obb box = randomBox(rng, 2.0f * reach, maxHalf);
    const auto [expected, leaf] = bruteForce(tree, pose, box);
    const SphereTreeObbHit hit = obbDistance(tree, pose, box);
    // The same minimum (the tree works in its own frame: float rounding of the transform).
    ASSERT_NEAR(hit.distance, expected, 2e-6f * std::max(1.0f, std::abs(expected))) << "case " << c;
    // The leaf it names attains it.
    const glm::vec4 s = tree.spheres()[hit.leaf];
    EXPECT_NEAR(box.distance(pose.rotation * glm::vec3(s) + pose.translation) - s.w, expected, 2e-6f) << "case " << c;
    EXPECT_LE(hit.nodesVisited, tree.nodes().size());
    (void)leaf;
    // Yes/no: some leaf's OBB-sphere test passes (away from the boundary, where the frame's
    // rounding could decide either way).
    if (std::abs(expected) > 1e-5f) {
      bool any = false;
      for (const glm::vec4& t : tree.spheres())
        any = any || box.overlapsSphere(pose.rotation * glm::vec3(t) + pose.translation, t.w);
      EXPECT_EQ(obbOverlaps(tree, pose, box), any) << "case " << c;
      EXPECT_EQ(any, expected < 0.0f) << "case " << c;
      (any ? overlaps : apart) += 1;
    }
  }
  // Both answers occur.
  EXPECT_GT(overlaps, cases / 20);
  EXPECT_GT(apart, cases / 20);
}

TEST(SphereTreeObb, RandomSpheresMatchBruteForceOverEveryLeaf) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f), r(0.002f, 0.04f);
  std::vector<glm::vec4> spheres;
  for (int i = 0; i < 1234; ++i) spheres.emplace_back(u(rng), u(rng), u(rng), r(rng));
  auto tree = SphereTree::build(spheres);
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  checkAgainstBruteForce(*tree, rng, 400, 0.2f, 0.12f);
}

TEST(SphereTreeObb, FilledBottleMatchesBruteForceOverEveryLeaf) {
  auto tree = SphereTree::fromMesh(makeBottle(glm::vec3(0.0f, -0.15f, 0.0f), 0.3f), 64, "bottle");
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  ASSERT_GT(tree->spheres().size(), 500u);
  std::mt19937 rng(11);
  checkAgainstBruteForce(*tree, rng, 300, 0.12f, 0.06f);
  // A flat box (a zero half length) and a box swallowing the bottle.
  RigidPose pose;
  Obb flat;
  flat.centre = {0.2f, 0.0f, 0.0f};
  flat.halfLengths = {0.0f, 0.05f, 0.05f};
  EXPECT_NEAR(obbDistance(*tree, pose, flat).distance, bruteForce(*tree, pose, flat).first, 2e-6f);
  Obb all;
  all.halfLengths = glm::vec3(0.5f);
  EXPECT_TRUE(obbOverlaps(*tree, pose, all));
  EXPECT_NEAR(obbDistance(*tree, pose, all).distance, bruteForce(*tree, pose, all).first, 2e-6f);
}

TEST(SphereTreeObb, FilledIcosphereAgainstABoxWithinAVoxelOfTheAnalyticDistance) {
  const float radius = 0.1f;
  const glm::vec3 centre(0.01f, -0.02f, 0.03f);
  auto tree = SphereTree::fromMesh(makeIcosphere(centre, radius, 5), 64, "icosphere");
  ASSERT_TRUE(tree.ok()) << tree.error().message;
  const float voxel = tree->voxel();
  ASSERT_GT(voxel, 0.0f);
  // Placed by a rotation about the sphere's centre and a shift: the analytic sphere moves
  // to rotation (centre) + shift.
  std::mt19937 rng(3);
  int overlapping = 0, separate = 0;
  float worstApart = 0.0f, worstOverlap = 0.0f;
  for (int c = 0; c < 200; ++c) {
    RigidPose pose;
    pose.rotation = randomRotation(rng);
    pose.translation = {0.05f, 0.0f, -0.02f};
    const glm::vec3 world = pose.rotation * centre + pose.translation;
    const Obb box = randomBox(rng, 0.2f, 0.08f);
    const float analytic = box.distance(world) - radius;  // the sphere's exact gap (< 0: overlap depth at the centre)
    const SphereTreeObbHit hit = obbDistance(*tree, pose, box);
    if (analytic > 0.0f) {
      // Apart: the gap to the union of spheres is the sphere's gap within a voxel.
      EXPECT_NEAR(hit.distance, analytic, voxel) << "case " << c << ", voxel " << voxel;
      worstApart = std::max(worstApart, std::abs(hit.distance - analytic));
    } else {
      // Overlapping: the penetration estimate (the deepest leaf's overlap) is never deeper
      // than the ball's by more than a voxel, and the leaves (radius up to a voxel and a
      // half short of the ball's at 64 voxels) make it up to a few voxels shallower.
      EXPECT_GE(hit.distance, analytic - voxel) << "case " << c;
      EXPECT_LE(hit.distance, analytic + 3.0f * voxel) << "case " << c;
      worstOverlap = std::max(worstOverlap, std::abs(hit.distance - analytic));
    }
    if (analytic < -voxel) {
      EXPECT_TRUE(obbOverlaps(*tree, pose, box)) << "case " << c;
      ++overlapping;
    } else if (analytic > voxel) {
      EXPECT_FALSE(obbOverlaps(*tree, pose, box)) << "case " << c;
      ++separate;
    }
  }
  EXPECT_GT(overlapping, 20);
  EXPECT_GT(separate, 20);
  std::printf("icosphere r = %.3f m, voxel %.2f mm: largest error apart %.2f mm, overlapping %.2f mm\n", radius,
              1e3 * voxel, 1e3 * worstApart, 1e3 * worstOverlap);
}

}  // namespace
}  // namespace hg
