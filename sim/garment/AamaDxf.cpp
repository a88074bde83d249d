#include "sim/garment/AamaDxf.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>

#include <dl_creationadapter.h>
#include <dl_dxf.h>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "sim/garment/PatternIo.h"

namespace hg {

namespace {

using namespace pattern_io;

// ASTM D6673 layers.
constexpr int kBoundaryLayer = 1, kTurnPointLayer = 2, kNotchLayer = 4, kGrainLayer = 7, kSewLayer = 14;
constexpr std::size_t kMaxBlocks = 10000, kMaxVertices = 2'000'000;
constexpr double kJoinTolerance = 5e-5;  ///< m: line ends this close join; a turn point this close is on the outline
constexpr double kCornerDegrees = 20.0;  ///< corners of a piece without turn points turn by more
/// m: a notch this far from the outline still marks it (notches drawn on the cut line of a
/// piece whose sew line is the outline sit a seam allowance away); farther ones are not read.
constexpr double kNotchReach = 0.02;
/// m: notches of two edges this close along them match (seams from notches).
constexpr double kNotchMatch = 0.003;
constexpr std::size_t kMaxEasedNotchedEdges = 5000;  ///< with ease every pair is tried
constexpr double kNotchLength = 5.0;                 ///< mm, the notch lines the writer draws (inward from the outline)

// ---------------------------------------------------------------- the DXF as drawn

struct DxfVertex {
  glm::dvec2 p{0.0};
  double bulge = 0.0;  ///< tan(included angle / 4) of the arc to the next vertex; > 0 counter-clockwise
};

struct DxfPath {
  int layer = 0;
  std::vector<DxfVertex> vertices;
  bool closed = false;
};

struct DxfBlock {
  std::string name;
  std::vector<std::string> texts;
  std::vector<DxfPath> paths;  ///< polylines, lines and sampled arcs
  std::vector<std::pair<int, glm::dvec2>> points;
  std::vector<std::pair<glm::dvec2, glm::dvec2>> grainLines;
  std::vector<std::pair<glm::dvec2, glm::dvec2>> notchLines;  ///< layer 4 LINEs
  std::string unsupported;                                    ///< the first outline entity that is not read (a SPLINE)
};

struct DxfDrawing {
  std::vector<DxfBlock> blocks;
  std::vector<std::string> texts;  ///< outside blocks: the style's system text
  int insUnits = 0;
  std::size_t vertices = 0;
  bool tooLarge = false;
};

int layerNumber(const std::string& layer) {
  if (layer.empty() || layer.size() > 6 || !std::all_of(layer.begin(), layer.end(), ::isdigit)) return -1;
  return std::stoi(layer);
}

/// dxflib's callbacks, collected per block.
class Collector : public DL_CreationAdapter {
 public:
  DxfDrawing drawing;

  void addBlock(const DL_BlockData& data) override {
    m_path = -1;
    if (drawing.blocks.size() >= kMaxBlocks) {
      drawing.tooLarge = true;
      m_block = -1;
      return;
    }
    drawing.blocks.push_back({});
    drawing.blocks.back().name = data.name;
    m_block = int(drawing.blocks.size()) - 1;
  }
  void endBlock() override { m_block = m_path = -1; }

  void addPolyline(const DL_PolylineData& data) override {
    m_path = -1;
    if (DxfBlock* b = block()) {
      b->paths.push_back({layer(), {}, (data.flags & 1) != 0});
      m_path = int(b->paths.size()) - 1;
    }
  }
  void addVertex(const DL_VertexData& data) override {
    DxfBlock* b = block();
    if (!b || m_path < 0 || !counted(1)) return;
    b->paths[std::size_t(m_path)].vertices.push_back({{data.x, data.y}, std::isfinite(data.bulge) ? data.bulge : 0.0});
  }
  void addLine(const DL_LineData& data) override {
    m_path = -1;
    DxfBlock* b = block();
    if (!b || !counted(2)) return;
    const glm::dvec2 from(data.x1, data.y1), to(data.x2, data.y2);
    if (layer() == kGrainLayer)
      b->grainLines.emplace_back(from, to);
    else if (layer() == kNotchLayer)
      b->notchLines.emplace_back(from, to);
    else
      b->paths.push_back({layer(), {{from}, {to}}, false});
  }
  void addArc(const DL_ArcData& data) override {
    m_path = -1;
    DxfBlock* b = block();
    if (!b || !counted(64)) return;
    // Counter-clockwise from angle1 to angle2 (degrees): sampled as a path of 1-degree steps at most.
    double sweep = std::fmod(data.angle2 - data.angle1, 360.0);
    if (sweep <= 0.0) sweep += 360.0;
    const int n = std::clamp(int(std::ceil(sweep)), 2, 360);
    DxfPath path{layer(), {}, false};
    for (int k = 0; k <= n; ++k) {
      const double a = glm::radians(data.angle1 + sweep * k / n);
      path.vertices.push_back({{data.cx + data.radius * std::cos(a), data.cy + data.radius * std::sin(a)}});
    }
    b->paths.push_back(std::move(path));
  }
  void addPoint(const DL_PointData& data) override {
    m_path = -1;
    if (DxfBlock* b = block(); b && counted(1)) b->points.emplace_back(layer(), glm::dvec2(data.x, data.y));
  }
  void addText(const DL_TextData& data) override {
    m_path = -1;
    if (DxfBlock* b = block())
      b->texts.push_back(data.text);
    else if (m_block < 0 && drawing.texts.size() < 1000)
      drawing.texts.push_back(data.text);
  }
  void addSpline(const DL_SplineData&) override {
    m_path = -1;
    if (DxfBlock* b = block(); b && b->unsupported.empty() && (layer() == kBoundaryLayer || layer() == kSewLayer))
      b->unsupported = "a SPLINE on layer " + std::to_string(layer());
  }
  void setVariableInt(const std::string& key, int value, int) override {
    if (key == "$INSUNITS") drawing.insUnits = value;
  }

 private:
  int m_block = -1, m_path = -1;

