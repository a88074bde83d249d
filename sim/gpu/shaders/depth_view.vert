#version 450 core
// Depth views of a body (sim/gpu/GpuDepthViewRenderer.cpp, sim/contact/DepthViews.h):
// orthographic projection of one view. Image coordinates (texels) u = dot(p - origin,
// right) / h, v = dot(p - origin, up) / h map to the viewport [0, width] x [0, height];
// the fragment shader recomputes the metric depth from the triangle (depth_view.frag).
layout(location = 0) in vec3 inPosition;  // m
layout(location = 2) in vec3 inVelocity;  // m/s

layout(location = 0) uniform vec4 viewOrigin;   // xyz m; w texel size h, m
layout(location = 1) uniform vec4 viewRight;    // xyz unit; w width, texels
layout(location = 2) uniform vec4 viewUp;       // xyz unit; w height, texels
layout(location = 3) uniform vec4 viewForward;  // xyz unit; w depth range, m
layout(location = 4) uniform float depthScale;  // 2^-e >= 1 / range: exact depth-buffer scaling

noperspective out vec3 viewVelocity;

void main() {
  vec3 d = inPosition - viewOrigin.xyz;
  float u = dot(d, viewRight.xyz) / viewOrigin.w;
  float v = dot(d, viewUp.xyz) / viewOrigin.w;
  float depth = dot(d, viewForward.xyz);
  viewVelocity = inVelocity;
  // Depth clamping is on (no near/far clipping); z only keeps the clip volume sane.
  gl_Position = vec4(2.0 * u / viewRight.w - 1.0, 2.0 * v / viewUp.w - 1.0,
                     clamp(2.0 * depth * depthScale - 1.0, -1.0, 1.0), 1.0);
}
