#version 450 core
// Exclusive prefix sum of uints in place (GPU backend of particle skinning: cell starts
// of the neighbour grid, CSR offsets of the neighbour lists), in three dispatches:
//  mode 0: every workgroup scans its HG_WORKGROUP_SIZE elements in shared memory and
//          writes their total to scanBlocks[group];
//  mode 1: ONE workgroup scans the block totals (exclusive), HG_WORKGROUP_SIZE at a time
//          with a running sum (elementCount = the number of blocks);
//  mode 2: every element adds its block's offset.
// Integer sums: the result is exact and independent of scheduling.
#include "kernels/particle_skinning_layout.glslh"

layout(local_size_x = HG_WORKGROUP_SIZE) in;

layout(std430, binding = HG_BINDING_PARTICLE_SCAN) buffer ScanData { uint scanData[]; };
layout(std430, binding = HG_BINDING_PARTICLE_SCAN_BLOCKS) buffer ScanBlocks { uint scanBlocks[]; };
layout(location = 0) uniform uint elementCount;
layout(location = 1) uniform uint mode;

shared uint partialSums[HG_WORKGROUP_SIZE];

// Inclusive scan over the workgroup (Hillis-Steele); every invocation must call it.
uint scanWorkgroup(uint value) {
  uint lane = gl_LocalInvocationID.x;
  partialSums[lane] = value;
  barrier();
  for (uint stride = 1u; stride < uint(HG_WORKGROUP_SIZE); stride *= 2u) {
    uint addend = lane >= stride ? partialSums[lane - stride] : 0u;
    barrier();
    partialSums[lane] += addend;
    barrier();
  }
  return partialSums[lane];
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  if (mode == 0u) {
    uint i = gl_GlobalInvocationID.x;
    uint value = i < elementCount ? scanData[i] : 0u;
    uint inclusive = scanWorkgroup(value);
    if (i < elementCount) scanData[i] = inclusive - value;
    if (lane == uint(HG_WORKGROUP_SIZE - 1)) scanBlocks[gl_WorkGroupID.x] = inclusive;
  } else if (mode == 1u) {
    uint running = 0u;
    for (uint first = 0u; first < elementCount; first += uint(HG_WORKGROUP_SIZE)) {
      uint i = first + lane;
      uint value = i < elementCount ? scanBlocks[i] : 0u;
      uint inclusive = scanWorkgroup(value);
      if (i < elementCount) scanBlocks[i] = running + inclusive - value;
      running += partialSums[HG_WORKGROUP_SIZE - 1];
      barrier();  // all have read the total before the next round overwrites it
    }
  } else {
    uint i = gl_GlobalInvocationID.x;
    if (i < elementCount) scanData[i] += scanBlocks[gl_WorkGroupID.x];
  }
}
