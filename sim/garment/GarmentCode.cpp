#include "sim/garment/GarmentCode.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/vec2.hpp>
#include <nlohmann/json.hpp>

#include "sim/garment/PatternIo.h"

namespace hg {

namespace {

using namespace pattern_io;

constexpr std::size_t kMaxPanels = 1000, kMaxEdges = 10000;
constexpr double kLargestPanel = 20.0;  ///< m: a panel wider is a unit error

std::size_t index(const json& value, std::size_t count, const std::string& key, const std::string& what) {
  if (!value.is_number_integer() || value.get<long long>() < 0 || std::size_t(value.get<long long>()) >= count)
    throw KeyError{key, "must be " + what + " index 0.." + std::to_string(count == 0 ? 0 : count - 1)};
  return std::size_t(value.get<long long>());
}

/// A point given relative to the edge start -> end (x along it, y along its left normal
/// (-d.y, d.x), in edge lengths; GarmentCode's pattern/utils.py, rel_to_abs_2d) or absolute.
glm::dvec2 controlPoint(glm::dvec2 start, glm::dvec2 end, glm::dvec2 given, bool relative) {
  if (!relative) return given;
  const glm::dvec2 d = end - start;
  return start + given.x * d + given.y * glm::dvec2(-d.y, d.x);
}

Points bezier(const Points& controls, double sampleLength) {
  double hull = 0.0;
  for (std::size_t i = 1; i < controls.size(); ++i) hull += glm::distance(controls[i - 1], controls[i]);
  const std::size_t n = segmentsFor(hull, sampleLength);
  Points out;
  for (std::size_t k = 0; k <= n; ++k) {
    const double t = double(k) / double(n);
    Points level = controls;  // de Casteljau
    for (std::size_t m = level.size() - 1; m > 0; --m)
      for (std::size_t i = 0; i < m; ++i) level[i] = (1.0 - t) * level[i] + t * level[i + 1];
    out.push_back(level[0]);
  }
  out.front() = controls.front();
  out.back() = controls.back();
  return out;
}

/// One edge as a polyline in file units.
Points edgePoints(glm::dvec2 start, glm::dvec2 end, const json& edge, bool relative, double sampleLengthInUnits,
                  const std::string& key) {
  if (glm::distance(start, end) <= 0.0) throw KeyError{key + ".endpoints", "the edge has no length"};
  auto it = edge.find("curvature");
  if (it == edge.end() || it->is_null()) return {start, end};
  const json& c = *it;
  const std::string ckey = key + ".curvature";
  if (c.is_array())  // the older form: one relative quadratic control point
    return bezier({start, controlPoint(start, end, point2(c, ckey), true), end}, sampleLengthInUnits);
  const json& type = member(c, "type", ckey);
  const json& params = member(c, "params", ckey);
  if (!type.is_string()) throw KeyError{ckey + ".type", "must be a string"};
  if (!params.is_array()) throw KeyError{ckey + ".params", "must be an array"};
  const std::string name = type.get<std::string>();
  if (name == "quadratic" || name == "cubic") {
    const std::size_t count = name == "quadratic" ? 1 : 2;
    if (params.size() != count)
      throw KeyError{ckey + ".params", "a " + name + " curve has " + std::to_string(count) + " control point(s)"};
    Points controls{start};
    for (std::size_t i = 0; i < count; ++i)
      controls.push_back(
          controlPoint(start, end, point2(params[i], ckey + ".params[" + std::to_string(i) + "]"), relative));
    controls.push_back(end);
    return bezier(controls, sampleLengthInUnits);
  }
  if (name == "circle") {
    if (params.size() != 3) throw KeyError{ckey + ".params", "a circle is [radius, large_arc, right]"};
    return circleArc(start, end, number(params[0], ckey + ".params[0]"), number(params[1], ckey + ".params[1]") != 0.0,
                     number(params[2], ckey + ".params[2]") != 0.0, sampleLengthInUnits, ckey + ".params");
  }
  throw KeyError{ckey + ".type", "unknown curve '" + name + "' (quadratic, cubic, circle)"};
}

double signedArea(const std::vector<PanelEdge>& edges) {
  double twice = 0.0;
  for (const PanelEdge& e : edges)
    for (std::size_t i = 0; i + 1 < e.points.size(); ++i)
      twice += double(e.points[i].x) * e.points[i + 1].y - double(e.points[i + 1].x) * e.points[i].y;
  return 0.5 * twice;
}

struct Units {
  double perMetre = 1.0;
  bool relative = true;
};

Units readUnits(const json& root) {
  const json& properties = member(root, "properties", "");
  Units u;
  auto units = properties.find("units_in_meter");
  if (units == properties.end())
    throw KeyError{"properties.units_in_meter", "is missing: the file does not say its unit (100: centimetres)"};
  u.perMetre = number(*units, "properties.units_in_meter");
  if (!(u.perMetre > 0.0 && u.perMetre <= 1e6))
    throw KeyError{"properties.units_in_meter", "must be in (0, 1e6] (100: centimetres)"};
  auto coords = properties.find("curvature_coords");
  if (coords != properties.end()) {
    if (*coords == "relative")
      u.relative = true;
    else if (*coords == "absolute")
      u.relative = false;
    else
      throw KeyError{"properties.curvature_coords", "must be \"relative\" or \"absolute\""};
  }
  return u;
}

/// The panels' names in reading order: pattern.panel_order, else the file's key order.
std::vector<std::string> panelOrder(const json& pattern, const json& panels) {
  std::vector<std::string> order;
  auto given = pattern.find("panel_order");
  if (given == pattern.end()) {
    for (auto it = panels.begin(); it != panels.end(); ++it) order.push_back(it.key());
    return order;
  }
  if (!given->is_array()) throw KeyError{"pattern.panel_order", "must be an array of panel names"};
  for (std::size_t i = 0; i < given->size(); ++i) {
    const json& name = (*given)[i];
    if (!name.is_string() || !panels.contains(name.get<std::string>()))
      throw KeyError{"pattern.panel_order[" + std::to_string(i) + "]", "is not a panel of pattern.panels"};
    order.push_back(name.get<std::string>());
  }
  if (order.size() != panels.size())
    throw KeyError{"pattern.panel_order", "must name each of the " + std::to_string(panels.size()) + " panels once"};
  return order;
}

void readPanel(const std::string& name, const json& panel, const Units& units, const GarmentCodeOptions& options,
               PatternFile& out) {
  const std::string key = "pattern.panels." + name;
  const json& vertices = member(panel, "vertices", key);
  const json& edges = member(panel, "edges", key);
  if (!vertices.is_array() || vertices.size() < 2) throw KeyError{key + ".vertices", "must list at least 2 [x, y]"};
  if (!edges.is_array() || edges.empty() || edges.size() > kMaxEdges)
    throw KeyError{key + ".edges", "must list 1.." + std::to_string(kMaxEdges) + " edges"};
  Points corners;
  for (std::size_t i = 0; i < vertices.size(); ++i)
    corners.push_back(point2(vertices[i], key + ".vertices[" + std::to_string(i) + "]"));

  Panel p;
  p.name = name;
  std::vector<std::size_t> starts, ends;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::string ekey = key + ".edges[" + std::to_string(e) + "]";
    const json& endpoints = member(edges[e], "endpoints", ekey);
    if (!endpoints.is_array() || endpoints.size() != 2) throw KeyError{ekey + ".endpoints", "must be [i, j]"};
    starts.push_back(index(endpoints[0], corners.size(), ekey + ".endpoints[0]", "a vertex"));
    ends.push_back(index(endpoints[1], corners.size(), ekey + ".endpoints[1]", "a vertex"));
    const Points points = edgePoints(corners[starts.back()], corners[ends.back()], edges[e], units.relative,
                                     options.sampleLength * units.perMetre, ekey);
    PanelEdge edge;
    edge.name = std::to_string(e);
    edge.name.insert(0, 1, 'e');  // not "e" + to_string: GCC 12's -Wrestrict false positive at -O3
    for (glm::dvec2 q : points) edge.points.push_back(glm::vec2(q / units.perMetre));
    p.edges.push_back(std::move(edge));
  }
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::size_t next = (e + 1) % edges.size();
    if (ends[e] != starts[next])
      throw KeyError{key + ".edges[" + std::to_string(next) + "].endpoints",
                     "starts at vertex " + std::to_string(starts[next]) + " but edges[" + std::to_string(e) +
                         "] ends at vertex " + std::to_string(ends[e]) +
                         ": the panel's outline is not one closed loop in order"};
  }
  glm::vec2 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
  for (const PanelEdge& e : p.edges)
    for (glm::vec2 q : e.points) lo = glm::min(lo, q), hi = glm::max(hi, q);
  if (hi.x - lo.x > kLargestPanel || hi.y - lo.y > kLargestPanel)
    throw KeyError{key + ".vertices", "the panel is " + std::to_string(std::max(hi.x - lo.x, hi.y - lo.y)) +
                                          " m across: check properties.units_in_meter"};

