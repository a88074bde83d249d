// DXF-AAMA patterns (sim/garment/AamaDxf.h): the hand-written skirt's outlines, bulge
// arcs against their circle, vendor variants (chained or closed outlines, clockwise
// pieces, graded sizes, units), grain, edge ranges, mirrored instances, round trips of
// every built-in block, and each bad-file error naming the file and the block or key.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "sim/garment/AamaDxf.h"
#include "sim/garment/Patterns.h"
#include "tests/garment/GarmentFixtures.h"

namespace hg {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const fs::path kSkirt = fs::path(HG_SOURCE_DIR) / "scenes/patterns/flared_skirt.dxf";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A small DXF written group by group (R12 entities).
class Dxf {
 public:
  Dxf& group(int code, const std::string& value) {
    m_text << code << "\n" << value << "\n";
    return *this;
  }
  Dxf& group(int code, double value) { return group(code, std::to_string(value)); }
  Dxf& header(const std::string& variable, int value) {
    m_header += "9\n" + variable + "\n70\n" + std::to_string(value) + "\n";
    return *this;
  }
  Dxf& block(const std::string& name, const std::vector<std::string>& texts = {}) {
    group(0, "BLOCK").group(8, "0").group(2, name).group(70, "0").group(10, 0.0).group(20, 0.0);
    for (const std::string& t : texts) text(t, 1);
    return *this;
  }
  Dxf& endBlock() { return group(0, "ENDBLK"); }
  Dxf& text(const std::string& t, int layer = 1) {
    return group(0, "TEXT").group(8, std::to_string(layer)).group(10, 0.0).group(20, 0.0).group(40, 5.0).group(1, t);
  }
  /// A polyline through `points`, each with its bulge (0: straight).
  Dxf& polyline(int layer, const std::vector<glm::dvec2>& points, bool closed, const std::vector<double>& bulges = {}) {
    group(0, "POLYLINE").group(8, std::to_string(layer)).group(66, "1").group(70, closed ? "1" : "0");
    for (std::size_t i = 0; i < points.size(); ++i) {
      group(0, "VERTEX").group(8, std::to_string(layer)).group(10, points[i].x).group(20, points[i].y);
      if (i < bulges.size() && bulges[i] != 0.0) group(42, bulges[i]);
    }
    return group(0, "SEQEND");
  }
  Dxf& point(int layer, glm::dvec2 p) {
    return group(0, "POINT").group(8, std::to_string(layer)).group(10, p.x).group(20, p.y);
  }
  Dxf& line(int layer, glm::dvec2 a, glm::dvec2 b) {
    return group(0, "LINE").group(8, std::to_string(layer)).group(10, a.x).group(20, a.y).group(11, b.x).group(21, b.y);
  }
  /// The whole file: header, the blocks written so far, then `entities` (system texts).
  std::string str(const std::vector<std::string>& entities = {"Units: METRIC"}) const {
    std::ostringstream out;
    out << "0\nSECTION\n2\nHEADER\n"
        << m_header << "0\nENDSEC\n0\nSECTION\n2\nBLOCKS\n"
        << m_text.str() << "0\nENDSEC\n0\nSECTION\n2\nENTITIES\n";
    for (const std::string& t : entities) out << "0\nTEXT\n8\n1\n10\n0\n20\n0\n40\n5\n1\n" << t << "\n";
    out << "0\nENDSEC\n0\nEOF\n";
    return out.str();
  }

