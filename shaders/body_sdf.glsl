// The body's signed distance grid (HG_BINDING_BODY_SDF) and the contact it gives, as
// CpuClothSolverBase::contactAt. Include after the ParamsBlock declaration (`params`).
layout(std430, binding = HG_BINDING_BODY_SDF) readonly buffer BodySdf { float bodySdf[]; };

/// The deepest contact at x: the analytic colliders and the body grid.
VertexContact contactAt(vec3 x) {
  VertexContact contact = analyticContact(x, params);
  ivec3 corner;
  vec3 fraction;
  if (bodyGridCell(x, params, corner, fraction)) {
    float c[8];
    for (uint k = 0u; k < 8u; ++k) c[k] = bodySdf[bodyGridIndex(corner, k, params)];
    contact = deeperContact(contact, bodyContactFromCorners(c, fraction, params));
  }
  return contact;
}
