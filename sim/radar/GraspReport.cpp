#include "sim/radar/Grasp.h"

#include <algorithm>
#include <array>
#include <limits>

#include "sim/radar/GraspGeometry.h"
#include "sim/spheretree/SphereTreeObb.h"

namespace hg {

std::string_view graspPhaseName(GraspPhase phase) {
  switch (phase) {
    case GraspPhase::Detect:
      return "detect";
    case GraspPhase::Approach:
      return "approach";
    case GraspPhase::Close:
      return "close";
    case GraspPhase::Done:
      return "done";
    case GraspPhase::Failed:
      return "failed";
  }
  return "?";
}

std::string_view jointOutcomeName(JointOutcome outcome) {
  switch (outcome) {
    case JointOutcome::Open:
      return "open";
    case JointOutcome::Contact:
      return "contact";
    case JointOutcome::Limit:
      return "limit";
    case JointOutcome::Iterations:
      return "iterations";
  }
  return "?";
}

GraspReport GraspSimulation::report() const {
  GraspReport report;
  report.frames = m_frame;
  report.radarsPerFrame = m_hands.size() * std::size_t(kHandRadars);
  report.radarsRun = m_radarsRun;
  report.finished = m_finishedBeforeLimit || finished();
  report.radarSeconds = m_radarSeconds;
  const GraspObject& target = m_description.target;
  if (target.shape == GraspObject::Shape::Mesh) {
    report.distanceMethod = "sphere_tree";
    report.distanceVoxel = target.meshShape->tree.voxel();
  }
  report.checkResolution = m_checkResolution;
  report.checkVoxel = m_checkTree->voxel();
  report.checkSpheres = m_checkTree->spheres().size();
  for (std::size_t h = 0; h < m_hands.size(); ++h) {
    const HandState& st = m_hands[h];
    GraspHandReport r = st.report;
    r.phase = st.phase;
    for (int seg = 0; seg < kHandSegments; ++seg) {
      const HandSegmentFrame frame = st.model.segmentFrame(seg);
      const glm::vec3 lo = st.model.localMin(seg), hi = st.model.localMax(seg);
      const std::array<glm::dvec3, 3> axes = {glm::dvec3(frame.lateral), glm::dvec3(frame.along),
                                              glm::dvec3(frame.normal)};
      r.segmentExactDistance[std::size_t(seg)] =
          target.boxDistance(glm::dvec3(frame.origin), axes, glm::dvec3(lo), glm::dvec3(hi));
      // The sphere-tree check: the segment's box against the target's tree.
      const Obb box = frameBox(glm::dvec3(frame.origin), axes, glm::dvec3(lo), glm::dvec3(hi));
      r.segmentTreeOverlap[std::size_t(seg)] = obbOverlaps(*m_checkTree, m_checkPose, box);
      r.segmentTreePenetration[std::size_t(seg)] = -double(obbDistance(*m_checkTree, m_checkPose, box).distance);
      double nearest = std::numeric_limits<double>::infinity();
      for (const glm::vec3& p : st.model.segmentPositions(seg))
        nearest = std::min(nearest, target.distance(glm::dvec3(p)));
      r.segmentVertexDistance[std::size_t(seg)] = nearest;
    }
    for (int f = 0; f < kHandFingers; ++f) {
      GraspFingerReport& fr = r.fingers[std::size_t(f)];
      fr = st.fingers[std::size_t(f)].report;
      bool allLimit = true;
      fr.exactDistance = std::numeric_limits<double>::infinity();
      fr.vertexDistance = std::numeric_limits<double>::infinity();
      fr.radarGap = -1.0f;
      for (int k = 0; k < kHandJointsPerFinger; ++k) {
        fr.angles[std::size_t(k)] = st.model.jointAngle(f, k);
        if (fr.outcomes[std::size_t(k)] == JointOutcome::Contact) fr.contact = true;
        if (fr.outcomes[std::size_t(k)] != JointOutcome::Limit) allLimit = false;
        const int seg = HandModel::segmentIndex(f, k);
        fr.exactDistance = std::min(fr.exactDistance, r.segmentExactDistance[std::size_t(seg)]);
        fr.vertexDistance = std::min(fr.vertexDistance, r.segmentVertexDistance[std::size_t(seg)]);
        const RadarHit& hit = st.hits[std::size_t(1 + seg)];
        const RadarQuery& q = st.queries[std::size_t(1 + seg)];
        float gap = -1.0f;
        if (q.mode == RadarMode::Collide && hit.collides && hit.objectAtContact == target.id) gap = hit.minKey;
        if (q.mode == RadarMode::Detect && hit.seen && hit.objectAtContact == target.id) gap = hit.minRange;
        if (gap >= 0.0f && (fr.radarGap < 0.0f || gap < fr.radarGap)) fr.radarGap = gap;
      }
      fr.atLimit = allLimit;
    }
    report.hands.push_back(std::move(r));
  }
  return report;
}

}  // namespace hg
