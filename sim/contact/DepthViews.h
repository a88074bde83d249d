#pragma once
/// Body contact through orthographic depth views (docs/methods.md section 2):
/// the body is rasterized from a few directions (top, front, back; optionally left,
/// right, bottom) into float images that hold, per texel and per depth layer, the
/// depth of the k-th surface the texel's ray crosses, the body's outward unit normal
/// there and the body's surface velocity. The cloth solvers look every vertex up in
/// every view (sim/kernels/depth_contact.glslh): the cost is O(cloth vertices) and
/// does not depend on the body's triangle count.
///
/// Depth peeling: layer k of a texel is the (k+1)-th surface along its ray, counting
/// front- and back-facing triangles alike, in increasing depth; a closed body is
/// inside between layers 2m and 2m+1. With K layers per view the inside/outside
/// intervals are known up to the K-th crossing (concavities: armpits, crotch).
///
/// Rasterization rules (the CPU reference, rasterizeDepthViews, and the GPU renderer,
/// sim/gpu/GpuDepthViewRenderer, follow them): a triangle covers texel (i, j) when the
/// texel centre (i + 0.5, j + 0.5) in image coordinates lies inside it or on a
/// top-left edge (OpenGL's rule) counted with rows in memory order, j = 0 on top (as
/// Mesa/Direct3D): with v up, a left edge or a bottom edge; vertices snapped to 1/256
/// texel first (the rasterizer's subpixel grid); depth and velocity are interpolated
/// linearly (barycentric at the texel centre; orthographic, so no perspective
/// division); the normal is the triangle's own geometric normal (outward for
/// counter-clockwise triangles), so a contact's plane is the mesh's triangle. No culling.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/kernels/Kernels.h"

namespace hg {

/// The directions a body can be seen from. Coordinates: Y up, the body faces +Z, its
/// left at +X (sim/body/Mannequin.h). `Top` looks down (-Y), `Front` looks at the body's
/// front (-Z), `Back` at its back (+Z), `Left` at its left side (-X), `Right` at its
/// right side (+X), `Bottom` up (+Y).
enum class DepthViewDirection { Top, Front, Back, Left, Right, Bottom };

std::string_view depthViewName(DepthViewDirection direction);
/// "top", "front", "back", "left", "right", "bottom"; error otherwise.
Result<DepthViewDirection> parseDepthViewDirection(std::string_view name);

/// The orthonormal axes of a view (unit coordinate axes, right x up = -forward, so the
/// image reads as seen by a viewer looking along `forward`):
///   top:    right +X, up -Z, forward -Y      front: right +X, up +Y, forward -Z
///   back:   right -X, up +Y, forward +Z      left:  right -Z, up +Y, forward -X
///   right:  right +Z, up +Y, forward +X      bottom: right +X, up +Z, forward +Y
struct DepthViewAxes {
  glm::vec3 right, up, forward;
};
DepthViewAxes depthViewAxes(DepthViewDirection direction);

/// How the views are laid out around a body.
/// The defaults are the full method (five views, four layers: armpits and crotch are
/// resolved, tests/contact/ContactDrapeTest.cpp); the source's is {Top, Front, Back}, 1 layer.
struct DepthViewOptions {
  std::vector<DepthViewDirection> directions{DepthViewDirection::Top, DepthViewDirection::Front,
                                             DepthViewDirection::Back, DepthViewDirection::Left,
                                             DepthViewDirection::Right};
  float texelSize = 0.0025f;        ///< m, edge of a texel (all views)
  int layers = 4;                   ///< K depth layers per view (1 = the source's method), 1..HG_MAX_DEPTH_LAYERS
  float margin = 0.05f;             ///< m of view box beyond the body's bounding box on every side
  int maxTexelsPerView = 16 << 20;  ///< width x height guard per view (bad settings fail, not swap)

  /// Checks ranges; the error names the setting.
  Status validate() const;
};

/// The view boxes: where each view sits, its axes, resolution and depth range.
struct DepthViewSetup {
  std::vector<DepthViewDirection> directions;  ///< one per view, as `views`
  std::vector<kernels::DepthView> views;       ///< texels.x offsets are filled in order
  int layers = 1;

  float texelSize() const { return views.empty() ? 0.0f : views.front().origin.w; }
  /// Texels of all views and layers (the length of the texel buffers).
  std::size_t texelCount() const;
};

/// Views around the axis-aligned box [boxMin, boxMax] grown by options.margin: every
/// view's image covers the box's cross-section and its depth range the box's extent
/// along the view. Error from options.validate() or a box over the texel guard.
Result<DepthViewSetup> makeDepthViewSetup(glm::vec3 boxMin, glm::vec3 boxMax, const DepthViewOptions& options);
/// As above around the bounding box of `mesh`'s positions.
Result<DepthViewSetup> makeDepthViewSetup(const TriangleMesh& mesh, const DepthViewOptions& options);

/// The rendered images of a setup (CPU memory; the layout of the GPU buffers, so
/// transfers are memcpy).
struct DepthViewImages {
  DepthViewSetup setup;
  /// Per texel (index DepthView::texels.x + (k height + j) width + i): xyz outward unit
  /// normal, w depth (m along the view's forward axis from its image plane), or
  /// (0, 0, 0, HG_NO_SURFACE_DEPTH) where the ray has fewer than k + 1 crossings.
  std::vector<glm::vec4> normalDepth;
  /// Per texel: xyz the body's surface velocity there (m/s), w 0.
  std::vector<glm::vec4> velocity;
};

/// Checks a body for rasterization (both renderers call it): finite positions, zero or one
/// finite velocity per vertex, whole triangles with indices in range. Errors start with
/// `who` and name the vertex or index.
Status validateDepthViewBody(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities,
                             std::string_view who);

/// CPU reference rasterizer (the rules above), OpenMP over views and rows.
/// `vertexVelocities` is empty (a still body) or one per mesh vertex (m/s); the mesh's
/// vertex normals are not used (texels carry the triangles' normals).
/// Error: a mesh with non-finite positions, a velocity count that does not match.
Result<DepthViewImages> rasterizeDepthViews(const TriangleMesh& mesh, std::span<const glm::vec3> vertexVelocities,
                                            const DepthViewSetup& setup);

/// The contact of x with a body seen through depth views, as the CPU cloth backend
/// computes it per vertex and substep (kernels/depth_contact.glslh; sim/gpu/shaders/
/// body_contact.glsl does the same on the GPU): every view's layers at x's texel, the
/// views' vote, the nearest candidate surface and its surface velocity, with Coulomb
/// coefficient `friction`. Gap HG_NO_CONTACT_GAP when no view sees a surface near x.
kernels::VertexContact depthViewContact(const DepthViewImages& images, glm::vec3 x, float friction);

}  // namespace hg
