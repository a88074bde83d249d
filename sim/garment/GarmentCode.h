#pragma once
/// Sewing patterns in the GarmentCode JSON format: the `*_specification.json` files
/// of GarmentCodeData (M. Korosteleva, T. Kesdogan, F. Kemper, S. Wenninger, J. Koller,
/// Y. Zhang, M. Botsch, O. Sorkine-Hornung, "GarmentCodeData: A Dataset of 3D
/// Made-to-Measure Garments With Sewing Patterns", ECCV 2024) and of the GarmentCode
/// tools (M. Korosteleva, O. Sorkine-Hornung, "GarmentCode: Programming Parametric
/// Sewing Patterns", SIGGRAPH Asia 2023).
///
/// What is read (the rest is ignored: labels, `parameters`, `parameter_order`):
/// - `hagoromo_region` of a panel (this project's extension, optional: the BodyRegion that
///   placement around the body wraps it around, bodyRegionName; written by writeGarmentCode);
/// - `properties.units_in_meter` (required; 100: centimetres) and
///   `properties.curvature_coords` ("relative", the default and what GarmentCode writes,
///   or "absolute");
/// - `pattern.panels`: {name: {translation [x, y, z], rotation [rx, ry, rz] (degrees),
///   vertices [[x, y], ...], edges [{endpoints [i, j], curvature?}, ...]}}, in the order
///   of `pattern.panel_order` when given. A panel's edges must form one closed loop, each
///   starting where the one before ends;
/// - edge curvature: {"type": "quadratic", "params": [[x, y]]} and {"type": "cubic",
///   "params": [[x1, y1], [x2, y2]]} Bezier control points, relative to the edge (x along
///   start -> end, y along its left normal, both in edge lengths) or absolute;
///   {"type": "circle", "params": [radius, large_arc, right]} an arc of that radius (file
///   units) bulging to the right of start -> end when `right` is 1; the older bare
///   [x, y] (a relative quadratic control point);
/// - `pattern.stitches`: [[{panel, edge}, {panel, edge}], ...], edge = index into the
///   panel's edges; the end of one edge meets the start of the other, or start meets
///   start with a third entry "right_wrong" (GarmentCode's boxmeshgen.py, Seam::swap);
/// - placement: world = R (x, y, 0) + translation, R = Rz(rz) Ry(ry) Rx(rx)
///   (GarmentCode's pattern/rotation.py, euler_xyz_to_R), y up; a panel's loop runs
///   counter-clockwise seen from outside the garment (its right-hand normal points away
///   from the body). A loop that is clockwise in its plane (a back panel with rotation 0)
///   is mirrored (x -> -x) into this project's convention (sim/garment/Pattern.h) and the
///   mirror folded into its PanelTransform, so its placed points do not change.
///
/// Curves are sampled into polylines of segments no longer than `sampleLength`; the
/// panel mesher (PanelMesher.h) then resamples every edge to the cloth's edge length.
/// Grain: the panel's +y (PanelMesher.h: the warp runs along panel +y).
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Result.h"
#include "sim/garment/Pattern.h"
#include "sim/garment/Placement.h"

namespace hg {

/// A pattern read from a file, with where each panel starts in 3D.
struct PatternFile {
  Pattern pattern;                          ///< metres; panels counter-clockwise seen from outside
  std::vector<PanelTransform> transforms;   ///< one per panel: panel plane (m) -> world (m)
  std::vector<std::string> mirroredPanels;  ///< panels that were clockwise in the file
  /// Every panel's Panel::region came from the file (GarmentCode's "hagoromo_region", a DXF
  /// sidecar's "region"; hagoromo patterns writes them), so the pattern can be placed around
  /// the body (placePattern) instead of by its transforms.
  bool regionsGiven() const { return regionCount == pattern.panels.size(); }
  std::size_t regionCount = 0;  ///< panels whose region the file gave
  /// m: how far its stitched edges' lengths may differ (GarmentCodeOptions; infinity with
  /// `ease`), for the mesher (MeshingOptions::seamLengthTolerance).
  double seamLengthTolerance = 0.005;
};

struct GarmentCodeOptions {
  double sampleLength = 0.005;  ///< m: the longest segment of a sampled curve
  /// m: stitched edges whose lengths differ by more are an error naming them (the file
  /// would sew one edge gathered onto the other) unless `ease` is set.
  double seamLengthTolerance = 0.005;
  /// Sew edges of different lengths anyway: the longer is eased (gathered) evenly onto
  /// the shorter, each pair of seam vertices at the same fraction of both edges.
  bool ease = false;
};
/// What every pattern reader takes (GarmentCode here, DXF-AAMA in AamaDxf.h).
using PatternReadOptions = GarmentCodeOptions;

/// Parses a GarmentCode specification. Errors start with `origin` and name the key
/// (pattern.panels.<name>.edges[i].curvature, pattern.stitches[k], ...).
Result<PatternFile> parseGarmentCode(const std::string& text, const std::string& origin,
                                     const GarmentCodeOptions& options = {});

/// Reads and parses a GarmentCode specification file; the pattern is named after the file.
Result<PatternFile> readGarmentCode(const std::filesystem::path& path, const GarmentCodeOptions& options = {});

/// The pattern as a GarmentCode specification (units_in_meter 100, straight edges,
/// curvature_coords "relative"), each panel at its transform (a mirrored transform is
/// written as the clockwise panel GarmentCode expects). GarmentCode stitches join one edge to
/// one edge, so each seam is written as stitches between straight pieces: both of its
/// edges are cut at the union of their points' arc-length fractions (a point added to
/// an edge lies on it), piece k of one edge stitched to piece k of the other (n - 1 - k when
/// the seam is reversed). Reading it back gives the same outlines and seams, cut at more
/// points. Errors: a pattern that does not validate, or transforms of another count.
Result<std::string> writeGarmentCode(const Pattern& pattern, const std::vector<PanelTransform>& transforms);

/// Where a built-in block's panels go in a written file: torso and leg fronts 25 cm in
/// front of the body's axis facing +z, backs as far behind facing -z, sleeves in front of
/// their arm along it (shoulder to wrist) facing +z. A layout for a pattern tool, not a
/// placement to sew from (that is placePattern's wrapping).
std::vector<PanelTransform> blockLayout(const Pattern& pattern, const BodyFrame& frame);

}  // namespace hg
