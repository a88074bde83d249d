#include "sim/garment/Pattern.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {

namespace {

std::string metres(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f m", v);
  return buffer;
}

double cross2(glm::dvec2 a, glm::dvec2 b) { return a.x * b.y - a.y * b.x; }

/// Closed segments p1p2 and q1q2 share at least one point (exact orientation tests on
/// doubles are enough here: inputs are drafted coordinates, not near-degenerate).
bool segmentsTouch(glm::dvec2 p1, glm::dvec2 p2, glm::dvec2 q1, glm::dvec2 q2) {
  const auto orient = [](glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
    const double v = cross2(b - a, c - a);
    return (v > 0.0) - (v < 0.0);
  };
  const auto onSegment = [](glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {  // c collinear with ab
    return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
           c.y <= std::max(a.y, b.y);
  };
  const int o1 = orient(p1, p2, q1), o2 = orient(p1, p2, q2), o3 = orient(q1, q2, p1), o4 = orient(q1, q2, p2);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && onSegment(p1, p2, q1)) || (o2 == 0 && onSegment(p1, p2, q2)) ||
         (o3 == 0 && onSegment(q1, q2, p1)) || (o4 == 0 && onSegment(q1, q2, p2));
}

}  // namespace

Status GarmentSizing::validate() const {
  const std::pair<const char*, float> all[] = {
      {"chestGirth", chestGirth},   {"waistGirth", waistGirth},         {"hipGirth", hipGirth},
      {"neckGirth", neckGirth},     {"shoulderHeight", shoulderHeight}, {"chestHeight", chestHeight},
      {"waistHeight", waistHeight}, {"hipHeight", hipHeight},           {"crotchHeight", crotchHeight},
      {"kneeHeight", kneeHeight},   {"ankleHeight", ankleHeight},       {"shoulderWidth", shoulderWidth},
      {"armLength", armLength},     {"upperArmGirth", upperArmGirth},   {"thighGirth", thighGirth}};
  for (const auto& [name, v] : all)
    if (!(v > 0.0f) || !std::isfinite(v)) return Error{std::string("garment sizing: ") + name + " must be > 0 m"};
  const std::pair<const char*, float> heights[] = {{"ankleHeight", ankleHeight},      {"kneeHeight", kneeHeight},
                                                   {"crotchHeight", crotchHeight},    {"hipHeight", hipHeight},
                                                   {"waistHeight", waistHeight},      {"chestHeight", chestHeight},
                                                   {"shoulderHeight", shoulderHeight}};
  for (std::size_t i = 0; i + 1 < std::size(heights); ++i)
    if (!(heights[i].second < heights[i + 1].second))
      return Error{std::string("garment sizing: ") + heights[i].first + " (" + metres(heights[i].second) +
                   ") must be below " + heights[i + 1].first + " (" + metres(heights[i + 1].second) + ")"};
  return Status::success();
}

GarmentSizing GarmentSizing::scaled(float f) const {
  GarmentSizing s = *this;
  for (float* v : {&s.chestGirth, &s.waistGirth, &s.hipGirth, &s.neckGirth, &s.shoulderHeight, &s.chestHeight,
                   &s.waistHeight, &s.hipHeight, &s.crotchHeight, &s.kneeHeight, &s.ankleHeight, &s.shoulderWidth,
                   &s.armLength, &s.upperArmGirth, &s.thighGirth})
    *v *= f;
  return s;
}

double PanelEdge::length() const {
  double l = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) l += glm::distance(glm::dvec2(points[i - 1]), glm::dvec2(points[i]));
  return l;
}

std::vector<glm::vec2> Panel::outline() const {
  std::vector<glm::vec2> out;
  for (const PanelEdge& e : edges)
    if (!e.points.empty()) out.insert(out.end(), e.points.begin(), e.points.end() - 1);
  return out;
}

