#include "sim/contact/DepthViews.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include <glm/geometric.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/OrthoRaster.h"

namespace hg {
namespace {

constexpr DepthViewDirection kAllDirections[] = {DepthViewDirection::Top,   DepthViewDirection::Front,
                                                 DepthViewDirection::Back,  DepthViewDirection::Left,
                                                 DepthViewDirection::Right, DepthViewDirection::Bottom};

}  // namespace

std::string_view depthViewName(DepthViewDirection direction) {
  switch (direction) {
    case DepthViewDirection::Top:
      return "top";
    case DepthViewDirection::Front:
      return "front";
    case DepthViewDirection::Back:
      return "back";
    case DepthViewDirection::Left:
      return "left";
    case DepthViewDirection::Right:
      return "right";
    case DepthViewDirection::Bottom:
      return "bottom";
  }
  return "unknown";
}

Result<DepthViewDirection> parseDepthViewDirection(std::string_view name) {
  for (DepthViewDirection d : kAllDirections)
    if (depthViewName(d) == name) return d;
  return Error{"unknown depth view direction '" + std::string(name) +
               "' (expected top, front, back, left, right or bottom)"};
}

DepthViewAxes depthViewAxes(DepthViewDirection direction) {
  switch (direction) {
    case DepthViewDirection::Top:
      return {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}};
    case DepthViewDirection::Front:
      return {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    case DepthViewDirection::Back:
      return {{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    case DepthViewDirection::Left:
      return {{0, 0, -1}, {0, 1, 0}, {-1, 0, 0}};
    case DepthViewDirection::Right:
      return {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
    case DepthViewDirection::Bottom:
      return {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}};
  }
  return {};
}

Status DepthViewOptions::validate() const {
  if (!(std::isfinite(texelSize) && texelSize > 0.0f))
    return Error{"depth views: texelSize must be finite and > 0 (got " + std::to_string(texelSize) + ")"};
  if (layers < 1 || layers > HG_MAX_DEPTH_LAYERS)
    return Error{"depth views: layers must be in 1.." + std::to_string(HG_MAX_DEPTH_LAYERS) + " (got " +
                 std::to_string(layers) + ")"};
  if (!(std::isfinite(margin) && margin >= 0.0f))
    return Error{"depth views: margin must be finite and >= 0 (got " + std::to_string(margin) + ")"};
  if (maxTexelsPerView < 1)
    return Error{"depth views: maxTexelsPerView must be >= 1 (got " + std::to_string(maxTexelsPerView) + ")"};
  if (directions.empty()) return Error{"depth views: directions is empty (need at least one view)"};
  for (std::size_t a = 0; a < directions.size(); ++a)
    for (std::size_t b = a + 1; b < directions.size(); ++b)
      if (directions[a] == directions[b])
        return Error{"depth views: direction '" + std::string(depthViewName(directions[a])) + "' is listed twice"};
  return Status::success();
}

std::size_t DepthViewSetup::texelCount() const {
  std::size_t count = 0;
  for (const kernels::DepthView& v : views)
    count += std::size_t(v.right.w) * std::size_t(v.up.w) * std::size_t(v.texels.y);
  return count;
}

Result<DepthViewSetup> makeDepthViewSetup(glm::vec3 boxMin, glm::vec3 boxMax, const DepthViewOptions& options) {
  if (Status s = options.validate(); !s) return s.error();
  if (!allFinite(boxMin) || !allFinite(boxMax) || glm::any(glm::greaterThan(boxMin, boxMax)))
    return Error{"depth views: the box is empty or not finite"};
  const glm::vec3 lo = boxMin - glm::vec3(options.margin);
  const glm::vec3 hi = boxMax + glm::vec3(options.margin);
  const double h = options.texelSize;
  DepthViewSetup setup;
  setup.layers = options.layers;
  std::size_t offset = 0;
  for (DepthViewDirection direction : options.directions) {
    const DepthViewAxes axes = depthViewAxes(direction);
    // The axes are +-unit coordinate axes: the box's extent along each is a box edge, and
    // the corner that minimises every projection is picked per coordinate.
    glm::vec3 origin;
    for (int c = 0; c < 3; ++c) {
      const float s = axes.right[c] + axes.up[c] + axes.forward[c];  // the one non-zero entry of column c
      origin[c] = s < 0.0f ? hi[c] : lo[c];
    }
    const glm::vec3 extent = hi - lo;
    const double extentRight = std::abs(glm::dot(extent, axes.right));
    const double extentUp = std::abs(glm::dot(extent, axes.up));
    const float range = std::abs(glm::dot(extent, axes.forward));
    const double width = std::max(1.0, std::ceil(extentRight / h));
    const double height = std::max(1.0, std::ceil(extentUp / h));
    if (width * height > double(options.maxTexelsPerView))
      return Error{"depth views: the " + std::string(depthViewName(direction)) + " view needs " +
                   std::to_string(std::int64_t(width)) + " x " + std::to_string(std::int64_t(height)) +
                   " texels, over maxTexelsPerView = " + std::to_string(options.maxTexelsPerView) +
                   " (raise texelSize or the guard)"};
    kernels::DepthView view{};
    view.origin = glm::vec4(origin, options.texelSize);
    view.right = glm::vec4(axes.right, float(width));
    view.up = glm::vec4(axes.up, float(height));
    view.forward = glm::vec4(axes.forward, range);
    view.texels = glm::uvec4(std::uint32_t(offset), std::uint32_t(options.layers), 0u, 0u);
    offset += std::size_t(width) * std::size_t(height) * std::size_t(options.layers);
    if (offset > std::size_t(std::numeric_limits<std::uint32_t>::max()))
      return Error{"depth views: more than 2^32 texels in all views (raise texelSize)"};
    setup.directions.push_back(direction);
    setup.views.push_back(view);
  }
  return setup;
}

Result<DepthViewSetup> makeDepthViewSetup(const TriangleMesh& mesh, const DepthViewOptions& options) {
  if (mesh.positions.empty()) return Error{"depth views: the mesh has no vertices"};
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    const glm::vec3 p = mesh.positions[i];
    if (!allFinite(p)) return Error{"depth views: mesh vertex " + std::to_string(i) + " is not finite"};
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return makeDepthViewSetup(lo, hi, options);
}

Status validateDepthViewBody(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities,
                             std::string_view who) {
  const std::size_t n = mesh.positions.size();
  for (std::size_t i = 0; i < n; ++i)
    if (!allFinite(mesh.positions[i]))
      return Error{std::string(who) + ": mesh vertex " + std::to_string(i) + " is not finite"};
  if (!vertexVelocities.empty() && vertexVelocities.size() != n)
    return Error{std::string(who) + ": " + std::to_string(vertexVelocities.size()) +
                 " vertex velocities for a mesh of " + std::to_string(n) + " vertices"};
  for (std::size_t i = 0; i < vertexVelocities.size(); ++i)
    if (!allFinite(vertexVelocities[i]))
      return Error{std::string(who) + ": velocity of vertex " + std::to_string(i) + " is not finite"};
  if (mesh.indices.size() % 3 != 0)
    return Error{std::string(who) + ": the index count " + std::to_string(mesh.indices.size()) +
                 " is not a multiple of 3"};
  for (std::uint32_t index : mesh.indices)
    if (index >= n)
      return Error{std::string(who) + ": index " + std::to_string(index) + " is out of range (" + std::to_string(n) +
                   " vertices)"};
  return Status::success();
}

Result<DepthViewImages> rasterizeDepthViews(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities,
                                            const DepthViewSetup& setup) {
  if (setup.views.empty()) return Error{"rasterizeDepthViews: the setup has no views"};
  if (setup.views.size() != setup.directions.size())
    return Error{"rasterizeDepthViews: the setup has " + std::to_string(setup.views.size()) + " views but " +
                 std::to_string(setup.directions.size()) + " directions"};
  if (Status s = validateDepthViewBody(mesh, vertexVelocities, "rasterizeDepthViews"); !s) return s.error();
  const std::size_t n = mesh.positions.size();
  for (const kernels::DepthView& v : setup.views)
    if (v.texels.y < 1 || v.texels.y > HG_MAX_DEPTH_LAYERS || !(v.origin.w > 0.0f) || v.right.w < 1.0f || v.up.w < 1.0f)
      return Error{"rasterizeDepthViews: the setup has an invalid view (texel size, size or layers)"};

  // The triangles' own (geometric) normals, in double as depth_view.frag computes them:
  // the plane a contact pushes out of is then the mesh's own triangle.
  std::vector<glm::vec3> faceNormals(mesh.triangleCount());
  for (std::size_t t = 0; t < faceNormals.size(); ++t) {
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]), b(mesh.positions[mesh.indices[3 * t + 1]]),
        c(mesh.positions[mesh.indices[3 * t + 2]]);
    const glm::dvec3 cr = glm::cross(b - a, c - a);
    const double len = glm::length(cr);
    faceNormals[t] = len > 0.0 ? glm::vec3(cr / len) : glm::vec3(0.0f);
  }

  DepthViewImages images;
  images.setup = setup;
  const std::size_t texelCount = setup.texelCount();
  images.normalDepth.assign(texelCount, glm::vec4(0.0f, 0.0f, 0.0f, HG_NO_SURFACE_DEPTH));
  images.velocity.assign(texelCount, glm::vec4(0.0f));
  std::vector<RasterVertex> projected(n);

  for (const kernels::DepthView& view : setup.views) {
    const int width = int(view.right.w), height = int(view.up.w), layers = int(view.texels.y);
    const glm::dvec3 origin(view.origin), right(view.right), up(view.up), forward(view.forward);
    const double h = view.origin.w;
#pragma omp parallel for schedule(static) if (n >= 2048)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) {
      const glm::dvec3 d = glm::dvec3(mesh.positions[std::size_t(i)]) - origin;
      projected[std::size_t(i)] = {glm::dot(d, right) / h, glm::dot(d, up) / h, glm::dot(d, forward)};
    }
    rasterizeOrthographic(projected, mesh.indices, width, height, [&](int j, std::vector<RasterFragment>& fragments) {
      std::sort(fragments.begin(), fragments.end(), [](const RasterFragment& x, const RasterFragment& y) {
        if (x.i != y.i) return x.i < y.i;
        if (x.depth != y.depth) return x.depth < y.depth;
        return x.triangle < y.triangle;
      });
      // Per texel, the first `layers` crossings at strictly increasing depth (equal depths
      // count once, the first triangle in draw order: depth peeling's rule).
      for (std::size_t s = 0; s < fragments.size();) {
        const std::uint32_t i = fragments[s].i;
        int k = 0;
        float lastDepth = -std::numeric_limits<float>::infinity();
        for (; s < fragments.size() && fragments[s].i == i; ++s) {
          const RasterFragment& f = fragments[s];
          const float depth = float(f.depth);
          if (k >= layers || !(depth > lastDepth)) continue;
          const std::size_t at = std::size_t(view.texels.x) +
                                 (std::size_t(k) * std::size_t(height) + std::size_t(j)) * std::size_t(width) + i;
          glm::dvec3 velocity(0.0);
          if (!vertexVelocities.empty())
            for (int c = 0; c < 3; ++c)
              velocity += f.weights[c] *
                          glm::dvec3(vertexVelocities[mesh.indices[3 * f.triangle + std::uint32_t(f.corners[c])]]);
          images.normalDepth[at] = glm::vec4(faceNormals[f.triangle], depth);
          images.velocity[at] = glm::vec4(glm::vec3(velocity), 0.0f);
          lastDepth = depth;
          ++k;
        }
      }
    });
  }
  return images;
}

