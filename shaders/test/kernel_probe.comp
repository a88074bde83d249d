#version 450 core
// Test probe: evaluates the shared kernels for a list of cases so that
// tests/gl/KernelGLTest.cpp can compare GLSL against the same headers compiled as C++.
#include "kernels/layout.glslh"
#include "kernels/spring.glslh"
#include "kernels/cloth_vertex.glslh"

layout(local_size_x = 32) in;

struct ProbeCase {
  vec4 xi;  // w: inverse mass
  vec4 xj;
  vec4 vi;
  vec4 vj;
  SpringEntry spring;
};

layout(std430, binding = 0) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = 1) readonly buffer Cases { ProbeCase cases[]; };
// Per case, 8 vec4: force, integrated x, v, after sphere x, v, after plane x, v, anomaly bits.
layout(std430, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(location = 0) uniform uint caseCount;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= caseCount) return;
  ProbeCase c = cases[i];
  vec3 force = springForce(c.xi.xyz, c.xj.xyz, c.vi.xyz, c.vj.xyz, c.spring);
  VertexState s = integrateVertex(c.xi.xyz, c.vi.xyz, force, c.xi.w, params);
  results[8u * i + 0u] = vec4(force, 0.0);
  results[8u * i + 1u] = vec4(s.position, 0.0);
  results[8u * i + 2u] = vec4(s.velocity, 0.0);
  s = resolveSphereContact(s, params);
  results[8u * i + 3u] = vec4(s.position, 0.0);
  results[8u * i + 4u] = vec4(s.velocity, 0.0);
  s = resolvePlaneContact(s, params);
  results[8u * i + 5u] = vec4(s.position, 0.0);
  results[8u * i + 6u] = vec4(s.velocity, 0.0);
  results[8u * i + 7u] = vec4(float(vertexAnomaly(s, params.maxSpeed)), 0.0, 0.0, 0.0);
}
