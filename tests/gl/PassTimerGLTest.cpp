// gl::PassTimer (HG_GPU_PASS_TIMES): GL timestamp queries around passes. Enabled, a chain of
// two marked compute passes gives each a positive total and the longer pass (64x the work)
// the larger one; resolving twice adds up; disabled, nothing is recorded.
#include <gtest/gtest.h>

#include "gl/GlObjects.h"
#include "gl/PassTimer.h"
#include "gl/ShaderRegistry.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

constexpr const char* kBusySource = R"(#version 450 core
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float data[]; };
layout(location = 0) uniform uint rounds;
void main() {
  float x = data[gl_GlobalInvocationID.x];
  for (uint k = 0u; k < rounds; ++k) x = sin(x) * 1.0001 + 0.5;
  data[gl_GlobalInvocationID.x] = x;
}
)";

class PassTimerGLTest : public test::GlTest {};

TEST_F(PassTimerGLTest, TimesEachMarkedPass) {
  const embedded::EmbeddedFile files[] = {{"busy.comp", kBusySource}};
  auto program = gl::ShaderRegistry(files).buildCompute("busy.comp");
  ASSERT_TRUE(program) << program.error().message;
  const gl::Buffer data = gl::createBuffer(65536 * sizeof(float));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, data.id());
  glUseProgram(program->id());
  auto run = [&](gl::PassTimer& timer) {
    timer.begin();
    glUniform1ui(0, 16u);
    glDispatchCompute(1024, 1, 1);
    timer.mark("short");
    glUniform1ui(0, 1024u);
    glDispatchCompute(1024, 1, 1);
    timer.mark("long");
    timer.resolve();
  };
  gl::PassTimer timer(true);
  run(timer);
  const std::uint64_t shortOnce = timer.totalNs("short"), longOnce = timer.totalNs("long");
  EXPECT_GT(shortOnce, 0u);
  EXPECT_GT(longOnce, shortOnce);
  run(timer);
  EXPECT_GT(timer.totalNs("long"), longOnce);
  EXPECT_EQ(timer.totalNs("never marked"), 0u);

  gl::PassTimer off(false);
  run(off);
  EXPECT_EQ(off.totalNs("short"), 0u);
  EXPECT_EQ(off.totalNs("long"), 0u);
  glUseProgram(0);
}

}  // namespace
}  // namespace hg
