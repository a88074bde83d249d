#version 450 core
// ProjectiveJacobi with implicit bending, before each iteration (kernels/projective_bending.glslh):
// every hinge's local step at the iterate x^k = y + u^k, K x - p and its weight, read
// by the vertices' gather in cloth_pd_iterate.comp. Offsets from the hinge's first
// vertex are formed from differences of nearby values (projective.glslh's precision
// rule). The CPU twin is CpuProjectiveClothSolver::hingeResiduals.
#include "kernels/cloth_layout.glslh"
#include "kernels/projective.glslh"
#include "kernels/projective_bending.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_PD_PREDICTED) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = HG_BINDING_PD_CURRENT) readonly buffer Current { vec4 current[]; };
layout(std430, binding = HG_BINDING_HINGES) readonly buffer Hinges { ClothHinge hinges[]; };
layout(std430, binding = HG_BINDING_PD_HINGE_STENCILS) readonly buffer Stencils { HingeStencil stencils[]; };
layout(std430, binding = HG_BINDING_PD_HINGE_RESIDUALS) writeonly buffer Residuals { vec4 residuals[]; };

vec3 offsetFromFirst(uint first, uint j) {
  return neighborOffset(predicted[first].xyz, predicted[j].xyz, current[j].xyz) - current[first].xyz;
}

void main() {
  uint h = gl_GlobalInvocationID.x;
  if (h >= params.hingeCount) return;
  ClothHinge hinge = hinges[h];
  uvec4 v = hinge.vertices;
  residuals[h] = hingeResidual(offsetFromFirst(v.x, v.y), offsetFromFirst(v.x, v.z), offsetFromFirst(v.x, v.w),
                               stencils[h], hinge);
}
