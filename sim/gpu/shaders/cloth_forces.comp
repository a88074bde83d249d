#version 450 core
// Element pass of a cloth substep: threads [0, springCount) evaluate one spring each
// (the force on its end a; end b gets the opposite), threads [springCount,
// springCount + hingeCount) one bending hinge each (four forces). The vertex pass
// (cloth_step.comp) gathers them in a fixed order: no atomics, deterministic.
#include "kernels/cloth_layout.glslh"
#include "kernels/spring.glslh"
#include "kernels/bending.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_IN) readonly buffer VelocitiesIn { vec4 velocitiesIn[]; };
layout(std430, binding = HG_BINDING_SPRINGS) readonly buffer Springs { ClothSpring springs[]; };
layout(std430, binding = HG_BINDING_HINGES) readonly buffer Hinges { ClothHinge hinges[]; };
layout(std430, binding = HG_BINDING_ELEMENT_FORCES) writeonly buffer ElementForces { vec4 elementForces[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < params.springCount) {
    ClothSpring s = springs[i];
    vec3 f = springForce(positionsIn[s.a].xyz, positionsIn[s.b].xyz, velocitiesIn[s.a].xyz, velocitiesIn[s.b].xyz, s, params);
    elementForces[i] = vec4(f, 0.0);
  } else if (i < params.springCount + params.hingeCount) {
    uint h = i - params.springCount;
    ClothHinge hinge = hinges[h];
    HingeForces f = bendingForces(positionsIn[hinge.vertices.x].xyz, positionsIn[hinge.vertices.y].xyz,
                                  positionsIn[hinge.vertices.z].xyz, positionsIn[hinge.vertices.w].xyz, hinge);
    uint base = params.springCount + 4u * h;
    elementForces[base] = vec4(f.f0, 0.0);
    elementForces[base + 1u] = vec4(f.f1, 0.0);
    elementForces[base + 2u] = vec4(f.f2, 0.0);
    elementForces[base + 3u] = vec4(f.f3, 0.0);
  }
}
