#include "sim/radar/Grasp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "sim/core/Numbers.h"
#include "sim/radar/GraspGeometry.h"
#include "sim/spheretree/SphereTreeObb.h"

namespace hg {
namespace {

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

}  // namespace

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

}  // namespace hg
