// The shared per-element kernels (sim/kernels/*.glslh) compiled as C++: analytic cases.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "sim/kernels/Kernels.h"
#include "tests/support/AnalyticColliders.h"

namespace hg::kernels {
namespace {

ClothStepParams params() {
  ClothStepParams p{};
  p.gravity = vec4(0.0f, -9.81f, 0.0f, 0.0f);
  p.dt = 1e-3f;
  p.velocityDamping = 0.0f;
  p.friction = 0.5f;
  p.contactOffset = 0.0f;
  p.vertexCount = 1;
  p.maxSpeed = 100.0f;
  p.compressionScale = 1.0f;
  p.extensionScale = 1.0f;
  p.tensionExponent = 1.0f;
  p.yieldStrain = 0.02f;
  p.yieldAngle = 0.2f;
  return p;
}

/// The analytic colliders of the contact tests: a unit sphere at the origin (unless
/// `withSphere` is false) and the ground `plane` (xyz normal, w offset), friction mu.
test::AnalyticColliders colliders(float mu, bool withSphere = true, vec4 plane = vec4(0.0f, 1.0f, 0.0f, -5.0f)) {
  test::AnalyticColliders c;
  if (withSphere) c.addSphere(vec4(0.0f, 0.0f, 0.0f, 1.0f), mu);
  c.addGround(plane, mu);
  return c;
}

ClothSpring spring(float rest, float k, float damping = 0.0f) {
  ClothSpring s{};
  s.a = 0;
  s.b = 1;
  s.restLength = s.restLength0 = rest;
  s.stiffness = s.baseStiffness = k;
  s.damping = damping;
  return s;
}

TEST(SpringKernel, HookeForceAlongTheSpring) {
  const ClothStepParams p = params();
  const vec3 f = springForce(vec3(0.0f), vec3(1.5f, 0.0f, 0.0f), vec3(0.0f), vec3(0.0f), spring(1.0f, 200.0f), p);
  EXPECT_FLOAT_EQ(f.x, 200.0f * 0.5f);  // stretched: pulls i toward j
  EXPECT_FLOAT_EQ(f.y, 0.0f);
  const vec3 g = springForce(vec3(0.0f), vec3(0.0f, 0.0f, 0.75f), vec3(0.0f), vec3(0.0f), spring(1.0f, 200.0f), p);
  EXPECT_FLOAT_EQ(g.z, -200.0f * 0.25f);  // compressed: pushes i away from j
}

TEST(SpringKernel, CompressionAndExtensionConstantsGiveRatioAToB) {
  for (float n : {1.0f, 2.0f}) {
    ClothStepParams p = params();
    p.compressionScale = 0.3f;  // a
    p.extensionScale = 1.7f;    // b
    p.tensionExponent = n;
    for (float strain : {0.01f, 0.05f, 0.2f}) {
      const float stretched = tensionMagnitude(0.8f * (1.0f + strain), 0.8f, 120.0f, 0.0f, p);
      const float compressed = tensionMagnitude(0.8f * (1.0f - strain), 0.8f, 120.0f, 0.0f, p);
      EXPECT_GT(stretched, 0.0f);
      EXPECT_LT(compressed, 0.0f);
      EXPECT_NEAR(-compressed / stretched, 0.3f / 1.7f, 1e-4f) << "n = " << n << ", strain " << strain;
      // Magnitude k b L e^n.
      EXPECT_NEAR(stretched, 120.0f * 1.7f * 0.8f * std::pow(strain, n), 1e-3f * stretched);
    }
  }
}

// Strain stiffening s (docs/methods.md section 10): the secant stiffness grows linearly from
// k at rest to k (1 + s) at strain 1/6 and stays there; compression is not stiffened.
TEST(SpringKernel, StrainStiffeningGrowsTheSecantToOnePlusSAtOneSixth) {
  const ClothStepParams p = params();
  const float k = 120.0f, L = 0.8f, s = 4.0f;
  const auto secant = [&](float strain) { return tensionMagnitude(L * (1.0f + strain), L, k, s, p) / (L * strain); };
  EXPECT_NEAR(secant(1e-4f), k, 0.01f * k);
  EXPECT_NEAR(secant(1.0f / 12.0f), k * (1.0f + 0.5f * s), 1e-3f * k);
  EXPECT_NEAR(secant(1.0f / 6.0f), k * (1.0f + s), 1e-3f * k);
  EXPECT_NEAR(secant(0.3f), k * (1.0f + s), 1e-3f * k);
  EXPECT_FLOAT_EQ(tensionMagnitude(L * 0.9f, L, k, s, p), tensionMagnitude(L * 0.9f, L, k, 0.0f, p));
  // s = 0 is Hooke's law, bit for bit.
  EXPECT_EQ(tensionMagnitude(L * 1.1f, L, k, 0.0f, p), k * (L * 1.1f - L));
}

TEST(SpringKernel, ZeroAtRestAndAntisymmetric) {
  const ClothStepParams p = params();
  const ClothSpring s = spring(std::sqrt(3.0f), 80.0f, 0.3f);
  EXPECT_NEAR(length(springForce(vec3(0.0f), vec3(1.0f), vec3(0.0f), vec3(0.0f), s, p)), 0.0f, 1e-4f);
  const vec3 xi(0.1f, 0.2f, -0.3f), xj(0.9f, -0.4f, 0.5f), vi(1.0f, 0.0f, 2.0f), vj(-0.5f, 1.0f, 0.0f);
  const vec3 sum = springForce(xi, xj, vi, vj, s, p) + springForce(xj, xi, vj, vi, s, p);
  EXPECT_NEAR(length(sum), 0.0f, 1e-5f);
}

TEST(SpringKernel, AxialDampingOpposesSeparation) {
  const vec3 f = springForce(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), vec3(0.0f), vec3(3.0f, 1.0f, 0.0f),
                             spring(1.0f, 0.0f, 2.0f), params());
  EXPECT_FLOAT_EQ(f.x, 6.0f);
  EXPECT_FLOAT_EQ(f.y, 0.0f);  // transverse relative velocity is not damped
}

TEST(SpringKernel, PlasticCreepOnlyPastYieldAndTowardTheYieldShape) {
  ClothStepParams p = params();
  p.plasticRate = 0.0f;
  EXPECT_EQ(plasticRestLength(1.5f, 1.0f, p), 1.0f);   // off by default
  p.plasticRate = 1e6f;                                // instant creep
  EXPECT_EQ(plasticRestLength(1.01f, 1.0f, p), 1.0f);  // below yield: elastic
  EXPECT_NEAR(plasticRestLength(1.5f, 1.0f, p), 1.5f / 1.02f, 1e-6f);
  EXPECT_NEAR(plasticRestLength(0.5f, 1.0f, p), 0.5f / 0.98f, 1e-6f);
  p.plasticRate = 10.0f;  // rate * dt = 0.01 of the way per substep
  EXPECT_NEAR(plasticRestLength(1.5f, 1.0f, p), 1.0f + 0.01f * (1.5f / 1.02f - 1.0f), 1e-6f);
}

// Bending ----------------------------------------------------------------------

float bendingEnergy(const vec3 x[4], const ClothHinge& h) {
  return h.stiffness * (1.0f - std::cos(hingeAngle(x[0], x[1], x[2], x[3]) - h.restAngle));
}

TEST(BendingKernel, ForcesAreMinusTheEnergyGradient) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.4f, 0.4f);
  for (int trial = 0; trial < 20; ++trial) {
    vec3 x[4] = {vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), vec3(0.5f, 1.0f, 0.0f), vec3(0.5f, -1.0f, 0.0f)};
    for (vec3& p : x) p += vec3(u(rng), u(rng), u(rng));
    ClothHinge h{};
    h.stiffness = 2.0f;
    h = withRestAngle(h, u(rng));
    const HingeForces f = bendingForces(x[0], x[1], x[2], x[3], h);
    const vec3 analytic[4] = {f.f0, f.f1, f.f2, f.f3};
    for (int role = 0; role < 4; ++role) {
      vec3 numeric;
      for (int c = 0; c < 3; ++c) {
        vec3 y[4] = {x[0], x[1], x[2], x[3]};
        y[role][c] += 1e-3f;
        const float plus = bendingEnergy(y, h);
        y[role][c] -= 2e-3f;
        numeric[c] = -(plus - bendingEnergy(y, h)) / 2e-3f;
      }
      EXPECT_NEAR(length(analytic[role] - numeric), 0.0f, 2e-3f * (1.0f + length(numeric)))
          << "trial " << trial << " role " << role;
      // The per-role function gives the same force as the all-roles one.
      EXPECT_NEAR(length(bendingForce(x[0], x[1], x[2], x[3], uint(role), h) - analytic[role]), 0.0f, 1e-5f);
    }
    // One energy: zero net force and zero net torque.
    EXPECT_NEAR(length(f.f0 + f.f1 + f.f2 + f.f3), 0.0f, 1e-4f);
    EXPECT_NEAR(length(cross(x[0], f.f0) + cross(x[1], f.f1) + cross(x[2], f.f2) + cross(x[3], f.f3)), 0.0f, 1e-4f);
  }
}

