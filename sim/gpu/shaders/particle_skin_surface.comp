#version 450 core
// The surface from the particles (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp; CpuParticleSkinner::surface on the CPU), one invocation
// per mesh vertex: the weighted sum of its four particles' votes (surfaceVote in
// kernels/particle_skinning.glslh), in the binding's order.
#include "kernels/particle_skinning_layout.glslh"
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_BINDINGS) readonly buffer Bindings { VertexBinding bindings[]; };
layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_ROTATIONS) readonly buffer Rotations { vec4 rotations[]; };
layout(std430, binding = HG_BINDING_PARTICLE_SURFACE) writeonly buffer Surface { vec4 surface[]; };
layout(location = 0) uniform uint vertexCount;
layout(location = 1) uniform uint particleCount;
layout(location = 2) uniform uint positionSlot;  // of x

vec3 vote(uint particle, vec3 restOffset) {
  return surfaceVote(positions[positionSlot * particleCount + particle].xyz, rotations[particle], restOffset);
}

void main() {
  uint v = gl_GlobalInvocationID.x;
  if (v >= vertexCount) return;
  VertexBinding b = bindings[v];
  vec3 p = vec3(0.0);
  p += b.weights.x * vote(b.particles.x, b.offset0.xyz);
  p += b.weights.y * vote(b.particles.y, b.offset1.xyz);
  p += b.weights.z * vote(b.particles.z, b.offset2.xyz);
  p += b.weights.w * vote(b.particles.w, b.offset3.xyz);
  surface[v] = vec4(p, 1.0);
}
