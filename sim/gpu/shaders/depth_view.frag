#version 450 core
// Depth views of a body, one depth-peeling layer (sim/gpu/GpuDepthViewRenderer.cpp):
// layer k keeps, per texel, the nearest crossing strictly behind layer k - 1's (read
// from its normal/depth image at the same texel), so layer k is the (k+1)-th crossing.
// The depth test (GL_LESS) on gl_FragDepth = depth x 2^-e orders the fragments exactly
// (scaling by a power of two is exact); the stored depth is the metric one.
//
// Depth is interpolated here in double precision from the triangle's vertices
// (gl_PrimitiveID), as the CPU reference does (sim/contact/DepthViews.cpp): the float
// attribute planes of the rasterizer (llvmpipe: a0 + dadx x + dady y, extrapolated from
// the window origin) lose up to ~2e-6 of the depth range on steep triangles, over the
// 1e-6 the contact solver is specified for. The normal is the triangle's own, also in
// double; the velocity uses the float varying.
// Empty texels keep the clear values (0, 0, 0, HG_NO_SURFACE_DEPTH) and (0, 0, 0, 0).

#include "kernels/depth_layout.glslh"

noperspective in vec3 viewVelocity;

layout(location = 0) uniform vec4 viewOrigin;   // xyz m; w texel size h, m
layout(location = 1) uniform vec4 viewRight;    // xyz unit; w width, texels
layout(location = 2) uniform vec4 viewUp;       // xyz unit; w height, texels
layout(location = 3) uniform vec4 viewForward;  // xyz unit; w depth range, m
layout(location = 4) uniform float depthScale;
layout(location = 5) uniform int layer;  // k
layout(binding = 0) uniform sampler2D previousLayer;  // RGBA32F normal.xyz + depth of layer k - 1

layout(std430, binding = HG_BINDING_DEPTH_MESH_POSITIONS) readonly buffer MeshPositions { float meshPositions[]; };
layout(std430, binding = HG_BINDING_DEPTH_MESH_INDICES) readonly buffer MeshIndices { uint meshIndices[]; };

layout(location = 0) out vec4 outNormalDepth;
layout(location = 1) out vec4 outVelocity;

/// Mesh vertex i, m, in double.
dvec3 meshPoint(uint i) {
  return dvec3(meshPositions[3u * i], meshPositions[3u * i + 1u], meshPositions[3u * i + 2u]);
}

/// (u, v) in texels and depth in m of mesh vertex i, in double (sim/contact/DepthViews.cpp).
dvec3 project(uint i) {
  dvec3 d = dvec3(meshPositions[3u * i], meshPositions[3u * i + 1u], meshPositions[3u * i + 2u]) -
            dvec3(viewOrigin.xyz);
  double h = double(viewOrigin.w);
  return dvec3(dot(d, dvec3(viewRight.xyz)) / h, dot(d, dvec3(viewUp.xyz)) / h, dot(d, dvec3(viewForward.xyz)));
}

void main() {
  uint t = uint(gl_PrimitiveID);
  dvec3 a = project(meshIndices[3u * t]), b = project(meshIndices[3u * t + 1u]), c = project(meshIndices[3u * t + 2u]);
  double cx = double(gl_FragCoord.x), cy = double(gl_FragCoord.y);  // texel centre i + 0.5, j + 0.5
  double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  double wa = 1.0lf / 3.0lf, wb = 1.0lf / 3.0lf;
  if (area != 0.0lf) {
    wa = ((b.x - cx) * (c.y - cy) - (b.y - cy) * (c.x - cx)) / area;
    wb = ((c.x - cx) * (a.y - cy) - (c.y - cy) * (a.x - cx)) / area;
  }
  float depth = float(wa * a.z + wb * b.z + (1.0lf - wa - wb) * c.z);
  if (layer > 0 && depth <= texelFetch(previousLayer, ivec2(gl_FragCoord.xy), 0).w) discard;
  // The triangle's geometric normal (outward for counter-clockwise), in double as the CPU.
  dvec3 pa = meshPoint(meshIndices[3u * t]), pb = meshPoint(meshIndices[3u * t + 1u]),
        pc = meshPoint(meshIndices[3u * t + 2u]);
  dvec3 cr = cross(pb - pa, pc - pa);
  double len = length(cr);
  outNormalDepth = vec4(len > 0.0lf ? vec3(cr / len) : vec3(0.0), depth);
  outVelocity = vec4(viewVelocity, 0.0);
  gl_FragDepth = clamp(depth * depthScale, 0.0, 1.0);
}
