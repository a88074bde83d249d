#version 450 core
// Self contact on the GPU (docs/methods.md section 8; sim/gpu/GpuSelfContact.cpp): the
// hashed grids of the substep's start, a counting sort of the items (every triangle by its
// centroid into the first table, then every edge by its midpoint into the second) by
// table entry, one invocation per item:
//  mode 0: the item finds its entry (kernels/self_contact.glslh selfContactCellHash) and
//          takes a rank in it by an atomic increment of the entry's count (cells[]
//          cleared to 0 before); an item with a non-finite position takes none;
//  mode 1: after the exclusive prefix sum of the counts (particle_skin_scan.comp) turned
//          cells[] into starts, it writes its index at start + rank.
// The order inside an entry follows the atomics; nothing downstream depends on it (the
// pair pass accumulates with order-independent integer atomics).
#include "kernels/self_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Start { vec4 start[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_EDGES) readonly buffer Edges { uvec2 edges[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CONTROL) readonly buffer Control { SelfContactControl control; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CELLS) buffer Cells { uint cells[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CELL_RANKS) buffer CellRanks { uvec2 cellRanks[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_ITEMS) writeonly buffer Items { uint items[]; };
layout(location = 0) uniform uint triangleCount;
layout(location = 1) uniform uint edgeCount;
layout(location = 2) uniform uint tableSize;  // entries of each table, a power of two
layout(location = 3) uniform uint mode;

const uint kNoEntry = 0xffffffffu;

vec3 itemCentre(uint item) {
  if (item < triangleCount) {
    uint t = 3u * item;
    return (start[triangles[t]].xyz + start[triangles[t + 1u]].xyz + start[triangles[t + 2u]].xyz) / 3.0f;
  }
  uvec2 e = edges[item - triangleCount];
  return 0.5f * (start[e.x].xyz + start[e.y].xyz);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= triangleCount + edgeCount) return;
  if (mode == 0u) {
    vec3 centre = itemCentre(i);
    if (any(isnan(centre)) || any(isinf(centre))) {
      cellRanks[i] = uvec2(kNoEntry, 0u);
      return;
    }
    uint entry = selfContactCellHash(selfContactCell(centre, control.cellSize), tableSize) +
                 (i < triangleCount ? 0u : tableSize);
    cellRanks[i] = uvec2(entry, atomicAdd(cells[entry], 1u));
  } else {
    uvec2 entryRank = cellRanks[i];
    if (entryRank.x != kNoEntry) items[cells[entryRank.x] + entryRank.y] = i;
  }
}
