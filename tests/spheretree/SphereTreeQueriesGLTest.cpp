// Sphere-tree batch queries: the GPU backend (sim/gpu/GpuSphereTreeQueries,
// sim/gpu/shaders/sphere_tree_points.comp and sphere_tree_pairs.comp) against the CPU backend
// (sim/spheretree/SphereTreeQueries), and the CPU batch against the single-query functions
// (hg::nearestLeaf, hg::collide) and brute force over every leaf sphere. The scene: a
// bottle tree (makeBottle, 0.3 m, voxelized at 64) and a torus tree at random poses, some
// overlapping.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/core/TriangleMesh.h"
#include "sim/gpu/GpuSphereTreeQueries.h"
#include "sim/spheretree/SphereTree.h"
#include "sim/spheretree/SphereTreeQueries.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using kernels::SpherePairResult;
using kernels::SpherePointResult;

constexpr float kInf = std::numeric_limits<float>::infinity();

const SphereTree& bottleTree() {
  static const SphereTree tree = [] {
    auto t = SphereTree::fromMesh(makeBottle({0.0f, -0.15f, 0.0f}, 0.3f), 64, "bottle");
    EXPECT_TRUE(t) << t.error().message;
    return std::move(t).value();
  }();
  return tree;
}

const SphereTree& torusTree() {
  static const SphereTree tree = [] {
    auto t = SphereTree::fromMesh(makeTorus({0.0f, 0.0f, 0.0f}, 0.1f, 0.035f, 48, 24), 64, "torus");
    EXPECT_TRUE(t) << t.error().message;
    return std::move(t).value();
  }();
  return tree;
}

RigidPose randomPose(std::mt19937& rng, float spread) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(-spread, spread);
  RigidPose pose;
  pose.rotation = glm::mat3_cast(glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng))));
  pose.translation = glm::vec3(u(rng), u(rng), u(rng));
  return pose;
}

/// The scene: 4 bottles and 4 tori at random poses within a 0.3 m cube (many overlaps).
struct Scene {
  SphereTreeSet set;
  std::vector<const SphereTree*> trees;  // per instance
  std::vector<RigidPose> poses;          // per instance
};

Scene makeScene(unsigned seed) {
  Scene s;
  const std::uint32_t bottle = s.set.addTree(bottleTree());
  const std::uint32_t torus = s.set.addTree(torusTree());
  std::mt19937 rng(seed);
  for (int i = 0; i < 8; ++i) {
    const bool isBottle = i % 2 == 0;
    const RigidPose pose = randomPose(rng, 0.15f);
    s.set.addInstance(isBottle ? bottle : torus, pose);
    s.trees.push_back(isBottle ? &bottleTree() : &torusTree());
    s.poses.push_back(pose);
  }
  return s;
}

/// Points near and inside the shapes: a random leaf sphere of a random instance, offset by
/// up to twice its radius in a random direction; every 16th point anywhere in the cube.
/// Search radii: infinite, 0.02 m or 0.002 m (misses).
std::vector<glm::vec4> makePoints(const Scene& s, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f), box(-0.35f, 0.35f);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<glm::vec4> points;
  points.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    glm::vec3 p;
    if (k % 16 == 15) {
      p = glm::vec3(box(rng), box(rng), box(rng));
    } else {
      const std::size_t i = std::size_t(u(rng) * float(s.trees.size())) % s.trees.size();
      const auto& spheres = s.trees[i]->spheres();
      const glm::vec4 leaf = spheres[std::size_t(u(rng) * float(spheres.size())) % spheres.size()];
      const glm::vec3 dir = glm::normalize(glm::vec3(g(rng), g(rng), g(rng)) + glm::vec3(1e-3f));
      p = s.poses[i].rotation * (glm::vec3(leaf) + dir * leaf.w * 2.0f * u(rng)) + s.poses[i].translation;
    }
    const float radius = k % 3 == 0 ? kInf : (k % 3 == 1 ? 0.02f : 0.002f);
    points.emplace_back(p, radius);
  }
  return points;
}

/// Brute force: the smallest signed distance from p to a leaf sphere of instance i (in its
/// frame, as the traversals compute it).
float bruteNearest(const Scene& s, std::size_t i, glm::vec3 p) {
  const kernels::SphereTreeInstance& inst = s.set.instances[i];
  const glm::vec3 local = kernels::sphereTreeToLocal(inst, p);
  float best = kInf;
  for (std::uint32_t k = 0; k < inst.base.y; ++k) {
    const kernels::SphereTreeNode& n = s.set.nodes[inst.base.x + k];
    if (n.links.y == 0u) best = std::min(best, kernels::sphereSignedDistance(n.sphere, local));
  }
  return best;
}

