#include "sim/cloth/ClothSolver.h"

#include <cmath>
#include <cstring>
#include <string>

namespace hg {

static_assert(std::uint32_t(StepStatus::NonFinite) == HG_STATUS_NON_FINITE);
static_assert(std::uint32_t(StepStatus::SpeedLimitExceeded) == HG_STATUS_SPEED_LIMIT);

std::string_view backendName(Backend backend) { return backend == Backend::Cpu ? "cpu" : "gpu"; }

Result<Backend> parseBackend(std::string_view name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  return Error{"unknown backend '" + std::string(name) + "' (use cpu or gpu)"};
}

Status ClothSettings::validate() const {
  auto finite = [](glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
  if (!(frameDt > 0.0f) || !std::isfinite(frameDt)) return Error{"frame_dt must be > 0 seconds"};
  if (substeps < 1 || substeps > 100000) return Error{"substeps must be in 1..100000"};
  if (!(velocityDamping >= 0.0f) || !std::isfinite(velocityDamping))
    return Error{"velocity_damping must be >= 0 (1/s)"};
  if (!(friction >= 0.0f) || !std::isfinite(friction)) return Error{"friction must be >= 0"};
  if (!(contactOffset >= 0.0f) || !std::isfinite(contactOffset))
    return Error{"contact_offset must be >= 0 m"};
  if (!finite(gravity)) return Error{"gravity must be finite"};
  if (hasSphere && (!finite(sphereCenter) || !(sphereRadius > 0.0f) || !std::isfinite(sphereRadius)))
    return Error{"sphere needs a finite center and a radius > 0 m"};
  if (hasGround && !std::isfinite(groundHeight)) return Error{"ground height must be finite"};
  if (!(maxSpeed > 0.0f)) return Error{"max_speed must be > 0 m/s"};
  if (threads < 0) return Error{"threads must be >= 0"};
  return Status::success();
}

kernels::ClothStepParams ClothSettings::stepParams(std::size_t vertexCount) const {
  kernels::ClothStepParams p{};
  p.gravity = glm::vec4(gravity, 0.0f);
  p.sphere = hasSphere ? glm::vec4(sphereCenter, sphereRadius) : glm::vec4(0.0f);
  p.plane = glm::vec4(0.0f, 1.0f, 0.0f, groundHeight);
  p.usePlane = hasGround ? 1u : 0u;
  p.dt = frameDt / float(substeps);
  p.velocityDamping = velocityDamping;
  p.friction = friction;
  p.contactOffset = contactOffset;
  p.vertexCount = std::uint32_t(vertexCount);
  p.maxSpeed = maxSpeed;
  return p;
}

ClothState restState(const ClothModel& model) {
  return {model.restPositions, std::vector<glm::vec4>(model.vertexCount(), glm::vec4(0.0f))};
}

std::uint64_t stateHash(const ClothState& state) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&](const std::vector<glm::vec4>& values) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
    for (std::size_t i = 0; i < values.size() * sizeof(glm::vec4); ++i) {
      hash ^= bytes[i];
      hash *= 1099511628211ull;
    }
  };
  mix(state.positions);
  mix(state.velocities);
  return hash;
}

}  // namespace hg
