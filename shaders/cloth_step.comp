#version 450 core
// One symplectic-Euler substep of the mass-spring cloth (GPU backend).
// Orchestration only: the per-element math is in kernels/*.glslh, shared with
// the CPU backend (sim/cpu/CpuClothSolver.cpp), which runs the same loop.
// Reads state from the *_IN buffers, writes *_OUT (ping-pong, no races).
#include "kernels/layout.glslh"
#include "kernels/spring.glslh"
#include "kernels/cloth_vertex.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_IN) readonly buffer VelocitiesIn { vec4 velocitiesIn[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) writeonly buffer PositionsOut { vec4 positionsOut[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) writeonly buffer VelocitiesOut { vec4 velocitiesOut[]; };
layout(std430, binding = HG_BINDING_SPRING_OFFSETS) readonly buffer SpringOffsets { uint springOffsets[]; };
layout(std430, binding = HG_BINDING_SPRINGS) readonly buffer Springs { SpringEntry springs[]; };
layout(std430, binding = HG_BINDING_STEP_STATUS) buffer StepStatusBlock { uint stepStatus; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 xi = positionsIn[i];
  vec3 vi = velocitiesIn[i].xyz;
  float inverseMass = xi.w;
  if (inverseMass == 0.0) {  // pinned
    positionsOut[i] = xi;
    velocitiesOut[i] = vec4(0.0);
    return;
  }
  vec3 force = params.gravity.xyz / inverseMass;
  for (uint k = springOffsets[i]; k < springOffsets[i + 1u]; ++k) {
    SpringEntry s = springs[k];
    force += springForce(xi.xyz, positionsIn[s.neighbor].xyz, vi, velocitiesIn[s.neighbor].xyz, s);
  }
  VertexState state = integrateVertex(xi.xyz, vi, force, inverseMass, params);
  state = resolveSphereContact(state, params);
  state = resolvePlaneContact(state, params);
  uint anomaly = vertexAnomaly(state, params.maxSpeed);
  if (anomaly != 0u) atomicOr(stepStatus, anomaly);
  positionsOut[i] = vec4(state.position, inverseMass);
  velocitiesOut[i] = vec4(state.velocity, 0.0);
}
