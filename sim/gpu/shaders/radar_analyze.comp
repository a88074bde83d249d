#version 450 core
// Cyber Radar analysis on the GPU (docs/methods.md section 3; sim/gpu/GpuRadar.cpp), one
// workgroup per radar, the same steps as the CPU reference analyzeRadar
// (sim/radar/Radar.cpp) with the per-pixel math of kernels/radar.glslh:
//   1. min R, min key (L = R + M - d for a collision radar, R for detection), pixels seen,
//      sensor pixels, IDs seen, the mask's occupied bounds (shared-memory atomics);
//   2. the contact pixels (key <= min + tolerance) as per-row extents;
//   3. the contact centre (convex hull centroid, one invocation), the contact pixel nearest
//      it (smallest squared distance, then smallest index);
//   4. the plane fit of its 3 x 3 neighbourhood, the contact point and normal.
// Only the RadarResult records leave the GPU.
#include "kernels/radar_layout.glslh"

layout(local_size_x = HG_RADAR_WORKGROUP_SIZE) in;

// Contact pixels' extents per row (radarContactCentre works on them in place).
shared int sRowMin[HG_RADAR_MAX_IMAGE];
shared int sRowMax[HG_RADAR_MAX_IMAGE];

#include "kernels/radar.glslh"

layout(std430, binding = HG_BINDING_RADAR_FRAMES) readonly buffer Frames { RadarFrame frames[]; };
layout(std430, binding = HG_BINDING_RADAR_RESULTS) writeonly buffer Results { RadarResult results[]; };
layout(binding = 0) uniform sampler2DArray rangeImages;    // R (HG_RADAR_NO_KEY where nothing)
layout(binding = 1) uniform usampler2DArray objectImages;  // object IDs
layout(binding = 2) uniform sampler2DArray frontImages;    // F = d - M in mask columns

layout(location = 0) uniform int firstRadar;  // radar of layer 0

shared uint sMinRange, sMinKey;  // order-preserving float bits
shared uint sSeen, sSensor, sContacts;
shared uint sSeenBits[4];
shared int sBounds[4];
shared vec2 sCentre;
shared uint sBestDistance, sBestIndex;

/// Float bits that order as the floats (negative values included).
uint orderedBits(float x) {
  uint b = floatBitsToUint(x);
  return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
}
float fromOrderedBits(uint b) { return uintBitsToFloat((b & 0x80000000u) != 0u ? (b & 0x7fffffffu) : ~b); }

