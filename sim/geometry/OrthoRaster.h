#pragma once
/// The CPU reference of orthographic triangle rasterization, shared by the depth views of
/// body contact (sim/contact/DepthViews.h) and the radar (sim/radar/Radar.h), so that
/// both match the GPU's coverage texel for texel.
///
/// Rules (as OpenGL on Mesa llvmpipe, pinned by DepthViewsGLTest.TieRuleMatchesTheCpu and
/// RadarGLTest): image coordinates (u, v) in texels, v up; texel (i, j) covers
/// [i, i + 1] x [j, j + 1] and is hit by a triangle when its centre (i + 0.5, j + 0.5)
/// lies inside the triangle or on an inclusive edge; vertices are snapped to 1/256 texel
/// first (the rasterizer's subpixel grid); shared edges cover each centre exactly once
/// (the tie rule: in (u, v), left edges and bottom edges are inclusive, which is
/// Direct3D's / Gallium's top-left rule in memory order, rows top to bottom); zero-area
/// triangles cover nothing; both windings are drawn (no culling). Attributes are
/// interpolated with barycentric weights of the exact (unsnapped) projection at the
/// texel centre, as the GPU's attribute planes, but in double.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace hg {

/// One vertex projected into an image: texels and depth (any unit; interpolated).
struct RasterVertex {
  double u = 0.0, v = 0.0, depth = 0.0;
};

/// One covered texel of one triangle.
struct RasterFragment {
  std::uint32_t i = 0;         ///< column
  std::uint32_t triangle = 0;  ///< index of the triangle in `indices` / 3 (draw order)
  double depth = 0.0;          ///< interpolated at the texel centre
  /// Barycentric weights: weights[k] belongs to the triangle's vertex indices[3 triangle +
  /// corners[k]]; corners is the counter-clockwise order in (u, v) (the listed order, or its
  /// last two swapped for a clockwise triangle), which is also the order the depth was summed in.
  double weights[3] = {};
  int corners[3] = {0, 1, 2};
};

/// 2^-e with 2^e >= range (m): the scale that maps depths in [0, range] into a [0, 1]
/// depth buffer exactly (scaling by a power of two is exact), so the GPU's depth test
/// orders fragments as their float depths (GpuDepthViewRenderer, GpuRadar).
float exactDepthScale(float range);

/// Rasterizes the triangles `indices` (3 per triangle, into `vertices`) into a width x
/// height image. For every row j that some triangle covers, `row(j, fragments)` is called
/// once with that row's fragments (unsorted; in triangle order within a texel), from an
/// OpenMP loop over rows when `parallel` (so `row` must only write row j's data).
/// Indices must be in range (checked by the callers).
void rasterizeOrthographic(std::span<const RasterVertex> vertices, std::span<const std::uint32_t> indices, int width,
                           int height, const std::function<void(int, std::vector<RasterFragment>&)>& row,
                           bool parallel = true);

}  // namespace hg
