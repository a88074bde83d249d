#version 450 core
// ProjectiveJacobi, one iteration (kernels/projective.glslh): every free vertex
// re-projects its springs at the iterate x^k = y + u^k (local step, Liu et al. 2013),
// takes the Jacobi update of the global step gathered over its springs in CSR order,
// and blends it with u^{k-1} by the Chebyshev weight omega_k (Wang 2015). Iterates are
// displacements from y (precision: see projective.glslh). Reads u^k, u^{k-1} and y,
// writes u^{k+1} (distinct buffers: no races, deterministic). Both ends of a spring
// form its edge from (a, b) in that order, so they agree bitwise. The CPU twin is
// CpuProjectiveClothSolver::iterate.
#include "kernels/cloth_layout.glslh"
#include "kernels/projective.glslh"
#include "kernels/projective_bending.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_CLOTH_PARAMS) readonly buffer ParamsBlock { ClothStepParams params; };
layout(std430, binding = HG_BINDING_PD_PREDICTED) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = HG_BINDING_PD_CURRENT) readonly buffer Current { vec4 current[]; };
layout(std430, binding = HG_BINDING_PD_PREVIOUS) readonly buffer Previous { vec4 previous[]; };
layout(std430, binding = HG_BINDING_PD_NEXT) writeonly buffer Next { vec4 next[]; };
layout(std430, binding = HG_BINDING_SPRING_OFFSETS) readonly buffer SpringOffsets { uint springOffsets[]; };
layout(std430, binding = HG_BINDING_SPRING_ENTRIES) readonly buffer SpringEntries { SpringEntry springEntries[]; };
layout(std430, binding = HG_BINDING_SPRINGS) readonly buffer Springs { ClothSpring springs[]; };
layout(std430, binding = HG_BINDING_HINGE_OFFSETS) readonly buffer HingeOffsets { uint hingeOffsets[]; };
layout(std430, binding = HG_BINDING_HINGE_ENTRIES) readonly buffer HingeEntries { uint hingeEntries[]; };
layout(std430, binding = HG_BINDING_PD_HINGE_STENCILS) readonly buffer Stencils { HingeStencil stencils[]; };
layout(std430, binding = HG_BINDING_PD_HINGE_RESIDUALS) readonly buffer Residuals { vec4 residuals[]; };

// omega_k, computed on the host by chebyshevOmega (the same C++ float sequence as
// the CPU backend).
layout(location = 0) uniform float omega;
// 1: implicit bending, each hinge's term from cloth_pd_hinges.comp joins the gather.
layout(location = 1) uniform uint implicitBending;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.vertexCount) return;
  vec4 yi = predicted[i];
  float inverseMass = yi.w;
  if (inverseMass == 0.0) {  // pinned: kinematic
    next[i] = vec4(0.0);
    return;
  }
  vec4 gathered = vec4(0.0);
  for (uint k = springOffsets[i]; k < springOffsets[i + 1u]; ++k) {
    SpringEntry e = springEntries[k];
    ClothSpring s = springs[e.spring];
    vec3 edge = projectiveEdge(predicted[s.a].xyz, predicted[s.b].xyz, current[s.a].xyz, current[s.b].xyz);
    SpringProjection q = springProjection(edge, s, params);
    vec3 toNeighbor = neighborOffset(yi.xyz, predicted[e.neighbor].xyz, current[e.neighbor].xyz);
    gathered += jacobiTerm(toNeighbor, q, s.a == i);
  }
  if (implicitBending != 0u)
    for (uint k = hingeOffsets[i]; k < hingeOffsets[i + 1u]; ++k) {
      uint entry = hingeEntries[k];  // hinge * 4 + role
      gathered += hingeJacobiTerm(residuals[entry / 4u], stencils[entry / 4u], entry % 4u, current[i].xyz);
    }
  vec3 jacobi = jacobiUpdate(inverseMass, gathered, params.dt);
  next[i] = vec4(chebyshevBlend(jacobi, previous[i].xyz, omega), 0.0);
}
