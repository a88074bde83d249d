#version 450 core
// Vertex pass of a symplectic-Euler substep of the mass-spring cloth (GPU backend):
// gathers the element forces of cloth_forces.comp in CSR order and integrates; the
// contacts follow in cloth_contact.comp when the step has colliders. Orchestration only:
// the per-element math is in kernels/*.glslh, shared with the CPU backend
// (sim/cloth/CpuClothSolver.cpp), which runs the same loops (integrate, contact, anomaly
// bits per vertex in one). Reads state from the *_IN buffers, writes *_OUT (ping-pong, no
// races). The collider walk is a pass of its own because it made this one 2.4-3.9x
// slower even with no collider (NVIDIA H200, 65k-262k vertices, bench/RESULTS.md): its
// registers and sphere-tree stack left too few invocations in flight to hide the gathers.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_IN) readonly buffer VelocitiesIn { vec4 velocitiesIn[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) writeonly buffer PositionsOut { vec4 positionsOut[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) writeonly buffer VelocitiesOut { vec4 velocitiesOut[]; };
layout(std430, binding = HG_BINDING_SPRING_OFFSETS) readonly buffer SpringOffsets { uint springOffsets[]; };
layout(std430, binding = HG_BINDING_SPRING_ENTRIES) readonly buffer SpringEntries { SpringEntry springEntries[]; };
layout(std430, binding = HG_BINDING_HINGE_OFFSETS) readonly buffer HingeOffsets { uint hingeOffsets[]; };
layout(std430, binding = HG_BINDING_HINGE_ENTRIES) readonly buffer HingeEntries { uint hingeEntries[]; };
layout(std430, binding = HG_BINDING_ELEMENT_FORCES) readonly buffer ElementForces { vec4 elementForces[]; };
layout(std430, binding = HG_BINDING_STEP_STATUS) buffer StepStatusBlock { uint stepStatus; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 xi = positionsIn[i];
  vec3 vi = velocitiesIn[i].xyz;
  float inverseMass = xi.w;
  if (inverseMass == 0.0) {  // pinned: kinematic, keeps its velocity for damping
    positionsOut[i] = xi;
    velocitiesOut[i] = velocitiesIn[i];
    return;
  }
  vec3 force = params.gravity.xyz / inverseMass;
  for (uint k = springOffsets[i]; k < springOffsets[i + 1u]; ++k) {
    SpringEntry e = springEntries[k];
    vec3 f = elementForces[e.spring].xyz;  // on the spring's end a = min(i, neighbor)
    force += e.neighbor > i ? f : -f;
  }
  for (uint k = hingeOffsets[i]; k < hingeOffsets[i + 1u]; ++k)
    force += elementForces[params.springCount + hingeEntries[k]].xyz;  // entry = hinge * 4 + role
  VertexState state = integrateVertex(xi.xyz, vi, force, inverseMass, params);
  if (params.colliderCount == 0u) {  // else cloth_contact.comp checks after the contacts
    uint anomaly = vertexAnomaly(state, params.maxSpeed);
    if (anomaly != 0u) atomicOr(stepStatus, anomaly);
  }
  positionsOut[i] = vec4(state.position, inverseMass);
  velocitiesOut[i] = vec4(state.velocity, 0.0);
}
