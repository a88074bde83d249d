#include "sim/geometry/OrthoRaster.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace hg {
namespace {

/// Subpixel grid of the vertex snapping (1/256 texel, 8 bits: llvmpipe and most GPUs).
constexpr double kSubpixels = 256.0;

/// Tie rule of texel centres on an edge, in image coordinates (v up): true = top-left
/// (top: horizontal with the interior below; left: interior to the right), false =
/// bottom-left (bottom: horizontal with the interior above). Mesa llvmpipe rendering
/// into a framebuffer object, read back row j = 0 first, follows bottom-left: that is
/// Direct3D's / Gallium's top-left rule in memory order (rows top to bottom).
/// DepthViewsGLTest.TieRuleMatchesTheCpu pins it.
constexpr bool kTopLeftRule = false;

struct Snapped {
  double su, sv;
};

}  // namespace

float exactDepthScale(float range) {
  int e = 0;
  std::frexp(std::max(range, 1e-30f), &e);  // range = m 2^e, m in [0.5, 1)
  return std::ldexp(1.0f, -e);
}

void rasterizeOrthographic(std::span<const RasterVertex> vertices, std::span<const std::uint32_t> indices, int width,
                           int height, const std::function<void(int, std::vector<RasterFragment>&)>& row,
                           bool parallel) {
  const std::size_t n = vertices.size();
  const std::size_t triangles = indices.size() / 3;
  if (width < 1 || height < 1 || triangles == 0) return;
  std::vector<Snapped> snapped(n);
  for (std::size_t i = 0; i < n; ++i)
    snapped[i] = {std::nearbyint(vertices[i].u * kSubpixels) / kSubpixels,
                  std::nearbyint(vertices[i].v * kSubpixels) / kSubpixels};

  // Rows each triangle may cover (texel centres j + 0.5 within its snapped v range), in
  // triangle order, as CSR: rowStart[j] .. rowStart[j + 1] in rowTriangles.
  std::vector<std::uint32_t> rowStart(std::size_t(height) + 1, 0u), rowTriangles;
  auto rowRange = [&](std::size_t t, int& j0, int& j1) {
    const Snapped &a = snapped[indices[3 * t]], &b = snapped[indices[3 * t + 1]], &c = snapped[indices[3 * t + 2]];
    const double lo = std::min({a.sv, b.sv, c.sv}), hi = std::max({a.sv, b.sv, c.sv});
    const double first = std::max(0.0, std::ceil(lo - 0.5)), last = std::min(double(height - 1), std::floor(hi - 0.5));
    j0 = int(first);
    j1 = first <= last ? int(last) : int(first) - 1;
  };
  for (std::size_t t = 0; t < triangles; ++t) {
    int j0, j1;
    rowRange(t, j0, j1);
    for (int j = j0; j <= j1; ++j) ++rowStart[std::size_t(j) + 1];
  }
  for (int j = 0; j < height; ++j) rowStart[std::size_t(j) + 1] += rowStart[std::size_t(j)];
  rowTriangles.resize(rowStart.back());
  {
    std::vector<std::uint32_t> fill(rowStart.begin(), rowStart.end() - 1);
    for (std::size_t t = 0; t < triangles; ++t) {
      int j0, j1;
      rowRange(t, j0, j1);
      for (int j = j0; j <= j1; ++j) rowTriangles[fill[std::size_t(j)]++] = std::uint32_t(t);
    }
  }

#pragma omp parallel for schedule(static) if (parallel)
  for (int j = 0; j < height; ++j) {
    if (rowStart[std::size_t(j)] == rowStart[std::size_t(j) + 1]) continue;
    std::vector<RasterFragment> fragments;
    const double cy = j + 0.5;
    for (std::uint32_t r = rowStart[std::size_t(j)]; r < rowStart[std::size_t(j) + 1]; ++r) {
      const std::uint32_t t = rowTriangles[r];
      int order[3] = {0, 1, 2};  // corners in counter-clockwise order (positions in the triangle)
      const std::uint32_t idx[3] = {indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]};
      // Twice the signed area of the snapped triangle; exact (the coordinates are
      // multiples of 2^-8 with few bits). Zero area covers nothing.
      const Snapped &sa = snapped[idx[0]], &sb = snapped[idx[1]], &sc = snapped[idx[2]];
      const double area = (sb.su - sa.su) * (sc.sv - sa.sv) - (sb.sv - sa.sv) * (sc.su - sa.su);
      if (area == 0.0) continue;
      if (area < 0.0) std::swap(order[1], order[2]);  // both windings are drawn
      const Snapped* corner[3] = {&snapped[idx[order[0]]], &snapped[idx[order[1]]], &snapped[idx[order[2]]]};
      // Edge e runs from corner[e] to corner[(e + 1) % 3]; the interior is on its left.
      double edgeDu[3], edgeDv[3];
      bool inclusive[3];
      for (int e = 0; e < 3; ++e) {
        const Snapped* p = corner[e];
        const Snapped* q = corner[(e + 1) % 3];
        edgeDu[e] = q->su - p->su;
        edgeDv[e] = q->sv - p->sv;
        inclusive[e] = kTopLeftRule ? (edgeDv[e] < 0.0 || (edgeDv[e] == 0.0 && edgeDu[e] < 0.0))
                                    : (edgeDv[e] < 0.0 || (edgeDv[e] == 0.0 && edgeDu[e] > 0.0));
      }
      const double lo = std::min({sa.su, sb.su, sc.su}), hi = std::max({sa.su, sb.su, sc.su});
      const int i0 = int(std::max(0.0, std::ceil(lo - 0.5)));
      const int i1 = int(std::min(double(width - 1), std::floor(hi - 0.5)));
      // Interpolation uses the exact (unsnapped) projection, as the GPU's attribute planes,
      // of the corners in counter-clockwise order.
      const RasterVertex &a = vertices[idx[order[0]]], &b = vertices[idx[order[1]]], &c = vertices[idx[order[2]]];
      const double exactArea = (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u);
      for (int i = i0; i <= i1; ++i) {
        const double cx = i + 0.5;
        bool inside = true;
        for (int e = 0; e < 3 && inside; ++e) {
          const Snapped* p = corner[e];
          const double f = edgeDu[e] * (cy - p->sv) - edgeDv[e] * (cx - p->su);
          inside = f > 0.0 || (f == 0.0 && inclusive[e]);
        }
        if (!inside) continue;
        RasterFragment f;
        f.i = std::uint32_t(i);
        f.triangle = t;
        if (exactArea != 0.0) {
          f.weights[0] = ((b.u - cx) * (c.v - cy) - (b.v - cy) * (c.u - cx)) / exactArea;
          f.weights[1] = ((c.u - cx) * (a.v - cy) - (c.v - cy) * (a.u - cx)) / exactArea;
          f.weights[2] = 1.0 - f.weights[0] - f.weights[1];
        } else {
          f.weights[0] = f.weights[1] = f.weights[2] = 1.0 / 3.0;
        }
        f.depth = f.weights[0] * a.depth + f.weights[1] * b.depth + f.weights[2] * c.depth;
        for (int k = 0; k < 3; ++k) f.corners[k] = order[k];
        fragments.push_back(f);
      }
    }
    row(j, fragments);
  }
}

}  // namespace hg