 private:
  std::ostringstream m_text;
  std::string m_header;
};

/// A 200 x 100 (file units) rectangle piece with turn points at its corners, drawn
/// counter-clockwise from (0, 0), or clockwise.
Dxf& rectangle(Dxf& dxf, const std::string& name, bool clockwise = false, std::vector<std::string> texts = {}) {
  std::vector<glm::dvec2> corners{{0, 0}, {200, 0}, {200, 100}, {0, 100}};
  if (clockwise) std::reverse(corners.begin() + 1, corners.end());
  texts.insert(texts.begin(), "Piece Name: " + name);
  dxf.block(name + "_B", texts).polyline(1, corners, true);
  for (glm::dvec2 c : corners) dxf.point(2, c);
  return dxf.endBlock();
}

json placedAt(double z, double ry = 0.0) { return {{"rotation", {0, ry, 0}}, {"translation", {0.0, 1.0, z}}}; }

Result<PatternFile> parse(const std::string& dxf, const json& sidecar, const PatternReadOptions& options = {}) {
  return parseAamaDxf(dxf, "p.dxf", sidecar.dump(), "p.seams.json", options);
}

// The shipped hand-written skirt: a front drawn as four open polylines (Gerber style), a
// back as one closed clockwise polyline (read counter-clockwise, same first vertex),
// bulged hems and waists, side seams of equal length, the pieces where the sidecar puts them.
TEST(AamaDxf, TheHandWrittenSkirtReadsAsDrawn) {
  auto f = readAamaDxf(kSkirt, aamaSidecarPath(kSkirt));
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->pattern.name, "flared_skirt");
  ASSERT_EQ(f->pattern.panels.size(), 2u);
  ASSERT_EQ(f->pattern.seams.size(), 2u);
  for (const Panel& p : f->pattern.panels) {
    ASSERT_EQ(p.edges.size(), 4u) << p.name;
    EXPECT_GT(p.area(), 0.0) << p.name;
    EXPECT_EQ(p.edges[0].points.front(), glm::vec2(-0.2f, 0.0f)) << p.name;  // the first vertex stays first
    EXPECT_NEAR(p.edges[0].length(), std::hypot(0.16, 0.55), 1e-6) << p.name;
  }
  const int front = f->pattern.panelIndex("SKIRT_FRONT"), back = f->pattern.panelIndex("SKIRT_BACK");
  ASSERT_GE(front, 0);
  ASSERT_GE(back, 0);
  EXPECT_LT(glm::distance(f->transforms[std::size_t(front)].translation, glm::vec3(0.0f, 1.05f, 0.17f)), 1e-6f);
  // The back faces -z: the drawing's +x goes to world -x.
  EXPECT_LT(glm::distance(f->transforms[std::size_t(back)].apply({1.0f, 0.0f}), glm::vec3(-1.0f, 1.05f, -0.17f)),
            1e-5f);
}

// A bulge b on the segment from p to q is the arc of included angle 4 atan(b), bulging to
// the right of p -> q for b > 0: the front's hem (b = 0.1423 over a 720 mm chord) keeps
// every sample on its circle and sags by b c / 2 below the chord.
TEST(AamaDxf, ABulgeIsItsArc) {
  auto f = readAamaDxf(kSkirt, aamaSidecarPath(kSkirt));
  ASSERT_TRUE(f) << f.error().message;
  const PanelEdge& hem = f->pattern.panels[std::size_t(f->pattern.panelIndex("SKIRT_FRONT"))].edges[1];
  const double b = 0.1423, chord = 0.72, angle = 4.0 * std::atan(b);
  const double radius = chord / (2.0 * std::sin(0.5 * angle)), sagitta = 0.5 * b * chord;
  const glm::dvec2 centre(0.0, -0.55 - sagitta + radius);
  double lowest = 0.0;
  for (glm::vec2 q : hem.points) {
    EXPECT_NEAR(glm::distance(glm::dvec2(q), centre), radius, 1e-6);
    lowest = std::min(lowest, double(q.y));
  }
  EXPECT_NEAR(lowest, -0.55 - sagitta, 1e-4);
  EXPECT_GT(hem.points.size(), 100u);  // sampled at 5 mm
}

