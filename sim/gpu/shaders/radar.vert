#version 450 core
// Cyber Radar (docs/methods.md section 3; sim/gpu/GpuRadar.cpp): every radar of a batch in one
// instanced draw, instance r drawing into layer r of the layered framebuffer. The frame
// buffer holds the radars' frames, then their mask frames (radarMaskFrame: from the
// destination looking back), computed on the host. Image coordinates: the volume's
// width and height map to the viewport; the fragment shader recomputes the depth.
#extension GL_ARB_shader_viewport_layer_array : enable
#extension GL_AMD_vertex_shader_layer : enable
#include "kernels/radar_layout.glslh"

layout(location = 0) in vec3 inPosition;  // m

layout(std430, binding = HG_BINDING_RADAR_FRAMES) readonly buffer Frames { RadarFrame frames[]; };
layout(std430, binding = HG_BINDING_RADAR_VERTEX_OBJECTS) readonly buffer VertexObjects { uint vertexObjects[]; };

layout(location = 0) uniform int firstRadar;   // the batch chunk's first radar
layout(location = 1) uniform int frameOffset;  // 0: R pass; the radar count: M pass (mask frames)

flat out int radarIndex;

void main() {
  int radar = firstRadar + gl_InstanceID;
  RadarFrame frame = frames[frameOffset + radar];
  vec3 d = inPosition - frame.origin.xyz;
  gl_Position = vec4(2.0 * dot(d, frame.right.xyz) / frame.right.w, 2.0 * dot(d, frame.up.xyz) / frame.up.w, 0.0, 1.0);
  // Triangles this pass does not draw (R: the sensor's; M: all but the sensor's, all of a
  // radar that keeps its mask) go outside the clip volume here, so they are never
  // rasterized; the fragment shader checks again.
  bool sensor = vertexObjects[gl_VertexID] == frames[radar].control.x;
  bool maskPass = frameOffset != 0;
  if (maskPass != sensor || (maskPass && (frames[radar].control.y & HG_RADAR_REUSE_MASK) != 0u))
    gl_Position = vec4(4.0, 4.0, 0.0, 1.0);
  gl_Layer = gl_InstanceID;
  radarIndex = radar;
}
