#pragma once
/// Implicit primitives for building bodies as iso-surfaces (sim/geometry/IsoSurface.h): the
/// built-in mannequin (sim/body/Mannequin.cpp) and the hand of apps/tools/make_hand.cpp.
/// Every field is negative inside and about the distance (m) outside. GL-free.
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace hg::implicit {

/// Polynomial smooth minimum (Quilez, "smooth minimum", 2013): equals min(a, b) when
/// |a - b| >= k, otherwise rounds the crease with a fillet of size ~k (metres).
inline float smoothMin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}
inline float smoothMax(float a, float b, float k) { return -smoothMin(-a, -b, k); }

/// Tube along the segment a-b whose radius varies linearly from ra to rb, closed by the
/// spheres at its ends (radius from the clamped projection: exact for equal radii, a close
/// approximation for the gentle tapers used here).
struct TaperedCapsule {
  glm::vec3 a{0.0f}, b{0.0f};
  float ra = 0.0f, rb = 0.0f;
  float widthScale = 1.0f;  ///< x extent multiplier (flattened feet), about the axis' x
  float value(glm::vec3 p) const {
    if (widthScale != 1.0f) p.x = a.x + (p.x - a.x) / widthScale;
    const glm::vec3 d = b - a;
    const float t = std::clamp(glm::dot(p - a, d) / glm::dot(d, d), 0.0f, 1.0f);
    return glm::length(p - (a + t * d)) - (ra + t * (rb - ra));
  }
};

/// Axis-aligned ellipsoid, value scaled by the smallest radius to be distance-like.
struct Ellipsoid {
  glm::vec3 center{0.0f}, radii{1.0f};
  float value(glm::vec3 p) const {
    return (glm::length((p - center) / radii) - 1.0f) * std::min({radii.x, radii.y, radii.z});
  }
};

}  // namespace hg::implicit