TEST(BendingKernel, WingForceIsTrigOfAngleOverDistanceToHinge) {
  // Source rule (docs/methods.md section 1): magnitude c * trig(theta) / d on the wing, d = distance to the hinge.
  for (float d : {0.5f, 1.0f, 2.0f}) {
    const float angle = 0.6f;
    const vec3 x0(0.0f), x1(1.0f, 0.0f, 0.0f);
    const vec3 x2(0.5f, d, 0.0f);
    const vec3 x3(0.5f, -std::cos(angle), std::sin(angle));
    ClothHinge h{};
    h.stiffness = 3.0f;
    const HingeForces f = bendingForces(x0, x1, x2, x3, h);
    EXPECT_NEAR(length(f.f2), 3.0f * std::sin(std::abs(hingeAngle(x0, x1, x2, x3))) / d, 1e-4f) << "d = " << d;
  }
}

TEST(BendingKernel, FlatHingeAtRestHasNoForce) {
  ClothHinge h{};
  h.stiffness = 5.0f;
  const HingeForces f =
      bendingForces(vec3(0.0f), vec3(1.0f, 0.0f, 0.0f), vec3(0.3f, 0.0f, 1.0f), vec3(0.6f, 0.0f, -1.0f), h);
  EXPECT_NEAR(length(f.f0) + length(f.f1) + length(f.f2) + length(f.f3), 0.0f, 1e-6f);
}