kernels::VertexContact depthViewContact(const DepthViewImages& images, glm::vec3 x, float friction) {
  kernels::DepthContactSearch search = kernels::beginDepthContactSearch();
  for (const kernels::DepthView& view : images.setup.views) {
    std::uint32_t texel = 0;
    if (!kernels::depthViewTexel(view, x, texel)) {
      kernels::missDepthView(search);
      continue;
    }
    glm::vec4 layers[HG_MAX_DEPTH_LAYERS];
    const std::uint32_t stride = kernels::depthViewLayerStride(view);
    for (std::uint32_t k = 0; k < view.texels.y; ++k) layers[k] = images.normalDepth[texel + k * stride];
    kernels::searchDepthView(view, x, texel, layers, search);
  }
  std::uint32_t texel = 0;
  kernels::VertexContact contact;
  const float localRadius = HG_DEPTH_LOCAL_TEXELS * images.setup.texelSize();
  contact.normalGap = kernels::depthContactNormalGap(search, localRadius, texel);
  const glm::vec3 velocity =
      contact.normalGap.w < HG_NO_CONTACT_GAP ? glm::vec3(images.velocity[texel]) : glm::vec3(0.0f);
  contact.surfaceVelocityFriction = glm::vec4(velocity, friction);
  return contact;
}

}  // namespace hg
