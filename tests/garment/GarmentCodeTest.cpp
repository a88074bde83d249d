// GarmentCode JSON patterns (sim/garment/GarmentCode.h): curves against their analytic
// form, units, the Euler convention, the mirror of clockwise panels, stitches, placement
// by the file's transforms, and each bad-file error naming the file and the key.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <ostream>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "sim/garment/GarmentCode.h"
#include "sim/garment/PanelMesher.h"
#include "sim/garment/Patterns.h"
#include "sim/geometry/CgalGeometry.h"
#include "tests/garment/GarmentFixtures.h"

namespace hg {
namespace {

using json = nlohmann::json;

/// A square panel of side 40 (cm) at height 100 cm, counter-clockwise, with `top`
/// (from (20, 0) to (-20, 0)) as its top edge's entry.
json squarePanel(const json& top, const json& translation = {0.0, 100.0, 30.0}) {
  return {{"translation", translation},
          {"rotation", {0.0, 0.0, 0.0}},
          {"vertices", {{-20.0, 0.0}, {-20.0, -40.0}, {20.0, -40.0}, {20.0, 0.0}}},
          {"edges", {{{"endpoints", {0, 1}}}, {{"endpoints", {1, 2}}}, {{"endpoints", {2, 3}}}, top}}};
}

json spec(const json& panels, const json& stitches = json::array()) {
  return {{"pattern", {{"panels", panels}, {"stitches", stitches}}},
          {"properties", {{"curvature_coords", "relative"}, {"units_in_meter", 100}}}};
}

Result<PatternFile> parse(const json& file, const GarmentCodeOptions& options = {}) {
  return parseGarmentCode(file.dump(), "my_pattern.json", options);
}

const PanelEdge& edge(const PatternFile& f, int panel, int e) {
  return f.pattern.panels[std::size_t(panel)].edges[std::size_t(e)];
}

// A circle edge (radius 25 cm over a 40 cm chord, small arc) keeps every sample on its
// circle and bulges to the right of start -> end by the sagitta r - sqrt(r^2 - (c/2)^2):
// travelling -x along the top, "right" is +y (up, out of the square).
TEST(GarmentCode, ACircleEdgeIsItsArcOnTheSideItNames) {
  for (int right : {1, 0}) {
    auto f = parse(spec({{"a", squarePanel({{"endpoints", {3, 0}},
                                            {"curvature", {{"type", "circle"}, {"params", {25.0, 0, right}}}}})}}));
    ASSERT_TRUE(f) << f.error().message;
    const double sagitta = 0.25 - std::sqrt(0.25 * 0.25 - 0.2 * 0.2);  // 0.10 m
    const glm::dvec2 centre(0.0, right ? -(0.25 - sagitta) : (0.25 - sagitta));
    double extreme = 0.0;
    for (glm::vec2 p : edge(*f, 0, 3).points) {
      EXPECT_NEAR(glm::distance(glm::dvec2(p), centre), 0.25, 1e-6);
      extreme = right ? std::max(extreme, double(p.y)) : std::min(extreme, double(p.y));
    }
    EXPECT_NEAR(extreme, right ? sagitta : -sagitta, 2e-4) << "right " << right;
  }
}

// Quadratic and cubic control points relative to the edge: x along start -> end, y along
// its left normal (-d.y, d.x), both in edge lengths. On the top edge (d = (-40, 0) cm) the
// left normal is (0, -40): y = -0.25 puts a quadratic's control point 10 cm above the
// edge, and the curve's midpoint half as far, 5 cm (B(1/2) = (P0 + 2 P1 + P2) / 4).
TEST(GarmentCode, BezierEdgesFollowTheirRelativeControlPoints) {
  auto quadratic =
      parse(spec({{"a", squarePanel({{"endpoints", {3, 0}},
                                     {"curvature", {{"type", "quadratic"}, {"params", {{0.5, -0.25}}}}}})}}));
  ASSERT_TRUE(quadratic) << quadratic.error().message;
  float top = 0.0f;
  for (glm::vec2 p : edge(*quadratic, 0, 3).points) top = std::max(top, p.y);
  EXPECT_NEAR(top, 0.05f, 1e-4f);
  // The older form, a bare [x, y], is the same quadratic.
  auto bare = parse(spec({{"a", squarePanel({{"endpoints", {3, 0}}, {"curvature", {0.5, -0.25}}})}}));
  ASSERT_TRUE(bare) << bare.error().message;
  EXPECT_EQ(edge(*bare, 0, 3).points, edge(*quadratic, 0, 3).points);
  // A symmetric cubic (controls at 1/4 and 3/4, both 10 cm up): B(1/2) = 3/4 of 10 cm.
  auto cubic = parse(
      spec({{"a", squarePanel({{"endpoints", {3, 0}},
                               {"curvature", {{"type", "cubic"}, {"params", {{0.25, -0.25}, {0.75, -0.25}}}}}})}}));
  ASSERT_TRUE(cubic) << cubic.error().message;
  top = 0.0f;
  for (glm::vec2 p : edge(*cubic, 0, 3).points) top = std::max(top, p.y);
  EXPECT_NEAR(top, 0.075f, 1e-4f);
  // Every curve's segments are at most the sample length (5 mm).
  for (const PanelEdge& e : cubic->pattern.panels[0].edges)
    for (std::size_t i = 1; i < e.points.size(); ++i)
      EXPECT_LE(glm::distance(e.points[i - 1], e.points[i]), 0.4f + 1e-6f);
  for (std::size_t i = 1; i < edge(*cubic, 0, 3).points.size(); ++i)
    EXPECT_LE(glm::distance(edge(*cubic, 0, 3).points[i - 1], edge(*cubic, 0, 3).points[i]), 0.005f);
}

// units_in_meter scales panels and translations: the same numbers in millimetres are a
// tenth of the size and placed a tenth as far.
TEST(GarmentCode, UnitsInMeterScalesPanelsAndTranslations) {
  json file = spec({{"a", squarePanel({{"endpoints", {3, 0}}})}});
  auto cm = parse(file);
  file["properties"]["units_in_meter"] = 1000;
  auto mm = parse(file);
  ASSERT_TRUE(cm && mm);
  EXPECT_NEAR(cm->pattern.panels[0].area(), 0.16, 1e-7);
  EXPECT_NEAR(mm->pattern.panels[0].area(), 0.0016, 1e-9);
  EXPECT_NEAR(mm->transforms[0].translation.y, 0.1f, 1e-7f);
}

// rotation is Rz Ry Rx of the angles in degrees (GarmentCode's euler_xyz_to_R): with
// [90, 90, 0] the panel's +y turns to +z under Rx, then to +x under Ry.
TEST(GarmentCode, RotationIsRzRyRxInDegrees) {
  json panel = squarePanel({{"endpoints", {3, 0}}}, {0.0, 0.0, 0.0});
  panel["rotation"] = {90.0, 90.0, 0.0};
  auto f = parse(spec({{"a", panel}}));
  ASSERT_TRUE(f) << f.error().message;
  const glm::vec3 up = f->transforms[0].apply({0.0f, 1.0f});
  EXPECT_NEAR(up.x, 1.0f, 1e-6f);
  EXPECT_NEAR(up.y, 0.0f, 1e-6f);
  EXPECT_NEAR(up.z, 0.0f, 1e-6f);
}

// scenes/patterns/aline_skirt_specification.json: the back panel is clockwise in its plane
// (as GarmentCode writes a back panel with rotation 0). It is mirrored into this project's
// counter-clockwise convention with the mirror in its transform, so every corner lands
// where the file puts it; its stitches join end to start (reversed).
TEST(GarmentCode, AClockwisePanelIsMirroredWhereverItIsPlaced) {
  auto f = readGarmentCode(std::filesystem::path(HG_SOURCE_DIR) / "scenes/patterns/aline_skirt_specification.json");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->pattern.name, "aline_skirt_specification");
  ASSERT_EQ(f->pattern.panels.size(), 2u);
  EXPECT_EQ(f->pattern.panels[1].name, "skirt_back");
  EXPECT_EQ(f->mirroredPanels, std::vector<std::string>{"skirt_back"});
  for (const Panel& p : f->pattern.panels) EXPECT_GT(p.area(), 0.0) << p.name;
  // The back's vertex 2 is (36, -55) cm in the file, at translation (0, 105, -17) cm.
  const glm::vec3 corner = f->transforms[1].apply(edge(*f, 1, 2).points.front());
  EXPECT_NEAR(corner.x, 0.36f, 1e-6f);
  EXPECT_NEAR(corner.y, 0.50f, 1e-6f);
  EXPECT_NEAR(corner.z, -0.17f, 1e-6f);
  ASSERT_EQ(f->pattern.seams.size(), 2u);
  for (const Seam& s : f->pattern.seams) {
    EXPECT_TRUE(s.reversed) << s.name;
    // Sewn ends meet in 3D: the start of one edge is where the other ends.
    const glm::vec3 a = f->transforms[std::size_t(s.panelA)].apply(edge(*f, s.panelA, s.edgeA).points.front());
    const glm::vec3 b = f->transforms[std::size_t(s.panelB)].apply(edge(*f, s.panelB, s.edgeB).points.back());
    EXPECT_NEAR(a.x, b.x, 1e-6f) << s.name;
    EXPECT_NEAR(a.y, b.y, 1e-6f) << s.name;
  }
  EXPECT_EQ(f->pattern.seams[0].name, "skirt_front.e0+skirt_back.e3");
}

// placeByTransforms: a panel that the file puts partly inside the body is pushed out
// through the nearest surface to the clearance; the rest stays where the file put it.
TEST(GarmentCode, PlacementByTransformsPushesOutOnlyWhatIsInside) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, 45.0f);
  const TriangleMesh body = test::syntheticBody(s, frame);
  auto query = cgal::ClosedMeshQuery::create(body);
  ASSERT_TRUE(query) << query.error().message;
  // A 40 cm square facing +z at the chest, 5 cm in front of the torso's centre line: its
  // middle is inside the torso, its corners (20 cm out to the sides) are not.
  auto f = parse(spec({{"a", squarePanel({{"endpoints", {3, 0}}}, {0.0, 100.0 * s.chestHeight + 20.0, 5.0})}}));
  ASSERT_TRUE(f) << f.error().message;
  MeshingOptions meshing;
  meshing.targetEdgeLength = 0.03f;
  auto meshes = meshPattern(f->pattern, meshing);
  ASSERT_TRUE(meshes) << meshes.error().message;
  PlacementOptions options;
  options.clearance = 0.01f;
  auto placed = placeByTransforms(f->pattern, *meshes, f->transforms, body, options);
  ASSERT_TRUE(placed) << placed.error().message;
  EXPECT_GT(placed->pushedVertices, 0);
  int unmoved = 0;
  for (std::size_t v = 0; v < placed->panelPositions[0].size(); ++v) {
    const glm::vec3 p = placed->panelPositions[0][v];
    EXPECT_FALSE(query->inside(p));
    EXPECT_GE(glm::distance(p, query->closestPoint(p)), 0.0099f);
    unmoved += p == f->transforms[0].apply(glm::vec2(meshes->panels[0].mesh.positions[v])) ? 1 : 0;
  }
  EXPECT_GT(unmoved, 0);
  EXPECT_GE(placed->minClearance, 0.0099f);
}