  DxfBlock* block() { return m_block >= 0 ? &drawing.blocks[std::size_t(m_block)] : nullptr; }
  int layer() { return layerNumber(attributes.getLayer()); }
  bool counted(std::size_t vertices) {
    drawing.vertices += vertices;
    if (drawing.vertices > kMaxVertices) drawing.tooLarge = true;
    return !drawing.tooLarge;
  }
};

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// The value of a system text "Key: value" (key case-insensitive), or none.
std::optional<std::string> textValue(const std::vector<std::string>& texts, const std::string& key) {
  for (const std::string& t : texts) {
    const auto colon = t.find(':');
    if (colon != std::string::npos && upper(trimmed(t.substr(0, colon))) == key) return trimmed(t.substr(colon + 1));
  }
  return std::nullopt;
}

/// Metres per unit of a unit name (the AAMA system text's or the sidecar's), or 0.
double metresPerUnit(const std::string& name) {
  const std::string u = upper(trimmed(name));
  if (u == "METRIC" || u == "MM") return 0.001;
  if (u == "ENGLISH" || u == "IN" || u == "INCH") return 0.0254;
  if (u == "CM") return 0.01;
  if (u == "M") return 1.0;
  return 0.0;
}

// ---------------------------------------------------------------- outlines

double signedArea(const Points& loop) {
  double twice = 0.0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const glm::dvec2 a = loop[i], b = loop[(i + 1) % loop.size()];
    twice += a.x * b.y - b.x * a.y;
  }
  return 0.5 * twice;
}

/// A path's points with its bulges sampled as arcs (file units).
Points expanded(const DxfPath& path, bool closed, double sampleLength, const std::string& key) {
  Points out;
  const std::size_t n = path.vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const DxfVertex& v = path.vertices[i];
    out.push_back(v.p);
    if (v.bulge == 0.0 || (i + 1 == n && !closed)) continue;
    const glm::dvec2 next = path.vertices[(i + 1) % n].p;
    const double chord = glm::distance(v.p, next);
    if (chord <= 0.0) continue;
    const double angle = 4.0 * std::atan(std::abs(v.bulge));  // included angle
    const double radius = chord / (2.0 * std::sin(0.5 * angle));
    Points arc = circleArc(v.p, next, radius, std::abs(v.bulge) > 1.0, v.bulge > 0.0, sampleLength, key);
    out.insert(out.end(), arc.begin() + 1, arc.end() - 1);
  }
  return out;
}

/// The closed loop on `layer` (file units, without a repeated last point), or none when
/// the layer has no lines. Throws KeyError for an open or ambiguous outline.
std::optional<Points> loopOn(const DxfBlock& block, int layer, double tolerance, double sampleLength,
                             const std::string& key) {
  std::vector<Points> closed, open;
  for (const DxfPath& path : block.paths) {
    if (path.layer != layer || path.vertices.size() < 2) continue;
    Points points = expanded(path, path.closed, sampleLength, key);
    const bool loop = path.closed || glm::distance(points.front(), points.back()) <= tolerance;
    if (loop && !path.closed) points.pop_back();
    (loop ? closed : open).push_back(std::move(points));
  }
  if (closed.empty() && open.empty()) return std::nullopt;
  const std::string where = "the outline on layer " + std::to_string(layer);
  if (closed.size() > 1) throw KeyError{key, where + " is " + std::to_string(closed.size()) + " closed loops, not one"};
  if (closed.size() == 1) {
    if (!open.empty())
      throw KeyError{key, where + " has " + std::to_string(open.size()) + " line(s) besides its closed loop"};
    return closed.front();
  }
  // Chain open lines end to end (either direction), from the first in the file.
  Points chain = open.front();
  std::vector<bool> used(open.size(), false);
  used[0] = true;
  for (std::size_t joined = 1; joined < open.size(); ++joined) {
    std::size_t best = open.size();
    bool flip = false;
    for (std::size_t i = 0; i < open.size() && best == open.size(); ++i) {
      if (used[i]) continue;
      if (glm::distance(open[i].front(), chain.back()) <= tolerance)
        best = i, flip = false;
      else if (glm::distance(open[i].back(), chain.back()) <= tolerance)
        best = i, flip = true;
    }
    if (best == open.size()) {
      std::ostringstream message;
      message << where << " is open: no line continues it at (" << chain.back().x << ", " << chain.back().y << ")";
      throw KeyError{key, message.str()};
    }
    used[best] = true;
    Points next = open[best];
    if (flip) std::reverse(next.begin(), next.end());
    chain.insert(chain.end(), next.begin() + 1, next.end());
  }
  const double gap = glm::distance(chain.front(), chain.back());
  if (gap > tolerance) {
    std::ostringstream message;
    message << where << " is open: its ends are " << gap << " file units apart";
    throw KeyError{key, message.str()};
  }
  chain.pop_back();
  return chain;
}

/// A piece as drawn, in metres: its outline counter-clockwise and the indices of its corners.
struct DrawnPiece {
  Points loop;
  std::vector<std::size_t> corners;
  glm::dvec2 grain{0.0, 1.0};
  std::vector<double> notches;  ///< m along the loop from loop[0], sorted: the notches on it
};

/// The nearest point of the closed polyline `loop` to q: its distance and its arc length
/// from loop[0].
std::pair<double, double> nearestOnLoop(const Points& loop, glm::dvec2 q) {
  double bestDistance = std::numeric_limits<double>::max(), bestArc = 0.0, arc = 0.0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const glm::dvec2 a = loop[i], d = loop[(i + 1) % loop.size()] - a;
    const double length = glm::length(d);
    const double t = length > 0.0 ? std::clamp(glm::dot(q - a, d) / (length * length), 0.0, 1.0) : 0.0;
    if (const double distance = glm::distance(a + t * d, q); distance < bestDistance)
      bestDistance = distance, bestArc = arc + t * length;
    arc += length;
  }
  return {bestDistance, bestArc};
}

/// The notches of `block` (layer 4: POINTs, or LINEs by their end nearer the outline) within
/// kNotchReach of `loop` (metres), as arc lengths along it, sorted.
std::vector<double> notchesOn(const DxfBlock& block, const Points& loop, double metres) {
  std::vector<std::pair<double, double>> marks;  // (distance, arc) of each notch's point on the outline
  for (const auto& [layer, q] : block.points)
    if (layer == kNotchLayer) marks.push_back(nearestOnLoop(loop, q * metres));
  for (const auto& [a, b] : block.notchLines)
    marks.push_back(std::min(nearestOnLoop(loop, a * metres), nearestOnLoop(loop, b * metres)));
  std::vector<double> arcs;
  for (const auto& [distance, arc] : marks)
    if (distance <= kNotchReach) arcs.push_back(arc);
  std::sort(arcs.begin(), arcs.end());
  return arcs;
}

