#pragma once
/// Run-time anomalies of a simulation step (house style tier 3), as a bitfield.
#include <cstdint>
#include <string>

namespace hg {

enum class StepStatus : std::uint32_t {
  Ok = 0,
  /// A position or velocity became NaN or infinite. Lower the time step (more
  /// substeps), lower the stiffness, or raise damping.
  NonFinite = 1u << 0,
  /// A vertex moved faster than ClothSettings::maxSpeed (m/s): the explicit
  /// integrator is going unstable. Same remedies as NonFinite.
  SpeedLimitExceeded = 1u << 1,
};

constexpr StepStatus operator|(StepStatus a, StepStatus b) { return StepStatus(std::uint32_t(a) | std::uint32_t(b)); }
constexpr StepStatus& operator|=(StepStatus& a, StepStatus b) { return a = a | b; }
constexpr bool any(StepStatus s) { return s != StepStatus::Ok; }

/// "ok", or the anomalies joined with " | " followed by what to change.
std::string describe(StepStatus status);

}  // namespace hg
