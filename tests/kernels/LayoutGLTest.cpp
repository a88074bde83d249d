// The std430 layouts declared once in sim/kernels/layout.glslh agree between the
// C++ compiler (offsetof) and the GL driver (program interface queries).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include <gtest/gtest.h>

#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using kernels::ClothHinge;
using kernels::ClothSpring;
using kernels::ClothStepParams;
using kernels::SpringEntry;

class LayoutGLTest : public test::GlTest {
 protected:
  void SetUp() override {
    test::GlTest::SetUp();
    auto program = gpuShaders().buildCompute("cloth_step.comp");
    ASSERT_TRUE(program) << program.error().message;
    m_program = std::move(program).value();
    auto forces = gpuShaders().buildCompute("cloth_forces.comp");
    ASSERT_TRUE(forces) << forces.error().message;
    m_forces = std::move(forces).value();
    auto contact = gpuShaders().buildCompute("cloth_contact.comp");  // the collider walk
    ASSERT_TRUE(contact) << contact.error().message;
    m_contact = std::move(contact).value();
    collect(m_program);
    collect(m_forces);
    collect(m_contact);
  }
  void collect(const gl::Program& program) {
    GLint count = 0;
    glGetProgramInterfaceiv(program.id(), GL_BUFFER_VARIABLE, GL_ACTIVE_RESOURCES, &count);
    for (GLint i = 0; i < count; ++i) {
      char name[256];
      glGetProgramResourceName(program.id(), GL_BUFFER_VARIABLE, GLuint(i), sizeof name, nullptr, name);
      const GLenum props[] = {GL_OFFSET, GL_TOP_LEVEL_ARRAY_STRIDE, GL_ARRAY_STRIDE};
      GLint values[3] = {};
      glGetProgramResourceiv(program.id(), GL_BUFFER_VARIABLE, GLuint(i), 3, props, 3, nullptr, values);
      m_offsets[name] = values[0];
      m_strides[name] = values[1];
      m_arrayStrides[name] = values[2];
    }
  }
  GLint offset(const std::string& name) {
    EXPECT_TRUE(m_offsets.count(name)) << "no buffer variable " << name;
    return m_offsets[name];
  }
  gl::Program m_program, m_forces, m_contact;
  std::map<std::string, GLint> m_offsets, m_strides, m_arrayStrides;
};

TEST_F(LayoutGLTest, ClothStepParamsOffsetsMatch) {
  EXPECT_EQ(offset("params.gravity"), GLint(offsetof(ClothStepParams, gravity)));
  EXPECT_EQ(offset("params.dt"), GLint(offsetof(ClothStepParams, dt)));
  EXPECT_EQ(offset("params.velocityDamping"), GLint(offsetof(ClothStepParams, velocityDamping)));
  EXPECT_EQ(offset("params.friction"), GLint(offsetof(ClothStepParams, friction)));
  EXPECT_EQ(offset("params.contactOffset"), GLint(offsetof(ClothStepParams, contactOffset)));
  EXPECT_EQ(offset("params.vertexCount"), GLint(offsetof(ClothStepParams, vertexCount)));
  EXPECT_EQ(offset("params.maxSpeed"), GLint(offsetof(ClothStepParams, maxSpeed)));
  EXPECT_EQ(offset("params.springCount"), GLint(offsetof(ClothStepParams, springCount)));
  EXPECT_EQ(offset("params.colliderCount"), GLint(offsetof(ClothStepParams, colliderCount)));
  EXPECT_EQ(offset("params.compressionScale"), GLint(offsetof(ClothStepParams, compressionScale)));
  EXPECT_EQ(offset("params.extensionScale"), GLint(offsetof(ClothStepParams, extensionScale)));
  EXPECT_EQ(offset("params.tensionExponent"), GLint(offsetof(ClothStepParams, tensionExponent)));
  EXPECT_EQ(offset("params.hingeCount"), GLint(offsetof(ClothStepParams, hingeCount)));
  EXPECT_EQ(offset("params.yieldStrain"), GLint(offsetof(ClothStepParams, yieldStrain)));
  EXPECT_EQ(offset("params.yieldAngle"), GLint(offsetof(ClothStepParams, yieldAngle)));
  EXPECT_EQ(offset("params.plasticRate"), GLint(offsetof(ClothStepParams, plasticRate)));
  EXPECT_EQ(offset("params.useContacts"), GLint(offsetof(ClothStepParams, useContacts)));
  EXPECT_EQ(offset("params.bodyLag"), GLint(offsetof(ClothStepParams, bodyLag)));
  const GLuint block = glGetProgramResourceIndex(m_program.id(), GL_SHADER_STORAGE_BLOCK, "ParamsBlock");
  const GLenum prop = GL_BUFFER_DATA_SIZE;
  GLint size = 0;
  glGetProgramResourceiv(m_program.id(), GL_SHADER_STORAGE_BLOCK, block, 1, &prop, 1, nullptr, &size);
  EXPECT_EQ(size, GLint(sizeof(ClothStepParams)));
}