/// Inserts the turn points near the outline into it; returns the corner indices, sorted.
std::vector<std::size_t> cornersOf(Points& loop, const std::vector<glm::dvec2>& turnPoints, double tolerance) {
  std::set<std::size_t> atVertex;
  std::map<std::size_t, std::vector<std::pair<double, glm::dvec2>>> onSegment;  // segment -> (t, point)
  for (glm::dvec2 q : turnPoints) {
    std::size_t nearest = 0;
    double best = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < loop.size(); ++i)
      if (const double d = glm::distance(loop[i], q); d < best) best = d, nearest = i;
    if (best <= tolerance) {
      atVertex.insert(nearest);
      continue;
    }
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const glm::dvec2 a = loop[i], d = loop[(i + 1) % loop.size()] - a;
      const double t = std::clamp(glm::dot(q - a, d) / glm::dot(d, d), 0.0, 1.0);
      if (glm::distance(a + t * d, q) <= tolerance) {
        onSegment[i].emplace_back(t, q);
        break;
      }
    }
  }
  Points out;
  std::vector<std::size_t> corners;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    if (atVertex.count(i)) corners.push_back(out.size());
    out.push_back(loop[i]);
    auto it = onSegment.find(i);
    if (it == onSegment.end()) continue;
    std::sort(it->second.begin(), it->second.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [t, q] : it->second) {
      corners.push_back(out.size());
      out.push_back(q);
    }
  }
  loop = std::move(out);
  if (corners.size() >= 2) return corners;
  // No turn points: corners where the outline turns by more than kCornerDegrees.
  corners.clear();
  const double cosLimit = std::cos(glm::radians(kCornerDegrees));
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const glm::dvec2 in = loop[i] - loop[(i + loop.size() - 1) % loop.size()];
    const glm::dvec2 out2 = loop[(i + 1) % loop.size()] - loop[i];
    if (glm::dot(in, out2) < cosLimit * glm::length(in) * glm::length(out2)) corners.push_back(i);
  }
  if (corners.size() >= 2) return corners;
  // A round piece: split at its first vertex and the one farthest from it.
  std::size_t far = 1;
  for (std::size_t i = 1; i < loop.size(); ++i)
    if (glm::distance(loop[i], loop[0]) > glm::distance(loop[far], loop[0])) far = i;
  return {0, far};
}

/// Drops points closer than `tolerance` to the one before (a repeated vertex).
Points withoutRepeats(const Points& loop, double tolerance) {
  Points out;
  for (glm::dvec2 q : loop)
    if (out.empty() || glm::distance(out.back(), q) > tolerance) out.push_back(q);
  while (out.size() > 1 && glm::distance(out.back(), out.front()) <= tolerance) out.pop_back();
  return out;
}

enum class OutlineChoice { Auto, Sew, Cut };

DrawnPiece drawnPiece(const DxfBlock& block, double metres, OutlineChoice choice, const PatternReadOptions& options,
                      const std::string& key) {
  if (!block.unsupported.empty())
    throw KeyError{key,
                   block.unsupported + " (outlines must be polylines, lines or arcs; export splines as polylines)"};
  const double tolerance = kJoinTolerance / metres, sample = options.sampleLength / metres;
  DrawnPiece piece;
  std::optional<Points> loop;
  if (choice == OutlineChoice::Sew) loop = loopOn(block, kSewLayer, tolerance, sample, key);
  if (choice == OutlineChoice::Auto) {
    try {  // sew lines that are not one closed loop (some vendors draw them per seam): the boundary
      loop = loopOn(block, kSewLayer, tolerance, sample, key);
    } catch (const KeyError&) {
      loop.reset();
    }
  }
  if (!loop && choice == OutlineChoice::Sew)
    throw KeyError{key, "has no sew line (layer 14); set \"outline\": \"cut\""};
  if (!loop) loop = loopOn(block, kBoundaryLayer, tolerance, sample, key);
  Points points = withoutRepeats(*loop, tolerance * 1e-3);
  if (points.size() < 3) throw KeyError{key, "the outline has fewer than 3 distinct points"};
  const double area = signedArea(points);
  if (!(std::abs(area) > 0.0)) throw KeyError{key, "the outline encloses no area"};
  if (area < 0.0) std::reverse(points.begin() + 1, points.end());  // counter-clockwise, same first vertex
  std::vector<glm::dvec2> turnPoints;
  for (const auto& [layer, q] : block.points)
    if (layer == kTurnPointLayer) turnPoints.push_back(q);
  piece.corners = cornersOf(points, turnPoints, tolerance);
  for (glm::dvec2& q : points) q *= metres;
  piece.loop = std::move(points);
  piece.notches = notchesOn(block, piece.loop, metres);
  if (!block.grainLines.empty()) {
    glm::dvec2 d = block.grainLines.front().second - block.grainLines.front().first;
    if (glm::length(d) > 0.0) {
      if (d.y < 0.0 || (d.y == 0.0 && d.x < 0.0)) d = -d;  // a line has no sense: the turn stays within 90 degrees
      piece.grain = glm::normalize(d);
    }
  }
  return piece;
}

/// The drawn piece as a panel: edges "e0", "e1", ... between its corners.
Panel panelOf(const DrawnPiece& piece, const std::string& name) {
  Panel panel;
  panel.name = name;
  const std::size_t n = piece.corners.size(), count = piece.loop.size();
  for (std::size_t k = 0; k < n; ++k) {
    PanelEdge edge;
    edge.name = std::to_string(k);
    edge.name.insert(0, 1, 'e');
    const std::size_t from = piece.corners[k], to = piece.corners[(k + 1) % n];
    for (std::size_t i = from;; i = (i + 1) % count) {
      edge.points.push_back(glm::vec2(piece.loop[i]));
      if (i == to && edge.points.size() > 1) break;
    }
    panel.edges.push_back(std::move(edge));
  }
  return panel;
}