double Panel::area() const {
  const std::vector<glm::vec2> p = outline();
  double a = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) a += cross2(glm::dvec2(p[i]), glm::dvec2(p[(i + 1) % p.size()]));
  return 0.5 * a;
}

int Panel::edgeIndex(const std::string& edgeName) const {
  for (std::size_t i = 0; i < edges.size(); ++i)
    if (edges[i].name == edgeName) return int(i);
  return -1;
}

double Panel::widthAt(double y) const {
  const std::vector<glm::vec2> p = outline();
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const glm::dvec2 a = p[i], b = p[(i + 1) % p.size()];
    if ((a.y - y) * (b.y - y) > 0.0) continue;
    if (a.y == b.y) {
      lo = std::min({lo, a.x, b.x});
      hi = std::max({hi, a.x, b.x});
      continue;
    }
    const double x = a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return hi > lo ? hi - lo : 0.0;
}

int Pattern::panelIndex(const std::string& panelName) const {
  for (std::size_t i = 0; i < panels.size(); ++i)
    if (panels[i].name == panelName) return int(i);
  return -1;
}

void Pattern::sew(const std::string& seamName, const std::string& panelA, const std::string& edgeA,
                  const std::string& panelB, const std::string& edgeB, bool reversed) {
  Seam s;
  s.name = seamName;
  s.panelA = panelIndex(panelA);
  s.panelB = panelIndex(panelB);
  assert(s.panelA >= 0 && s.panelB >= 0 && "sew: unknown panel");
  s.edgeA = panels[std::size_t(s.panelA)].edgeIndex(edgeA);
  s.edgeB = panels[std::size_t(s.panelB)].edgeIndex(edgeB);
  assert(s.edgeA >= 0 && s.edgeB >= 0 && "sew: unknown edge");
  s.reversed = reversed;
  seams.push_back(std::move(s));
}

