#pragma once
/// Pins that follow an animation: keyframed translations (m) of the pinned vertices
/// from their rest positions, linearly interpolated, held before the first and after
/// the last key.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/cloth/ClothSolver.h"

namespace hg {

struct PinKey {
  float time = 0.0f;            ///< s
  glm::vec3 translation{0.0f};  ///< m, added to each pinned vertex's rest position
};

class PinAnimation {
 public:
  PinAnimation() = default;
  /// Keys in increasing time; error if the times are not strictly increasing.
  static Result<PinAnimation> fromKeys(std::vector<PinKey> keys);

  bool empty() const { return m_keys.empty(); }
  /// The translation at time t (s).
  glm::vec3 translationAt(float time) const;
  /// Moves `pinned` vertices of the solver's model to rest + translationAt(time).
  void apply(ClothSolver& solver, const std::vector<std::uint32_t>& pinned, float time) const;

 private:
  std::vector<PinKey> m_keys;
};

}  // namespace hg
