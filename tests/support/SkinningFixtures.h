#pragma once
// Skinned test bodies built in code: closed cylinders along +x bound to joint chains.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/body/Skeleton.h"
#include "sim/core/TriangleMesh.h"

namespace hg::test {

/// Closed cylinder along +x (hg::makeCylinder in sim/core/TriangleMesh.h).
inline TriangleMesh makeCylinder(float length, float radius, int rings, int segments) {
  return hg::makeCylinder(length, radius, rings, segments);
}

/// Volume (m^3) enclosed by a closed, consistently oriented triangle mesh: the
/// divergence theorem, sum over triangles of a . (b x c) / 6, in double.
inline double enclosedVolume(std::span<const glm::vec4> positions, std::span<const std::uint32_t> indices) {
  double volume = 0.0;
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const glm::dvec3 a(positions[indices[t]]), b(positions[indices[t + 1]]), c(positions[indices[t + 2]]);
    volume += glm::dot(a, glm::cross(b, c)) / 6.0;
  }
  return volume;
}

inline std::vector<glm::vec4> restPositions(const TriangleMesh& mesh) {
  std::vector<glm::vec4> p;
  for (const glm::vec3& x : mesh.positions) p.emplace_back(x, 1.0f);
  return p;
}

/// A chain of `bones` joints along +x over [0, length]: joint k at x = k length / bones,
/// each with a rest twist of 0.3 k rad about x (a non-identity bind pose that keeps the
/// chain on the axis).
inline Skeleton chainSkeleton(int bones, float length) {
  Skeleton skeleton;
  for (int k = 0; k < bones; ++k) {
    Joint joint;
    joint.name = "bone" + std::to_string(k);
    joint.parent = k - 1;
    joint.rest.translation = glm::vec3(k == 0 ? 0.0f : length / float(bones), 0.0f, 0.0f);
    joint.rest.rotation = glm::angleAxis(0.3f * float(k), glm::vec3(1.0f, 0.0f, 0.0f));
    skeleton.joints.push_back(joint);
  }
  skeleton.computeInverseBind();
  return skeleton;
}

/// The two-bone twist body: a cylinder of length 2 m, radius 0.25 m, joints at x = 0 and
/// x = 1 m (no rest twist), the weight of joint 1 rising linearly from 0 at x = 0.5 m to
/// 1 at x = 1.5 m, so half the length blends across the joint.
inline std::shared_ptr<SkinnedMesh> twoBoneCylinder(int rings, int segments) {
  auto body = std::make_shared<SkinnedMesh>();
  body->mesh = makeCylinder(2.0f, 0.25f, rings, segments);
  for (int k = 0; k < 2; ++k) {
    Joint joint;
    joint.name = k == 0 ? "root" : "twist";
    joint.parent = k - 1;
    joint.rest.translation = glm::vec3(float(k), 0.0f, 0.0f);
    body->skeleton.joints.push_back(joint);
  }
  body->skeleton.computeInverseBind();
  for (const glm::vec3& x : body->mesh.positions) {
    const float w = glm::clamp(x.x - 0.5f, 0.0f, 1.0f);
    appendInfluences(body->skin, {{0u, 1.0f - w}, {1u, w}});
  }
  return body;
}

/// A cylinder of length 2 m, radius 0.2 m on a chain of `bones` joints (chainSkeleton),
/// each vertex weighted by hat functions of half-width 1.6 bone lengths around the bone
/// centres (up to four influences, normalised by appendInfluences).
inline std::shared_ptr<SkinnedMesh> chainCylinder(int bones, int rings, int segments) {
  const float length = 2.0f, bone = length / float(bones);
  auto body = std::make_shared<SkinnedMesh>();
  body->mesh = makeCylinder(length, 0.2f, rings, segments);
  body->skeleton = chainSkeleton(bones, length);
  for (const glm::vec3& x : body->mesh.positions) {
    std::vector<std::pair<std::uint32_t, float>> influences;
    for (int k = 0; k < bones; ++k) {
      const float centre = (float(k) + 0.5f) * bone;
      influences.emplace_back(std::uint32_t(k), std::max(0.0f, 1.0f - std::abs(x.x - centre) / (1.6f * bone)));
    }
    appendInfluences(body->skin, std::move(influences));
  }
  return body;
}

/// Random pose: every joint's rest rotation followed by a rotation of up to `maxAngle`
/// rad about a random axis, a random root translation (m) and, when `scale` != 1, that
/// uniform scale on joint 1.
inline Pose randomPose(const Skeleton& skeleton, std::mt19937& rng, float maxAngle, float scale = 1.0f) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Pose pose = restPose(skeleton);
  for (Transform& t : pose) {
    const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(1e-3f));
    t.rotation = t.rotation * glm::angleAxis(maxAngle * u(rng), axis);
  }
  pose[0].translation = glm::vec3(u(rng), u(rng), u(rng));
  if (pose.size() > 1) pose[1].scale = glm::vec3(scale);
  return pose;
}

}  // namespace hg::test