// Implicit bending (projective_bending.glslh) ------------------------------------

/// The stencil of the diamond x[0..3] from its five edge lengths.
HingeStencil stencilOf(const vec3 x[4]) {
  return hingeStencilFromLengths(distance(x[0], x[1]), distance(x[0], x[2]), distance(x[1], x[2]), distance(x[0], x[3]),
                                 distance(x[1], x[3]));
}

/// The projective energy w / 2 |K x - p|^2 of a hinge at x (hingeResidual, offsets from x[0]).
float implicitBendingEnergy(const vec3 x[4], const HingeStencil& s, const ClothHinge& h) {
  const vec4 r = hingeResidual(x[1] - x[0], x[2] - x[0], x[3] - x[0], s, h);
  return 0.5f * r.w * dot(vec3(r), vec3(r));
}

/// An irregular rest diamond on the hinge x0 = 0, x1 = (0.8, 0, 0), with wing x3 folded
/// by `theta` about the hinge (the wings keep their shape).
void foldedDiamond(float theta, vec3 x[4]) {
  x[0] = vec3(0.0f);
  x[1] = vec3(0.8f, 0.0f, 0.0f);
  x[2] = vec3(0.2f, 0.5f, 0.0f);
  x[3] = vec3(0.7f, -1.1f * std::cos(theta), 1.1f * std::sin(theta));
}

