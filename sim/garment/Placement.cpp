#include "sim/garment/Placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "sim/geometry/CgalGeometry.h"

namespace hg {

namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

/// Arc length along the ellipse (sin t, r cos t) from t = 0, tabulated for inversion.
class UnitEllipse {
 public:
  explicit UnitEllipse(float ratio) : m_s(kSamples + 1, 0.0) {
    for (int i = 1; i <= kSamples; ++i) {
      const double t = (i - 0.5) * kStep;
      m_s[std::size_t(i)] = m_s[std::size_t(i - 1)] + kStep * std::hypot(std::cos(t), double(ratio) * std::sin(t));
    }
  }
  double perimeter() const { return m_s.back(); }
  /// The parameter t whose arc length from t = 0 is s (signed, |s| up to half the perimeter).
  double angleAt(double s) const {
    const double a = std::clamp(std::abs(s), 0.0, m_s.back());
    const auto it = std::lower_bound(m_s.begin(), m_s.end(), a);
    const std::size_t i = std::clamp<std::size_t>(std::size_t(it - m_s.begin()), 1, m_s.size() - 1);
    const double f = (a - m_s[i - 1]) / std::max(m_s[i] - m_s[i - 1], 1e-15);
    return std::copysign((double(i - 1) + f) * kStep, s);
  }

 private:
  static constexpr int kSamples = 2048;
  static constexpr double kStep = 2.0 * std::numbers::pi / kSamples;
  std::vector<double> m_s;
};

/// Point at distance d along the polyline a -> b -> c (extrapolated past c) and the
/// direction of the segment there.
std::pair<glm::vec3, glm::vec3> alongLimb(glm::vec3 a, glm::vec3 b, glm::vec3 c, float d) {
  const float upper = glm::distance(a, b);
  if (d <= upper || glm::distance(b, c) < 1e-6f) {
    const glm::vec3 dir = glm::normalize(b - a);
    return {a + dir * d, dir};
  }
  const glm::vec3 dir = glm::normalize(c - b);
  return {b + dir * (d - upper), dir};
}

/// The leg axis at height y: the joints' (x, z) interpolated by height.
glm::vec2 legAxisAt(glm::vec3 hip, glm::vec3 knee, glm::vec3 ankle, float y) {
  const auto lerpXZ = [](glm::vec3 p, glm::vec3 q, float yy) {  // p above q
    const float t = std::clamp((yy - q.y) / std::max(p.y - q.y, 1e-6f), 0.0f, 1.0f);
    return glm::mix(glm::vec2(q.x, q.z), glm::vec2(p.x, p.z), t);
  };
  return y >= knee.y ? lerpXZ(hip, knee, y) : lerpXZ(knee, ankle, y);
}

bool isLeg(BodyRegion r) {
  return r == BodyRegion::LeftLegFront || r == BodyRegion::LeftLegBack || r == BodyRegion::RightLegFront ||
         r == BodyRegion::RightLegBack;
}
bool isFrontRegion(BodyRegion r) {
  return r == BodyRegion::TorsoFront || r == BodyRegion::LeftLegFront || r == BodyRegion::RightLegFront;
}

/// (min x + max x) / 2 of the outline along the horizontal line at height y.
double midAt(const Panel& panel, double y) {
  const std::vector<glm::vec2> p = panel.outline();
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const glm::dvec2 a = p[i], b = p[(i + 1) % p.size()];
    if ((a.y - y) * (b.y - y) > 0.0) continue;
    const double x = a.y == b.y ? a.x : a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y);
    lo = std::min({lo, x, a.y == b.y ? b.x : x});
    hi = std::max({hi, x, a.y == b.y ? b.x : x});
  }
  return hi >= lo ? 0.5 * (lo + hi) : 0.0;
}

/// A panel's vertices wrapped around the body, each with the point on the axis of the
/// surface it was wrapped on (the pushes out of the body go radially away from it).
struct WrappedPanel {
  std::vector<glm::vec3> placed, axes;
};

