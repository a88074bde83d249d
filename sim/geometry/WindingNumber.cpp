#include "sim/geometry/WindingNumber.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace hg {

double windingNumber(const TriangleMesh& mesh, glm::vec3 p) {
  const glm::dvec3 q(p);
  double sum = 0.0;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const glm::dvec3 a = glm::dvec3(mesh.positions[mesh.indices[t]]) - q;
    const glm::dvec3 b = glm::dvec3(mesh.positions[mesh.indices[t + 1]]) - q;
    const glm::dvec3 c = glm::dvec3(mesh.positions[mesh.indices[t + 2]]) - q;
    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    // tan(Omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|)
    const double numerator = glm::dot(a, glm::cross(b, c));
    const double denominator = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
    sum += 2.0 * std::atan2(numerator, denominator);
  }
  return sum / (4.0 * 3.14159265358979323846);
}

std::vector<double> windingNumbers(const TriangleMesh& mesh, std::span<const glm::vec3> points) {
  std::vector<double> w(points.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(points.size()); ++i)
    w[std::size_t(i)] = windingNumber(mesh, points[std::size_t(i)]);
  return w;
}

}  // namespace hg
