#version 450 core
// The snow-covered ground by displacement mapping through vertex texture fetch
// (docs/methods.md section 5, display; render/SnowSceneView.h). One vertex per cell centre
// of the snow grid, drawn with the triangles of coveredSceneMesh; the cell is
// gl_VertexID (row-major, j * nx + i). Units: metres.
layout(location = 0) in vec2 inCentre;  // m, the cell centre's (x, z)

layout(location = 0) uniform mat4 viewProjection;
layout(location = 5) uniform int withSnow;  // 1: displaced by the snow, 0: the bare ground
layout(location = 6) uniform ivec2 gridSize;  // cells (nx, nz)
layout(location = 7) uniform float cell;      // m, the cell size

layout(binding = 0) uniform sampler2D groundHeight;  // R32F, m; < -1e37 where there is no ground
layout(binding = 1) uniform sampler2D groundSnow;    // R32F, m of snow (vertical)

out vec3 worldPosition;
out vec3 worldNormal;
out float snowDepth;  // m

const float kNoGround = -1.0e37;

float snowAt(ivec2 c) { return withSnow != 0 ? max(texelFetch(groundSnow, c, 0).r, 0.0) : 0.0; }

// The displaced height of cell c, or `fallback` where c has no ground.
float surfaceAt(ivec2 c, float fallback) {
  float g = texelFetch(groundHeight, c, 0).r;
  return g < kNoGround ? fallback : g + snowAt(c);
}

void main() {
  ivec2 c = ivec2(gl_VertexID % gridSize.x, gl_VertexID / gridSize.x);
  float snow = snowAt(c);
  // The same float sum as coveredSceneMesh: ground + max(snow, 0).
  float h = texelFetch(groundHeight, c, 0).r + snow;
  // Central differences of the displaced heights (one-sided at the grid's border and
  // next to cells without ground).
  ivec2 lo = max(c - ivec2(1), ivec2(0));
  ivec2 hi = min(c + ivec2(1), gridSize - ivec2(1));
  float hl = surfaceAt(ivec2(lo.x, c.y), h), hr = surfaceAt(ivec2(hi.x, c.y), h);
  float hd = surfaceAt(ivec2(c.x, lo.y), h), hu = surfaceAt(ivec2(c.x, hi.y), h);
  float dx = float(max(hi.x - lo.x, 1)) * cell, dz = float(max(hi.y - lo.y, 1)) * cell;
  worldNormal = normalize(vec3(-(hr - hl) / dx, 1.0, -(hu - hd) / dz));
  worldPosition = vec3(inCentre.x, h, inCentre.y);
  snowDepth = snow;
  gl_Position = viewProjection * vec4(worldPosition, 1.0);
}
