#include "sim/snow/SnowfallDirections.h"

#include <cmath>
#include <random>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/trigonometric.hpp>

#include "sim/core/Finite.h"
#include "sim/core/Limits.h"

namespace hg {

namespace {

Error bad(const std::string& what) { return Error{"snowfall: " + what}; }

/// A unit vector perpendicular to the unit vector a (deterministic).
glm::vec3 perpendicular(const glm::vec3& a) {
  const glm::vec3 helper = std::abs(a.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
  return glm::normalize(glm::cross(a, helper));
}

}  // namespace

Status SnowfallSettings::validate() const {
  if (count < 1 || count > limits::kMaxSnowDirections)
    return bad("directions must be in 1.." + std::to_string(limits::kMaxSnowDirections) + " (got " +
               std::to_string(count) + ")");
  if (!allFinite(fall) || !(glm::length(fall) > 0.0f)) return bad("fall direction must be a finite, non-zero vector");
  if (!allFinite(wind)) return bad("wind direction must be finite");
  if (!std::isfinite(coneDegrees) || coneDegrees < 0.0f || coneDegrees > 80.0f)
    return bad("cone_degrees must be in [0, 80] (got " + std::to_string(coneDegrees) + ")");
  if (!std::isfinite(windTiltDegrees) || windTiltDegrees < 0.0f || windTiltDegrees > 80.0f)
    return bad("wind_tilt_degrees must be in [0, 80] (got " + std::to_string(windTiltDegrees) + ")");
  if (coneDegrees + windTiltDegrees >= 90.0f)
    return bad("cone_degrees + wind_tilt_degrees must stay below 90 (snow would fall sideways or up)");
  if (windTiltDegrees > 0.0f) {
    const glm::vec3 f = glm::normalize(fall);
    const glm::vec3 across = wind - glm::dot(wind, f) * f;
    if (!(glm::length(across) > 1e-6f * std::max(1.0f, glm::length(wind))))
      return bad("a wind tilt needs a wind direction across the fall direction");
  }
  return Status::success();
}

glm::vec3 snowfallAxis(const SnowfallSettings& settings) {
  const glm::vec3 f = glm::normalize(settings.fall);
  if (!(settings.windTiltDegrees > 0.0f)) return f;
  const glm::vec3 across = glm::normalize(settings.wind - glm::dot(settings.wind, f) * f);
  const float tilt = glm::radians(settings.windTiltDegrees);
  return glm::normalize(std::cos(tilt) * f + std::sin(tilt) * across);
}

Result<std::vector<glm::vec3>> snowfallDirections(const SnowfallSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  const glm::dvec3 axis(snowfallAxis(settings));
  const glm::dvec3 b1(perpendicular(glm::vec3(axis)));
  const glm::dvec3 b2 = glm::cross(axis, b1);
  const double cosCone = std::cos(glm::radians(double(settings.coneDegrees)));
  // The golden angle as a fraction of a turn: consecutive bands turn by 0.382 of a turn.
  const double golden = 0.5 * (3.0 - std::sqrt(5.0));
  // One random turn of the whole pattern per seed (a randomized low-discrepancy set):
  // within a set the directions stay evenly spread.
  std::mt19937 random(settings.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double rotation = unit(random);
  const int n = settings.count;
  std::vector<glm::vec3> directions(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    // Band k of equal solid angle: 1 - cos(angle) in [k, k + 1] / n of (1 - cos(cone)); its middle.
    const double u = (double(k) + 0.5) / double(n);
    const double cosAngle = 1.0 - u * (1.0 - cosCone);
    const double sinAngle = std::sqrt(std::max(0.0, 1.0 - cosAngle * cosAngle));
    const double turn = double(k) * golden + rotation;
    const double azimuth = 2.0 * glm::pi<double>() * (turn - std::floor(turn));
    const glm::dvec3 d = cosAngle * axis + sinAngle * (std::cos(azimuth) * b1 + std::sin(azimuth) * b2);
    directions[std::size_t(k)] = glm::vec3(glm::normalize(d));
  }
  return directions;
}

}  // namespace hg