void main() {
  int layer = int(gl_WorkGroupID.x);
  int radar = firstRadar + layer;
  RadarFrame frame = frames[radar];
  int width = int(frame.control.z), height = int(frame.control.w);
  float d = frame.origin.w;
  uint lid = gl_LocalInvocationIndex;
  int pixels = width * height;
  if (lid == 0u) {
    sMinRange = orderedBits(d);
    sMinKey = orderedBits(HG_RADAR_NO_KEY);
    sSeen = 0u;
    sSensor = 0u;
    sContacts = 0u;
    for (int w = 0; w < 4; ++w) sSeenBits[w] = 0u;
    sBounds[0] = width;
    sBounds[1] = height;
    sBounds[2] = -1;
    sBounds[3] = -1;
    sBestDistance = 0xffffffffu;
    sBestIndex = 0xffffffffu;
  }
  for (int j = int(lid); j < HG_RADAR_MAX_IMAGE; j += HG_RADAR_WORKGROUP_SIZE) {
    sRowMin[j] = width;
    sRowMax[j] = -1;
  }
  barrier();

  // 1. minima, counts, IDs, mask bounds.
  float minRange = d, minKey = HG_RADAR_NO_KEY;
  uint seen = 0u, sensor = 0u;
  uvec4 bits = uvec4(0u);
  ivec4 bounds = ivec4(width, height, -1, -1);
  for (int p = int(lid); p < pixels; p += HG_RADAR_WORKGROUP_SIZE) {
    int i = p % width, j = p / width;
    float r = texelFetch(rangeImages, ivec3(i, j, layer), 0).r;
    float f = texelFetch(frontImages, ivec3(radarMirrorColumn(i, width), j, layer), 0).r;
    if (r < d) {
      seen += 1u;
      minRange = min(minRange, r);
      uint object = texelFetch(objectImages, ivec3(i, j, layer), 0).r;
      if (object < 128u) bits[object / 32u] |= 1u << (object % 32u);
    }
    if (f > 0.5 * HG_RADAR_NO_SENSOR) {
      sensor += 1u;
      bounds = ivec4(min(bounds.x, i), min(bounds.y, j), max(bounds.z, i), max(bounds.w, j));
    }
    minKey = min(minKey, radarKey(frame, r, f));
  }
  atomicMin(sMinRange, orderedBits(minRange));
  atomicMin(sMinKey, orderedBits(minKey));
  atomicAdd(sSeen, seen);
  atomicAdd(sSensor, sensor);
  for (int w = 0; w < 4; ++w) atomicOr(sSeenBits[w], bits[w]);
  atomicMin(sBounds[0], bounds.x);
  atomicMin(sBounds[1], bounds.y);
  atomicMax(sBounds[2], bounds.z);
  atomicMax(sBounds[3], bounds.w);
  barrier();

  minKey = fromOrderedBits(sMinKey);
  bool any = minKey < HG_RADAR_NO_KEY;
  float limit = minKey + frame.settings.x;
  // 2. contact pixels by row extents.
  if (any) {
    uint contacts = 0u;
    for (int p = int(lid); p < pixels; p += HG_RADAR_WORKGROUP_SIZE) {
      int i = p % width, j = p / width;
      float r = texelFetch(rangeImages, ivec3(i, j, layer), 0).r;
      float f = texelFetch(frontImages, ivec3(radarMirrorColumn(i, width), j, layer), 0).r;
      if (radarKey(frame, r, f) <= limit) {
        contacts += 1u;
        atomicMin(sRowMin[j], i);
        atomicMax(sRowMax[j], i);
      }
    }
    atomicAdd(sContacts, contacts);
  }
  barrier();
  // 3. the centre, then the contact pixel nearest it.
  if (any && lid == 0u) sCentre = radarContactCentre(height);  // on sRowMin / sRowMax, in place
  barrier();
  vec2 centre = sCentre;
  if (any) {
    for (int p = int(lid); p < pixels; p += HG_RADAR_WORKGROUP_SIZE) {
      int i = p % width, j = p / width;
      float r = texelFetch(rangeImages, ivec3(i, j, layer), 0).r;
      float f = texelFetch(frontImages, ivec3(radarMirrorColumn(i, width), j, layer), 0).r;
      if (radarKey(frame, r, f) <= limit)
        atomicMin(sBestDistance, floatBitsToUint(radarDistance2((float(i) + 0.5) - centre.x, (float(j) + 0.5) - centre.y)));
    }
  }
  barrier();
  if (any) {
    for (int p = int(lid); p < pixels; p += HG_RADAR_WORKGROUP_SIZE) {
      int i = p % width, j = p / width;
      float r = texelFetch(rangeImages, ivec3(i, j, layer), 0).r;
      float f = texelFetch(frontImages, ivec3(radarMirrorColumn(i, width), j, layer), 0).r;
      if (radarKey(frame, r, f) <= limit &&
          floatBitsToUint(radarDistance2((float(i) + 0.5) - centre.x, (float(j) + 0.5) - centre.y)) == sBestDistance)
        atomicMin(sBestIndex, uint(p));
    }
  }
  barrier();

  // 4. plane fit, contact point and normal; the record.
  if (lid != 0u) return;
  RadarResult result;
  int sensorPixels = int(sSensor);
  result.counts = uvec4(sSeen, sSensor, 0u, HG_RADAR_NO_OBJECT);
  result.objectsSeen = uvec4(sSeenBits[0], sSeenBits[1], sSeenBits[2], sSeenBits[3]);
  result.maskBounds = sensorPixels > 0 ? uvec4(ivec4(sBounds[0], sBounds[1], sBounds[2], sBounds[3])) : uvec4(1u, 1u, 0u, 0u);
  float minRangeAll = fromOrderedBits(sMinRange);
  result.contactPoint = vec4(0.0, 0.0, 0.0, minRangeAll);
  result.contactNormal = vec4(0.0, 0.0, 0.0, minKey);
  result.contactImage = vec4(-1.0, -1.0, 0.0, 0.0);
  if (any) {
    int nearest = int(sBestIndex);
    int ni = nearest % width, nj = nearest / width;
    float centreDepth = texelFetch(rangeImages, ivec3(ni, nj, layer), 0).r;
    RadarPlaneFit fit = radarBeginPlaneFit();
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        int i = ni + di, j = nj + dj;
        if (i < 0 || j < 0 || i >= width || j >= height) continue;
        float r = texelFetch(rangeImages, ivec3(i, j, layer), 0).r;
        if (r < d && radarSameSurface(frame, centreDepth, r)) radarAddPlanePoint(fit, di, dj, r);
      }
    vec4 plane = radarSolvePlane(fit);
    RadarContact contact = radarFinishContact(frame, centre, ni, nj, centreDepth, plane);
    result.contactPoint = vec4(contact.point, minRangeAll);
    result.contactNormal = vec4(contact.normal, minKey);
    result.contactImage = vec4(centre, contact.depth, plane.w);
    result.counts.z = sContacts;
    result.counts.w = texelFetch(objectImages, ivec3(ni, nj, layer), 0).r;
  }
  results[radar] = result;
}