// Units: the "Units:" text (METRIC mm, ENGLISH inch), else $INSUNITS, else the sidecar's,
// else a clear error; the sidecar's overrides the file's.
TEST(AamaDxf, UnitsComeFromTheTextTheHeaderOrTheSidecar) {
  Dxf dxf;
  rectangle(dxf, "A");
  const json sidecar = {{"pieces", {{"A", placedAt(0.2)}}}};
  const auto width = [](const Result<PatternFile>& f) { return f->pattern.panels[0].edges[0].length(); };
  auto mm = parse(dxf.str({"Units: METRIC"}), sidecar);
  ASSERT_TRUE(mm) << mm.error().message;
  EXPECT_NEAR(width(mm), 0.2, 1e-7);
  auto inch = parse(dxf.str({"UNITS: english"}), sidecar);
  ASSERT_TRUE(inch) << inch.error().message;
  EXPECT_NEAR(width(inch), 200 * 0.0254, 1e-6);
  Dxf cm;
  rectangle(cm.header("$INSUNITS", 5), "A");
  auto header = parse(cm.str({}), sidecar);
  ASSERT_TRUE(header) << header.error().message;
  EXPECT_NEAR(width(header), 2.0, 1e-6);
  json override = sidecar;
  override["units"] = "cm";
  auto given = parse(dxf.str({"Units: METRIC"}), override);
  ASSERT_TRUE(given) << given.error().message;
  EXPECT_NEAR(width(given), 2.0, 1e-6);
  auto none = parse(dxf.str({}), sidecar);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("p.dxf: unknown units"), std::string::npos) << none.error().message;
  auto odd = parse(dxf.str({"Units: FURLONGS"}), sidecar);
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("unknown units 'FURLONGS'"), std::string::npos) << odd.error().message;
}

// A graded file has one block per piece and size: the sidecar's size, else the style's
// sample size; neither names the sizes.
TEST(AamaDxf, AGradedFileGivesTheChosenSize) {
  Dxf dxf;
  rectangle(dxf, "A", false, {"Size: S"});
  dxf.block("A_M", {"Piece Name: A", "Size: M"}).polyline(1, {{0, 0}, {300, 0}, {300, 100}, {0, 100}}, true).endBlock();
  const json sidecar = {{"pieces", {{"A", placedAt(0.2)}}}};
  auto sample = parse(dxf.str({"Units: METRIC", "Sample Size: M"}), sidecar);
  ASSERT_TRUE(sample) << sample.error().message;
  EXPECT_NEAR(sample->pattern.panels[0].area(), 0.03, 1e-8);
  json small = sidecar;
  small["size"] = "S";
  auto chosen = parse(dxf.str(), small);
  ASSERT_TRUE(chosen) << chosen.error().message;
  EXPECT_NEAR(chosen->pattern.panels[0].area(), 0.02, 1e-8);
  auto neither = parse(dxf.str(), sidecar);
  ASSERT_FALSE(neither);
  EXPECT_NE(neither.error().message.find("piece 'A' comes in sizes M, S"), std::string::npos)
      << neither.error().message;
}

// The outline: the sew line (layer 14) when it is one closed loop, else the boundary; an
// open sew line (drawn per seam) is passed over by "auto" and refused by "sew".
TEST(AamaDxf, TheSewLineIsTheOutlineWhenItIsALoop) {
  Dxf dxf;
  dxf.block("A_B", {"Piece Name: A"})
      .polyline(1, {{0, 0}, {200, 0}, {200, 100}, {0, 100}}, true)
      .polyline(14, {{10, 10}, {190, 10}, {190, 90}, {10, 90}}, true)
      .endBlock();
  dxf.block("B_B", {"Piece Name: B"})
      .polyline(1, {{0, 0}, {200, 0}, {200, 100}, {0, 100}}, true)
      .polyline(14, {{10, 10}, {190, 10}}, false)
      .endBlock();
  const json sidecar = {{"pieces", {{"A", placedAt(0.2)}, {"B", placedAt(-0.2, 180)}}}};
  auto f = parse(dxf.str(), sidecar);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_NEAR(f->pattern.panels[std::size_t(f->pattern.panelIndex("A"))].area(), 0.18 * 0.08, 1e-9);  // sew line
  EXPECT_NEAR(f->pattern.panels[std::size_t(f->pattern.panelIndex("B"))].area(), 0.2 * 0.1, 1e-9);    // boundary
  json cut = sidecar;
  cut["outline"] = "cut";
  auto cutLines = parse(dxf.str(), cut);
  ASSERT_TRUE(cutLines) << cutLines.error().message;
  EXPECT_NEAR(cutLines->pattern.panels[std::size_t(cutLines->pattern.panelIndex("A"))].area(), 0.02, 1e-9);
  json sew = sidecar;
  sew["outline"] = "sew";
  auto sewLines = parse(dxf.str(), sew);
  ASSERT_FALSE(sewLines);
  EXPECT_NE(sewLines.error().message.find("p.dxf: block B_B: the outline on layer 14 is open"), std::string::npos)
      << sewLines.error().message;
}