/// The mirror image (x -> -x), still counter-clockwise: each edge reversed, the edges in
/// reverse order, names kept.
Panel mirrored(Panel panel) {
  for (PanelEdge& e : panel.edges) {
    for (glm::vec2& q : e.points) q.x = -q.x;
    std::reverse(e.points.begin(), e.points.end());
  }
  std::reverse(panel.edges.begin(), panel.edges.end());
  return panel;
}

// ---------------------------------------------------------------- the sidecar

void rejectUnknownKeys(const json& object, std::initializer_list<const char*> known, const std::string& key) {
  for (auto it = object.begin(); it != object.end(); ++it)
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return it.key() == k; })) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw KeyError{key + (key.empty() ? "" : ".") + it.key(), "unknown key (known: " + list + ")"};
    }
}

std::string stringAt(const json& value, const std::string& key) {
  if (!value.is_string()) throw KeyError{key, "must be a string"};
  return value.get<std::string>();
}

/// The pieces of the chosen size, by name.
std::map<std::string, const DxfBlock*> piecesOfSize(const DxfDrawing& drawing, const json& sidecar) {
  std::map<std::string, std::map<std::string, const DxfBlock*>> bySize;  // name -> size -> block
  for (const DxfBlock& b : drawing.blocks) {
    if (b.name.empty() || b.name.front() == '*') continue;
    const bool hasOutline = std::any_of(b.paths.begin(), b.paths.end(), [](const DxfPath& p) {
      return p.layer == kBoundaryLayer || p.layer == kSewLayer;
    });
    if (!hasOutline) continue;
    std::string name = textValue(b.texts, "PIECE NAME").value_or(b.name);
    if (name.empty()) name = b.name;
    bySize[name][textValue(b.texts, "SIZE").value_or("")] = &b;
  }
  if (bySize.empty())
    throw KeyError{"",
                   "no pattern pieces: no BLOCK has an outline on layer 1 or 14 (DXF-AAMA puts each piece in a block)"};
  std::optional<std::string> size;
  if (auto it = sidecar.find("size"); it != sidecar.end()) size = stringAt(*it, "size");
  const std::optional<std::string> sample = textValue(drawing.texts, "SAMPLE SIZE");
  std::map<std::string, const DxfBlock*> out;
  for (const auto& [name, sizes] : bySize) {
    if (sizes.size() == 1 && !size) {
      out[name] = sizes.begin()->second;
      continue;
    }
    const std::string wanted = size ? *size : sample.value_or("");
    auto it = sizes.find(wanted);
    if (it == sizes.end()) {
      std::string list;
      for (const auto& [s, b] : sizes) list += (list.empty() ? "" : ", ") + s;
      throw KeyError{size ? "size" : "", "piece '" + name + "' comes in sizes " + list +
                                             (size ? ", not '" + *size + "'" : "") +
                                             (size ? "" : ": set the sidecar's \"size\"")};
    }
    out[name] = it->second;
  }
  return out;
}

/// The drawn edge range of a seam side: {"piece", "edges": [i, j]}.
EdgeRange rangeOf(const json& side, const std::map<std::string, std::size_t>& instances,
                  const std::vector<std::size_t>& edgeCounts, const std::string& key) {
  rejectUnknownKeys(side, {"piece", "edges"}, key);
  const std::string name = stringAt(member(side, "piece", key), key + ".piece");
  auto it = instances.find(name);
  if (it == instances.end()) throw KeyError{key + ".piece", "no piece '" + name + "' in the sidecar's pieces"};
  const json& edges = member(side, "edges", key);
  if (!edges.is_array() || edges.size() != 2) throw KeyError{key + ".edges", "must be [first, last]"};
  const std::size_t n = edgeCounts[it->second];
  std::size_t ends[2];
  for (std::size_t k = 0; k < 2; ++k) {
    const json& e = edges[k];
    if (!e.is_number_integer() || e.get<long long>() < 0 || std::size_t(e.get<long long>()) >= n)
      throw KeyError{key + ".edges[" + std::to_string(k) + "]",
                     "piece '" + name + "' has " + std::to_string(n) + " edges, numbered 0.." + std::to_string(n - 1)};
    ends[k] = std::size_t(e.get<long long>());
  }
  return {it->second, ends[0], ends[1]};
}

/// An edge of a cut piece as its notches mark it: its length (m) and its notches' distances
/// (m) from its start in the panel's direction (a mirrored instance runs every drawn edge
/// the other way), ascending.
struct NotchedEdge {
  std::size_t instance = 0, edge = 0;  ///< the edge's drawn index
  double length = 0.0;
  std::vector<double> offsets;
};

/// The edges of `piece` that carry notches (not at their ends).
std::vector<NotchedEdge> notchedEdges(const DrawnPiece& piece, std::size_t instance, bool mirrored) {
  const Points& loop = piece.loop;
  const std::size_t n = loop.size(), m = piece.corners.size();
  std::vector<double> arcAt(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) arcAt[i + 1] = arcAt[i] + glm::distance(loop[i], loop[(i + 1) % n]);
  const double total = arcAt[n];
  std::vector<NotchedEdge> edges;
  for (std::size_t k = 0; k < m; ++k) {
    const double start = arcAt[piece.corners[k]];
    double length = arcAt[piece.corners[(k + 1) % m]] - start;
    if (length <= 0.0) length += total;  // the edge that runs past loop[0]
    NotchedEdge edge{instance, k, length, {}};
    for (double arc : piece.notches) {
      double offset = arc - start;
      if (offset < 0.0) offset += total;
      if (offset > kNotchMatch && offset < length - kNotchMatch)
        edge.offsets.push_back(mirrored ? length - offset : offset);
    }
    std::sort(edge.offsets.begin(), edge.offsets.end());
    if (!edge.offsets.empty()) edges.push_back(std::move(edge));
  }
  return edges;
}