  PanelTransform transform;
  transform.rotation = eulerXyzRotation(point3(member(panel, "rotation", key), key + ".rotation"));
  transform.translation = glm::vec3(point3(member(panel, "translation", key), key + ".translation") / units.perMetre);
  if (signedArea(p.edges) < 0.0) {  // clockwise in its plane: mirrored, the mirror folded into the transform
    for (PanelEdge& e : p.edges)
      for (glm::vec2& q : e.points) q.x = -q.x;
    transform.rotation = transform.rotation * glm::mat3(glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1));
    out.mirroredPanels.push_back(name);
  }
  readRegion(panel, "hagoromo_region", key, p, out);
  out.pattern.panels.push_back(std::move(p));
  out.transforms.push_back(transform);
}

void readStitches(const json& pattern, const GarmentCodeOptions& options, PatternFile& out) {
  auto stitches = pattern.find("stitches");
  if (stitches == pattern.end()) return;
  if (!stitches->is_array()) throw KeyError{"pattern.stitches", "must be an array"};
  for (std::size_t k = 0; k < stitches->size(); ++k) {
    const std::string key = "pattern.stitches[" + std::to_string(k) + "]";
    const json& stitch = (*stitches)[k];
    if (!stitch.is_array() || stitch.size() < 2 || stitch.size() > 3)
      throw KeyError{key, "must be [{panel, edge}, {panel, edge}] with an optional \"right_wrong\""};
    int panels[2], edgeIndex[2];
    for (int side = 0; side < 2; ++side) {
      const std::string skey = key + "[" + std::to_string(side) + "]";
      const json& panelName = member(stitch[std::size_t(side)], "panel", skey);
      if (!panelName.is_string()) throw KeyError{skey + ".panel", "must be a panel name"};
      panels[side] = out.pattern.panelIndex(panelName.get<std::string>());
      if (panels[side] < 0) throw KeyError{skey + ".panel", "no panel '" + panelName.get<std::string>() + "'"};
      const Panel& p = out.pattern.panels[std::size_t(panels[side])];
      const json& e = member(stitch[std::size_t(side)], "edge", skey);
      if (!e.is_number_integer() || e.get<long long>() < 0 || std::size_t(e.get<long long>()) >= p.edges.size())
        throw KeyError{skey + ".edge", "panel '" + p.name + "' has " + std::to_string(p.edges.size()) +
                                           " edges, numbered 0.." + std::to_string(p.edges.size() - 1)};
      edgeIndex[side] = int(e.get<long long>());
    }
    bool reversed = true;
    if (stitch.size() == 3) {
      if (stitch[2] != "right_wrong") throw KeyError{key + "[2]", "the only third entry is \"right_wrong\""};
      reversed = false;
    }
    const PanelEdge& a = out.pattern.panels[std::size_t(panels[0])].edges[std::size_t(edgeIndex[0])];
    const PanelEdge& b = out.pattern.panels[std::size_t(panels[1])].edges[std::size_t(edgeIndex[1])];
    const std::string name = out.pattern.panels[std::size_t(panels[0])].name + "." + a.name + "+" +
                             out.pattern.panels[std::size_t(panels[1])].name + "." + b.name;
    out.pattern.seams.push_back({name, panels[0], edgeIndex[0], panels[1], edgeIndex[1], reversed});
    checkSeamLengths(out.pattern, out.pattern.seams.back(), options, key);
  }
}