// The grain line (layer 7) turns the piece so that it runs along panel +y; the turn is
// folded into the transform, so every point lands where the drawing put it.
TEST(AamaDxf, TheGrainLineBecomesPanelPlusY) {
  for (glm::dvec2 grain : {glm::dvec2(1, 1), glm::dvec2(1, 0), glm::dvec2(-1, -2)}) {
    Dxf dxf;
    dxf.block("A_B", {"Piece Name: A"})
        .polyline(1, {{0, 0}, {200, 0}, {200, 100}, {0, 100}}, true)
        .line(7, {100, 50}, glm::dvec2(100, 50) + 40.0 * grain)
        .endBlock();
    const json sidecar = {{"pieces", {{"A", placedAt(0.2)}}}};
    auto f = parse(dxf.str(), sidecar);
    ASSERT_TRUE(f) << f.error().message;
    const Panel& p = f->pattern.panels[0];
    // The drawing's (200, 0) - (0, 0) direction, turned: grain along +y means the drawn
    // grain direction d has panel direction (0, +-1).
    const glm::vec2 a = p.edges[0].points.front(), b = p.edges[0].points.back();  // drawn (0,0) -> (200,0)
    const glm::dvec2 d = glm::normalize(grain);
    const glm::dvec2 alongX = glm::normalize(glm::dvec2(b - a));
    EXPECT_NEAR(std::abs(alongX.y), std::abs(d.x), 1e-5);  // the drawn x axis makes the grain's angle with +y
    EXPECT_LT(glm::distance(f->transforms[0].apply(b), glm::vec3(0.2f, 1.0f, 0.2f)), 1e-5f);
    EXPECT_LT(glm::distance(f->transforms[0].apply(a), glm::vec3(0.0f, 1.0f, 0.2f)), 1e-5f);
  }
}

// "edges": [i, j] joins drawn edges i..j (wrapping) into one seam edge; a mirrored
// instance is the piece's mirror image, counter-clockwise, with the same edge numbers.
TEST(AamaDxf, EdgeRangesJoinAndMirroredInstancesKeepEdgeNumbers) {
  Dxf dxf;
  // An L-shaped piece, 6 corners: edges 0 (bottom), 1, 2, 3, 4, 5 (left).
  const std::vector<glm::dvec2> l{{0, 0}, {200, 0}, {200, 50}, {100, 50}, {100, 100}, {0, 100}};
  dxf.block("L_B", {"Piece Name: L"}).polyline(1, l, true);
  for (glm::dvec2 c : l) dxf.point(2, c);
  dxf.endBlock();
  const json sidecar = {
      {"pieces",
       {{"right", {{"piece", "L"}, {"rotation", {0, 0, 0}}, {"center", {0.0, 1.0, 0.2}}}},
        {"left", {{"piece", "L"}, {"mirror", true}, {"rotation", {0, 0, 0}}, {"center", {0.0, 1.0, -0.2}}}}}},
      {"seams",
       {{{"a", {{"piece", "right"}, {"edges", {1, 3}}}}, {"b", {{"piece", "left"}, {"edges", {1, 3}}}}},
        {{"name", "bottom"},
         {"a", {{"piece", "right"}, {"edges", {0, 0}}}},
         {"b", {{"piece", "left"}, {"edges", {0, 0}}}}}}}};
  auto f = parse(dxf.str(), sidecar);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->pattern.seams.size(), 2u);
  const Seam& joined = f->pattern.seams[0];
  const PanelEdge& a = f->pattern.panels[std::size_t(joined.panelA)].edges[std::size_t(joined.edgeA)];
  const PanelEdge& b = f->pattern.panels[std::size_t(joined.panelB)].edges[std::size_t(joined.edgeB)];
  EXPECT_NEAR(a.length(), 0.05 + 0.1 + 0.05, 1e-7);
  EXPECT_NEAR(b.length(), a.length(), 1e-7);
  EXPECT_EQ(a.name, "e1+e2+e3");
  EXPECT_EQ(f->pattern.seams[1].name, "bottom");
  const Panel& left = f->pattern.panels[std::size_t(f->pattern.panelIndex("left"))];
  const Panel& right = f->pattern.panels[std::size_t(f->pattern.panelIndex("right"))];
  EXPECT_GT(left.area(), 0.0);
  EXPECT_NEAR(left.area(), right.area(), 1e-9);
  EXPECT_EQ(left.edges.size(), 4u);  // e0, e1+e2+e3, e4, e5
  // The mirror: the right piece's drawn corner (200, 0) is at +x, the left's at -x.
  const auto extremeX = [](const Panel& p) {
    float lo = 1e9f, hi = -1e9f;
    for (glm::vec2 q : p.outline()) lo = std::min(lo, q.x), hi = std::max(hi, q.x);
    return std::pair{lo, hi};
  };
  EXPECT_NEAR(extremeX(left).first, -extremeX(right).second, 1e-6);
}

