#version 450 core
// One acceleration evaluation a = f(x, v) of particle skinning (GPU backend,
// sim/gpu/GpuParticleSkinner.cpp; CpuParticleSkinner::evaluate on the CPU), one
// invocation per particle: the pair forces (a, b) gathered over its CSR links in order,
// over its mass, plus the bone terms (c, d). Orchestration only: the math is
// kernels/particle_skinning.glslh, shared with the CPU backend.
// The state buffers hold several arrays ("slots") of particleCount vec4 each; the
// uniforms say which slot is read as x, v, target, target velocity and which is written.
#include "kernels/particle_skinning_layout.glslh"
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_REST) readonly buffer Rest { ParticleRest rest[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINK_OFFSETS) readonly buffer LinkOffsets { uint linkOffsets[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINKS) readonly buffer Links { ParticleLink links[]; };
layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_PARTICLE_ACCELERATIONS) writeonly buffer Accelerations { vec4 accelerations[]; };
layout(location = 0) uniform uint particleCount;
// x: position slot of x, y: velocity slot of v, z: acceleration slot written,
// w: position slot of the targets; the target velocities' velocity slot is targetVelocitySlot.
layout(location = 1) uniform uvec4 slots;
layout(location = 2) uniform uint targetVelocitySlot;
layout(location = 3) uniform float boneStiffness;  // 1/s^2
layout(location = 4) uniform float boneDamping;    // 1/s

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  uint xBase = slots.x * particleCount;
  uint vBase = slots.y * particleCount;
  vec3 xi = positions[xBase + i].xyz;
  vec3 vi = velocities[vBase + i].xyz;
  vec3 force = vec3(0.0);
  for (uint k = linkOffsets[i]; k < linkOffsets[i + 1u]; ++k) {
    ParticleLink link = links[k];
    force += particlePairForce(xi, vi, positions[xBase + link.neighbour].xyz, velocities[vBase + link.neighbour].xyz,
                               link);
  }
  vec3 target = positions[slots.w * particleCount + i].xyz;
  vec3 targetVelocity = velocities[targetVelocitySlot * particleCount + i].xyz;
  vec3 a = force * rest[i].mass.y +
           particleBoneAcceleration(xi, vi, target, targetVelocity, boneStiffness, boneDamping, rest[i].mass.z);
  accelerations[slots.z * particleCount + i] = vec4(a, 0.0);
}