/// GarmentCode stitches join one edge to one edge, so a seam along a curve comes as a run
/// of stitches between consecutive short edges (this project's writer cuts each seam so).
/// Each maximal run (edges k, k+1, ... of one panel stitched to consecutive edges of
/// another, in the opposite order when reversed, all reversed or all right_wrong) becomes
/// one seam between the runs' joined edges: the mesher then spaces the seam's vertices
/// evenly instead of keeping a vertex at every cut (cuts 0.1 mm apart made triangles
/// that tore the T-shirt apart at its first sewing frame). Unsewn curves written as runs of
/// straight edges are joined likewise.
void coalesceStitches(Pattern& pattern) {
  const std::size_t count = pattern.seams.size();
  // (panel, edge) -> seam using it.
  std::map<std::pair<int, int>, std::size_t> seamAt;
  for (std::size_t k = 0; k < count; ++k) {
    seamAt[{pattern.seams[k].panelA, pattern.seams[k].edgeA}] = k;
    seamAt[{pattern.seams[k].panelB, pattern.seams[k].edgeB}] = k;
  }
  const auto edgesOf = [&](int panel) { return int(pattern.panels[std::size_t(panel)].edges.size()); };
  // The seam that continues `seam` one edge further along its A side (direction +1) or
  // back (-1), as seen from side (pa, ea) paired with (pb, eb); count when none.
  const auto neighbour = [&](int pa, int ea, int pb, int eb, bool reversed, int direction) {
    const int na = edgesOf(pa), nb = edgesOf(pb);
    const int a = ((ea + direction) % na + na) % na;
    const int step = reversed ? -direction : direction;
    const int b = ((eb + step) % nb + nb) % nb;
    auto it = seamAt.find({pa, a});
    if (it == seamAt.end()) return count;
    const Seam& s = pattern.seams[it->second];
    const bool matches =
        s.reversed == reversed && ((s.panelA == pa && s.edgeA == a && s.panelB == pb && s.edgeB == b) ||
                                   (s.panelB == pa && s.edgeB == a && s.panelA == pb && s.edgeA == b));
    return matches ? it->second : count;
  };
  std::vector<bool> done(count, false);
  struct Run {
    int pa, pb;
    std::vector<int> a, b;  ///< the A side's edges in order, and the B edges they are sewn to
    bool reversed;
  };
  std::vector<Run> runs;
  for (std::size_t k = 0; k < count; ++k) {
    if (done[k]) continue;
    const Seam& first = pattern.seams[k];
    Run run{first.panelA, first.panelB, {first.edgeA}, {first.edgeB}, first.reversed};
    done[k] = true;
    std::set<std::pair<int, int>> used{{run.pa, first.edgeA}, {run.pb, first.edgeB}};
    for (int direction : {+1, -1}) {
      while (int(run.a.size()) < edgesOf(run.pa)) {
        const int ea = direction > 0 ? run.a.back() : run.a.front();
        const int eb = direction > 0 ? run.b.back() : run.b.front();
        const std::size_t next = neighbour(run.pa, ea, run.pb, eb, run.reversed, direction);
        if (next == count || done[next]) break;
        const Seam& s = pattern.seams[next];
        const bool same =
            s.panelA == run.pa && s.edgeA == ((ea + direction) % edgesOf(run.pa) + edgesOf(run.pa)) % edgesOf(run.pa);
        const int a = same ? s.edgeA : s.edgeB, b = same ? s.edgeB : s.edgeA;
        if (used.count({run.pa, a}) || used.count({run.pb, b})) break;  // a self-seam's two runs meet
        used.insert({run.pa, a});
        used.insert({run.pb, b});
        done[next] = true;
        if (direction > 0) {
          run.a.push_back(a);
          run.b.push_back(b);
        } else {
          run.a.insert(run.a.begin(), a);
          run.b.insert(run.b.begin(), b);
        }
      }
    }
    runs.push_back(std::move(run));
  }
  // Join each run's edges per panel; seams then sew the joined edges.
  std::vector<std::vector<EdgeRange>> ranges(pattern.panels.size());
  std::vector<std::vector<std::pair<std::size_t, int>>> owners(pattern.panels.size());  // (run, side); run -1: unsewn
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Run& run = runs[r];
    ranges[std::size_t(run.pa)].push_back({std::size_t(run.pa), std::size_t(run.a.front()), std::size_t(run.a.back())});
    owners[std::size_t(run.pa)].emplace_back(r, 0);
    // The B edges run the other way when reversed: counter-clockwise they go from the last to the first.
    const int bFirst = run.reversed ? run.b.back() : run.b.front(), bLast = run.reversed ? run.b.front() : run.b.back();
    ranges[std::size_t(run.pb)].push_back({std::size_t(run.pb), std::size_t(bFirst), std::size_t(bLast)});
    owners[std::size_t(run.pb)].emplace_back(r, 1);
  }
  // Runs of unsewn edges that meet at smooth joints (turning less than 30 degrees: a curve
  // written as straight pieces, not a corner) are joined too.
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const std::vector<PanelEdge>& edges = pattern.panels[p].edges;
    const std::size_t n = edges.size();
    const auto sewn = [&](std::size_t e) { return seamAt.count({int(p), int(e)}) > 0; };
    const auto smoothAfter = [&](std::size_t e) {  // the joint between edge e and e + 1
      const PanelEdge &a = edges[e], &b = edges[(e + 1) % n];
      const glm::vec2 in = a.points.back() - a.points[a.points.size() - 2], out = b.points[1] - b.points.front();
      return glm::dot(in, out) > std::cos(glm::radians(30.0f)) * glm::length(in) * glm::length(out);
    };
    // Start after a joint that ends a run (a sewn edge or a corner), so that no run wraps.
    std::size_t start = n;
    for (std::size_t e = 0; e < n && start == n; ++e)
      if (sewn(e) || !smoothAfter(e)) start = (e + 1) % n;
    if (start == n) continue;  // one smooth unsewn loop: leave it
    for (std::size_t k = 0; k < n;) {
      const std::size_t first = (start + k) % n;
      std::size_t length = 1;
      if (!sewn(first))
        while (k + length < n && !sewn((first + length - 1 + 1) % n) && smoothAfter((first + length - 1) % n)) ++length;
      if (length > 1) {
        ranges[p].push_back({p, first, (first + length - 1) % n});
        owners[p].emplace_back(std::size_t(-1), 0);
      }
      k += length;
    }
  }
  std::vector<std::array<int, 2>> joined(runs.size(), {-1, -1});
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    if (ranges[p].empty()) continue;
    const std::vector<std::string> keys(ranges[p].size(), "pattern.stitches");
    const std::vector<int> at = joinRanges(pattern.panels[p], pattern.panels[p].edges.size(), false, ranges[p], keys);
    for (std::size_t i = 0; i < at.size(); ++i)
      if (owners[p][i].first != std::size_t(-1)) joined[owners[p][i].first][std::size_t(owners[p][i].second)] = at[i];
  }
  std::vector<Seam> seams;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Run& run = runs[r];
    const Panel &a = pattern.panels[std::size_t(run.pa)], &b = pattern.panels[std::size_t(run.pb)];
    const int ea = joined[r][0], eb = joined[r][1];
    seams.push_back({a.name + "." + a.edges[std::size_t(ea)].name + "+" + b.name + "." + b.edges[std::size_t(eb)].name,
                     run.pa, ea, run.pb, eb, run.reversed});
  }
  pattern.seams = std::move(seams);
}

}  // namespace