TEST(ImplicitBendingKernel, StencilWeightsSumToZeroAndVanishOnTheFlatRestDiamond) {
  vec3 x[4];
  foldedDiamond(0.0f, x);
  const HingeStencil s = stencilOf(x);
  EXPECT_NEAR(s.weights.x + s.weights.y + s.weights.z + s.weights.w, 0.0f, 1e-5f);
  EXPECT_FLOAT_EQ(s.inverseEdgeLengthSq, 1.0f / 0.64f);
  ClothHinge h{};
  h.stiffness = 1.0f;
  EXPECT_NEAR(length(vec3(hingeResidual(x[1] - x[0], x[2] - x[0], x[3] - x[0], s, h))), 0.0f, 1e-6f);
  // A degenerate wing gives a hinge of zero weight.
  const HingeStencil flat = hingeStencilFromLengths(1.0f, 0.5f, 0.5f, 0.6f, 0.6f);
  EXPECT_EQ(flat.inverseEdgeLengthSq, 0.0f);
  EXPECT_EQ(flat.weights, vec4(0.0f));
}

/// The stencil of foldedDiamond's flat rest state.
HingeStencil restDiamondStencil() {
  vec3 rest[4];
  foldedDiamond(0.0f, rest);
  return stencilOf(rest);
}

TEST(ImplicitBendingKernel, IsometricFoldsFromFlatCostExactlyTheExplicitHingesEnergy) {
  // Bergou et al. 2006: K x = 2 |e| sin(theta / 2) n for an isometric fold, so with
  // w = k / |e|^2 the energy is k (1 - cos theta), the explicit hinge's (bending.glslh).
  const HingeStencil s = restDiamondStencil();
  ClothHinge h{};
  h.stiffness = 3.0f;
  for (float theta : {0.05f, 0.4f, -0.4f, 1.2f, 2.5f}) {
    vec3 x[4];
    foldedDiamond(theta, x);
    const float expected = h.stiffness * (1.0f - std::cos(hingeAngle(x[0], x[1], x[2], x[3])));
    EXPECT_NEAR(implicitBendingEnergy(x, s, h), expected, 1e-4f * expected) << "theta " << theta;
    // Translation does not change it (the weights sum to 0).
    vec3 moved[4] = {x[0] + vec3(5.0f), x[1] + vec3(5.0f), x[2] + vec3(5.0f), x[3] + vec3(5.0f)};
    EXPECT_NEAR(implicitBendingEnergy(moved, s, h), expected, 1e-3f * expected) << "theta " << theta;
  }
}

TEST(ImplicitBendingKernel, ARestAngleIsHeldOnItsOwnSideOnly) {
  const HingeStencil s = restDiamondStencil();
  ClothHinge h{};
  h.stiffness = 2.0f;
  for (float theta0 : {0.6f, -0.6f, 1.9f}) {
    vec3 x[4];
    foldedDiamond(theta0, x);
    const float angle = hingeAngle(x[0], x[1], x[2], x[3]);
    const ClothHinge atRest = withRestAngle(h, angle);
    EXPECT_NEAR(implicitBendingEnergy(x, s, atRest), 0.0f, 1e-6f) << "theta0 " << theta0;
    // Folded the other way: 2 k (sin(-theta0/2) - sin(theta0/2))^2 / cos^2(theta0/2), the
    // factor held at 4 beyond 120 degrees.
    vec3 mirrored[4];
    foldedDiamond(-theta0, mirrored);
    const float half = std::sin(0.5f * angle);
    const float cosHalfSq = std::max(std::cos(0.5f * angle) * std::cos(0.5f * angle), 0.25f);
    EXPECT_NEAR(implicitBendingEnergy(mirrored, s, atRest), 8.0f * h.stiffness * half * half / cosHalfSq, 1e-3f)
        << "theta0 " << theta0;
    // Near the rest angle, to second order k / 2 (theta - theta0)^2 (within 120 degrees).
    vec3 near[4];
    foldedDiamond(theta0 + 0.01f, near);
    const float delta = hingeAngle(near[0], near[1], near[2], near[3]) - angle;
    EXPECT_NEAR(implicitBendingEnergy(near, s, atRest), 0.5f * h.stiffness * delta * delta, 2e-6f)
        << "theta0 " << theta0;
  }
}

