#version 450 core
// The rotation of every particle for the surface (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp; CpuParticleSkinner::surface on the CPU), one invocation
// per particle: its bone's rotation (frame 0, SurfaceFrame::Bone), or its neighbourhood's
// (frame 1, SurfaceFrame::Local): A = sum_j (x_j - x_i) (X_j - X_i)^T over its links in
// order, then extractRotation warm-started from its previous rotation.
#include "kernels/particle_skinning_layout.glslh"
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_REST) readonly buffer Rest { ParticleRest rest[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINK_OFFSETS) readonly buffer LinkOffsets { uint linkOffsets[]; };
layout(std430, binding = HG_BINDING_PARTICLE_LINKS) readonly buffer Links { ParticleLink links[]; };
layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_BONE_ROTATIONS) readonly buffer BoneRotations { vec4 boneRotations[]; };
layout(std430, binding = HG_BINDING_PARTICLE_ROTATIONS) buffer Rotations { vec4 rotations[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uint positionSlot;  // of x
layout(location = 2) uniform uint frame;         // 0: bone, 1: local
layout(location = 3) uniform int iterations;     // of extractRotation

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  if (frame == 0u) {
    rotations[i] = boneRotations[rest[i].bone.x];
    return;
  }
  uint base = positionSlot * particleCount;
  vec3 xi = positions[base + i].xyz;
  vec3 restI = rest[i].position.xyz;
  mat3 a = mat3(0.0);
  for (uint k = linkOffsets[i]; k < linkOffsets[i + 1u]; ++k) {
    uint j = links[k].neighbour;
    a += outerProduct(positions[base + j].xyz - xi, rest[j].position.xyz - restI);
  }
  rotations[i] = extractRotation(a, rotations[i], iterations);
}
