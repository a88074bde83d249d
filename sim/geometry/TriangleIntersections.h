#pragma once
/// Exact counts of intersecting triangle pairs (CGAL box_intersection_d broad phase, exact
/// do_intersect predicates on the float positions; touching counts). Pairs that share a
/// vertex index are neighbours and never count. A degenerate triangle is tested as the
/// segment or point it spans (a collapsed ring still counts where it touches another
/// triangle); a triangle with a non-finite vertex is skipped. About 0.1 s for 80k triangles.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace hg {

/// Intersecting pairs among the given triangles (3 indices each, into `positions`).
std::size_t countSelfIntersections(std::span<const glm::vec4> positions, std::span<const std::uint32_t> triangles);

/// Intersecting pairs by the groups of their two triangles (e.g. garments, and the body):
/// `groupOfTriangle[t]` < groupCount for every triangle. counts[a * groupCount + b] with
/// a <= b: pairs with one triangle in group a and the other in b (a == b: within group a).
struct IntersectionCensus {
  std::size_t groupCount = 0;
  std::vector<std::size_t> counts;
  std::size_t between(std::size_t a, std::size_t b) const {
    return a <= b ? counts[a * groupCount + b] : counts[b * groupCount + a];
  }
};
/// The group of each triangle for countIntersectionsByGroup: that of its first vertex
/// (`groupOfVertex`, e.g. the garment of each cloth vertex); every triangle in group 0 when
/// `groupOfVertex` is empty.
std::vector<std::uint32_t> groupOfEachTriangle(std::span<const std::uint32_t> triangles,
                                               std::span<const std::uint32_t> groupOfVertex);
IntersectionCensus countIntersectionsByGroup(std::span<const glm::vec4> positions,
                                             std::span<const std::uint32_t> triangles,
                                             std::span<const std::uint32_t> groupOfTriangle, std::size_t groupCount);

/// The intersecting pairs themselves: triangle indices (first < second), sorted.
std::vector<std::array<std::uint32_t, 2>> intersectingTrianglePairs(std::span<const glm::vec4> positions,
                                                                    std::span<const std::uint32_t> triangles);

/// The same exact test on the given triangle pairs only (a superset of the intersecting
/// ones, from a conservative filter such as the GPU's tangle search): those that share no
/// vertex, have finite vertices and intersect, as (first < second), sorted, each once.
std::vector<std::array<std::uint32_t, 2>> intersectingTrianglePairsAmong(
    std::span<const glm::vec4> positions, std::span<const std::uint32_t> triangles,
    std::span<const std::array<std::uint32_t, 2>> candidates);

}  // namespace hg
