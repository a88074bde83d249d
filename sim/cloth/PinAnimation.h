#pragma once
/// Pins that follow an animation: keyframed translations (m) and twists of the pinned
/// vertices from their rest positions, linearly interpolated, held before the first and
/// after the last key. A twist turns each pinned vertex about an axis through the centroid
/// c of the pins' rest positions by an angle proportional to its rest position along that
/// axis: by |w| (a) degrees for w the key's twist and a = (x_rest - c) . w / |w| (m), so
/// the two end rings of a tube along w turn in opposite directions (the twisted-tube test
/// of Bridson et al. 2002). A pinned vertex goes to c + R (x_rest - c) + translation.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/cloth/ClothSolver.h"

namespace hg {

struct PinKey {
  float time = 0.0f;            ///< s
  glm::vec3 translation{0.0f};  ///< m, added to each pinned vertex's rest position
  glm::vec3 twist{0.0f};        ///< the axis, its length degrees of turn per m along it
};

class PinAnimation {
 public:
  PinAnimation() = default;
  /// Keys in increasing time; error if the times are not strictly increasing.
  static Result<PinAnimation> fromKeys(std::vector<PinKey> keys);

  bool empty() const { return m_keys.empty(); }
  /// The translation (m) and the twist (degrees per m along its direction) at time t (s).
  glm::vec3 translationAt(float time) const;
  glm::vec3 twistAt(float time) const;
  /// Where a pinned vertex at `rest` goes at time t, `center` the pins' rest centroid (m).
  glm::vec3 positionAt(glm::vec3 rest, glm::vec3 center, float time) const;
  /// Moves `pinned` vertices of the solver's model to their positionAt(time).
  void apply(ClothSolver& solver, const std::vector<std::uint32_t>& pinned, float time) const;

 private:
  /// The keys' member interpolated at time t.
  glm::vec3 interpolated(glm::vec3 PinKey::*member, float time) const;
  std::vector<PinKey> m_keys;
};

}  // namespace hg
