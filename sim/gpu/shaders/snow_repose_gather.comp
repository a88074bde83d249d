#version 450 core
// Angle-of-repose relaxation, sweep part 2 (sim/snow/SnowCover.cpp CpuSnowSolver::sweep;
// docs/methods.md section 5): every holder subtracts what it sent and adds what its neighbours
// sent it; ground cells also take the snow falling off objects onto them; object vertices
// that hold nothing and have no ground below count what falls off there. Each volume
// leaves one place and enters one: mass is conserved up to float rounding. Same order of
// summation as the CPU reference.
#include "snow_common.glsl"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SNOW_SPILL_START) readonly buffer SpillStart { uint spillStart[]; };
layout(std430, binding = HG_BINDING_SNOW_SPILL_ENTRIES) readonly buffer SpillEntries { uint spillEntries[]; };
layout(std430, binding = HG_BINDING_SNOW_SPILLED_OUTSIDE) buffer SpilledOutside { float spilledOutside[]; };
layout(std430, binding = HG_BINDING_SNOW_OBJECT_SPILL_CELL) readonly buffer SpillCell { uint spillCell[]; };

void main() {
  uint k = snowItem();
  uint cells = uint(gridSize.x) * uint(gridSize.y);
  if (k < cells) {
    ivec2 c = ivec2(int(k % uint(gridSize.x)), int(k / uint(gridSize.x)));
    if (!hasGround(imageLoad(groundHeight, c).r)) return;
    float sent = 0.0, received = 0.0;
    for (int n = 0; n < 8; ++n) {
      sent += groundOut[8u * k + uint(n)];
      ivec2 cn;
      if (neighbourCell(c, n, cn)) received += groundOut[8u * (uint(cn.y) * uint(gridSize.x) + uint(cn.x)) + uint(n ^ 1)];
    }
    float fallen = 0.0;
    for (uint s = spillStart[k]; s < spillStart[k + 1u]; ++s) fallen += objectOut[spillEntries[s]];
    precise float snow = imageLoad(groundSnow, c).r - sent + received + fallen / passValues.z;
    imageStore(groundSnow, c, vec4(snow, 0.0, 0.0, 0.0));
    return;
  }
  uint v = k - cells;
  if (v >= uint(gridSize.w)) return;
  float area = objectBase[v].w;
  float sent = 0.0, received = 0.0;
  for (uint e = neighbourStart[v]; e < neighbourStart[v + 1u]; ++e) {
    sent += objectOut[e];
    received += objectOut[edges[e].reverse];
  }
  if (area > 0.0) {
    precise float snow = (objectSnow[v] * area - sent + received) / area;
    objectSnow[v] = snow;
  } else if (spillCell[v] == 0xffffffffu) {
    spilledOutside[v] = spilledOutside[v] + received;
  }
}
