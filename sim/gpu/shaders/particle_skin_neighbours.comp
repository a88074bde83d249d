#version 450 core
// Particle neighbour search, the interacting pairs (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp; findInteractingPairs in sim/skinning/ParticleSkinning.cpp
// on the CPU), one invocation per particle i over the 27 cells around its own:
//  mode 0: counts the particles j != i whose rest gap |X_j - X_i| - r_i - r_j is below
//          interactionGap min(r_i, r_j) into linkOffsets[i] (then scanned into CSR
//          offsets by particle_skin_scan.comp);
//  mode 1: writes them into neighbours[linkOffsets[i] ..], sorted ascending by insertion
//          as they are found, so the lists do not depend on the order inside the cells.
// The range test is the CPU's own (kernels/particle_skinning.glslh particlesInteract:
// squared, HG_PRECISE), so both backends decide borderline pairs (e.g. the fourth shell of
// a closest packing, exactly at the range) the same way.
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Points { vec4 points[]; };  // xyz m, w radius
layout(std430, binding = HG_BINDING_PARTICLE_GRID) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = HG_BINDING_PARTICLE_GRID_ITEMS) readonly buffer GridItems { uint gridItems[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINK_OFFSETS) buffer LinkOffsets { uint linkOffsets[]; };
layout(std430, binding = HG_BINDING_PARTICLE_NEIGHBOURS) buffer Neighbours { uint neighbours[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uint mode;
layout(location = 4) uniform float interactionGap;
#include "particle_skin_grid.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  vec4 pi = points[i];
  ivec3 c = gridCellOf(pi.xyz);
  ivec3 lo = max(c - 1, ivec3(0));
  ivec3 hi = min(c + 1, gridDims.xyz - 1);
  uint first = mode == 0u ? 0u : linkOffsets[i];
  uint found = 0u;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        uint cell = gridFlatIndex(ivec3(x, y, z));
        for (uint k = cellStarts[cell]; k < cellStarts[cell + 1u]; ++k) {
          uint j = gridItems[k];
          if (j == i || !particlesInteract(pi, points[j], interactionGap)) continue;
          if (mode == 1u) {  // insertion into the sorted list so far
            uint slot = first + found;
            while (slot > first && neighbours[slot - 1u] > j) {
              neighbours[slot] = neighbours[slot - 1u];
              --slot;
            }
            neighbours[slot] = j;
          }
          ++found;
        }
      }
  if (mode == 0u) linkOffsets[i] = found;
}
