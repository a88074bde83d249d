// The cloth's colliders on the GPU: the storage behind the collider walk of
// kernels/cloth_contact.glslh (the one contactAt of both backends; the CPU's storage is in
// sim/cloth/CpuClothSolverBase.cpp). The records are a uniform block
// (HG_BINDING_CLOTH_COLLIDERS); the distance grid's values a 3D texture at
// HG_TEXTURE_UNIT_BODY_SDF; the depth views HG_BINDING_DEPTH_* (kernels/depth_contact.glslh);
// the sphere trees HG_BINDING_SPHERE_TREE_* (sphere_tree_common.glsl). Include after the
// ParamsBlock declaration (`params`).
#include "kernels/cloth_vertex.glslh"
#include "kernels/depth_contact.glslh"
#include "kernels/sphere_tree.glslh"
#include "sphere_tree_common.glsl"
layout(binding = HG_TEXTURE_UNIT_BODY_SDF) uniform sampler3D bodySdf;
layout(std430, binding = HG_BINDING_DEPTH_VIEWS) readonly buffer DepthViews { DepthView depthViews[]; };
layout(std430, binding = HG_BINDING_DEPTH_NORMAL_DEPTH) readonly buffer DepthNormalDepth { vec4 depthNormalDepth[]; };
layout(std430, binding = HG_BINDING_DEPTH_VELOCITY) readonly buffer DepthVelocity { vec4 depthVelocity[]; };
layout(std140, binding = HG_BINDING_CLOTH_COLLIDERS) uniform ClothColliders {
  ClothCollider clothColliders[HG_MAX_CLOTH_COLLIDERS];
};

ClothCollider clothCollider(uint i) { return clothColliders[i]; }

float distanceGridValue(ClothCollider grid, ivec3 point) { return texelFetch(bodySdf, point, 0).r; }

/// As hg::depthViewContact (sim/contact/DepthViews.cpp): every view's layers at x's texel,
/// the views' vote, the nearest candidate surface and its velocity.
VertexContact depthViewsContact(ClothCollider views, vec3 x) {
  DepthContactSearch search = beginDepthContactSearch();
  for (uint v = 0u; v < views.kind.y; ++v) {
    DepthView view = depthViews[v];
    uint texel = 0u;
    if (!depthViewTexel(view, x, texel)) {
      missDepthView(search);
      continue;
    }
    vec4 layers[HG_MAX_DEPTH_LAYERS];
    uint stride = depthViewLayerStride(view);
    for (uint k = 0u; k < view.texels.y; ++k) layers[k] = depthNormalDepth[texel + k * stride];
    searchDepthView(view, x, texel, layers, search);
  }
  uint texel = 0u;
  VertexContact contact;
  float localRadius = HG_DEPTH_LOCAL_TEXELS * depthViews[0].origin.w;
  contact.normalGap = depthContactNormalGap(search, localRadius, texel);
  vec3 velocity = contact.normalGap.w < HG_NO_CONTACT_GAP ? depthVelocity[texel].xyz : vec3(0.0f);
  contact.surfaceVelocityFriction = vec4(velocity, views.b.x);
  return contact;
}

/// The nearest leaf sphere surface of every placed tree within the search radius.
VertexContact sphereTreesContact(ClothCollider trees, vec3 x) {
  SpherePointResult hit = sphereTreeNearestAll(trees.kind.y, x, trees.b.x);
  if (!(hit.normalDistance.w < HG_NO_CONTACT_GAP)) return noContact();
  return sphereTreeContact(hit.normalDistance, sphereTreeInstances[hit.leaf.x].translation.w);
}

#include "kernels/cloth_contact.glslh"

/// The deepest contact at x over the step's colliders.
VertexContact contactAt(vec3 x) { return contactAt(x, params.colliderCount); }
