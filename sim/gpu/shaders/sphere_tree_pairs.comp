#version 450 core
// Sphere-tree pair queries (docs/methods.md section 6; sim/gpu/GpuSphereTreeQueries.cpp): one
// invocation per instance pair (striding over the rest when the dispatch is capped) runs
// the all-pairs tree-vs-tree test (sphereTreeCollide, the traversal of hg::collide and
// hg::sphereTreeQueryPair). Each result is written by its own invocation only.
#include "kernels/sphere_tree.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

#include "sphere_tree_common.glsl"

layout(std430, binding = HG_BINDING_SPHERE_QUERY_PAIRS) readonly buffer Pairs { uvec2 pairs[]; };  // instances a, b
layout(std430, binding = HG_BINDING_SPHERE_PAIR_RESULTS) writeonly buffer Results { SpherePairResult results[]; };

layout(location = 0) uniform uint queryCount;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint k = gl_GlobalInvocationID.x; k < queryCount; k += stride) {
    uvec2 pair = pairs[k];
    results[k] = sphereTreeCollide(pair.x, pair.y);
  }
}