/// Height of the widest row of the panel (the underarm line of a sleeve), sampled at 129
/// heights over its outline.
double widestHeight(const Panel& panel) {
  double yMin = INFINITY, yMax = -INFINITY;
  for (const glm::vec2& q : panel.outline()) yMin = std::min(yMin, double(q.y)), yMax = std::max(yMax, double(q.y));
  double yRef = yMin, widest = 0.0;
  for (int i = 0; i <= 128; ++i) {
    const double y = yMin + (yMax - yMin) * i / 128.0;
    if (panel.widthAt(y) > widest + 1e-9) widest = panel.widthAt(y), yRef = y;
  }
  return yRef;
}

/// Wraps the panels of a pattern around the body frame: sleeves around the arm bones,
/// leg panels around the leg bones (blending into the torso above the leg top), the
/// others around the torso's elliptic cylinder, whose circumference at each height is the
/// garment's there.
class PanelWrapper {
 public:
  PanelWrapper(const Pattern& pattern, const GarmentSizing& sizing, const BodyFrame& frame, float offset)
      : m_pattern(pattern),
        m_sizing(sizing),
        m_frame(frame),
        m_ellipse(frame.torsoDepthRatio),
        m_legTop(sizing.crotchHeight - 0.05f),
        m_offset(offset) {
    for (const Panel& p : pattern.panels) m_hasLegs = m_hasLegs || isLeg(p.region);
  }

  /// Error: an arm panel on a body frame whose arm has no length.
  Result<WrappedPanel> wrap(const Panel& panel, const TriangleMesh& mesh) const {
    const bool front = isFrontRegion(panel.region);
    WrappedPanel out;
    out.placed.reserve(mesh.positions.size());
    if (panel.region == BodyRegion::LeftArm || panel.region == BodyRegion::RightArm) {
      if (Status s = wrapArm(panel, mesh, out); !s) return s.error();
    } else if (isLeg(panel.region)) {
      wrapLeg(panel, mesh, front, out);
    } else {
      for (const glm::vec3& q : mesh.positions) {
        out.placed.push_back(torsoPoint(glm::vec2(q), front));
        out.axes.push_back(glm::vec3(m_frame.torsoAxis.x, q.y, m_frame.torsoAxis.y));
      }
    }
    return out;
  }

 private:
  /// Width of the widest panel of a region at height y (m).
  double regionWidth(BodyRegion region, double y) const {
    double w = 0.0;
    for (const Panel& p : m_pattern.panels)
      if (p.region == region) w = std::max(w, p.widthAt(y));
    return w;
  }

  /// Garment circumference around the torso at height y: front + back (or the four leg
  /// panels, centre line to outseam, at or above the hip line).
  double torsoCircumference(double y) const {
    if (m_hasLegs) {
      const double yy = std::max(y, double(m_sizing.hipHeight));
      return regionWidth(BodyRegion::LeftLegFront, yy) + regionWidth(BodyRegion::LeftLegBack, yy) +
             regionWidth(BodyRegion::RightLegFront, yy) + regionWidth(BodyRegion::RightLegBack, yy);
    }
    return regionWidth(BodyRegion::TorsoFront, y) + regionWidth(BodyRegion::TorsoBack, y);
  }

  /// Panel point q (x: arc length from the centre line, y: height) on the torso ellipse.
  glm::vec3 torsoPoint(glm::vec2 q, bool front) const {
    const double c = std::max(torsoCircumference(q.y), 0.05);
    const double a = c / m_ellipse.perimeter() + double(m_offset), b = a * m_frame.torsoDepthRatio;
    const double t = m_ellipse.angleAt(q.x / a);
    const float sx = float(a * std::sin(t)), sz = float(b * std::cos(t));
    return front ? glm::vec3(m_frame.torsoAxis.x + sx, q.y, m_frame.torsoAxis.y + sz)
                 : glm::vec3(m_frame.torsoAxis.x - sx, q.y, m_frame.torsoAxis.y - sz);
  }