Result<PatternFile> parseGarmentCode(const std::string& text, const std::string& origin,
                                     const GarmentCodeOptions& options) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    return Error{origin + ": not valid JSON: " + e.what()};
  }
  PatternFile out;
  try {
    const Units units = readUnits(root);
    const json& pattern = member(root, "pattern", "");
    const json& panels = member(pattern, "panels", "pattern");
    if (!panels.is_object() || panels.empty() || panels.size() > kMaxPanels)
      throw KeyError{"pattern.panels", "must map 1.." + std::to_string(kMaxPanels) + " panel names to panels"};
    for (const std::string& name : panelOrder(pattern, panels)) readPanel(name, panels[name], units, options, out);
    readStitches(pattern, options, out);
    coalesceStitches(out.pattern);
  } catch (const KeyError& e) {
    return Error{origin + ": " + (e.key.starts_with(".") ? e.key.substr(1) : e.key) + ": " + e.message};
  }
  out.seamLengthTolerance = options.ease ? std::numeric_limits<double>::infinity() : options.seamLengthTolerance;
  if (Status s = out.pattern.validate(out.seamLengthTolerance); !s) return s.error().prefixed(origin + ": ");
  return out;
}

Result<PatternFile> readGarmentCode(const std::filesystem::path& path, const GarmentCodeOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open the pattern file"};
  std::ostringstream text;
  text << in.rdbuf();
  auto file = parseGarmentCode(text.str(), path.string(), options);
  if (file) file->pattern.name = path.stem().string();
  return file;
}

