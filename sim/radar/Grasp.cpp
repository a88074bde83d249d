#include "sim/radar/Grasp.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "sim/core/Limits.h"
#include "sim/geometry/Obb.h"
#include "sim/io/MeshImport.h"
#include "sim/spheretree/SphereTreeObb.h"

namespace hg {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kDegree = kPi / 180.0f;
/// Detection probes sit this far (m) in front of the face they look from, so that face
/// (and the coplanar faces of the open hand) lies behind the volume's near plane.
constexpr float kProbeOffset = 1e-4f;

// ---- analytic shapes ----

double pointSegmentDistance(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b) {
  const glm::dvec3 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

/// Distance (m) from p to the solid box lo..hi of a frame (origin, orthonormal axes).
double pointBoxDistance(glm::dvec3 p, glm::dvec3 origin, const std::array<glm::dvec3, 3>& axes, glm::dvec3 lo,
                        glm::dvec3 hi) {
  const glm::dvec3 d = p - origin;
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double c = glm::dot(d, axes[std::size_t(i)]);
    const double outside = c < lo[i] ? lo[i] - c : (c > hi[i] ? c - hi[i] : 0.0);
    sum += outside * outside;
  }
  return std::sqrt(sum);
}

/// The frame box lo..hi as an OBB (section 7's record).
Obb frameBox(glm::dvec3 origin, const std::array<glm::dvec3, 3>& axes, glm::dvec3 lo, glm::dvec3 hi) {
  Obb box;
  glm::dvec3 centre = origin;
  for (std::size_t i = 0; i < 3; ++i) {
    centre += 0.5 * (lo[int(i)] + hi[int(i)]) * axes[i];
    box.axes[i] = glm::vec3(axes[i]);
  }
  box.centre = glm::vec3(centre);
  box.halfLengths = glm::vec3(0.5 * (hi - lo));
  return box;
}

/// Support function of the shape along unit n (max of n . x over the shape; a mesh: over
/// its vertices, which span its convex hull).
double support(const GraspObject& o, glm::dvec3 n) {
  switch (o.shape) {
    case GraspObject::Shape::Mesh: {
      double best = -std::numeric_limits<double>::infinity();
      for (const glm::vec3& p : o.meshShape->world.positions) best = std::max(best, glm::dot(glm::dvec3(p), n));
      return best;
    }
    case GraspObject::Shape::Sphere:
      return glm::dot(glm::dvec3(o.center), n) + double(o.radius);
    case GraspObject::Shape::Capsule:
      return std::max(glm::dot(glm::dvec3(o.a), n), glm::dot(glm::dvec3(o.b), n)) + double(o.radius);
    case GraspObject::Shape::Box: {
      const glm::dvec3 h = 0.5 * glm::dvec3(o.size);
      return glm::dot(glm::dvec3(o.center), n) + h.x * std::abs(n.x) + h.y * std::abs(n.y) + h.z * std::abs(n.z);
    }
  }
  return 0.0;
}

/// Deepest cut (m) of a face plane of `mesh` into the shape: max over faces of
/// support(n_f) - n_f . v_f (> 0: the face cuts in).
double deepestCut(const GraspObject& o, const TriangleMesh& mesh) {
  double worst = -std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
        c(mesh.positions[mesh.indices[3 * t + 2]]);
    const glm::dvec3 cross = glm::cross(b - a, c - a);
    const double len = glm::length(cross);
    if (!(len > 0.0)) continue;
    glm::dvec3 n = cross / len;
    // Outward: away from the shape's centre.
    if (glm::dot(n, a - glm::dvec3(o.centre())) < 0.0) n = -n;
    worst = std::max(worst, support(o, n) - glm::dot(n, a));
  }
  return worst;
}

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

// ---- GraspObject ----