  /// A sleeve around the arm's bones, its radius from its width (above the widest row,
  /// the cap keeps that radius).
  Status wrapArm(const Panel& panel, const TriangleMesh& mesh, WrappedPanel& out) const {
    const bool left = panel.region == BodyRegion::LeftArm;
    const glm::vec3 sh = left ? m_frame.leftShoulder : m_frame.rightShoulder,
                    el = left ? m_frame.leftElbow : m_frame.rightElbow,
                    wr = left ? m_frame.leftWrist : m_frame.rightWrist;
    if (glm::distance(sh, el) < 1e-3f)
      return Error{"placement: the body frame's arm has no length (panel '" + panel.name + "')"};
    // Reference height: where the sleeve is widest (the underarm line); the cap above
    // keeps that radius.
    const double yRef = widestHeight(panel);
    for (const glm::vec3& q : mesh.positions) {
      const double y = std::min(double(q.y), yRef);
      const float radius = float(std::max(panel.widthAt(y), 0.05)) / kTwoPi + m_offset;
      const auto [axis, dir] = alongLimb(sh, el, wr, std::max(-q.y, 0.0f));
      glm::vec3 up = glm::vec3(0, 1, 0) - glm::dot(glm::vec3(0, 1, 0), dir) * dir;
      up = glm::length(up) > 1e-4f ? glm::normalize(up) : glm::vec3(0, 0, 1);
      const glm::vec3 side = glm::cross(up, dir);
      const float phi = (q.x - float(midAt(panel, y))) / radius;
      out.placed.push_back(axis + radius * (std::cos(phi) * up + std::sin(phi) * side));
      out.axes.push_back(axis);
    }
    return Status::success();
  }

  /// A leg panel around the leg's bones, its radius from the leg's front and back panels;
  /// between the leg top and the hip line it blends into the torso ellipse.
  void wrapLeg(const Panel& panel, const TriangleMesh& mesh, bool front, WrappedPanel& out) const {
    const bool left = panel.region == BodyRegion::LeftLegFront || panel.region == BodyRegion::LeftLegBack;
    const glm::vec3 hip = left ? m_frame.leftHip : m_frame.rightHip, knee = left ? m_frame.leftKnee : m_frame.rightKnee,
                    ankle = left ? m_frame.leftAnkle : m_frame.rightAnkle;
    const BodyRegion partnerFront = left ? BodyRegion::LeftLegFront : BodyRegion::RightLegFront;
    const BodyRegion partnerBack = left ? BodyRegion::LeftLegBack : BodyRegion::RightLegBack;
    for (const glm::vec3& q : mesh.positions) {
      const float y = std::min(q.y, m_legTop);
      const float circumference = float(std::max(regionWidth(partnerFront, y) + regionWidth(partnerBack, y), 0.05));
      const float radius = circumference / kTwoPi + m_offset;
      const glm::vec2 c = legAxisAt(hip, knee, ankle, q.y);
      const float phi = (q.x - float(midAt(panel, y))) / radius;
      const glm::vec3 around = radius * glm::vec3(std::sin(phi), 0.0f, std::cos(phi)) * (front ? 1.0f : -1.0f);
      const glm::vec3 legPoint = glm::vec3(c.x, q.y, c.y) + around;
      // Between the leg top and the hip line, blend into the torso ellipse.
      const float t = std::clamp((q.y - m_legTop) / std::max(m_sizing.hipHeight - m_legTop, 1e-3f), 0.0f, 1.0f);
      const float blend = t * t * (3.0f - 2.0f * t);
      out.placed.push_back(blend > 0.0f ? glm::mix(legPoint, torsoPoint(glm::vec2(q), front), blend) : legPoint);
      out.axes.push_back(
          glm::mix(glm::vec3(c.x, q.y, c.y), glm::vec3(m_frame.torsoAxis.x, q.y, m_frame.torsoAxis.y), blend));
    }
  }

