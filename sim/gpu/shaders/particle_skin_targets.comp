#version 450 core
// The particles' targets for a new pose (GPU backend of particle skinning,
// sim/gpu/GpuParticleSkinner.cpp; particleTargets and CpuParticleSkinner::advance on the
// CPU), one invocation per particle: the rest position moved with its bone, t = S_bone X
// (BoneTarget::Bone), or skinned by the blend of its joints' dual quaternions
// (BoneTarget::DualQuaternion, skinning.glslh, as the CPU); and the target velocity
// (t - t_previous) / frameTime. `precise` and in GLM's order ((m0 x + m1 y) + (m2 z + m3 1))
// for the matrix, so the targets equal the CPU's.
#include "kernels/particle_skinning_layout.glslh"
#include "kernels/skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_REST) readonly buffer Rest { ParticleRest rest[]; };
layout(std430, binding = HG_BINDING_PARTICLE_JOINT_MATRICES) readonly buffer JointMatrices { mat4 jointMatrices[]; };
layout(std430, binding = HG_BINDING_PARTICLE_JOINT_DUAL_QUATERNIONS) readonly buffer JointDualQuaternions {
  DualQuaternion jointDualQuaternions[];
};
layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_VELOCITIES) writeonly buffer Velocities { vec4 velocities[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uvec4 slots;       // x: position slot of the targets, y: velocity slot of their velocities
layout(location = 2) uniform float frameTime;   // s: steps x timeStep (at least one step)
layout(location = 3) uniform uint dualQuaternionTarget;  // 1: BoneTarget::DualQuaternion

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  ParticleRest r = rest[i];
  vec3 p = r.position.xyz;
  precise vec4 target;
  if (dualQuaternionTarget != 0u) {
    DualQuaternion q = blendDualQuaternions(jointDualQuaternions[r.joints.x], jointDualQuaternions[r.joints.y],
                                            jointDualQuaternions[r.joints.z], jointDualQuaternions[r.joints.w],
                                            r.weights);
    target = vec4(dualQuaternionTransformPoint(q, p), 1.0);
  } else {
    mat4 m = jointMatrices[r.bone.x];
    target = (m[0] * p.x + m[1] * p.y) + (m[2] * p.z + m[3]);
  }
  uint iTarget = slots.x * particleCount + i;
  precise vec3 targetVelocity = (target.xyz - positions[iTarget].xyz) / frameTime;
  positions[iTarget] = vec4(target.xyz, 1.0);
  velocities[slots.y * particleCount + i] = vec4(targetVelocity, 0.0);
}