// Without "seams" in the sidecar, notches (layer 4) sew: two rectangles whose sides carry
// notches that meet when A's right side (edge 1) is sewn end to start to B's left side
// (edge 3); a POINT on A, a notch LINE on B drawn from its cut line inward. A notch 3 cm off
// the outline is not read; a third piece with B's notches makes the match ambiguous, named.
TEST(AamaDxf, NotchesSewEdgesWhenTheSidecarGivesNoSeams) {
  const auto drawn = [](bool third) {
    Dxf dxf;
    const std::vector<glm::dvec2> box{{0, 0}, {200, 0}, {200, 100}, {0, 100}};
    dxf.block("A_B", {"Piece Name: A"}).polyline(1, box, true);
    for (glm::dvec2 c : box) dxf.point(2, c);
    dxf.point(4, {200, 30});   // edge 1 runs up from (200, 0): 30 mm from its start
    dxf.point(4, {100, -30});  // 30 mm below the bottom edge: out of reach
    dxf.endBlock();
    const std::vector<std::string> others = third ? std::vector<std::string>{"B", "C"} : std::vector<std::string>{"B"};
    for (const std::string& name : others) {
      std::string title = "Piece Name: ";
      title += name;
      dxf.block(name + "_B", {title}).polyline(1, box, true);
      for (glm::dvec2 c : box) dxf.point(2, c);
      dxf.line(4, {0, 30}, {5, 30});  // edge 3 runs down from (0, 100): 70 mm from its start, 30 from its end
      dxf.endBlock();
    }
    return dxf.str();
  };
  json sidecar = {{"pieces",
                   {{"A", {{"rotation", {0, 0, 0}}, {"center", {0.0, 1.0, 0.2}}}},
                    {"B", {{"rotation", {0, 0, 0}}, {"center", {0.0, 1.0, -0.2}}}}}}};
  auto f = parse(drawn(false), sidecar);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->pattern.seams.size(), 1u);
  const Seam& seam = f->pattern.seams[0];
  EXPECT_EQ(f->pattern.panels[std::size_t(seam.panelA)].name, "A");
  EXPECT_EQ(seam.edgeA, 1);
  EXPECT_EQ(f->pattern.panels[std::size_t(seam.panelB)].name, "B");
  EXPECT_EQ(seam.edgeB, 3);
  EXPECT_TRUE(seam.reversed);  // end to start: right side to right side
  // An explicit empty list of seams sews nothing, notches or not.
  sidecar["seams"] = json::array();
  auto none = parse(drawn(false), sidecar);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->pattern.seams.empty());
  sidecar.erase("seams");
  sidecar["pieces"]["C"] = {{"rotation", {0, 0, 0}}, {"center", {0.5, 1.0, -0.2}}};
  auto ambiguous = parse(drawn(true), sidecar);
  ASSERT_FALSE(ambiguous);
  EXPECT_NE(
      ambiguous.error().message.find(
          "p.seams.json: seams: none given, and the notches of piece 'A' edge 1 match both piece 'B' edge 3 and piece "
          "'C' edge 3: list the seams in the sidecar"),
      std::string::npos)
      << ambiguous.error().message;
}

