#version 450 core
// The snow-covered objects by displacement through vertex texture fetch (docs/methods.md
// section 5, display; render/SnowSceneView.h): each vertex of the refined object mesh
// is raised by its snow depth, read from a buffer texture at gl_VertexID. Units: metres.
layout(location = 0) in vec3 inPosition;  // m, world space
layout(location = 1) in vec3 inNormal;
// m: the height above which this vertex's surroundings are snow: its own (bare) height
// where it holds snow; on a wall or underside, the highest of its own and its snow-holding
// neighbours' heights (so the snow's sides at a roof's rim are white down to the rim,
// not in teeth along the wall's triangles).
layout(location = 2) in float inSnowLine;

layout(location = 0) uniform mat4 viewProjection;
layout(location = 5) uniform int withSnow;  // 1: displaced by the snow, 0: the bare objects

layout(binding = 2) uniform samplerBuffer objectSnow;  // R32F, m of snow (vertical) per vertex

out vec3 worldPosition;
out vec3 worldNormal;
out float snowDepth;  // m above the snow line (linear in the triangle, so interpolated exactly)

void main() {
  float snow = withSnow != 0 ? max(texelFetch(objectSnow, gl_VertexID).r, 0.0) : 0.0;
  // The same float sum as coveredSceneMesh: position + (0, max(snow, 0), 0).
  worldPosition = inPosition + vec3(0.0, snow, 0.0);
  worldNormal = inNormal;
  snowDepth = worldPosition.y - inSnowLine;
  gl_Position = viewProjection * vec4(worldPosition, 1.0);
}
