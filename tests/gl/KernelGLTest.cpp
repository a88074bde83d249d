// The shared kernels give the same numbers as GLSL on the driver and as C++:
// shaders/test/kernel_probe.comp evaluates them for random cases.
#include <random>

#include <gtest/gtest.h>

#include "render/gl/ShaderRegistry.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using namespace kernels;

struct ProbeCase {
  vec4 xi, xj, vi, vj;
  SpringEntry spring;
};
static_assert(sizeof(ProbeCase) == 80);

class KernelGLTest : public test::GlTest {};

TEST_F(KernelGLTest, GlslMatchesCpp) {
  auto program = gl::ShaderRegistry().buildCompute("test/kernel_probe.comp");
  ASSERT_TRUE(program) << program.error().message;

  ClothStepParams params{};
  params.gravity = vec4(0.0f, -9.81f, 0.0f, 0.0f);
  params.sphere = vec4(0.1f, 0.2f, -0.1f, 0.6f);
  params.plane = vec4(0.0f, 1.0f, 0.0f, -0.3f);
  params.dt = 1.0f / 240.0f;
  params.velocityDamping = 0.3f;
  params.friction = 0.4f;
  params.contactOffset = 0.01f;
  params.maxSpeed = 3.0f;
  params.usePlane = 1u;

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<ProbeCase> cases(1000);  // not a multiple of the workgroup size (32)
  for (ProbeCase& c : cases) {
    c.xi = vec4(u(rng), u(rng), u(rng), 10.0f + 5.0f * u(rng));
    c.xj = vec4(u(rng), u(rng), u(rng), 0.0f);
    c.vi = vec4(2.0f * u(rng), 2.0f * u(rng), 2.0f * u(rng), 0.0f);
    c.vj = vec4(2.0f * u(rng), 2.0f * u(rng), 2.0f * u(rng), 0.0f);
    c.spring = SpringEntry{1u, 0.5f + 0.5f * u(rng), 100.0f + 50.0f * u(rng), 0.05f};
  }
  gl::Buffer paramsBuffer = gl::createBuffer(sizeof params, &params);
  gl::Buffer casesBuffer = gl::createBuffer(std::span<const ProbeCase>(cases));
  gl::Buffer results = gl::createBuffer(cases.size() * 8 * sizeof(vec4));
  glUseProgram(program->id());
  glUniform1ui(0, GLuint(cases.size()));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, paramsBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, casesBuffer.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, results.id());
  glDispatchCompute(GLuint((cases.size() + 31) / 32), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<vec4> gpu(cases.size() * 8);
  gl::readBuffer(results, gpu.size() * sizeof(vec4), gpu.data());

  int contacts = 0, flagged = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ProbeCase& c = cases[i];
    vec4 cpu[8];
    const vec3 force = springForce(vec3(c.xi), vec3(c.xj), vec3(c.vi), vec3(c.vj), c.spring);
    VertexState s = integrateVertex(vec3(c.xi), vec3(c.vi), force, c.xi.w, params);
    cpu[0] = vec4(force, 0.0f);
    cpu[1] = vec4(s.position, 0.0f);
    cpu[2] = vec4(s.velocity, 0.0f);
    const VertexState beforeContact = s;
    s = resolveSphereContact(s, params);
    contacts += s.position != beforeContact.position;
    cpu[3] = vec4(s.position, 0.0f);
    cpu[4] = vec4(s.velocity, 0.0f);
    s = resolvePlaneContact(s, params);
    cpu[5] = vec4(s.position, 0.0f);
    cpu[6] = vec4(s.velocity, 0.0f);
    cpu[7] = vec4(float(vertexAnomaly(s, params.maxSpeed)), 0.0f, 0.0f, 0.0f);
    flagged += cpu[7].x != 0.0f;
    for (int k = 0; k < 8; ++k) {
      const vec4 g = gpu[i * 8 + std::size_t(k)];
      for (int a = 0; a < 4; ++a)
        ASSERT_NEAR(g[a], cpu[k][a], 1e-5f + 1e-5f * std::abs(cpu[k][a])) << "case " << i << " output " << k;
    }
  }
  EXPECT_GT(contacts, 50);  // the cases exercise the contact branch
  EXPECT_GT(flagged, 10);   // and the speed flag
}

}  // namespace
}  // namespace hg
