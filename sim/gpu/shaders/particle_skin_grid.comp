#version 450 core
// Particle neighbour search, counting sort by grid cell (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp), one invocation per particle:
//  mode 0: the particle finds its cell and takes a rank in it by an atomic increment of
//          the cell's count (cells[] cleared to 0 before);
//  mode 1: after the exclusive prefix sum of the counts (particle_skin_scan.comp) turned
//          cells[] into cell starts, it writes its index at start + rank.
// The order inside a cell follows the atomics and may change from run to run; nothing
// downstream depends on it (every neighbour list is sorted by index).
#include "kernels/particle_skinning_layout.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Points { vec4 points[]; };  // xyz m, w radius
layout(std430, binding = HG_BINDING_PARTICLE_GRID) buffer Cells { uint cells[]; };  // counts, then starts
layout(std430, binding = HG_BINDING_PARTICLE_SCRATCH) buffer CellRanks { uvec2 cellRanks[]; };  // cell, rank
layout(std430, binding = HG_BINDING_PARTICLE_GRID_ITEMS) writeonly buffer GridItems { uint gridItems[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uint mode;
#include "particle_skin_grid.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  if (mode == 0u) {
    uint cell = gridFlatIndex(gridCellOf(points[i].xyz));
    cellRanks[i] = uvec2(cell, atomicAdd(cells[cell], 1u));
  } else {
    uvec2 cellRank = cellRanks[i];
    gridItems[cells[cellRank.x] + cellRank.y] = i;
  }
}