namespace {

/// Arc-length fractions (0..1) of a polyline's points.
std::vector<double> fractionsOf(const std::vector<glm::vec2>& points) {
  std::vector<double> at{0.0};
  for (std::size_t i = 1; i < points.size(); ++i)
    at.push_back(at.back() + glm::distance(glm::dvec2(points[i - 1]), glm::dvec2(points[i])));
  for (double& f : at) f /= at.back();
  return at;
}

/// The point at arc-length fraction f of a polyline (`fractions` its points' fractions).
glm::dvec2 pointAt(const std::vector<glm::vec2>& points, const std::vector<double>& fractions, double f) {
  auto it = std::upper_bound(fractions.begin(), fractions.end(), f);
  if (it == fractions.begin()) return glm::dvec2(points.front());
  if (it == fractions.end()) return glm::dvec2(points.back());
  const std::size_t i = std::size_t(it - fractions.begin());
  const double span = fractions[i] - fractions[i - 1];
  const double t = span > 0.0 ? (f - fractions[i - 1]) / span : 0.0;
  return glm::mix(glm::dvec2(points[i - 1]), glm::dvec2(points[i]), t);
}

}  // namespace

Result<std::string> writeGarmentCode(const Pattern& pattern, const std::vector<PanelTransform>& transforms) {
  if (Status s = pattern.validate(std::numeric_limits<double>::infinity()); !s) return s.error();
  if (transforms.size() != pattern.panels.size())
    return Error{"pattern '" + pattern.name + "': " + std::to_string(pattern.panels.size()) + " panels but " +
                 std::to_string(transforms.size()) + " transforms"};
  constexpr double kUnits = 100.0;  // centimetres, as GarmentCode writes
  // Each edge's cut fractions: its own points', and for a seam edge its partner's too.
  std::vector<std::vector<std::vector<double>>> cuts(pattern.panels.size());
  // Sorted, without fractions closer than 1e-7 (a repeated point would write an edge of
  // no length), from exactly 0 to exactly 1.
  const auto distinct = [](std::vector<double> at) {
    std::sort(at.begin(), at.end());
    std::vector<double> out{0.0};
    for (double f : at)
      if (f - out.back() > 1e-7 && 1.0 - f > 1e-7) out.push_back(f);
    out.push_back(1.0);
    return out;
  };
  for (std::size_t p = 0; p < pattern.panels.size(); ++p)
    for (const PanelEdge& e : pattern.panels[p].edges) cuts[p].push_back(distinct(fractionsOf(e.points)));
  for (const Seam& seam : pattern.seams) {
    auto& a = cuts[std::size_t(seam.panelA)][std::size_t(seam.edgeA)];
    auto& b = cuts[std::size_t(seam.panelB)][std::size_t(seam.edgeB)];
    std::vector<double> merged = a;
    for (double f : b) merged.push_back(seam.reversed ? 1.0 - f : f);
    const std::vector<double> unique = distinct(merged);
    a = unique;
    b.clear();
    for (auto it = unique.rbegin(); it != unique.rend(); ++it) b.push_back(seam.reversed ? 1.0 - *it : *it);
    if (!seam.reversed) b = unique;
  }
  // A self-seam's two edges are on one panel; the cuts above hold for both.
  json panels = json::object();
  std::vector<std::vector<std::size_t>> firstPiece(pattern.panels.size());  // per edge, its first written edge
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const Panel& panel = pattern.panels[p];
    glm::mat3 rotation = transforms[p].rotation;
    const bool mirrored = glm::determinant(rotation) < 0.0f;
    if (mirrored) rotation = rotation * glm::mat3(glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1));
    json vertices = json::array(), edges = json::array();
    for (std::size_t e = 0; e < panel.edges.size(); ++e) {
      const PanelEdge& edge = panel.edges[e];
      const std::vector<double> own = fractionsOf(edge.points);
      firstPiece[p].push_back(edges.size());
      const std::vector<double>& at = cuts[p][e];
      for (std::size_t k = 0; k + 1 < at.size(); ++k) {
        glm::dvec2 q = pointAt(edge.points, own, at[k]);
        if (mirrored) q.x = -q.x;
        vertices.push_back({q.x * kUnits, q.y * kUnits});
        edges.push_back({{"endpoints", {vertices.size() - 1, vertices.size()}}});
      }
    }
    edges.back()["endpoints"][1] = 0;  // the loop closes on the first vertex
    const glm::dvec3 t = glm::dvec3(transforms[p].translation) * kUnits;
    panels[panel.name] = {{"translation", {t.x, t.y, t.z}},
                          {"rotation",
                           [&] {
                             const glm::dvec3 r = eulerXyzDegrees(rotation);
                             return json{r.x, r.y, r.z};
                           }()},
                          {"vertices", vertices},
                          {"edges", edges},
                          {"hagoromo_region", bodyRegionName(panel.region)}};
  }
  json stitches = json::array();
  for (const Seam& seam : pattern.seams) {
    const std::size_t n = cuts[std::size_t(seam.panelA)][std::size_t(seam.edgeA)].size() - 1;
    const std::string& a = pattern.panels[std::size_t(seam.panelA)].name;
    const std::string& b = pattern.panels[std::size_t(seam.panelB)].name;
    for (std::size_t k = 0; k < n; ++k) {
      json stitch = {
          {{"panel", a}, {"edge", firstPiece[std::size_t(seam.panelA)][std::size_t(seam.edgeA)] + k}},
          {{"panel", b},
           {"edge", firstPiece[std::size_t(seam.panelB)][std::size_t(seam.edgeB)] + (seam.reversed ? n - 1 - k : k)}}};
      if (!seam.reversed) stitch.push_back("right_wrong");
      stitches.push_back(stitch);
    }
  }
  json order = json::array();
  for (const Panel& panel : pattern.panels) order.push_back(panel.name);
  const json file = {{"pattern", {{"panels", panels}, {"stitches", stitches}, {"panel_order", order}}},
                     {"parameters", json::object()},
                     {"properties",
                      {{"curvature_coords", "relative"},
                       {"units_in_meter", kUnits},
                       {"written_by", "hagoromo (sim/garment/GarmentCode.h)"}}}};
  return file.dump(2) + "\n";
}

