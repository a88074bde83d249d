#pragma once
/// Batch queries over a scene of sphere trees (docs/methods.md section 6): many
/// points (cloth vertices, probes) against placed trees, and many tree-vs-tree pairs, behind
/// one interface with a CPU backend here (OpenMP over the queries) and a GPU backend in
/// sim/gpu/GpuSphereTreeQueries.h (one compute invocation per query). Both traverse node
/// for node the same way, with the per-node math of kernels/sphere_tree.glslh:
///
/// - a point query is hg::nearestLeaf (the GPU: sphereTreeNearest of
///   sim/gpu/shaders/sphere_tree_common.glsl) against one instance, or against every instance in
///   index order, each searched with the best signed distance so far as its search radius.
///   So the result is the smallest signed distance over all instances and, of two equal
///   ones, the lower instance index (and within one tree the leaf the traversal reaches
///   first) wins.
/// - a pair query is hg::collide's all-pairs test (not stopping at the first pair) of two
///   instances: the colliding leaf pairs counted, the deepest overlap, the node pairs
///   visited. Children are pushed in the same order as hg::collide and the relative pose is
///   evaluated as there (sphereTreeRelativePose), so the CPU counts equal hg::collide's.
///
/// A set is uploaded once (setScene) and queried many times; setInstances() replaces the
/// poses only (a frame of moving objects). Units: metres. GL-free.
///
/// Limitations: the GPU's traversal stacks hold HG_SPHERE_TREE_STACK entries; a query
/// that needs more drops work and says so (SpherePointResult.leaf.w = 1,
/// SpherePairResult.counts.y & HG_SPHERE_PAIR_STACK_OVERFLOW); the CPU never drops work
/// and never sets these flags. Leaf pairs are counted, not listed (use hg::collide for the
/// list of one pair of trees).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/kernels/Kernels.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {

/// Point-query target meaning "every instance" (the nearest over all of them).
inline constexpr std::uint32_t kSphereQueryAllInstances = HG_SPHERE_QUERY_ALL_INSTANCES;

/// The nodes of one tree inside a SphereTreeSet.
struct SphereTreeRange {
  std::uint32_t root = 0;       ///< index of its root in SphereTreeSet::nodes
  std::uint32_t nodeCount = 0;  ///< its nodes: root .. root + nodeCount - 1
  std::uint32_t leafCount = 0;  ///< its leaf spheres
};

/// A scene of sphere trees: the nodes of several SphereTrees concatenated (each tree's
/// child links stay relative to its root) and placed instances of them (the std430
/// records of the GPU passes, uploaded as they are).
struct SphereTreeSet {
  std::vector<kernels::SphereTreeNode> nodes;
  std::vector<SphereTreeRange> trees;
  std::vector<kernels::SphereTreeInstance> instances;

  /// Appends `tree`'s nodes; returns its tree index.
  std::uint32_t addTree(const SphereTree& tree);
  /// Places tree `treeIndex` (< trees.size(), asserted) at `pose` with the surface friction
  /// `friction` (kept in the instance for the cloth colliders); returns the instance index.
  std::uint32_t addInstance(std::uint32_t treeIndex, const RigidPose& pose, float friction = 0.0f);
  /// addTree then addInstance: one placement of its own tree (cloth colliders, props).
  std::uint32_t add(const SphereTree& tree, const RigidPose& pose, float friction = 0.0f);
  bool empty() const { return instances.empty(); }
  /// Moves instance `instance` (< instances.size(), asserted) to `pose`.
  void setPose(std::uint32_t instance, const RigidPose& pose);

  /// Error naming the first problem: a tree range outside the nodes, a node with more than
  /// 8 children or a child link outside its tree, a non-finite node sphere, an instance whose nodes are not one of the
  /// trees, a non-finite instance pose.
  Status validate() const;
};

/// The point query of one vec4 (xyz world point, m; w search radius, m: only leaves whose
/// signed distance is below it count; clamped to HG_NO_CONTACT_GAP) against instance
/// `target`, or every instance for kSphereQueryAllInstances. The result: normalDistance =
/// the outward unit normal (world) and the signed distance at the nearest leaf surface, or
/// (0, 1, 0, HG_NO_CONTACT_GAP) when none is within the radius; leaf = (instance, leaf
/// sphere index, nodes visited summed over the instances searched, 0); the instance of a
/// miss is `target` (HG_SPHERE_QUERY_ALL_INSTANCES for all) and its leaf 0. Preconditions
/// (the backends check them): a valid set, target in range, finite xyz, w not NaN.
kernels::SpherePointResult sphereTreeQueryPoint(const SphereTreeSet& set, glm::vec4 query, std::uint32_t target);

