// The uniform grid of the particle neighbour search (included by particle_skin_grid.comp
// and particle_skin_neighbours.comp; sim/gpu/GpuParticleSkinner.cpp sets the uniforms).
// The same grid as the CPU's (PointGrid in sim/skinning/ParticleSkinning.cpp): origin =
// the particles' lower corner, cell = (2 + interactionGap) x the largest radius (the
// largest interaction range, so interacting particles lie in neighbouring cells),
// dims = floor(extent / cell) + 1. `precise`: no fused multiply-add, so a particle
// falls in the cell the CPU puts it in.
layout(location = 2) uniform vec4 gridOrigin;  // xyz: origin, m; w: cell size, m
layout(location = 3) uniform ivec4 gridDims;   // xyz: cells along x, y, z; w unused

ivec3 gridCellOf(vec3 p) {
  precise vec3 scaled = (p - gridOrigin.xyz) / gridOrigin.w;
  return clamp(ivec3(floor(scaled)), ivec3(0), gridDims.xyz - 1);
}

uint gridFlatIndex(ivec3 c) { return uint((c.z * gridDims.y + c.y) * gridDims.x + c.x); }
