#include "sim/cloth/ClothColliders.h"

#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "sim/core/Finite.h"

namespace hg {
namespace {

kernels::ClothCollider record(std::uint32_t kind, glm::vec4 a, glm::vec4 b = glm::vec4(0.0f)) {
  kernels::ClothCollider r{};
  r.kind = glm::uvec4(kind, 0u, 0u, 0u);
  r.a = a;
  r.b = b;
  return r;
}

Status validateBoxes(const std::vector<BoxCollider>& boxes) {
  if (boxes.size() > HG_MAX_CLOTH_BOXES)
    return Error{"boxes: at most " + std::to_string(HG_MAX_CLOTH_BOXES) + " box colliders (HG_MAX_CLOTH_BOXES), got " +
                 std::to_string(boxes.size())};
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Obb& b = boxes[i].box;
    bool ok = allFinite(b.centre) && allFinite(b.halfLengths) && b.halfLengths.x >= 0.0f && b.halfLengths.y >= 0.0f &&
              b.halfLengths.z >= 0.0f;
    for (const glm::vec3& axis : b.axes) ok = ok && allFinite(axis) && std::abs(glm::length(axis) - 1.0f) < 1e-3f;
    if (!ok) return Error{"boxes[" + std::to_string(i) + "] needs a finite centre, unit axes and half extents >= 0 m"};
  }
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if (!std::isfinite(boxes[i].friction)) return Error{"boxes[" + std::to_string(i) + "].friction must be finite"};
  return Status::success();
}

Status validateSphereTrees(const SphereTreeColliders& trees) {
  for (std::size_t i = 0; i < trees.instances.size(); ++i) {
    const kernels::SphereTreeInstance& t = trees.instances[i];
    if (std::size_t(t.base.x) + t.base.y > trees.nodes.size() || t.base.y == 0)
      return Error{"sphere tree collider " + std::to_string(i) + " points outside the node array"};
    if (!(t.translation.w >= 0.0f))
      return Error{"sphere tree collider " + std::to_string(i) + ": friction must be >= 0"};
  }
  return Status::success();
}

}  // namespace

ClothColliders ClothColliders::groundOnly(float height) {
  ClothColliders colliders;
  colliders.grounds.push_back(GroundCollider{height, glm::vec3(0.0f, 1.0f, 0.0f)});
  return colliders;
}

std::uint32_t ClothColliders::depthViewCount() const {
  if (residentDepthViews.count > 0) return residentDepthViews.count;
  return depthViews ? std::uint32_t(depthViews->setup.views.size()) : 0u;
}

Status ClothColliders::validate() const {
  for (const SphereCollider& s : spheres)
    if (!allFinite(s.centre) || !(s.radius > 0.0f) || !std::isfinite(s.radius))
      return Error{"sphere needs a finite center and a radius > 0 m"};
  for (const GroundCollider& g : grounds)
    if (!std::isfinite(g.height) || !allFinite(g.normal) || std::abs(glm::length(g.normal) - 1.0f) > 1e-4f)
      return Error{"ground needs a finite height and a unit normal"};
  if (Status s = validateBoxes(boxes); !s) return s;
  if (sphereTrees)
    if (Status s = validateSphereTrees(*sphereTrees); !s) return s;
  const std::size_t count = spheres.size() + grounds.size() + 4 + boxes.size();
  if (count > HG_MAX_CLOTH_COLLIDERS)
    return Error{"colliders: at most " + std::to_string(HG_MAX_CLOTH_COLLIDERS) + " (HG_MAX_CLOTH_COLLIDERS), got " +
                 std::to_string(count)};
  return Status::success();
}

std::vector<kernels::ClothCollider> ClothColliders::records(float friction, float sphereTreeSearchRadius) const {
  std::vector<kernels::ClothCollider> out;
  const glm::vec4 mu(friction, 0.0f, 0.0f, 0.0f);
  for (const SphereCollider& s : spheres) out.push_back(record(HG_COLLIDER_SPHERE, glm::vec4(s.centre, s.radius), mu));
  for (const GroundCollider& g : grounds) out.push_back(record(HG_COLLIDER_GROUND, glm::vec4(g.normal, g.height), mu));
  if (distanceGrid) {
    kernels::ClothCollider r =
        record(HG_COLLIDER_DISTANCE_GRID, glm::vec4(distanceGrid->origin, distanceGrid->cellSize), mu);
    r.kind = glm::uvec4(HG_COLLIDER_DISTANCE_GRID, glm::uvec3(distanceGrid->dims));
    out.push_back(r);
  }
  if (const std::uint32_t views = depthViewCount(); views > 0) {
    kernels::ClothCollider r = record(HG_COLLIDER_DEPTH_VIEWS, glm::vec4(0.0f), mu);
    r.kind.y = views;
    out.push_back(r);
  }
  for (const BoxCollider& b : boxes) out.push_back(boxRecord(b.box, b.friction >= 0.0f ? b.friction : friction));
  if (sphereTrees && !sphereTrees->instances.empty()) {
    kernels::ClothCollider r =
        record(HG_COLLIDER_SPHERE_TREES, glm::vec4(0.0f), glm::vec4(sphereTreeSearchRadius, 0.0f, 0.0f, 0.0f));
    r.kind.y = std::uint32_t(sphereTrees->instances.size());
    out.push_back(r);
  }
  if (bodyVertices) {
    kernels::ClothCollider r =
        record(HG_COLLIDER_BODY_VERTICES, glm::vec4(bodyVertices->origin, bodyVertices->cellSize),
               glm::vec4(bodyVertices->reach, 0.0f, 0.0f, 0.0f));
    r.kind = glm::uvec4(HG_COLLIDER_BODY_VERTICES, glm::uvec3(bodyVertices->cells));
    out.push_back(r);
  }
  return out;
}

kernels::ClothCollider boxRecord(const Obb& box, float friction) {
  kernels::ClothCollider r{};
  r.kind = glm::uvec4(HG_COLLIDER_BOX, 0u, 0u, 0u);
  r.a = glm::vec4(box.centre, friction);
  r.b = glm::vec4(box.axes[0], box.halfLengths.x);
  r.c = glm::vec4(box.axes[1], box.halfLengths.y);
  r.d = glm::vec4(box.axes[2], box.halfLengths.z);
  return r;
}

}  // namespace hg
