#version 450 core
// Plastic creep after a substep: threads [0, springCount) update spring rest lengths,
// threads [springCount, springCount + hingeCount) hinge rest angles (kernels/spring.glslh,
// kernels/bending.glslh). Reads the substep's new positions.
#include "kernels/cloth_layout.glslh"
#include "kernels/spring.glslh"
#include "kernels/bending.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_SPRINGS) buffer Springs { ClothSpring springs[]; };
layout(std430, binding = HG_BINDING_HINGES) buffer Hinges { ClothHinge hinges[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < params.springCount) {
    ClothSpring s = springs[i];
    float r = distance(positions[s.a].xyz, positions[s.b].xyz);
    springs[i].restLength = plasticRestLength(r, s.restLength, params);
  } else if (i < params.springCount + params.hingeCount) {
    uint h = i - params.springCount;
    uvec4 v = hinges[h].vertices;
    float theta = hingeAngle(positions[v.x].xyz, positions[v.y].xyz, positions[v.z].xyz, positions[v.w].xyz);
    ClothHinge hinge = hinges[h];
    hinges[h] = withRestAngle(hinge, plasticRestAngle(theta, hinge.restAngle, params));
  }
}
