#include "sim/geometry/Obb.h"

#include <algorithm>
#include <limits>

#include <Eigen/Eigenvalues>
#include <glm/geometric.hpp>

#include "sim/kernels/Kernels.h"

namespace hg {

float Obb::distance(glm::vec3 p) const {
  return kernels::obbPointDistance(centre, axes[0], axes[1], axes[2], halfLengths, p);
}

bool Obb::overlapsSphere(glm::vec3 c, float r) const {
  return kernels::obbSphereOverlap(centre, axes[0], axes[1], axes[2], halfLengths, c, r);
}

glm::vec4 Obb::signedContact(glm::vec3 p) const {
  return kernels::obbSignedContact(centre, axes[0], axes[1], axes[2], halfLengths, p);
}

std::array<glm::vec3, 8> Obb::corners() const {
  std::array<glm::vec3, 8> out{};
  for (int c = 0; c < 8; ++c) {
    glm::vec3 p = centre;
    for (int k = 0; k < 3; ++k) p += ((c >> k) & 1 ? 1.0f : -1.0f) * halfLengths[k] * axes[std::size_t(k)];
    out[std::size_t(c)] = p;
  }
  return out;
}

Obb fitObbInFrame(std::span<const glm::vec3> points, const std::array<glm::vec3, 3>& axes, glm::vec3 origin) {
  Obb box;
  box.axes = axes;
  if (points.empty()) {
    box.centre = origin;
    return box;
  }
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec3& x : points) {
    const glm::vec3 d = x - origin;
    const glm::vec3 local(glm::dot(d, axes[0]), glm::dot(d, axes[1]), glm::dot(d, axes[2]));
    lo = glm::min(lo, local);
    hi = glm::max(hi, local);
  }
  const glm::vec3 mid = 0.5f * (lo + hi);
  box.centre = origin + mid.x * axes[0] + mid.y * axes[1] + mid.z * axes[2];
  box.halfLengths = 0.5f * (hi - lo);
  return box;
}

Obb fitObb(std::span<const glm::vec3> points) {
  if (points.empty()) return Obb{};
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const glm::vec3& p : points) mean += Eigen::Vector3d(p.x, p.y, p.z);
  mean /= double(points.size());
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  for (const glm::vec3& p : points) {
    const Eigen::Vector3d d = Eigen::Vector3d(p.x, p.y, p.z) - mean;
    covariance += d * d.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(covariance);
  const Eigen::Matrix3d vectors = solver.eigenvectors();  // columns, ascending eigenvalues
  std::array<glm::vec3, 3> axes{};
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d v = vectors.col(2 - k).normalized();  // largest spread first
    axes[std::size_t(k)] = glm::vec3(float(v.x()), float(v.y()), float(v.z()));
  }
  axes[2] = glm::normalize(glm::cross(axes[0], axes[1]));  // right-handed, exactly orthogonal
  axes[1] = glm::normalize(glm::cross(axes[2], axes[0]));
  const glm::vec3 origin(float(mean.x()), float(mean.y()), float(mean.z()));
  const Obb principal = fitObbInFrame(points, axes, origin);
  const Obb aligned = fitObbInFrame(points, {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}, origin);
  return aligned.volume() < principal.volume() ? aligned : principal;
}

}  // namespace hg
