#version 450 core
// ProjectiveJacobi, substep start (kernels/projective.glslh): per vertex the predicted
// velocity v + h (g + f_bending / m), written over the state's velocity, the inertial
// prediction y = x + h v_pred. The bending
// forces come from the element pass (cloth_forces.comp, run just before on the same
// state), gathered in CSR order. Pinned vertices (inverse mass 0) predict their own
// position and keep their velocity. The CPU twin is CpuProjectiveClothSolver::predict.
#include "kernels/cloth_layout.glslh"
#include "kernels/projective.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_HINGE_OFFSETS) readonly buffer HingeOffsets { uint hingeOffsets[]; };
layout(std430, binding = HG_BINDING_HINGE_ENTRIES) readonly buffer HingeEntries { uint hingeEntries[]; };
layout(std430, binding = HG_BINDING_ELEMENT_FORCES) readonly buffer ElementForces { vec4 elementForces[]; };
layout(std430, binding = HG_BINDING_PD_PREDICTED) writeonly buffer Predicted { vec4 predicted[]; };

// 1: the element pass ran and its hinge forces are gathered (explicit bending); 0: the
// hinges are part of the solve (implicit bending) and no force is read.
layout(location = 0) uniform uint explicitBending;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 xi = positionsIn[i];
  float inverseMass = xi.w;
  if (inverseMass == 0.0) {  // pinned: stays where it is during the substep
    predicted[i] = xi;
    return;
  }
  vec3 bending = vec3(0.0);
  if (explicitBending != 0u)
    for (uint k = hingeOffsets[i]; k < hingeOffsets[i + 1u]; ++k)
      bending += elementForces[params.springCount + hingeEntries[k]].xyz;  // entry = hinge * 4 + role
  vec3 acceleration = params.gravity.xyz + inverseMass * bending;
  vec3 velocity = predictVelocity(velocities[i].xyz, acceleration, params.dt);
  velocities[i] = vec4(velocity, 0.0);
  predicted[i] = vec4(predictPosition(xi.xyz, velocity, params.dt), inverseMass);
}