/// Whether a seam sewing a's start to b's end (and a's end to b's start) meets every notch
/// of one with a notch of the other: as many notches, each of a at the distance from a's
/// start that its partner lies from b's end, within kNotchMatch (and the lengths' difference).
bool notchesMeet(const NotchedEdge& a, const NotchedEdge& b, double lengthTolerance) {
  if (a.instance == b.instance && a.edge == b.edge) return false;
  const double slack = std::abs(a.length - b.length);
  if (slack > lengthTolerance || a.offsets.size() != b.offsets.size()) return false;
  for (std::size_t i = 0; i < a.offsets.size(); ++i)
    if (std::abs(a.offsets[i] - (b.length - b.offsets[b.offsets.size() - 1 - i])) > kNotchMatch + slack) return false;
  return true;
}

/// Seams from the notches, for a sidecar without "seams": each notched edge's partner is the
/// one edge of another piece whose notches meet its own (notchesMeet), or when there is none
/// the one edge of its own piece (a tube); two edges that are each other's partner are sewn,
/// right side to right side. Two candidates of the same kind are an error naming them (a
/// symmetric piece's hip notches also meet each other's across the piece, hence the order).
std::vector<std::array<EdgeRange, 2>> notchSeams(const std::vector<const DrawnPiece*>& drawn,
                                                 const std::vector<bool>& isMirrored,
                                                 const std::vector<std::string>& instanceNames,
                                                 const PatternReadOptions& options) {
  std::vector<NotchedEdge> edges;
  for (std::size_t p = 0; p < drawn.size(); ++p)
    for (NotchedEdge& e : notchedEdges(*drawn[p], p, isMirrored[p])) edges.push_back(std::move(e));
  const double lengthTolerance = options.ease ? std::numeric_limits<double>::infinity() : options.seamLengthTolerance;
  if (options.ease && edges.size() > kMaxEasedNotchedEdges)
    throw KeyError{"seams", "none given, and " + std::to_string(edges.size()) +
                                " notched edges are too many to match with ease (every pair is tried): list the seams"};
  // By length, so that each edge is tried only against those within the tolerance of its own.
  std::stable_sort(edges.begin(), edges.end(),
                   [](const NotchedEdge& a, const NotchedEdge& b) { return a.length < b.length; });
  std::vector<std::vector<std::size_t>> partners(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i)
    for (std::size_t j = i + 1; j < edges.size() && edges[j].length - edges[i].length <= lengthTolerance; ++j)
      if (notchesMeet(edges[i], edges[j], lengthTolerance)) {
        partners[i].push_back(j);
        partners[j].push_back(i);
      }
  const auto describe = [&](std::size_t i) {
    return "piece '" + instanceNames[edges[i].instance] + "' edge " + std::to_string(edges[i].edge);
  };
  // Each edge's partner: the one match on another piece; else the one on its own piece.
  std::vector<std::optional<std::size_t>> chosen(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    std::vector<std::size_t> others, own;
    for (std::size_t j : partners[i]) (edges[j].instance == edges[i].instance ? own : others).push_back(j);
    const std::vector<std::size_t>& candidates = others.empty() ? own : others;
    if (candidates.size() > 1)
      throw KeyError{"seams", "none given, and the notches of " + describe(i) + " match both " +
                                  describe(candidates[0]) + " and " + describe(candidates[1]) +
                                  ": list the seams in the sidecar"};
    if (candidates.size() == 1) chosen[i] = candidates[0];
  }
  std::vector<std::array<EdgeRange, 2>> sides;
  for (std::size_t i = 0; i < edges.size(); ++i)
    if (chosen[i] && i < *chosen[i] && chosen[*chosen[i]] == i) {
      EdgeRange a{edges[i].instance, edges[i].edge, edges[i].edge};
      EdgeRange b{edges[*chosen[i]].instance, edges[*chosen[i]].edge, edges[*chosen[i]].edge};
      if (std::pair{b.instance, b.first} < std::pair{a.instance, a.first}) std::swap(a, b);
      sides.push_back({a, b});
    }
  // In the pieces' order, side a the earlier piece (the sidecar's order, not the lengths').
  std::sort(sides.begin(), sides.end(), [](const auto& x, const auto& y) {
    return std::pair{x[0].instance, x[0].first} < std::pair{y[0].instance, y[0].first};
  });
  return sides;
}

