#include "sim/garment/Sewing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {

namespace {

struct UnionFind {
  std::vector<std::uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the lowest index
  }
};

}  // namespace

Result<SewnGarment> assembleGarment(const Pattern& pattern, const PatternMesh& meshes, const PlacedPattern& placed) {
  if (meshes.panels.size() != pattern.panels.size() || placed.panelPositions.size() != pattern.panels.size())
    return Error{"sewing: pattern '" + pattern.name + "', its mesh and its placement have different panel counts"};
  SewnGarment g;
  g.textureScale = meshes.textureScale;
  g.panelOffsets.push_back(0);
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const TriangleMesh& m = meshes.panels[p].mesh;
    if (placed.panelPositions[p].size() != m.positions.size())
      return Error{"sewing: panel '" + pattern.panels[p].name + "' has " + std::to_string(m.positions.size()) +
                   " vertices but " + std::to_string(placed.panelPositions[p].size()) + " placed positions"};
    const std::uint32_t offset = g.panelOffsets.back();
    g.mesh.positions.insert(g.mesh.positions.end(), placed.panelPositions[p].begin(), placed.panelPositions[p].end());
    g.mesh.uvs.insert(g.mesh.uvs.end(), m.uvs.begin(), m.uvs.end());
    for (std::uint32_t i : m.indices) {
      g.mesh.indices.push_back(i + offset);
      g.cornerPanelCoords.emplace_back(m.positions[i]);
    }
    g.panelOfTriangle.insert(g.panelOfTriangle.end(), m.indices.size() / 3, std::uint32_t(p));
    g.panelOffsets.push_back(offset + std::uint32_t(m.positions.size()));
  }
  for (std::uint32_t si = 0; si < pattern.seams.size(); ++si) {
    const Seam& s = pattern.seams[si];
    g.seamNames.push_back(s.name);
    const auto& a = meshes.panels[std::size_t(s.panelA)].edgeVertices[std::size_t(s.edgeA)];
    const auto& b = meshes.panels[std::size_t(s.panelB)].edgeVertices[std::size_t(s.edgeB)];
    if (a.size() != b.size())
      return Error{"sewing: seam '" + s.name + "' has " + std::to_string(a.size()) + " vertices on one edge and " +
                   std::to_string(b.size()) + " on the other"};
    const std::uint32_t offA = g.panelOffsets[std::size_t(s.panelA)], offB = g.panelOffsets[std::size_t(s.panelB)];
    for (std::size_t k = 0; k < a.size(); ++k) {
      const std::uint32_t va = a[k] + offA, vb = b[s.reversed ? b.size() - 1 - k : k] + offB;
      if (va != vb) g.pairs.push_back({va, vb, si});
    }
  }
  computeVertexNormals(g.mesh);
  return g;
}

std::vector<SpringSpec> seamSprings(const SewnGarment& garment, float stiffness, float damping) {
  std::vector<SpringSpec> springs;
  springs.reserve(garment.pairs.size());
  for (const SeamPair& p : garment.pairs) springs.push_back({p.a, p.b, 0.0f, stiffness, damping});
  return springs;
}

namespace {

/// The pair with the widest gap and that gap (m): the first one that is not finite with an
/// infinite gap; {pairs.size(), 0} without pairs.
struct SeamGap {
  std::size_t pair = 0;
  float gap = 0.0f;
};
SeamGap widestSeamGap(std::span<const glm::vec4> positions, std::span<const SeamPair> pairs) {
  SeamGap widest{pairs.size(), 0.0f};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const float d = glm::distance(glm::vec3(positions[pairs[i].a]), glm::vec3(positions[pairs[i].b]));
    if (!std::isfinite(d)) return {i, std::numeric_limits<float>::infinity()};
    if (widest.pair == pairs.size() || d > widest.gap) widest = {i, d};
  }
  return widest;
}

}  // namespace

float maxSeamGap(std::span<const glm::vec4> positions, std::span<const SeamPair> pairs) {
  return widestSeamGap(positions, pairs).gap;
}

std::string widestSeam(std::span<const glm::vec4> positions, const SewnGarment& garment) {
  const std::size_t pair = widestSeamGap(positions, garment.pairs).pair;
  if (pair == garment.pairs.size()) return "";
  const std::uint32_t seam = garment.pairs[pair].seam;
  return seam < garment.seamNames.size() ? garment.seamNames[seam] : "?";
}