// The hand-written skirt's hip notches (layer-4 POINTs 160 mm below the waist on both sides
// of both pieces) sew the same side seams as its sidecar lists: each side's notches also
// meet the other side's of the same piece, and the other piece's edge is preferred.
TEST(AamaDxf, TheHandWrittenSkirtsNotchesGiveItsSeams) {
  json sidecar = json::parse(slurp(aamaSidecarPath(kSkirt)));
  auto listed = parseAamaDxf(slurp(kSkirt), kSkirt.string(), sidecar.dump(), "s");
  ASSERT_TRUE(listed) << listed.error().message;
  sidecar.erase("seams");
  auto notched = parseAamaDxf(slurp(kSkirt), kSkirt.string(), sidecar.dump(), "s");
  ASSERT_TRUE(notched) << notched.error().message;
  ASSERT_EQ(notched->pattern.seams.size(), 2u);
  for (const Seam& n : notched->pattern.seams) {
    const auto same = [&](const Seam& l) {  // sewn end to start, a and b may swap
      const bool direct = l.panelA == n.panelA && l.edgeA == n.edgeA && l.panelB == n.panelB && l.edgeB == n.edgeB;
      const bool swapped = l.panelA == n.panelB && l.edgeA == n.edgeB && l.panelB == n.panelA && l.edgeB == n.edgeA;
      return (direct || swapped) && l.reversed && n.reversed;
    };
    EXPECT_TRUE(std::any_of(listed->pattern.seams.begin(), listed->pattern.seams.end(), same))
        << n.panelA << "." << n.edgeA << " + " << n.panelB << "." << n.edgeB;
  }
}

