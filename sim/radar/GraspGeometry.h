#pragma once
/// The solid box lo..hi of a frame (origin, orthonormal axes) that the grasp's distance
/// checks measure (a hand segment's box: GraspObject::boxDistance and the final pose's
/// sphere-tree check, docs/methods.md section 7). Units: metres.
#include <array>

#include <glm/vec3.hpp>

#include "sim/geometry/Obb.h"

namespace hg {

/// The frame box lo..hi as an OBB (section 7's record).
Obb frameBox(glm::dvec3 origin, const std::array<glm::dvec3, 3>& axes, glm::dvec3 lo, glm::dvec3 hi);

}  // namespace hg
