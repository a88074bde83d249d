#version 450 core
// The steepest snow slope as a ratio to tan(repose) (sim/snow/SnowCover.h maxReposeRatio;
// docs/methods.md section 5), for the relaxation's convergence check: over every holder with
// snow (> 1e-6 m) and each lower neighbour, drop / (distance x tan(repose)); a neighbour
// at no horizontal distance counts as 3e38 (the CPU's infinity). Reduced with atomicMax on
// the float's bits (non-negative floats order as their bits).
#include "snow_common.glsl"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SNOW_RATIO) buffer Ratio { uint ratioBits; };

const float kHeldSnow = 1e-6;  // m, as sim/snow/SnowCover.cpp

void main() {
  uint k = snowItem();
  uint cells = uint(gridSize.x) * uint(gridSize.y);
  float tanRepose = gridGeometry.w;
  float worst = 0.0;
  if (k < cells) {
    ivec2 c = ivec2(int(k % uint(gridSize.x)), int(k / uint(gridSize.x)));
    float height = imageLoad(groundHeight, c).r;
    float snow = imageLoad(groundSnow, c).r;
    if (!hasGround(height) || !(snow > kHeldSnow)) return;
    float surface = height + snow;
    for (int n = 0; n < 8; ++n) {
      ivec2 cn;
      if (!neighbourCell(c, n, cn)) continue;
      float drop = surface - (imageLoad(groundHeight, cn).r + imageLoad(groundSnow, cn).r);
      worst = max(worst, drop / (neighbourDistance(n) * tanRepose));
    }
  } else {
    uint v = k - cells;
    if (v >= uint(gridSize.w)) return;
    if (!(objectBase[v].w > 0.0) || !(objectSnow[v] > kHeldSnow)) return;
    float surface = objectBase[v].y + objectSnow[v];
    for (uint e = neighbourStart[v]; e < neighbourStart[v + 1u]; ++e) {
      uint w = edges[e].neighbour;
      float drop = surface - (objectBase[w].y + objectSnow[w]);
      if (!(drop > 0.0)) continue;
      float run = edges[e].distance * tanRepose;
      worst = max(worst, run > 0.0 ? min(drop / run, 3.0e38) : 3.0e38);
    }
  }
  if (worst > 0.0) atomicMax(ratioBits, floatBitsToUint(worst));
}
