#pragma once
/// The broad phase of cloth self contact (sim/cloth/SelfContact.h): pairs of triangles whose
/// bounding boxes, each grown by half a radius on every side, overlap (so every pair of
/// points closer than the radius, one on each triangle, is in a reported pair; more pairs
/// may be). CGAL's box_intersection_d (Zomorodian and Edelsbrunner 2002) finds them.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

namespace hg {

/// Triangle index pairs (first < second), sorted; triangles with a non-finite vertex
/// are left out. `triangles`: 3 vertex indices each into `positions`; radius in m.
std::vector<std::array<std::uint32_t, 2>> trianglePairsNear(std::span<const glm::vec4> positions,
                                                            std::span<const std::uint32_t> triangles, float radius);

}  // namespace hg