std::vector<PanelTransform> blockLayout(const Pattern& pattern, const BodyFrame& frame) {
  constexpr float kInFront = 0.25f;  // m from the body's axis
  std::vector<PanelTransform> out;
  const glm::mat3 facingBack = glm::mat3(glm::rotate(glm::mat4(1.0f), std::numbers::pi_v<float>, glm::vec3(0, 1, 0)));
  for (const Panel& panel : pattern.panels) {
    PanelTransform t;
    switch (panel.region) {
      case BodyRegion::TorsoFront:
      case BodyRegion::LeftLegFront:
      case BodyRegion::RightLegFront:
        t.translation = glm::vec3(frame.torsoAxis.x, 0.0f, frame.torsoAxis.y + kInFront);
        break;
      case BodyRegion::TorsoBack:
      case BodyRegion::LeftLegBack:
      case BodyRegion::RightLegBack:
        t.rotation = facingBack;
        t.translation = glm::vec3(frame.torsoAxis.x, 0.0f, frame.torsoAxis.y - kInFront);
        break;
      case BodyRegion::LeftArm:
      case BodyRegion::RightArm: {
        const bool left = panel.region == BodyRegion::LeftArm;
        const glm::vec3 shoulder = left ? frame.leftShoulder : frame.rightShoulder;
        const glm::vec3 wrist = left ? frame.leftWrist : frame.rightWrist;
        const glm::vec3 d =
            glm::length(wrist - shoulder) > 1e-6f ? glm::normalize(wrist - shoulder) : glm::vec3(0, -1, 0);
        // Panel -y (toward the wrist) along the arm: Rz(theta) (0, 1, 0) = -d.
        t.rotation = glm::mat3(glm::rotate(glm::mat4(1.0f), std::atan2(d.x, -d.y), glm::vec3(0, 0, 1)));
        t.translation = shoulder + glm::vec3(0.0f, 0.0f, kInFront);
        break;
      }
    }
    out.push_back(t);
  }
  return out;
}

