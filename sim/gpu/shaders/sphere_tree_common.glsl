// Sphere-tree traversals of the GPU passes (docs/methods.md section 6; kernels/sphere_tree.glslh
// for the per-node math): every tree of a pass concatenated in one node array, placed
// trees as SphereTreeInstance records. The loops mirror sim/spheretree/SphereTree.cpp
// (nearestLeaf, collide) node for node, children visited in the same order.
layout(std430, binding = HG_BINDING_SPHERE_TREE_NODES) readonly buffer SphereTreeNodes { SphereTreeNode sphereTreeNodes[]; };
layout(std430, binding = HG_BINDING_SPHERE_TREE_INSTANCES) readonly buffer SphereTreeInstances {
  SphereTreeInstance sphereTreeInstances[];
};

/// As hg::nearestLeaf: the nearest leaf surface of instance `i` to x among leaves whose
/// signed distance is below searchRadius (normalDistance.w = HG_NO_CONTACT_GAP: none).
/// leaf.w = 1 when the stack overflowed (a node was dropped; cannot happen for trees of
/// grids up to 512^3, see HG_SPHERE_TREE_STACK).
SpherePointResult sphereTreeNearest(uint i, vec3 x, float searchRadius) {
  SphereTreeInstance instance = sphereTreeInstances[i];
  vec3 local = sphereTreeToLocal(instance, x);
  uint base = instance.base.x;
  SpherePointResult result;
  result.normalDistance = vec4(0.0, 1.0, 0.0, HG_NO_CONTACT_GAP);
  result.leaf = uvec4(i, 0u, 0u, 0u);
  float best = searchRadius;
  uint stack[HG_SPHERE_TREE_STACK];
  uint top = 0u;
  stack[top++] = 0u;
  while (top > 0u) {
    uint id = stack[--top];
    SphereTreeNode node = sphereTreeNodes[base + id];
    result.leaf.z += 1u;
    float bound = sphereSignedDistance(node.sphere, local);
    if (!(bound < best)) continue;
    if (node.links.y == 0u) {
      best = bound;
      result.normalDistance = vec4(sphereTreeDirectionToWorld(instance, sphereOutwardNormal(node.sphere, local)), bound);
      result.leaf.y = node.links.z;
      continue;
    }
    for (uint c = node.links.y; c-- > 0u;) {
      if (top < uint(HG_SPHERE_TREE_STACK)) stack[top++] = node.links.x + c;
      else result.leaf.w = 1u;
    }
  }
  return result;
}

/// The point query over instances 0 .. instanceCount - 1 (hg::sphereTreeQueryPoint with
/// HG_SPHERE_QUERY_ALL_INSTANCES): each searched in index order with the best signed
/// distance so far as its search radius, so the smallest distance wins and, of equal ones,
/// the lower instance. leaf = (instance or HG_SPHERE_QUERY_ALL_INSTANCES when none, leaf
/// sphere, nodes visited over all instances, 1 when some stack overflowed).
SpherePointResult sphereTreeNearestAll(uint instanceCount, vec3 x, float searchRadius) {
  SpherePointResult result;
  result.normalDistance = vec4(0.0, 1.0, 0.0, HG_NO_CONTACT_GAP);
  result.leaf = uvec4(HG_SPHERE_QUERY_ALL_INSTANCES, 0u, 0u, 0u);
  float best = searchRadius;
  for (uint i = 0u; i < instanceCount; ++i) {
    SpherePointResult r = sphereTreeNearest(i, x, best);
    result.leaf.z += r.leaf.z;
    result.leaf.w = max(result.leaf.w, r.leaf.w);
    if (r.normalDistance.w < best) {  // found (a miss returns HG_NO_CONTACT_GAP >= best)
      best = r.normalDistance.w;
      result.normalDistance = r.normalDistance;
      result.leaf.x = i;
      result.leaf.y = r.leaf.y;
    }
  }
  return result;
}