void readSidecar(const json& sidecar, const std::map<std::string, DrawnPiece>& pieces,
                 const PatternReadOptions& options, PatternFile& out) {
  const json& entries = member(sidecar, "pieces", "");
  if (!entries.is_object() || entries.empty()) throw KeyError{"pieces", "must map instance names to pieces"};
  std::set<std::string> cut;
  std::map<std::string, std::size_t> instances;
  std::vector<std::size_t> edgeCounts;
  std::vector<bool> isMirrored;
  std::vector<const DrawnPiece*> drawnOf;
  std::vector<std::string> instanceNames;
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    const std::string key = "pieces." + it.key();
    const json& entry = it.value();
    rejectUnknownKeys(entry, {"piece", "mirror", "rotation", "translation", "center", "region"}, key);
    const std::string pieceName = entry.contains("piece") ? stringAt(entry["piece"], key + ".piece") : it.key();
    auto piece = pieces.find(pieceName);
    if (piece == pieces.end()) {
      std::string list;
      for (const auto& [name, p] : pieces) list += (list.empty() ? "" : ", ") + name;
      throw KeyError{key + (entry.contains("piece") ? ".piece" : ""),
                     "the DXF has no piece '" + pieceName + "' (its pieces: " + list + ")"};
    }
    cut.insert(pieceName);
    bool mirror = false;
    if (auto m = entry.find("mirror"); m != entry.end()) {
      if (!m->is_boolean()) throw KeyError{key + ".mirror", "must be true or false"};
      mirror = m->get<bool>();
    }
    const DrawnPiece& drawn = piece->second;
    Panel panel = panelOf(drawn, it.key());
    readRegion(entry, "region", key, panel, out);
    glm::dvec2 grain = drawn.grain;
    if (mirror) panel = mirrored(std::move(panel)), grain.x = -grain.x;
    // Where the drawing's points go: world = rotation * q + translation, q the (mirrored) drawn point.
    const glm::mat3 rotation = eulerXyzRotation(point3(member(entry, "rotation", key), key + ".rotation"));
    glm::vec3 translation(0.0f);
    if (entry.contains("translation") == entry.contains("center"))
      throw KeyError{key, "needs exactly one of \"translation\" (where the drawing's origin goes) and \"center\""};
    if (entry.contains("translation")) {
      translation = glm::vec3(point3(entry["translation"], key + ".translation"));
    } else {
      glm::vec2 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
      for (const PanelEdge& e : panel.edges)
        for (glm::vec2 q : e.points) lo = glm::min(lo, q), hi = glm::max(hi, q);
      translation = glm::vec3(point3(entry["center"], key + ".center")) - rotation * glm::vec3(0.5f * (lo + hi), 0.0f);
    }
    // The grain turned onto panel +y: q' = G q; world = rotation G^-1 q' + translation.
    const double turn = std::atan2(grain.x, grain.y);
    PanelTransform transform{rotation, translation};
    if (std::abs(turn) > 1e-12) turnPanel(panel, transform, turn);
    instances[it.key()] = out.pattern.panels.size();
    edgeCounts.push_back(drawn.corners.size());
    isMirrored.push_back(mirror);
    drawnOf.push_back(&drawn);
    instanceNames.push_back(it.key());
    out.pattern.panels.push_back(std::move(panel));
    out.transforms.push_back(transform);
  }
  std::set<std::string> ignored;
  if (auto it = sidecar.find("ignore"); it != sidecar.end()) {
    if (!it->is_array()) throw KeyError{"ignore", "must list piece names"};
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string name = stringAt((*it)[i], "ignore[" + std::to_string(i) + "]");
      if (!pieces.count(name))
        throw KeyError{"ignore[" + std::to_string(i) + "]", "the DXF has no piece '" + name + "'"};
      ignored.insert(name);
    }
  }
  for (const auto& [name, piece] : pieces)
    if (!cut.count(name) && !ignored.count(name))
      throw KeyError{"pieces", "the DXF's piece '" + name + "' is neither cut (an entry of pieces) nor in ignore"};

  // Seams: read every range first, then join each panel's ranges, then sew.
  std::vector<std::array<EdgeRange, 2>> sides;
  std::vector<std::string> names;
  std::vector<bool> rightWrong;
  if (auto seams = sidecar.find("seams"); seams != sidecar.end()) {
    if (!seams->is_array()) throw KeyError{"seams", "must be an array"};
    for (std::size_t k = 0; k < seams->size(); ++k) {
      const std::string key = "seams[" + std::to_string(k) + "]";
      const json& seam = (*seams)[k];
      rejectUnknownKeys(seam, {"name", "a", "b", "right_wrong"}, key);
      sides.push_back({rangeOf(member(seam, "a", key), instances, edgeCounts, key + ".a"),
                       rangeOf(member(seam, "b", key), instances, edgeCounts, key + ".b")});
      names.push_back(seam.contains("name") ? stringAt(seam["name"], key + ".name") : "");
      bool rw = false;
      if (auto r = seam.find("right_wrong"); r != seam.end()) {
        if (!r->is_boolean()) throw KeyError{key + ".right_wrong", "must be true or false"};
        rw = r->get<bool>();
      }
      rightWrong.push_back(rw);
    }
  } else {
    sides = notchSeams(drawnOf, isMirrored, instanceNames, options);
    names.assign(sides.size(), "");
    rightWrong.assign(sides.size(), false);
  }
  std::vector<std::array<int, 2>> joinedEdge(sides.size(), {-1, -1});
  for (std::size_t p = 0; p < out.pattern.panels.size(); ++p) {
    std::vector<EdgeRange> ranges;
    std::vector<std::string> keys;
    std::vector<std::pair<std::size_t, std::size_t>> where;  // (seam, side)
    for (std::size_t k = 0; k < sides.size(); ++k)
      for (std::size_t s = 0; s < 2; ++s)
        if (sides[k][s].instance == p) {
          ranges.push_back(sides[k][s]);
          keys.push_back("seams[" + std::to_string(k) + "]." + (s == 0 ? "a" : "b"));
          where.emplace_back(k, s);
        }
    const std::vector<int> joined = joinRanges(out.pattern.panels[p], edgeCounts[p], isMirrored[p], ranges, keys);
    for (std::size_t r = 0; r < ranges.size(); ++r) joinedEdge[where[r].first][where[r].second] = joined[r];
  }
  for (std::size_t k = 0; k < sides.size(); ++k) {
    const int pa = int(sides[k][0].instance), pb = int(sides[k][1].instance);
    const Panel &a = out.pattern.panels[std::size_t(pa)], &b = out.pattern.panels[std::size_t(pb)];
    const int ea = joinedEdge[k][0], eb = joinedEdge[k][1];
    std::string name = names[k];
    if (name.empty())
      name = a.name + "." + a.edges[std::size_t(ea)].name + "+" + b.name + "." + b.edges[std::size_t(eb)].name;
    out.pattern.seams.push_back({name, pa, ea, pb, eb, !rightWrong[k]});
    checkSeamLengths(out.pattern, out.pattern.seams.back(), options, "seams[" + std::to_string(k) + "]");
  }
}

}  // namespace

std::filesystem::path aamaSidecarPath(const std::filesystem::path& dxf) {
  std::filesystem::path out = dxf;
  out.replace_extension(".seams.json");
  return out;
}

