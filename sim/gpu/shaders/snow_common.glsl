// Shared declarations of the snow cover passes (sim/gpu/GpuSnowSolver.cpp; docs/methods.md
// section 5): the height field images, the objects' buffers and the uniforms every pass
// gets. Cell (i, j) is texel (i, j) of the images; index j * nx + i in the buffers.
#include "kernels/snow_repose.glslh"
#include "kernels/snow_layout.glslh"

layout(binding = 0, r32f) uniform image2D groundHeight;  // m; HG_SNOW_NO_GROUND where no ground
layout(binding = 1, r32f) uniform image2D groundSnow;    // m of snow

layout(std430, binding = HG_BINDING_SNOW_OBJECT_BASE) readonly buffer ObjectBase { vec4 objectBase[]; };
layout(std430, binding = HG_BINDING_SNOW_OBJECT_SNOW) buffer ObjectSnow { float objectSnow[]; };
layout(std430, binding = HG_BINDING_SNOW_NEIGHBOUR_START) readonly buffer NeighbourStart { uint neighbourStart[]; };
layout(std430, binding = HG_BINDING_SNOW_EDGES) readonly buffer Edges { SnowEdge edges[]; };
layout(std430, binding = HG_BINDING_SNOW_GROUND_OUT) buffer GroundOut { float groundOut[]; };
layout(std430, binding = HG_BINDING_SNOW_OBJECT_OUT) buffer ObjectOut { float objectOut[]; };

layout(location = 0) uniform ivec4 gridSize;      // nx, nz, ground vertices of the covered mesh, object vertices
layout(location = 1) uniform vec4 gridGeometry;   // originX, originZ, cell (m), tan(repose)
layout(location = 2) uniform vec4 passValues;     // snow depth of the pass (m), direction count, cell area (m^2), 0

bool hasGround(float height) { return height > -1.0e37; }

/// Whether neighbour k of cell c exists and has ground.
bool neighbourCell(ivec2 c, int k, out ivec2 n) {
  n = c + snowNeighbourOffset(k);
  if (n.x < 0 || n.y < 0 || n.x >= gridSize.x || n.y >= gridSize.y) return false;
  return hasGround(imageLoad(groundHeight, n).r);
}

float neighbourDistance(int k) { return snowNeighbourDistance(gridGeometry.z, k); }

/// This invocation's item: dispatches are 2D when one row of workgroups is not enough
/// (GL guarantees 65535 groups per dimension), rows of gl_NumWorkGroups.x groups.
uint snowItem() {
  return gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * uint(HG_WORKGROUP_SIZE)) + gl_GlobalInvocationID.x;
}
