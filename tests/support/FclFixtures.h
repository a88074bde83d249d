#pragma once
// FCL as the exact peer of the sphere trees (tests/spheretree/SphereTreeFclTest.cpp and
// bench/SphereTreeBench.cpp): a mesh as an FCL BVH model, and poses given once as an
// Eigen rotation and translation, converted to FCL's transform and to hg::RigidPose.
#include <memory>
#include <random>
#include <vector>

#include <fcl/fcl.h>

#include "sim/core/TriangleMesh.h"
#include "sim/spheretree/SphereTree.h"

namespace hg::test {

/// The triangles of `mesh` as an FCL BVH model of bounding volume BV (e.g. fcl::OBBRSSd).
template <class BV>
std::shared_ptr<fcl::BVHModel<BV>> fclModelOf(const TriangleMesh& mesh) {
  std::vector<fcl::Vector3d> vertices;
  vertices.reserve(mesh.positions.size());
  for (const glm::vec3& p : mesh.positions) vertices.emplace_back(p.x, p.y, p.z);
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(mesh.indices.size() / 3);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
    triangles.emplace_back(mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]);
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel();
  model->addSubModel(vertices, triangles);
  model->endModel();
  return model;
}

/// A uniformly distributed rotation (a normalised Gaussian quaternion).
inline Eigen::Matrix3d randomRotation(std::mt19937_64& rng) {
  std::normal_distribution<double> gauss;
  const double w = gauss(rng), x = gauss(rng), y = gauss(rng), z = gauss(rng);
  return Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
}

inline fcl::Transform3d toTransform(const Eigen::Matrix3d& r, const Eigen::Vector3d& t) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.linear() = r;
  tf.translation() = t;
  return tf;
}

inline RigidPose toPose(const Eigen::Matrix3d& r, const Eigen::Vector3d& t) {
  RigidPose pose;
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) pose.rotation[c][k] = float(r(k, c));
  pose.translation = glm::vec3(float(t.x()), float(t.y()), float(t.z()));
  return pose;
}

}  // namespace hg::test
