#version 450 core
// Angle-of-repose relaxation, sweep part 1 (sim/snow/SnowCover.cpp CpuSnowSolver::sweep;
// kernels/snow_repose.glslh; docs/methods.md section 5): every holder writes the volume it sends
// to each lower neighbour, from the old state. Invocations [0, cells) are ground cells
// (8 entries each, m x cell^2), the rest object vertices (one entry per edge, m^3).
#include "snow_common.glsl"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

void main() {
  uint k = snowItem();
  uint cells = uint(gridSize.x) * uint(gridSize.y);
  float tanRepose = gridGeometry.w;
  if (k < cells) {
    ivec2 c = ivec2(int(k % uint(gridSize.x)), int(k / uint(gridSize.x)));
    float height = imageLoad(groundHeight, c).r;
    if (!hasGround(height)) {
      for (int n = 0; n < 8; ++n) groundOut[8u * k + uint(n)] = 0.0;
      return;
    }
    float snow = imageLoad(groundSnow, c).r;
    precise float surface = height + snow;
    float excess[8];
    float largest = 0.0, sum = 0.0;
    for (int n = 0; n < 8; ++n) {
      ivec2 cn;
      excess[n] = 0.0;
      if (neighbourCell(c, n, cn)) {
        precise float neighbourSurface = imageLoad(groundHeight, cn).r + imageLoad(groundSnow, cn).r;
        excess[n] = snowReposeExcess(surface, neighbourSurface, neighbourDistance(n), tanRepose);
      }
      largest = max(largest, snowPairVolume(excess[n], 1.0, 1.0));
      sum += excess[n];
    }
    float perExcess = snowOutflowPerExcess(snow, largest, sum);
    for (int n = 0; n < 8; ++n) groundOut[8u * k + uint(n)] = excess[n] * perExcess;
    return;
  }
  uint v = k - cells;
  if (v >= uint(gridSize.w)) return;
  uint begin = neighbourStart[v], end = neighbourStart[v + 1u];
  float area = objectBase[v].w;
  if (!(area > 0.0)) {
    for (uint e = begin; e < end; ++e) objectOut[e] = 0.0;
    return;
  }
  precise float surface = objectBase[v].y + objectSnow[v];
  float largest = 0.0, sum = 0.0;
  for (uint e = begin; e < end; ++e) {
    uint w = edges[e].neighbour;
    precise float neighbourSurface = objectBase[w].y + objectSnow[w];
    float excess = snowReposeExcess(surface, neighbourSurface, edges[e].distance, tanRepose);
    objectOut[e] = excess;
    largest = max(largest, snowPairVolume(excess, area, objectBase[w].w));
    sum += excess;
  }
  precise float volume = objectSnow[v] * area;
  float perExcess = snowOutflowPerExcess(volume, largest, sum);
  for (uint e = begin; e < end; ++e) objectOut[e] = objectOut[e] * perExcess;
}
