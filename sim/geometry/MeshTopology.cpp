#include "sim/geometry/MeshTopology.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include <glm/geometric.hpp>

namespace hg {
namespace {

std::uint64_t directedKey(std::uint32_t from, std::uint32_t to) { return (std::uint64_t(from) << 32) | to; }

std::string edgeName(std::uint32_t a, std::uint32_t b) {
  return "edge (" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

/// Index of the root of `x`, halving paths on the way.
std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

Status checkWatertight(const TriangleMesh& mesh) {
  if (mesh.indices.size() % 3 != 0)
    return Error{"mesh has " + std::to_string(mesh.indices.size()) + " indices, not a multiple of 3"};
  const std::size_t n = mesh.vertexCount();
  std::vector<std::uint64_t> directed;
  directed.reserve(mesh.indices.size());
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t* v = &mesh.indices[3 * t];
    for (int c = 0; c < 3; ++c)
      if (v[c] >= n)
        return Error{"triangle " + std::to_string(t) + ": index " + std::to_string(v[c]) + " out of range (" +
                     std::to_string(n) + " vertices)"};
    if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0])
      return Error{"triangle " + std::to_string(t) + " repeats a vertex"};
    for (int c = 0; c < 3; ++c) directed.push_back(directedKey(v[c], v[(c + 1) % 3]));
  }
  std::sort(directed.begin(), directed.end());
  for (std::size_t e = 0; e < directed.size(); ++e) {
    const std::uint32_t from = std::uint32_t(directed[e] >> 32), to = std::uint32_t(directed[e]);
    if (e + 1 < directed.size() && directed[e + 1] == directed[e])
      return Error{edgeName(from, to) +
                   " is used twice in the same direction (more than two triangles or "
                   "inconsistent orientation)"};
    if (!std::binary_search(directed.begin(), directed.end(), directedKey(to, from)))
      return Error{edgeName(from, to) +
                   " has no triangle using it in the opposite direction (open boundary or "
                   "inconsistent orientation)"};
  }
  return {};
}

Status checkVertexManifold(const TriangleMesh& mesh) {
  const std::size_t n = mesh.vertexCount();
  // CSR of (next, previous) corner pairs per vertex: for triangle (v, a, b) counter-clockwise,
  // the fan around v steps from a to b.
  std::vector<std::uint32_t> start(n + 1, 0);
  for (std::uint32_t v : mesh.indices) {
    if (v >= n) return Error{"index " + std::to_string(v) + " out of range (" + std::to_string(n) + " vertices)"};
    ++start[v + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> steps(mesh.indices.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t* v = &mesh.indices[3 * t];
    for (int c = 0; c < 3; ++c) steps[fill[v[c]]++] = {v[(c + 1) % 3], v[(c + 2) % 3]};
  }
  std::vector<char> visited;
  for (std::size_t v = 0; v < n; ++v) {
    const auto begin = steps.begin() + start[v], end = steps.begin() + start[v + 1];
    const std::size_t count = std::size_t(end - begin);
    if (count == 0) continue;
    const std::string label = "vertex " + std::to_string(v);
    // Each neighbour may be left and entered at most once.
    std::vector<std::uint32_t> from(count), to(count);
    for (std::size_t k = 0; k < count; ++k) std::tie(from[k], to[k]) = begin[std::ptrdiff_t(k)];
    std::vector<std::uint32_t> sortedFrom = from, sortedTo = to;
    std::sort(sortedFrom.begin(), sortedFrom.end());
    std::sort(sortedTo.begin(), sortedTo.end());
    if (std::adjacent_find(sortedFrom.begin(), sortedFrom.end()) != sortedFrom.end() ||
        std::adjacent_find(sortedTo.begin(), sortedTo.end()) != sortedTo.end())
      return Error{label + ": an edge around it has more than two triangles or they disagree on orientation"};
    // Start a path at a neighbour that is never entered (boundary), else anywhere (cycle).
    std::size_t first = 0;
    int pathStarts = 0;
    for (std::size_t k = 0; k < count; ++k)
      if (!std::binary_search(sortedTo.begin(), sortedTo.end(), from[k])) {
        if (pathStarts++ == 0) first = k;
      }
    if (pathStarts > 1)
      return Error{label + ": its triangles form " + std::to_string(pathStarts) + " separate fans (not one disk)"};
    visited.assign(count, 0);
    std::size_t walked = 0;
    for (std::size_t k = first; k < count && !visited[k];) {
      visited[k] = 1;
      ++walked;
      const auto next = std::find(from.begin(), from.end(), to[k]);
      k = next == from.end() ? count : std::size_t(next - from.begin());
    }
    if (walked != count)
      return Error{label + ": its " + std::to_string(count) + " triangles form more than one fan (only " +
                   std::to_string(walked) + " are reached around it; not one disk)"};
  }
  return {};
}

long long eulerCharacteristic(const TriangleMesh& mesh) {
  std::vector<std::uint64_t> edges;
  edges.reserve(mesh.indices.size());
  std::vector<char> used(mesh.vertexCount(), 0);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t* v = &mesh.indices[3 * t];
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t a = v[c], b = v[(c + 1) % 3];
      if (a < used.size()) used[a] = 1;
      edges.push_back(directedKey(std::min(a, b), std::max(a, b)));
    }
  }
  std::sort(edges.begin(), edges.end());
  const long long e = (long long)(std::unique(edges.begin(), edges.end()) - edges.begin());
  const long long v = (long long)std::count(used.begin(), used.end(), char(1));
  return v - e + (long long)mesh.triangleCount();
}

double signedVolume(const TriangleMesh& mesh) {
  double sixTimes = 0.0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]);
    const glm::dvec3 b(mesh.positions[mesh.indices[3 * t + 1]]);
    const glm::dvec3 c(mesh.positions[mesh.indices[3 * t + 2]]);
    sixTimes += glm::dot(a, glm::cross(b, c));
  }
  return sixTimes / 6.0;
}

MeshComponents connectedComponents(const TriangleMesh& mesh) {
  std::vector<std::uint32_t> parent(mesh.vertexCount());
  std::iota(parent.begin(), parent.end(), 0u);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t* v = &mesh.indices[3 * t];
    const std::uint32_t r0 = findRoot(parent, v[0]);
    for (int c = 1; c < 3; ++c) {
      const std::uint32_t r = findRoot(parent, v[c]);
      if (r != r0) parent[r] = r0;
    }
  }
  MeshComponents out;
  out.triangleComponent.resize(mesh.triangleCount());
  std::vector<std::uint32_t> label(mesh.vertexCount(), ~0u);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t root = findRoot(parent, mesh.indices[3 * t]);
    if (label[root] == ~0u) label[root] = std::uint32_t(out.count++);
    out.triangleComponent[t] = label[root];
  }
  return out;
}

}  // namespace hg
