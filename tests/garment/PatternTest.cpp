// Sewing patterns: validation errors name what is wrong; every generator drafts a valid
// pattern whose panel widths follow the body's girths plus the ease.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/garment/Pattern.h"
#include "sim/garment/Patterns.h"

namespace hg {
namespace {

Panel rectangle(const std::string& name, float w, float h) {
  Panel p;
  p.name = name;
  p.edges = {
      {"bottom", {{0, 0}, {w, 0}}}, {"right", {{w, 0}, {w, h}}}, {"top", {{w, h}, {0, h}}}, {"left", {{0, h}, {0, 0}}}};
  return p;
}

Pattern twoRectangles() {
  Pattern p;
  p.name = "tube";
  p.panels = {rectangle("a", 0.3f, 0.5f), rectangle("b", 0.3f, 0.5f)};
  p.sew("seam_1", "a", "right", "b", "left");
  return p;
}

void expectError(const Status& s, const std::string& needle) {
  ASSERT_FALSE(s.ok()) << "expected an error mentioning '" << needle << "'";
  EXPECT_NE(s.error().message.find(needle), std::string::npos) << s.error().message;
}

TEST(Pattern, AValidPatternPasses) { EXPECT_TRUE(twoRectangles().validate().ok()); }

TEST(Pattern, ValidationErrorsNameThePanelOrSeam) {
  {
    Pattern p = twoRectangles();
    p.panels[1].edges[0].points[1].x = 0.31f;  // b's right edge no longer starts where bottom ends
    expectError(p.validate(), "panel 'b' is not closed");
  }
  {
    Pattern p = twoRectangles();
    p.panels[0].edges[1].points = {{0.3f, 0.0f}, {0.3f, 0.4f}};  // opening left between right and top
    expectError(p.validate(), "panel 'a'");
  }
  {
    Pattern p = twoRectangles();
    p.panels[1].name = "a";
    expectError(p.validate(), "panel name 'a' is used twice");
  }
  {
    Pattern p = twoRectangles();  // clockwise outline
    Panel& b = p.panels[1];
    for (auto& e : b.edges) std::reverse(e.points.begin(), e.points.end());
    std::reverse(b.edges.begin(), b.edges.end());
    expectError(p.validate(), "panel 'b' is not counter-clockwise");
  }
  {
    Pattern p = twoRectangles();  // a bow tie: top edge crosses the bottom
    p.panels[0].edges[1].points = {{0.3f, 0.0f}, {0.0f, -0.2f}, {0.3f, 0.5f}};
    p.panels[0].edges[0].points = {{0.0f, 0.0f}, {0.3f, 0.0f}};
    expectError(p.validate(), "panel 'a' is not simple");
  }
  {
    Pattern p = twoRectangles();  // seam edges of different lengths
    p.panels[1] = rectangle("b", 0.3f, 0.45f);
    expectError(p.validate(), "seam 'seam_1'");
  }
  {
    Pattern p = twoRectangles();
    p.sew("seam_1", "a", "left", "b", "right");
    expectError(p.validate(), "seam name 'seam_1' is used twice");
  }
  {
    Pattern p = twoRectangles();
    p.sew("seam_2", "a", "right", "b", "right");
    expectError(p.validate(), "already in another seam");
  }
}

TEST(Patterns, GeneratorsRejectImpossibleSizing) {
  GarmentSizing s;
  s.waistHeight = 1.40f;  // above the chest line
  EXPECT_FALSE(tShirt(s).ok());
  s = GarmentSizing{};
  s.chestGirth = -1.0f;
  const auto r = skirt(s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("chestGirth"), std::string::npos) << r.error().message;
}

struct Drafted {
  std::string name;
  Result<Pattern> pattern;
};

class EveryGenerator : public ::testing::TestWithParam<float> {};

TEST_P(EveryGenerator, ValidatesAndScalesWithTheGirths) {
  const GarmentSizing s = GarmentSizing{}.scaled(GetParam());
  const TShirtOptions t;
  const SkirtOptions k;
  const TrouserOptions tr;
  const DressOptions d;
  auto shirt = tShirt(s, t);
  auto sk = skirt(s, k);
  auto trs = trousers(s, tr);
  auto dr = dress(s, d);
  for (const auto* r : {&shirt, &sk, &trs, &dr}) ASSERT_TRUE(r->ok()) << r->error().message;
  for (const Pattern* p : {&*shirt, &*sk, &*trs, &*dr}) {
    EXPECT_TRUE(p->validate(0.002).ok()) << p->name;
    std::printf("[ pattern ] scale %.2f %-8s %zu panels, %zu seams, area", GetParam(), p->name.c_str(),
                p->panels.size(), p->seams.size());
    double area = 0.0;
    for (const Panel& panel : p->panels) area += panel.area();
    std::printf(" %.3f m^2\n", area);
  }
  const auto width = [](const Pattern& p, const char* panel, float y) {
    return p.panels[std::size_t(p.panelIndex(panel))].widthAt(y);
  };
  // T-shirt: front + back between the chest and waist lines (below the armholes) =
  // chest girth + ease (Aldrich: quarters of chest + ease).
  const float midChest = 0.5f * (s.chestHeight + s.waistHeight);
  EXPECT_NEAR(width(*shirt, "front", midChest) + width(*shirt, "back", midChest), s.chestGirth + t.chestEase, 0.01);
  // Sleeve: width at the underarm = upper-arm girth + ease.
  const Panel& sleeve = shirt->panels[std::size_t(shirt->panelIndex("sleeve_left"))];
  double sleeveWidest = 0.0;
  for (int i = 0; i < 200; ++i) sleeveWidest = std::max(sleeveWidest, sleeve.widthAt(-0.005 * i));
  EXPECT_NEAR(sleeveWidest, s.upperArmGirth + t.sleeveEase, 0.01);
  // Skirt: at the hip line hip + ease, at the waist waist + ease.
  EXPECT_NEAR(width(*sk, "front", s.hipHeight) + width(*sk, "back", s.hipHeight), s.hipGirth + k.hipEase, 0.01);
  EXPECT_NEAR(width(*sk, "front", s.waistHeight - 1e-4f) + width(*sk, "back", s.waistHeight - 1e-4f),
              s.waistGirth + k.waistEase, 0.01);
  // Trousers: the four legs at the hip line (centre to outseam) = hip + ease.
  double hip = 0.0;
  for (const char* leg : {"front_left", "back_left", "front_right", "back_right"}) hip += width(*trs, leg, s.hipHeight);
  EXPECT_NEAR(hip, s.hipGirth + tr.hipEase, 0.01);
  // Dress: bodice at its widest (the underarm) and at the waist seam, skirt at the hip.
  double widest = 0.0;
  for (int i = 0; i <= 100; ++i) {
    const float y = s.waistHeight + (s.shoulderHeight - s.waistHeight) * 0.01f * float(i);
    widest = std::max(widest, width(*dr, "bodice_front", y) + width(*dr, "bodice_back", y));
  }
  EXPECT_NEAR(widest, s.chestGirth + d.chestEase, 0.01);
  EXPECT_NEAR(width(*dr, "bodice_front", s.waistHeight + 1e-4f) + width(*dr, "bodice_back", s.waistHeight + 1e-4f),
              s.waistGirth + d.waistEase, 0.01);
  EXPECT_NEAR(width(*dr, "skirt_front", s.hipHeight) + width(*dr, "skirt_back", s.hipHeight), s.hipGirth + d.hipEase,
              0.01);
}

INSTANTIATE_TEST_SUITE_P(DefaultAndLarger, EveryGenerator, ::testing::Values(1.0f, 1.15f));

// A skirt with waist darts (Aldrich's skirt block): two per panel, each a V of the intake
// at the waist, its legs equally long and sewn together; with the darts closed the waist
// is still waist + ease, and the side seams take in the intakes less.
TEST(Patterns, ASkirtsWaistDartsTakeInTheirIntake) {
  const GarmentSizing s;
  SkirtOptions o;
  o.dartIntake = 0.02f;
  auto darted = skirt(s, o);
  ASSERT_TRUE(darted.ok()) << darted.error().message;
  auto plain = skirt(s);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(darted->seams.size(), plain->seams.size() + 4);
  double waist = 0.0;
  for (const Panel& p : darted->panels) {
    EXPECT_EQ(p.edges.size(), 10u) << p.name;  // hem, side, waist, 2 x (dart a, dart b), waist, waist, side
    for (const PanelEdge& e : p.edges)
      if (e.name.starts_with("waist")) waist += e.length();
    for (const char* side : {"left", "right"}) {
      const PanelEdge& a = p.edges[std::size_t(p.edgeIndex(std::string("dart_") + side + "_a"))];
      const PanelEdge& b = p.edges[std::size_t(p.edgeIndex(std::string("dart_") + side + "_b"))];
      EXPECT_NEAR(a.length(), b.length(), 1e-6);
      EXPECT_NEAR(glm::distance(a.points.front(), b.points.back()), o.dartIntake, 1e-6);  // the V's mouth
      const float depth = a.points.front().y - a.points.back().y;
      EXPECT_NEAR(depth, p.name == "front" ? o.frontDartLength : o.backDartLength, 1e-6) << p.name;
    }
  }
  EXPECT_NEAR(waist, s.waistGirth + o.waistEase, 1e-5);  // the waist edges, darts closed
  // The panel's waist corner is wider by the intake than the dartless skirt's.
  const auto corner = [](const Pattern& p) { return p.panels[0].edges[1].points.back().x; };
  EXPECT_NEAR(corner(*darted) - corner(*plain), o.dartIntake, 1e-6);
  o.dartIntake = 0.2f;  // wider than the waist can take
  EXPECT_FALSE(skirt(s, o).ok());
}

TEST(Patterns, TShirtSeamsAreWhereATailorSewsThem) {
  auto p = tShirt(GarmentSizing{});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->panels.size(), 4u);
  EXPECT_EQ(p->seams.size(), 10u);  // 2 side, 2 shoulder, 4 armhole halves, 2 underarm
  for (const char* seam :
       {"side_left", "shoulder_right", "armhole_front_left", "armhole_back_right", "sleeve_underarm_left"}) {
    bool found = false;
    for (const Seam& s : p->seams) found = found || s.name == seam;
    EXPECT_TRUE(found) << seam;
  }
  // The front neckline is deeper than the back's.
  const auto lowest = [&](const char* panel) {
    const Panel& pn = p->panels[std::size_t(p->panelIndex(panel))];
    float y = 1e9f;
    for (const glm::vec2& q : pn.edges[std::size_t(pn.edgeIndex("neckline"))].points) y = std::min(y, q.y);
    return y;
  };
  EXPECT_LT(lowest("front"), lowest("back") - 0.03f);
}

// An outer layer's block: armhole_drop lowers the underarm point (the armhole's end at the
// side seam) by as much, shoulder_extension moves the shoulder point out by as much, and
// the sleeve cap still matches the longer armhole (each cap half as long as its armhole).
TEST(Patterns, AnOuterLayersArmholeIsDeeperAndItsShoulderWider) {
  const auto armhole = [](const Pattern& p, const char* panel) {
    const Panel& pn = p.panels[std::size_t(p.panelIndex(panel))];
    return pn.edges[std::size_t(pn.edgeIndex("armhole_left"))];
  };
  TShirtOptions inner, outer;
  outer.armholeDrop = inner.armholeDrop + 0.035f;
  outer.shoulderExtension = inner.shoulderExtension + 0.02f;
  auto a = tShirt(GarmentSizing{}, inner), b = tShirt(GarmentSizing{}, outer);
  ASSERT_TRUE(a.ok() && b.ok());
  for (const char* panel : {"front", "back"}) {
    const PanelEdge ea = armhole(*a, panel), eb = armhole(*b, panel);
    const auto lowestY = [](const PanelEdge& e) { return std::min(e.points.front().y, e.points.back().y); };
    const auto shoulderPointX = [](const PanelEdge& e) {  // the armhole's upper end
      return std::abs(e.points.front().y > e.points.back().y ? e.points.front().x : e.points.back().x);
    };
    EXPECT_NEAR(lowestY(eb), lowestY(ea) - 0.035f, 1e-5f) << panel;
    EXPECT_NEAR(shoulderPointX(eb), shoulderPointX(ea) + 0.02f, 1e-5f) << panel;
    EXPECT_GT(eb.length(), ea.length() + 0.02) << panel;
  }
  for (const Seam& seam : b->seams) {
    if (seam.name.rfind("armhole_", 0) != 0) continue;
    const double lengthA = b->panels[std::size_t(seam.panelA)].edges[std::size_t(seam.edgeA)].length();
    const double lengthB = b->panels[std::size_t(seam.panelB)].edges[std::size_t(seam.edgeB)].length();
    EXPECT_NEAR(lengthA, lengthB, 1e-4) << seam.name;
  }
  TShirtOptions negative;
  negative.armholeDrop = -0.01f;
  EXPECT_FALSE(tShirt(GarmentSizing{}, negative).ok());
}

}  // namespace
}  // namespace hg
