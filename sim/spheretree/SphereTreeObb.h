#pragma once
/// Sphere trees against oriented boxes (docs/methods.md sections 6 and 7): the union of a tree's
/// leaf spheres tested against an OBB with section 7's point-OBB distance (the
/// OBB-sphere test: a leaf sphere (c, r) and the box collide iff obbPointDistance(c) < r).
/// Used by the grasp (sim/radar/Grasp.h) to measure hand segment boxes against a mesh
/// target's tree. Units: metres. GL-free; the per-node math is kernels/obb.glslh.
///
/// Both queries are branch and bound over the octree: obbPointDistance is 1-Lipschitz, so
/// for every leaf (c, r) inside a node's bounding sphere (C, R) (|c - C| + r <= R),
/// obbPointDistance(c) - r >= obbPointDistance(C) - R: a node whose bound is not below the
/// best so far (or, for the yes/no test, not below 0) holds no better leaf.
#include <cstddef>
#include <cstdint>

#include "sim/geometry/Obb.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {

/// The leaf sphere nearest to a box.
struct SphereTreeObbHit {
  /// min over leaves of obbPointDistance(centre) - radius, m: the gap between the box and
  /// the union of spheres when > 0; when < 0 some leaf's centre is within its radius of
  /// the box and -distance = max over leaves of radius - obbPointDistance(centre) is the
  /// penetration estimate (the deepest leaf's overlap; a box inside a sphere counts the
  /// sphere's radius minus the distance to its centre).
  float distance = 0.0f;
  std::uint32_t leaf = 0;  ///< that leaf's sphere index (SphereTree::spheres())
  std::size_t nodesVisited = 0;
};

/// min over the leaves of `tree` placed at `pose` of (section 7's distance from `box` to
/// the leaf's centre minus its radius); `box` in world coordinates. Exact for the union of
/// spheres (up to float rounding), the same as the minimum over every leaf.
SphereTreeObbHit obbDistance(const SphereTree& tree, const RigidPose& pose, const Obb& box);

/// Whether some leaf sphere of `tree` at `pose` and `box` collide (section 7's OBB-sphere
/// test per leaf); stops at the first such leaf.
bool obbOverlaps(const SphereTree& tree, const RigidPose& pose, const Obb& box, std::size_t* nodesVisited = nullptr);

}  // namespace hg