/// Signed distance from p to leaf `leaf` of instance i.
float leafDistance(const Scene& s, std::uint32_t i, std::uint32_t leaf, glm::vec3 p) {
  const glm::vec4 sphere = s.trees[i]->spheres()[leaf];
  return kernels::sphereSignedDistance(sphere, kernels::sphereTreeToLocal(s.set.instances[i], p));
}

struct PointComparison {
  std::size_t ties = 0;        // different leaf (or hit/miss) at an equal distance (within 1e-6 m)
  std::size_t mismatches = 0;  // anything else that differs
  std::size_t visitDiffs = 0;  // nodes visited differ
  std::size_t hits = 0;
  float maxDistanceError = 0.0f;
  float maxNormalError = 0.0f;  // over points at least 5 mm from the leaf's centre
  float maxNormalLever = 0.0f;  // max |n_gpu - n_cpu| |p - c| over all points, m (the normal
                                // of a point near the centre is ill-conditioned: a rounding
                                // of p - c of e turns it by about e / |p - c|)
};

/// GPU against CPU, point by point.
PointComparison comparePoints(const Scene& s, std::span<const glm::vec4> points, std::span<const SpherePointResult> cpu,
                              std::span<const SpherePointResult> gpu) {
  PointComparison c;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const SpherePointResult& a = cpu[k];
    const SpherePointResult& b = gpu[k];
    const bool hitA = a.normalDistance.w < HG_NO_CONTACT_GAP, hitB = b.normalDistance.w < HG_NO_CONTACT_GAP;
    c.hits += hitA;
    if (a.leaf.z != b.leaf.z) ++c.visitDiffs;
    if (b.leaf.w != 0u) {
      ++c.mismatches;
      continue;
    }
    if (hitA != hitB) {
      // A miss on one side only: the hit's distance is the search radius (a tie with it).
      const float d = hitA ? a.normalDistance.w : b.normalDistance.w;
      if (std::abs(d - std::min(points[k].w, HG_NO_CONTACT_GAP)) <= 1e-6f)
        ++c.ties;
      else
        ++c.mismatches;
      continue;
    }
    if (!hitA) {
      if (a.leaf.x != b.leaf.x) ++c.mismatches;
      continue;
    }
    const float dErr = std::abs(a.normalDistance.w - b.normalDistance.w);
    c.maxDistanceError = std::max(c.maxDistanceError, dErr);
    if (a.leaf.x != b.leaf.x || a.leaf.y != b.leaf.y) {
      // A tie: the GPU's leaf is (within 1e-6 m) as near as the CPU's.
      const float other = leafDistance(s, b.leaf.x, b.leaf.y, glm::vec3(points[k]));
      if (dErr <= 1e-6f && std::abs(other - a.normalDistance.w) <= 1e-6f)
        ++c.ties;
      else
        ++c.mismatches;
      continue;
    }
    const float nErr = glm::length(glm::vec3(a.normalDistance) - glm::vec3(b.normalDistance));
    const float lever = a.normalDistance.w + s.trees[a.leaf.x]->spheres()[a.leaf.y].w;  // |p - c|
    if (lever >= 5e-3f) c.maxNormalError = std::max(c.maxNormalError, nErr);
    c.maxNormalLever = std::max(c.maxNormalLever, nErr * lever);
  }
  return c;
}

class SphereTreeQueriesGLTest : public test::GlTest {
 protected:
  void SetUp() override {
    test::GlTest::SetUp();
    auto cpu = CpuSphereTreeQueries::create();
    ASSERT_TRUE(cpu) << cpu.error().message;
    m_cpu = std::move(cpu).value();
    auto gpu = GpuSphereTreeQueries::create();
    ASSERT_TRUE(gpu) << gpu.error().message;
    m_gpu = std::move(gpu).value();
  }
  std::unique_ptr<SphereTreeQueryBackend> m_cpu, m_gpu;
};

