#version 450 core
// Body skinning pass (GPU backend, sim/gpu/GpuBodySkinner.cpp): one invocation per
// vertex, linear blend (method 0) or dual quaternion (method 1) skinning of its rest
// position and normal. Orchestration only: the per-vertex math is kernels/skinning.glslh,
// shared with the CPU backend (sim/skinning/BodySkinner.cpp), which runs the same calls.
// The joint buffer holds the records of the method in use (bound to both bindings).
#include "kernels/skinning_layout.glslh"
#include "kernels/skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SKIN_VERTICES) readonly buffer SkinVertices { SkinVertex skinVertices[]; };
layout(std430, binding = HG_BINDING_SKIN_MATRICES) readonly buffer SkinMatrices { mat4 skinMatrices[]; };
layout(std430, binding = HG_BINDING_SKIN_DUAL_QUATERNIONS) readonly buffer SkinDualQuaternions {
  DualQuaternion skinDualQuaternions[];
};
layout(std430, binding = HG_BINDING_SKIN_POSITIONS) writeonly buffer SkinPositions { vec4 skinPositions[]; };
layout(std430, binding = HG_BINDING_SKIN_NORMALS) writeonly buffer SkinNormals { vec4 skinNormals[]; };
layout(location = 0) uniform uint vertexCount;
layout(location = 1) uniform uint method;  // 0: linear blend, 1: dual quaternion

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= vertexCount) return;
  SkinVertex v = skinVertices[i];
  uvec4 j = v.joints;
  SkinnedVertex s;
  if (method == 0u) {
    s = linearBlendSkin(v.position.xyz, v.normal.xyz, skinMatrices[j.x], skinMatrices[j.y], skinMatrices[j.z],
                        skinMatrices[j.w], v.weights);
  } else {
    s = dualQuaternionSkin(v.position.xyz, v.normal.xyz, skinDualQuaternions[j.x], skinDualQuaternions[j.y],
                           skinDualQuaternions[j.z], skinDualQuaternions[j.w], v.weights);
  }
  skinPositions[i] = vec4(s.position, 1.0);
  skinNormals[i] = vec4(s.normal, 0.0);
}
