#include "sim/cloth/PinAnimation.h"

#include <string>

#include <glm/common.hpp>

namespace hg {

Result<PinAnimation> PinAnimation::fromKeys(std::vector<PinKey> keys) {
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (!(keys[k].time > keys[k - 1].time))
      return Error{"pin animation key " + std::to_string(k) + " is not later than the key before it"};
  PinAnimation animation;
  animation.m_keys = std::move(keys);
  return animation;
}

glm::vec3 PinAnimation::translationAt(float time) const {
  if (m_keys.empty()) return glm::vec3(0.0f);
  if (time <= m_keys.front().time) return m_keys.front().translation;
  for (std::size_t k = 1; k < m_keys.size(); ++k)
    if (time <= m_keys[k].time) {
      const float t = (time - m_keys[k - 1].time) / (m_keys[k].time - m_keys[k - 1].time);
      return glm::mix(m_keys[k - 1].translation, m_keys[k].translation, t);
    }
  return m_keys.back().translation;
}

void PinAnimation::apply(ClothSolver& solver, const std::vector<std::uint32_t>& pinned, float time) const {
  if (m_keys.empty() || pinned.empty()) return;
  const glm::vec3 offset = translationAt(time);
  std::vector<glm::vec3> targets;
  targets.reserve(pinned.size());
  for (std::uint32_t v : pinned) targets.push_back(glm::vec3(solver.model().restPositions[v]) + offset);
  solver.setPinTargets(pinned, targets);
}

}  // namespace hg
