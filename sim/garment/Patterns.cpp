#include "sim/garment/Patterns.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {

namespace {

using Points = std::vector<glm::vec2>;
constexpr int kCurveSamples = 16;  ///< points per drafted curve

glm::vec2 cubic(glm::vec2 p0, glm::vec2 p1, glm::vec2 p2, glm::vec2 p3, float t) {
  const float s = 1.0f - t;
  return s * s * s * p0 + 3.0f * s * s * t * p1 + 3.0f * s * t * t * p2 + t * t * t * p3;
}

Points cubicPoints(glm::vec2 p0, glm::vec2 p1, glm::vec2 p2, glm::vec2 p3) {
  Points out;
  for (int i = 0; i <= kCurveSamples; ++i) out.push_back(cubic(p0, p1, p2, p3, float(i) / kCurveSamples));
  return out;
}

double polylineLength(const Points& p) {
  double l = 0.0;
  for (std::size_t i = 1; i < p.size(); ++i) l += glm::distance(glm::dvec2(p[i - 1]), glm::dvec2(p[i]));
  return l;
}

Points reversedPoints(Points p) {
  std::reverse(p.begin(), p.end());
  return p;
}

Points mirrorX(Points p) {
  for (glm::vec2& q : p) q.x = -q.x;
  return p;
}

/// The panel mirrored in x (left <-> right), still counter-clockwise.
Panel mirrored(const Panel& in, std::string name, BodyRegion region) {
  Panel out;
  out.name = std::move(name);
  out.region = region;
  for (auto it = in.edges.rbegin(); it != in.edges.rend(); ++it)
    out.edges.push_back({it->name, reversedPoints(mirrorX(it->points))});
  return out;
}

/// A bodice panel (front or back) seen from outside: centre line at x = 0, the side with
/// x > 0 is the body's left on the front and the body's right on the back.
struct BodiceDraft {
  float chestQuarter;       ///< m, half the panel width at the chest line
  float bottomY;            ///< m, hem or waist seam height
  float bottomQuarter;      ///< m, half the panel width at the bottom
  float neckHalfWidth;      ///< m
  float neckDepth;          ///< m below the neck point at the centre line
  float armholeScoop;       ///< m the armhole curves in from the shoulder point
  float shoulderExtension;  ///< m the shoulder seam runs past the shoulder point
  float armholeDrop;        ///< m the armhole bottom sits below the block's scye depth
  std::string bottomName;   ///< "hem" or "waist"
};

Panel bodicePanel(const GarmentSizing& s, const BodiceDraft& d, const std::string& name, BodyRegion region,
                  bool front) {
  const std::string right = front ? "left" : "right", left = front ? "right" : "left";  // body sides of +x / -x
  const float ys = s.shoulderHeight;
  const float slope = 0.1f * s.shoulderWidth;  // neck point above the shoulder point
  const glm::vec2 S(0.5f * s.shoulderWidth + d.shoulderExtension, ys), N(d.neckHalfWidth, ys + slope);
  // Scye (armhole) depth from the neck point, chest / 8 + 10.5 cm in Aldrich's block,
  // plus the garment's drop; never below the waist.
  const float yu =
      std::max(N.y - (s.chestGirth / 8.0f + 0.105f + d.armholeDrop), 0.5f * (s.chestHeight + s.waistHeight));
  const glm::vec2 U(d.chestQuarter, yu);
  // Armhole: shoulder point -> underarm, scooped in across the chest / back, meeting the
  // side seam at a right angle.
  const glm::vec2 P1(S.x - d.armholeScoop, S.y - 0.45f * (S.y - yu));
  const glm::vec2 P2(std::min(S.x - d.armholeScoop, U.x - 0.02f), yu);
  const Points armholeDown = cubicPoints(S, P1, P2, U);  // S -> U
  // Neckline: quarter ellipses from the neck points to the centre line.
  Points neck;
  for (int i = 0; i <= 2 * kCurveSamples; ++i) {
    const float t =
        std::numbers::pi_v<float> * float(i) / float(2 * kCurveSamples);  // 0 .. pi: right neck point -> left
    neck.emplace_back(d.neckHalfWidth * std::cos(t), N.y - d.neckDepth * std::sin(t));
  }
  // Side seam: vertical at the chest quarter from the underarm down to the waist (T-shirt)
  // or 3 cm (dress), then straight to the bottom corner.
  Points sideRight{{d.bottomQuarter, d.bottomY}};
  const float sideBend = d.bottomY < s.waistHeight - 1e-3f ? s.waistHeight : yu - 0.03f;
  if (sideBend > d.bottomY + 1e-3f && sideBend < yu - 1e-3f) sideRight.emplace_back(d.chestQuarter, sideBend);
  sideRight.push_back(U);

  Panel p;
  p.name = name;
  p.region = region;
  p.edges.push_back({d.bottomName, {{-d.bottomQuarter, d.bottomY}, {d.bottomQuarter, d.bottomY}}});
  p.edges.push_back({"side_" + right, sideRight});
  p.edges.push_back({"armhole_" + right, reversedPoints(armholeDown)});
  p.edges.push_back({"shoulder_" + right, {S, N}});
  p.edges.push_back({"neckline", neck});
  p.edges.push_back({"shoulder_" + left, mirrorX({N, S})});
  p.edges.push_back({"armhole_" + left, mirrorX(armholeDown)});
  p.edges.push_back({"side_" + left, reversedPoints(mirrorX(sideRight))});
  return p;
}

/// A sleeve cap half from `from` to `to` (one end the underarm, the other the crown),
/// bulging outward (to the right of the direction of travel) so that its length is
/// `target` (m): bisection on the bulge (length grows with it).
Result<Points> capCurve(glm::vec2 from, glm::vec2 to, bool crownAtEnd, double target, const std::string& what) {
  const glm::vec2 d = to - from;
  const glm::vec2 n = glm::normalize(glm::vec2(d.y, -d.x));
  const float a1 = crownAtEnd ? 0.35f : 1.0f, a2 = crownAtEnd ? 1.0f : 0.35f;  // bulge most near the crown
  const auto curve = [&](float k) {
    return cubicPoints(from, from + d / 3.0f + k * a1 * n, from + 2.0f * d / 3.0f + k * a2 * n, to);
  };
  if (polylineLength(curve(0.0f)) > target)
    return Error{what + ": the sleeve is too wide for the armhole (cap chord " + std::to_string(glm::length(d)) +
                 " m > armhole length " + std::to_string(target) + " m); reduce the sleeve ease"};
  float lo = 0.0f, hi = 0.05f;
  while (polylineLength(curve(hi)) < target) {
    hi *= 2.0f;
    if (hi > 10.0f) return Error{what + ": cannot draft a sleeve cap as long as the armhole"};
  }
  for (int i = 0; i < 60; ++i) {
    const float mid = 0.5f * (lo + hi);
    (polylineLength(curve(mid)) < target ? lo : hi) = mid;
  }
  return curve(0.5f * (lo + hi));
}

/// Sleeve seen from outside, crown at (0, 0), hem at y = -length. `frontOnPositiveX`:
/// the left sleeve has its back half at x > 0, the right sleeve its front half.
Result<Panel> sleevePanel(const GarmentSizing& s, const TShirtOptions& o, double frontArmhole, double backArmhole,
                          const std::string& name, BodyRegion region, bool frontOnPositiveX) {
  const float width = s.upperArmGirth + o.sleeveEase;
  const float hemWidth = 0.88f * width;  // slight taper to the hem
  const double shorter = std::min(frontArmhole, backArmhole);
  const float half = 0.5f * width;
  const float capHeight = float(std::sqrt(std::max(std::pow(0.92 * shorter, 2.0) - double(half * half), 0.03 * 0.03)));
  if (!(o.sleeveLength > capHeight + 0.03f))
    return Error{"t-shirt: sleeve length " + std::to_string(o.sleeveLength) + " m must exceed the cap height " +
                 std::to_string(capHeight) + " m by 3 cm"};
  const glm::vec2 crown(0.0f, 0.0f), underRight(half, -capHeight), underLeft(-half, -capHeight);
  const double rightTarget = frontOnPositiveX ? frontArmhole : backArmhole;
  const double leftTarget = frontOnPositiveX ? backArmhole : frontArmhole;
  auto capRight = capCurve(underRight, crown, true, rightTarget, "t-shirt " + name);
  if (!capRight) return capRight.error();
  auto capLeft = capCurve(crown, underLeft, false, leftTarget, "t-shirt " + name);
  if (!capLeft) return capLeft.error();
  const glm::vec2 hemRight(0.5f * hemWidth, -o.sleeveLength), hemLeft(-0.5f * hemWidth, -o.sleeveLength);
  Panel p;
  p.name = name;
  p.region = region;
  p.edges.push_back({"hem", {hemLeft, hemRight}});
  p.edges.push_back({"underarm_a", {hemRight, underRight}});
  p.edges.push_back({frontOnPositiveX ? "cap_front" : "cap_back", *capRight});
  p.edges.push_back({frontOnPositiveX ? "cap_back" : "cap_front", *capLeft});
  p.edges.push_back({"underarm_b", {underLeft, hemLeft}});
  return p;
}

/// A-line skirt panel from the waist line down; x > 0 is the body's left on the front.
/// The waist from x = `from` to x = `to` (from > to: the waist runs -x, counter-clockwise
/// along the top), with a dart of `intake` at +-centre (each a V of `length` down; the
/// dart's legs "dart_<side>_a" down and "dart_<side>_b" up).
void waistWithDarts(Panel& p, float from, float to, float yw, float centre, float intake, float length,
                    const std::string& rightSide, const std::string& leftSide) {
  if (!(intake > 0.0f)) {
    p.edges.push_back({"waist", {{from, yw}, {to, yw}}});
    return;
  }
  const float h = 0.5f * intake;
  p.edges.push_back({"waist_" + rightSide, {{from, yw}, {centre + h, yw}}});
  p.edges.push_back({"dart_" + rightSide + "_a", {{centre + h, yw}, {centre, yw - length}}});
  p.edges.push_back({"dart_" + rightSide + "_b", {{centre, yw - length}, {centre - h, yw}}});
  p.edges.push_back({"waist", {{centre - h, yw}, {-centre + h, yw}}});
  p.edges.push_back({"dart_" + leftSide + "_a", {{-centre + h, yw}, {-centre, yw - length}}});
  p.edges.push_back({"dart_" + leftSide + "_b", {{-centre, yw - length}, {-centre - h, yw}}});
  p.edges.push_back({"waist_" + leftSide, {{-centre - h, yw}, {to, yw}}});
}

Panel skirtPanel(const GarmentSizing& s, float waistQuarter, float hipQuarter, float hemQuarter, float length,
                 const std::string& name, BodyRegion region, bool front, const SkirtOptions& o = {}) {
  const std::string right = front ? "left" : "right", left = front ? "right" : "left";
  const float yw = s.waistHeight, yh = s.hipHeight, yhem = s.waistHeight - length;
  // Side seam: hem -> hip straight (the flare), hip -> waist a convex hip curve
  // (quarter sine from the hip line, vertical there).
  Points side{{hemQuarter, yhem}};
  for (int i = 0; i <= kCurveSamples; ++i) {
    const float t = float(i) / kCurveSamples;
    side.emplace_back(
        hipQuarter + (waistQuarter - hipQuarter) * (1.0f - std::cos(0.5f * std::numbers::pi_v<float> * t)),
        yh + (yw - yh) * t);
  }
  Panel p;
  p.name = name;
  p.region = region;
  p.edges.push_back({"hem", {{-hemQuarter, yhem}, {hemQuarter, yhem}}});
  p.edges.push_back({"side_" + right, side});
  waistWithDarts(p, waistQuarter, -waistQuarter, yw, 0.5f * waistQuarter, o.dartIntake,
                 front ? o.frontDartLength : o.backDartLength, right, left);
  p.edges.push_back({"side_" + left, reversedPoints(mirrorX(side))});
  return p;
}

Status checkOptions(const std::string& garment, std::initializer_list<std::pair<const char*, float>> values) {
  for (const auto& [name, v] : values)
    if (!(v >= 0.0f) || !std::isfinite(v)) return Error{garment + ": option " + name + " must be >= 0 m"};
  return Status::success();
}

Result<Pattern> finish(Pattern p) {
  if (Status s = p.validate(); !s) return s.error();
  return p;
}

}  // namespace

