#version 450 core
// Self contact on the GPU (docs/methods.md section 8; sim/gpu/GpuSelfContact.cpp): the
// pairs of the substep, as the CPU backend's SelfContact::findPairs finds them, one
// invocation per vertex (its vertex-triangle pairs) and per edge (its edge-edge pairs
// with higher-numbered edges). Candidates are the items of the entries of the 27 cells
// around the vertex in the triangles' table (around the edge's midpoint in the edges'
// table), each entry visited once;
// for every pair closer than the query radius at the start the nearest distance of its
// four vertices is lowered (atomicMin), and a pair that the substep may have brought
// within the thickness is appended for the separation (a pair past the capacity is
// counted as dropped: the displacement bound still holds for it).
#include "kernels/self_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Start { vec4 start[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_EDGES) readonly buffer Edges { uvec2 edges[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CONTROL) buffer Control { SelfContactControl control; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CELLS) readonly buffer Cells { uint cells[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_ITEMS) readonly buffer Items { uint items[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_NEAREST) buffer Nearest { uint nearest[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_PAIRS) writeonly buffer Pairs { SelfContactPair pairs[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TANGLED) readonly buffer Tangled { uint tangled[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_LAYERS) readonly buffer Layers { uint layers[]; };
layout(location = 0) uniform uint vertexCount;
layout(location = 1) uniform uint triangleCount;
layout(location = 2) uniform uint edgeCount;
layout(location = 3) uniform uint tableSize;
layout(location = 4) uniform float thickness;  // m
layout(location = 5) uniform uint pairCapacity;

float moveOf(uint v) { return length(positions[v].xyz - start[v].xyz); }

/// SelfContact::addPair.
void addPair(uvec4 v, vec4 weights, float queryRadius) {
  vec3 separation = pairSeparation(weights, start[v.x].xyz, start[v.y].xyz, start[v.z].xyz, start[v.w].xyz);
  float distance = length(separation);
  if (!(distance < queryRadius)) return;
  uvec4 flags = uvec4(tangled[v.x], tangled[v.y], tangled[v.z], tangled[v.w]);
  bool acrossLayers = layers[v.x] != layers[v.w];  // x on one side of the pair, w on the other
  float reach = 0.0f;  // how much the substep can have shortened the pair: 2 x its largest move
  for (int k = 0; k < 4; ++k) {
    if (pairBoundsVertex(flags[k], acrossLayers)) atomicMin(nearest[v[k]], floatBitsToUint(distance));
    reach = max(reach, 2.0f * moveOf(v[k]));
  }
  if (!(distance > 0.0f) || !(distance - reach < thickness) || pairUntangles(flags, acrossLayers)) return;
  uint slot = atomicAdd(control.pairCount, 1u);
  if (slot < pairCapacity)
    pairs[slot] = SelfContactPair(v, weights, vec4(separation, 0.0f), vec4(separation / distance, 0.0f));
  else
    atomicAdd(control.droppedPairs, 1u);
}

void vertexTriangle(uint v, uint triangle, float queryRadius) {
  uvec3 t = uvec3(triangles[3u * triangle], triangles[3u * triangle + 1u], triangles[3u * triangle + 2u]);
  if (t.x == v || t.y == v || t.z == v) return;
  vec3 p = start[v].xyz;
  vec3 a = start[t.x].xyz;
  vec3 b = start[t.y].xyz;
  vec3 c = start[t.z].xyz;
  vec3 lo = min(min(a, b), c) - queryRadius;
  vec3 hi = max(max(a, b), c) + queryRadius;
  if (!all(lessThanEqual(lo, p)) || !all(lessThanEqual(p, hi))) return;
  addPair(uvec4(v, t), vertexTriangleWeights(p, a, b, c), queryRadius);
}

void edgeEdge(uvec2 e, uint other, float queryRadius) {
  uvec2 f = edges[other];
  if (e.x == f.x || e.x == f.y || e.y == f.x || e.y == f.y) return;
  vec3 a = start[e.x].xyz;
  vec3 b = start[e.y].xyz;
  vec3 c = start[f.x].xyz;
  vec3 d = start[f.y].xyz;
  vec3 lo = min(a, b) - queryRadius;
  vec3 hi = max(a, b) + queryRadius;
  if (!all(lessThanEqual(lo, max(c, d))) || !all(lessThanEqual(min(c, d), hi))) return;
  addPair(uvec4(e, f), edgeEdgeWeights(a, b, c, d), queryRadius);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= vertexCount + edgeCount) return;
  bool isVertex = i < vertexCount;
  uint edge = i - vertexCount;
  uvec2 e = isVertex ? uvec2(0u) : edges[edge];
  vec3 query = isVertex ? start[i].xyz : 0.5f * (start[e.x].xyz + start[e.y].xyz);
  if (any(isnan(query)) || any(isinf(query))) return;
  float queryRadius = control.queryRadius;
  ivec3 home = selfContactCell(query, control.cellSize);
  uint visited[27];
  uint visitedCount = 0u;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        uint entry = selfContactCellHash(home + ivec3(dx, dy, dz), tableSize) + (isVertex ? 0u : tableSize);
        bool seen = false;
        for (uint k = 0u; k < visitedCount; ++k) seen = seen || visited[k] == entry;
        if (seen) continue;
        visited[visitedCount++] = entry;
        for (uint k = cells[entry]; k < cells[entry + 1u]; ++k) {
          uint item = items[k];
          if (isVertex)
            vertexTriangle(i, item, queryRadius);
          else if (item - triangleCount > edge)
            edgeEdge(e, item - triangleCount, queryRadius);
        }
      }
}