namespace pattern_io {

const json& member(const json& object, const std::string& name, const std::string& key) {
  if (!object.is_object()) throw KeyError{key, "must be an object"};
  auto it = object.find(name);
  if (it == object.end()) throw KeyError{key + "." + name, "is missing"};
  return *it;
}

double number(const json& value, const std::string& key) {
  if (!value.is_number()) throw KeyError{key, "must be a number"};
  const double x = value.get<double>();
  if (!std::isfinite(x)) throw KeyError{key, "must be finite"};
  return x;
}

glm::dvec2 point2(const json& value, const std::string& key) {
  if (!value.is_array() || value.size() != 2) throw KeyError{key, "must be [x, y]"};
  return {number(value[0], key + "[0]"), number(value[1], key + "[1]")};
}

glm::dvec3 point3(const json& value, const std::string& key) {
  if (!value.is_array() || value.size() != 3) throw KeyError{key, "must be [x, y, z]"};
  return {number(value[0], key + "[0]"), number(value[1], key + "[1]"), number(value[2], key + "[2]")};
}

std::size_t segmentsFor(double length, double sampleLength) {
  return std::clamp<std::size_t>(std::size_t(std::ceil(length / sampleLength)), 2, kMaxCurveSegments);
}

/// The arc of `radius` from start to end that bulges to the right of start -> end when
/// `right` (else to the left); the larger of the two such arcs when `largeArc` (SVG's arc
/// flags; GarmentCode's pattern/core.py, _edge_as_curve).
Points circleArc(glm::dvec2 start, glm::dvec2 end, double radius, bool largeArc, bool right, double sampleLength,
                 const std::string& key) {
  const glm::dvec2 d = end - start;
  const double chord = glm::length(d), half = 0.5 * chord;
  if (!(radius > 0.0)) throw KeyError{key, "the circle's radius must be > 0"};
  if (radius < half) {
    if (radius < half * (1.0 - 1e-6))
      throw KeyError{key, "the circle's radius " + std::to_string(radius) + " is less than half its chord " +
                              std::to_string(half)};
    radius = half;
  }
  const glm::dvec2 rightNormal = glm::dvec2(d.y, -d.x) / chord;
  const glm::dvec2 bulge = right ? rightNormal : -rightNormal;
  const double offset = std::sqrt(std::max(radius * radius - half * half, 0.0));
  const glm::dvec2 centre = 0.5 * (start + end) + (largeArc ? bulge : -bulge) * offset;
  const glm::dvec2 arcMiddle = centre + bulge * radius;
  const auto angleOf = [&](glm::dvec2 p) { return std::atan2(p.y - centre.y, p.x - centre.x); };
  const auto wrapped = [](double a) {
    a = std::fmod(a, 2.0 * std::numbers::pi);
    return a < 0.0 ? a + 2.0 * std::numbers::pi : a;
  };
  const double a0 = angleOf(start);
  double sweep = wrapped(angleOf(end) - a0);
  if (wrapped(angleOf(arcMiddle) - a0) > sweep) sweep -= 2.0 * std::numbers::pi;  // clockwise through the bulge
  const std::size_t n = segmentsFor(std::abs(sweep) * radius, sampleLength);
  Points out;
  for (std::size_t k = 0; k <= n; ++k) {
    const double a = a0 + sweep * double(k) / double(n);
    out.push_back(centre + radius * glm::dvec2(std::cos(a), std::sin(a)));
  }
  out.front() = start;
  out.back() = end;
  return out;
}

std::vector<int> joinRanges(Panel& panel, std::size_t drawnCount, bool isMirrored, const std::vector<EdgeRange>& ranges,
                            const std::vector<std::string>& keys) {
  const std::size_t n = panel.edges.size();
  std::vector<int> group(n, -1);  // panel edge -> range
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const std::size_t span = (ranges[r].last + drawnCount - ranges[r].first) % drawnCount;
    for (std::size_t k = 0; k <= span; ++k) {
      const std::size_t drawn = (ranges[r].first + k) % drawnCount;
      const std::size_t at = isMirrored ? n - 1 - drawn : drawn;
      if (group[at] >= 0)
        throw KeyError{keys[r], "edge " + std::to_string(drawn) + " of piece '" + panel.name + "' is already in " +
                                    keys[std::size_t(group[at])]};
      group[at] = int(r);
    }
  }
  // Start at an edge that begins a group or is in none, so that each group is met from its start.
  std::size_t start = 0;
  while (start < n && group[start] >= 0 && group[start] == group[(start + n - 1) % n]) ++start;
  if (start == n) start = 0;
  std::vector<PanelEdge> edges;
  std::vector<int> joined(ranges.size(), -1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (start + k) % n;
    const int g = group[i];
    if (g >= 0 && joined[std::size_t(g)] >= 0) {  // continues the group's edge
      PanelEdge& e = edges[std::size_t(joined[std::size_t(g)])];
      e.points.insert(e.points.end(), panel.edges[i].points.begin() + 1, panel.edges[i].points.end());
      e.name += "+" + panel.edges[i].name;
      continue;
    }
    if (g >= 0) joined[std::size_t(g)] = int(edges.size());
    edges.push_back(panel.edges[i]);
  }
  panel.edges = std::move(edges);
  return joined;
}

