#pragma once
/// Snow arrival by shadow-map style passes (methods.md section 5; seed 004 parts 3 (1),
/// 4 (1)): for each snowfall direction the scene is rendered orthographically along it
/// into a depth map, exactly like a shadow map; a receiving point gets snow from that
/// direction iff it is the first surface hit there (its depth along the direction is not
/// behind the map's, within a bias). The mean over the directions is the point's
/// exposure, the probability that a snowflake reaches it: 1 in the open, 0 under a roof,
/// in between in a roof edge's penumbra.
///
/// This is the CPU reference of the passes (the GPU pass renders the same maps with the
/// same coverage rules: sim/geometry/OrthoRaster.h). Each map covers the scene and the
/// points seen along its direction, in square texels of `texel` metres.
/// Units: metres. GL-free.
#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct SnowExposureSettings {
  float texel = 0.01f;  ///< m, the depth maps' texel size, > 0
  /// m: a point counts as first hit when its depth is at most the map's + bias. The map
  /// holds each texel's depth at its centre, so a surface sloped to the direction by an
  /// angle a differs from it by up to texel * tan(a) / sqrt(2) within the texel: the
  /// default (negative: automatic) is 1.5 texels, enough up to 64 degrees.
  float bias = -1.0f;
  std::size_t maxTexelsPerMap = std::size_t(1) << 26;  ///< a map larger than this is an error (lower the resolution)
  float resolvedBias() const { return bias >= 0.0f ? bias : 1.5f * texel; }
  Status validate() const;
};

/// The orthographic frame of one snowfall direction: image axes right, up (unit, both
/// perpendicular to the direction), depth along the direction (m; larger = further
/// along the fall, so the first surface hit has the smallest depth).
struct SnowMapFrame {
  glm::vec3 direction{0.0f, -1.0f, 0.0f};
  glm::vec3 right{1.0f, 0.0f, 0.0f};
  glm::vec3 up{0.0f, 0.0f, 1.0f};
  float minRight = 0.0f, minUp = 0.0f;  ///< m, the image's lower-left corner in (right, up)
  float texel = 0.01f;                  ///< m
  int width = 0, height = 0;            ///< texels
};

/// The frame whose image covers `scene` and `points` with one texel of margin. Error if
/// the direction is not a finite non-zero vector or the map would be too large.
Result<SnowMapFrame> snowMapFrame(glm::vec3 direction, const TriangleMesh& scene, std::span<const glm::vec3> points,
                                  const SnowExposureSettings& settings);

/// The depth map of `scene` in `frame`: per texel (row-major, rows along `up`) the depth
/// of the nearest surface, +infinity where none.
std::vector<float> renderSnowDepthMap(const SnowMapFrame& frame, const TriangleMesh& scene);

/// The exposure of every point (in [0, 1]): the fraction of `directions` from which it is
/// the first surface hit. Error if a direction or point is not finite, an index is out of
/// range, the settings are invalid or a map would be too large.
Result<std::vector<float>> snowExposureCpu(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                           std::span<const glm::vec3> directions, const SnowExposureSettings& settings);

}  // namespace hg