// Every built-in block written as DXF-AAMA with its sidecar and read back: the same
// panels (every outline point within 1e-6 m, in order), the same seams (panels, edges,
// sides), each panel placed where the layout put it.
TEST(AamaDxf, EveryBuiltInBlockRoundTrips) {
  const GarmentSizing s;
  const BodyFrame frame = BodyFrame::fromSizing(s, 45.0f);
  const fs::path dir = fs::path(::testing::TempDir()) / "aama_round_trip";
  fs::create_directories(dir);
  SkirtOptions darts;
  darts.dartIntake = 0.02f;
  for (auto drafted : {tShirt(s), skirt(s, darts), trousers(s), dress(s)}) {
    ASSERT_TRUE(drafted) << drafted.error().message;
    const Pattern& original = *drafted;
    std::vector<PanelTransform> layout = blockLayout(original, frame);
    layout[0].rotation[0] = -layout[0].rotation[0];  // a mirrored transform: written as a rotation
    const fs::path path = dir / (original.name + ".dxf");
    auto sidecar = writeAamaDxf(original, layout, path);
    ASSERT_TRUE(sidecar) << sidecar.error().message;
    auto back = parseAamaDxf(slurp(path), path.string(), *sidecar, "sidecar");
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->pattern.panels.size(), original.panels.size()) << original.name;
    for (const Panel& a : original.panels) {
      const int at = back->pattern.panelIndex(a.name);
      ASSERT_GE(at, 0) << a.name;
      const Panel& b = back->pattern.panels[std::size_t(at)];
      EXPECT_EQ(a.region, b.region) << a.name;
      ASSERT_EQ(a.edges.size(), b.edges.size()) << a.name;
      for (std::size_t e = 0; e < a.edges.size(); ++e) {
        ASSERT_EQ(a.edges[e].points.size(), b.edges[e].points.size()) << a.name << " edge " << e;
        for (std::size_t i = 0; i < a.edges[e].points.size(); ++i)
          EXPECT_LT(glm::distance(glm::dvec2(a.edges[e].points[i]), glm::dvec2(b.edges[e].points[i])), 1e-6)
              << a.name << " edge " << e;
      }
      const std::size_t p = std::size_t(original.panelIndex(a.name));
      // Placed points agree; so does the outside (the image of a counter-clockwise triangle).
      const glm::vec2 q0 = a.outline()[0], q1 = a.outline()[1], q2 = a.outline()[2];
      const auto normal = [&](const PanelTransform& t) {
        return glm::normalize(glm::cross(t.apply(q1) - t.apply(q0), t.apply(q2) - t.apply(q0)));
      };
      const PanelTransform& tb = back->transforms[std::size_t(at)];
      EXPECT_LT(glm::distance(layout[p].apply(q1), tb.apply(q1)), 1e-5f) << a.name;
      EXPECT_LT(glm::distance(normal(layout[p]), normal(tb)), 1e-4f) << a.name;
    }
    EXPECT_TRUE(back->regionsGiven());
    // Without the sidecar's seams, the notches the writer drew sew the same seams (those
    // sewn end to start; start-to-start seams get no notches).
    json withoutSeams = json::parse(*sidecar);
    withoutSeams.erase("seams");
    auto notched = parseAamaDxf(slurp(path), path.string(), withoutSeams.dump(), "sidecar");
    ASSERT_TRUE(notched) << notched.error().message;
    const auto seamSet = [](const Pattern& p, bool onlyEndToStart) {
      std::set<std::pair<std::pair<std::string, int>, std::pair<std::string, int>>> set;
      for (const Seam& seam : p.seams) {
        if (onlyEndToStart && !seam.reversed) continue;
        auto a = std::pair{p.panels[std::size_t(seam.panelA)].name, seam.edgeA};
        auto b = std::pair{p.panels[std::size_t(seam.panelB)].name, seam.edgeB};
        set.insert(a < b ? std::pair{a, b} : std::pair{b, a});
      }
      return set;
    };
    EXPECT_FALSE(seamSet(original, true).empty()) << original.name;
    EXPECT_EQ(seamSet(notched->pattern, false), seamSet(original, true)) << original.name;
    ASSERT_EQ(back->pattern.seams.size(), original.seams.size());
    for (std::size_t k = 0; k < original.seams.size(); ++k) {
      const Seam &a = original.seams[k], &b = back->pattern.seams[k];
      EXPECT_EQ(a.name, b.name);
      EXPECT_EQ(original.panels[std::size_t(a.panelA)].name, back->pattern.panels[std::size_t(b.panelA)].name);
      EXPECT_EQ(original.panels[std::size_t(a.panelB)].name, back->pattern.panels[std::size_t(b.panelB)].name);
      EXPECT_EQ(a.edgeA, b.edgeA);
      EXPECT_EQ(a.edgeB, b.edgeB);
      EXPECT_EQ(a.reversed, b.reversed);
    }
  }
}

/// The error of parsing, or "" when it parsed.
std::string errorOf(const Result<PatternFile>& f) { return f ? std::string() : f.error().message; }