void readRegion(const json& object, const std::string& name, const std::string& key, Panel& panel, PatternFile& out) {
  auto region = object.find(name);
  if (region == object.end()) return;
  const auto r = region->is_string() ? parseBodyRegion(region->get<std::string>()) : std::nullopt;
  if (!r)
    throw KeyError{key + "." + name,
                   "must be torso_front, torso_back, left_arm, right_arm, left_leg_front, left_leg_back, "
                   "right_leg_front or right_leg_back"};
  panel.region = *r;
  ++out.regionCount;
}

void checkSeamLengths(const Pattern& pattern, const Seam& seam, const PatternReadOptions& options,
                      const std::string& key) {
  const PanelEdge& a = pattern.panels[std::size_t(seam.panelA)].edges[std::size_t(seam.edgeA)];
  const PanelEdge& b = pattern.panels[std::size_t(seam.panelB)].edges[std::size_t(seam.edgeB)];
  if (options.ease || std::abs(a.length() - b.length()) <= options.seamLengthTolerance) return;
  std::ostringstream message;
  message.precision(4);
  message << "sews edges of different lengths (" << seam.name << ": " << a.length() << " m and " << b.length()
          << " m, more than " << options.seamLengthTolerance * 1000.0
          << " mm apart); to gather the longer onto the shorter, set \"ease\": true on the garment";
  throw KeyError{key, message.str()};
}

}  // namespace pattern_io

}  // namespace hg