// right_wrong stitches start to start.
TEST(GarmentCode, ARightWrongStitchIsNotReversed) {
  json file = spec(
      {{"a", squarePanel({{"endpoints", {3, 0}}})}, {"b", squarePanel({{"endpoints", {3, 0}}}, {0.0, 100.0, -30.0})}},
      {{{{"panel", "a"}, {"edge", 0}}, {{"panel", "b"}, {"edge", 2}}, "right_wrong"}});
  auto f = parse(file);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->pattern.seams.size(), 1u);
  EXPECT_FALSE(f->pattern.seams[0].reversed);
}

struct BadFile {
  const char* name;
  json file;
  const char* key;      ///< in the message, after the file's name
  const char* message;  ///< in the message
};

void PrintTo(const BadFile& bad, std::ostream* os) { *os << bad.name; }

json withUnits(json file, const json& units) {
  if (units.is_null())
    file["properties"].erase("units_in_meter");
  else
    file["properties"]["units_in_meter"] = units;
  return file;
}

json twoSquares(const json& stitch) {
  return spec(
      {{"a", squarePanel({{"endpoints", {3, 0}}})}, {"b", squarePanel({{"endpoints", {3, 0}}}, {0.0, 100.0, -30.0})}},
      json::array({stitch}));
}

std::vector<BadFile> badFiles() {
  json open = spec({{"a", squarePanel({{"endpoints", {3, 0}}})}});
  open["pattern"]["panels"]["a"]["edges"][2]["endpoints"] = {2, 1};
  json longer = twoSquares({{{"panel", "a"}, {"edge", 0}}, {{"panel", "b"}, {"edge", 2}}});
  longer["pattern"]["panels"]["a"]["vertices"][1] = {-20.0, -42.0};  // edge 0: 42 cm against 40
  return {
      {"NoUnits", withUnits(spec({{"a", squarePanel({{"endpoints", {3, 0}}})}}), nullptr), "properties.units_in_meter",
       "is missing"},
      {"ZeroUnits", withUnits(spec({{"a", squarePanel({{"endpoints", {3, 0}}})}}), 0), "properties.units_in_meter",
       "must be in"},
      {"OpenOutline", open, "pattern.panels.a.edges[3].endpoints", "not one closed loop"},
      {"MissingPanel", twoSquares({{{"panel", "a"}, {"edge", 0}}, {{"panel", "c"}, {"edge", 2}}}),
       "pattern.stitches[0][1].panel", "no panel 'c'"},
      {"MissingEdge", twoSquares({{{"panel", "a"}, {"edge", 0}}, {{"panel", "b"}, {"edge", 7}}}),
       "pattern.stitches[0][1].edge", "has 4 edges"},
      {"LengthsDiffer", longer, "pattern.stitches[0]", "\"ease\": true"},
      {"UnknownCurve",
       spec({{"a",
              squarePanel({{"endpoints", {3, 0}}, {"curvature", {{"type", "spline"}, {"params", json::array()}}}})}}),
       "pattern.panels.a.edges[3].curvature.type", "unknown curve 'spline'"},
      {"ArcTooTight",
       spec(
           {{"a", squarePanel({{"endpoints", {3, 0}}, {"curvature", {{"type", "circle"}, {"params", {5.0, 0, 1}}}}})}}),
       "pattern.panels.a.edges[3].curvature.params", "less than half its chord"},
      {"HugePanel", withUnits(spec({{"a", squarePanel({{"endpoints", {3, 0}}})}}), 1), "pattern.panels.a.vertices",
       "check properties.units_in_meter"},
  };
}