TEST_F(LayoutGLTest, ElementStructOffsetsAndStridesMatch) {
  EXPECT_EQ(offset("springEntries[0].neighbor"), GLint(offsetof(SpringEntry, neighbor)));
  EXPECT_EQ(offset("springEntries[0].spring"), GLint(offsetof(SpringEntry, spring)));
  EXPECT_EQ(m_strides["springEntries[0].neighbor"], GLint(sizeof(SpringEntry)));
  EXPECT_EQ(offset("springs[0].a"), GLint(offsetof(ClothSpring, a)));
  EXPECT_EQ(offset("springs[0].b"), GLint(offsetof(ClothSpring, b)));
  EXPECT_EQ(offset("springs[0].restLength"), GLint(offsetof(ClothSpring, restLength)));
  EXPECT_EQ(offset("springs[0].stiffness"), GLint(offsetof(ClothSpring, stiffness)));
  EXPECT_EQ(offset("springs[0].uv"), GLint(offsetof(ClothSpring, uv)));
  EXPECT_EQ(offset("springs[0].baseStiffness"), GLint(offsetof(ClothSpring, baseStiffness)));
  EXPECT_EQ(offset("springs[0].damping"), GLint(offsetof(ClothSpring, damping)));
  EXPECT_EQ(offset("springs[0].restLength0"), GLint(offsetof(ClothSpring, restLength0)));
  EXPECT_EQ(m_strides["springs[0].a"], GLint(sizeof(ClothSpring)));
  EXPECT_EQ(offset("hinges[0].vertices"), GLint(offsetof(ClothHinge, vertices)));
  EXPECT_EQ(offset("hinges[0].restAngle"), GLint(offsetof(ClothHinge, restAngle)));
  EXPECT_EQ(offset("hinges[0].stiffness"), GLint(offsetof(ClothHinge, stiffness)));
  EXPECT_EQ(offset("hinges[0].cosRestAngle"), GLint(offsetof(ClothHinge, cosRestAngle)));
  EXPECT_EQ(offset("hinges[0].sinRestAngle"), GLint(offsetof(ClothHinge, sinRestAngle)));
  EXPECT_EQ(m_strides["hinges[0].vertices"], GLint(sizeof(ClothHinge)));
  EXPECT_EQ(offset("depthViews[0].origin"), GLint(offsetof(kernels::DepthView, origin)));
  EXPECT_EQ(offset("depthViews[0].right"), GLint(offsetof(kernels::DepthView, right)));
  EXPECT_EQ(offset("depthViews[0].up"), GLint(offsetof(kernels::DepthView, up)));
  EXPECT_EQ(offset("depthViews[0].forward"), GLint(offsetof(kernels::DepthView, forward)));
  EXPECT_EQ(offset("depthViews[0].texels"), GLint(offsetof(kernels::DepthView, texels)));
  EXPECT_EQ(m_strides["depthViews[0].origin"], GLint(sizeof(kernels::DepthView)));
  EXPECT_EQ(m_arrayStrides["positionsIn[0]"], GLint(sizeof(glm::vec4)));
  EXPECT_EQ(m_arrayStrides["elementForces[0]"], GLint(sizeof(glm::vec4)));
}