/// The pair query of instances (a, b) (preconditions: a valid set, both in range):
/// hg::collide's all-pairs test. depthGap = (deepest leaf overlap rA + rB - |cA - cB|, m,
/// 0 when apart; the smallest leaf gap reached = minus that overlap, HG_NO_CONTACT_GAP
/// when no leaf pair overlaps (the test reaches overlapping pairs only), 0, 0); counts =
/// (colliding leaf pairs, flags (0 on the CPU), node pairs visited (hg::collide's
/// nodePairsVisited), 0). a == b is allowed (a tree against itself).
kernels::SpherePairResult sphereTreeQueryPair(const SphereTreeSet& set, glm::uvec2 pair);

/// Checks of the query inputs shared by the backends; `who` prefixes the message.
Status checkSpherePointQueries(const SphereTreeSet& set, std::span<const glm::vec4> points, std::uint32_t target,
                               const std::string& who);
Status checkSpherePairQueries(const SphereTreeSet& set, std::span<const glm::uvec2> pairs, const std::string& who);

/// Batch sphere-tree queries: upload a scene once, query it many times. Implementations:
/// CpuSphereTreeQueries (below), GpuSphereTreeQueries (sim/gpu). Not thread-safe.
class SphereTreeQueryBackend {
 public:
  virtual ~SphereTreeQueryBackend() = default;

  /// Takes (uploads) the scene. Error: SphereTreeSet::validate's, a GL error.
  virtual Status setScene(const SphereTreeSet& set) = 0;
  /// Replaces the instances' records (the poses) of the scene set last; the count and
  /// each instance's tree must stay the same. Error: no scene, a different count or tree,
  /// a non-finite pose.
  virtual Status setInstances(std::span<const kernels::SphereTreeInstance> instances) = 0;
  /// One SpherePointResult per point (see sphereTreeQueryPoint). Error: no scene, a target
  /// out of range, a non-finite point or NaN radius (named by index), a GL error.
  virtual Result<std::vector<kernels::SpherePointResult>> queryPoints(
      std::span<const glm::vec4> points, std::uint32_t target = kSphereQueryAllInstances) = 0;
  /// One SpherePairResult per instance pair (see sphereTreeQueryPair). Error: no scene,
  /// an instance out of range (named by pair index), a GL error.
  virtual Result<std::vector<kernels::SpherePairResult>> queryPairs(std::span<const glm::uvec2> pairs) = 0;
  /// "cpu" or "gpu".
  virtual const char* name() const = 0;
};

/// The CPU backend: sphereTreeQueryPoint / sphereTreeQueryPair over the queries with
/// OpenMP (schedule(dynamic): queries differ in cost); each result depends on its query
/// only, so it is the same for any thread count.
class CpuSphereTreeQueries final : public SphereTreeQueryBackend {
 public:
  static Result<std::unique_ptr<CpuSphereTreeQueries>> create();

  Status setScene(const SphereTreeSet& set) override;
  Status setInstances(std::span<const kernels::SphereTreeInstance> instances) override;
  Result<std::vector<kernels::SpherePointResult>> queryPoints(std::span<const glm::vec4> points,
                                                              std::uint32_t target = kSphereQueryAllInstances) override;
  Result<std::vector<kernels::SpherePairResult>> queryPairs(std::span<const glm::uvec2> pairs) override;
  const char* name() const override { return "cpu"; }

  const SphereTreeSet& scene() const { return m_set; }

 private:
  CpuSphereTreeQueries() = default;
  SphereTreeSet m_set;
  bool m_hasScene = false;
};

/// Shared by the backends' setInstances: `instances` replace `set.instances` when they
/// keep the count and each instance's nodes, with finite poses. `who` prefixes the message.
Status replaceSphereTreeInstances(SphereTreeSet& set, std::span<const kernels::SphereTreeInstance> instances,
                                  const std::string& who);

}  // namespace hg