class BadGarmentCode : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadGarmentCode, IsRefusedNamingTheFileAndTheKey) {
  auto f = parse(GetParam().file);
  ASSERT_FALSE(f);
  const std::string& m = f.error().message;
  EXPECT_EQ(m.rfind("my_pattern.json: ", 0), 0u) << m;
  EXPECT_NE(m.find(GetParam().key), std::string::npos) << m;
  EXPECT_NE(m.find(GetParam().message), std::string::npos) << m;
}

INSTANTIATE_TEST_SUITE_P(GarmentCode, BadGarmentCode, ::testing::ValuesIn(badFiles()),
                         [](const auto& param) { return std::string(param.param.name); });

TEST(GarmentCode, EaseSewsEdgesOfDifferentLengths) {
  json longer = twoSquares({{{"panel", "a"}, {"edge", 0}}, {{"panel", "b"}, {"edge", 2}}});
  longer["pattern"]["panels"]["a"]["vertices"][1] = {-20.0, -42.0};
  GarmentCodeOptions options;
  options.ease = true;
  auto f = parse(longer, options);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->pattern.seams.size(), 1u);
  // The mesher takes the eased seam too, with the same vertex count on both edges.
  MeshingOptions meshing;
  meshing.targetEdgeLength = 0.05f;
  EXPECT_FALSE(meshPattern(f->pattern, meshing));
  EXPECT_EQ(f->seamLengthTolerance, std::numeric_limits<double>::infinity());  // what dressing meshes it with
  meshing.seamLengthTolerance = f->seamLengthTolerance;
  auto meshes = meshPattern(f->pattern, meshing);
  ASSERT_TRUE(meshes) << meshes.error().message;
  EXPECT_EQ(meshes->panels[0].edgeVertices[0].size(), meshes->panels[1].edgeVertices[2].size());
  EXPECT_FALSE(parseGarmentCode("{\"pattern\": ", "broken.json"));
  auto missing = readGarmentCode("/nonexistent/pattern.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("/nonexistent/pattern.json"), std::string::npos);
}

}  // namespace
}  // namespace hg