TEST_F(SphereTreeQueriesGLTest, PointsGpuMatchCpuOverAllInstancesAndOne) {
  const Scene s = makeScene(1);
  ASSERT_TRUE(m_cpu->setScene(s.set));
  ASSERT_TRUE(m_gpu->setScene(s.set));
  const std::vector<glm::vec4> points = makePoints(s, 1234, 2);  // not a multiple of the workgroup
  for (std::uint32_t target : {kSphereQueryAllInstances, 0u, 5u}) {
    auto cpu = m_cpu->queryPoints(points, target);
    auto gpu = m_gpu->queryPoints(points, target);
    ASSERT_TRUE(cpu) << cpu.error().message;
    ASSERT_TRUE(gpu) << gpu.error().message;
    ASSERT_EQ(cpu->size(), points.size());
    ASSERT_EQ(gpu->size(), points.size());
    const PointComparison c = comparePoints(s, points, *cpu, *gpu);
    std::printf(
        "[ points   ] target %d: %zu points, %zu hits, %zu ties, %zu mismatches, %zu visit-count diffs, "
        "max |d| error %.3g m, max normal error %.3g (>= 5 mm from the centre), max normal error x lever %.3g m\n",
        target == kSphereQueryAllInstances ? -1 : int(target), points.size(), c.hits, c.ties, c.mismatches,
        c.visitDiffs, double(c.maxDistanceError), double(c.maxNormalError), double(c.maxNormalLever));
    EXPECT_EQ(c.mismatches, 0u);
    EXPECT_LE(c.ties, points.size() / 100) << "more than 1% exact-distance ties";
    EXPECT_LE(c.maxDistanceError, 1e-6f);
    EXPECT_LE(c.maxNormalError, 1e-5f);
    EXPECT_LE(c.maxNormalLever, 2e-7f);
    // Points lie near random instances: most hit some instance, a quarter one given instance.
    EXPECT_GT(c.hits, target == kSphereQueryAllInstances ? points.size() / 2 : points.size() / 4);
    EXPECT_LT(c.hits, points.size());  // some misses (0.002 m radius)
  }
}

TEST_F(SphereTreeQueriesGLTest, CpuBatchMatchesNearestLeafAndBruteForce) {
  const Scene s = makeScene(3);
  ASSERT_TRUE(m_cpu->setScene(s.set));
  const std::vector<glm::vec4> points = makePoints(s, 1234, 4);
  auto all = m_cpu->queryPoints(points);
  auto one = m_cpu->queryPoints(points, 3u);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_TRUE(one) << one.error().message;
  std::size_t inside = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const glm::vec3 p(points[k]);
    // One instance: hg::nearestLeaf itself.
    const SpherePointHit hit = nearestLeaf(s.set.nodes, s.set.instances[3], p, points[k].w);
    const SpherePointResult& r = (*one)[k];
    ASSERT_EQ(hit.found, r.normalDistance.w < HG_NO_CONTACT_GAP) << "point " << k;
    EXPECT_EQ(r.leaf.x, 3u);
    EXPECT_EQ(r.leaf.z, hit.nodesVisited);
    if (hit.found) {
      EXPECT_EQ(r.normalDistance.w, hit.distance) << "point " << k;
      EXPECT_EQ(r.leaf.y, hit.leaf) << "point " << k;
      EXPECT_EQ(glm::vec3(r.normalDistance), hit.normal) << "point " << k;
    }
    // All instances: the smallest brute-force distance over every leaf of every instance,
    // the lowest instance of equal ones.
    float best = kInf;
    std::uint32_t bestInstance = kSphereQueryAllInstances;
    for (std::uint32_t i = 0; i < s.set.instances.size(); ++i) {
      const float d = bruteNearest(s, i, p);
      if (d < best) {
        best = d;
        bestInstance = i;
      }
    }
    const SpherePointResult& a = (*all)[k];
    if (best < points[k].w) {
      ASSERT_LT(a.normalDistance.w, HG_NO_CONTACT_GAP) << "point " << k;
      EXPECT_EQ(a.normalDistance.w, best) << "point " << k;
      EXPECT_EQ(a.leaf.x, bestInstance) << "point " << k;
      EXPECT_EQ(leafDistance(s, a.leaf.x, a.leaf.y, p), best) << "point " << k;
      inside += best < 0.0f;
    } else {
      EXPECT_EQ(a.normalDistance.w, HG_NO_CONTACT_GAP) << "point " << k;
      EXPECT_EQ(a.leaf.x, kSphereQueryAllInstances) << "point " << k;
    }
  }
  EXPECT_GT(inside, points.size() / 4);
}

