// Body skinning on the GPU (sim/gpu/GpuBodySkinner.h, sim/gpu/shaders/skinning.comp) against the
// CPU reference backend: the same kernels (sim/kernels/skinning.glslh) compiled as GLSL
// by the driver and as C++.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

#include "sim/gpu/GpuBodySkinner.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/GlTest.h"
#include "tests/support/SkinningFixtures.h"

namespace hg {
namespace {

class SkinningGLTest : public test::GlTest {};

TEST_F(SkinningGLTest, ShadersCompile) {
  const gl::ShaderRegistry& registry = gpuShaders();
  for (const std::string& name : registry.stageNames()) {
    if (name.find("skinning") == std::string::npos) continue;
    const Status status = registry.compileStage(name);
    EXPECT_TRUE(status) << name << ": " << status.error().message;
  }
  auto program = registry.buildCompute("skinning.comp");
  EXPECT_TRUE(program) << program.error().message;
}

// The std430 layouts of skinning.comp as the driver sees them equal the C++ ones
// (static_asserts in sim/kernels/Kernels.h).
TEST_F(SkinningGLTest, LayoutsMatchTheDriver) {
  auto program = gpuShaders().buildCompute("skinning.comp");
  ASSERT_TRUE(program) << program.error().message;
  std::map<std::string, GLint> offsets, strides, arrayStrides, matrixStrides;
  GLint count = 0;
  glGetProgramInterfaceiv(program->id(), GL_BUFFER_VARIABLE, GL_ACTIVE_RESOURCES, &count);
  for (GLint i = 0; i < count; ++i) {
    char name[256];
    glGetProgramResourceName(program->id(), GL_BUFFER_VARIABLE, GLuint(i), sizeof name, nullptr, name);
    const GLenum props[] = {GL_OFFSET, GL_TOP_LEVEL_ARRAY_STRIDE, GL_ARRAY_STRIDE, GL_MATRIX_STRIDE};
    GLint values[4] = {};
    glGetProgramResourceiv(program->id(), GL_BUFFER_VARIABLE, GLuint(i), 4, props, 4, nullptr, values);
    offsets[name] = values[0];
    strides[name] = values[1];
    arrayStrides[name] = values[2];
    matrixStrides[name] = values[3];
  }
  using kernels::DualQuaternion;
  using kernels::SkinVertex;
  const std::pair<const char*, std::size_t> expected[] = {
      {"skinVertices[0].position", offsetof(SkinVertex, position)},
      {"skinVertices[0].normal", offsetof(SkinVertex, normal)},
      {"skinVertices[0].joints", offsetof(SkinVertex, joints)},
      {"skinVertices[0].weights", offsetof(SkinVertex, weights)},
      {"skinDualQuaternions[0].real", offsetof(DualQuaternion, real)},
      {"skinDualQuaternions[0].dual", offsetof(DualQuaternion, dual)},
      {"skinMatrices[0]", 0}};
  for (const auto& [name, offset] : expected) {
    ASSERT_TRUE(offsets.count(name)) << "no buffer variable " << name;
    EXPECT_EQ(offsets[name], GLint(offset)) << name;
  }
  EXPECT_EQ(strides["skinVertices[0].position"], GLint(sizeof(SkinVertex)));
  EXPECT_EQ(strides["skinDualQuaternions[0].real"], GLint(sizeof(DualQuaternion)));
  EXPECT_EQ(arrayStrides["skinMatrices[0]"], GLint(sizeof(glm::mat4)));  // mat4[]: column-major, 4 x vec4
  EXPECT_EQ(matrixStrides["skinMatrices[0]"], GLint(sizeof(glm::vec4)));
}

class SkinningCrossCheckGLTest : public test::GlTest, public ::testing::WithParamInterface<SkinningMethod> {};

INSTANTIATE_TEST_SUITE_P(Methods, SkinningCrossCheckGLTest,
                         ::testing::Values(SkinningMethod::Linear, SkinningMethod::DualQuaternion),
                         [](const auto& method) { return std::string(skinningMethodName(method.param)); });

// CPU and GPU agree per vertex, |gpu - cpu| <= 1e-5 + 1e-5 |cpu| per component, on a
// body of 1234 vertices (not a multiple of the workgroup size, 64) over random poses
// with up to +-70 degrees per joint, a scaled joint and a 180-degree twist.
TEST_P(SkinningCrossCheckGLTest, CpuMatchesGpu) {
  auto body = test::chainCylinder(4, 44, 28);  // 44 * 28 + 2 vertices
  ASSERT_EQ(body->mesh.vertexCount(), 1234u);
  auto cpu = createBodySkinner(Backend::Cpu, body, GetParam());
  auto gpu = createBodySkinner(Backend::Gpu, body, GetParam());
  ASSERT_TRUE(cpu) << cpu.error().message;
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_EQ((*gpu)->backend(), Backend::Gpu);
  std::mt19937 rng(23);
  std::vector<Pose> poses = {restPose(body->skeleton)};
  for (int k = 0; k < 4; ++k) poses.push_back(test::randomPose(body->skeleton, rng, 1.2f, k == 3 ? 1.25f : 1.0f));
  Pose twist = restPose(body->skeleton);
  twist[2].rotation = twist[2].rotation * glm::angleAxis(glm::pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f));
  poses.push_back(twist);
  float worst = 0.0f, worstRelative = 0.0f;
  for (std::size_t p = 0; p < poses.size(); ++p) {
    ASSERT_TRUE((*cpu)->update(poses[p]));
    ASSERT_TRUE((*gpu)->update(poses[p]));
    const SkinnedSurface a = (*gpu)->readSurface(), b = (*cpu)->readSurface();
    ASSERT_EQ(a.positions.size(), b.positions.size());
    for (int field = 0; field < 2; ++field) {
      const std::vector<glm::vec4>& gpuValues = field == 0 ? a.positions : a.normals;
      const std::vector<glm::vec4>& cpuValues = field == 0 ? b.positions : b.normals;
      for (std::size_t i = 0; i < gpuValues.size(); ++i)
        for (int c = 0; c < 4; ++c) {
          const float x = gpuValues[i][c], y = cpuValues[i][c];
          const float diff = std::abs(x - y);
          worst = std::max(worst, diff);
          worstRelative = std::max(worstRelative, diff / (1e-5f + 1e-5f * std::abs(y)));
          ASSERT_LE(diff, 1e-5f + 1e-5f * std::abs(y))
              << "pose " << p << " vertex " << i << (field == 0 ? " position" : " normal") << " component " << c
              << ": gpu " << x << " cpu " << y;
        }
    }
  }
  std::printf("[ cpu vs gpu ] %s: worst |gpu - cpu| %.3g (%.3g of the tolerance) over %zu poses x %zu vertices\n",
              std::string(skinningMethodName(GetParam())).c_str(), double(worst), double(worstRelative), poses.size(),
              body->mesh.vertexCount());
}

// The surface buffers are there for a later pass to bind: right size, same contents as
// the readback, and the skinned body has moved.
TEST_F(SkinningGLTest, SurfaceBuffersHoldTheSkinnedSurface) {
  auto body = test::chainCylinder(3, 20, 10);
  auto skinner = createGpuBodySkinner(body, SkinningMethod::DualQuaternion);
  ASSERT_TRUE(skinner) << skinner.error().message;
  std::mt19937 rng(29);
  ASSERT_TRUE((*skinner)->update(test::randomPose(body->skeleton, rng, 0.8f)));
  const std::size_t n = body->mesh.vertexCount();
  GLint64 size = 0;
  glGetNamedBufferParameteri64v((*skinner)->positionsBuffer(), GL_BUFFER_SIZE, &size);
  EXPECT_EQ(std::size_t(size), n * sizeof(glm::vec4));
  glGetNamedBufferParameteri64v((*skinner)->normalsBuffer(), GL_BUFFER_SIZE, &size);
  EXPECT_EQ(std::size_t(size), n * sizeof(glm::vec4));
  std::vector<glm::vec4> direct(n);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetNamedBufferSubData((*skinner)->positionsBuffer(), 0, GLsizeiptr(n * sizeof(glm::vec4)), direct.data());
  const SkinnedSurface surface = (*skinner)->readSurface();
  EXPECT_EQ(direct, surface.positions);
  float moved = 0.0f;
  for (std::size_t i = 0; i < n; ++i)
    moved = std::max(moved, glm::length(glm::vec3(direct[i]) - body->mesh.positions[i]));
  EXPECT_GT(moved, 0.1f);
  EXPECT_FALSE((*skinner)->update(Pose{}));  // wrong size: error, nothing dispatched
}

}  // namespace
}  // namespace hg
