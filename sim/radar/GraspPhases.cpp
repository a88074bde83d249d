#include "sim/radar/Grasp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/core/Numbers.h"

namespace hg {
namespace {

/// Detection probes sit this far (m) in front of the face they look from, so that face
/// (and the coplanar faces of the open hand) lies behind the volume's near plane.
constexpr float kProbeOffset = 1e-4f;

float pixelSize(const RadarQuery& q, RadarImageSize size) {
  return std::max(q.probe.width / float(size.width), q.probe.height / float(size.height));
}

/// Signed angle (rad) about unit `axis` from `from` to `to`, both projected onto the plane
/// normal to the axis; 0 when either projection vanishes.
float signedAngleAbout(glm::vec3 axis, glm::vec3 from, glm::vec3 to) {
  const glm::vec3 f = from - glm::dot(from, axis) * axis, t = to - glm::dot(to, axis) * axis;
  if (!(glm::length(f) > 1e-9f) || !(glm::length(t) > 1e-9f)) return 0.0f;
  return std::atan2(glm::dot(axis, glm::cross(f, t)), glm::dot(f, t));
}

}  // namespace

// ---- the phases of a hand: its radars' queries, then what it does with their hits ----

void GraspSimulation::buildQueries(std::size_t h) {
  HandState& st = m_hands[h];
  const GraspSettings& s = m_description.settings;
  const HandModel& model = st.model;
  const glm::vec3 n = model.palmNormal(), up = model.fingerDirection();
  st.sweep.fill(0.0f);
  st.step.fill(0.0f);

  // Radar 0, the whole hand.
  RadarQuery& hand = st.queries[0];
  hand = RadarQuery{};
  if (st.phase == GraspPhase::Approach) {
    const float distance = std::max(std::min(s.approachStep, s.maxApproach - st.report.approachDistance), 1e-4f);
    if (!st.haveFitted) {
      // MaxSize first (docs/methods.md section 3, adaptive volume), centred on the hand.
      const TriangleMesh mesh = model.mesh();
      hand = sweepQuery(handObjectId(h), mesh.positions, n, distance, up);
      st.handLength = hand.probe.depth - distance;
      hand.probe.width = std::max(hand.probe.width, s.maxSize);
      hand.probe.height = std::max(hand.probe.height, s.maxSize);
    } else {
      hand = st.approachQuery;
      hand.moveDistance = distance;
      hand.probe.depth = distance + st.handLength;
      hand.reuseMask = st.maskValid;
    }
  } else {
    // Detection along the palm normal: phase 1's scan and aim; afterwards it keeps watching.
    hand.mode = RadarMode::Detect;
    hand.probe.origin = model.palmCentre() + kProbeOffset * n;
    hand.probe.direction = n;
    hand.probe.up = up;
    hand.probe.width = s.detectWidth;
    hand.probe.height = s.detectHeight;
    hand.probe.depth = s.detectDepth;
  }

  // Radars 1..16, one per segment.
  std::array<HandJoint, kHandFingers> active{};
  std::array<glm::vec3, kHandFingers> chainAlong{};
  if (st.phase == GraspPhase::Close)
    for (int f = 0; f < kHandFingers; ++f) {
      const FingerState& fs = st.fingers[std::size_t(f)];
      if (fs.joint >= kHandJointsPerFinger) continue;
      active[std::size_t(f)] = model.joint(f, fs.joint);
      chainAlong[std::size_t(f)] = model.segmentFrame(HandModel::segmentIndex(f, fs.joint)).along;
      float step = std::min(s.jointStep, active[std::size_t(f)].limit - active[std::size_t(f)].angle);
      if (fs.unsafeAngle >= 0.0f) step = std::min(step, fs.unsafeAngle - active[std::size_t(f)].angle);
      st.step[std::size_t(f)] = std::max(step, 0.0f);
    }
  for (int seg = 0; seg < kHandSegments; ++seg) {
    RadarQuery& q = st.queries[std::size_t(1 + seg)];
    q = RadarQuery{};
    const HandSegmentFrame frame = model.segmentFrame(seg);
    if (!st.segmentsLive) {
      // The hand is one object: each segment looks ahead from its palm-side face.
      q.mode = RadarMode::Detect;
      q.probe.origin = frame.origin + 0.5f * (frame.start + frame.end) * frame.along + kProbeOffset * frame.normal;
      q.probe.direction = frame.normal;
      q.probe.up = frame.along;
      q.probe.width = frame.width;
      q.probe.height = frame.end - frame.start;
      q.probe.depth = s.segmentRange;
      continue;
    }
    float distance = s.lookAhead;
    if (seg > 0 && st.phase == GraspPhase::Close) {
      const int f = (seg - 1) / kHandJointsPerFinger, k = (seg - 1) % kHandJointsPerFinger;
      const FingerState& fs = st.fingers[std::size_t(f)];
      if (fs.joint < kHandJointsPerFinger && k >= fs.joint) {
        // Turning with the active joint: the far end at lever r rises r tan(step) along the
        // segment's normal for a bend of `step` (translation approximation of the rotation).
        const float far =
            glm::dot(frame.origin + frame.end * frame.along - active[std::size_t(f)].pivot, chainAlong[std::size_t(f)]);
        const float step = std::min(st.step[std::size_t(f)], 1.2f);
        distance = std::max(far * std::tan(step) + s.graspClearance, s.lookAhead);
      }
    }
    st.sweep[std::size_t(seg)] = distance;
    q = sweepQuery(segmentObjectId(h, seg), model.segmentPositions(seg), frame.normal, distance, frame.along);
  }
}

void GraspSimulation::consumeDetect(std::size_t h, const std::function<const RadarImages*()>& images) {
  HandState& st = m_hands[h];
  const GraspSettings& s = m_description.settings;
  const RadarHit& hit = st.hits[0];
  const RadarQuery& q = st.queries[0];
  const glm::vec3 axis = glm::normalize(m_description.hands[h].scanAxis);
  const glm::vec3 pivot = st.model.palmCentre();
  auto turn = [&](float angle) {
    HandPose pose = st.model.pose();
    pose.rotation = glm::normalize(glm::angleAxis(angle, axis) * pose.rotation);
    st.model.setPose(pose);  // about the palm centre: the position stays
  };
  const std::uint32_t target = m_description.target.id;
  std::optional<glm::vec3> seenAt;
  if (hit.sees(target)) {
    // Where the target is seen: the centroid of its pixels (its ID in the object image).
    if (const RadarImages* im = images()) {
      const int wp = im->size.width, hp = im->size.height;
      const std::size_t pixels = std::size_t(wp) * std::size_t(hp), base = (h * kHandRadars) * pixels;
      double si = 0.0, sj = 0.0, sd = 0.0;
      std::size_t count = 0;
      for (int j = 0; j < hp; ++j)
        for (int i = 0; i < wp; ++i) {
          const std::size_t at = base + std::size_t(j) * std::size_t(wp) + std::size_t(i);
          if (im->object[at] != target) continue;
          si += i + 0.5;
          sj += j + 0.5;
          sd += im->range[at];
          ++count;
        }
      if (count > 0) {
        auto frame = makeRadarFrame(q, im->size);
        if (frame) {
          const glm::vec2 lateral =
              kernels::radarLateral(*frame, glm::vec2(float(si / double(count)), float(sj / double(count))));
          seenAt = kernels::radarPoint(*frame, lateral, float(sd / double(count)));
        }
      }
    }
    if (!seenAt && hit.objectAtContact == target) seenAt = hit.contactPoint;
  }
  if (!seenAt) {
    st.scanned += s.scanStep;
    if (st.scanned > 2.0f * kPi + s.scanStep) {
      st.phase = GraspPhase::Failed;
      st.report.failure = "the target (ID " + std::to_string(target) + ") was not seen in a full turn";
      return;
    }
    turn(s.scanStep);
    return;
  }
  if (!st.report.targetSeen) st.report.scanFrames = st.report.phaseFrames[0];
  st.report.targetSeen = true;
  st.report.targetSeenAt = *seenAt;
  // Turn toward it about the scan axis; centred within half a pixel: approach.
  const float angle = signedAngleAbout(axis, st.model.palmNormal(), *seenAt - pivot);
  const float range = std::max(glm::length(*seenAt - pivot), 1e-3f);
  const float tolerance = std::atan2(0.5f * q.probe.width / float(s.image.width), range);
  turn(angle);
  if (std::abs(angle) <= tolerance || st.aimFrames >= s.maxAimFrames) {
    st.phase = GraspPhase::Approach;
    return;
  }
  ++st.aimFrames;
}

void GraspSimulation::consumeApproach(std::size_t h) {
  HandState& st = m_hands[h];
  const GraspSettings& s = m_description.settings;
  const RadarHit& hit = st.hits[0];
  const RadarQuery& q = st.queries[0];
  float move = q.moveDistance;
  bool arrived = false;
  if (!st.haveFitted) {
    // The MaxSize run: fit the volume to the hand from M; move short of a coarse collision.
    st.approachQuery = fitProbeToMask(q, s.image, hit, 1);
    st.haveFitted = true;
    st.maskValid = false;
    if (hit.collides) move = std::max(0.0f, hit.minKey - s.approachClearance - pixelSize(q, s.image));
  } else {
    st.report.maskReused = st.report.maskReused || q.reuseMask;
    st.maskValid = true;  // this slot now holds the fitted volume's M
    if (hit.collides) {
      // Time of impact minus the clearance.
      move = std::max(0.0f, hit.minKey - s.approachClearance);
      arrived = true;
      st.report.approachGap = hit.minKey - move;
      st.report.approachObject = hit.objectAtContact;
    }
  }
  const glm::vec3 delta = move * st.model.palmNormal();
  HandPose pose = st.model.pose();
  pose.position += delta;
  st.model.setPose(pose);
  st.approachQuery.probe.origin += delta;
  st.report.approachDistance += move;
  if (arrived) {
    st.phase = GraspPhase::Close;
    st.segmentsLive = true;
    for (FingerState& fs : st.fingers) fs = FingerState{};
  } else if (st.report.approachDistance >= s.maxApproach) {
    st.phase = GraspPhase::Failed;
    st.report.failure = "nothing was reached within motion.max_approach";
  }
}

void GraspSimulation::consumeClose(std::size_t h) {
  HandState& st = m_hands[h];
  const GraspSettings& s = m_description.settings;
  bool allDone = true;
  for (int f = 0; f < kHandFingers; ++f) {
    FingerState& fs = st.fingers[std::size_t(f)];
    if (fs.joint >= kHandJointsPerFinger) continue;
    const int k = fs.joint;
    const HandJoint joint = st.model.joint(f, k);
    const glm::vec3 along = st.model.segmentFrame(HandModel::segmentIndex(f, k)).along;
    const float theta = joint.angle;
    // The turning segments' radars, measured at theta.
    float minGap = std::numeric_limits<float>::infinity();
    float bend = st.step[std::size_t(f)];
    std::uint32_t object = kRadarNoObject;
    for (int m = k; m < kHandJointsPerFinger; ++m) {
      const RadarHit& hit = st.hits[std::size_t(1 + HandModel::segmentIndex(f, m))];
      if (!hit.collides) continue;
      if (hit.minKey < minGap) {
        minGap = hit.minKey;
        object = hit.objectAtContact;
      }
      // Bend that brings the closest point to the clearance: atan2(gap - c, lever), the
      // lever being the point's distance from the joint axis along the segment.
      const float lever = std::max(glm::dot(hit.contactPoint - joint.pivot, along), 1e-3f);
      bend = std::min(bend, std::atan2(hit.minKey - s.graspClearance, lever));
    }
    ++fs.iterations;
    fs.report.iterations[std::size_t(k)] = fs.iterations;
    JointOutcome outcome = JointOutcome::Open;
    float next = theta;
    if (minGap < 0.5f * s.graspClearance && theta <= fs.safeAngle) {
      // Too close already at the last safe angle (something else came near): blocked there.
      outcome = JointOutcome::Contact;
      fs.report.contactObject = object;
    } else if (minGap < 0.5f * s.graspClearance) {
      // Too close (a rotation is not a translation): back to between the safe and this angle.
      fs.unsafeAngle = theta;
      next = 0.5f * (fs.safeAngle + theta);
      if (fs.iterations >= s.jointIterations) {
        next = fs.safeAngle;
        outcome = JointOutcome::Iterations;
      }
    } else {
      fs.safeAngle = theta;
      if (minGap <= s.graspClearance + s.contactTolerance) {
        outcome = JointOutcome::Contact;
        fs.report.contactObject = object;
      } else if (theta >= joint.limit - 1e-6f) {
        outcome = JointOutcome::Limit;
      } else if (fs.iterations >= s.jointIterations) {
        outcome = JointOutcome::Iterations;
      } else {
        next = theta + std::max(bend, 0.0f);
        if (fs.unsafeAngle >= 0.0f && next >= fs.unsafeAngle) next = 0.5f * (theta + fs.unsafeAngle);
      }
    }
    st.model.setJointAngle(f, k, next);
    if (outcome != JointOutcome::Open) {
      fs.report.outcomes[std::size_t(k)] = outcome;
      fs.report.angles[std::size_t(k)] = st.model.jointAngle(f, k);
      fs.joint = k + 1;
      fs.iterations = 0;
      fs.safeAngle = 0.0f;
      fs.unsafeAngle = -1.0f;
    }
    if (fs.joint < kHandJointsPerFinger) allDone = false;
  }
  if (allDone) st.phase = GraspPhase::Done;
}

}  // namespace hg
