#include "sim/geometry/WindingNumber.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace hg {
namespace {

constexpr double kFourPi = 4.0 * 3.14159265358979323846;
/// Triangles per leaf: below this, the direct sum costs less than descending further.
constexpr std::uint32_t kLeafSize = 8;

/// The signed solid angle (sr) the triangle abc subtends at q: positive when q sees its
/// back (the side its counter-clockwise normal points away from).
double solidAngle(const glm::dvec3& a0, const glm::dvec3& b0, const glm::dvec3& c0, const glm::dvec3& q) {
  const glm::dvec3 a = a0 - q, b = b0 - q, c = c0 - q;
  const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
  // tan(Omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|)
  const double numerator = glm::dot(a, glm::cross(b, c));
  const double denominator = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
  return 2.0 * std::atan2(numerator, denominator);
}

}  // namespace

double windingNumber(const TriangleMesh& mesh, glm::vec3 p) {
  const glm::dvec3 q(p);
  double sum = 0.0;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
    sum += solidAngle(glm::dvec3(mesh.positions[mesh.indices[t]]), glm::dvec3(mesh.positions[mesh.indices[t + 1]]),
                      glm::dvec3(mesh.positions[mesh.indices[t + 2]]), q);
  return sum / kFourPi;
}

WindingNumberTree::WindingNumberTree(const TriangleMesh& mesh, double accuracy) : m_accuracy(accuracy) {
  m_corners.reserve(mesh.indices.size() - mesh.indices.size() % 3);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
    for (std::size_t k = 0; k < 3; ++k) m_corners.emplace_back(mesh.positions[mesh.indices[t + k]]);
  const auto triangles = std::uint32_t(m_corners.size() / 3);
  if (triangles == 0) return;
  // The hierarchy orders the triangles (each node a contiguous range of `order`); the
  // corners are then stored in that order once.
  std::vector<std::uint32_t> order(triangles);
  std::iota(order.begin(), order.end(), 0u);
  std::vector<glm::dvec3> cornerSums(triangles);  // 3 x each triangle's centroid
  for (std::uint32_t t = 0; t < triangles; ++t)
    cornerSums[t] = m_corners[3 * t] + m_corners[3 * t + 1] + m_corners[3 * t + 2];
  m_nodes.reserve(4 * (triangles / kLeafSize + 1));
  build(order, cornerSums, 0, triangles);  // the root is node 0
  std::vector<glm::dvec3> ordered;
  ordered.reserve(m_corners.size());
  for (std::uint32_t t : order)
    for (std::uint32_t k = 0; k < 3; ++k) ordered.push_back(m_corners[3 * t + k]);
  m_corners = std::move(ordered);
}

std::uint32_t WindingNumberTree::build(std::vector<std::uint32_t>& order, const std::vector<glm::dvec3>& cornerSums,
                                       std::uint32_t first, std::uint32_t count) {
  const auto index = std::uint32_t(m_nodes.size());  // filled once its children are built
  m_nodes.emplace_back();
  Node node;
  node.first = first;
  node.count = count;
  double area = 0.0;
  glm::dvec3 lo(INFINITY), hi(-INFINITY), weighted(0.0);
  for (std::uint32_t i = first; i < first + count; ++i) {
    const std::uint32_t t = order[i];
    const glm::dvec3 &a = m_corners[3 * t], &b = m_corners[3 * t + 1], &c = m_corners[3 * t + 2];
    const glm::dvec3 areaNormal = 0.5 * glm::cross(b - a, c - a);
    const double triangleArea = glm::length(areaNormal);
    node.areaNormal += areaNormal;
    weighted += triangleArea * cornerSums[t] / 3.0;
    area += triangleArea;
    lo = glm::min(lo, glm::min(a, glm::min(b, c)));
    hi = glm::max(hi, glm::max(a, glm::max(b, c)));
  }
  node.centroid = area > 0.0 ? weighted / area : 0.5 * (lo + hi);
  for (std::uint32_t i = first; i < first + count; ++i)
    for (std::uint32_t k = 0; k < 3; ++k)
      node.radius = std::max(node.radius, glm::distance(node.centroid, m_corners[3 * order[i] + k]));
  if (count > kLeafSize) {
    // Split at the median centroid along the box's longest axis.
    const glm::dvec3 extent = hi - lo;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : extent.y >= extent.z ? 1 : 2;
    const std::uint32_t half = count / 2;
    const auto begin = order.begin() + first;
    std::nth_element(begin, begin + half, begin + count, [&](std::uint32_t s, std::uint32_t t) {
      return cornerSums[s][axis] < cornerSums[t][axis] || (cornerSums[s][axis] == cornerSums[t][axis] && s < t);
    });
    node.left = build(order, cornerSums, first, half);
    node.right = build(order, cornerSums, first + half, count - half);
  }
  m_nodes[index] = node;
  return index;
}

double WindingNumberTree::exactSum(const Node& node, const glm::dvec3& q) const {
  double sum = 0.0;
  for (std::uint32_t t = node.first; t < node.first + node.count; ++t)
    sum += solidAngle(m_corners[3 * t], m_corners[3 * t + 1], m_corners[3 * t + 2], q);
  return sum;
}

double WindingNumberTree::at(glm::vec3 p) const {
  if (triangleCount() == 0) return 0.0;
  const glm::dvec3 q(p);
  double sum = 0.0;                        // sr
  std::array<std::uint32_t, 128> stack{};  // depth is about log2(triangles / 8) + 1
  std::size_t size = 0;
  stack[size++] = 0;
  while (size > 0) {
    const Node& node = m_nodes[stack[--size]];
    const glm::dvec3 d = node.centroid - q;
    const double distance = glm::length(d);
    if (distance > m_accuracy * node.radius) {
      // The dipole: the solid angle of a small patch of area-weighted normal N at d is
      // N . d / |d|^3 (sr).
      sum += glm::dot(node.areaNormal, d) / (distance * distance * distance);
    } else if (node.left == 0 || size + 2 > stack.size()) {
      sum += exactSum(node, q);
    } else {
      stack[size++] = node.left;
      stack[size++] = node.right;
    }
  }
  return sum / kFourPi;
}

std::vector<double> WindingNumberTree::at(std::span<const glm::vec3> points) const {
  std::vector<double> w(points.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(points.size()); ++i) w[std::size_t(i)] = at(points[std::size_t(i)]);
  return w;
}

std::vector<double> windingNumbers(const TriangleMesh& mesh, std::span<const glm::vec3> points) {
  return WindingNumberTree(mesh).at(points);
}

}  // namespace hg
