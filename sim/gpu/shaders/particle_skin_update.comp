#version 450 core
// One per-particle update of the particle skinning integrators (GPU backend,
// sim/gpu/GpuParticleSkinner.cpp; CpuParticleSkinner::step on the CPU), one invocation per
// particle; `op` (HG_PARTICLE_UPDATE_* in kernels/layout.glslh) says which. The math is
// kernels/particle_skinning.glslh, shared with the CPU backend. Slots (arrays of
// particleCount vec4 in the state buffers): positions x, xs (stage); velocities v, vs
// (stage), half-step velocity, previous v (Adams); accelerations a, as (stage), previous
// a (Adams). The step start (x0, v0) of Heun and Adams is x, v themselves: they are only
// overwritten at the step's end (Heun's corrector, in place) or swapped with the stage
// slots by the host (Adams).
#include "kernels/particle_skinning_layout.glslh"
#include "kernels/particle_skinning.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_POSITIONS) buffer Positions { vec4 positions[]; };
layout(std430, binding = HG_BINDING_PARTICLE_VELOCITIES) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = HG_BINDING_PARTICLE_ACCELERATIONS) buffer Accelerations { vec4 accelerations[]; };
layout(location = 0) uniform uint particleCount;
layout(location = 1) uniform uint op;
layout(location = 2) uniform float dt;                  // s
layout(location = 3) uniform uvec4 positionSlots;       // x: x, y: xs
layout(location = 4) uniform uvec4 velocitySlots;       // x: v, y: vs, z: half-step velocity, w: previous v
layout(location = 5) uniform uvec4 accelerationSlots;   // x: a, y: as, z: previous a

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  uint n = particleCount;
  uint iX = positionSlots.x * n + i, iXs = positionSlots.y * n + i;
  uint iV = velocitySlots.x * n + i, iVs = velocitySlots.y * n + i;
  uint iHalf = velocitySlots.z * n + i, iVPrevious = velocitySlots.w * n + i;
  uint iA = accelerationSlots.x * n + i, iAs = accelerationSlots.y * n + i;
  uint iAPrevious = accelerationSlots.z * n + i;
  vec3 x = positions[iX].xyz;
  vec3 v = velocities[iV].xyz;
  vec3 a = accelerations[iA].xyz;
  if (op == HG_PARTICLE_UPDATE_HEUN_PREDICT) {
    heunPredict(x, v, a, dt);  // on copies of x, v: the stage state
    positions[iXs] = vec4(x, 0.0);
    velocities[iVs] = vec4(v, 0.0);
  } else if (op == HG_PARTICLE_UPDATE_HEUN_CORRECT) {
    velocities[iVPrevious] = vec4(v, 0.0);  // the Adams history of a Heun start
    accelerations[iAPrevious] = vec4(a, 0.0);
    vec3 x0 = x, v0 = v;
    heunCorrect(x, v, x0, v0, a, velocities[iVs].xyz, accelerations[iAs].xyz, dt);
    positions[iX] = vec4(x, 0.0);
    velocities[iV] = vec4(v, 0.0);
  } else if (op == HG_PARTICLE_UPDATE_ADAMS_PREDICT) {
    vec3 xs = x, vs = v;
    adamsPredict(xs, vs, v, a, velocities[iVPrevious].xyz, accelerations[iAPrevious].xyz, dt);
    positions[iXs] = vec4(xs, 0.0);
    velocities[iVs] = vec4(vs, 0.0);
  } else if (op == HG_PARTICLE_UPDATE_ADAMS_CORRECT || op == HG_PARTICLE_UPDATE_ADAMS_CORRECT_LAST) {
    vec3 xs = positions[iXs].xyz, vs = velocities[iVs].xyz;
    adamsCorrect(xs, vs, x, v, a, accelerations[iAs].xyz, dt);
    positions[iXs] = vec4(xs, 0.0);
    velocities[iVs] = vec4(vs, 0.0);
    if (op == HG_PARTICLE_UPDATE_ADAMS_CORRECT_LAST) {  // history for the next step
      velocities[iVPrevious] = vec4(v, 0.0);
      accelerations[iAPrevious] = vec4(a, 0.0);
    }
  } else if (op == HG_PARTICLE_UPDATE_LEAPFROG_START) {  // the Euler half step
    velocities[iHalf] = vec4(leapfrogVelocity(v, a, dt), 0.0);
  } else if (op == HG_PARTICLE_UPDATE_LEAPFROG_DRIFT) {  // drift, then the velocity estimate from the last a
    vec3 halfVelocity = velocities[iHalf].xyz;
    positions[iX] = vec4(leapfrogDrift(x, halfVelocity, dt), 0.0);
    velocities[iV] = vec4(leapfrogVelocity(halfVelocity, a, dt), 0.0);
  } else if (op == HG_PARTICLE_UPDATE_LEAPFROG_VELOCITY || op == HG_PARTICLE_UPDATE_LEAPFROG_VELOCITY_KICK) {
    vec3 halfVelocity = velocities[iHalf].xyz;
    velocities[iV] = vec4(leapfrogVelocity(halfVelocity, a, dt), 0.0);
    if (op == HG_PARTICLE_UPDATE_LEAPFROG_VELOCITY_KICK) velocities[iHalf] = vec4(leapfrogKick(halfVelocity, a, dt), 0.0);
  }
}