  const Pattern& m_pattern;
  const GarmentSizing& m_sizing;
  const BodyFrame& m_frame;
  const UnitEllipse m_ellipse;
  const float m_legTop;
  const float m_offset;
  bool m_hasLegs = false;
};

/// Pushes the wrapped vertices out of the body: radially away from the wrapping surface's
/// axis (locally a larger cylinder), so neighbouring vertices keep their order and no
/// triangle folds. Returns how many vertices moved. Error: a vertex still inside or
/// closer than the clearance after options.maxPushIterations pushes.
Result<int> pushOutOfBody(const Panel& panel, bool front, const cgal::ClosedMeshQuery& query,
                          const PlacementOptions& options, WrappedPanel& wrapped) {
  int pushed = 0;
  for (std::size_t v = 0; v < wrapped.placed.size(); ++v) {
    glm::vec3& p = wrapped.placed[v];
    glm::vec3 radial = p - wrapped.axes[v];
    radial = glm::length(radial) > 1e-6f ? glm::normalize(radial) : glm::vec3(0, 0, front ? 1.0f : -1.0f);
    const float step = std::max(0.5f * options.clearance, 0.002f);
    bool moved = false;
    for (int it = 0;; ++it) {
      if (!query.inside(p) && glm::distance(p, query.closestPoint(p)) >= options.clearance) break;
      if (it == options.maxPushIterations)
        return Error{"placement: panel '" + panel.name + "' vertex " + std::to_string(v) +
                     " is still inside the body or within " + std::to_string(options.clearance) + " m of it after " +
                     std::to_string(it) + " pushes"};
      p += radial * step;
      moved = true;
    }
    pushed += moved ? 1 : 0;
  }
  return pushed;
}

/// p moved out through the nearest point of the body's surface to just beyond the
/// clearance, repeated where that lands near another part (between an arm and the torso).
/// Where parts overlap (a union of closed components) the nearest surface can lie inside
/// another part; then p marches from where it started, in steps of max(clearance / 2,
/// 2 mm), along whichever of `directions` (unit) and the way to that first nearest point
/// clears the body soonest. Nothing when none does within `maxTries` steps.
std::optional<glm::vec3> pushedToNearestSurface(const cgal::ClosedMeshQuery& query, glm::vec3 p, float clearance,
                                                int maxTries, std::vector<glm::vec3> directions) {
  const auto isClearAt = [&](glm::vec3 x) {
    return !query.inside(x) && glm::distance(x, query.closestPoint(x)) >= clearance;
  };
  const glm::vec3 start = p;
  for (int it = 0; it <= maxTries; ++it) {
    const glm::vec3 onSurface = query.closestPoint(p);
    const bool inside = query.inside(p);
    if (!inside && glm::distance(p, onSurface) >= clearance) return p;
    const glm::vec3 outward = inside ? onSurface - p : p - onSurface;
    if (glm::length(outward) < 1e-7f) break;
    if (it == 0) directions.push_back(glm::normalize(outward));
    p = onSurface + glm::normalize(outward) * (1.05f * clearance + 1e-4f);
  }
  const float step = std::max(0.5f * clearance, 0.002f);
  for (int it = 1; it <= maxTries; ++it)
    for (const glm::vec3& d : directions)
      if (isClearAt(start + d * (step * float(it)))) return start + d * (step * float(it));
  return std::nullopt;
}