// Child c (a constant) of the opened node, pushed when it overlaps the other node (the
// body of sphereTreeCollide's child loop, unrolled by hand: see there).
#define HG_SPHERE_TREE_PUSH_CHILD(c)                                                                  \
  if ((c) < count) {                                                                                  \
    bool overlap = openA ? spheresOverlap(sphereTreeNodes[baseA + first + (c)].sphere, ys)             \
                         : spheresOverlap(x.sphere,                                                   \
                                          sphereTreeRelativeSphere(rel, sphereTreeNodes[baseB + first + (c)].sphere)); \
    if (overlap) {                                                                                    \
      if (top < uint(HG_SPHERE_TREE_STACK)) stack[top++] = openA ? uvec2(first + (c), pair.y) : uvec2(pair.x, first + (c)); \
      else flags |= HG_SPHERE_PAIR_STACK_OVERFLOW;                                                    \
    }                                                                                                 \
  }

/// As hg::collide (all pairs, counts only; hg::sphereTreeQueryPair on the CPU): instance
/// b's tree against instance a's, in a's frame (sphereTreeRelativePose), from the root
/// pair when the roots overlap; a popped pair of leaves is a colliding leaf pair, else the
/// member sphereTreeOpenFirst names is opened and its children (at most 8) that overlap
/// the other node are pushed last to first. The stack holds HG_SPHERE_TREE_STACK node
/// pairs (two uints each); a child that does not fit is dropped and
/// HG_SPHERE_PAIR_STACK_OVERFLOW set. The child loop is unrolled by hand (at most 8
/// children; Mesa 22 does not unroll it): llvmpipe caps the loop iterations of an invocation at
/// 65535 in all (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS, counted over every loop of the
/// shader); a traversal cut short by such a cap leaves pairs on the stack and sets
/// HG_SPHERE_PAIR_INCOMPLETE.
SpherePairResult sphereTreeCollide(uint a, uint b) {
  SphereTreeInstance ia = sphereTreeInstances[a];
  SphereTreeInstance ib = sphereTreeInstances[b];
  SphereTreeRelativePose rel = sphereTreeRelativePose(ia, ib);
  uint baseA = ia.base.x;
  uint baseB = ib.base.x;
  float deepest = 0.0;
  float smallestGap = HG_NO_CONTACT_GAP;
  uint colliding = 0u;
  uint visited = 0u;
  uint flags = 0u;
  uvec2 stack[HG_SPHERE_TREE_STACK];
  uint top = 0u;
  if (spheresOverlap(sphereTreeNodes[baseA].sphere, sphereTreeRelativeSphere(rel, sphereTreeNodes[baseB].sphere)))
    stack[top++] = uvec2(0u, 0u);
  while (top > 0u) {
    uvec2 pair = stack[--top];
    visited += 1u;
    SphereTreeNode x = sphereTreeNodes[baseA + pair.x];
    SphereTreeNode y = sphereTreeNodes[baseB + pair.y];
    vec4 ys = sphereTreeRelativeSphere(rel, y.sphere);
    if (x.links.y == 0u && y.links.y == 0u) {
      colliding += 1u;
      float gap = sphereGap(x.sphere, ys);
      deepest = max(deepest, -gap);
      smallestGap = min(smallestGap, gap);
      continue;
    }
    bool openA = sphereTreeOpenFirst(x, y);
    uint first = openA ? x.links.x : y.links.x;
    uint count = openA ? x.links.y : y.links.y;
    HG_SPHERE_TREE_PUSH_CHILD(7u)
    HG_SPHERE_TREE_PUSH_CHILD(6u)
    HG_SPHERE_TREE_PUSH_CHILD(5u)
    HG_SPHERE_TREE_PUSH_CHILD(4u)
    HG_SPHERE_TREE_PUSH_CHILD(3u)
    HG_SPHERE_TREE_PUSH_CHILD(2u)
    HG_SPHERE_TREE_PUSH_CHILD(1u)
    HG_SPHERE_TREE_PUSH_CHILD(0u)
  }
  if (top > 0u) flags |= HG_SPHERE_PAIR_INCOMPLETE;
  SpherePairResult result;
  result.depthGap = vec4(deepest, smallestGap, 0.0, 0.0);
  result.counts = uvec4(colliding, flags, visited, 0u);
  return result;
}