TEST(ImplicitBendingKernel, JacobiTermsAreTheEnergyGradientWithTheGershgorinDiagonal) {
  const HingeStencil s = restDiamondStencil();
  ClothHinge h{};
  h.stiffness = 1.5f;
  vec3 x[4];
  foldedDiamond(0.7f, x);
  const vec4 r = hingeResidual(x[1] - x[0], x[2] - x[0], x[3] - x[0], s, h);
  for (int role = 0; role < 4; ++role) {
    // At u_i = 0 the term is minus the energy gradient (the force) on vertex `role`.
    vec3 numeric;
    for (int c = 0; c < 3; ++c) {
      vec3 y[4] = {x[0], x[1], x[2], x[3]};
      y[role][c] += 1e-3f;
      const float plus = implicitBendingEnergy(y, s, h);
      y[role][c] -= 2e-3f;
      numeric[c] = -(plus - implicitBendingEnergy(y, s, h)) / 2e-3f;
    }
    const vec4 term = hingeJacobiTerm(r, s, uint(role), vec3(0.0f));
    EXPECT_NEAR(length(vec3(term) - numeric), 0.0f, 2e-3f * (1.0f + length(numeric))) << "role " << role;
    const float c = s.weights[role];
    EXPECT_FLOAT_EQ(term.w, r.w * std::abs(c) * s.weightMagnitudeSum);
    EXPECT_GE(term.w, 2.0f * r.w * c * c * (1.0f - 1e-6f));  // at least twice the block's own diagonal
    // The extra diagonal comes back at the current displacement: D u_i.
    EXPECT_NEAR(
        length(vec3(hingeJacobiTerm(r, s, uint(role), vec3(1.0f, 0.0f, 0.0f))) - vec3(term) - vec3(term.w, 0.0f, 0.0f)),
        0.0f, 1e-4f * (1.0f + term.w));
  }
}

// Anisotropy ---------------------------------------------------------------------

TEST(AnisotropyKernel, ChannelsByDirectionAndCosineBlendInBetween) {
  const vec4 K(1.0f, 2.0f, 3.0f, 4.0f);  // R warp, G weft, B bias +u+v, A bias -u+v
  EXPECT_FLOAT_EQ(anisotropyFactor(K, vec2(1.0f, 0.0f)), 1.0f);
  EXPECT_FLOAT_EQ(anisotropyFactor(K, vec2(-1.0f, 0.0f)), 1.0f);  // a spring has no sign
  EXPECT_FLOAT_EQ(anisotropyFactor(K, vec2(0.0f, 1.0f)), 2.0f);
  EXPECT_NEAR(anisotropyFactor(K, vec2(1.0f, 1.0f)), 3.0f, 1e-5f);
  EXPECT_NEAR(anisotropyFactor(K, vec2(-1.0f, -1.0f)), 3.0f, 1e-5f);
  EXPECT_NEAR(anisotropyFactor(K, vec2(-1.0f, 1.0f)), 4.0f, 1e-5f);
  const float a = 0.3926991f;  // 22.5 degrees: halfway between R and B
  EXPECT_NEAR(anisotropyFactor(K, vec2(std::cos(a), std::sin(a))), 2.0f, 1e-4f);
  EXPECT_NEAR(anisotropyFactor(K, vec2(std::cos(3.0f * a), std::sin(3.0f * a))), 2.5f, 1e-4f);  // B..G
  EXPECT_NEAR(anisotropyFactor(K, vec2(std::cos(7.0f * a), std::sin(7.0f * a))), 2.5f, 1e-4f);  // A..R
  const float thirty = 0.5235988f;  // weights cos 60 = 0.5 (R) and cos 30 = 0.866 (B)
  EXPECT_NEAR(anisotropyFactor(K, vec2(std::cos(thirty), std::sin(thirty))),
              (0.5f * 1.0f + 0.8660254f * 3.0f) / 1.3660254f, 1e-4f);
}

