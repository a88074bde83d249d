#version 450 core
// The links of the interacting pairs (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp), one invocation per particle i over its CSR neighbours
// (particle_skin_neighbours.comp), exactly as buildParticleSkinModel on the CPU: rest
// length |X_j - X_i| (`precise`: the CPU's operation order, no fusion), k_ij and c_ij
// from the shared particleLinkCoefficients.
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Points { vec4 points[]; };  // xyz m, w radius
layout(std430, binding = HG_BINDING_PARTICLE_LINK_OFFSETS) readonly buffer LinkOffsets { uint linkOffsets[]; };
layout(std430, binding = HG_BINDING_PARTICLE_NEIGHBOURS) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINKS) writeonly buffer Links { ParticleLink links[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform float finestRadius;    // m
layout(location = 2) uniform float springStiffness; // 1/s^2
layout(location = 3) uniform float springDamping;   // 1/s

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  vec4 pi = points[i];
  for (uint k = linkOffsets[i]; k < linkOffsets[i + 1u]; ++k) {
    uint j = neighbours[k];
    vec4 pj = points[j];
    precise vec3 d = pj.xyz - pi.xyz;
    precise float restLength = sqrt((d.x * d.x + d.y * d.y) + d.z * d.z);
    vec2 coefficients = particleLinkCoefficients(pi.w, pj.w, finestRadius, springStiffness, springDamping);
    ParticleLink link;
    link.neighbour = j;
    link.restLength = restLength;
    link.stiffness = coefficients.x;
    link.damping = coefficients.y;
    links[k] = link;
  }
}
