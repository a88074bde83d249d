// The body colliders of the cloth passes and the contact they give, as
// CpuClothSolverBase::contactAt: the signed distance grid (HG_BINDING_BODY_SDF) and the
// depth views (HG_BINDING_DEPTH_*, kernels/depth_contact.glslh). Include after the
// ParamsBlock declaration (`params`).
layout(std430, binding = HG_BINDING_BODY_SDF) readonly buffer BodySdf { float bodySdf[]; };
layout(std430, binding = HG_BINDING_DEPTH_VIEWS) readonly buffer DepthViews { DepthView depthViews[]; };
layout(std430, binding = HG_BINDING_DEPTH_NORMAL_DEPTH) readonly buffer DepthNormalDepth { vec4 depthNormalDepth[]; };
layout(std430, binding = HG_BINDING_DEPTH_VELOCITY) readonly buffer DepthVelocity { vec4 depthVelocity[]; };

/// As hg::depthViewContact (sim/cpu/CpuClothSolverBase.cpp).
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

/// The deepest contact at x: the analytic colliders, the body grid and the depth views.
VertexContact contactAt(vec3 x) {
  VertexContact contact = analyticContact(x, params);
  ivec3 corner;
  vec3 fraction;
  if (bodyGridCell(x, params, corner, fraction)) {
    float c[8];
    for (uint k = 0u; k < 8u; ++k) c[k] = bodySdf[bodyGridIndex(corner, k, params)];
    contact = deeperContact(contact, bodyContactFromCorners(c, fraction, params));
  }
  if (params.depthViews.x > 0u) contact = deeperContact(contact, depthViewContact(x));
  return contact;
}
