#version 450 core
// Self contact on the GPU (docs/methods.md section 8; sim/gpu/GpuSelfContact.cpp), first
// pass of a substep that moved the vertices from POSITIONS_IN to POSITIONS_OUT:
//  mode 0, one invocation per vertex and per edge: the vertex's move into the move
//          histogram and its nearest distance reset to the largest query radius; the
//          edge's length at the start into the longest edge (atomicMax of float bits,
//          which order as the floats do for lengths >= 0);
//  mode 1, one invocation: the query radius from the histogram (its 99th percentile,
//          rounded up to its bucket's upper edge) and the hashed grid's cell size, query radius +
//          longest edge (x 1.01 against rounding), so that a vertex within the query
//          radius of a triangle lies within one cell of the triangle's centroid along each
//          axis, and two edges within it have their midpoints so.
#include "kernels/self_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Start { vec4 start[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_EDGES) readonly buffer Edges { uvec2 edges[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CONTROL) buffer Control { SelfContactControl control; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_NEAREST) writeonly buffer Nearest { uint nearest[]; };
layout(location = 0) uniform uint vertexCount;
layout(location = 1) uniform uint edgeCount;
layout(location = 2) uniform uint mode;
layout(location = 3) uniform float thickness;  // m

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (mode == 0u) {
    if (i < vertexCount) {
      atomicAdd(control.moveHistogram[moveBucket(length(positions[i].xyz - start[i].xyz))], 1u);
      nearest[i] = floatBitsToUint(HG_SELF_CONTACT_MAX_QUERY_RADIUS);
    }
    if (i < edgeCount) {
      uvec2 e = edges[i];
      float edgeLength = length(start[e.y].xyz - start[e.x].xyz);
      if (!isnan(edgeLength) && !isinf(edgeLength)) atomicMax(control.maxEdgeLengthBits, floatBitsToUint(edgeLength));
    }
  } else if (i == 0u) {
    float radius = 2.0f * thickness;
    if (vertexCount > 0u) {
      uint rank = queryMoveRank(vertexCount);
      uint bucket = 0u;
      uint below = control.moveHistogram[0];
      while (below <= rank && bucket + 1u < HG_SELF_CONTACT_MOVE_BUCKETS) below += control.moveHistogram[++bucket];
      radius = queryRadiusOfBucket(bucket, thickness);
    }
    control.queryRadius = radius;
    control.cellSize = 1.01f * (radius + uintBitsToFloat(control.maxEdgeLengthBits));
  }
}
