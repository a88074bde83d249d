// Sphere trees (sim/spheretree/SphereTree.h; docs/methods.md section 6): the octree's
// invariants and the queries against brute force over random rigid poses. The filling and
// its quality are in SphereTreeTest.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/matrix.hpp>

#include "sim/kernels/Kernels.h"
#include "sim/spheretree/SphereTree.h"
#include "tests/support/RandomFixtures.h"

namespace hg {
namespace {

// ---------------------------------------------------------------------------------------
// Helpers

using test::randomRotation;

/// b's sphere in a's frame, computed exactly as SphereTree.cpp's collide/distance do (so
/// the brute force sees the same rounded spheres).
struct RelativePose {
  glm::mat3 m{1.0f};
  glm::vec3 t{0.0f};
  RelativePose(const RigidPose& a, const RigidPose& b) {
    const glm::mat3 toA = glm::transpose(a.rotation);
    m = toA * b.rotation;
    t = toA * (b.translation - a.translation);
  }
  glm::vec4 operator()(glm::vec4 s) const { return glm::vec4(m * glm::vec3(s) + t, s.w); }
};

/// Leaf sphere indices in tree order (the leaves' links.z).
std::vector<std::uint32_t> leafSpheres(const SphereTree& tree) {
  std::vector<std::uint32_t> out;
  for (const auto& n : tree.nodes())
    if (n.links.y == 0u) out.push_back(n.links.z);
  return out;
}

// ---------------------------------------------------------------------------------------
// Octree invariants

void expectOctreeInvariants(const SphereTree& tree) {
  const auto& nodes = tree.nodes();
  const auto& spheres = tree.spheres();
  ASSERT_FALSE(nodes.empty());
  std::vector<int> parent(nodes.size(), -1);
  std::vector<int> leafCount(spheres.size(), 0);
  int maxDepth = 0;
  std::size_t badContain = 0, badCentre = 0, loose = 0;
  EXPECT_EQ(nodes[0].links.w, 0u);
  for (std::size_t q = 0; q < nodes.size(); ++q) {
    const kernels::SphereTreeNode& n = nodes[q];
    maxDepth = std::max(maxDepth, int(n.links.w));
    if (n.links.y == 0u) {
      EXPECT_NE(n.links.z, HG_SPHERE_TREE_INNER);
      ASSERT_LT(n.links.z, spheres.size());
      ++leafCount[n.links.z];
      EXPECT_EQ(n.sphere, spheres[n.links.z]);
      continue;
    }
    EXPECT_EQ(n.links.z, HG_SPHERE_TREE_INNER);
    // An inner node has 2..8 children (a cell with one occupied octant is merged into it),
    // stored contiguously after it (breadth first).
    EXPECT_GE(n.links.y, 2u);
    EXPECT_LE(n.links.y, 8u);
    EXPECT_GT(n.links.x, q);
    ASSERT_LE(std::size_t(n.links.x) + n.links.y, nodes.size());
    glm::vec3 cmin(std::numeric_limits<float>::max()), cmax(-std::numeric_limits<float>::max());
    double tightest = 0.0;
    for (std::uint32_t c = n.links.x; c < n.links.x + n.links.y; ++c) {
      EXPECT_EQ(parent[c], -1) << "node " << c << " has two parents";
      parent[c] = int(q);
      EXPECT_EQ(nodes[c].links.w, n.links.w + 1);
      const glm::vec4 child = nodes[c].sphere;
      cmin = glm::min(cmin, glm::vec3(child));
      cmax = glm::max(cmax, glm::vec3(child));
      const double reach = glm::length(glm::dvec3(glm::vec3(child)) - glm::dvec3(glm::vec3(n.sphere))) + child.w;
      tightest = std::max(tightest, reach);
      badContain += reach > double(n.sphere.w) * (1.0 + 1e-6);
    }
    // The source's rule: the centre of the box of the children's centres; the radius
    // reaches the far side of the farthest child (tight up to the build's rounding margin).
    const glm::vec3 mid = 0.5f * (cmin + cmax);
    badCentre += glm::length(mid - glm::vec3(n.sphere)) > 1e-6f * n.sphere.w;
    loose += double(n.sphere.w) > tightest * (1.0 + 1e-5);
  }
  EXPECT_EQ(badContain, 0u);
  EXPECT_EQ(badCentre, 0u);
  EXPECT_EQ(loose, 0u);
  EXPECT_EQ(maxDepth, tree.depth());
  for (std::size_t q = 1; q < nodes.size(); ++q) EXPECT_NE(parent[q], -1) << "node " << q << " unreachable";
  std::size_t notOnce = 0;
  for (int c : leafCount) notOnce += c != 1;
  EXPECT_EQ(notOnce, 0u);
  // The root bounds every leaf directly too.
  std::size_t outsideRoot = 0;
  const glm::vec4 root = tree.root().sphere;
  for (const glm::vec4& s : spheres)
    outsideRoot += glm::length(glm::dvec3(glm::vec3(s)) - glm::dvec3(glm::vec3(root))) + s.w > root.w * (1.0 + 1e-6);
  EXPECT_EQ(outsideRoot, 0u);
}

TEST(SphereTreeOctree, Invariants) {
  const TriangleMesh bottle = makeBottle({0.0f, 0.0f, 0.0f}, 0.3f);
  for (int resolution : {64, 128}) {
    SCOPED_TRACE("bottle at " + std::to_string(resolution));
    auto tree = SphereTree::fromMesh(bottle, resolution, "bottle");
    ASSERT_TRUE(tree.ok()) << tree.error().message;
    std::printf("[ octree ] bottle at %d: %zu spheres, %zu nodes, depth %d, root radius %.4f m\n", resolution,
                tree->spheres().size(), tree->nodes().size(), tree->depth(), tree->root().sphere.w);
    expectOctreeInvariants(*tree);
  }
  // Given spheres: random ones, coincident centres (the list split), a single sphere.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), r(0.0f, 0.2f);
  std::vector<glm::vec4> random;
  for (int i = 0; i < 500; ++i) random.emplace_back(u(rng), u(rng), u(rng), r(rng));
  for (int i = 0; i < 5; ++i) random.emplace_back(0.25f, 0.25f, 0.25f, 0.05f * float(i));
  for (const auto& [name, list] :
       {std::pair{"random", random}, std::pair{"single", std::vector<glm::vec4>{{1, 2, 3, 0.5f}}}}) {
    SCOPED_TRACE(name);
    auto tree = SphereTree::build(list);
    ASSERT_TRUE(tree.ok()) << tree.error().message;
    expectOctreeInvariants(*tree);
  }
}

// ---------------------------------------------------------------------------------------
// Queries against brute force

TEST(SphereTreeQueries, MatchBruteForceOverRandomPoses) {
  const TriangleMesh bottle = makeBottle({0.0f, 0.0f, 0.0f}, 0.3f);
  const TriangleMesh torus = makeTorus({0.0f, 0.0f, 0.0f}, 0.12f, 0.04f, 48, 24);
  auto a = SphereTree::fromMesh(bottle, 64, "bottle");
  auto b = SphereTree::fromMesh(torus, 48, "torus");
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  const std::vector<std::uint32_t> leavesA = leafSpheres(*a), leavesB = leafSpheres(*b);
  ASSERT_EQ(leavesA.size(), a->spheres().size());
  ASSERT_EQ(leavesB.size(), b->spheres().size());

  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> offset(-0.22f, 0.22f), unit(0.0f, 1.0f);
  int colliding = 0, nearTangentMismatches = 0;
  double worstDistanceError = 0.0;
  std::size_t pairsVisited = 0, pairsTotal = 0;
  const int poses = 60;
  for (int trial = 0; trial < poses; ++trial) {
    SCOPED_TRACE("pose " + std::to_string(trial));
    RigidPose pa, pb;
    pa.rotation = randomRotation(rng);
    pa.translation = glm::vec3(offset(rng), offset(rng), offset(rng));
    pb.rotation = randomRotation(rng);
    // b near a's bottle body (a's local y in 0..0.3 m): some poses collide, some not.
    pb.translation =
        pa.translation + pa.rotation * glm::vec3(0.0f, 0.15f, 0.0f) + glm::vec3(offset(rng), offset(rng), offset(rng));
    const RelativePose rel(pa, pb);
    // Brute force over all leaf pairs, in a's frame with the same rounding as the tree.
    std::set<std::pair<std::uint32_t, std::uint32_t>> overlapping;
    float deepest = 0.0f, minGap = std::numeric_limits<float>::infinity();
    for (std::uint32_t i = 0; i < a->spheres().size(); ++i)
      for (std::uint32_t j = 0; j < b->spheres().size(); ++j) {
        const glm::vec4 sa = a->spheres()[i], sb = rel(b->spheres()[j]);
        const float gap = kernels::sphereGap(sa, sb);
        minGap = std::min(minGap, gap);
        if (kernels::spheresOverlap(sa, sb)) {
          overlapping.emplace(i, j);
          deepest = std::max(deepest, -gap);
        }
      }
    const SphereTreeContact all = collide(*a, pa, *b, pb);
    std::set<std::pair<std::uint32_t, std::uint32_t>> found(all.leafPairs.begin(), all.leafPairs.end());
    EXPECT_EQ(found.size(), all.leafPairs.size()) << "a pair reported twice";
    // Pairs on which the two disagree must be tangent within rounding (none expected).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> differ;
    std::set_symmetric_difference(found.begin(), found.end(), overlapping.begin(), overlapping.end(),
                                  std::back_inserter(differ));
    for (const auto& [i, j] : differ) {
      const float gap = kernels::sphereGap(a->spheres()[i], rel(b->spheres()[j]));
      EXPECT_LT(std::abs(gap), 1e-6f) << "pair " << i << ", " << j << " gap " << gap;
      ++nearTangentMismatches;
    }
    EXPECT_EQ(all.colliding, !overlapping.empty());
    EXPECT_NEAR(all.penetration, deepest, 1e-6f);
    const SphereTreeContact first = collide(*a, pa, *b, pb, true);
    EXPECT_EQ(first.colliding, !overlapping.empty());
    EXPECT_LE(first.leafPairs.size(), 1u);
    if (first.colliding) {
      ASSERT_EQ(first.leafPairs.size(), 1u);
      EXPECT_EQ(overlapping.count(first.leafPairs[0]), 1u);
    }
    colliding += !overlapping.empty();
    std::size_t visited = 0;
    const float d = distance(*a, pa, *b, pb, &visited);
    const double err = std::abs(double(d) - double(minGap));
    worstDistanceError = std::max(worstDistanceError, err);
    EXPECT_LE(err, 1e-6 * std::max(1.0, std::abs(double(minGap))));
    if (!overlapping.empty()) {
      EXPECT_LT(d, 0.0f);
    }
    pairsVisited += visited;
    pairsTotal += a->spheres().size() * b->spheres().size();
  }
  std::printf(
      "[ queries ] bottle@64 (%zu spheres) vs torus@48 (%zu): %d of %d poses collide; collide() leaf pairs "
      "equal brute force (%d near-tangent differences); distance() max error %.3g m, %.4f %% of the leaf "
      "pairs visited\n",
      a->spheres().size(), b->spheres().size(), colliding, poses, nearTangentMismatches, worstDistanceError,
      100.0 * double(pairsVisited) / double(pairsTotal));
  EXPECT_GT(colliding, poses / 5);
  EXPECT_LT(colliding, poses - poses / 5);

  // Points: nearest() and contains() against brute force over the leaves.
  int ties = 0, insidePoints = 0;
  for (const SphereTree* tree : {&*a, &*b}) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec4& s : tree->spheres()) {
      lo = glm::min(lo, glm::vec3(s) - s.w);
      hi = glm::max(hi, glm::vec3(s) + s.w);
    }
    for (int trial = 0; trial < 20; ++trial) {
      RigidPose pose;
      pose.rotation = randomRotation(rng);
      pose.translation = glm::vec3(offset(rng), offset(rng), offset(rng));
      const kernels::SphereTreeInstance inst = sphereTreeInstance(*tree, pose, 0u);
      for (int k = 0; k < 100; ++k) {
        const glm::vec3 local = lo - 0.05f + (hi - lo + 0.1f) * glm::vec3(unit(rng), unit(rng), unit(rng));
        const glm::vec3 p = pose.rotation * local + pose.translation;
        const glm::vec3 back = kernels::sphereTreeToLocal(inst, p);
        float best = std::numeric_limits<float>::infinity(), second = best;
        std::uint32_t bestLeaf = 0;
        for (std::uint32_t i = 0; i < tree->spheres().size(); ++i) {
          const float sd = kernels::sphereSignedDistance(tree->spheres()[i], back);
          if (sd < best) {
            second = best;
            best = sd;
            bestLeaf = i;
          } else {
            second = std::min(second, sd);
          }
        }
        const SpherePointHit hit = tree->nearest(pose, p, 10.0f);
        ASSERT_TRUE(hit.found);
        EXPECT_NEAR(hit.distance, best, 1e-6f);
        if (second - best > 1e-6f) {
          EXPECT_EQ(hit.leaf, bestLeaf);
        } else {
          ++ties;
        }
        // The normal: outward from that leaf's centre (world).
        const glm::vec3 c = pose.rotation * glm::vec3(tree->spheres()[hit.leaf]) + pose.translation;
        if (glm::length(p - c) > 1e-4f) {
          EXPECT_LT(glm::length(hit.normal - glm::normalize(p - c)), 1e-4f);
        }
        EXPECT_EQ(tree->contains(pose, p), best < 0.0f);
        insidePoints += best < 0.0f;
        // A bounded search finds a leaf iff one is closer than the bound.
        const float bound = best + (k % 2 ? 1e-3f : -1e-3f);
        EXPECT_EQ(tree->nearest(pose, p, bound).found, best < bound);
      }
    }
  }
  std::printf("[ queries ] nearest()/contains(): 4000 points (%d inside), all equal brute force (%d ties)\n",
              insidePoints, ties);
}

}  // namespace
}  // namespace hg
