#include "sim/spheretree/SphereTreeQueries.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <map>

#include <glm/geometric.hpp>

namespace hg {
namespace {

bool finite(glm::vec4 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}
bool finite3(glm::vec4 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

bool finitePose(const kernels::SphereTreeInstance& inst) {
  return finite3(inst.axis0) && finite3(inst.axis1) && finite3(inst.axis2) && finite3(inst.translation);
}

}  // namespace

std::uint32_t SphereTreeSet::addTree(const SphereTree& tree) {
  SphereTreeRange range;
  range.root = std::uint32_t(nodes.size());
  range.nodeCount = std::uint32_t(tree.nodes().size());
  range.leafCount = std::uint32_t(tree.spheres().size());
  nodes.insert(nodes.end(), tree.nodes().begin(), tree.nodes().end());
  trees.push_back(range);
  return std::uint32_t(trees.size() - 1);
}

std::uint32_t SphereTreeSet::addInstance(std::uint32_t treeIndex, const RigidPose& pose, float friction) {
  assert(treeIndex < trees.size());
  const SphereTreeRange& range = trees[treeIndex];
  instances.push_back(sphereTreeInstance(pose, glm::uvec4(range.root, range.nodeCount, range.leafCount, 0u), friction));
  return std::uint32_t(instances.size() - 1);
}

std::uint32_t SphereTreeSet::add(const SphereTree& tree, const RigidPose& pose, float friction) {
  return addInstance(addTree(tree), pose, friction);
}

void SphereTreeSet::setPose(std::uint32_t instance, const RigidPose& pose) {
  assert(instance < instances.size());
  kernels::SphereTreeInstance& inst = instances[instance];
  inst = sphereTreeInstance(pose, inst.base, inst.translation.w);
}

Status SphereTreeSet::validate() const {
  std::map<std::uint32_t, std::size_t> byRoot;
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const SphereTreeRange& r = trees[t];
    const std::string name = "sphere-tree set: tree " + std::to_string(t);
    if (r.nodeCount == 0 || std::uint64_t(r.root) + r.nodeCount > nodes.size())
      return Error{name + " has nodes " + std::to_string(r.root) + " + " + std::to_string(r.nodeCount) +
                   " outside the " + std::to_string(nodes.size()) + " nodes of the set"};
    for (std::uint32_t k = 0; k < r.nodeCount; ++k) {
      const kernels::SphereTreeNode& n = nodes[r.root + k];
      const std::string node = name + " node " + std::to_string(k);
      if (!finite(n.sphere) || n.sphere.w < 0.0f) return Error{node + " has a non-finite sphere or a negative radius"};
      if (n.links.y > 8) return Error{node + " has " + std::to_string(n.links.y) + " children (at most 8: an octree)"};
      if (n.links.y > 0) {
        // Children after their parent (the breadth-first layout): the traversals end.
        if (n.links.x <= k || std::uint64_t(n.links.x) + n.links.y > r.nodeCount)
          return Error{node + " links children " + std::to_string(n.links.x) + " + " + std::to_string(n.links.y) +
                       " outside its tree of " + std::to_string(r.nodeCount) + " nodes (or not after it)"};
      } else if (n.links.z >= r.leafCount) {
        return Error{node + " is a leaf with sphere index " + std::to_string(n.links.z) + " of " +
                     std::to_string(r.leafCount)};
      }
    }
    byRoot[r.root] = t;
  }
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const kernels::SphereTreeInstance& inst = instances[i];
    const std::string name = "sphere-tree set: instance " + std::to_string(i);
    const auto it = byRoot.find(inst.base.x);
    if (it == byRoot.end() || trees[it->second].nodeCount != inst.base.y)
      return Error{name + " has nodes " + std::to_string(inst.base.x) + " + " + std::to_string(inst.base.y) +
                   " that are not one of the set's trees"};
    if (!finitePose(inst)) return Error{name + " has a non-finite pose"};
  }
  return Status::success();
}

kernels::SpherePointResult sphereTreeQueryPoint(const SphereTreeSet& set, glm::vec4 query, std::uint32_t target) {
  const glm::vec3 p(query);
  const float radius = std::min(query.w, HG_NO_CONTACT_GAP);
  kernels::SpherePointResult result;
  result.normalDistance = glm::vec4(0.0f, 1.0f, 0.0f, HG_NO_CONTACT_GAP);
  result.leaf = glm::uvec4(target, 0u, 0u, 0u);
  const bool all = target == kSphereQueryAllInstances;
  const std::uint32_t first = all ? 0u : target;
  const std::uint32_t last = all ? std::uint32_t(set.instances.size()) : target + 1u;
  float best = radius;
  for (std::uint32_t i = first; i < last; ++i) {
    const SpherePointHit hit = nearestLeaf(set.nodes, set.instances[i], p, best);
    result.leaf.z += hit.nodesVisited;
    if (!hit.found) continue;
    best = hit.distance;
    result.normalDistance = glm::vec4(hit.normal, hit.distance);
    result.leaf.x = i;
    result.leaf.y = hit.leaf;
  }
  return result;
}

