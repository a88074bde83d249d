#pragma once
/// Sewing patterns in DXF-AAMA (ASTM D6673, "Standard Practice for Sewn Products Pattern
/// Data Interchange"), the pattern exchange format of apparel CAD systems (Gerber
/// AccuMark, Lectra, Optitex, CLO, Marvelous Designer). The DXF is parsed by dxflib
/// (Debian libdxflib-dev, GPL-2.0-or-later: the maintained DXF library of QCAD and
/// LibreCAD; hagoromo already links CGAL's GPL-3.0-or-later packages, with which it is
/// compatible. libdime, BSD, was the alternative: unmaintained since 2011).
///
/// What is read from the DXF (R12 and later: POLYLINE/VERTEX and LWPOLYLINE both):
/// - one piece per BLOCK with geometry on layer 1 (blocks named `*...` are skipped);
///   the piece's name from its "Piece Name:" text, else the block's name; its size from
///   "Size:" (a graded file has one block per piece and size);
/// - the outline: the closed loop on layer 14 (sew line) when the piece has one and
///   `outline` is "auto" or "sew", else the loop on layer 1 (boundary, the cut line; with
///   "auto" also when the sew lines do not form one closed loop, as some vendors draw them). A
///   loop is one closed polyline, or open polylines, LINEs and ARCs chained end to end
///   (Gerber writes one polyline per segment); polyline bulges are circular arcs;
/// - corners: turn points (layer 2 POINTs) on the outline split it into edges; a piece
///   without any is split where the outline turns by more than 20 degrees. Edges are
///   numbered 0, 1, ... counter-clockwise, edge 0 starting at the first corner at or after
///   the loop's first vertex (a clockwise loop is reversed, keeping its first vertex);
/// - grain: the first LINE on layer 7; the piece is turned so that it runs along panel +y
///   (the warp, Pattern.h), the turn folded into its placement (none: the drawing's +y);
/// - notches (layer 4): POINTs, or LINEs by their end nearer the outline, within 2 cm of it;
///   when the sidecar lists no "seams", they sew (notchSeams in AamaDxf.cpp): two edges
///   whose notches meet when sewn end to start (as many notches, each as far from one's
///   start as its partner from the other's end, within 3 mm), another piece's edge
///   preferred to one of the same piece, two candidates an error naming them;
/// - units: "Units: METRIC" (mm) or "ENGLISH" (inch) text, else the header's
///   $INSUNITS (1 in, 2 ft, 4 mm, 5 cm, 6 m), else the sidecar's `units`, else an error.
///
/// A DXF-AAMA file has no seams (only notches) and no 3D placement, so a small JSON sidecar gives them
/// (default: the DXF's name with `.seams.json` for `.dxf`):
///   {"units": "mm",            optional: overrides the file's (mm, cm, m, in)
///    "size": "M",              which size of a graded file (default: its "Sample Size:")
///    "outline": "auto",        "auto", "sew" or "cut"
///    "pieces": {"FRONT": {"piece": "FRONT",      the DXF piece it cuts (default: its key)
///                         "mirror": false,       cut face down (the other of a pair)
///                         "rotation": [0, 0, 0], degrees, R = Rz Ry Rx (GarmentCode's)
///                         "translation": [x, y, z]   m: where the drawing's origin goes,
///                         or "center": [x, y, z]     m: where the piece's box centre goes,
///                         "region": "torso_front"    optional: what placement around the
///                                                    body wraps it around (bodyRegionName)}},
///    "ignore": ["FACING"],     DXF pieces not cut (every other piece must be)
///    "seams": [{"name": "side", "a": {"piece": "FRONT", "edges": [1, 1]},
///               "b": {"piece": "BACK", "edges": [3, 3]}, "right_wrong": false}]}
/// A piece's outside (the side away from the body) is the drawing's +z: a piece with
/// rotation 0 faces +z. "edges": [i, j] is edges i..j counter-clockwise (wrapping), joined
/// into one edge; sides a and b are sewn end to start (start to start with right_wrong).
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/Result.h"
#include "sim/garment/GarmentCode.h"
#include "sim/garment/Pattern.h"
#include "sim/garment/Placement.h"

namespace hg {

/// The sidecar's default path: `x.dxf` -> `x.seams.json`.
std::filesystem::path aamaSidecarPath(const std::filesystem::path& dxf);

/// Parses a DXF-AAMA file and its sidecar (texts; the origins name them in errors).
/// Errors name the file and the block or key: an open outline (its ends' gap), a piece
/// the sidecar neither cuts nor ignores, a seam to a missing piece or edge, edges of
/// different lengths (PatternReadOptions), unknown units.
Result<PatternFile> parseAamaDxf(const std::string& dxf, const std::string& dxfOrigin, const std::string& sidecar,
                                 const std::string& sidecarOrigin, const PatternReadOptions& options = {});

/// Reads a DXF-AAMA file and its sidecar; the pattern is named after the DXF.
Result<PatternFile> readAamaDxf(const std::filesystem::path& dxf, const std::filesystem::path& sidecar,
                                const PatternReadOptions& options = {});

/// Writes the pattern as DXF-AAMA (R12, millimetres, one block per panel: a closed
/// layer-1 boundary with the same loop as sew line on layer 14, turn points at every
/// edge's start, a grain line along panel +y, a notch line (layer 4) on each side of every
/// seam sewn end to start, piece texts; INSERTs side by side) to `dxf`;
/// returns the sidecar (JSON text: each panel's transform, every seam). Reading both back
/// gives the same panels (within 1e-6 m) and seams. A mirrored transform is written as
/// the rotation that places the same panel with the same outside. Errors: an invalid
/// pattern, a transform count other than the panels', a file that cannot be written.
Result<std::string> writeAamaDxf(const Pattern& pattern, const std::vector<PanelTransform>& transforms,
                                 const std::filesystem::path& dxf);

}  // namespace hg
