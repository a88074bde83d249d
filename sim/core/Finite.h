#pragma once
/// Finiteness of GLM vectors and matrices: inputs (poses, positions, directions) are
/// checked before they reach a solver, so a NaN is reported where it entered.
#include <cmath>

#include <glm/detail/qualifier.hpp>

namespace hg {

template <glm::length_t N, class T, glm::qualifier Q>
bool allFinite(const glm::vec<N, T, Q>& v) {
  for (glm::length_t k = 0; k < N; ++k)
    if (!std::isfinite(v[k])) return false;
  return true;
}

template <glm::length_t C, glm::length_t R, class T, glm::qualifier Q>
bool allFinite(const glm::mat<C, R, T, Q>& m) {
  for (glm::length_t c = 0; c < C; ++c)
    if (!allFinite(m[c])) return false;
  return true;
}

}  // namespace hg