Result<PatternFile> parseAamaDxf(const std::string& dxf, const std::string& dxfOrigin, const std::string& sidecarText,
                                 const std::string& sidecarOrigin, const PatternReadOptions& options) {
  json sidecar;
  try {
    sidecar = json::parse(sidecarText);
  } catch (const json::exception& e) {
    return Error{sidecarOrigin + ": not valid JSON: " + e.what()};
  }
  if (!sidecar.is_object()) return Error{sidecarOrigin + ": must be a JSON object"};
  Collector collector;
  {
    std::istringstream in(dxf);
    DL_Dxf reader;
    if (!reader.in(in, &collector)) return Error{dxfOrigin + ": not a DXF file that can be read"};
  }
  const DxfDrawing& drawing = collector.drawing;
  if (drawing.tooLarge)
    return Error{dxfOrigin + ": too large: more than " + std::to_string(kMaxBlocks) + " blocks or " +
                 std::to_string(kMaxVertices) + " vertices"};
  PatternFile out;
  std::string origin = sidecarOrigin;
  try {
    rejectUnknownKeys(sidecar, {"units", "size", "outline", "pieces", "ignore", "seams", "written_by"}, "");
    double metres = 0.0;
    if (auto it = sidecar.find("units"); it != sidecar.end()) {
      metres = metresPerUnit(stringAt(*it, "units"));
      if (metres == 0.0) throw KeyError{"units", "must be mm, cm, m or in"};
    }
    OutlineChoice choice = OutlineChoice::Auto;
    if (auto it = sidecar.find("outline"); it != sidecar.end()) {
      const std::string c = stringAt(*it, "outline");
      if (c == "sew")
        choice = OutlineChoice::Sew;
      else if (c == "cut")
        choice = OutlineChoice::Cut;
      else if (c != "auto")
        throw KeyError{"outline", "must be \"auto\", \"sew\" or \"cut\""};
    }
    origin = dxfOrigin;
    const std::map<std::string, const DxfBlock*> blocks = piecesOfSize(drawing, sidecar);
    if (metres == 0.0) {
      if (auto text = textValue(drawing.texts, "UNITS")) {
        metres = metresPerUnit(*text);
        if (metres == 0.0)
          throw KeyError{"", "unknown units '" + *text + "' (METRIC or ENGLISH); set the sidecar's \"units\""};
      } else {
        static const std::map<int, double> kInsUnits{{1, 0.0254}, {2, 0.3048}, {4, 0.001}, {5, 0.01}, {6, 1.0}};
        auto it = kInsUnits.find(drawing.insUnits);
        if (it == kInsUnits.end())
          throw KeyError{"",
                         "unknown units: no \"Units:\" text and no $INSUNITS of in, ft, mm, cm or m; set the "
                         "sidecar's \"units\" (" +
                             aamaSidecarPath(dxfOrigin).filename().string() + ")"};
        metres = it->second;
      }
    }
    std::map<std::string, DrawnPiece> pieces;
    for (const auto& [name, block] : blocks)
      pieces[name] = drawnPiece(*block, metres, choice, options, "block " + block->name);
    origin = sidecarOrigin;
    readSidecar(sidecar, pieces, options, out);
  } catch (const KeyError& e) {
    // The sidecar's size is checked against the DXF's pieces: its error names the sidecar.
    return Error{(e.key == "size" ? sidecarOrigin : origin) + ": " + (e.key.empty() ? "" : e.key + ": ") + e.message};
  }
  out.seamLengthTolerance = options.ease ? std::numeric_limits<double>::infinity() : options.seamLengthTolerance;
  if (Status s = out.pattern.validate(out.seamLengthTolerance); !s) return s.error().prefixed(dxfOrigin + ": ");
  return out;
}

Result<PatternFile> readAamaDxf(const std::filesystem::path& dxf, const std::filesystem::path& sidecar,
                                const PatternReadOptions& options) {
  const auto slurp = [](const std::filesystem::path& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return true;
  };
  std::string dxfText, sidecarText;
  if (!slurp(dxf, dxfText)) return Error{dxf.string() + ": cannot open the pattern file"};
  if (!slurp(sidecar, sidecarText))
    return Error{sidecar.string() +
                 ": cannot open the pattern's sidecar (its seams and placement; see "
                 "sim/garment/AamaDxf.h)"};
  auto file = parseAamaDxf(dxfText, dxf.string(), sidecarText, sidecar.string(), options);
  if (file) file->pattern.name = dxf.stem().string();
  return file;
}

// ---------------------------------------------------------------- writing

namespace {

/// A DXF block name: letters, digits, '-' and '_' (R12's rule); others become '_'.
std::string blockName(const std::string& name) {
  std::string out = name.empty() ? std::string("piece") : name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return out;
}

/// A notch the writer draws: where on the outline (m) and the inward unit normal there.
struct WrittenNotch {
  glm::dvec2 at{0.0}, inward{0.0};
};

/// The point at arc length `distance` (m) along `edge` from its start, and the inward normal
/// of a counter-clockwise outline there.
WrittenNotch notchAlong(const PanelEdge& edge, double distance) {
  for (std::size_t i = 0; i + 1 < edge.points.size(); ++i) {
    const glm::dvec2 a(edge.points[i]), b(edge.points[i + 1]);
    const double length = glm::distance(a, b);
    if (length <= 0.0) continue;
    if (distance <= length || i + 2 == edge.points.size()) {
      const glm::dvec2 t = (b - a) / length;
      return {a + std::min(distance, length) * t, {-t.y, t.x}};
    }
    distance -= length;
  }
  return {glm::dvec2(edge.points.front()), {0.0, 0.0}};
}

/// Per panel, the notches that mark its seams sewn end to start (the reader's seams from
/// notches): the k-th of m such seams gets one notch at k / (2 m + 2) of side a's length
/// from its start and the same fraction of side b's from its end. The fractions stay below
/// 1/2, so that no seam's notches also meet those of its mirror image (whose fraction
/// would otherwise be 1 - f, side a and b swapped). Seams sewn start to start (right side
/// to wrong) get none: notches cannot tell them apart.
std::vector<std::vector<WrittenNotch>> seamNotches(const Pattern& pattern) {
  std::vector<std::vector<WrittenNotch>> notches(pattern.panels.size());
  const auto endToStart =
      std::count_if(pattern.seams.begin(), pattern.seams.end(), [](const Seam& seam) { return seam.reversed; });
  int k = 0;
  for (const Seam& seam : pattern.seams) {
    if (!seam.reversed) continue;
    const double f = double(++k) / double(2 * endToStart + 2);
    const PanelEdge& a = pattern.panels[std::size_t(seam.panelA)].edges[std::size_t(seam.edgeA)];
    const PanelEdge& b = pattern.panels[std::size_t(seam.panelB)].edges[std::size_t(seam.edgeB)];
    notches[std::size_t(seam.panelA)].push_back(notchAlong(a, f * a.length()));
    notches[std::size_t(seam.panelB)].push_back(notchAlong(b, (1.0 - f) * b.length()));
  }
  return notches;
}

DL_Attributes onLayer(int layer) { return DL_Attributes(std::to_string(layer), 256, -1, "BYLAYER", 1.0); }

void writeText(DL_Dxf& dxf, DL_WriterA& dw, glm::dvec2 at, const std::string& text) {
  dxf.writeText(dw, DL_TextData(at.x, at.y, 0.0, at.x, at.y, 0.0, 5.0, 1.0, 0, 0, 0, text, "STANDARD", 0.0),
                onLayer(kBoundaryLayer));
}

}  // namespace