namespace {

/// Triangle areas of the mesh's placed shape and of its panels (m^2), and their sums per
/// vertex (a third of each triangle) and per edge (the triangles that share it).
struct RestAreas {
  std::vector<float> vertexPlaced, vertexPanel;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<float, float>> edgePlacedPanel;
  float totalPlaced = 0.0f, totalPanel = 0.0f;
};

float triangleArea(glm::vec3 a, glm::vec3 b, glm::vec3 c) { return 0.5f * glm::length(glm::cross(b - a, c - a)); }

RestAreas restAreas(const ClothModel& model, std::span<const glm::vec2> cornerPanelCoords) {
  RestAreas areas;
  areas.vertexPlaced.assign(model.vertexCount(), 0.0f);
  areas.vertexPanel.assign(model.vertexCount(), 0.0f);
  for (std::size_t t = 0; t < model.triangles.size(); t += 3) {
    const std::uint32_t v[3] = {model.triangles[t], model.triangles[t + 1], model.triangles[t + 2]};
    const float placed = triangleArea(glm::vec3(model.restPositions[v[0]]), glm::vec3(model.restPositions[v[1]]),
                                      glm::vec3(model.restPositions[v[2]]));
    const glm::vec2 p0 = cornerPanelCoords[t], p1 = cornerPanelCoords[t + 1], p2 = cornerPanelCoords[t + 2];
    const float panel = 0.5f * std::abs((p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x));
    areas.totalPlaced += placed;
    areas.totalPanel += panel;
    for (int k = 0; k < 3; ++k) {
      areas.vertexPlaced[v[k]] += placed / 3.0f;
      areas.vertexPanel[v[k]] += panel / 3.0f;
      auto& edge = areas.edgePlacedPanel[{std::min(v[k], v[(k + 1) % 3]), std::max(v[k], v[(k + 1) % 3])}];
      edge.first += placed;
      edge.second += panel;
    }
  }
  return areas;
}

/// Masses from the panel areas: each vertex's (area-weighted) or the same for all (W/p).
void rescaleMasses(ClothModel& model, const RestAreas& areas) {
  for (std::size_t v = 0; v < model.vertexCount(); ++v) {
    float& inverseMass = model.restPositions[v].w;
    if (inverseMass == 0.0f) continue;  // pinned
    inverseMass *=
        model.areaWeightedMass ? areas.vertexPlaced[v] / areas.vertexPanel[v] : areas.totalPlaced / areas.totalPanel;
  }
  model.totalMass *= areas.totalPanel / areas.totalPlaced;
}

}  // namespace

Status applyPanelRest(ClothModel& model, std::span<const glm::vec2> cornerPanelCoords, float textureScale,
                      bool flatHinges, bool panelMaterial) {
  if (cornerPanelCoords.size() != model.triangles.size())
    return Error{"panel rest shape: " + std::to_string(cornerPanelCoords.size()) + " corner coordinates for " +
                 std::to_string(model.triangles.size() / 3) + " triangles"};
  if (!(textureScale > 0.0f) || !std::isfinite(textureScale))
    return Error{"panel rest shape: texture scale must be > 0"};
  // Edge (min, max) -> panel coordinates of its ends in the first triangle that has it.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<glm::vec2, glm::vec2>> edges;
  for (std::size_t t = 0; t < model.triangles.size(); t += 3)
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t i = t + k, j = t + (k + 1) % 3;
      const std::uint32_t a = model.triangles[i], b = model.triangles[j];
      const auto key = std::pair{std::min(a, b), std::max(a, b)};
      edges.try_emplace(key, a < b ? std::pair{cornerPanelCoords[i], cornerPanelCoords[j]}
                                   : std::pair{cornerPanelCoords[j], cornerPanelCoords[i]});
    }
  const RestAreas areas = panelMaterial ? restAreas(model, cornerPanelCoords) : RestAreas{};
  for (const auto& [edge, area] : areas.edgePlacedPanel)
    if (!(area.second > 0.0f))
      return Error{"panel rest shape: the triangles at edge " + std::to_string(edge.first) + "-" +
                   std::to_string(edge.second) + " have zero area in their panel"};
  // Placed length and area of an edge -> its panel length and area: k = E A / (3 L^2) and
  // the hinge's 3 B L^2 / A follow the panel's (docs/methods.md section 1).
  const auto panelOverPlaced = [&](std::uint32_t a, std::uint32_t b) {
    const auto [pa, pb] = edges.at({std::min(a, b), std::max(a, b)});
    return glm::distance(pa, pb) / glm::distance(glm::vec3(model.restPositions[a]), glm::vec3(model.restPositions[b]));
  };
  for (kernels::ClothSpring& s : model.springs) {
    const auto it = edges.find({s.a, s.b});
    if (it == edges.end()) continue;  // not a mesh edge (a seam spring)
    const auto [pa, pb] = it->second;
    const float length = glm::distance(pa, pb);
    if (!(length > 0.0f))
      return Error{"panel rest shape: edge " + std::to_string(s.a) + "-" + std::to_string(s.b) +
                   " has zero length in its panel"};
    if (panelMaterial) {
      const auto [placedArea, panelArea] = areas.edgePlacedPanel.at({s.a, s.b});
      const float ratio = panelOverPlaced(s.a, s.b);
      s.baseStiffness *= (panelArea / placedArea) / (ratio * ratio);
    }
    s.restLength = s.restLength0 = length;
    const glm::vec2 uvA = panelUv(pa, textureScale), uvB = panelUv(pb, textureScale);
    s.uv = glm::vec4(0.5f * (uvA + uvB), uvB - uvA);
  }
  for (kernels::ClothHinge& h : model.hinges) {
    if (panelMaterial) {
      const auto key = std::pair{std::min(h.vertices.x, h.vertices.y), std::max(h.vertices.x, h.vertices.y)};
      const auto [placedArea, panelArea] = areas.edgePlacedPanel.at(key);
      const float ratio = panelOverPlaced(key.first, key.second);
      h.stiffness *= ratio * ratio * placedArea / panelArea;
    }
    if (flatHinges) h = kernels::withRestAngle(h, 0.0f);
  }
  if (panelMaterial) rescaleMasses(model, areas);
  applyAnisotropy(model);
  return Status::success();
}