Result<Pattern> tShirt(const GarmentSizing& s, const TShirtOptions& o) {
  if (Status st = s.validate(); !st) return st.error();
  if (Status st = checkOptions("t-shirt", {{"chestEase", o.chestEase},
                                           {"hemBelowWaist", o.hemBelowWaist},
                                           {"sleeveLength", o.sleeveLength},
                                           {"sleeveEase", o.sleeveEase},
                                           {"neckEase", o.neckEase},
                                           {"armholeDrop", o.armholeDrop},
                                           {"shoulderExtension", o.shoulderExtension}});
      !st)
    return st.error();
  const float chestQ = 0.25f * (s.chestGirth + o.chestEase);
  const float hemQ = std::max(chestQ, 0.25f * (s.hipGirth + o.chestEase));
  const float hemY = s.waistHeight - o.hemBelowWaist;
  if (!(hemY > 0.05f)) return Error{"t-shirt: the hem (waist height - hemBelowWaist) must be above the floor"};
  BodiceDraft d{.chestQuarter = chestQ,
                .bottomY = hemY,
                .bottomQuarter = hemQ,
                .neckHalfWidth = (s.neckGirth + o.neckEase) / 6.0f,
                .neckDepth = 0.0f,
                .armholeScoop = 0.0f,
                .shoulderExtension = o.shoulderExtension,
                .armholeDrop = o.armholeDrop,
                .bottomName = "hem"};
  Pattern p;
  p.name = "t-shirt";
  d.neckDepth = (s.neckGirth + o.neckEase) / 5.0f;  // front neck depth ~ neck / 5 (Aldrich)
  d.armholeScoop = 0.03f;                           // across-front narrower than across-back
  p.panels.push_back(bodicePanel(s, d, "front", BodyRegion::TorsoFront, true));
  d.neckDepth = 0.02f;  // back neck depth ~ 2 cm
  d.armholeScoop = 0.015f;
  p.panels.push_back(bodicePanel(s, d, "back", BodyRegion::TorsoBack, false));
  const double frontArmhole = p.panels[0].edges[std::size_t(p.panels[0].edgeIndex("armhole_left"))].length();
  const double backArmhole = p.panels[1].edges[std::size_t(p.panels[1].edgeIndex("armhole_left"))].length();
  auto left = sleevePanel(s, o, frontArmhole, backArmhole, "sleeve_left", BodyRegion::LeftArm, false);
  if (!left) return left.error();
  auto right = sleevePanel(s, o, frontArmhole, backArmhole, "sleeve_right", BodyRegion::RightArm, true);
  if (!right) return right.error();
  p.panels.push_back(std::move(left).value());
  p.panels.push_back(std::move(right).value());
  for (const std::string side : {"left", "right"}) {
    p.sew("side_" + side, "front", "side_" + side, "back", "side_" + side);
    p.sew("shoulder_" + side, "front", "shoulder_" + side, "back", "shoulder_" + side);
    p.sew("armhole_front_" + side, "front", "armhole_" + side, "sleeve_" + side, "cap_front");
    p.sew("armhole_back_" + side, "back", "armhole_" + side, "sleeve_" + side, "cap_back");
    p.sew("sleeve_underarm_" + side, "sleeve_" + side, "underarm_a", "sleeve_" + side, "underarm_b");
  }
  return finish(std::move(p));
}

