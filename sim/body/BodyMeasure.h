#pragma once
/// Horizontal sections of a body, shared by the mannequin's girth fit (on its implicit
/// body, Mannequin.cpp) and measureBody (on a mesh, BodyMeasure.cpp); internal to
/// sim/body. Units: metres.
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace hg {

/// Height of the thigh girth below the crotch, metres.
inline constexpr float kThighGirthBelowCrotch = 0.05f;

/// Perimeter of the convex hull of `points` (Andrew's monotone chain).
float convexHullPerimeter(std::vector<glm::vec2> points);

/// Centre (x, z) of the left thigh's axis at height y.
glm::vec2 thighAxisAt(const glm::vec3& hip, const glm::vec3& knee, float y);

}  // namespace hg
