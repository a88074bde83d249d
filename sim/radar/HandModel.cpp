#include "sim/radar/HandModel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/core/Numbers.h"

namespace hg {
namespace {

bool positiveFinite(float v) { return std::isfinite(v) && v > 0.0f; }

}  // namespace

HandSpec HandSpec::standard() {
  HandSpec spec;
  // Index, middle, ring, little: parallel, 18 mm wide, 3 mm apart, hinged on the palm's edge.
  const std::array<std::array<float, 3>, 4> lengths = {
      {{0.043f, 0.026f, 0.021f}, {0.047f, 0.029f, 0.022f}, {0.044f, 0.028f, 0.021f}, {0.035f, 0.021f, 0.019f}}};
  for (int f = 1; f < kHandFingers; ++f) {
    FingerSpec& finger = spec.fingers[std::size_t(f)];
    finger.base = {-0.0315f + 0.021f * float(f - 1), 0.5f * spec.palmLength};
    finger.splay = 0.0f;
    finger.width = 0.018f;
    finger.thickness = 0.016f;
    finger.lengths = lengths[std::size_t(f - 1)];
    finger.limits = {90.0f * kDegree, 100.0f * kDegree, 75.0f * kDegree};
  }
  // Thumb: splayed outward on the -x side, its box 2 mm clear of the palm's side.
  FingerSpec& thumb = spec.fingers[0];
  thumb.splay = 0.45f;
  thumb.width = 0.020f;
  thumb.thickness = 0.018f;
  thumb.lengths = {0.040f, 0.032f, 0.027f};
  thumb.limits = {55.0f * kDegree, 65.0f * kDegree, 80.0f * kDegree};
  thumb.base = {-0.5f * spec.palmWidth - 0.002f - 0.5f * thumb.width * std::cos(thumb.splay) +
                    spec.hingeGap * std::sin(thumb.splay),
                -0.015f};
  return spec;
}

HandSpec HandSpec::scaled(float factor) const {
  HandSpec s = *this;
  s.palmWidth *= factor;
  s.palmLength *= factor;
  s.palmThickness *= factor;
  s.hingeGap *= factor;
  for (FingerSpec& f : s.fingers) {
    f.base *= factor;
    f.width *= factor;
    f.thickness *= factor;
    for (float& l : f.lengths) l *= factor;
  }
  return s;
}

Status HandSpec::validate() const {
  if (!positiveFinite(palmWidth) || !positiveFinite(palmLength) || !positiveFinite(palmThickness) ||
      !positiveFinite(hingeGap))
    return Error{"hand: palm sizes and the hinge gap must be finite and > 0"};
  if (palmLength <= 2.0f * hingeGap) return Error{"hand: the palm is shorter than its hinge gap"};
  if (boxSubdivisions < 0 || boxSubdivisions > 16) return Error{"hand: box subdivisions must be in 0..16"};
  for (int f = 0; f < kHandFingers; ++f) {
    const FingerSpec& finger = fingers[std::size_t(f)];
    const std::string name = "hand: finger " + std::to_string(f);
    if (!positiveFinite(finger.width) || !positiveFinite(finger.thickness) || !std::isfinite(finger.splay) ||
        !std::isfinite(finger.base.x) || !std::isfinite(finger.base.y))
      return Error{name + ": sizes must be finite and > 0"};
    for (int k = 0; k < kHandJointsPerFinger; ++k) {
      const float length = finger.lengths[std::size_t(k)], limit = finger.limits[std::size_t(k)];
      const float gaps = k + 1 < kHandJointsPerFinger ? 2.0f * hingeGap : hingeGap;
      if (!positiveFinite(length) || length <= gaps)
        return Error{name + ": segment " + std::to_string(k) + " is not longer than its hinge gaps"};
      if (!(limit > 0.0f && limit < kPi))
        return Error{name + ": joint " + std::to_string(k) + " limit must be in (0, pi) rad"};
    }
  }
  return Status::success();
}

HandModel::HandModel(HandSpec spec) : m_spec(spec) {
  m_box = makeBox(glm::vec3(0.0f), glm::vec3(1.0f), m_spec.boxSubdivisions);
}

void HandModel::setJointAngle(int finger, int joint, float angle) {
  const float limit = jointLimit(finger, joint);
  m_angles[std::size_t(finger)][std::size_t(joint)] = std::isfinite(angle) ? std::clamp(angle, 0.0f, limit) : 0.0f;
}

float HandModel::jointLimit(int finger, int joint) const {
  return m_spec.fingers[std::size_t(finger)].limits[std::size_t(joint)];
}

void HandModel::open() {
  for (auto& finger : m_angles) finger.fill(0.0f);
}

glm::mat4 HandModel::segmentToPalm(int segment) const {
  if (segment == 0) return glm::mat4(1.0f);
  const int finger = (segment - 1) / kHandJointsPerFinger, joint = (segment - 1) % kHandJointsPerFinger;
  const FingerSpec& f = m_spec.fingers[std::size_t(finger)];
  // Base: on the palm face, the finger's direction turned about +z by the splay.
  glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(f.base, 0.0f));
  m = glm::rotate(m, f.splay, glm::vec3(0.0f, 0.0f, 1.0f));
  for (int k = 0; k <= joint; ++k) {
    if (k > 0) m = glm::translate(m, glm::vec3(0.0f, f.lengths[std::size_t(k - 1)], 0.0f));
    // Closing: about +x, y (along) turns toward z (the palm side).
    m = glm::rotate(m, m_angles[std::size_t(finger)][std::size_t(k)], glm::vec3(1.0f, 0.0f, 0.0f));
  }
  return m;
}

