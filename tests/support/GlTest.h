#pragma once
// Base fixture of every GL test: one headless EGL context per test process.
// A missing context FAILS the test (never skips): GL tests must run in CI on llvmpipe.
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "gl/HeadlessContext.h"

namespace hg::test {

class GlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (s_context || !s_error.empty()) return;
    auto context = gl::HeadlessContext::create();
    if (context) {
      s_context = std::move(context).value();
      std::printf("[ GL context ] %s\n", s_context->description().c_str());
    } else {
      s_error = context.error().message;
    }
  }
  void SetUp() override { ASSERT_TRUE(s_context) << "no OpenGL 4.5 context: " << s_error; }

  static inline std::unique_ptr<gl::HeadlessContext> s_context;
  static inline std::string s_error;
};

}  // namespace hg::test