namespace hg {
namespace {

/// The smallest distance (m) from q to the polyline.
double distanceToPolyline(glm::dvec2 q, const std::vector<glm::vec2>& points) {
  double best = INFINITY;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const glm::dvec2 a(points[i - 1]), b(points[i]);
    const double t = std::clamp(glm::dot(q - a, b - a) / std::max(glm::dot(b - a, b - a), 1e-300), 0.0, 1.0);
    best = std::min(best, glm::distance(q, a + t * (b - a)));
  }
  return best;
}

// Every built-in block written as GarmentCode and read back: the same panels (each
// original outline point read back, every point read back on the original outline,
// within 1e-6 m; areas equal), placed where the layout put them, and seams of equal
// length on both sides (the pieces of a seam are stitched in order).
TEST(GarmentCode, EveryBuiltInBlockRoundTrips) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, 45.0f);
  SkirtOptions darts;
  darts.dartIntake = 0.02f;
  for (auto drafted : {tShirt(s), skirt(s), skirt(s, darts), trousers(s), dress(s)}) {
    ASSERT_TRUE(drafted) << drafted.error().message;
    const Pattern& original = *drafted;
    const std::vector<PanelTransform> layout = blockLayout(original, frame);
    auto text = writeGarmentCode(original, layout);
    ASSERT_TRUE(text) << text.error().message;
    auto back = parseGarmentCode(*text, original.name);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->pattern.panels.size(), original.panels.size()) << original.name;
    EXPECT_TRUE(back->mirroredPanels.empty());
    // Each seam, written as a run of stitches between pieces, is read back as one seam, and
    // every panel's region comes back (placement around the body can wrap it).
    EXPECT_EQ(back->pattern.seams.size(), original.seams.size()) << original.name;
    EXPECT_TRUE(back->regionsGiven()) << original.name;
    for (std::size_t p = 0; p < original.panels.size(); ++p)
      EXPECT_EQ(back->pattern.panels[p].region, original.panels[p].region) << original.panels[p].name;
    for (std::size_t p = 0; p < original.panels.size(); ++p) {
      const Panel& a = original.panels[p];
      const Panel& b = back->pattern.panels[p];
      EXPECT_EQ(a.name, b.name);
      EXPECT_NEAR(a.area(), b.area(), 1e-7) << a.name;  // float points: 1e-6 m on a 2 m outline
      const std::vector<glm::vec2> outlineA = a.outline(), outlineB = b.outline();
      std::vector<glm::vec2> closedA = outlineA, closedB = outlineB;
      closedA.push_back(outlineA.front());
      closedB.push_back(outlineB.front());
      for (glm::vec2 q : outlineA) EXPECT_LT(distanceToPolyline(glm::dvec2(q), closedB), 1e-6) << a.name;
      for (glm::vec2 q : outlineB) EXPECT_LT(distanceToPolyline(glm::dvec2(q), closedA), 1e-6) << a.name;
      const glm::vec3 placedA = layout[p].apply(outlineA[1]), placedB = back->transforms[p].apply(outlineA[1]);
      EXPECT_LT(glm::distance(placedA, placedB), 1e-5f) << a.name;
    }
    // Each original seam's length is the sum of its stitched pieces on either side.
    double sewnOriginal = 0.0, sewnBack = 0.0;
    for (const Seam& seam : original.seams)
      sewnOriginal += original.panels[std::size_t(seam.panelA)].edges[std::size_t(seam.edgeA)].length();
    for (const Seam& seam : back->pattern.seams) {
      const double a = back->pattern.panels[std::size_t(seam.panelA)].edges[std::size_t(seam.edgeA)].length();
      const double b = back->pattern.panels[std::size_t(seam.panelB)].edges[std::size_t(seam.edgeB)].length();
      EXPECT_NEAR(a, b, 1e-5) << seam.name;
      sewnBack += a;
    }
    EXPECT_NEAR(sewnBack, sewnOriginal, 1e-5) << original.name;
  }
}

}  // namespace
}  // namespace hg