Result<Pattern> skirt(const GarmentSizing& s, const SkirtOptions& o) {
  if (Status st = s.validate(); !st) return st.error();
  if (Status st = checkOptions("skirt", {{"waistEase", o.waistEase},
                                         {"hipEase", o.hipEase},
                                         {"length", o.length},
                                         {"flare", o.flare},
                                         {"dartIntake", o.dartIntake},
                                         {"frontDartLength", o.frontDartLength},
                                         {"backDartLength", o.backDartLength}});
      !st)
    return st.error();
  if (!(s.waistHeight - o.length < s.hipHeight - 0.05f))
    return Error{"skirt: length " + std::to_string(o.length) + " m must reach at least 5 cm below the hip line"};
  if (!(s.waistHeight - o.length > 0.0f)) return Error{"skirt: length reaches below the floor"};
  // Each half panel's dart takes its intake out of the waist that the side seam would.
  const float waistQ = 0.25f * (s.waistGirth + o.waistEase) + o.dartIntake;
  const float hipQ = 0.25f * (s.hipGirth + o.hipEase);
  const float hemQ = hipQ + 0.25f * o.flare;
  if (o.dartIntake > 0.0f) {
    if (!(waistQ <= hipQ))
      return Error{"skirt: option dartIntake " + std::to_string(o.dartIntake) +
                   " m makes the waist wider than the hip: at most (hip - waist) / 4"};
    if (!(std::max(o.frontDartLength, o.backDartLength) < s.waistHeight - s.hipHeight))
      return Error{"skirt: the darts must end above the hip line (" + std::to_string(s.waistHeight - s.hipHeight) +
                   " m below the waist)"};
    if (!(o.dartIntake < 0.25f * waistQ)) return Error{"skirt: option dartIntake is wider than a quarter of the waist"};
  }
  Pattern p;
  p.name = "skirt";
  p.panels.push_back(skirtPanel(s, waistQ, hipQ, hemQ, o.length, "front", BodyRegion::TorsoFront, true, o));
  p.panels.push_back(skirtPanel(s, waistQ, hipQ, hemQ, o.length, "back", BodyRegion::TorsoBack, false, o));
  for (const std::string side : {"left", "right"})
    p.sew("side_" + side, "front", "side_" + side, "back", "side_" + side);
  if (o.dartIntake > 0.0f)
    for (const std::string panel : {"front", "back"})
      for (const std::string side : {"left", "right"})
        p.sew(panel + "_dart_" + side, panel, "dart_" + side + "_a", panel, "dart_" + side + "_b");
  return finish(std::move(p));
}

