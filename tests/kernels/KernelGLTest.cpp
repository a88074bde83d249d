// The shared kernels give the same numbers as GLSL on the driver and as C++:
// tests/kernels/shaders/kernel_probe.comp evaluates them for random cases.
#include <random>

#include <gtest/gtest.h>

#include "sim/kernels/Kernels.h"
#include "tests/support/AnalyticColliders.h"
#include "tests/support/GlTest.h"
#include "tests/support/TestShaders.h"

namespace hg {
namespace {

using namespace kernels;

struct ProbeCase {
  vec4 x[4];
  vec4 v[2];
  ClothSpring spring;
  ClothHinge hinge;
};
static_assert(sizeof(ProbeCase) == 176);

constexpr int kProbeOutputs = 10;

class KernelGLTest : public test::GlTest {};

TEST_F(KernelGLTest, GlslMatchesCpp) {
  auto program = test::allShaders().buildCompute("test/kernel_probe.comp");
  ASSERT_TRUE(program) << program.error().message;

  ClothStepParams params{};
  params.gravity = vec4(0.0f, -9.81f, 0.0f, 0.0f);
  params.dt = 1.0f / 240.0f;
  params.velocityDamping = 0.3f;
  params.friction = 0.4f;
  params.contactOffset = 0.01f;
  params.maxSpeed = 3.0f;
  params.compressionScale = 0.5f;
  params.extensionScale = 1.3f;
  params.tensionExponent = 2.0f;  // the pow() path; n = 1 is exercised by the solver cross-checks
  params.yieldStrain = 0.05f;
  params.yieldAngle = 0.1f;
  params.plasticRate = 30.0f;
  test::AnalyticColliders colliders;  // a sphere and the ground, mu = params.friction
  colliders.addSphere(vec4(0.1f, 0.2f, -0.1f, 0.6f), params.friction);
  colliders.addGround(vec4(0.0f, 1.0f, 0.0f, -0.3f), params.friction);

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<ProbeCase> cases(1000);  // not a multiple of the workgroup size (32)
  for (ProbeCase& c : cases) {
    for (vec4& x : c.x) x = vec4(u(rng), u(rng), u(rng), 0.0f);
    c.x[0].w = 10.0f + 5.0f * u(rng);
    for (vec4& v : c.v) v = vec4(2.0f * u(rng), 2.0f * u(rng), 2.0f * u(rng), 0.0f);
    c.spring = ClothSpring{};
    c.spring.restLength = 0.5f + 0.5f * u(rng);
    c.spring.stiffness = 100.0f + 50.0f * u(rng);
    c.spring.damping = 0.05f;
    c.spring.uv = vec4(0.5f, 0.5f, u(rng), u(rng));
    c.hinge = ClothHinge{};
    c.hinge.stiffness = 0.5f + 0.4f * u(rng);
    c.hinge = withRestAngle(c.hinge, 0.5f * u(rng));
  }
  gl::Buffer paramsBuffer = gl::createBuffer(sizeof params, &params);
  gl::Buffer casesBuffer = gl::createBuffer(std::span<const ProbeCase>(cases));
  gl::Buffer results = gl::createBuffer(cases.size() * kProbeOutputs * sizeof(vec4));
  gl::Buffer collidersBuffer = gl::createBuffer(std::span<const ClothCollider>(colliders.records));
  glUseProgram(program->id());
  glUniform1ui(0, GLuint(cases.size()));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, paramsBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, casesBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, results.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, collidersBuffer.id());
  glDispatchCompute(GLuint((cases.size() + 31) / 32), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<vec4> gpu(cases.size() * kProbeOutputs);
  gl::readBuffer(results, gpu.size() * sizeof(vec4), gpu.data());

  int contacts = 0, flagged = 0, crept = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ProbeCase& c = cases[i];
    vec4 cpu[kProbeOutputs];
    const vec3 x0(c.x[0]), x1(c.x[1]), x2(c.x[2]), x3(c.x[3]);
    const vec3 force = springForce(x0, x1, vec3(c.v[0]), vec3(c.v[1]), c.spring, params);
    const HingeForces h = bendingForces(x0, x1, x2, x3, c.hinge);
    cpu[0] = vec4(force, 0.0f);
    cpu[1] = vec4(h.f0, 0.0f);
    cpu[2] = vec4(h.f1, 0.0f);
    cpu[3] = vec4(h.f2, 0.0f);
    cpu[4] = vec4(h.f3, 0.0f);
    VertexState s = integrateVertex(x0, vec3(c.v[0]), force + h.f0, c.x[0].w, params);
    cpu[5] = vec4(s.position, 0.0f);
    cpu[6] = vec4(s.velocity, 0.0f);
    const VertexState beforeContact = s;
    s = resolveContact(s, colliders.at(s.position), params.contactOffset, params.dt);
    contacts += s.position != beforeContact.position;
    cpu[7] = vec4(s.position, 0.0f);
    cpu[8] = vec4(s.velocity, 0.0f);
    const float theta = hingeAngle(x0, x1, x2, x3);
    cpu[9] = vec4(float(vertexAnomaly(s, params.maxSpeed)),
                  anisotropyFactor(abs(c.x[3]), vec2(c.spring.uv.z, c.spring.uv.w)),
                  plasticRestLength(distance(x0, x1), c.spring.restLength, params),
                  plasticRestAngle(theta, c.hinge.restAngle, params));
    flagged += cpu[9].x != 0.0f;
    crept += cpu[9].z != c.spring.restLength;
    for (int k = 0; k < kProbeOutputs; ++k) {
      const vec4 g = gpu[i * kProbeOutputs + std::size_t(k)];
      // The contact (outputs 7, 8) removes part of the integrated position and velocity
      // (5, 6) and keeps their rounding (drivers that fuse a * b + c or round division
      // and sqrt to 2.5 ulp differ from the CPU there), so their scale is the input's.
      const float inputScale = k == 7 || k == 8 ? glm::length(cpu[k - 2]) : 0.0f;
      for (int a = 0; a < 4; ++a)
        ASSERT_NEAR(g[a], cpu[k][a], 2e-5f + 2e-5f * std::max(std::abs(cpu[k][a]), inputScale))
            << "case " << i << " output " << k << " (input scale " << inputScale << ")";
    }
  }
  EXPECT_GT(contacts, 50);  // the cases exercise the contact branch
  EXPECT_GT(flagged, 10);   // the speed flag
  EXPECT_GT(crept, 100);    // and plastic creep
}

}  // namespace
}  // namespace hg
