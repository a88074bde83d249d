#include "sim/body/BodyMeasure.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/body/Mannequin.h"
#include "sim/body/SkeletonConvention.h"
#include "sim/core/Numbers.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

float convexHullPerimeter(std::vector<glm::vec2> points) {
  if (points.size() < 2) return 0.0f;
  std::sort(points.begin(), points.end(), [](glm::vec2 a, glm::vec2 b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  const auto cross = [](glm::vec2 o, glm::vec2 a, glm::vec2 b) {
    return double(a.x - o.x) * double(b.y - o.y) - double(a.y - o.y) * double(b.x - o.x);
  };
  std::vector<glm::vec2> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {  // lower hull
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0.0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {  // upper hull
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0.0) --k;
    hull[k++] = points[i];
  }
  double perimeter = 0.0;
  for (std::size_t i = 0; i + 1 < k; ++i) perimeter += glm::length(glm::dvec2(hull[i + 1] - hull[i]));
  return float(perimeter);
}

glm::vec2 thighAxisAt(const glm::vec3& hip, const glm::vec3& knee, float y) {
  const float t = (hip.y - y) / (hip.y - knee.y);
  const glm::vec3 c = hip + t * (knee - hip);
  return {c.x, c.z};
}

namespace {

/// The cross-section of a closed mesh by the plane {axis = value}: segments, each with the
/// 2D coordinates (the other two axes in order) of its ends and its connected loop.
struct Slice {
  std::vector<std::array<glm::vec2, 2>> segments;
  std::vector<std::uint32_t> loop;  ///< per segment
  std::size_t loopCount = 0;
};

Slice sliceMesh(const TriangleMesh& mesh, int axis, float value) {
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  // Ensure (u, v) follows x < y < z order for readability: (y, z) for x, (x, z) for y, (x, y) for z.
  const int first = std::min(u, v), second = std::max(u, v);
  Slice slice;
  std::unordered_map<std::uint64_t, std::uint32_t> edgePoint;  // undirected mesh edge -> point id
  std::vector<std::uint32_t> parent;
  std::vector<std::array<std::uint32_t, 2>> segmentPoints;
  const auto find = [&parent](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const auto pointOf = [&](std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
    const auto [it, inserted] = edgePoint.try_emplace(key, std::uint32_t(parent.size()));
    if (inserted) parent.push_back(it->second);
    const glm::vec3 pa = mesh.positions[a], pb = mesh.positions[b];
    const float t = (value - pa[axis]) / (pb[axis] - pa[axis]);
    const glm::vec3 q = pa + t * (pb - pa);
    return std::pair{it->second, glm::vec2(q[first], q[second])};
  };
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::uint32_t* idx = &mesh.indices[3 * t];
    std::array<std::pair<std::uint32_t, glm::vec2>, 2> ends{};
    int found = 0;
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t a = idx[c], b = idx[(c + 1) % 3];
      const bool aAbove = mesh.positions[a][axis] >= value, bAbove = mesh.positions[b][axis] >= value;
      if (aAbove != bAbove && found < 2) ends[std::size_t(found++)] = pointOf(a, b);
    }
    if (found != 2) continue;
    slice.segments.push_back({ends[0].second, ends[1].second});
    segmentPoints.push_back({ends[0].first, ends[1].first});
    const std::uint32_t ra = find(ends[0].first), rb = find(ends[1].first);
    if (ra != rb) parent[rb] = ra;
  }
  std::vector<std::uint32_t> label(parent.size(), ~0u);
  slice.loop.resize(slice.segments.size());
  for (std::size_t s = 0; s < slice.segments.size(); ++s) {
    const std::uint32_t root = find(segmentPoints[s][0]);
    if (label[root] == ~0u) label[root] = std::uint32_t(slice.loopCount++);
    slice.loop[s] = label[root];
  }
  return slice;
}

/// The loop of `slice` that encloses `q` (even-odd rule; the smallest by bounding box when
/// several do), or -1.
int enclosingLoop(const Slice& slice, glm::vec2 q) {
  std::vector<int> crossings(slice.loopCount, 0);
  std::vector<glm::vec4> bounds(slice.loopCount, glm::vec4(1e30f, 1e30f, -1e30f, -1e30f));
  for (std::size_t s = 0; s < slice.segments.size(); ++s) {
    const glm::vec2 a = slice.segments[s][0], b = slice.segments[s][1];
    glm::vec4& box = bounds[slice.loop[s]];
    for (const glm::vec2 e : {a, b})
      box = {std::min(box.x, e.x), std::min(box.y, e.y), std::max(box.z, e.x), std::max(box.w, e.y)};
    if ((a.y > q.y) != (b.y > q.y)) {
      const float x = a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x);
      if (x > q.x) ++crossings[slice.loop[s]];
    }
  }
  int best = -1;
  float bestArea = std::numeric_limits<float>::max();
  for (std::size_t l = 0; l < slice.loopCount; ++l) {
    const float area = (bounds[l].z - bounds[l].x) * (bounds[l].w - bounds[l].y);
    if (crossings[l] % 2 == 1 && area < bestArea) {
      best = int(l);
      bestArea = area;
    }
  }
  return best;
}

/// Convex-hull perimeter of the mesh's section by the plane through `at` perpendicular to
/// `axis`, around `at`: the mesh turned so that `axis` is +y, then sliced horizontally.
float meshGirthAcross(const TriangleMesh& mesh, glm::vec3 at, glm::vec3 axis);

/// Convex-hull perimeter of the horizontal mesh section at height y around (x, z) = q.
float meshGirth(const TriangleMesh& mesh, float y, glm::vec2 q) {
  if (!std::isfinite(y) || !std::isfinite(q.x) || !std::isfinite(q.y)) return kNaN;
  const Slice slice = sliceMesh(mesh, 1, y);
  const int loop = enclosingLoop(slice, q);
  if (loop < 0) return kNaN;
  std::vector<glm::vec2> points;
  for (std::size_t s = 0; s < slice.segments.size(); ++s)
    if (int(slice.loop[s]) == loop) points.insert(points.end(), {slice.segments[s][0], slice.segments[s][1]});
  return convexHullPerimeter(std::move(points));
}
float meshGirthAcross(const TriangleMesh& mesh, glm::vec3 at, glm::vec3 axis) {
  const float length = glm::length(axis);
  if (!(length > 0.0f) || !std::isfinite(at.x + at.y + at.z)) return kNaN;
  const glm::vec3 y = axis / length;
  const glm::vec3 helper = std::abs(y.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 x = glm::normalize(glm::cross(y, helper)), z = glm::cross(x, y);
  TriangleMesh turned;
  turned.indices = mesh.indices;
  turned.positions.reserve(mesh.positions.size());
  for (const glm::vec3& p : mesh.positions) {
    const glm::vec3 d = p - at;
    turned.positions.emplace_back(glm::dot(d, x), glm::dot(d, y), glm::dot(d, z));
  }
  return meshGirth(turned, 0.0f, {0.0f, 0.0f});
}

}  // namespace

glm::vec3 BodyMeasurements::joint(std::string_view name) const {
  const auto it = jointPositions.find(name);
  return it == jointPositions.end() ? glm::vec3(kNaN) : it->second;
}

BodyMeasurements measureBody(const SkinnedMesh& body) {
  BodyMeasurements m;
  // Sections chain their segments into loops through shared vertices: a triangle soup
  // (an unwelded export, a scan) is welded first, or every loop is one triangle wide.
  const TriangleMesh mesh = weldedByPosition(body.mesh);
  const std::vector<glm::mat4> global = globalMatrices(body.skeleton, restPose(body.skeleton));
  for (std::size_t j = 0; j < global.size(); ++j)
    m.jointPositions[body.skeleton.joints[j].name] = glm::vec3(global[j][3]);
  if (auto convention = detectSkeletonConvention(body.skeleton, "body"); convention) {
    m.convention = skeletonConventionName(convention->convention);
    for (std::size_t c = 0; c < kCanonicalJointCount; ++c)
      m.jointPositions.try_emplace(std::string(canonicalJointNames()[c]),
                                   glm::vec3(global[std::size_t(convention->joint[c])][3]));
  }

  float floor = std::numeric_limits<float>::max(), top = -std::numeric_limits<float>::max();
  for (const glm::vec3& q : mesh.positions) {
    floor = std::min(floor, q.y);
    top = std::max(top, q.y);
  }
  if (mesh.positions.empty()) floor = top = kNaN;
  m.height = top - floor;

  const glm::vec3 pelvis = m.joint("pelvis"), spine = m.joint("spine"), chest = m.joint("chest");
  const glm::vec3 neck = m.joint("neck"), head = m.joint("head");
  const glm::vec3 neckMid = 0.5f * (neck + head);
  m.chestHeight = chest.y - floor;
  m.waistHeight = spine.y - floor;
  m.hipHeight = pelvis.y - floor;
  m.neckHeight = neckMid.y - floor;
  m.chestGirth = meshGirth(mesh, chest.y, {chest.x, chest.z});
  m.waistGirth = meshGirth(mesh, spine.y, {spine.x, spine.z});
  m.hipGirth = meshGirth(mesh, pelvis.y, {pelvis.x, pelvis.z});
  m.neckGirth = meshGirth(mesh, neckMid.y, {neckMid.x, neckMid.z});

  // Crotch: lowest point of the sagittal section loop (plane x = pelvis x) around the pelvis.
  m.crotchHeight = kNaN;
  if (std::isfinite(pelvis.x)) {
    const Slice sagittal = sliceMesh(mesh, 0, pelvis.x);  // 2D coordinates (y, z)
    const int loop = enclosingLoop(sagittal, {pelvis.y, pelvis.z});
    if (loop >= 0) {
      float lowest = std::numeric_limits<float>::max();
      for (std::size_t s = 0; s < sagittal.segments.size(); ++s)
        if (int(sagittal.loop[s]) == loop)
          lowest = std::min({lowest, sagittal.segments[s][0].x, sagittal.segments[s][1].x});
      m.crotchHeight = lowest - floor;
    }
  }
  m.legLength = m.crotchHeight;
  m.thighHeight = m.crotchHeight - kThighGirthBelowCrotch;
  const glm::vec3 hipL = m.joint("thigh_l"), kneeL = m.joint("shin_l");
  const float thighY = floor + m.thighHeight;
  m.thighGirth = meshGirth(mesh, thighY, thighAxisAt(hipL, kneeL, thighY));

  const glm::vec3 shoulderL = m.joint("upper_arm_l"), elbowL = m.joint("forearm_l");
  m.upperArmGirth = meshGirthAcross(mesh, shoulderL + (elbowL - shoulderL) / 3.0f, elbowL - shoulderL);
  m.shoulderWidth = glm::length(m.joint("upper_arm_l") - m.joint("upper_arm_r"));
  m.armLength = glm::length(m.joint("forearm_l") - m.joint("upper_arm_l")) +
                glm::length(m.joint("hand_l") - m.joint("forearm_l"));
  return m;
}

}  // namespace hg