Result<WeldedGarment> weldSeams(const SewnGarment& garment, std::span<const glm::vec4> positions, float maxGap) {
  const std::size_t n = garment.mesh.positions.size();
  if (positions.size() != n)
    return Error{"welding: " + std::to_string(positions.size()) + " positions for a garment of " + std::to_string(n) +
                 " vertices"};
  UnionFind groups(n);
  for (const SeamPair& p : garment.pairs) {
    const float gap = glm::distance(glm::vec3(positions[p.a]), glm::vec3(positions[p.b]));
    if (!(gap <= maxGap)) {
      const std::string name = p.seam < garment.seamNames.size() ? garment.seamNames[p.seam] : std::to_string(p.seam);
      return Error{"welding: seam '" + name + "' is still open: vertices " + std::to_string(p.a) + " and " +
                   std::to_string(p.b) + " are " + std::to_string(gap * 1000.0f) + " mm apart (limit " +
                   std::to_string(maxGap * 1000.0f) + " mm)"};
    }
    groups.join(p.a, p.b);
  }
  WeldedGarment w;
  w.textureScale = garment.textureScale;
  w.oldToNew.assign(n, 0);
  std::vector<std::uint32_t> count;
  std::vector<std::uint32_t> newOfRoot(n, UINT32_MAX);
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t root = groups.find(v);
    if (newOfRoot[root] == UINT32_MAX) {  // the group's lowest vertex: its UV is kept
      newOfRoot[root] = std::uint32_t(w.mesh.positions.size());
      w.mesh.positions.emplace_back(0.0f);
      w.mesh.uvs.push_back(garment.mesh.uvs[v]);
      count.push_back(0);
    }
    const std::uint32_t nv = newOfRoot[root];
    w.oldToNew[v] = nv;
    w.mesh.positions[nv] += glm::vec3(positions[v]);
    ++count[nv];
  }
  for (std::size_t i = 0; i < w.mesh.positions.size(); ++i) w.mesh.positions[i] /= float(count[i]);
  w.mergedVertices = n - w.mesh.positions.size();
  for (std::size_t t = 0; t < garment.mesh.indices.size(); t += 3) {
    const std::uint32_t a = w.oldToNew[garment.mesh.indices[t]], b = w.oldToNew[garment.mesh.indices[t + 1]],
                        c = w.oldToNew[garment.mesh.indices[t + 2]];
    if (a == b || b == c || a == c)
      return Error{"welding: triangle " + std::to_string(t / 3) +
                   " would collapse (two of its corners are sewn together)"};
    w.mesh.indices.insert(w.mesh.indices.end(), {a, b, c});
  }
  w.panelOfTriangle = garment.panelOfTriangle;
  w.cornerPanelCoords = garment.cornerPanelCoords;
  computeVertexNormals(w.mesh);
  return w;
}

ClothState carryState(const ClothState& sewnState, const WeldedGarment& welded, const ClothModel& weldedModel) {
  const std::size_t n = weldedModel.vertexCount();
  ClothState out;
  out.positions.assign(n, glm::vec4(0.0f));
  out.velocities.assign(n, glm::vec4(0.0f));
  std::vector<float> count(n, 0.0f);
  for (std::size_t v = 0; v < welded.oldToNew.size() && v < sewnState.positions.size(); ++v) {
    const std::uint32_t nv = welded.oldToNew[v];
    out.positions[nv] += glm::vec4(glm::vec3(sewnState.positions[v]), 0.0f);
    out.velocities[nv] += glm::vec4(glm::vec3(sewnState.velocities[v]), 0.0f);
    count[nv] += 1.0f;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const float c = std::max(count[i], 1.0f);
    out.positions[i] = glm::vec4(glm::vec3(out.positions[i]) / c, weldedModel.restPositions[i].w);
    out.velocities[i] /= c;
  }
  return out;
}

std::size_t connectedPieces(const TriangleMesh& mesh) {
  UnionFind uf(mesh.positions.size());
  std::vector<bool> used(mesh.positions.size(), false);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    uf.join(mesh.indices[t], mesh.indices[t + 1]);
    uf.join(mesh.indices[t], mesh.indices[t + 2]);
    used[mesh.indices[t]] = used[mesh.indices[t + 1]] = used[mesh.indices[t + 2]] = true;
  }
  std::size_t pieces = 0;
  for (std::uint32_t v = 0; v < mesh.positions.size(); ++v) pieces += (used[v] && uf.find(v) == v) ? 1 : 0;
  return pieces;
}

}  // namespace hg
