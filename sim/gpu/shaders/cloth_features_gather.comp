#version 450 core
// Body features between cloth vertices, once per frame after the substeps (pass 1 of 2;
// kernels/cloth_vertex.glslh featureDisplacement): each vertex samples the body at the
// midpoints of its edges (springs) and the centroids of its triangles (hinges) and keeps
// its deepest element's displacement. Reads the state, writes one vec4 per vertex to
// HG_BINDING_FEATURE_DISPLACEMENTS; cloth_features_apply.comp then moves the vertices.
// The CPU twin is CpuClothSolverBase::resolveBodyFeatures.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"
#include "kernels/body_contact.glslh"
#include "kernels/depth_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
#include "body_contact.glsl"
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_SPRING_OFFSETS) readonly buffer SpringOffsets { uint springOffsets[]; };
layout(std430, binding = HG_BINDING_SPRING_ENTRIES) readonly buffer SpringEntries { SpringEntry springEntries[]; };
layout(std430, binding = HG_BINDING_HINGE_OFFSETS) readonly buffer HingeOffsets { uint hingeOffsets[]; };
layout(std430, binding = HG_BINDING_HINGE_ENTRIES) readonly buffer HingeEntries { uint hingeEntries[]; };
layout(std430, binding = HG_BINDING_HINGES) readonly buffer Hinges { ClothHinge hinges[]; };
layout(std430, binding = HG_BINDING_FEATURE_DISPLACEMENTS) writeonly buffer Displacements { vec4 displacements[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 xi = positionsIn[i];
  vec4 best = vec4(0.0);
  if (xi.w != 0.0) {  // pinned vertices stay where they are
    for (uint k = springOffsets[i]; k < springOffsets[i + 1u]; ++k) {
      vec3 s = edgeMidpoint(xi.xyz, positionsIn[springEntries[k].neighbor].xyz);
      best = deeperDisplacement(best, featureDisplacement(contactAt(s)));
    }
    for (uint k = hingeOffsets[i]; k < hingeOffsets[i + 1u]; ++k) {
      uint entry = hingeEntries[k];
      uint role = entry % 4u;
      uvec4 v = hinges[entry / 4u].vertices;
      vec3 a = positionsIn[v.x].xyz, b = positionsIn[v.y].xyz;
      if (role != 3u) best = deeperDisplacement(best, featureDisplacement(contactAt(triangleCentroid(a, b, positionsIn[v.z].xyz))));
      if (role != 2u) best = deeperDisplacement(best, featureDisplacement(contactAt(triangleCentroid(b, a, positionsIn[v.w].xyz))));
    }
  }
  displacements[i] = best;
}
