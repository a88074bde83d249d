#version 450 core
// Cyber Radar, one pass of every radar of a chunk (sim/gpu/GpuRadar.cpp):
//   R pass (frameOffset 0): every triangle except the radar's sensor's; writes the range
//     (depth from the probe plane, m) and the object ID;
//   M pass (frameOffset = radar count): only the sensor's triangles, seen from the
//     destination looking back; writes the sensor's front depth from the probe plane,
//     F = d - M (sim/kernels/radar.glslh).
// Fragments outside the volume's depth [0, d] are discarded (depth clamp is on, so this
// is the only clipping, exactly as the CPU reference). The depth is interpolated in
// double from the triangle's vertices (gl_PrimitiveID), as the CPU reference does
// (sim/radar/Radar.cpp), and the depth test (GL_LESS on depth x 2^-e, exact) keeps the
// nearest, the first in draw order at equal depth.
#include "kernels/radar_layout.glslh"

layout(std430, binding = HG_BINDING_RADAR_FRAMES) readonly buffer Frames { RadarFrame frames[]; };
layout(std430, binding = HG_BINDING_RADAR_POSITIONS) readonly buffer Positions { float positions[]; };
layout(std430, binding = HG_BINDING_RADAR_INDICES) readonly buffer Indices { uint indices[]; };
layout(std430, binding = HG_BINDING_RADAR_TRIANGLE_OBJECTS) readonly buffer TriangleObjects { uint triangleObjects[]; };

layout(location = 1) uniform int frameOffset;

flat in int radarIndex;

layout(location = 0) out float outDepth;   // R pass: range, m; M pass: front depth F, m
layout(location = 1) out uint outObject;   // R pass: object ID

/// (u, v) in pixels and depth in m of vertex i in `frame`, in double (as the CPU reference).
dvec3 project(RadarFrame frame, uint i) {
  dvec3 p = dvec3(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u]) - dvec3(frame.origin.xyz);
  double width = double(frame.control.z), height = double(frame.control.w);
  double pixelWidth = double(frame.right.w) / width, pixelHeight = double(frame.up.w) / height;
  return dvec3(dot(p, dvec3(frame.right.xyz)) / pixelWidth + 0.5lf * width,
               dot(p, dvec3(frame.up.xyz)) / pixelHeight + 0.5lf * height, dot(p, dvec3(frame.forward.xyz)));
}

void main() {
  uint t = uint(gl_PrimitiveID);
  RadarFrame radar = frames[radarIndex];
  bool sensor = triangleObjects[t] == radar.control.x;
  bool maskPass = frameOffset != 0;
  if (maskPass != sensor) discard;
  if (maskPass && (radar.control.y & HG_RADAR_REUSE_MASK) != 0u) discard;  // the kept mask stays
  RadarFrame frame = frames[frameOffset + radarIndex];
  dvec3 a = project(frame, indices[3u * t]), b = project(frame, indices[3u * t + 1u]),
        c = project(frame, indices[3u * t + 2u]);
  double cx = double(gl_FragCoord.x), cy = double(gl_FragCoord.y);  // pixel centre i + 0.5, j + 0.5
  double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  double wa = 1.0lf / 3.0lf, wb = 1.0lf / 3.0lf;
  if (area != 0.0lf) {
    wa = ((b.x - cx) * (c.y - cy) - (b.y - cy) * (c.x - cx)) / area;
    wb = ((c.x - cx) * (a.y - cy) - (c.y - cy) * (a.x - cx)) / area;
  }
  double depth = wa * a.z + wb * b.z + (1.0lf - wa - wb) * c.z;
  double range = double(frame.origin.w);
  if (!(depth >= 0.0lf && depth <= range)) discard;
  float z = float(depth);
  gl_FragDepth = z * frame.settings.y;
  outDepth = maskPass ? float(range - depth) : z;
  outObject = triangleObjects[t];
}
