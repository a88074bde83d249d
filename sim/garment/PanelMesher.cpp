#include "sim/garment/PanelMesher.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "sim/geometry/CgalGeometry.h"

namespace hg {

namespace {

/// `segments` + 1 points at equal arc length along the polyline, ends included.
std::vector<glm::dvec2> resample(const std::vector<glm::vec2>& polyline, int segments) {
  std::vector<double> cumulative{0.0};
  for (std::size_t i = 1; i < polyline.size(); ++i)
    cumulative.push_back(cumulative.back() + glm::distance(glm::dvec2(polyline[i - 1]), glm::dvec2(polyline[i])));
  const double total = cumulative.back();
  std::vector<glm::dvec2> out{glm::dvec2(polyline.front())};
  std::size_t seg = 1;
  for (int k = 1; k < segments; ++k) {
    const double s = total * double(k) / double(segments);
    while (seg + 1 < cumulative.size() && cumulative[seg] < s) ++seg;
    const double span = cumulative[seg] - cumulative[seg - 1];
    const double t = span > 0.0 ? (s - cumulative[seg - 1]) / span : 0.0;
    out.push_back(glm::mix(glm::dvec2(polyline[seg - 1]), glm::dvec2(polyline[seg]), t));
  }
  out.push_back(glm::dvec2(polyline.back()));
  return out;
}

}  // namespace

Result<PatternMesh> meshPattern(const Pattern& pattern, const MeshingOptions& options) {
  if (Status s = pattern.validate(options.seamLengthTolerance); !s) return s.error();
  if (!(options.targetEdgeLength > 1e-4f) || !std::isfinite(options.targetEdgeLength))
    return Error{"meshing: target edge length must be > 0.1 mm"};
  if (!(options.minAngleDegrees >= 0.0f && options.minAngleDegrees <= 30.0f))
    return Error{"meshing: minimum angle must be in 0..30 degrees (Delaunay refinement terminates up to ~20.7)"};
  if (!(options.textureScale > 0.0f) || !std::isfinite(options.textureScale))
    return Error{"meshing: texture scale must be > 0"};
  const double h = options.targetEdgeLength;

  // Segments per edge: enough for the target length, the larger count on both sides of a seam.
  std::vector<std::vector<int>> segments(pattern.panels.size());
  for (std::size_t p = 0; p < pattern.panels.size(); ++p)
    for (const PanelEdge& e : pattern.panels[p].edges)
      segments[p].push_back(std::max(1, int(std::ceil(e.length() / h - 1e-6))));
  for (const Seam& s : pattern.seams) {
    int& a = segments[std::size_t(s.panelA)][std::size_t(s.edgeA)];
    int& b = segments[std::size_t(s.panelB)][std::size_t(s.edgeB)];
    a = b = std::max(a, b);
  }

  PatternMesh out;
  out.textureScale = options.textureScale;
  const double shapeBound = std::pow(std::sin(double(options.minAngleDegrees) * std::numbers::pi / 180.0), 2.0);
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const Panel& panel = pattern.panels[p];
    std::vector<glm::dvec2> boundary;
    PanelMesh pm;
    for (std::size_t e = 0; e < panel.edges.size(); ++e) {
      const std::vector<glm::dvec2> points = resample(panel.edges[e].points, segments[p][e]);
      std::vector<std::uint32_t> ids;
      for (std::size_t k = 0; k < points.size(); ++k) {
        ids.push_back(std::uint32_t(boundary.size() + k));
      }
      boundary.insert(boundary.end(), points.begin(), points.end() - 1);  // the last is the next edge's first
      pm.edgeVertices.push_back(std::move(ids));
    }
    const std::uint32_t n = std::uint32_t(boundary.size());
    for (auto& ids : pm.edgeVertices) ids.back() %= n;  // the last edge closes on vertex 0
    auto planar = cgal::meshPolygon(boundary, h, shapeBound, options.lloydIterations);
    if (!planar) return planar.error().prefixed("pattern '" + pattern.name + "', panel '" + panel.name + "': ");
    for (const glm::dvec2& q : planar->points) {
      pm.mesh.positions.emplace_back(float(q.x), float(q.y), 0.0f);
      pm.mesh.normals.emplace_back(0.0f, 0.0f, 1.0f);
      pm.mesh.uvs.push_back(panelUv(glm::vec2(q), options.textureScale));
    }
    pm.mesh.indices = std::move(planar->triangles);
    out.panels.push_back(std::move(pm));
  }
  return out;
}

double minTriangleAngleDegrees(const TriangleMesh& mesh, bool inUv) {
  double smallest = 180.0;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    glm::dvec2 p[3];
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = mesh.indices[t + std::size_t(k)];
      p[k] = inUv ? glm::dvec2(mesh.uvs[v]) : glm::dvec2(mesh.positions[v]);
    }
    for (int k = 0; k < 3; ++k) {
      const glm::dvec2 a = p[(k + 1) % 3] - p[k], b = p[(k + 2) % 3] - p[k];
      const double c = glm::dot(a, b) / (glm::length(a) * glm::length(b));
      smallest = std::min(smallest, std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / std::numbers::pi);
    }
  }
  return smallest;
}

}  // namespace hg
