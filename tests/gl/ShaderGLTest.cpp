// Every embedded shader compiles on the driver; include resolution and error mapping.
#include <gtest/gtest.h>

#include "tests/support/GlTest.h"
#include "tests/support/TestShaders.h"

namespace hg {
namespace {

class ShaderGLTest : public test::GlTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(ShaderGLTest, Compiles) {
  const Status status = test::allShaders().compileStage(GetParam());
  EXPECT_TRUE(status) << status.error().message;  // the driver's info log, mapped to file:line
}

INSTANTIATE_TEST_SUITE_P(Embedded, ShaderGLTest, ::testing::ValuesIn(test::allShaders().stageNames()),
                         [](const auto& param) {
                           std::string name = param.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(ShaderRegistry, EmbedsTheKernelHeaders) {
  const auto names = test::allShaders().names();
  for (const char* expected : {"kernels/common.glslh", "kernels/layout.glslh", "kernels/spring.glslh",
                               "kernels/cloth_vertex.glslh", "cloth_step.comp", "mesh.vert", "mesh.frag"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

TEST(ShaderRegistry, ResolvesIncludesOnceWithLineMarkers) {
  const embedded::EmbeddedFile files[] = {
      {"a.comp", "#version 450 core\n#include \"lib/b.glslh\"\n#include \"lib/b.glslh\"\nvoid main() {}\n"},
      {"lib/b.glslh", "#include \"c.glslh\"\nfloat b() { return c(); }\n"},
      {"lib/c.glslh", "float c() { return 1.0; }\n"},
  };
  auto source = gl::ShaderRegistry(files).preprocess("a.comp");
  ASSERT_TRUE(source) << source.error().message;
  EXPECT_EQ(source->find("#version 450 core"), 0u);
  EXPECT_NE(source->find("float c()"), std::string::npos);           // relative to lib/
  EXPECT_EQ(source->find("float b()"), source->rfind("float b()"));  // included once
  EXPECT_NE(source->find("#line 1 1"), std::string::npos);
}

TEST(ShaderRegistry, MissingIncludeNamesFileAndLine) {
  const embedded::EmbeddedFile files[] = {{"a.comp", "#version 450 core\n\n#include \"nope.glslh\"\n"}};
  auto source = gl::ShaderRegistry(files).preprocess("a.comp");
  ASSERT_FALSE(source);
  EXPECT_NE(source.error().message.find("a.comp:3: #include \"nope.glslh\""), std::string::npos)
      << source.error().message;
}

TEST_F(ShaderGLTest, CompileErrorsPointAtTheIncludedFileAndLine) {
  const embedded::EmbeddedFile files[] = {
      {"broken.comp", "#version 450 core\nlayout(local_size_x = 1) in;\n#include \"bad.glslh\"\nvoid main() {}\n"},
      {"bad.glslh", "// fine\n// fine\nfloat f() { return undefinedThing; }\n"},
  };
  const Status status = gl::ShaderRegistry(files).compileStage("broken.comp");
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("bad.glslh:3:"), std::string::npos) << status.error().message;
  EXPECT_NE(status.error().message.find("undefinedThing"), std::string::npos) << status.error().message;
}

}  // namespace
}  // namespace hg
