#version 450 core
// The covered scene's vertices (sim/snow/SnowCover.h coveredSceneMesh; docs/methods.md section 5):
// first one per ground cell with ground, at its centre raised by its snow, then every object
// vertex raised by its snow. Written as vec4 (xyz m, w 1) for the depth maps and, being the
// receivers too, for the exposure pass (snow on snow: each pass sees the growing cover).
#include "snow_common.glsl"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_SNOW_GROUND_VERTEX_CELLS) readonly buffer GroundVertexCells { uint groundVertexCells[]; };
layout(std430, binding = HG_BINDING_SNOW_POINTS) writeonly buffer Points { vec4 points[]; };
// The box of all points (the depth maps' frames are fitted to it on the host, as the CPU
// reference fits them to its mesh): floats as order-preserving uints (the sign bit
// flipped for positives, all bits for negatives), reduced per workgroup in shared memory,
// then with one atomicMin / atomicMax per workgroup and bound.
layout(std430, binding = HG_BINDING_SNOW_BOUNDS) buffer Bounds { uint bounds[6]; };

shared uint groupBounds[6];

uint orderedBits(float f) {
  uint b = floatBitsToUint(f);
  return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    for (int a = 0; a < 3; ++a) {
      groupBounds[a] = 0xffffffffu;
      groupBounds[3 + a] = 0u;
    }
  }
  barrier();
  uint k = snowItem();
  uint groundVertices = uint(gridSize.z);
  if (k < groundVertices + uint(gridSize.w)) {
    vec3 p;
    if (k < groundVertices) {
      uint cell = groundVertexCells[k];
      ivec2 c = ivec2(int(cell % uint(gridSize.x)), int(cell / uint(gridSize.x)));
      precise float x = gridGeometry.x + (float(c.x) + 0.5) * gridGeometry.z;
      precise float z = gridGeometry.y + (float(c.y) + 0.5) * gridGeometry.z;
      precise float y = imageLoad(groundHeight, c).r + max(imageLoad(groundSnow, c).r, 0.0);
      p = vec3(x, y, z);
    } else {
      uint v = k - groundVertices;
      vec3 base = objectBase[v].xyz;
      precise float y = base.y + max(objectSnow[v], 0.0);
      p = vec3(base.x, y, base.z);
    }
    points[k] = vec4(p, 1.0);
    for (int a = 0; a < 3; ++a) {
      atomicMin(groupBounds[a], orderedBits(p[a]));
      atomicMax(groupBounds[3 + a], orderedBits(p[a]));
    }
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u && groupBounds[3] != 0u) {
    for (int a = 0; a < 3; ++a) {
      atomicMin(bounds[a], groupBounds[a]);
      atomicMax(bounds[3 + a], groupBounds[3 + a]);
    }
  }
}
