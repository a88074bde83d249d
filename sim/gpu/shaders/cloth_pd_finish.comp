#version 450 core
// ProjectiveJacobi, substep end (kernels/projective.glslh, kernels/cloth_vertex.glslh):
// x = y + u^K, v = (v_pred + u^K / h) / (1 + c h), then the analytic contacts and the
// anomaly bits, as the explicit vertex pass (cloth_step.comp). Updates the state
// buffers in place (each thread its own vertex). Pinned vertices are left as they are
// (kinematic). The CPU twin is CpuProjectiveClothSolver::finish.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"
#include "kernels/body_contact.glslh"
#include "kernels/depth_contact.glslh"
#include "kernels/projective.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
#include "body_contact.glsl"
layout(std430, binding = HG_BINDING_PD_PREDICTED) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = HG_BINDING_PD_CURRENT) readonly buffer Solved { vec4 solved[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_STEP_STATUS) buffer StepStatusBlock { uint stepStatus; };
layout(std430, binding = HG_BINDING_BODY_OFFSETS) readonly buffer BodyOffsets { float bodyOffsets[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 yi = predicted[i];
  float inverseMass = yi.w;
  if (inverseMass == 0.0) return;  // pinned: kinematic, keeps its velocity for damping
  VertexState state = projectiveState(yi.xyz, velocities[i].xyz, solved[i].xyz, params);
  VertexContact contact = contactBeforeFrameEnd(contactAt(state.position), params.bodyLag);
  state = resolveContact(state, contact, bodyOffsets[i], params.dt);
  uint anomaly = vertexAnomaly(state, params.maxSpeed);
  if (anomaly != 0u) atomicOr(stepStatus, anomaly);
  positions[i] = vec4(state.position, inverseMass);
  velocities[i] = vec4(state.velocity, 0.0);
}
