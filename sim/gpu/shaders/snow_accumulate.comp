#version 450 core
// Snow arrival of one pass (sim/snow/SnowCover.h SnowSolver::accumulate; docs/methods.md
// section 5): every receiver grows by the pass's depth on open ground times its exposure
// (hits / directions). Receivers are the covered mesh's vertices: ground cells, then the
// object vertices that hold snow (area > 0). Accumulated in the R32F ground image and the
// objects' float buffer (image load/store, not the deprecated accumulation buffer).
#include "snow_common.glsl"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SNOW_GROUND_VERTEX_CELLS) readonly buffer GroundVertexCells { uint groundVertexCells[]; };
layout(std430, binding = HG_BINDING_SNOW_HITS) readonly buffer Hits { uint hits[]; };

void main() {
  uint k = snowItem();
  uint groundVertices = uint(gridSize.z);
  if (k >= groundVertices + uint(gridSize.w)) return;
  precise float exposure = float(hits[k]) / passValues.y;
  precise float added = passValues.x * exposure;
  if (k < groundVertices) {
    uint cell = groundVertexCells[k];
    ivec2 c = ivec2(int(cell % uint(gridSize.x)), int(cell / uint(gridSize.x)));
    precise float snow = imageLoad(groundSnow, c).r + added;
    imageStore(groundSnow, c, vec4(snow, 0.0, 0.0, 0.0));
  } else {
    uint v = k - groundVertices;
    if (objectBase[v].w > 0.0) objectSnow[v] = objectSnow[v] + added;
  }
}
