#pragma once
/// Exporting a snow cover (docs/methods.md section 5): the snow on the ground as a closed
/// solid, the objects under their snow, both in one Wavefront OBJ, and the ground snow
/// depth as a 16-bit greyscale PNG. Every file is written atomically (temporary file,
/// then rename: sim/core/AtomicFile.h), so a failed export never leaves a half-written
/// file; errors name the path. Units: metres. GL-free.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/snow/SnowCover.h"

namespace hg {

/// The snow on the ground as a closed solid (m): a top sheet through the cell centres at
/// ground + max(snow, 0) and a bottom sheet at the ground height (reversed winding), over
/// the 2 x 2 blocks of cells that all have ground (the quads of coveredSceneMesh, split
/// along the same diagonal), closed by vertical walls along every boundary edge of that
/// quad set (an edge used by one quad). The walls share the sheets' vertices, so the
/// solid is watertight (checkWatertight) and outward oriented (signedVolume > 0 when
/// some snow lies on a quad).
/// - Where the snow is 0 the two sheets touch (zero thickness; distinct vertices at one
///   position): the solid is closed by its indices, not necessarily of positive
///   thickness everywhere.
/// - Where two quads of the set meet at a corner only (ground missing in the two other
///   blocks around that cell), the corner's top and bottom vertices are duplicated, one
///   copy per quad, so every edge still joins exactly two triangles; the two copies lie
///   at one position.
/// Its volume (m^3) is the integral of the snow depth interpolated linearly over the
/// triangles (the trapezoid rule over each triangle: its horizontal area times the mean
/// of its three corners' snow), the walls being vertical.
/// Normals: area-weighted vertex normals. Empty when no quad has ground.
TriangleMesh snowGroundSolid(const SnowCover& cover);

/// The refined objects (SnowCover::objects) with each vertex raised by its snow
/// (max(snow, 0) m, vertically): the objects part of coveredSceneMesh, vertex normals
/// recomputed (area-weighted).
TriangleMesh snowCoveredObjects(const SnowCover& cover);

/// One Wavefront OBJ (no material file) holding the group "snow_ground"
/// (snowGroundSolid) and the group "objects_with_snow" (snowCoveredObjects), positions in
/// metres with vertex normals; a group whose mesh is empty (no ground quads, no objects)
/// is left out. Written atomically; errors name the path.
Status exportSnowObj(const SnowCover& cover, const std::filesystem::path& path);

/// The automatic scale of writeSnowDepthPng16: the largest ground snow depth / 65535 (m
/// per unit), at least 1e-6 m (so 65535 units span at least 6.5 cm).
float snowDepthPngScale(const SnowCover& cover);

/// The ground snow depth as a 16-bit greyscale PNG, one pixel per ground cell: nx
/// columns, nz rows, column i = cell column i (x grows to the right) and image row 0 =
/// the far z row (j = nz - 1), so that z grows upward in the image: a plot of the
/// (x, z) plane with north (+z) up when x (east) is right. (Seen from above, +y, in the
/// right-handed frame +z points down the screen, so this is that view flipped top to
/// bottom.) A pixel holds round(snow / metresPerUnit) clamped to [0, 65535]; 0 where the
/// cell has no ground. tEXt chunks: "hagoromo:metres_per_unit" (the scale, m per unit)
/// and "hagoromo:cell_m" (the cell size, m). Error (naming the path) for an empty grid, a
/// scale that is not a positive finite number, or a failed write; written atomically.
Status writeSnowDepthPng16(const SnowCover& cover, const std::filesystem::path& path, float metresPerUnit);

/// Reads a 16-bit greyscale PNG written by writeSnowDepthPng16: the pixels row-major (row
/// 0 first, as stored), their width and height, and the "hagoromo:metres_per_unit" scale
/// (NaN when the chunk is absent). Output pointers may be null. Error (naming the path)
/// for a missing file, a PNG that is not 16-bit greyscale non-interlaced, or a corrupt one.
Result<std::vector<std::uint16_t>> readSnowDepthPng16(const std::filesystem::path& path, int* width, int* height,
                                                      float* metresPerUnit);

}  // namespace hg
