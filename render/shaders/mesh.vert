#version 450 core
// Shaded mesh drawing (offscreen PNG renders and the viewer).
layout(location = 0) in vec3 inPosition;  // m, world space
layout(location = 1) in vec3 inNormal;

layout(location = 0) uniform mat4 viewProjection;

out vec3 worldPosition;
out vec3 worldNormal;

void main() {
  worldPosition = inPosition;
  worldNormal = inNormal;
  gl_Position = viewProjection * vec4(inPosition, 1.0);
}
