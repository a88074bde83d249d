#include "sim/snow/SnowExposure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/OrthoRaster.h"

namespace hg {

namespace {

/// How many of the map's `rays` sub-rays from p are free (kernels/snow.glslh; the loop of
/// sim/gpu/shaders/snow_exposure.comp).
int snowRaysFree(const kernels::SnowMap& map, const std::vector<float>& depth, const glm::vec3& p, int rays) {
  int free = 0;
  for (int j = 0; j < rays; ++j) {
    const kernels::SnowRayMarch march = kernels::snowRayMarchStart(map, p, kernels::snowSubRayDirection(map, j));
    bool blocked = false;
    for (int i = 0; i <= march.steps; ++i) {
      const glm::ivec2 texel = kernels::snowImageTexel(kernels::snowRayMarchImage(march, i));
      if (!kernels::snowMapContains(map, texel)) break;  // out of the map: nothing above
      const float mapDepth = depth[std::size_t(texel.y) * std::size_t(map.texels.x) + std::size_t(texel.x)];
      if (kernels::snowRayBlockedAt(march, i, mapDepth, map.direction.w)) {
        blocked = true;
        break;
      }
    }
    free += blocked ? 0 : 1;
  }
  return free;
}

}  // namespace

Status SnowExposureSettings::validate() const {
  if (!std::isfinite(texel) || !(texel > 0.0f))
    return Error{"snow exposure: texel must be a positive length in m (got " + std::to_string(texel) + ")"};
  if (!std::isfinite(bias)) return Error{"snow exposure: bias must be finite"};
  if (raysPerDirection < 1 || raysPerDirection > 64)
    return Error{"snow exposure: rays_per_direction must be in [1, 64] (got " + std::to_string(raysPerDirection) + ")"};
  if (!std::isfinite(raySpread) || raySpread < 0.0f || raySpread > 1.0f)
    return Error{"snow exposure: ray_spread must be in [0, 1] (got " + std::to_string(raySpread) + ")"};
  return Status::success();
}

Result<SnowMapFrame> snowMapFrame(glm::vec3 direction, const TriangleMesh& scene, std::span<const glm::vec3> points,
                                  const SnowExposureSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  if (!allFinite(direction) || !(glm::length(direction) > 0.0f))
    return Error{"snow exposure: a snowfall direction is not a finite, non-zero vector"};
  SnowMapFrame frame;
  frame.direction = glm::normalize(direction);
  const glm::vec3 helper =
      std::abs(frame.direction.z) < 0.9f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  frame.right = glm::normalize(glm::cross(helper, frame.direction));
  frame.up = glm::cross(frame.direction, frame.right);
  frame.texel = settings.texel;
  // The frame is fitted to the axis-aligned box of the scene and the points (its 8
  // corners projected), not to each vertex: a GPU pass that only reduces the box of its
  // vertices (sim/gpu/GpuSnowSolver) then builds the very same frames.
  glm::vec3 boxLo(std::numeric_limits<float>::infinity()), boxHi(-std::numeric_limits<float>::infinity());
  for (const glm::vec3& p : scene.positions) {
    if (!allFinite(p)) return Error{"snow exposure: the scene has a non-finite vertex"};
    boxLo = glm::min(boxLo, p);
    boxHi = glm::max(boxHi, p);
  }
  for (const glm::vec3& p : points) {
    if (!allFinite(p)) return Error{"snow exposure: a receiving point is not finite"};
    boxLo = glm::min(boxLo, p);
    boxHi = glm::max(boxHi, p);
  }
  double lo[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  double hi[2] = {-lo[0], -lo[1]};
  if (boxLo.x <= boxHi.x) frame.minDepth = std::numeric_limits<float>::infinity();
  if (boxLo.x <= boxHi.x)
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner(c & 1 ? boxHi.x : boxLo.x, c & 2 ? boxHi.y : boxLo.y, c & 4 ? boxHi.z : boxLo.z);
      // The corner's depth as the kernel computes a point's (float, left to right), lowered
      // by a texel so that rounding never puts a surface above it.
      frame.minDepth = std::min(frame.minDepth, corner.x * frame.direction.x + corner.y * frame.direction.y +
                                                    corner.z * frame.direction.z - settings.texel);
      const glm::dvec3 p(corner);
      const double r = glm::dot(p, glm::dvec3(frame.right)), u = glm::dot(p, glm::dvec3(frame.up));
      lo[0] = std::min(lo[0], r);
      hi[0] = std::max(hi[0], r);
      lo[1] = std::min(lo[1], u);
      hi[1] = std::max(hi[1], u);
    }
  if (!(lo[0] <= hi[0])) return frame;  // nothing to cover: an empty map
  const double t = double(settings.texel);
  const double width = std::ceil((hi[0] - lo[0]) / t) + 2.0, height = std::ceil((hi[1] - lo[1]) / t) + 2.0;
  if (width * height > double(settings.maxTexelsPerMap))
    return Error{"snow exposure: a depth map of " + std::to_string(std::llround(width)) + " x " +
                 std::to_string(std::llround(height)) + " texels is too large; raise the texel size (now " +
                 std::to_string(settings.texel) + " m)"};
  frame.minRight = float(lo[0] - t);
  frame.minUp = float(lo[1] - t);
  frame.width = int(width);
  frame.height = int(height);
  return frame;
}

kernels::SnowMap snowMapRecord(const SnowMapFrame& frame, float bias, int firstTexel) {
  kernels::SnowMap map;
  map.direction = glm::vec4(frame.direction, bias);
  map.right = glm::vec4(frame.right, frame.minRight);
  map.up = glm::vec4(frame.up, frame.minUp);
  map.texel = glm::vec4(frame.texel, 0.0f, 0.0f, frame.minDepth);
  map.texels = glm::ivec4(frame.width, frame.height, firstTexel, 1);
  map.scale = glm::vec4(1.0f / frame.texel, 0.0f, 0.0f, 0.0f);
  return map;
}

kernels::SnowMap snowMapRecord(const SnowMapFrame& frame, const SnowExposureSettings& settings, int mapIndex,
                               int firstTexel) {
  kernels::SnowMap map = snowMapRecord(frame, settings.resolvedBias(), firstTexel);
  map.texel.y = settings.raySpread;
  map.texel.z = float(std::fmod(double(mapIndex) * 2.39996322972865332, 6.28318530717958648));
  map.texels.w = std::max(settings.raysPerDirection, 1);
  return map;
}

float snowRaySpread(float coneDegrees, int count) {
  return float(std::tan(glm::radians(double(coneDegrees))) / std::sqrt(double(std::max(count, 1))));
}

std::vector<float> renderSnowDepthMap(const SnowMapFrame& frame, const TriangleMesh& scene) {
  std::vector<float> depth(std::size_t(frame.width) * std::size_t(frame.height),
                           std::numeric_limits<float>::infinity());
  if (depth.empty() || scene.indices.empty()) return depth;
  const kernels::SnowMap map = snowMapRecord(frame, 0.0f);
  std::vector<RasterVertex> projected(scene.positions.size());
  for (std::size_t i = 0; i < projected.size(); ++i) {
    const glm::vec2 image = kernels::snowMapImagePoint(map, scene.positions[i]);
    projected[i] = {double(image.x), double(image.y), double(kernels::snowPointDepth(map, scene.positions[i]))};
  }
  rasterizeOrthographic(projected, scene.indices, frame.width, frame.height,
                        [&](int j, std::vector<RasterFragment>& fragments) {
                          float* row = depth.data() + std::size_t(j) * std::size_t(frame.width);
                          for (const RasterFragment& f : fragments) row[f.i] = std::min(row[f.i], float(f.depth));
                        });
  return depth;
}

Result<std::vector<float>> snowExposureCpu(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                           std::span<const glm::vec3> directions,
                                           const SnowExposureSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  if (directions.empty()) return Error{"snow exposure: no snowfall directions"};
  for (std::uint32_t index : scene.indices)
    if (index >= scene.positions.size())
      return Error{"snow exposure: the scene has a triangle index out of range (" + std::to_string(index) + ")"};
  std::vector<int> hits(points.size(), 0);
  const int rays = std::max(settings.raysPerDirection, 1);
  for (std::size_t d = 0; d < directions.size(); ++d) {
    auto frame = snowMapFrame(directions[d], scene, points, settings);
    if (!frame) return frame.error();
    const std::vector<float> depth = renderSnowDepthMap(*frame, scene);
    const kernels::SnowMap map = snowMapRecord(*frame, settings, int(d));
    // Per point as sim/gpu/shaders/snow_exposure.comp (kernels/snow.glslh).
#pragma omp parallel for schedule(static) if (points.size() >= 4096)
    for (std::ptrdiff_t k = 0; k < std::ptrdiff_t(points.size()); ++k) {
      hits[std::size_t(k)] += snowRaysFree(map, depth, points[std::size_t(k)], rays);
    }
  }
  std::vector<float> exposure(points.size());
  for (std::size_t k = 0; k < points.size(); ++k)
    exposure[k] = float(hits[k]) / (float(directions.size()) * float(rays));
  return exposure;
}

}  // namespace hg
