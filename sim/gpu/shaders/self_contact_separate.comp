#version 450 core
// Self contact on the GPU (docs/methods.md section 8; sim/gpu/GpuSelfContact.cpp): the
// response of a substep, as the CPU backend's SelfContact::apply:
//  mode 0, per pair (an indirect dispatch): the pair's correction (kernels/self_contact.glslh
//          pairCorrection) added to its free vertices' sums;
//  mode 1, per vertex: the average of its corrections applied, the sum cleared (one
//          Jacobi pass is mode 0 then mode 1);
//  mode 2, per intersecting triangle pair of the frame: the untangling push directions
//          (SelfContact::pushTangledApart) added to its vertices' sums;
//  mode 3, per vertex: the thickness along its summed push direction, the sum cleared;
//  mode 4, per vertex: the displacement over the substep truncated to the vertex's bound
//          (free, untangled vertices) and the velocity changed by the position change
//          since POSITIONS_BEFORE over dt;
//  mode 5, one invocation: the workgroups of the pair pass; the peak pair count.
// Sums are fixed point in integer atomics (2^-26 m for corrections, 2^-20 for the unit
// push directions): exact, so the result does not depend on the order of the atomics.
#include "kernels/self_contact.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_POSITIONS_IN) readonly buffer Start { vec4 start[]; };
layout(std430, binding = HG_BINDING_POSITIONS_OUT) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_VELOCITIES_OUT) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CONTROL) buffer Control { SelfContactControl control; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_PAIRS) readonly buffer Pairs { SelfContactPair pairs[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_CORRECTIONS) buffer Corrections { int corrections[]; };  // 4 per vertex
layout(std430, binding = HG_BINDING_SELF_CONTACT_NEAREST) readonly buffer Nearest { uint nearest[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TANGLED) readonly buffer Tangled { uint tangled[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TANGLES) readonly buffer Tangles { uvec2 tangles[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_LAYERS) readonly buffer Layers { uint layers[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = HG_BINDING_SELF_CONTACT_BEFORE) readonly buffer Before { vec4 before[]; };
layout(location = 0) uniform uint count;  // pairs' capacity (mode 0), vertices, or tangles (mode 2)
layout(location = 1) uniform uint mode;
layout(location = 2) uniform float thickness;  // m
layout(location = 3) uniform float friction;   // Coulomb mu
layout(location = 4) uniform float dt;         // s

const float kCorrectionUnit = 1.0f / 67108864.0f;  // 2^-26 m
const float kDirectionUnit = 1.0f / 1048576.0f;    // 2^-20
// Each addend within +-2^24 units, so that 128 of them cannot overflow a sum.
const float kMostUnits = 16777216.0f;

void accumulate(uint v, vec3 value, float unit) {
  ivec3 units = ivec3(round(clamp(value / unit, vec3(-kMostUnits), vec3(kMostUnits))));
  atomicAdd(corrections[4u * v], units.x);
  atomicAdd(corrections[4u * v + 1u], units.y);
  atomicAdd(corrections[4u * v + 2u], units.z);
  atomicAdd(corrections[4u * v + 3u], 1);
}

/// The sum of vertex v (xyz in units, w count), cleared.
ivec4 takeSum(uint v) {
  ivec4 sum = ivec4(corrections[4u * v], corrections[4u * v + 1u], corrections[4u * v + 2u], corrections[4u * v + 3u]);
  for (uint k = 0u; k < 4u; ++k) corrections[4u * v + k] = 0;
  return sum;
}

vec3 corner(uint triangle, uint k) { return start[triangles[3u * triangle + k]].xyz; }

vec3 triangleNormal(uint triangle) {  // SelfContact::triangleNormal, unnormalized
  vec3 n = cross(corner(triangle, 1u) - corner(triangle, 0u), corner(triangle, 2u) - corner(triangle, 0u));
  return length(n) > 0.0f ? n : vec3(0.0f, 1.0f, 0.0f);
}

vec3 triangleCentroid(uint triangle) { return (corner(triangle, 0u) + corner(triangle, 1u) + corner(triangle, 2u)) / 3.0f; }

void pushTriangle(uint triangle, vec3 direction) {
  for (uint k = 0u; k < 3u; ++k) accumulate(triangles[3u * triangle + k], direction, kDirectionUnit);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (mode == 0u) {
    if (i >= min(control.pairCount, count)) return;
    SelfContactPair pair = pairs[i];
    uvec4 v = pair.vertices;
    vec4 x0 = positions[v.x];
    vec4 x1 = positions[v.y];
    vec4 x2 = positions[v.z];
    vec4 x3 = positions[v.w];
    vec4 inverseMass = vec4(x0.w, x1.w, x2.w, x3.w);
    vec3 now = pairSeparation(pair.weights, x0.xyz, x1.xyz, x2.xyz, x3.xyz);
    vec3 n = pair.normal.xyz;
    vec3 direction = pairCorrection(pair.weights, inverseMass, n, dot(n, now), now - pair.startSeparation.xyz,
                                    thickness, friction);
    if (direction == vec3(0.0f)) return;
    for (int k = 0; k < 4; ++k)
      if (inverseMass[k] > 0.0f) accumulate(v[k], inverseMass[k] * pair.weights[k] * direction, kCorrectionUnit);
  } else if (mode == 1u) {
    if (i >= count) return;
    ivec4 sum = takeSum(i);
    if (sum.w > 0) positions[i].xyz += vec3(sum.xyz) * kCorrectionUnit / float(sum.w);
  } else if (mode == 2u) {
    if (i >= count) return;
    uint a = tangles[i].x;
    uint b = tangles[i].y;
    uint layerA = layers[triangles[3u * a]];
    uint layerB = layers[triangles[3u * b]];
    if (layerA != layerB) {  // the outer layer goes out along the inner one's normal
      uint inner = layerA < layerB ? a : b;
      pushTriangle(inner == a ? b : a, normalize(triangleNormal(inner)));
      return;
    }
    // One layer: each triangle goes to the side of the other where most of it already is.
    vec3 n = normalize(triangleNormal(a));
    float side = dot(triangleCentroid(b) - triangleCentroid(a), n) >= 0.0f ? 1.0f : -1.0f;
    pushTriangle(b, side * n);
    pushTriangle(a, -side * n);
  } else if (mode == 3u) {
    if (i >= count) return;
    ivec4 sum = takeSum(i);
    vec3 direction = vec3(sum.xyz);
    float directionLength = length(direction);
    if (sum.w > 0 && directionLength > 0.0f && positions[i].w > 0.0f)
      positions[i].xyz += direction * (thickness / directionLength);
  } else if (mode == 4u) {
    if (i >= count) return;
    vec4 x = positions[i];
    vec3 previous = before[i].xyz;
    float nearestOfVertex = uintBitsToFloat(nearest[i]);
    if (!(x.w > 0.0f) || untanglesFree(tangled[i], nearestOfVertex, control.queryRadius)) {  // pinned or untangling
      velocities[i].xyz += (x.xyz - previous) / dt;
      return;
    }
    float bound = displacementBound(nearestOfVertex, control.queryRadius);
    vec3 truncated = truncatedPosition(start[i].xyz, x.xyz, bound);
    positions[i].xyz = truncated;
    velocities[i].xyz += (truncated - previous) / dt;
  } else if (i == 0u) {
    control.peakPairs = max(control.peakPairs, control.pairCount);
    control.pairDispatch = uvec4((min(control.pairCount, count) + uint(HG_WORKGROUP_SIZE) - 1u) / uint(HG_WORKGROUP_SIZE), 1u, 1u, 0u);
  }
}