// Bad files: each error names the file and the block or key.
TEST(AamaDxf, BadFilesGiveErrorsNamingTheFileAndKey) {
  const json two = {{"pieces", {{"A", placedAt(0.2)}, {"B", placedAt(-0.2, 180)}}}};
  Dxf ok;
  rectangle(rectangle(ok, "A"), "B");
  ASSERT_EQ(errorOf(parse(ok.str(), two)), "");

  Dxf open;  // three sides of a rectangle
  open.block("A_B", {"Piece Name: A"}).polyline(1, {{0, 0}, {200, 0}, {200, 100}, {0, 100}}, false).endBlock();
  EXPECT_NE(errorOf(parse(open.str(), {{"pieces", {{"A", placedAt(0.2)}}}}))
                .find("p.dxf: block A_B: the outline on layer 1 is open: its ends are 100 file units apart"),
            std::string::npos)
      << errorOf(parse(open.str(), {{"pieces", {{"A", placedAt(0.2)}}}}));

  json missingPiece = two;
  missingPiece["seams"] = {{{"a", {{"piece", "A"}, {"edges", {0, 0}}}}, {"b", {{"piece", "C"}, {"edges", {0, 0}}}}}};
  EXPECT_EQ(errorOf(parse(ok.str(), missingPiece)),
            "p.seams.json: seams[0].b.piece: no piece 'C' in the sidecar's pieces");

  json missingEdge = two;
  missingEdge["seams"] = {{{"a", {{"piece", "A"}, {"edges", {0, 4}}}}, {"b", {{"piece", "B"}, {"edges", {0, 0}}}}}};
  EXPECT_EQ(errorOf(parse(ok.str(), missingEdge)),
            "p.seams.json: seams[0].a.edges[1]: piece 'A' has 4 edges, numbered 0..3");

  json mismatch = two;  // A's 200 mm bottom to B's 100 mm side
  mismatch["seams"] = {{{"a", {{"piece", "A"}, {"edges", {0, 0}}}}, {"b", {{"piece", "B"}, {"edges", {1, 1}}}}}};
  EXPECT_NE(errorOf(parse(ok.str(), mismatch)).find("p.seams.json: seams[0]: sews edges of different lengths"),
            std::string::npos)
      << errorOf(parse(ok.str(), mismatch));
  PatternReadOptions ease;
  ease.ease = true;
  EXPECT_EQ(errorOf(parse(ok.str(), mismatch, ease)), "");

  json twice = two;
  twice["seams"] = {{{"a", {{"piece", "A"}, {"edges", {0, 1}}}}, {"b", {{"piece", "B"}, {"edges", {0, 1}}}}},
                    {{"a", {{"piece", "A"}, {"edges", {1, 1}}}}, {"b", {{"piece", "B"}, {"edges", {2, 2}}}}}};
  EXPECT_EQ(errorOf(parse(ok.str(), twice)), "p.seams.json: seams[1].a: edge 1 of piece 'A' is already in seams[0].a");

  EXPECT_EQ(errorOf(parse(ok.str(), {{"pieces", {{"A", placedAt(0.2)}}}})),
            "p.seams.json: pieces: the DXF's piece 'B' is neither cut (an entry of pieces) nor in ignore");
  EXPECT_EQ(errorOf(parse(ok.str(), {{"pieces", {{"A", placedAt(0.2)}}}, {"ignore", {"B"}}})), "");
  EXPECT_EQ(errorOf(parse(ok.str(), {{"pieces", {{"A", {{"rotation", {0, 0, 0}}}}}}, {"ignore", {"B"}}})),
            "p.seams.json: pieces.A: needs exactly one of \"translation\" (where the drawing's origin goes) and "
            "\"center\"");
  EXPECT_EQ(errorOf(parse(ok.str(), {{"pieces", {{"A", placedAt(0.2)}}}, {"colour", 1}})),
            "p.seams.json: colour: unknown key (known: units, size, outline, pieces, ignore, seams, written_by)");
  json region = {{"pieces", {{"A", placedAt(0.2)}, {"B", placedAt(-0.2, 180)}}}};
  region["pieces"]["A"]["region"] = "torso_side";
  EXPECT_NE(errorOf(parse(ok.str(), region)).find("p.seams.json: pieces.A.region: must be torso_front"),
            std::string::npos)
      << errorOf(parse(ok.str(), region));
  EXPECT_NE(errorOf(parse("not a dxf", two)).find("p.dxf: no pattern pieces"), std::string::npos);
  EXPECT_NE(errorOf(parse(ok.str(), json::array())).find("p.seams.json: must be a JSON object"), std::string::npos);
  auto missingFile = readAamaDxf("/nonexistent/x.dxf", "/nonexistent/x.seams.json");
  ASSERT_FALSE(missingFile);
  EXPECT_EQ(missingFile.error().message, "/nonexistent/x.dxf: cannot open the pattern file");
  auto missingSidecar = readAamaDxf(kSkirt, "/nonexistent/x.seams.json");
  ASSERT_FALSE(missingSidecar);
  EXPECT_NE(missingSidecar.error().message.find("/nonexistent/x.seams.json: cannot open the pattern's sidecar"),
            std::string::npos);
}

}  // namespace
}  // namespace hg
