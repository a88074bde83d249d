#pragma once
/// A 2D sewing pattern: flat panels (closed outlines made of named edges) and the seams
/// that join an edge of one panel to an edge of another point to point.
///
/// Panel plane conventions (all generators in sim/garment/Patterns.h follow them, and
/// placement (Placement.h) relies on them):
/// - metres; the outline is counter-clockwise seen from the OUTSIDE of the garment (the
///   side away from the body), so every placed triangle faces away from the body and two
///   panels sewn along an edge traverse it in opposite directions (Seam::reversed).
/// - grain line = panel +y (straight grain along the length of the piece, as drafted in
///   Aldrich, "Metric Pattern Cutting", 6th ed., ch. 1). UV u runs along the grain, so the
///   warp is the anisotropy texture's R channel (sim/kernels/anisotropy.glslh: warp along
///   +u): uv = (y, -x) / textureScale, an orientation-preserving rotation.
/// - torso and leg panels: x = arc length (m) from the centre line (centre front for
///   front panels, centre back for back panels), +x toward the viewer's right looking at
///   the outside; y = height above the floor (m) when worn.
/// - sleeve panels: y = distance (m) along the arm from the shoulder point, 0 at the cap
///   crown, negative toward the wrist; x = arc length around the arm from the crown line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>

#include "sim/core/Result.h"

namespace hg {

/// Body measurements a garment is sized from (metres, heights above the floor, the
/// body standing upright). Defaults: an average adult man (ISO 8559-1 definitions;
/// values close to ISO/TR 10652 size 100 chest).
struct GarmentSizing {
  float chestGirth = 1.00f;      ///< around the fullest part of the chest, under the arms
  float waistGirth = 0.86f;      ///< natural waist
  float hipGirth = 1.00f;        ///< fullest part of the seat
  float neckGirth = 0.39f;       ///< base of the neck
  float shoulderHeight = 1.46f;  ///< acromion (shoulder point)
  float chestHeight = 1.30f;     ///< chest girth line
  float waistHeight = 1.08f;     ///< natural waist line
  float hipHeight = 0.92f;       ///< hip (seat) girth line
  float crotchHeight = 0.82f;    ///< crotch (inside leg length)
  float kneeHeight = 0.50f;      ///< middle of the knee cap
  float ankleHeight = 0.08f;     ///< ankle bone
  float shoulderWidth = 0.45f;   ///< acromion to acromion, straight across the back
  float armLength = 0.62f;       ///< acromion to wrist along the arm
  float upperArmGirth = 0.31f;   ///< biceps
  float thighGirth = 0.58f;      ///< just below the crotch

  /// Checks positivity and the height order ankle < knee < crotch < hip < waist < chest
  /// < shoulder; the error names the measurement.
  Status validate() const;
  /// Every length scaled by `factor` (a proportionally larger or smaller body).
  GarmentSizing scaled(float factor) const;
};

/// One named edge of a panel outline: a polyline from the edge's first point to its last
/// (the next edge starts where this one ends).
struct PanelEdge {
  std::string name;
  std::vector<glm::vec2> points;  ///< >= 2 points, metres, panel plane

  double length() const;  ///< arc length, m
};

/// Where a panel goes on the body (selects the placement surface, Placement.h).
enum class BodyRegion {
  TorsoFront,
  TorsoBack,
  LeftArm,
  RightArm,
  LeftLegFront,
  LeftLegBack,
  RightLegFront,
  RightLegBack
};

/// The region's name in pattern files: "torso_front", "torso_back", "left_arm",
/// "right_arm", "left_leg_front", "left_leg_back", "right_leg_front", "right_leg_back".
std::string_view bodyRegionName(BodyRegion region);
/// The region of a name of bodyRegionName, or none.
std::optional<BodyRegion> parseBodyRegion(std::string_view name);

/// A flat piece of cloth.
struct Panel {
  std::string name;
  std::vector<PanelEdge> edges;  ///< counter-clockwise, closed: edges[i].back() == edges[i + 1].front()
  BodyRegion region = BodyRegion::TorsoFront;

  /// The closed outline (each edge's points without its last one), counter-clockwise.
  std::vector<glm::vec2> outline() const;
  /// Signed area (m^2, > 0 counter-clockwise).
  double area() const;
  /// Index of the edge called `name`, or -1.
  int edgeIndex(const std::string& edgeName) const;
  /// Extent (max x - min x, m) of the outline along the horizontal line at height y:
  /// the panel's width at that height (0 if the line misses the panel).
  double widthAt(double y) const;
};

/// Edge `edgeA` of panel `panelA` is sewn to edge `edgeB` of panel `panelB` point to
/// point: the point at arc-length fraction t on A meets the point at t on B, or at 1 - t
/// when `reversed` (the usual case for two panels both counter-clockwise seen from
/// outside). A panel may be sewn to itself (a sleeve's underarm seam).
struct Seam {
  std::string name;
  int panelA = 0, edgeA = 0;
  int panelB = 0, edgeB = 0;
  bool reversed = true;
};

struct Pattern {
  std::string name;
  std::vector<Panel> panels;
  std::vector<Seam> seams;

  /// Index of the panel called `name`, or -1.
  int panelIndex(const std::string& panelName) const;
  /// Adds a seam between named panels and edges (asserts that they exist).
  void sew(const std::string& seamName, const std::string& panelA, const std::string& edgeA, const std::string& panelB,
           const std::string& edgeB, bool reversed = true);

  /// Checks: unique panel and seam names, unique edge names per panel, every edge with
  /// >= 2 points and positive length, outlines closed (consecutive edges meet within
  /// 1e-6 m), counter-clockwise and simple (no two non-adjacent segments touch), seams
  /// referring to existing panels/edges, no edge in two seams or sewn to itself, and
  /// seam edge lengths equal within `lengthTolerance` (m). Errors name the panel/seam.
  Status validate(double lengthTolerance = 0.003) const;
};

}  // namespace hg
