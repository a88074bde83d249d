#pragma once
/// C++ view of the shared C++/GLSL kernel headers (sim/kernels/*.glslh).
/// The same source is embedded into the shaders; see common.glslh for the rules.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace hg::kernels {

using glm::uvec4;
using glm::vec2;
using glm::vec3;
using glm::vec4;
using uint = std::uint32_t;

using glm::abs;
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::length;
using glm::max;
using glm::min;
using glm::mix;
using glm::normalize;
using glm::sqrt;

// GLSL's component-wise isnan/isinf return bvec3, reduced with any().
inline glm::bvec3 isnan(vec3 v) { return glm::isnan(v); }
inline glm::bvec3 isinf(vec3 v) { return glm::isinf(v); }
inline bool any(glm::bvec3 b) { return glm::any(b); }

#include "sim/kernels/layout.glslh"
#include "sim/kernels/spring.glslh"
#include "sim/kernels/cloth_vertex.glslh"

// std430 agreement (see layout.glslh). The GL side is checked in LayoutGLTest.
static_assert(sizeof(SpringEntry) == 16);
static_assert(offsetof(SpringEntry, restLength) == 4);
static_assert(offsetof(SpringEntry, damping) == 12);
static_assert(sizeof(ClothStepParams) == 80);
static_assert(offsetof(ClothStepParams, sphere) == 16);
static_assert(offsetof(ClothStepParams, plane) == 32);
static_assert(offsetof(ClothStepParams, dt) == 48);
static_assert(offsetof(ClothStepParams, contactOffset) == 60);
static_assert(offsetof(ClothStepParams, vertexCount) == 64);
static_assert(offsetof(ClothStepParams, usePlane) == 72);
static_assert(sizeof(vec4) == 16 && alignof(vec4) <= 16);

}  // namespace hg::kernels
