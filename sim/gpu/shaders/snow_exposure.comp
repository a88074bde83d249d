#version 450 core
// Snow exposure, the per-point pass of one snowfall direction (docs/methods.md section 5;
// sim/gpu/GpuSnowExposure.cpp): one invocation per receiving point (striding over the
// rest when the dispatch is capped) looks the point up in the direction's depth map and
// adds to its hit counter the number of the map's rays from which it is the first
// surface hit (one ray: the plain shadow-map test), with the CPU
// reference's per-point math (kernels/snow.glslh; sim/snow/SnowExposure.cpp). A point
// outside the map sees no surface of the scene: a hit. Each counter is written by its own
// invocation only, so no atomics; the host orders the passes with storage barriers.
#include "kernels/snow.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SNOW_MAPS) readonly buffer Maps { SnowMap maps[]; };
layout(std430, binding = HG_BINDING_SNOW_POINTS) readonly buffer Points { vec4 points[]; };  // xyz m
layout(std430, binding = HG_BINDING_SNOW_HITS) buffer Hits { uint hits[]; };

layout(binding = 0) uniform sampler2D depthMap;  // R32F, m; +infinity where no surface

layout(location = 0) uniform int mapIndex;
layout(location = 1) uniform uint pointCount;

void main() {
  SnowMap map = maps[mapIndex];
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint k = gl_GlobalInvocationID.x; k < pointCount; k += stride) {
    vec3 p = points[k].xyz;
    // The map's sub-rays (kernels/snow.glslh; the loop of snowRaysFree in
    // sim/snow/SnowExposure.cpp): each is free unless the map holds a surface in front of it.
    uint free = 0u;
    for (int j = 0; j < max(map.texels.w, 1); ++j) {
      SnowRayMarch march = snowRayMarchStart(map, p, snowSubRayDirection(map, j));
      bool blocked = false;
      for (int i = 0; i <= march.steps; ++i) {
        ivec2 texel = snowImageTexel(snowRayMarchImage(march, i));
        if (!snowMapContains(map, texel)) break;  // out of the map: nothing above
        if (snowRayBlockedAt(march, i, texelFetch(depthMap, texel, 0).r, map.direction.w)) {
          blocked = true;
          break;
        }
      }
      if (!blocked) free += 1u;
    }
    hits[k] += free;
  }
}