Result<std::string> writeAamaDxf(const Pattern& pattern, const std::vector<PanelTransform>& transforms,
                                 const std::filesystem::path& path) {
  if (Status s = pattern.validate(std::numeric_limits<double>::infinity()); !s) return s.error();
  if (transforms.size() != pattern.panels.size())
    return Error{"pattern '" + pattern.name + "': " + std::to_string(pattern.panels.size()) + " panels but " +
                 std::to_string(transforms.size()) + " transforms"};
  constexpr double kMm = 1000.0;
  std::set<std::string> blocks;
  for (const Panel& panel : pattern.panels)
    if (!blocks.insert(blockName(panel.name)).second)
      return Error{"pattern '" + pattern.name + "': two panels are both written as DXF block '" +
                   blockName(panel.name) + "'"};
  DL_Dxf dxf;
  std::unique_ptr<DL_WriterA> dw(dxf.out(path.string().c_str(), DL_Codes::AC1009));
  if (!dw || dw->openFailed()) return Error{path.string() + ": cannot write the DXF file"};
  dw->sectionHeader();
  dw->dxfString(9, "$ACADVER");
  dw->dxfString(1, "AC1009");
  dw->dxfString(9, "$INSUNITS");
  dw->dxfInt(70, 4);  // millimetres
  dw->sectionEnd();

  const std::vector<std::vector<WrittenNotch>> notches = seamNotches(pattern);
  dw->sectionBlocks();
  std::vector<double> widths;
  json pieces = json::object();
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const Panel& panel = pattern.panels[p];
    const std::vector<glm::vec2> outline = panel.outline();
    glm::dvec2 lo(std::numeric_limits<double>::max()), hi(std::numeric_limits<double>::lowest());
    for (glm::vec2 q : outline) lo = glm::min(lo, glm::dvec2(q) * kMm), hi = glm::max(hi, glm::dvec2(q) * kMm);
    widths.push_back(hi.x - lo.x);
    const std::string name = blockName(panel.name);
    dxf.writeBlock(*dw, DL_BlockData(name, 0, 0.0, 0.0, 0.0));
    const glm::dvec2 centre = 0.5 * (lo + hi);
    writeText(dxf, *dw, centre + glm::dvec2(0.0, 12.0), "Piece Name: " + panel.name);
    writeText(dxf, *dw, centre + glm::dvec2(0.0, 4.0), "Quantity: 1");
    for (int layer : {kBoundaryLayer, kSewLayer}) {
      dxf.writePolyline(*dw, DL_PolylineData(int(outline.size()), 0, 0, 1), onLayer(layer));
      for (glm::vec2 q : outline) dxf.writeVertex(*dw, DL_VertexData(double(q.x) * kMm, double(q.y) * kMm, 0.0, 0.0));
      dxf.writePolylineEnd(*dw);
    }
    for (const PanelEdge& e : panel.edges)
      dxf.writePoint(*dw, DL_PointData(double(e.points.front().x) * kMm, double(e.points.front().y) * kMm, 0.0),
                     onLayer(kTurnPointLayer));
    for (const WrittenNotch& n : notches[p]) {
      const glm::dvec2 from = n.at * kMm, to = from + kNotchLength * n.inward;
      dxf.writeLine(*dw, DL_LineData(from.x, from.y, 0.0, to.x, to.y, 0.0), onLayer(kNotchLayer));
    }
    const double grainLength = 0.5 * (hi.y - lo.y);  // panel +y is the grain (Pattern.h)
    dxf.writeLine(*dw,
                  DL_LineData(centre.x, centre.y - 0.5 * grainLength, 0.0, centre.x, centre.y + 0.5 * grainLength, 0.0),
                  onLayer(kGrainLayer));
    dxf.writeEndBlock(*dw, name);

    // A mirrored transform places the same counter-clockwise panel, outside and all, as
    // the proper rotation rotation * diag(1, 1, -1) (points have z = 0).
    glm::mat3 rotation = transforms[p].rotation;
    if (glm::determinant(rotation) < 0.0f) rotation[2] = -rotation[2];
    const glm::dvec3 r = eulerXyzDegrees(rotation);
    const glm::dvec3 t(transforms[p].translation);
    pieces[panel.name] = {
        {"rotation", {r.x, r.y, r.z}}, {"translation", {t.x, t.y, t.z}}, {"region", bodyRegionName(panel.region)}};
  }
  dw->sectionEnd();

  dw->sectionEntities();
  double x = 0.0;
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    dxf.writeInsert(*dw,
                    DL_InsertData(blockName(pattern.panels[p].name), x, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1, 1, 0.0, 0.0),
                    onLayer(kBoundaryLayer));
    x += widths[p] + 50.0;
  }
  writeText(dxf, *dw, {0.0, -20.0}, "Style Name: " + pattern.name);
  writeText(dxf, *dw, {0.0, -30.0}, "Units: METRIC");
  writeText(dxf, *dw, {0.0, -40.0}, "Author: hagoromo (sim/garment/AamaDxf.h)");
  dw->sectionEnd();
  dw->dxfEOF();
  dw->close();
  if (dw->openFailed()) return Error{path.string() + ": cannot write the DXF file"};

  json seams = json::array();
  for (const Seam& seam : pattern.seams) {
    const auto side = [&](int panel, int edge) {
      return json{{"piece", pattern.panels[std::size_t(panel)].name}, {"edges", {edge, edge}}};
    };
    seams.push_back({{"name", seam.name},
                     {"a", side(seam.panelA, seam.edgeA)},
                     {"b", side(seam.panelB, seam.edgeB)},
                     {"right_wrong", !seam.reversed}});
  }
  const json sidecar = {{"written_by", "hagoromo (sim/garment/AamaDxf.h)"},
                        {"units", "mm"},
                        {"outline", "cut"},
                        {"pieces", pieces},
                        {"seams", seams}};
  return sidecar.dump(2) + "\n";
}

}  // namespace hg