TEST(AnisotropyKernel, BilinearTapsFollowGlTexelCentresAndClamp) {
  BilinearTaps t = bilinearTaps(vec2(0.5f, 0.5f), ivec2(4, 2));  // the centre: between texels 1,2 and 0,1
  EXPECT_EQ(t.texels, ivec4(1, 0, 2, 1));
  EXPECT_NEAR(t.weight.x, 0.5f, 1e-6f);
  EXPECT_NEAR(t.weight.y, 0.5f, 1e-6f);
  t = bilinearTaps(vec2(0.125f, 0.25f), ivec2(4, 2));  // exactly texel (0, 0)'s centre
  EXPECT_EQ(t.texels.x, 0);
  EXPECT_NEAR(t.weight.x, 0.0f, 1e-6f);
  t = bilinearTaps(vec2(0.0f, 1.0f), ivec2(4, 2));  // corners clamp to the edge texels
  EXPECT_EQ(t.texels, ivec4(0, 1, 0, 1));
  const vec4 blended = blendTaps(vec4(0.0f), vec4(1.0f), vec4(2.0f), vec4(3.0f), bilinearTaps(vec2(0.5f), ivec2(2, 2)));
  EXPECT_NEAR(blended.x, 1.5f, 1e-6f);
}

// Integration and contact ----------------------------------------------------------

TEST(IntegrateKernel, SymplecticEulerUnderGravity) {
  ClothStepParams p = params();
  const float mass = 0.25f;
  const VertexState s =
      integrateVertex(vec3(0.0f, 2.0f, 0.0f), vec3(1.0f, 0.0f, 0.0f), vec3(p.gravity) * mass, 1.0f / mass, p);
  EXPECT_FLOAT_EQ(s.velocity.y, -9.81f * p.dt);
  EXPECT_FLOAT_EQ(s.position.y, 2.0f - 9.81f * p.dt * p.dt);  // x' = x + dt v'
  EXPECT_FLOAT_EQ(s.position.x, p.dt);
}

TEST(IntegrateKernel, ImplicitDampingNeverFlipsVelocity) {
  ClothStepParams p = params();
  p.velocityDamping = 1e6f;
  p.dt = 0.1f;
  const VertexState s = integrateVertex(vec3(0.0f), vec3(2.0f, 0.0f, 0.0f), vec3(0.0f), 1.0f, p);
  EXPECT_GT(s.velocity.x, 0.0f);
  EXPECT_LT(s.velocity.x, 2.0f * 1e-4f);
}

TEST(ContactKernel, StaticFrictionHoldsBelowMuTimesNormalImpulse) {
  // Approaching at 1 m/s, sliding at 0.4 m/s, mu = 0.5: 0.4 <= 0.5 * 1 -> stops.
  EXPECT_EQ(contactVelocity(vec3(0.4f, -1.0f, 0.0f), vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f), vec3(0.0f));
}