Status Pattern::validate(double lengthTolerance) const {
  const std::string where = "pattern '" + name + "'";
  if (panels.empty()) return Error{where + " has no panels"};
  std::set<std::string> panelNames;
  for (const Panel& panel : panels) {
    const std::string at = where + ", panel '" + panel.name + "'";
    if (!panelNames.insert(panel.name).second) return Error{where + ": panel name '" + panel.name + "' is used twice"};
    if (panel.edges.empty()) return Error{at + " has no edges"};
    std::set<std::string> edgeNames;
    for (std::size_t i = 0; i < panel.edges.size(); ++i) {
      const PanelEdge& e = panel.edges[i];
      if (!edgeNames.insert(e.name).second) return Error{at + ": edge name '" + e.name + "' is used twice"};
      if (e.points.size() < 2) return Error{at + ", edge '" + e.name + "' has fewer than 2 points"};
      for (const glm::vec2& p : e.points)
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
          return Error{at + ", edge '" + e.name + "' has a non-finite point"};
      if (!(e.length() > 1e-6)) return Error{at + ", edge '" + e.name + "' has zero length"};
      const PanelEdge& next = panel.edges[(i + 1) % panel.edges.size()];
      if (next.points.empty() || glm::distance(glm::dvec2(e.points.back()), glm::dvec2(next.points.front())) > 1e-6)
        return Error{at + " is not closed: edge '" + e.name + "' ends where edge '" + next.name + "' does not start"};
    }
    const std::vector<glm::vec2> p = panel.outline();
    if (p.size() < 3) return Error{at + " has fewer than 3 outline points"};
    if (!(panel.area() > 0.0))
      return Error{at + " is not counter-clockwise (signed area " + std::to_string(panel.area()) + " m^2)"};
    // Simple polygon: no two non-adjacent segments touch, no adjacent ones overlap.
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
      const glm::dvec2 a = p[i], b = p[(i + 1) % n];
      if (a == b) return Error{at + " has a repeated outline point at (" + metres(a.x) + ", " + metres(a.y) + ")"};
      for (std::size_t j = i + 1; j < n; ++j) {
        const glm::dvec2 c = p[j], d = p[(j + 1) % n];
        const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
        if (adjacent) {  // they share one end: overlapping only if folded back onto each other
          const glm::dvec2 shared = j == i + 1 ? b : a, u = (j == i + 1 ? a : b) - shared,
                           v = (j == i + 1 ? d : c) - shared;
          if (std::abs(cross2(u, v)) <= 1e-12 * glm::length(u) * glm::length(v) && glm::dot(u, v) > 0.0)
            return Error{at + " is not simple: its outline folds back at (" + metres(shared.x) + ", " +
                         metres(shared.y) + ")"};
          continue;
        }
        if (segmentsTouch(a, b, c, d))
          return Error{at + " is not simple: outline segments " + std::to_string(i) + " and " + std::to_string(j) +
                       " intersect near (" + metres(a.x) + ", " + metres(a.y) + ")"};
      }
    }
  }
  std::set<std::string> seamNames;
  std::set<std::pair<int, int>> sewnEdges;
  for (const Seam& s : seams) {
    const std::string at = where + ", seam '" + s.name + "'";
    if (!seamNames.insert(s.name).second) return Error{where + ": seam name '" + s.name + "' is used twice"};
    for (auto [panel, edge] : {std::pair{s.panelA, s.edgeA}, std::pair{s.panelB, s.edgeB}}) {
      if (panel < 0 || std::size_t(panel) >= panels.size())
        return Error{at + " refers to panel " + std::to_string(panel) + ", which does not exist"};
      if (edge < 0 || std::size_t(edge) >= panels[std::size_t(panel)].edges.size())
        return Error{at + " refers to edge " + std::to_string(edge) + " of panel '" + panels[std::size_t(panel)].name +
                     "', which does not exist"};
    }
    if (s.panelA == s.panelB && s.edgeA == s.edgeB) return Error{at + " sews an edge to itself"};
    for (auto key : {std::pair{s.panelA, s.edgeA}, std::pair{s.panelB, s.edgeB}})
      if (!sewnEdges.insert(key).second)
        return Error{at + ": edge '" + panels[std::size_t(key.first)].edges[std::size_t(key.second)].name +
                     "' of panel '" + panels[std::size_t(key.first)].name + "' is already in another seam"};
    const PanelEdge& a = panels[std::size_t(s.panelA)].edges[std::size_t(s.edgeA)];
    const PanelEdge& b = panels[std::size_t(s.panelB)].edges[std::size_t(s.edgeB)];
    if (std::abs(a.length() - b.length()) > lengthTolerance)
      return Error{at + ": edge '" + a.name + "' of panel '" + panels[std::size_t(s.panelA)].name + "' is " +
                   metres(a.length()) + " long but edge '" + b.name + "' of panel '" +
                   panels[std::size_t(s.panelB)].name + "' is " + metres(b.length()) + " (tolerance " +
                   metres(lengthTolerance) + ")"};
  }
  return Status::success();
}

namespace {
constexpr std::pair<BodyRegion, std::string_view> kRegionNames[] = {{BodyRegion::TorsoFront, "torso_front"},
                                                                    {BodyRegion::TorsoBack, "torso_back"},
                                                                    {BodyRegion::LeftArm, "left_arm"},
                                                                    {BodyRegion::RightArm, "right_arm"},
                                                                    {BodyRegion::LeftLegFront, "left_leg_front"},
                                                                    {BodyRegion::LeftLegBack, "left_leg_back"},
                                                                    {BodyRegion::RightLegFront, "right_leg_front"},
                                                                    {BodyRegion::RightLegBack, "right_leg_back"}};
}  // namespace

std::string_view bodyRegionName(BodyRegion region) {
  for (const auto& [r, name] : kRegionNames)
    if (r == region) return name;
  return "?";
}

std::optional<BodyRegion> parseBodyRegion(std::string_view name) {
  for (const auto& [r, n] : kRegionNames)
    if (n == name) return r;
  return std::nullopt;
}

}  // namespace hg
