#version 450 core
// Sphere-tree point queries (docs/methods.md section 6; sim/gpu/GpuSphereTreeQueries.cpp): one
// invocation per query point (striding over the rest when the dispatch is capped) finds
// the nearest leaf surface of one instance (sphereTreeNearest) or of all of them
// (sphereTreeNearestAll), the traversal of hg::sphereTreeQueryPoint on the CPU. Each
// result is written by its own invocation only.
#include "kernels/sphere_tree.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

#include "sphere_tree_common.glsl"

layout(std430, binding = HG_BINDING_SPHERE_QUERY_POINTS) readonly buffer Points { vec4 points[]; };  // xyz m, w search radius m
layout(std430, binding = HG_BINDING_SPHERE_QUERY_RESULTS) writeonly buffer Results { SpherePointResult results[]; };

layout(location = 0) uniform uint queryCount;
layout(location = 1) uniform uint target;         // an instance, or HG_SPHERE_QUERY_ALL_INSTANCES
layout(location = 2) uniform uint instanceCount;  // for HG_SPHERE_QUERY_ALL_INSTANCES

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint k = gl_GlobalInvocationID.x; k < queryCount; k += stride) {
    vec4 q = points[k];
    float radius = min(q.w, HG_NO_CONTACT_GAP);
    if (target == HG_SPHERE_QUERY_ALL_INSTANCES) results[k] = sphereTreeNearestAll(instanceCount, q.xyz, radius);
    else results[k] = sphereTreeNearest(target, q.xyz, radius);
  }
}
