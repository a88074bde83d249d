#version 450 core
// Divergence check after advance() (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp), one invocation per particle, as the CPU backend: a
// non-finite position or velocity, or a particle farther than `limit` from its target,
// sets bit 1 of the status word and lowers its first-particle index to the particle's
// (atomics: the host reads back these two words only).
#include "kernels/particle_skinning_layout.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_PARTICLE_STATUS) buffer DivergenceStatus {
  uint statusBits;     // 1: diverged
  uint firstDiverged;  // lowest index of a diverged particle (0xffffffff: none)
};
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uvec4 slots;  // x: position slot of x, y: velocity slot of v, z: position slot of the targets
layout(location = 2) uniform float limit;  // m

// Exponent bits all set: an infinity or a NaN (a bit test, which no optimisation removes).
bool allFinite(vec3 v) {
  uvec3 exponent = floatBitsToUint(v) & uvec3(0x7f800000u);
  return all(notEqual(exponent, uvec3(0x7f800000u)));
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  vec3 x = positions[slots.x * particleCount + i].xyz;
  vec3 v = velocities[slots.y * particleCount + i].xyz;
  vec3 target = positions[slots.z * particleCount + i].xyz;
  if (!allFinite(x) || !allFinite(v) || length(x - target) > limit) {
    atomicOr(statusBits, 1u);
    atomicMin(firstDiverged, i);
  }
}
