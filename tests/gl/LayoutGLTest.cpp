// The std430 layouts declared once in sim/kernels/layout.glslh agree between the
// C++ compiler (offsetof) and the GL driver (program interface queries).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <map>

#include <gtest/gtest.h>

#include "render/gl/ShaderRegistry.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using kernels::ClothStepParams;
using kernels::SpringEntry;

class LayoutGLTest : public test::GlTest {
protected:
  void SetUp() override {
    test::GlTest::SetUp();
    auto program = gl::ShaderRegistry().buildCompute("cloth_step.comp");
    ASSERT_TRUE(program) << program.error().message;
    m_program = std::move(program).value();
    GLint count = 0;
    glGetProgramInterfaceiv(m_program.id(), GL_BUFFER_VARIABLE, GL_ACTIVE_RESOURCES, &count);
    for (GLint i = 0; i < count; ++i) {
      char name[256];
      glGetProgramResourceName(m_program.id(), GL_BUFFER_VARIABLE, GLuint(i), sizeof name, nullptr, name);
      const GLenum props[] = {GL_OFFSET, GL_TOP_LEVEL_ARRAY_STRIDE, GL_ARRAY_STRIDE};
      GLint values[3] = {};
      glGetProgramResourceiv(m_program.id(), GL_BUFFER_VARIABLE, GLuint(i), 3, props, 3, nullptr, values);
      m_offsets[name] = values[0];
      m_strides[name] = values[1];
      m_arrayStrides[name] = values[2];
    }
  }
  GLint offset(const std::string& name) {
    EXPECT_TRUE(m_offsets.count(name)) << "no buffer variable " << name;
    return m_offsets[name];
  }
  gl::Program m_program;
  std::map<std::string, GLint> m_offsets, m_strides, m_arrayStrides;
};

TEST_F(LayoutGLTest, ClothStepParamsOffsetsMatch) {
  EXPECT_EQ(offset("params.gravity"), GLint(offsetof(ClothStepParams, gravity)));
  EXPECT_EQ(offset("params.sphere"), GLint(offsetof(ClothStepParams, sphere)));
  EXPECT_EQ(offset("params.plane"), GLint(offsetof(ClothStepParams, plane)));
  EXPECT_EQ(offset("params.dt"), GLint(offsetof(ClothStepParams, dt)));
  EXPECT_EQ(offset("params.velocityDamping"), GLint(offsetof(ClothStepParams, velocityDamping)));
  EXPECT_EQ(offset("params.friction"), GLint(offsetof(ClothStepParams, friction)));
  EXPECT_EQ(offset("params.contactOffset"), GLint(offsetof(ClothStepParams, contactOffset)));
  EXPECT_EQ(offset("params.vertexCount"), GLint(offsetof(ClothStepParams, vertexCount)));
  EXPECT_EQ(offset("params.maxSpeed"), GLint(offsetof(ClothStepParams, maxSpeed)));
  EXPECT_EQ(offset("params.usePlane"), GLint(offsetof(ClothStepParams, usePlane)));
  const GLuint block = glGetProgramResourceIndex(m_program.id(), GL_SHADER_STORAGE_BLOCK, "ParamsBlock");
  const GLenum prop = GL_BUFFER_DATA_SIZE;
  GLint size = 0;
  glGetProgramResourceiv(m_program.id(), GL_SHADER_STORAGE_BLOCK, block, 1, &prop, 1, nullptr, &size);
  EXPECT_EQ(size, GLint(sizeof(ClothStepParams)));
}

TEST_F(LayoutGLTest, SpringEntryOffsetsAndStrideMatch) {
  EXPECT_EQ(offset("springs[0].neighbor"), GLint(offsetof(SpringEntry, neighbor)));
  EXPECT_EQ(offset("springs[0].restLength"), GLint(offsetof(SpringEntry, restLength)));
  EXPECT_EQ(offset("springs[0].stiffness"), GLint(offsetof(SpringEntry, stiffness)));
  EXPECT_EQ(offset("springs[0].damping"), GLint(offsetof(SpringEntry, damping)));
  EXPECT_EQ(m_strides["springs[0].neighbor"], GLint(sizeof(SpringEntry)));
  EXPECT_EQ(m_arrayStrides["positionsIn[0]"], GLint(sizeof(glm::vec4)));
}

TEST_F(LayoutGLTest, BindingPointsAndWorkgroupSizeMatch) {
  auto binding = [&](const char* block) {
    const GLuint index = glGetProgramResourceIndex(m_program.id(), GL_SHADER_STORAGE_BLOCK, block);
    EXPECT_NE(index, GL_INVALID_INDEX) << block;
    const GLenum prop = GL_BUFFER_BINDING;
    GLint value = -1;
    glGetProgramResourceiv(m_program.id(), GL_SHADER_STORAGE_BLOCK, index, 1, &prop, 1, nullptr, &value);
    return value;
  };
  EXPECT_EQ(binding("ParamsBlock"), HG_BINDING_CLOTH_PARAMS);
  EXPECT_EQ(binding("PositionsIn"), HG_BINDING_POSITIONS_IN);
  EXPECT_EQ(binding("VelocitiesIn"), HG_BINDING_VELOCITIES_IN);
  EXPECT_EQ(binding("PositionsOut"), HG_BINDING_POSITIONS_OUT);
  EXPECT_EQ(binding("VelocitiesOut"), HG_BINDING_VELOCITIES_OUT);
  EXPECT_EQ(binding("SpringOffsets"), HG_BINDING_SPRING_OFFSETS);
  EXPECT_EQ(binding("Springs"), HG_BINDING_SPRINGS);
  EXPECT_EQ(binding("StepStatusBlock"), HG_BINDING_STEP_STATUS);
  GLint size[3] = {};
  glGetProgramiv(m_program.id(), GL_COMPUTE_WORK_GROUP_SIZE, size);
  EXPECT_EQ(size[0], HG_WORKGROUP_SIZE);
}

}  // namespace
}  // namespace hg
