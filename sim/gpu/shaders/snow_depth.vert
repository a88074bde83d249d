#version 450 core
// Snow exposure, the depth map of one snowfall direction (docs/methods.md section 5;
// sim/gpu/GpuSnowExposure.cpp): orthographic projection along the map's direction. The
// image coordinates (texels) come from the CPU reference's own kernel function
// (kernels/snow.glslh: snowMapImagePoint) and map to the viewport [0, width] x [0, height];
// the metric depth (m) is interpolated to the texel centres and kept by a GL_MIN blend
// (snow_depth.frag). z is 0: nothing is clipped in depth.
#include "kernels/snow.glslh"

layout(location = 0) in vec3 inPosition;  // m

layout(std430, binding = HG_BINDING_SNOW_MAPS) readonly buffer Maps { SnowMap maps[]; };

layout(location = 0) uniform int mapIndex;

noperspective out float depth;  // m along the direction of fall

void main() {
  SnowMap map = maps[mapIndex];
  vec2 image = snowMapImagePoint(map, inPosition);
  depth = snowPointDepth(map, inPosition);
  gl_Position = vec4(2.0 * image.x / float(map.texels.x) - 1.0, 2.0 * image.y / float(map.texels.y) - 1.0, 0.0, 1.0);
}