Result<Pattern> trousers(const GarmentSizing& s, const TrouserOptions& o) {
  if (Status st = s.validate(); !st) return st.error();
  if (Status st = checkOptions("trousers", {{"waistEase", o.waistEase},
                                            {"hipEase", o.hipEase},
                                            {"kneeGirth", o.kneeGirth},
                                            {"hemGirth", o.hemGirth},
                                            {"crotchEase", o.crotchEase},
                                            {"hemHeight", o.hemHeight}});
      !st)
    return st.error();
  const float waistQ = 0.25f * (s.waistGirth + o.waistEase), hipQ = 0.25f * (s.hipGirth + o.hipEase);
  const float frontFork = s.hipGirth / 16.0f, backFork = s.hipGirth / 8.0f;  // Aldrich trouser block, approx.
  const float knee = o.kneeGirth > 0.0f ? o.kneeGirth : 0.8f * s.thighGirth;
  const float hem = o.hemGirth;
  const float yw = s.waistHeight, yh = s.hipHeight, yc = s.crotchHeight - o.crotchEase, yk = s.kneeHeight;
  const float yhem = o.hemHeight > 0.0f ? o.hemHeight : std::max(0.01f, s.ankleHeight - 0.04f);
  if (!(yhem < yk - 0.05f)) return Error{"trousers: the hem must be at least 5 cm below the knee"};
  if (!(yc > yk + 0.05f && yc < yh)) return Error{"trousers: crotch ease puts the crotch outside knee .. hip"};
  if (!(hem > 0.0f)) return Error{"trousers: option hemGirth must be > 0 m"};
  // Front: crease midway across the width at the crotch line; knee and hem 1 cm
  // narrower than half, the back 1 cm wider (Aldrich).
  const float crease = 0.5f * (hipQ - frontFork);
  const float kneeFront = 0.5f * knee - 0.01f, kneeBack = 0.5f * knee + 0.01f;
  const float hemFront = 0.5f * hem - 0.01f, hemBack = 0.5f * hem + 0.01f;
  if (!(hemFront > 0.02f && kneeFront > 0.02f)) return Error{"trousers: knee and hem girths must exceed 6 cm"};
  const float kneeOuter = crease + 0.5f * kneeFront, hemOuter = crease + 0.5f * hemFront;
  if (!(kneeOuter < hipQ && hemOuter < hipQ)) return Error{"trousers: knee or hem wider than the hip"};
  const auto outseam = [&] {  // hem -> waist, identical on front and back (equal seam lengths)
    Points p{{hemOuter, yhem}, {kneeOuter, yk}, {hipQ, yc}};
    for (int i = 0; i <= kCurveSamples; ++i) {
      const float t = float(i) / kCurveSamples;
      p.emplace_back(hipQ + (waistQ - hipQ) * (1.0f - std::cos(0.5f * std::numbers::pi_v<float> * t)),
                     yh + (yw - yh) * t);
    }
    return p;
  }();
  const auto crotchCurve = [&](float fork, float crotchY) {  // centre waist -> crotch point
    Points p{{0.0f, yw}};
    for (int i = 0; i <= kCurveSamples; ++i) {
      const float t = 0.5f * std::numbers::pi_v<float> * float(i) / kCurveSamples;
      p.emplace_back(-fork * (1.0f - std::cos(t)), crotchY + (yh - crotchY) * (1.0f - std::sin(t)));
    }
    return p;
  };
  const auto legPanel = [&](const std::string& name, BodyRegion region, float fork, float crotchY, float kneeWidth,
                            float hemWidth) {
    const float kneeInner = kneeOuter - kneeWidth, hemInner = hemOuter - hemWidth;
    Panel p;
    p.name = name;
    p.region = region;
    p.edges.push_back({"hem", {{hemInner, yhem}, {hemOuter, yhem}}});
    p.edges.push_back({"outseam", outseam});
    p.edges.push_back({"waist", {{waistQ, yw}, {0.0f, yw}}});
    p.edges.push_back({"crotch", crotchCurve(fork, crotchY)});
    p.edges.push_back({"inseam", {{-fork, crotchY}, {kneeInner, yk}, {hemInner, yhem}}});
    return p;
  };
  // Back crotch point dropped so that crotch -> knee on the inseam is as long as the front's.
  const glm::vec2 frontKneeInner(kneeOuter - kneeFront, yk);
  const float upper = glm::distance(glm::vec2(-frontFork, yc), frontKneeInner);
  const float dxBack = (kneeOuter - kneeBack) + backFork;
  if (!(upper > std::abs(dxBack) + 0.02f))
    return Error{"trousers: the back fork is too wide for the rise; check hip and crotch heights"};
  const float backCrotchY = yk + std::sqrt(upper * upper - dxBack * dxBack);

  // Canonical panels have the outseam at x > 0: the front of the left leg and the back
  // of the right leg seen from outside; the others are their mirror images.
  const Panel frontLeft = legPanel("front_left", BodyRegion::LeftLegFront, frontFork, yc, kneeFront, hemFront);
  const Panel backRight = legPanel("back_right", BodyRegion::RightLegBack, backFork, backCrotchY, kneeBack, hemBack);
  Pattern p;
  p.name = "trousers";
  p.panels.push_back(frontLeft);
  p.panels.push_back(mirrored(backRight, "back_left", BodyRegion::LeftLegBack));
  p.panels.push_back(mirrored(frontLeft, "front_right", BodyRegion::RightLegFront));
  p.panels.push_back(backRight);
  for (const std::string side : {"left", "right"}) {
    p.sew("outseam_" + side, "front_" + side, "outseam", "back_" + side, "outseam");
    p.sew("inseam_" + side, "front_" + side, "inseam", "back_" + side, "inseam");
  }
  p.sew("centre_front", "front_left", "crotch", "front_right", "crotch");
  p.sew("centre_back", "back_left", "crotch", "back_right", "crotch");
  return finish(std::move(p));
}

