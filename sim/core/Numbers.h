#pragma once
/// Numbers the modules share (one definition, so that files compiled together in a unity
/// batch do not each define their own).
#include <limits>
#include <numbers>

namespace hg {

inline constexpr float kPi = std::numbers::pi_v<float>;
inline constexpr float kDegree = kPi / 180.0f;  ///< radians per degree
/// "Not measured" / "no value" where a float result has none.
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace hg
