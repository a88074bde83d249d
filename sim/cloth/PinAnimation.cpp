#include "sim/cloth/PinAnimation.h"

#include <string>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/trigonometric.hpp>

namespace hg {

Result<PinAnimation> PinAnimation::fromKeys(std::vector<PinKey> keys) {
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (!(keys[k].time > keys[k - 1].time))
      return Error{"pin animation key " + std::to_string(k) + " is not later than the key before it"};
  PinAnimation animation;
  animation.m_keys = std::move(keys);
  return animation;
}

glm::vec3 PinAnimation::interpolated(glm::vec3 PinKey::*member, float time) const {
  if (m_keys.empty()) return glm::vec3(0.0f);
  if (time <= m_keys.front().time) return m_keys.front().*member;
  for (std::size_t k = 1; k < m_keys.size(); ++k)
    if (time <= m_keys[k].time) {
      const float t = (time - m_keys[k - 1].time) / (m_keys[k].time - m_keys[k - 1].time);
      return glm::mix(m_keys[k - 1].*member, m_keys[k].*member, t);
    }
  return m_keys.back().*member;
}

glm::vec3 PinAnimation::translationAt(float time) const { return interpolated(&PinKey::translation, time); }

glm::vec3 PinAnimation::twistAt(float time) const { return interpolated(&PinKey::twist, time); }

glm::vec3 PinAnimation::positionAt(glm::vec3 rest, glm::vec3 center, float time) const {
  const glm::vec3 twist = twistAt(time), arm = rest - center;
  const float rate = glm::length(twist);  // degrees per m
  glm::vec3 turned = arm;
  if (rate > 0.0f) {
    const glm::vec3 axis = twist / rate;
    const float angle = glm::radians(rate * glm::dot(arm, axis));
    turned = glm::angleAxis(angle, axis) * arm;
  }
  return center + turned + translationAt(time);
}

void PinAnimation::apply(ClothSolver& solver, const std::vector<std::uint32_t>& pinned, float time) const {
  if (m_keys.empty() || pinned.empty()) return;
  glm::dvec3 sum(0.0);
  for (std::uint32_t v : pinned) sum += glm::dvec3(glm::vec3(solver.model().restPositions[v]));
  const glm::vec3 center(sum / double(pinned.size()));
  std::vector<glm::vec3> targets;
  targets.reserve(pinned.size());
  for (std::uint32_t v : pinned)
    targets.push_back(positionAt(glm::vec3(solver.model().restPositions[v]), center, time));
  solver.setPinTargets(pinned, targets);
}

}  // namespace hg
