#version 450 core
// Contacts of a symplectic-Euler substep (GPU backend), after the vertex pass
// (cloth_step.comp) and only when the step has colliders: each free vertex of the *_OUT
// state meets the colliders (kernels/cloth_contact.glslh through body_contact.glsl), then
// its anomaly bits are set, in place. As the CPU backend's vertex loop
// (sim/cloth/CpuClothSolver.cpp), which does both after integrating.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"
#include "kernels/body_contact.glslh"
#include "kernels/depth_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
#include "body_contact.glsl"
layout(std430, binding = HG_BINDING_POSITIONS_OUT) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_STEP_STATUS) buffer StepStatusBlock { uint stepStatus; };
layout(std430, binding = HG_BINDING_BODY_OFFSETS) readonly buffer BodyOffsets { float bodyOffsets[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 x = positions[i];
  if (x.w == 0.0) return;  // pinned: kinematic
  VertexState state;
  state.position = x.xyz;
  state.velocity = velocities[i].xyz;
  VertexContact contact = contactBeforeFrameEnd(contactAt(state.position), params.bodyLag);
  state = resolveContact(state, contact, bodyOffsets[i], params.dt);
  uint anomaly = vertexAnomaly(state, params.maxSpeed);
  if (anomaly != 0u) atomicOr(stepStatus, anomaly);
  positions[i] = vec4(state.position, x.w);
  velocities[i] = vec4(state.velocity, 0.0);
}
