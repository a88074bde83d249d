#version 450 core
// Self contact on the GPU (docs/methods.md section 8; sim/gpu/GpuSelfContact.cpp): the
// frame's tangle search, a conservative filter before the exact test on the CPU. Two
// triangles that share no vertex intersect only if an edge of one meets the other, so
// the edge-triangle pairs kept here name every intersecting triangle pair; the CPU tests
// only those exactly (SelfContact::beginFrame with candidates) instead of every triangle.
// POSITIONS_IN holds the frame's start; the hashed grid is built on it in between:
//  mode 0, one invocation: the grid's cell size widened to 1.25 longest edges (an edge
//          that meets a triangle has its midpoint within half its length plus 2/3 of the
//          triangle's longest median, at most 7/6 of the longest edge, of the triangle's
//          centroid) and the candidate count reset;
//  mode 1, one invocation per edge: the triangles of the 27 cells around its midpoint
//          that share no vertex with it and that segmentMayCrossTriangle keeps, appended
//          as (edge, triangle); those past the capacity are only counted (the CPU then
//          tests every triangle pair, and the buffer grows).
#include "kernels/self_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Start { vec4 start[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_EDGES) readonly buffer Edges { uvec2 edges[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CONTROL) buffer Control { SelfContactControl control; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CELLS) readonly buffer Cells { uint cells[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_ITEMS) readonly buffer Items { uint items[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TANGLE_CANDIDATES) writeonly buffer Candidates { uvec2 candidates[]; };
layout(location = 0) uniform uint edgeCount;
layout(location = 1) uniform uint tableSize;
layout(location = 2) uniform uint mode;
layout(location = 3) uniform uint capacity;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (mode == 0u) {
    if (i == 0u) {
      control.cellSize = max(control.cellSize, 1.25f * uintBitsToFloat(control.maxEdgeLengthBits));
      control.tangleCandidates = 0u;
    }
    return;
  }
  if (i >= edgeCount) return;
  uvec2 e = edges[i];
  vec3 p = start[e.x].xyz;
  vec3 q = start[e.y].xyz;
  vec3 middle = 0.5f * (p + q);
  if (any(isnan(middle)) || any(isinf(middle))) return;
  ivec3 home = selfContactCell(middle, control.cellSize);
  uint visited[27];
  uint visitedCount = 0u;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        uint entry = selfContactCellHash(home + ivec3(dx, dy, dz), tableSize);  // the triangles' table
        bool seen = false;
        for (uint k = 0u; k < visitedCount; ++k) seen = seen || visited[k] == entry;
        if (seen) continue;
        visited[visitedCount++] = entry;
        for (uint k = cells[entry]; k < cells[entry + 1u]; ++k) {
          uint t = items[k];
          uvec3 v = uvec3(triangles[3u * t], triangles[3u * t + 1u], triangles[3u * t + 2u]);
          if (any(equal(v, uvec3(e.x))) || any(equal(v, uvec3(e.y)))) continue;
          if (!segmentMayCrossTriangle(p, q, start[v.x].xyz, start[v.y].xyz, start[v.z].xyz)) continue;
          uint slot = atomicAdd(control.tangleCandidates, 1u);
          if (slot < capacity) candidates[slot] = uvec2(i, t);
        }
      }
}
