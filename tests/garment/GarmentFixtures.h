#pragma once
// A synthetic closed body for garment tests: elliptic torso, neck, arms and legs as
// closed capped cylinders (separate, overlapping components: placement treats the body
// as their union), built from the same GarmentSizing and BodyFrame as the garments.
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "sim/core/TriangleMesh.h"
#include "sim/garment/Pattern.h"
#include "sim/garment/Placement.h"

namespace hg::test {

/// Appends a closed cylinder from a to b with elliptic cross-section (radii rx along
/// `xAxis`, rz along the third axis), capped by fans; outward-facing triangles.
inline void appendCylinder(TriangleMesh& m, glm::vec3 a, glm::vec3 b, float rx, float rz, glm::vec3 xAxis,
                           int segments = 32) {
  const glm::vec3 axis = glm::normalize(b - a);
  const glm::vec3 u = glm::normalize(xAxis - glm::dot(xAxis, axis) * axis), w = glm::cross(axis, u);
  const auto base = std::uint32_t(m.positions.size());
  for (int end = 0; end < 2; ++end)
    for (int i = 0; i < segments; ++i) {
      const float t = 2.0f * std::numbers::pi_v<float> * float(i) / float(segments);
      m.positions.push_back((end ? b : a) + rx * std::cos(t) * u + rz * std::sin(t) * w);
    }
  const std::uint32_t ca = std::uint32_t(m.positions.size()), cb = ca + 1;
  m.positions.push_back(a);
  m.positions.push_back(b);
  const auto s = std::uint32_t(segments);
  for (std::uint32_t i = 0; i < s; ++i) {
    const std::uint32_t j = (i + 1) % s;
    const std::uint32_t a0 = base + i, a1 = base + j, b0 = base + s + i, b1 = base + s + j;
    m.indices.insert(m.indices.end(), {a0, a1, b1, a0, b1, b0});  // side, outward (u x w = axis)
    m.indices.insert(m.indices.end(), {ca, a1, a0});              // cap at a faces -axis
    m.indices.insert(m.indices.end(), {cb, b0, b1});              // cap at b faces +axis
  }
}

/// The body: torso an elliptic cylinder of perimeter = chest girth (depth ratio of the
/// frame) from the crotch to the shoulders, neck, arms (upper-arm girth) along the
/// frame's arms, legs (thigh girth) hip -> ankle.
inline TriangleMesh syntheticBody(const GarmentSizing& s, const BodyFrame& f) {
  TriangleMesh m;
  const float r = f.torsoDepthRatio;
  // Ramanujan's perimeter of an ellipse with semi-axes a, r a.
  const float unit = std::numbers::pi_v<float> * (3.0f * (1.0f + r) - std::sqrt((3.0f + r) * (1.0f + 3.0f * r)));
  const float a = s.chestGirth / unit;
  appendCylinder(m, {0.0f, s.crotchHeight, 0.0f}, {0.0f, s.shoulderHeight, 0.0f}, a, r * a, {1, 0, 0});
  const float neck = s.neckGirth / (2.0f * std::numbers::pi_v<float>);
  appendCylinder(m, {0.0f, s.shoulderHeight - 0.05f, 0.0f}, {0.0f, s.shoulderHeight + 0.15f, 0.0f}, neck, neck,
                 {1, 0, 0});
  const float arm = s.upperArmGirth / (2.0f * std::numbers::pi_v<float>);
  appendCylinder(m, f.leftShoulder, f.leftWrist, arm, arm, {0, 1, 0});
  appendCylinder(m, f.rightShoulder, f.rightWrist, arm, arm, {0, 1, 0});
  const float leg = s.thighGirth / (2.0f * std::numbers::pi_v<float>);
  appendCylinder(m, f.leftAnkle, f.leftHip, leg, leg, {1, 0, 0});
  appendCylinder(m, f.rightAnkle, f.rightHip, leg, leg, {1, 0, 0});
  computeVertexNormals(m);
  return m;
}

}  // namespace hg::test
