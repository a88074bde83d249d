#include "sim/spheretree/SphereTreeObb.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

/// The box in the tree's frame: centre R^T (G - t), axes R^T v_i (still orthonormal).
Obb toTreeFrame(const RigidPose& pose, const Obb& box) {
  const glm::mat3 toLocal = glm::transpose(pose.rotation);
  Obb local;
  local.centre = toLocal * (box.centre - pose.translation);
  for (std::size_t i = 0; i < 3; ++i) local.axes[i] = toLocal * box.axes[i];
  local.halfLengths = box.halfLengths;
  return local;
}

/// Section 7's distance from the box to a node's centre minus its radius: the node's
/// lower bound (exact for a leaf).
float nodeBound(const Obb& b, const kernels::SphereTreeNode& node) {
  return kernels::obbPointDistance(b.centre, b.axes[0], b.axes[1], b.axes[2], b.halfLengths, glm::vec3(node.sphere)) -
         node.sphere.w;
}

}  // namespace

SphereTreeObbHit obbDistance(const SphereTree& tree, const RigidPose& pose, const Obb& box) {
  SphereTreeObbHit hit;
  const Obb b = toTreeFrame(pose, box);
  const auto& nodes = tree.nodes();
  float best = std::numeric_limits<float>::infinity();
  std::vector<std::pair<float, std::uint32_t>> stack{{nodeBound(b, nodes[0]), 0u}}, children;
  while (!stack.empty()) {
    const auto [bound, id] = stack.back();
    stack.pop_back();
    if (!(bound < best)) continue;  // a better leaf was found since it was pushed
    ++hit.nodesVisited;
    const kernels::SphereTreeNode& node = nodes[id];
    if (node.links.y == 0u) {
      best = bound;
      hit.distance = bound;
      hit.leaf = node.links.z;
      continue;
    }
    // Children nearest last on the stack, so they are searched first.
    children.clear();
    for (std::uint32_t c = 0; c < node.links.y; ++c) {
      const std::uint32_t child = node.links.x + c;
      const float g = nodeBound(b, nodes[child]);
      if (g < best) children.emplace_back(g, child);
    }
    std::sort(children.begin(), children.end(), [](const auto& p, const auto& q) { return p.first > q.first; });
    stack.insert(stack.end(), children.begin(), children.end());
  }
  return hit;
}

bool obbOverlaps(const SphereTree& tree, const RigidPose& pose, const Obb& box, std::size_t* nodesVisited) {
  const Obb b = toTreeFrame(pose, box);
  const auto& nodes = tree.nodes();
  std::size_t visited = 0;
  bool found = false;
  std::vector<std::uint32_t> stack{0u};
  while (!stack.empty() && !found) {
    const kernels::SphereTreeNode& node = nodes[stack.back()];
    stack.pop_back();
    ++visited;
    // Section 7's OBB-sphere test on the node's bounding sphere (a leaf's is the leaf).
    if (!kernels::obbSphereOverlap(b.centre, b.axes[0], b.axes[1], b.axes[2], b.halfLengths, glm::vec3(node.sphere),
                                   node.sphere.w))
      continue;
    if (node.links.y == 0u) {
      found = true;
      continue;
    }
    for (std::uint32_t c = node.links.y; c-- > 0;) stack.push_back(node.links.x + c);
  }
  if (nodesVisited) *nodesVisited = visited;
  return found;
}

}  // namespace hg