TEST(ContactKernel, KineticFrictionRemovesMuTimesNormalImpulse) {
  const vec3 v = contactVelocity(vec3(2.0f, -1.0f, 0.0f), vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_FLOAT_EQ(v.x, 2.0f - 0.5f * 1.0f);
  EXPECT_FLOAT_EQ(v.y, 0.0f);
}

TEST(ContactKernel, FrictionIsRelativeToTheSurfaceVelocity) {
  // A belt moving at 3 m/s along x drags a resting vertex that presses on it.
  const vec3 v = contactVelocity(vec3(0.0f, -1.0f, 0.0f), vec3(3.0f, 0.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_FLOAT_EQ(v.x, 0.5f);  // kinetic: relative speed 3 reduced by mu * 1
  const vec3 stuck = contactVelocity(vec3(2.8f, -1.0f, 0.0f), vec3(3.0f, 0.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f);
  EXPECT_FLOAT_EQ(stuck.x, 3.0f);  // static: moves with the surface
}

TEST(ContactKernel, SeparatingVelocityIsKept) {
  EXPECT_EQ(contactVelocity(vec3(2.0f, 1.0f, 0.0f), vec3(0.0f), vec3(0.0f, 1.0f, 0.0f), 0.5f), vec3(2.0f, 1.0f, 0.0f));
}

TEST(ContactKernel, SphereContactProjectsOntoSurfacePlusOffset) {
  ClothStepParams p = params();
  p.contactOffset = 0.01f;
  p.friction = 0.0f;  // frictionless: a purely radial projection
  VertexState s{vec3(0.0f, 0.5f, 0.5f), vec3(0.0f, -1.0f, 0.0f)};
  const VertexContact c = colliders(p.friction).at(s.position);
  EXPECT_NEAR(c.normalGap.w, std::sqrt(0.5f) - 1.0f, 1e-6f);
  s = resolveContact(s, c, p.contactOffset, p.dt);
  EXPECT_NEAR(length(s.position), 1.01f, 1e-6f);
  EXPECT_NEAR(s.position.y, s.position.z, 1e-6f);  // along the radial direction
  EXPECT_GE(dot(s.velocity, normalize(s.position)), -1e-6f);
  VertexState outside{vec3(0.0f, 2.0f, 0.0f), vec3(0.0f, -1.0f, 0.0f)};
  const VertexState untouched =
      resolveContact(outside, colliders(p.friction).at(outside.position), p.contactOffset, p.dt);
  EXPECT_EQ(untouched.position, outside.position);
  EXPECT_EQ(untouched.velocity, outside.velocity);
}

TEST(ContactKernel, StaticFrictionTakesBackTheSubstepsTangentialMove) {
  ClothStepParams p = params();
  const test::AnalyticColliders ground = colliders(p.friction, false, vec4(0.0f, 1.0f, 0.0f, 0.0f));
  // The substep moved the vertex 0.1 mm sideways and 0.2 mm into the ground.
  VertexState s{vec3(1e-4f, -2e-4f, 0.0f), vec3(1e-4f / p.dt, -2e-4f / p.dt, 0.0f)};
  s = resolveContact(s, ground.at(s.position), 0.0f, p.dt);
  EXPECT_NEAR(s.position.x, 0.0f, 1e-9f);  // held: mu 0.5 * 0.2 >= 0.1
  EXPECT_NEAR(s.position.y, 0.0f, 1e-9f);
  EXPECT_EQ(s.velocity, vec3(0.0f));
}

TEST(ContactKernel, DeepestColliderWinsAndPlaneKeepsVertexAbove) {
  ClothStepParams p = params();
  const test::AnalyticColliders ground = colliders(p.friction, false);  // no sphere
  VertexState s{vec3(1.0f, -5.2f, 0.0f), vec3(0.0f, -3.0f, 0.0f)};
  s = resolveContact(s, ground.at(s.position), 0.0f, p.dt);
  EXPECT_FLOAT_EQ(s.position.y, -5.0f);
  EXPECT_FLOAT_EQ(s.velocity.y, 0.0f);
  VertexContact a = noContact(), b = noContact();
  b.normalGap.w = -0.1f;
  EXPECT_EQ(deeperContact(a, b).normalGap.w, -0.1f);
}

TEST(AnomalyKernel, FlagsNonFiniteAndSpeed) {
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(1.0f)}, 10.0f), 0u);
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(20.0f, 0.0f, 0.0f)}, 10.0f), uint(HG_STATUS_SPEED_LIMIT));
  EXPECT_EQ(vertexAnomaly({vec3(NAN, 0.0f, 0.0f), vec3(0.0f)}, 10.0f), uint(HG_STATUS_NON_FINITE));
  EXPECT_EQ(vertexAnomaly({vec3(0.0f), vec3(0.0f, INFINITY, 0.0f)}, 10.0f), uint(HG_STATUS_NON_FINITE));
}

}  // namespace
}  // namespace hg::kernels
