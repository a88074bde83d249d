#version 450 core
// Test probe: evaluates the shared kernels for a list of cases so that
// tests/kernels/KernelGLTest.cpp can compare GLSL against the same headers compiled as C++.
#include "kernels/cloth_layout.glslh"
#include "kernels/spring.glslh"
#include "kernels/bending.glslh"
#include "kernels/anisotropy.glslh"
#include "kernels/cloth_vertex.glslh"
#include "kernels/body_contact.glslh"

layout(local_size_x = 32) in;

struct ProbeCase {
  vec4 x[4];  // x[0].w: inverse mass
  vec4 v[2];
  ClothSpring spring;
  ClothHinge hinge;
};

layout(std430, binding = 0) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = 1) readonly buffer Cases { ProbeCase cases[]; };
// Per case, kProbeOutputs vec4: spring force, 4 hinge forces, integrated x, v, after
// contact x, v, (anomaly bits, anisotropy factor, plastic rest length, plastic rest angle).
layout(std430, binding = 2) writeonly buffer Results { vec4 results[]; };
layout(location = 0) uniform uint caseCount;
// The analytic colliders (a sphere and the ground) as records, walked by contactAt; the
// walk's other storage is empty here.
layout(std430, binding = 3) readonly buffer Colliders { ClothCollider probeColliders[]; };
ClothCollider clothCollider(uint i) { return probeColliders[i]; }
float distanceGridValue(ClothCollider grid, ivec3 point) { return 0.0; }
VertexContact depthViewsContact(ClothCollider views, vec3 x) { return noContact(); }
VertexContact sphereTreesContact(ClothCollider trees, vec3 x) { return noContact(); }
#include "kernels/cloth_contact.glslh"

const uint kProbeOutputs = 10u;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= caseCount) return;
  ProbeCase c = cases[i];
  uint o = kProbeOutputs * i;
  vec3 force = springForce(c.x[0].xyz, c.x[1].xyz, c.v[0].xyz, c.v[1].xyz, c.spring, params);
  results[o + 0u] = vec4(force, 0.0);
  HingeForces h = bendingForces(c.x[0].xyz, c.x[1].xyz, c.x[2].xyz, c.x[3].xyz, c.hinge);
  results[o + 1u] = vec4(h.f0, 0.0);
  results[o + 2u] = vec4(h.f1, 0.0);
  results[o + 3u] = vec4(h.f2, 0.0);
  results[o + 4u] = vec4(h.f3, 0.0);
  VertexState s = integrateVertex(c.x[0].xyz, c.v[0].xyz, force + h.f0, c.x[0].w, params);
  results[o + 5u] = vec4(s.position, 0.0);
  results[o + 6u] = vec4(s.velocity, 0.0);
  s = resolveContact(s, contactAt(s.position, uint(probeColliders.length())), params.contactOffset, params.dt);
  results[o + 7u] = vec4(s.position, 0.0);
  results[o + 8u] = vec4(s.velocity, 0.0);
  float theta = hingeAngle(c.x[0].xyz, c.x[1].xyz, c.x[2].xyz, c.x[3].xyz);
  results[o + 9u] = vec4(float(vertexAnomaly(s, params.maxSpeed)), anisotropyFactor(abs(c.x[3]), c.spring.uv.zw),
                         plasticRestLength(distance(c.x[0].xyz, c.x[1].xyz), c.spring.restLength, params),
                         plasticRestAngle(theta, c.hinge.restAngle, params));
}
