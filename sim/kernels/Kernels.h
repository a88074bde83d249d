#pragma once
/// C++ view of the shared C++/GLSL kernel headers (sim/kernels/*.glslh).
/// The same source is embedded into the shaders; see common.glslh for the rules.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace hg::kernels {

using glm::ivec2;
using glm::ivec3;
using glm::ivec4;
using glm::uvec4;
using glm::vec2;
using glm::vec3;
using glm::vec4;
using uint = std::uint32_t;

using glm::abs;
using glm::atan;
using glm::ceil;
using glm::clamp;
using glm::cos;
using glm::cross;
using glm::distance;
using glm::dot;
using glm::floor;
using glm::greaterThan;
using glm::length;
using glm::lessThan;
using glm::max;
using glm::min;
using glm::mix;
using glm::normalize;
using glm::pow;
using glm::sin;
using glm::sqrt;

// GLSL's component-wise isnan/isinf return bvec3, reduced with any().
inline glm::bvec3 isnan(vec3 v) { return glm::isnan(v); }
inline glm::bvec3 isinf(vec3 v) { return glm::isinf(v); }
inline bool any(glm::bvec3 b) { return glm::any(b); }

#include "sim/kernels/bindings.glslh"
#include "sim/kernels/layout.glslh"
// The domains' records.
#include "sim/kernels/cloth_layout.glslh"
#include "sim/kernels/depth_layout.glslh"
#include "sim/kernels/particle_skinning_layout.glslh"
#include "sim/kernels/radar_layout.glslh"
#include "sim/kernels/self_contact_layout.glslh"
#include "sim/kernels/skinning_layout.glslh"
#include "sim/kernels/snow_layout.glslh"
#include "sim/kernels/sphere_tree_layout.glslh"
// The per-element math.
#include "sim/kernels/anisotropy.glslh"
#include "sim/kernels/bending.glslh"
#include "sim/kernels/body_contact.glslh"
#include "sim/kernels/cloth_contact.glslh"
#include "sim/kernels/cloth_vertex.glslh"
#include "sim/kernels/depth_contact.glslh"
#include "sim/kernels/obb.glslh"
#include "sim/kernels/particle_skinning.glslh"
#include "sim/kernels/projective.glslh"
#include "sim/kernels/projective_bending.glslh"
#include "sim/kernels/radar.glslh"
#include "sim/kernels/self_contact.glslh"
#include "sim/kernels/skinning.glslh"
#include "sim/kernels/snow.glslh"
#include "sim/kernels/snow_repose.glslh"
#include "sim/kernels/sphere_tree.glslh"
#include "sim/kernels/spring.glslh"
#include "sim/kernels/thin_features.glslh"

// std430 agreement (see layout.glslh and the domain layouts). The GL side is checked in LayoutGLTest.
static_assert(sizeof(vec4) == 16 && alignof(vec4) <= 16 && sizeof(uvec4) == 16);
static_assert(sizeof(SpringEntry) == 8);
static_assert(sizeof(ClothSpring) == 48);
static_assert(offsetof(ClothSpring, uv) == 16);
static_assert(offsetof(ClothSpring, baseStiffness) == 32);
static_assert(offsetof(ClothSpring, restLength0) == 40);
static_assert(offsetof(ClothSpring, strainStiffening) == 44);
static_assert(sizeof(ClothHinge) == 32);
static_assert(offsetof(ClothHinge, restAngle) == 16);
static_assert(offsetof(ClothHinge, cosRestAngle) == 24);
static_assert(sizeof(HingeStencil) == 32 && offsetof(HingeStencil, inverseEdgeLengthSq) == 16);
static_assert(sizeof(VertexContact) == 32);
static_assert(sizeof(ClothStepParams) == 96 && offsetof(ClothStepParams, colliderCount) == 76);
static_assert(offsetof(ClothStepParams, bodyLag) == 80);
static_assert(sizeof(ClothCollider) == 80 && offsetof(ClothCollider, d) == 64);
static_assert(sizeof(DepthView) == 80);
static_assert(sizeof(SnowEdge) == 16);
static_assert(sizeof(SphereTreeNode) == 32 && offsetof(SphereTreeNode, links) == 16);
static_assert(sizeof(SphereTreeInstance) == 80 && offsetof(SphereTreeInstance, base) == 64);
static_assert(sizeof(SpherePointResult) == 32 && sizeof(SpherePairResult) == 32);
static_assert(offsetof(DepthView, texels) == 64);
static_assert(offsetof(ClothStepParams, dt) == 16);
static_assert(offsetof(ClothStepParams, contactOffset) == 28);
static_assert(offsetof(ClothStepParams, vertexCount) == 32);
static_assert(offsetof(ClothStepParams, springCount) == 40);
static_assert(offsetof(ClothStepParams, compressionScale) == 44);
static_assert(offsetof(ClothStepParams, hingeCount) == 56);
static_assert(offsetof(ClothStepParams, yieldStrain) == 60);
static_assert(offsetof(ClothStepParams, useContacts) == 72);
static_assert(sizeof(SkinVertex) == 64);
static_assert(offsetof(SkinVertex, normal) == 16);
static_assert(offsetof(SkinVertex, joints) == 32);
static_assert(offsetof(SkinVertex, weights) == 48);
static_assert(sizeof(DualQuaternion) == 32);
static_assert(offsetof(DualQuaternion, dual) == 16);
static_assert(sizeof(RadarFrame) == 96);
static_assert(offsetof(RadarFrame, control) == 64);
static_assert(offsetof(RadarFrame, settings) == 80);
static_assert(sizeof(RadarResult) == 96);
static_assert(offsetof(RadarResult, counts) == 48);
static_assert(offsetof(RadarResult, objectsSeen) == 80);
static_assert(sizeof(ParticleLink) == 16);
static_assert(sizeof(ParticleRest) == 80);
static_assert(offsetof(ParticleRest, mass) == 32);
static_assert(offsetof(ParticleRest, weights) == 64);
static_assert(sizeof(VertexBinding) == 96);
static_assert(offsetof(VertexBinding, offset3) == 80);
static_assert(sizeof(SnowMap) == 96);
static_assert(offsetof(SnowMap, texel) == 48);
static_assert(offsetof(SnowMap, texels) == 64);
static_assert(offsetof(SnowMap, scale) == 80);
static_assert(sizeof(SelfContactPair) == 64);
static_assert(offsetof(SelfContactControl, pairDispatch) == 16 && offsetof(SelfContactControl, droppedPairs) == 32);
static_assert(offsetof(SelfContactControl, peakPairs) == 36);
static_assert(offsetof(SelfContactControl, moveHistogram) == 48);
static_assert(sizeof(glm::mat4) == 64);  // std430 mat4: four vec4 columns, as GLM

}  // namespace hg::kernels
