// The body colliders of the cloth passes and the contact they give, as
// CpuClothSolverBase::contactAt: the signed distance grid (a 3D texture at
// HG_TEXTURE_UNIT_BODY_SDF), the depth views (HG_BINDING_DEPTH_*,
// kernels/depth_contact.glslh), the analytic boxes (uniform block HG_BINDING_CLOTH_BOXES,
// kernels/obb.glslh) and the sphere trees
// (HG_BINDING_SPHERE_TREE_*, sphere_tree_common.glsl). Include after the ParamsBlock
// declaration (`params`).
#include "kernels/sphere_tree.glslh"
#include "sphere_tree_common.glsl"
layout(binding = HG_TEXTURE_UNIT_BODY_SDF) uniform sampler3D bodySdf;
layout(std430, binding = HG_BINDING_DEPTH_VIEWS) readonly buffer DepthViews { DepthView depthViews[]; };
layout(std430, binding = HG_BINDING_DEPTH_NORMAL_DEPTH) readonly buffer DepthNormalDepth { vec4 depthNormalDepth[]; };
layout(std430, binding = HG_BINDING_DEPTH_VELOCITY) readonly buffer DepthVelocity { vec4 depthVelocity[]; };
layout(std140, binding = HG_BINDING_CLOTH_BOXES) uniform ClothBoxes { ClothBox clothBoxes[HG_MAX_CLOTH_BOXES]; };

/// As hg::depthViewContact (sim/cloth/CpuClothSolverBase.cpp).
VertexContact depthViewContact(vec3 x) {
  DepthContactSearch search = beginDepthContactSearch();
  for (uint v = 0u; v < params.depthViews.x; ++v) {
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
  float localRadius = params.depthViews.x > 0u ? HG_DEPTH_LOCAL_TEXELS * depthViews[0].origin.w : 0.0f;
  contact.normalGap = depthContactNormalGap(search, localRadius, texel);
  vec3 velocity = contact.normalGap.w < HG_NO_CONTACT_GAP ? depthVelocity[texel].xyz : vec3(0.0f);
  contact.surfaceVelocityFriction = vec4(velocity, params.friction);
  return contact;
}

/// The deepest contact at x: the analytic colliders, the body grid, the depth views, the
/// boxes and the sphere trees (the nearest leaf of all instances within the search radius).
VertexContact contactAt(vec3 x) {
  VertexContact contact = analyticContact(x, params);
  ivec3 corner;
  vec3 fraction;
  if (bodyGridCell(x, params, corner, fraction)) {
    float c[8];
    for (uint k = 0u; k < 8u; ++k)  // the corners in bodyGridIndex's order
      c[k] = texelFetch(bodySdf, corner + ivec3(int(k & 1u), int((k >> 1u) & 1u), int((k >> 2u) & 1u)), 0).r;
    contact = deeperContact(contact, bodyContactFromCorners(c, fraction, params));
  }
  if (params.depthViews.x > 0u) contact = deeperContact(contact, depthViewContact(x));
  for (uint b = 0u; b < params.colliders.x; ++b) contact = deeperContact(contact, boxContact(clothBoxes[b], x));
  if (params.colliders.y > 0u) {
    SpherePointResult hit = sphereTreeNearestAll(params.colliders.y, x, params.colliderSearch.x);
    if (hit.normalDistance.w < HG_NO_CONTACT_GAP)
      contact = deeperContact(contact, sphereTreeContact(hit.normalDistance, sphereTreeInstances[hit.leaf.x].translation.w));
  }
  return contact;
}
