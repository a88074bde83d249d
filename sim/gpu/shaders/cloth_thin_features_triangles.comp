#version 450 core
// Thin body features through cloth triangles, after every substep (pass 1 of 2;
// kernels/thin_features.glslh thinFeatureDisplacement): one displacement per triangle,
// written to HG_BINDING_THIN_TRIANGLE_DISPLACEMENTS; cloth_thin_features_gather.comp gives
// each vertex its triangles' deepest, which cloth_features_apply.comp then applies.
// The CPU twin is CpuClothSolverBase::applyThinFeatures.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"
#include "kernels/body_contact.glslh"
#include "kernels/depth_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
#include "body_contact.glsl"
layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer PositionsIn { vec4 positionsIn[]; };
layout(std430, binding = HG_BINDING_THIN_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = HG_BINDING_BODY_VERTEX_CELLS) readonly buffer BodyVertexCells { uint bodyVertexCells[]; };
layout(std430, binding = HG_BINDING_BODY_VERTICES) readonly buffer BodyVertices { vec4 bodyVertices[]; };
layout(std430, binding = HG_BINDING_THIN_TRIANGLE_DISPLACEMENTS) writeonly buffer Out { vec4 triangleDisplacements[]; };

uint bodyVertexCellStart(uint cell) { return bodyVertexCells[cell]; }
vec4 bodyVertexPoint(uint entry) { return bodyVertices[2u * entry]; }
vec4 bodyVertexNormal(uint entry) { return bodyVertices[2u * entry + 1u]; }

#include "kernels/thin_features.glslh"

layout(location = 0) uniform uint triangleCount;
layout(location = 1) uniform uint gridRecord;

void main() {
  uint t = gl_GlobalInvocationID.x;
  if (t >= triangleCount) return;
  vec3 a = positionsIn[triangles[3u * t]].xyz, b = positionsIn[triangles[3u * t + 1u]].xyz,
       c = positionsIn[triangles[3u * t + 2u]].xyz;
  triangleDisplacements[t] = thinFeatureDisplacement(clothCollider(gridRecord), a, b, c, params.colliderCount,
                                                     params.contactOffset);
}
