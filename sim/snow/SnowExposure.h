#pragma once
/// Snow arrival by shadow-map style passes (docs/methods.md section
/// 5): for each snowfall direction the scene is rendered orthographically along it
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
#include "sim/kernels/Kernels.h"

namespace hg {

struct SnowExposureSettings {
  float texel = 0.01f;  ///< m, the depth maps' texel size, > 0
  /// m: a point counts as first hit when its depth is at most the map's + bias. The map
  /// holds each texel's depth at its centre, so a surface sloped to the direction by an
  /// angle a differs from it by up to texel * tan(a) / sqrt(2) within the texel: the
  /// default (negative: automatic) is 1.5 texels, enough up to 64 degrees.
  float bias = -1.0f;
  std::size_t maxTexelsPerMap = std::size_t(1) << 26;  ///< a map larger than this is an error (lower the resolution)
  /// Rays per direction (>= 1; kernels/snow.glslh "Sub-rays"): 1 is the plain shadow-map
  /// test; K > 1 traces K rays tilted around each direction back through its map, so N
  /// maps sample N x K directions of the cone (a penumbra within 0.05 of the analytic
  /// exposure from 32 maps with 8 rays; point-sampled 32 directions reach 0.08).
  int raysPerDirection = 1;
  /// Tangent of the sub-rays' largest tilt from their direction (>= 0): about the
  /// directions' spacing, tan(cone) / sqrt(directions) (snowRaySpread).
  float raySpread = 0.0f;
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
  float minDepth = 0.0f;                ///< m, the covered box's smallest depth (its corner nearest the sky)
};

/// The frame whose image covers the axis-aligned box of `scene` and `points` (its corners
/// projected; so a GPU pass knowing only the box builds the same frame) with one texel of
/// margin. Error if
/// the direction is not a finite non-zero vector or the map would be too large.
Result<SnowMapFrame> snowMapFrame(glm::vec3 direction, const TriangleMesh& scene, std::span<const glm::vec3> points,
                                  const SnowExposureSettings& settings);

/// `frame` as the record of the shared CPU/GPU per-point math (kernels/snow.glslh), with
/// the first-hit bias (m; SnowExposureSettings::resolvedBias) and the index of the map's
/// first texel in a buffer holding several maps (0 for a map of its own).
/// The sub-rays: settings.raysPerDirection and raySpread, the pattern turned by the golden
/// angle times `mapIndex` from one map to the next.
kernels::SnowMap snowMapRecord(const SnowMapFrame& frame, float bias, int firstTexel = 0);
kernels::SnowMap snowMapRecord(const SnowMapFrame& frame, const SnowExposureSettings& settings, int mapIndex,
                               int firstTexel = 0);

/// The sub-rays' spread for a snowfall: tan(cone) / sqrt(count), the radius of the cone's
/// share per direction in the tangent plane.
float snowRaySpread(float coneDegrees, int count);

/// The depth map of `scene` in `frame`: per texel (row-major, rows along `up`) the depth
/// of the nearest surface, +infinity where none. Vertices are projected with the shared
/// kernel functions (snowMapImagePoint, snowPointDepth: float, as the GPU's vertex shader);
/// the depth is interpolated at the texel centre in double and rounded to float.
std::vector<float> renderSnowDepthMap(const SnowMapFrame& frame, const TriangleMesh& scene);

/// The exposure of every point (in [0, 1]): the fraction of `directions` from which it is
/// the first surface hit (of their rays, with raysPerDirection > 1). Error if a direction or point is not finite, an
/// index is out of range, the settings are invalid or a map would be too large.
Result<std::vector<float>> snowExposureCpu(const TriangleMesh& scene, std::span<const glm::vec3> points,
                                           std::span<const glm::vec3> directions, const SnowExposureSettings& settings);

}  // namespace hg