kernels::SpherePairResult sphereTreeQueryPair(const SphereTreeSet& set, glm::uvec2 pair) {
  const kernels::SphereTreeInstance& ia = set.instances[pair.x];
  const kernels::SphereTreeInstance& ib = set.instances[pair.y];
  const kernels::SphereTreeRelativePose rel = kernels::sphereTreeRelativePose(ia, ib);
  const kernels::SphereTreeNode* na = set.nodes.data() + ia.base.x;
  const kernels::SphereTreeNode* nb = set.nodes.data() + ib.base.x;
  float deepest = 0.0f, smallestGap = HG_NO_CONTACT_GAP;
  std::uint32_t colliding = 0;
  thread_local std::vector<glm::uvec2> stack;
  const auto visited = std::uint32_t(traverseCollidingLeaves(
      na, nb, rel, stack, [&](const kernels::SphereTreeNode& x, const kernels::SphereTreeNode&, glm::vec4 ys) {
        ++colliding;
        const float gap = kernels::sphereGap(x.sphere, ys);
        deepest = std::max(deepest, -gap);
        smallestGap = std::min(smallestGap, gap);
        return true;
      }));
  kernels::SpherePairResult result;
  result.depthGap = glm::vec4(deepest, smallestGap, 0.0f, 0.0f);
  result.counts = glm::uvec4(colliding, 0u, visited, 0u);
  return result;
}

Status checkSpherePointQueries(const SphereTreeSet& set, std::span<const glm::vec4> points, std::uint32_t target,
                               const std::string& who) {
  if (target != kSphereQueryAllInstances && target >= set.instances.size())
    return Error{who + ": point-query target instance " + std::to_string(target) + " is out of range (" +
                 std::to_string(set.instances.size()) + " instances)"};
  for (std::size_t k = 0; k < points.size(); ++k)
    if (!finite3(points[k]) || std::isnan(points[k].w))
      return Error{who + ": point query " + std::to_string(k) + " has a non-finite point or a NaN search radius"};
  return Status::success();
}

Status checkSpherePairQueries(const SphereTreeSet& set, std::span<const glm::uvec2> pairs, const std::string& who) {
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (pairs[k].x >= set.instances.size() || pairs[k].y >= set.instances.size())
      return Error{who + ": pair query " + std::to_string(k) + " names instance " +
                   std::to_string(std::max(pairs[k].x, pairs[k].y)) + " of " + std::to_string(set.instances.size())};
  return Status::success();
}

Status replaceSphereTreeInstances(SphereTreeSet& set, std::span<const kernels::SphereTreeInstance> instances,
                                  const std::string& who) {
  if (instances.size() != set.instances.size())
    return Error{who + ": setInstances got " + std::to_string(instances.size()) + " instances for a scene of " +
                 std::to_string(set.instances.size()) + " (call setScene to change the count)"};
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (instances[i].base != set.instances[i].base)
      return Error{who + ": setInstances: instance " + std::to_string(i) +
                   " names other nodes than the scene's (call setScene to change trees)"};
    if (!finitePose(instances[i]))
      return Error{who + ": setInstances: instance " + std::to_string(i) + " has a non-finite pose"};
  }
  std::copy(instances.begin(), instances.end(), set.instances.begin());
  return Status::success();
}

Result<std::unique_ptr<CpuSphereTreeQueries>> CpuSphereTreeQueries::create() {
  return std::unique_ptr<CpuSphereTreeQueries>(new CpuSphereTreeQueries());
}

Status CpuSphereTreeQueries::setScene(const SphereTreeSet& set) {
  if (Status s = set.validate(); !s) return s.error().prefixed("sphere-tree queries (CPU): ");
  m_set = set;
  m_hasScene = true;
  return Status::success();
}

Status CpuSphereTreeQueries::setInstances(std::span<const kernels::SphereTreeInstance> instances) {
  if (!m_hasScene) return Error{"sphere-tree queries (CPU): setInstances before setScene"};
  return replaceSphereTreeInstances(m_set, instances, "sphere-tree queries (CPU)");
}

Result<std::vector<kernels::SpherePointResult>> CpuSphereTreeQueries::queryPoints(std::span<const glm::vec4> points,
                                                                                  std::uint32_t target) {
  if (!m_hasScene) return Error{"sphere-tree queries (CPU): queryPoints before setScene"};
  if (Status s = checkSpherePointQueries(m_set, points, target, "sphere-tree queries (CPU)"); !s) return s.error();
  std::vector<kernels::SpherePointResult> results(points.size());
  const auto count = std::int64_t(points.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t k = 0; k < count; ++k)
    results[std::size_t(k)] = sphereTreeQueryPoint(m_set, points[std::size_t(k)], target);
  return results;
}

Result<std::vector<kernels::SpherePairResult>> CpuSphereTreeQueries::queryPairs(std::span<const glm::uvec2> pairs) {
  if (!m_hasScene) return Error{"sphere-tree queries (CPU): queryPairs before setScene"};
  if (Status s = checkSpherePairQueries(m_set, pairs, "sphere-tree queries (CPU)"); !s) return s.error();
  std::vector<kernels::SpherePairResult> results(pairs.size());
  const auto count = std::int64_t(pairs.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t k = 0; k < count; ++k) results[std::size_t(k)] = sphereTreeQueryPair(m_set, pairs[std::size_t(k)]);
  return results;
}

}  // namespace hg
