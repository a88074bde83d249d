#version 450 core
// Body features between cloth vertices, pass 2 of 2 (cloth_features_gather.comp): moves
// each vertex by its displacement and removes its velocity into the body
// (kernels/cloth_vertex.glslh applyFeatureDisplacement). Updates the state in place.
#include "kernels/cloth_layout.glslh"
#include "kernels/cloth_vertex.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_FEATURE_DISPLACEMENTS) readonly buffer Displacements { vec4 displacements[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 d = displacements[i];
  if (!(d.w > 0.0)) return;
  VertexState state;
  state.position = positions[i].xyz;
  state.velocity = velocities[i].xyz;
  state = applyFeatureDisplacement(state, d);
  positions[i] = vec4(state.position, positions[i].w);
  velocities[i] = vec4(state.velocity, 0.0);
}
