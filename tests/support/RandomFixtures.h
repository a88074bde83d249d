#pragma once
// Random inputs shared by the tests (seeded by each test: the same draws every run).
#include <random>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

namespace hg::test {

/// A rotation drawn uniformly (a normalised Gaussian quaternion).
inline glm::mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  const glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
  return glm::mat3_cast(q);
}

}  // namespace hg::test
