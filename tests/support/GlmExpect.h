#pragma once
// Comparisons of GLM values shared by the test files (one definition: the test executables
// are built in unity batches, where two files' copies would clash). Angles: kPi and kDegree
// of sim/core/Numbers.h.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <glm/glm.hpp>

namespace hg::test {

/// Component-wise EXPECT_NEAR of two vectors, naming `what` and the component on failure.
inline void expectNear(glm::vec3 a, glm::vec3 b, float tol, const std::string& what) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], tol) << what << " component " << c;
}

/// The angle between two (not necessarily unit) vectors, in degrees.
inline float angleDegrees(glm::vec3 a, glm::vec3 b) {
  return glm::degrees(std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f)));
}

}  // namespace hg::test