/// The clearance actually reached (exact inside test, then the distance). Error: a
/// vertex inside the body.
Result<float> reachedClearance(const Pattern& pattern, const PlacedPattern& placed,
                               const cgal::ClosedMeshQuery& query) {
  float clearance = std::numeric_limits<float>::infinity();
  for (std::size_t pi = 0; pi < placed.panelPositions.size(); ++pi)
    for (const glm::vec3& p : placed.panelPositions[pi]) {
      if (query.inside(p))
        return Error{"placement: panel '" + pattern.panels[pi].name + "' has a vertex inside the body"};
      clearance = std::min(clearance, glm::distance(p, query.closestPoint(p)));
    }
  return clearance;
}

}  // namespace

BodyFrame BodyFrame::fromSizing(const GarmentSizing& s, float armDownDegrees) {
  BodyFrame f;
  const float a = armDownDegrees * std::numbers::pi_v<float> / 180.0f;
  const glm::vec3 left(std::cos(a), -std::sin(a), 0.0f), right(-std::cos(a), -std::sin(a), 0.0f);
  f.leftShoulder = glm::vec3(0.5f * s.shoulderWidth - 0.03f, s.shoulderHeight - 0.04f, 0.0f);
  f.rightShoulder = glm::vec3(-f.leftShoulder.x, f.leftShoulder.y, 0.0f);
  f.leftElbow = f.leftShoulder + 0.46f * s.armLength * left;
  f.leftWrist = f.leftShoulder + s.armLength * left;
  f.rightElbow = f.rightShoulder + 0.46f * s.armLength * right;
  f.rightWrist = f.rightShoulder + s.armLength * right;
  f.leftHip = glm::vec3(0.085f * s.hipGirth, s.hipHeight - 0.02f, 0.0f);
  f.leftKnee = glm::vec3(0.08f * s.hipGirth, s.kneeHeight, 0.0f);
  f.leftAnkle = glm::vec3(0.075f * s.hipGirth, s.ankleHeight, 0.0f);
  f.rightHip = f.leftHip * glm::vec3(-1, 1, 1);
  f.rightKnee = f.leftKnee * glm::vec3(-1, 1, 1);
  f.rightAnkle = f.leftAnkle * glm::vec3(-1, 1, 1);
  return f;
}

Result<PlacedPattern> placePattern(const Pattern& pattern, const PatternMesh& meshes, const GarmentSizing& sizing,
                                   const BodyFrame& frame, const TriangleMesh& body, const PlacementOptions& options) {
  if (meshes.panels.size() != pattern.panels.size())
    return Error{"placement: pattern '" + pattern.name + "' has " + std::to_string(pattern.panels.size()) +
                 " panels but its mesh " + std::to_string(meshes.panels.size())};
  if (Status s = sizing.validate(); !s) return s.error();
  if (!(options.clearance >= 0.0f) || !std::isfinite(options.clearance))
    return Error{"placement: clearance must be >= 0 m"};
  if (!(options.radialOffset >= 0.0f) || !std::isfinite(options.radialOffset))
    return Error{"placement: radial offset must be >= 0 m"};
  if (!(frame.torsoDepthRatio > 0.1f && frame.torsoDepthRatio <= 1.0f))
    return Error{"placement: torso depth ratio must be in 0.1 .. 1"};
  auto query = cgal::ClosedMeshQuery::create(body);
  if (!query) return query.error().prefixed("placement: ");

  const PanelWrapper wrapper(pattern, sizing, frame, options.radialOffset);
  PlacedPattern out;
  for (std::size_t pi = 0; pi < pattern.panels.size(); ++pi) {
    const Panel& panel = pattern.panels[pi];
    Result<WrappedPanel> wrapped = wrapper.wrap(panel, meshes.panels[pi].mesh);
    if (!wrapped) return wrapped.error();
    const Result<int> pushed = pushOutOfBody(panel, isFrontRegion(panel.region), *query, options, *wrapped);
    if (!pushed) return pushed.error();
    out.pushedVertices += *pushed;
    out.panelPositions.push_back(std::move(wrapped->placed));
  }
  const Result<float> clearance = reachedClearance(pattern, out, *query);
  if (!clearance) return clearance.error();
  out.minClearance = *clearance;
  return out;
}