TEST_F(LayoutGLTest, BindingPointsAndWorkgroupSizeMatch) {
  auto bindingIn = [&](const gl::Program& program, const char* block) {
    const GLuint index = glGetProgramResourceIndex(program.id(), GL_SHADER_STORAGE_BLOCK, block);
    EXPECT_NE(index, GL_INVALID_INDEX) << block;
    const GLenum prop = GL_BUFFER_BINDING;
    GLint value = -1;
    glGetProgramResourceiv(program.id(), GL_SHADER_STORAGE_BLOCK, index, 1, &prop, 1, nullptr, &value);
    return value;
  };
  auto binding = [&](const char* block) { return bindingIn(m_program, block); };
  auto contactBinding = [&](const char* block) { return bindingIn(m_contact, block); };
  EXPECT_EQ(binding("ParamsBlock"), HG_BINDING_CLOTH_PARAMS);
  EXPECT_EQ(binding("PositionsIn"), HG_BINDING_POSITIONS_IN);
  EXPECT_EQ(binding("VelocitiesIn"), HG_BINDING_VELOCITIES_IN);
  EXPECT_EQ(binding("PositionsOut"), HG_BINDING_POSITIONS_OUT);
  EXPECT_EQ(binding("VelocitiesOut"), HG_BINDING_VELOCITIES_OUT);
  EXPECT_EQ(binding("SpringOffsets"), HG_BINDING_SPRING_OFFSETS);
  EXPECT_EQ(binding("SpringEntries"), HG_BINDING_SPRING_ENTRIES);
  EXPECT_EQ(binding("HingeOffsets"), HG_BINDING_HINGE_OFFSETS);
  EXPECT_EQ(binding("HingeEntries"), HG_BINDING_HINGE_ENTRIES);
  EXPECT_EQ(binding("ElementForces"), HG_BINDING_ELEMENT_FORCES);
  EXPECT_EQ(binding("StepStatusBlock"), HG_BINDING_STEP_STATUS);
  EXPECT_EQ(contactBinding("Positions"), HG_BINDING_POSITIONS_OUT);
  EXPECT_EQ(contactBinding("Velocities"), HG_BINDING_VELOCITIES_OUT);
  EXPECT_EQ(contactBinding("StepStatusBlock"), HG_BINDING_STEP_STATUS);
  EXPECT_EQ(contactBinding("SphereTreeNodes"), HG_BINDING_SPHERE_TREE_NODES);
  EXPECT_EQ(contactBinding("SphereTreeInstances"), HG_BINDING_SPHERE_TREE_INSTANCES);
  EXPECT_EQ(contactBinding("DepthViews"), HG_BINDING_DEPTH_VIEWS);
  EXPECT_EQ(contactBinding("DepthNormalDepth"), HG_BINDING_DEPTH_NORMAL_DEPTH);
  EXPECT_EQ(contactBinding("DepthVelocity"), HG_BINDING_DEPTH_VELOCITY);
  GLint size[3] = {};
  glGetProgramiv(m_program.id(), GL_COMPUTE_WORK_GROUP_SIZE, size);
  EXPECT_EQ(size[0], HG_WORKGROUP_SIZE);
}

// The collider records are a std140 uniform block (the cloth passes use all 16 storage
// blocks a compute shader may have): its records must have the C++ layout, and the
// driver must offer uniform buffer binding HG_BINDING_CLOTH_COLLIDERS.
TEST_F(LayoutGLTest, ClothColliderUniformBlockMatches) {
  GLint maxBindings = 0, maxStorageBlocks = 0;
  glGetIntegerv(GL_MAX_UNIFORM_BUFFER_BINDINGS, &maxBindings);
  glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &maxStorageBlocks);
  EXPECT_GT(maxBindings, HG_BINDING_CLOTH_COLLIDERS);
  for (const gl::Program* program : {&m_program, &m_contact}) {
    GLint storageBlocks = 0;
    glGetProgramInterfaceiv(program->id(), GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &storageBlocks);
    EXPECT_LE(storageBlocks, maxStorageBlocks);
  }
  const GLuint block = glGetProgramResourceIndex(m_contact.id(), GL_UNIFORM_BLOCK, "ClothColliders");
  ASSERT_NE(block, GL_INVALID_INDEX);
  const GLenum props[] = {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE};
  GLint values[2] = {};
  glGetProgramResourceiv(m_contact.id(), GL_UNIFORM_BLOCK, block, 2, props, 2, nullptr, values);
  EXPECT_EQ(values[0], HG_BINDING_CLOTH_COLLIDERS);
  EXPECT_EQ(values[1], GLint(HG_MAX_CLOTH_COLLIDERS * sizeof(kernels::ClothCollider)));
  auto uniformOffset = [&](const char* name) {
    const GLuint index = glGetProgramResourceIndex(m_contact.id(), GL_UNIFORM, name);
    EXPECT_NE(index, GL_INVALID_INDEX) << name;
    const GLenum offsetProps[] = {GL_OFFSET, GL_ARRAY_STRIDE};
    GLint v[2] = {-1, -1};
    glGetProgramResourceiv(m_contact.id(), GL_UNIFORM, index, 2, offsetProps, 2, nullptr, v);
    return std::pair<GLint, GLint>(v[0], v[1]);
  };
  EXPECT_EQ(uniformOffset("clothColliders[0].kind").first, GLint(offsetof(kernels::ClothCollider, kind)));
  EXPECT_EQ(uniformOffset("clothColliders[0].d").first, GLint(offsetof(kernels::ClothCollider, d)));
  EXPECT_EQ(uniformOffset("clothColliders[1].kind").first, GLint(sizeof(kernels::ClothCollider)));
}

}  // namespace
}  // namespace hg