HandJoint HandModel::joint(int finger, int joint) const {
  const glm::mat4 m = segmentToPalm(segmentIndex(finger, joint));
  HandJoint j;
  j.pivot = m_pose.apply(glm::vec3(m[3]));
  j.axis = glm::normalize(m_pose.rotation * glm::vec3(m[0]));
  j.angle = jointAngle(finger, joint);
  j.limit = jointLimit(finger, joint);
  return j;
}

glm::vec3 HandModel::localMin(int segment) const {
  if (segment == 0) return {-0.5f * m_spec.palmWidth, -0.5f * m_spec.palmLength, -m_spec.palmThickness};
  const FingerSpec& f = m_spec.fingers[std::size_t((segment - 1) / kHandJointsPerFinger)];
  return {-0.5f * f.width, m_spec.hingeGap, -f.thickness};
}

glm::vec3 HandModel::localMax(int segment) const {
  if (segment == 0) return {0.5f * m_spec.palmWidth, 0.5f * m_spec.palmLength - m_spec.hingeGap, 0.0f};
  const int joint = (segment - 1) % kHandJointsPerFinger;
  const FingerSpec& f = m_spec.fingers[std::size_t((segment - 1) / kHandJointsPerFinger)];
  const float end = f.lengths[std::size_t(joint)] - (joint + 1 < kHandJointsPerFinger ? m_spec.hingeGap : 0.0f);
  return {0.5f * f.width, end, 0.0f};
}

HandSegmentFrame HandModel::segmentFrame(int segment) const {
  const glm::mat4 m = segmentToPalm(segment);
  HandSegmentFrame frame;
  frame.origin = m_pose.apply(glm::vec3(m[3]));
  frame.lateral = glm::normalize(m_pose.rotation * glm::vec3(m[0]));
  frame.along = glm::normalize(m_pose.rotation * glm::vec3(m[1]));
  frame.normal = glm::normalize(m_pose.rotation * glm::vec3(m[2]));
  const glm::vec3 lo = localMin(segment), hi = localMax(segment);
  frame.start = lo.y;
  frame.end = hi.y;
  frame.width = hi.x - lo.x;
  frame.thickness = hi.z - lo.z;
  if (segment == 0) frame.width = m_spec.palmWidth;
  return frame;
}

std::vector<glm::vec3> HandModel::segmentPositions(int segment) const {
  const glm::mat4 m = segmentToPalm(segment);
  const glm::vec3 lo = localMin(segment), size = localMax(segment) - lo;
  std::vector<glm::vec3> out(m_box.positions.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = m_pose.apply(glm::vec3(m * glm::vec4(lo + m_box.positions[i] * size, 1.0f)));
  return out;
}

TriangleMesh HandModel::segmentMesh(int segment) const {
  TriangleMesh mesh;
  mesh.positions = segmentPositions(segment);
  mesh.indices = m_box.indices;
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh HandModel::mesh() const {
  TriangleMesh out;
  for (int s = 0; s < kHandSegments; ++s) appendMesh(out, segmentMesh(s));
  return out;
}

}  // namespace hg