std::vector<glm::uvec2> randomPairs(std::size_t count, std::uint32_t instances, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> pick(0, instances - 1);
  std::vector<glm::uvec2> pairs;
  while (pairs.size() < count) {
    const glm::uvec2 p(pick(rng), pick(rng));
    if (p.x != p.y) pairs.push_back(p);
  }
  return pairs;
}

TEST_F(SphereTreeQueriesGLTest, PairsGpuMatchCpuAndCollide) {
  // 200 pairs over 3 scenes of 8 instances: the poses differ per scene.
  std::size_t colliding = 0, total = 0;
  std::uint64_t leafPairs = 0;
  float maxPenetrationError = 0.0f;
  for (unsigned seed : {11u, 12u, 13u}) {
    const Scene s = makeScene(seed);
    ASSERT_TRUE(m_cpu->setScene(s.set));
    ASSERT_TRUE(m_gpu->setScene(s.set));
    const std::vector<glm::uvec2> pairs = randomPairs(seed == 13u ? 66 : 67, 8, seed);
    auto cpu = m_cpu->queryPairs(pairs);
    auto gpu = m_gpu->queryPairs(pairs);
    ASSERT_TRUE(cpu) << cpu.error().message;
    ASSERT_TRUE(gpu) << gpu.error().message;
    ASSERT_EQ(gpu->size(), pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const SpherePairResult& a = (*cpu)[k];
      const SpherePairResult& b = (*gpu)[k];
      const glm::uvec2 p = pairs[k];
      // CPU batch = hg::collide (all pairs) of the same trees and poses, exactly.
      const SphereTreeContact contact = collide(*s.trees[p.x], s.poses[p.x], *s.trees[p.y], s.poses[p.y]);
      EXPECT_EQ(a.counts.x, contact.leafPairs.size()) << "pair " << k;
      EXPECT_EQ(a.depthGap.x, contact.penetration) << "pair " << k;
      EXPECT_EQ(a.counts.z, contact.nodePairsVisited) << "pair " << k;
      EXPECT_EQ(a.counts.y, 0u);
      // GPU = CPU.
      EXPECT_EQ(b.counts.y, 0u) << "pair " << k << ": stack overflow";
      EXPECT_EQ(b.counts.x, a.counts.x) << "pair " << k;
      EXPECT_EQ(b.counts.z, a.counts.z) << "pair " << k;
      EXPECT_NEAR(b.depthGap.x, a.depthGap.x, 1e-6f) << "pair " << k;
      EXPECT_NEAR(b.depthGap.y, a.depthGap.y, 1e-6f) << "pair " << k;
      maxPenetrationError = std::max(maxPenetrationError, std::abs(b.depthGap.x - a.depthGap.x));
      colliding += a.counts.x > 0;
      leafPairs += a.counts.x;
      ++total;
    }
  }
  std::printf("[ pairs    ] %zu pairs, %zu colliding, %llu colliding leaf pairs in all, max penetration error %.3g m\n",
              total, colliding, (unsigned long long)leafPairs, double(maxPenetrationError));
  EXPECT_EQ(total, 200u);
  EXPECT_GT(colliding, total / 5);
  EXPECT_LT(colliding, total);
}

TEST_F(SphereTreeQueriesGLTest, SetInstancesMovesTheTrees) {
  Scene s = makeScene(21);
  ASSERT_TRUE(m_cpu->setScene(s.set));
  ASSERT_TRUE(m_gpu->setScene(s.set));
  std::mt19937 rng(22);
  for (std::uint32_t i = 0; i < s.set.instances.size(); ++i) {
    s.poses[i] = randomPose(rng, 0.15f);
    s.set.setPose(i, s.poses[i]);
  }
  ASSERT_TRUE(m_cpu->setInstances(s.set.instances));
  ASSERT_TRUE(m_gpu->setInstances(s.set.instances));
  const std::vector<glm::uvec2> pairs = randomPairs(50, 8, 23);
  auto cpu = m_cpu->queryPairs(pairs);
  auto gpu = m_gpu->queryPairs(pairs);
  ASSERT_TRUE(cpu && gpu);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const SphereTreeContact contact =
        collide(*s.trees[pairs[k].x], s.poses[pairs[k].x], *s.trees[pairs[k].y], s.poses[pairs[k].y]);
    EXPECT_EQ((*cpu)[k].counts.x, contact.leafPairs.size()) << "pair " << k;
    EXPECT_EQ((*gpu)[k].counts.x, contact.leafPairs.size()) << "pair " << k;
  }
}