Result<Pattern> dress(const GarmentSizing& s, const DressOptions& o) {
  if (Status st = s.validate(); !st) return st.error();
  if (Status st = checkOptions("dress", {{"chestEase", o.chestEase},
                                         {"waistEase", o.waistEase},
                                         {"hipEase", o.hipEase},
                                         {"skirtLength", o.skirtLength},
                                         {"flare", o.flare},
                                         {"neckEase", o.neckEase}});
      !st)
    return st.error();
  if (!(s.waistHeight - o.skirtLength < s.hipHeight - 0.05f))
    return Error{"dress: skirt length " + std::to_string(o.skirtLength) +
                 " m must reach at least 5 cm below the hip line"};
  if (!(s.waistHeight - o.skirtLength > 0.0f)) return Error{"dress: skirt length reaches below the floor"};
  const float chestQ = 0.25f * (s.chestGirth + o.chestEase), waistQ = 0.25f * (s.waistGirth + o.waistEase);
  const float hipQ = 0.25f * (s.hipGirth + o.hipEase), hemQ = hipQ + 0.25f * o.flare;
  BodiceDraft d{chestQ, s.waistHeight, waistQ, (s.neckGirth + o.neckEase) / 6.0f, 0.0f, 0.0f, 0.0f, 0.0f, "waist"};
  Pattern p;
  p.name = "dress";
  d.neckDepth = (s.neckGirth + o.neckEase) / 5.0f + 0.02f;
  d.armholeScoop = 0.03f;
  p.panels.push_back(bodicePanel(s, d, "bodice_front", BodyRegion::TorsoFront, true));
  d.neckDepth = 0.025f;
  d.armholeScoop = 0.015f;
  p.panels.push_back(bodicePanel(s, d, "bodice_back", BodyRegion::TorsoBack, false));
  p.panels.push_back(skirtPanel(s, waistQ, hipQ, hemQ, o.skirtLength, "skirt_front", BodyRegion::TorsoFront, true));
  p.panels.push_back(skirtPanel(s, waistQ, hipQ, hemQ, o.skirtLength, "skirt_back", BodyRegion::TorsoBack, false));
  for (const std::string side : {"left", "right"}) {
    p.sew("shoulder_" + side, "bodice_front", "shoulder_" + side, "bodice_back", "shoulder_" + side);
    p.sew("bodice_side_" + side, "bodice_front", "side_" + side, "bodice_back", "side_" + side);
    p.sew("skirt_side_" + side, "skirt_front", "side_" + side, "skirt_back", "side_" + side);
  }
  p.sew("waist_front", "bodice_front", "waist", "skirt_front", "waist");
  p.sew("waist_back", "bodice_back", "waist", "skirt_back", "waist");
  return finish(std::move(p));
}

}  // namespace hg
