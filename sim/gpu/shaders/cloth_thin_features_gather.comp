#version 450 core
// Thin body features, pass 2 of 2 (cloth_thin_features_triangles.comp): each free vertex
// takes the deepest displacement of its triangles (kernels/cloth_vertex.glslh
// deeperDisplacement, in the order of its triangle list, as the CPU) into
// HG_BINDING_FEATURE_DISPLACEMENTS, for cloth_features_apply.comp.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
// The vertices' triangle lists: vertexCount + 1 starts, then the triangle indices.
layout(std430, binding = HG_BINDING_THIN_VERTEX_TRIANGLES) readonly buffer VertexTriangles { uint vertexTriangles[]; };
layout(std430, binding = HG_BINDING_THIN_TRIANGLE_DISPLACEMENTS) readonly buffer In { vec4 triangleDisplacements[]; };
layout(std430, binding = HG_BINDING_FEATURE_DISPLACEMENTS) writeonly buffer Displacements { vec4 displacements[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 best = vec4(0.0);
  if (positionsIn[i].w != 0.0) {  // pinned vertices stay where they are
    uint entries = params.vertexCount + 1u;
    for (uint k = vertexTriangles[i]; k < vertexTriangles[i + 1u]; ++k)
      best = deeperDisplacement(best, triangleDisplacements[vertexTriangles[entries + k]]);
  }
  displacements[i] = best;
}