TEST_F(SphereTreeQueriesGLTest, EmptyQueriesAndEmptyScene) {
  const Scene s = makeScene(5);
  for (SphereTreeQueryBackend* b : {m_cpu.get(), m_gpu.get()}) {
    ASSERT_TRUE(b->setScene(s.set));
    auto points = b->queryPoints({});
    auto pairs = b->queryPairs({});
    ASSERT_TRUE(points && pairs) << b->name();
    EXPECT_TRUE(points->empty());
    EXPECT_TRUE(pairs->empty());
    // A scene without instances: every point misses.
    ASSERT_TRUE(b->setScene(SphereTreeSet{}));
    const std::vector<glm::vec4> one{glm::vec4(0.0f, 0.0f, 0.0f, kInf)};
    auto miss = b->queryPoints(one);
    ASSERT_TRUE(miss) << b->name() << ": " << miss.error().message;
    EXPECT_EQ((*miss)[0].normalDistance.w, HG_NO_CONTACT_GAP) << b->name();
    EXPECT_EQ((*miss)[0].leaf.x, kSphereQueryAllInstances) << b->name();
  }
}

TEST_F(SphereTreeQueriesGLTest, LargeBatchOf100kPoints) {
  const Scene s = makeScene(7);
  ASSERT_TRUE(m_cpu->setScene(s.set));
  ASSERT_TRUE(m_gpu->setScene(s.set));
  const std::vector<glm::vec4> points = makePoints(s, 100'000, 8);
  auto cpu = m_cpu->queryPoints(points);
  auto gpu = m_gpu->queryPoints(points);
  ASSERT_TRUE(cpu) << cpu.error().message;
  ASSERT_TRUE(gpu) << gpu.error().message;
  const PointComparison c = comparePoints(s, points, *cpu, *gpu);
  std::printf(
      "[ points   ] 100k: %zu hits, %zu ties, %zu mismatches, %zu visit-count diffs, max |d| error %.3g m, "
      "max normal error %.3g (>= 5 mm from the centre), max normal error x lever %.3g m\n",
      c.hits, c.ties, c.mismatches, c.visitDiffs, double(c.maxDistanceError), double(c.maxNormalError),
      double(c.maxNormalLever));
  EXPECT_EQ(c.mismatches, 0u);
  EXPECT_LE(c.ties, points.size() / 100);
  EXPECT_LE(c.maxDistanceError, 1e-6f);
  EXPECT_LE(c.maxNormalError, 1e-5f);
  EXPECT_LE(c.maxNormalLever, 2e-7f);
}

/// A tree 25 octree levels deep (7 leaves per level, the 8th octant nested), which needs
/// more than HG_SPHERE_TREE_STACK entries: the GPU flags the overflow, stays in bounds and
/// leaves the other queries of the batch right; the CPU never drops work.
TEST_F(SphereTreeQueriesGLTest, StackOverflowIsFlaggedNotWrittenOutOfBounds) {
  std::vector<glm::vec4> spheres;
  float size = 1.0f;
  for (int level = 0; level < 25; ++level) {
    const float h = 0.5f * size;
    for (int o = 1; o < 8; ++o)
      spheres.emplace_back(h * float(o & 1) + 0.5f * h, h * float((o >> 1) & 1) + 0.5f * h,
                           h * float((o >> 2) & 1) + 0.5f * h, 0.3f * h);
    size = h;
  }
  spheres.emplace_back(0.5f * size, 0.5f * size, 0.5f * size, 0.3f * size);
  spheres.emplace_back(1.0f, 1.0f, 1.0f, 0.1f);  // the octree's cube is then [0, 1]^3 (up to rounding)
  auto deep = SphereTree::build(spheres);
  ASSERT_TRUE(deep) << deep.error().message;
  ASSERT_GE(deep->depth(), 20);
  SphereTreeSet set;
  set.addTree(*deep);
  set.addTree(bottleTree());
  set.addInstance(0, RigidPose{});
  set.addInstance(0, RigidPose{});
  set.addInstance(1, RigidPose{glm::mat3(1.0f), glm::vec3(5.0f, 0.0f, 0.0f)});
  ASSERT_TRUE(m_cpu->setScene(set));
  ASSERT_TRUE(m_gpu->setScene(set));
  // Far from the deep tree with an unbounded search: the traversal descends to the nested
  // corner first and keeps 7 siblings per level on the stack.
  const std::vector<glm::vec4> points{glm::vec4(-3.0f, -3.0f, -3.0f, kInf), glm::vec4(5.0f, 0.0f, 0.0f, kInf)};
  auto cpuPoints = m_cpu->queryPoints(points, 0u);
  auto gpuPoints = m_gpu->queryPoints(points, 0u);
  auto gpuBottle = m_gpu->queryPoints(points, 2u);
  auto cpuBottle = m_cpu->queryPoints(points, 2u);
  ASSERT_TRUE(cpuPoints && gpuPoints && gpuBottle && cpuBottle);
  EXPECT_EQ((*cpuPoints)[0].leaf.w, 0u);
  EXPECT_EQ((*gpuPoints)[0].leaf.w, 1u) << "the deep tree should overflow the GPU stack";
  EXPECT_EQ((*gpuBottle)[1].leaf.w, 0u);
  EXPECT_EQ((*gpuBottle)[1].leaf.y, (*cpuBottle)[1].leaf.y);
  EXPECT_NEAR((*gpuBottle)[1].normalDistance.w, (*cpuBottle)[1].normalDistance.w, 1e-6f);
  // The deep tree against itself (same pose): overflow flagged on the GPU only; the bottle
  // pair next to it in the batch is unaffected.
  const std::vector<glm::uvec2> pairs{glm::uvec2(0u, 1u), glm::uvec2(2u, 2u)};
  auto cpuPairs = m_cpu->queryPairs(pairs);
  auto gpuPairs = m_gpu->queryPairs(pairs);
  ASSERT_TRUE(cpuPairs && gpuPairs);
  EXPECT_EQ((*cpuPairs)[0].counts.y, 0u);
  EXPECT_EQ((*cpuPairs)[0].counts.x, collide(*deep, RigidPose{}, *deep, RigidPose{}).leafPairs.size());
  EXPECT_NE((*gpuPairs)[0].counts.y & HG_SPHERE_PAIR_STACK_OVERFLOW, 0u);
  EXPECT_LE((*gpuPairs)[0].counts.x, (*cpuPairs)[0].counts.x);
  EXPECT_EQ((*gpuPairs)[1].counts.y, 0u);
  EXPECT_EQ((*gpuPairs)[1].counts.x, (*cpuPairs)[1].counts.x);
  std::printf("[ overflow ] deep tree (depth %d): point visits cpu %u gpu %u; self pair leaf pairs cpu %u gpu %u\n",
              deep->depth(), (*cpuPoints)[0].leaf.z, (*gpuPoints)[0].leaf.z, (*cpuPairs)[0].counts.x,
              (*gpuPairs)[0].counts.x);
}

TEST_F(SphereTreeQueriesGLTest, ErrorsNameTheProblem) {
  for (SphereTreeQueryBackend* b : {m_cpu.get(), m_gpu.get()}) {
    auto early = b->queryPoints(std::vector<glm::vec4>{glm::vec4(0.0f)});
    ASSERT_FALSE(early);
    EXPECT_NE(early.error().message.find("before setScene"), std::string::npos) << early.error().message;
    const Scene s = makeScene(9);
    ASSERT_TRUE(b->setScene(s.set));
    auto target = b->queryPoints(std::vector<glm::vec4>{glm::vec4(0.0f)}, 8u);
    ASSERT_FALSE(target);
    EXPECT_NE(target.error().message.find("target instance 8"), std::string::npos) << target.error().message;
    auto nan = b->queryPoints(std::vector<glm::vec4>{glm::vec4(0.0f), glm::vec4(std::nanf(""), 0.0f, 0.0f, 1.0f)});
    ASSERT_FALSE(nan);
    EXPECT_NE(nan.error().message.find("point query 1"), std::string::npos) << nan.error().message;
    auto pair = b->queryPairs(std::vector<glm::uvec2>{glm::uvec2(0u, 1u), glm::uvec2(0u, 9u)});
    ASSERT_FALSE(pair);
    EXPECT_NE(pair.error().message.find("pair query 1"), std::string::npos) << pair.error().message;
    Status count = b->setInstances(std::span<const kernels::SphereTreeInstance>(s.set.instances).first(3));
    ASSERT_FALSE(count);
    EXPECT_NE(count.error().message.find("setInstances got 3"), std::string::npos) << count.error().message;
    SphereTreeSet broken = s.set;
    broken.nodes[broken.trees[1].root + 0].links.x = 100000;
    Status bad = b->setScene(broken);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("tree 1 node 0"), std::string::npos) << bad.error().message;
  }
}

}  // namespace
}  // namespace hg