Result<PlacedPattern> placeByTransforms(const Pattern& pattern, const PatternMesh& meshes,
                                        const std::vector<PanelTransform>& transforms, const TriangleMesh& body,
                                        const PlacementOptions& options) {
  if (meshes.panels.size() != pattern.panels.size() || transforms.size() != pattern.panels.size())
    return Error{"placement: pattern '" + pattern.name + "' has " + std::to_string(pattern.panels.size()) +
                 " panels, its mesh " + std::to_string(meshes.panels.size()) + " and its transforms " +
                 std::to_string(transforms.size())};
  if (!(options.clearance >= 0.0f) || !std::isfinite(options.clearance))
    return Error{"placement: clearance must be >= 0 m"};
  auto query = cgal::ClosedMeshQuery::create(body);
  if (!query) return query.error().prefixed("placement: ");
  PlacedPattern out;
  for (std::size_t pi = 0; pi < pattern.panels.size(); ++pi) {
    // The panel's own normal, either way, is the fallback that keeps it flat.
    const glm::vec3 normal = glm::normalize(transforms[pi].rotation * glm::vec3(0.0f, 0.0f, 1.0f));
    std::vector<glm::vec3> placed;
    for (const glm::vec3& q : meshes.panels[pi].mesh.positions) {
      const glm::vec3 p = transforms[pi].apply(glm::vec2(q));
      const std::optional<glm::vec3> clear =
          pushedToNearestSurface(*query, p, options.clearance, options.maxPushIterations, {normal, -normal});
      if (!clear)
        return Error{"placement: panel '" + pattern.panels[pi].name + "' has a vertex inside the body at (" +
                     std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z) +
                     ") m that could not be pushed out: move the pattern (its panels' translations) off the body"};
      out.pushedVertices += *clear == p ? 0 : 1;
      placed.push_back(*clear);
    }
    out.panelPositions.push_back(std::move(placed));
  }
  const Result<float> clearance = reachedClearance(pattern, out, *query);
  if (!clearance) return clearance.error();
  out.minClearance = *clearance;
  return out;
}

void turnPanel(Panel& panel, PanelTransform& transform, double radians) {
  const glm::mat3 turn(glm::rotate(glm::mat4(1.0f), float(radians), glm::vec3(0, 0, 1)));
  for (PanelEdge& e : panel.edges)
    for (glm::vec2& q : e.points) q = glm::vec2(turn * glm::vec3(q, 0.0f));
  transform.rotation = transform.rotation * glm::transpose(turn);
}

glm::mat3 eulerXyzRotation(glm::dvec3 degrees) {
  const glm::dvec3 r = glm::radians(degrees);
  const glm::mat4 identity(1.0f);
  return glm::mat3(glm::rotate(identity, float(r.z), glm::vec3(0, 0, 1))) *
         glm::mat3(glm::rotate(identity, float(r.y), glm::vec3(0, 1, 0))) *
         glm::mat3(glm::rotate(identity, float(r.x), glm::vec3(1, 0, 0)));
}

glm::dvec3 eulerXyzDegrees(const glm::mat3& r) {
  // glm is column-major: r[column][row].
  const double sinB = std::clamp(-double(r[0][2]), -1.0, 1.0);
  const double b = std::asin(sinB);
  double a = 0.0, c = 0.0;
  if (std::abs(sinB) < 1.0 - 1e-9) {
    a = std::atan2(double(r[1][2]), double(r[2][2]));
    c = std::atan2(double(r[0][1]), double(r[0][0]));
  } else {  // gimbal lock: only a - c (or a + c) is defined; put it all in a
    a = std::atan2(-double(r[2][1]), double(r[1][1]));
  }
  return glm::degrees(glm::dvec3(a, b, c));
}

}  // namespace hg
