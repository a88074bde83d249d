#include "sim/snow/SnowExposure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/OrthoRaster.h"

namespace hg {

namespace {


}  // namespace

Status SnowExposureSettings::validate() const {
  if (!std::isfinite(texel) || !(texel > 0.0f))
    return Error{"snow exposure: texel must be a positive length in m (got " + std::to_string(texel) + ")"};
  if (!std::isfinite(bias)) return Error{"snow exposure: bias must be finite"};
  return Status::success();
}

Result<SnowMapFrame> snowMapFrame(glm::vec3 direction, const TriangleMesh& scene, std::span<const glm::vec3> points,
                                  const SnowExposureSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  if (!allFinite(direction) || !(glm::length(direction) > 0.0f))
    return Error{"snow exposure: a snowfall direction is not a finite, non-zero vector"};
  SnowMapFrame frame;
  frame.direction = glm::normalize(direction);
  const glm::vec3 helper = std::abs(frame.direction.z) < 0.9f ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  frame.right = glm::normalize(glm::cross(helper, frame.direction));
  frame.up = glm::cross(frame.direction, frame.right);
  frame.texel = settings.texel;
  double lo[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  double hi[2] = {-lo[0], -lo[1]};
  const auto extend = [&](const glm::vec3& p) {
    const double r = glm::dot(glm::dvec3(p), glm::dvec3(frame.right)), u = glm::dot(glm::dvec3(p), glm::dvec3(frame.up));
    lo[0] = std::min(lo[0], r);
    hi[0] = std::max(hi[0], r);
    lo[1] = std::min(lo[1], u);
    hi[1] = std::max(hi[1], u);
  };
  for (const glm::vec3& p : scene.positions) {
    if (!allFinite(p)) return Error{"snow exposure: the scene has a non-finite vertex"};
    extend(p);
  }
  for (const glm::vec3& p : points) {
    if (!allFinite(p)) return Error{"snow exposure: a receiving point is not finite"};
    extend(p);
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

std::vector<float> renderSnowDepthMap(const SnowMapFrame& frame, const TriangleMesh& scene) {
  std::vector<float> depth(std::size_t(frame.width) * std::size_t(frame.height), std::numeric_limits<float>::infinity());
  if (depth.empty() || scene.indices.empty()) return depth;
  const glm::dvec3 right(frame.right), up(frame.up), forward(frame.direction);
  const double t = double(frame.texel);
  std::vector<RasterVertex> projected(scene.positions.size());
  for (std::size_t i = 0; i < projected.size(); ++i) {
    const glm::dvec3 p(scene.positions[i]);
    projected[i] = {(glm::dot(p, right) - double(frame.minRight)) / t, (glm::dot(p, up) - double(frame.minUp)) / t,
                    glm::dot(p, forward)};
  }
  rasterizeOrthographic(projected, scene.indices, frame.width, frame.height,
                        [&](int j, std::vector<RasterFragment>& fragments) {
                          float* row = depth.data() + std::size_t(j) * std::size_t(frame.width);
                          for (const RasterFragment& f : fragments) row[f.i] = std::min(row[f.i], float(f.depth));
                        });
  return depth;
}

Result<std::vector<float>> snowExposureCpu(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                           std::span<const glm::vec3> directions, const SnowExposureSettings& settings) {
  if (Status s = settings.validate(); !s) return s.error();
  if (directions.empty()) return Error{"snow exposure: no snowfall directions"};
  for (std::uint32_t index : scene.indices)
    if (index >= scene.positions.size())
      return Error{"snow exposure: the scene has a triangle index out of range (" + std::to_string(index) + ")"};
  const float bias = settings.resolvedBias();
  std::vector<int> hits(points.size(), 0);
  for (const glm::vec3& direction : directions) {
    auto frame = snowMapFrame(direction, scene, points, settings);
    if (!frame) return frame.error();
    const std::vector<float> depth = renderSnowDepthMap(*frame, scene);
    const glm::dvec3 right(frame->right), up(frame->up), forward(frame->direction);
    const double t = double(frame->texel);
#pragma omp parallel for schedule(static) if (points.size() >= 4096)
    for (std::ptrdiff_t k = 0; k < std::ptrdiff_t(points.size()); ++k) {
      const glm::dvec3 p(points[std::size_t(k)]);
      const int i = int(std::floor((glm::dot(p, right) - double(frame->minRight)) / t));
      const int j = int(std::floor((glm::dot(p, up) - double(frame->minUp)) / t));
      const float mapDepth = depth[std::size_t(j) * std::size_t(frame->width) + std::size_t(i)];
      if (float(glm::dot(p, forward)) <= mapDepth + bias) ++hits[std::size_t(k)];
    }
  }
  std::vector<float> exposure(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) exposure[k] = float(hits[k]) / float(directions.size());
  return exposure;
}

}  // namespace hg
