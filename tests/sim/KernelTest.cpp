// The shared per-element kernels (sim/kernels/*.glslh) compiled as C++: analytic cases.
#include <cmath>

#include <gtest/gtest.h>

#include "sim/kernels/Kernels.h"

namespace hg::kernels {
namespace {

ClothStepParams params() {
  ClothStepParams p{};
  p.gravity = vec4(0.0f, -9.81f, 0.0f, 0.0f);
  p.sphere = vec4(0.0f, 0.0f, 0.0f, 1.0f);
  p.plane = vec4(0.0f, 1.0f, 0.0f, -5.0f);
  p.dt = 1e-3f;
  p.velocityDamping = 0.0f;
  p.friction = 0.5f;
  p.contactOffset = 0.0f;
  p.vertexCount = 1;
  p.maxSpeed = 100.0f;
  p.usePlane = 1;
  return p;
}

TEST(SpringKernel, HookeForceAlongTheSpring) {
  const SpringEntry s{1, 1.0f, 200.0f, 0.0f};
  const vec3 f = springForce(vec3(0.0f), vec3(1.5f, 0.0f, 0.0f), vec3(0.0f), vec3(0.0f), s);
  EXPECT_FLOAT_EQ(f.x, 200.0f * 0.5f);  // stretched: pulls i toward j
  EXPECT_FLOAT_EQ(f.y, 0.0f);
  const vec3 g = springForce(vec3(0.0f), vec3(0.0f, 0.0f, 0.75f), vec3(0.0f), vec3(0.0f), s);
  EXPECT_FLOAT_EQ(g.z, -200.0f * 0.25f);  // compressed: pushes i away from j
}

TEST(SpringKernel, ZeroAtRestAndAntisymmetric) {
  const SpringEntry s{1, std::sqrt(3.0f), 80.0f, 0.3f};
  const vec3 rest = springForce(vec3(0.0f), vec3(1.0f), vec3(0.0f), vec3(0.0f), s);
  EXPECT_NEAR(length(rest), 0.0f, 1e-4f);
  const vec3 xi(0.1f, 0.2f, -0.3f), xj(0.9f, -0.4f, 0.5f), vi(1.0f, 0.0f, 2.0f), vj(-0.5f, 1.0f, 0.0f);
  const vec3 fij = springForce(xi, xj, vi, vj, s);
  const vec3 fji = springForce(xj, xi, vj, vi, s);
  EXPECT_NEAR(fij.x + fji.x, 0.0f, 1e-5f);
  EXPECT_NEAR(fij.y + fji.y, 0.0f, 1e-5f);
  EXPECT_NEAR(fij.z + fji.z, 0.0f, 1e-5f);
}

TEST(SpringKernel, AxialDampingOpposesSeparation) {
  const SpringEntry s{1, 1.0f, 0.0f, 2.0f};
  // j moves away from i at 3 m/s along the spring: i is pulled along at kd * 3.
  const vec3 f = springForce(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), vec3(0.0f), vec3(3.0f, 1.0f, 0.0f), s);
  EXPECT_FLOAT_EQ(f.x, 6.0f);
  EXPECT_FLOAT_EQ(f.y, 0.0f);  // transverse relative velocity is not damped
}

TEST(SpringKernel, CoincidentEndsGiveNoForce) {
  const SpringEntry s{1, 1.0f, 100.0f, 1.0f};
  const vec3 f = springForce(vec3(0.5f), vec3(0.5f), vec3(0.0f), vec3(1.0f), s);
  EXPECT_EQ(f, vec3(0.0f));
}

TEST(IntegrateKernel, SymplecticEulerUnderGravity) {
  ClothStepParams p = params();
  const float mass = 0.25f;
  const vec3 gravityForce = vec3(p.gravity) * mass;
  const VertexState s = integrateVertex(vec3(0.0f, 2.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f), gravityForce, 1.0f / mass, p);
  EXPECT_FLOAT_EQ(s.velocity.y, -9.81f * p.dt);
  EXPECT_FLOAT_EQ(s.position.y, 2.0f - 9.81f * p.dt * p.dt);  // x' = x + dt v'
  EXPECT_FLOAT_EQ(s.position.x, p.dt);
}

TEST(IntegrateKernel, ImplicitDampingNeverFlipsVelocity) {
  ClothStepParams p = params();
  p.velocityDamping = 1e6f;  // absurdly large: still only shrinks v
  p.dt = 0.1f;
  const VertexState s = integrateVertex(vec3(0.0f), vec3(2.0f, 0.0f, 0.0f), vec3(0.0f), 1.0f, p);
  EXPECT_GT(s.velocity.x, 0.0f);
  EXPECT_LT(s.velocity.x, 2.0f * 1e-4f);
}

TEST(ContactKernel, StaticFrictionHoldsBelowMuTimesNormalImpulse) {
  // Approaching at 1 m/s, sliding at 0.4 m/s, mu = 0.5: 0.4 <= 0.5 * 1 -> stops.
  const vec3 v = contactVelocity(vec3(0.4f, -1.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_EQ(v, vec3(0.0f));
}

TEST(ContactKernel, KineticFrictionRemovesMuTimesNormalImpulse) {
  const vec3 v = contactVelocity(vec3(2.0f, -1.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_FLOAT_EQ(v.x, 2.0f - 0.5f * 1.0f);
  EXPECT_FLOAT_EQ(v.y, 0.0f);
}

TEST(ContactKernel, SeparatingVelocityIsKept) {
  const vec3 v = contactVelocity(vec3(2.0f, 1.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_EQ(v, vec3(2.0f, 1.0f, 0.0f));  // no normal impulse, so no friction either
}

TEST(ContactKernel, SphereProjectsOntoSurfacePlusOffset) {
  ClothStepParams p = params();
  p.contactOffset = 0.01f;
  VertexState s{vec3(0.0f, 0.5f, 0.5f), vec3(0.0f, -1.0f, 0.0f)};
  s = resolveSphereContact(s, p);
  EXPECT_NEAR(length(s.position), 1.01f, 1e-6f);
  EXPECT_NEAR(s.position.y, s.position.z, 1e-6f);  // along the radial direction
  EXPECT_GE(dot(s.velocity, normalize(s.position)), -1e-6f);
  VertexState outside{vec3(0.0f, 2.0f, 0.0f), vec3(0.0f, -1.0f, 0.0f)};
  const VertexState untouched = resolveSphereContact(outside, p);
  EXPECT_EQ(untouched.position, outside.position);
  EXPECT_EQ(untouched.velocity, outside.velocity);
}

TEST(ContactKernel, PlaneKeepsVertexAbove) {
  ClothStepParams p = params();
  VertexState s{vec3(1.0f, -5.2f, 0.0f), vec3(0.0f, -3.0f, 0.0f)};
  s = resolvePlaneContact(s, p);
  EXPECT_FLOAT_EQ(s.position.y, -5.0f);
  EXPECT_FLOAT_EQ(s.velocity.y, 0.0f);
}

TEST(AnomalyKernel, FlagsNonFiniteAndSpeed) {
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(1.0f)}, 10.0f), 0u);
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(20.0f, 0.0f, 0.0f)}, 10.0f), uint(HG_STATUS_SPEED_LIMIT));
  EXPECT_EQ(vertexAnomaly({vec3(NAN, 0.0f, 0.0f), vec3(0.0f)}, 10.0f), uint(HG_STATUS_NON_FINITE));
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(0.0f, INFINITY, 0.0f)}, 10.0f), uint(HG_STATUS_NON_FINITE));
}

}  // namespace
}  // namespace hg::kernels