glm::mat3 rotationFromDegrees(glm::vec3 degrees) {
  const glm::quat q = glm::angleAxis(degrees.z * kDegree, glm::vec3(0.0f, 0.0f, 1.0f)) *
                      glm::angleAxis(degrees.y * kDegree, glm::vec3(0.0f, 1.0f, 0.0f)) *
                      glm::angleAxis(degrees.x * kDegree, glm::vec3(1.0f, 0.0f, 0.0f));
  return glm::mat3_cast(glm::normalize(q));
}

Result<GraspObject> makeMeshGraspObject(TriangleMesh local, const RigidPose& pose, int resolution, std::uint32_t id,
                                        const std::string& source, const std::string& what) {
  auto tree = SphereTree::fromMesh(local, resolution, what);
  if (!tree) return tree.error();
  auto shape = std::make_shared<GraspMeshShape>();
  shape->source = source;
  shape->pose = pose;
  shape->position = pose.translation;
  shape->resolution = resolution;
  shape->tree = std::move(tree).value();
  shape->world = local;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (glm::vec3& p : shape->world.positions) {
    p = pose.rotation * p + pose.translation;
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  shape->world.normals.clear();
  computeVertexNormals(shape->world);
  shape->boundsCentre = 0.5f * (lo + hi);
  for (const glm::vec3& p : shape->world.positions)
    shape->boundingRadius = std::max(shape->boundingRadius, glm::length(p - shape->boundsCentre));
  shape->local = std::move(local);
  GraspObject o;
  o.shape = GraspObject::Shape::Mesh;
  o.id = id;
  o.center = pose.translation;
  o.meshShape = std::move(shape);
  return o;
}

double GraspObject::distance(glm::dvec3 p) const {
  switch (shape) {
    case Shape::Mesh:
      return double(
          meshShape->tree.nearest(meshShape->pose, glm::vec3(p), std::numeric_limits<float>::infinity()).distance);
    case Shape::Sphere:
      return glm::length(p - glm::dvec3(center)) - double(radius);
    case Shape::Capsule:
      return pointSegmentDistance(p, glm::dvec3(a), glm::dvec3(b)) - double(radius);
    case Shape::Box: {
      const glm::dvec3 q = glm::abs(p - glm::dvec3(center)) - 0.5 * glm::dvec3(size);
      return glm::length(glm::max(q, glm::dvec3(0.0))) + std::min(std::max({q.x, q.y, q.z}), 0.0);
    }
  }
  return 0.0;
}

double GraspObject::boxDistance(glm::dvec3 origin, const std::array<glm::dvec3, 3>& axes, glm::dvec3 lo,
                                glm::dvec3 hi) const {
  if (shape == Shape::Mesh)
    return double(obbDistance(meshShape->tree, meshShape->pose, frameBox(origin, axes, lo, hi)).distance);
  if (shape == Shape::Sphere) return pointBoxDistance(glm::dvec3(center), origin, axes, lo, hi) - double(radius);
  if (shape == Shape::Capsule) {
    // The distance from a point moving along the axis to a convex box is convex in the
    // point's parameter: golden-section search to double precision.
    const glm::dvec3 pa(a), pb(b);
    auto f = [&](double t) { return pointBoxDistance(pa + t * (pb - pa), origin, axes, lo, hi); };
    double l = 0.0, r = 1.0;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = r - g * (r - l), x2 = l + g * (r - l), f1 = f(x1), f2 = f(x2);
    for (int i = 0; i < 200 && r - l > 1e-15; ++i) {
      if (f1 < f2) {
        r = x2, x2 = x1, f2 = f1, x1 = r - g * (r - l), f1 = f(x1);
      } else {
        l = x1, x1 = x2, f1 = f2, x2 = l + g * (r - l), f2 = f(x2);
      }
    }
    return std::min({f(0.0), f(1.0), f(0.5 * (l + r))}) - double(radius);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

TriangleMesh GraspObject::mesh() const {
  if (shape == Shape::Mesh) return meshShape->world;
  TriangleMesh mesh;
  if (shape == Shape::Box) {
    mesh = makeBox(center - 0.5f * size, center + 0.5f * size, 1);
  } else {
    // Tessellations are inscribed; grow the radius until no face cuts into the shape.
    float r = radius;
    for (int attempt = 0; attempt < 4; ++attempt) {
      mesh = shape == Shape::Sphere ? makeIcosphere(center, r, detail) : makeCapsule(a, b, r, 2 * detail, 8 * detail);
      const double cut = deepestCut(*this, mesh);
      if (!(cut > 0.0)) break;
      r += float(cut) * 1.05f + 1e-7f;
    }
  }
  computeVertexNormals(mesh);
  return mesh;
}

glm::vec3 GraspObject::centre() const {
  if (shape == Shape::Mesh) return meshShape->boundsCentre;
  return shape == Shape::Capsule ? 0.5f * (a + b) : center;
}

float GraspObject::boundingRadius() const {
  switch (shape) {
    case Shape::Mesh:
      return meshShape->boundingRadius;
    case Shape::Sphere:
      return radius;
    case Shape::Capsule:
      return 0.5f * glm::length(b - a) + radius;
    case Shape::Box:
      return 0.5f * glm::length(size);
  }
  return radius;
}

// ---- settings and scene ----

Status GraspSettings::validate() const {
  if (image.width < 8 || image.height < 8 || image.width > HG_RADAR_MAX_IMAGE || image.height > HG_RADAR_MAX_IMAGE)
    return Error{"radar.image must be in 8.." + std::to_string(HG_RADAR_MAX_IMAGE) + " pixels"};
  const std::pair<float, const char*> positives[] = {{detectWidth, "radar.detect_width"},
                                                     {detectHeight, "radar.detect_height"},
                                                     {detectDepth, "radar.detect_depth"},
                                                     {maxSize, "radar.max_size"},
                                                     {segmentRange, "radar.segment_range"},
                                                     {lookAhead, "radar.look_ahead"},
                                                     {scanStep, "motion.scan_step_deg"},
                                                     {approachStep, "motion.approach_step"},
                                                     {approachClearance, "motion.approach_clearance"},
                                                     {maxApproach, "motion.max_approach"},
                                                     {jointStep, "motion.joint_step_deg"},
                                                     {graspClearance, "motion.grasp_clearance"}};
  for (const auto& [value, name] : positives)
    if (!(std::isfinite(value) && value > 0.0f)) return Error{std::string(name) + " must be finite and > 0"};
  if (!(contactTolerance >= 0.0f && std::isfinite(contactTolerance)))
    return Error{"motion.contact_tolerance must be >= 0"};
  if (scanStep > kPi) return Error{"motion.scan_step_deg must be <= 180"};
  if (jointStep > 1.0f) return Error{"motion.joint_step_deg must be <= 57 (the sweep is a translation)"};
  if (maxAimFrames < 0) return Error{"motion.max_aim_frames must be >= 0"};
  if (jointIterations < 1) return Error{"motion.joint_iterations must be >= 1"};
  if (maxFrames < 1) return Error{"motion.max_frames must be >= 1"};
  return Status::success();
}

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

// ---- the simulation ----

Result<GraspSimulation> GraspSimulation::create(const GraspScene& scene) {
  if (Status s = scene.settings.validate(); !s) return s.error();
  if (scene.hands.empty()) return Error{"grasp: no hands"};
  // A box has no exact box-to-box distance here (GraspObject::boxDistance): no report.
  if (scene.target.shape == GraspObject::Shape::Box)
    return Error{"grasp: the target must be a sphere, a capsule or a mesh"};
  if (scene.target.id >= 128) return Error{"grasp: the target's ID must be < 128"};
  GraspSimulation sim;
  sim.m_description = scene;
  sim.m_targetMesh = scene.target.mesh();
  // The sphere-tree check of the final pose: a mesh target's own tree, else one filled
  // into the analytic target's (enclosing) mesh.
  if (scene.target.shape == GraspObject::Shape::Mesh) {
    sim.m_checkTree = std::shared_ptr<const SphereTree>(scene.target.meshShape, &scene.target.meshShape->tree);
    sim.m_checkPose = scene.target.meshShape->pose;
    sim.m_checkResolution = scene.target.meshShape->resolution;
  } else {
    auto tree = SphereTree::fromMesh(sim.m_targetMesh, kGraspCheckResolution, "grasp: the target's sphere tree");
    if (!tree) return tree.error();
    sim.m_checkTree = std::make_shared<const SphereTree>(std::move(tree).value());
    sim.m_checkResolution = kGraspCheckResolution;
  }
  if (Status s = sim.m_scene.add(scene.target.id, sim.m_targetMesh); !s) return s.error().prefixed("grasp: target: ");
  for (const GraspObject& d : scene.distractors) {
    if (d.id >= handObjectId(0)) return Error{"grasp: distractor IDs must be < " + std::to_string(handObjectId(0))};
    sim.m_distractorMeshes.push_back(d.mesh());
    if (Status s = sim.m_scene.add(d.id, sim.m_distractorMeshes.back()); !s)
      return s.error().prefixed("grasp: distractor: ");
  }
  for (std::size_t h = 0; h < scene.hands.size(); ++h) {
    const GraspHandPlacement& p = scene.hands[h];
    const HandSpec spec = HandSpec::standard().scaled(p.scale);
    if (Status s = spec.validate(); !s) return s.error().prefixed("grasp: hand " + std::to_string(h) + ": ");
    HandState state;
    state.model = HandModel(spec);
    // Palm frame: z = facing, y = fingers made orthogonal to it, x = y x z.
    const glm::vec3 z = glm::normalize(p.facing);
    const glm::vec3 y = glm::normalize(p.fingers - glm::dot(p.fingers, z) * z);
    const glm::vec3 x = glm::cross(y, z);
    HandPose pose;
    pose.rotation = glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
    pose.position = p.position;
    state.model.setPose(pose);
    const TriangleMesh handMesh = state.model.mesh();
    if (Status s = sim.m_scene.add(handObjectId(h), handMesh); !s) return s.error();
    for (int seg = 0; seg < kHandSegments; ++seg) {
      TriangleMesh collapsed = state.model.segmentMesh(seg);
      std::fill(collapsed.positions.begin(), collapsed.positions.end(), p.position);
      if (Status s = sim.m_scene.add(segmentObjectId(h, seg), collapsed); !s) return s.error();
    }
    sim.m_hands.push_back(std::move(state));
  }
  return sim;
}

Status GraspSimulation::syncScene(std::size_t h) {
  HandState& st = m_hands[h];
  const glm::vec3 point = st.model.palmCentre();
  if (st.segmentsLive) {
    const std::vector<glm::vec3> collapsed(m_scene.positionsOf(handObjectId(h)).size(), point);
    if (Status s = m_scene.setPositions(handObjectId(h), collapsed); !s) return s;
    for (int seg = 0; seg < kHandSegments; ++seg)
      if (Status s = m_scene.setPositions(segmentObjectId(h, seg), st.model.segmentPositions(seg)); !s) return s;
  } else {
    if (Status s = m_scene.setPositions(handObjectId(h), st.model.mesh().positions); !s) return s;
    const std::vector<glm::vec3> collapsed(st.model.segmentVertexCount(), point);
    for (int seg = 0; seg < kHandSegments; ++seg)
      if (Status s = m_scene.setPositions(segmentObjectId(h, seg), collapsed); !s) return s;
  }
  return Status::success();
}

RadarQuery GraspSimulation::sweepQuery(std::uint32_t id, std::span<const glm::vec3> points, glm::vec3 direction,
                                       float distance, glm::vec3 up) const {
  auto q = makeSweepQuery(id, points, direction * distance, up, 0.0f);
  if (!q) return RadarQuery{};  // unreachable for a hand segment; makeRadarFrames would report it
  // Volume = silhouette x wp / (wp - 1), a hair less: the outermost pixel centres fall just
  // inside the silhouette, so the sensor's edges are sampled (coverage is at pixel centres).
  const RadarImageSize size = m_description.settings.image;
  q->probe.width *= float(size.width) / float(size.width - 1) * (1.0f - 1e-4f);
  q->probe.height *= float(size.height) / float(size.height - 1) * (1.0f - 1e-4f);
  return *q;
}

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

Status GraspSimulation::step(RadarBackend& radar) {
  m_batch.clear();
  for (std::size_t h = 0; h < m_hands.size(); ++h) {
    HandState& st = m_hands[h];
    if (st.phase == GraspPhase::Detect) ++st.report.phaseFrames[0];
    if (st.phase == GraspPhase::Approach) ++st.report.phaseFrames[1];
    if (st.phase == GraspPhase::Close) ++st.report.phaseFrames[2];
    buildQueries(h);
    m_batch.insert(m_batch.end(), st.queries.begin(), st.queries.end());
  }
  // Every radar of every hand in one run.
  const auto t0 = std::chrono::steady_clock::now();
  auto hits = radar.run(m_scene, m_batch, m_description.settings.image);
  m_radarSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!hits) return hits.error().prefixed("grasp frame " + std::to_string(m_frame + 1) + ": ");
  if (hits->size() != m_batch.size()) return Error{"grasp: the radar backend returned the wrong number of hits"};
  ++m_frame;
  m_lastBatch = m_batch.size();
  m_radarsRun += m_batch.size();
  std::optional<Result<RadarImages>> images;
  auto getImages = [&]() -> const RadarImages* {
    if (!images) images.emplace(radar.images());
    return images->ok() ? &images->value() : nullptr;
  };
  // Hands close together (five hands grasp at once): an arrived hand waits while another
  // still detects or approaches, so no hand closes on one that is still moving in.
  const bool waiting =
      m_description.settings.closeTogether && std::any_of(m_hands.begin(), m_hands.end(), [](const HandState& st) {
        return st.phase == GraspPhase::Detect || st.phase == GraspPhase::Approach;
      });
  for (std::size_t h = 0; h < m_hands.size(); ++h) {
    HandState& st = m_hands[h];
    std::copy_n(hits->begin() + std::ptrdiff_t(h * kHandRadars), kHandRadars, st.hits.begin());
    switch (st.phase) {
      case GraspPhase::Detect:
        consumeDetect(h, getImages);
        break;
      case GraspPhase::Approach:
        consumeApproach(h);
        break;
      case GraspPhase::Close:
        if (waiting) {
          ++st.report.waitFrames;
          --st.report.phaseFrames[2];
        } else {
          consumeClose(h);
        }
        break;
      case GraspPhase::Done:
      case GraspPhase::Failed:
        break;
    }
    if (Status s = syncScene(h); !s) return s.error().prefixed("grasp: hand " + std::to_string(h) + ": ");
  }
  return Status::success();
}

bool GraspSimulation::finished() const {
  return std::all_of(m_hands.begin(), m_hands.end(), [](const HandState& st) {
    return st.phase == GraspPhase::Done || st.phase == GraspPhase::Failed;
  });
}

Status GraspSimulation::run(RadarBackend& radar, const std::function<void(const GraspSimulation&)>& onFrame) {
  while (!finished() && m_frame < m_description.settings.maxFrames) {
    if (Status s = step(radar); !s) return s;
    if (onFrame) onFrame(*this);
  }
  m_finishedBeforeLimit = finished();
  // One more frame measures the final pose (every hand's radars are monitors now).
  if (Status s = step(radar); !s) return s;
  if (onFrame) onFrame(*this);
  return Status::success();
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

TriangleMesh GraspSimulation::sceneMesh() const {
  TriangleMesh out;
  appendMesh(out, m_targetMesh);
  for (const TriangleMesh& d : m_distractorMeshes) appendMesh(out, d);
  for (const HandState& st : m_hands) appendMesh(out, st.model.mesh());
  computeVertexNormals(out);
  return out;
}

}  // namespace hg
