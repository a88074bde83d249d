#pragma once
/// The colliders of a cloth as one set (docs/methods.md sections 2, 6 and 7): spheres,
/// ground planes, a distance grid of the body, its depth views, boxes and sphere trees.
/// records() writes them as tagged kernels::ClothCollider records, in the order the one
/// contact walk of both backends visits them (kernels/cloth_contact.glslh contactAt);
/// bulk data (grid values, depth texels, tree nodes) stays where it is, shared. Every
/// collider holds still; the cloth's contactOffset and (unless a box has its own) friction
/// apply everywhere.
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/contact/BodyVertexGrid.h"
#include "sim/contact/DepthViews.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/core/Result.h"
#include "sim/geometry/Obb.h"
#include "sim/kernels/Kernels.h"
#include "sim/spheretree/SphereTreeQueries.h"

namespace hg {

/// A solid sphere.
struct SphereCollider {
  glm::vec3 centre{0.0f};  ///< m
  float radius = 0.0f;     ///< m, > 0
};

/// A ground plane dot(normal, x) = height; the cloth stays on the side normal points to.
struct GroundCollider {
  float height = 0.0f;                 ///< m
  glm::vec3 normal{0.0f, 1.0f, 0.0f};  ///< unit (tilt it for an incline)
};

/// A solid box (docs/methods.md section 7; kernels/obb.glslh obbSignedContact).
struct BoxCollider {
  Obb box;
  float friction = -1.0f;  ///< Coulomb mu at the box; negative: ClothSettings::friction
};

/// Depth views that already live on the GPU (sim/gpu/GpuDepthViewRenderer's buffers, laid
/// out as DepthViewImages): GL buffer names only, so this stays GL-free. The GPU solver
/// binds them without a readback; the CPU solver has no use for them.
struct ResidentDepthViews {
  std::uint32_t views = 0, normalDepth = 0, velocity = 0;  ///< buffer names
  std::uint32_t count = 0;                                 ///< DepthView records; 0: none
};

/// Sphere-tree colliders (docs/methods.md section 6): a SphereTreeSet (every tree's nodes in
/// one array, the layout of sim/gpu/shaders/sphere_tree_common.glsl, and the placed trees
/// with their friction in translation.w), immutable once handed to a solver. A vertex's
/// contact is the nearest leaf sphere surface over all instances within
/// ClothSettings::sphereTreeSearchRadius() (sphereTreeQueryPoint on the CPU,
/// sphereTreeNearestAll on the GPU: the same traversal).
using SphereTreeColliders = SphereTreeSet;

struct ClothColliders {
  std::vector<SphereCollider> spheres;
  std::vector<GroundCollider> grounds;
  /// A body as a signed distance grid of a closed mesh (sim/contact), or none.
  std::shared_ptr<const SignedDistanceGrid> distanceGrid;
  /// A body seen through depth views (sim/contact/DepthViews.h; docs/methods.md section 2),
  /// or none; its surface velocity drives friction. May sit beside the grid: the deeper wins.
  std::shared_ptr<const DepthViewImages> depthViews;
  /// Depth views on the GPU instead of depthViews (GPU backend only).
  ResidentDepthViews residentDepthViews;
  std::vector<BoxCollider> boxes;
  /// Sphere trees (props, or the body as a sphere tree), or none.
  std::shared_ptr<const SphereTreeColliders> sphereTrees;
  /// The body's vertices for the thin-feature samples of the feature pass (docs/methods.md
  /// section 2), or none. Not a contact by itself: the samples ask the colliders above.
  std::shared_ptr<const BodyVertexGrid> bodyVertices;
  /// The body colliders above move (an animated avatar, rebuilt every frame in the
  /// frame's end pose): the thin-feature pass, whose body vertices stand where the frame
  /// ends, then runs after the frame's last substep only (ClothSolver::thinFeaturesAfter).
  bool bodyMoves = false;

  /// A level ground plane at y = `height` m and nothing else (the settings' default).
  static ClothColliders groundOnly(float height = 0.0f);

  /// Views of the depth-view collider: the resident ones if any, else depthViews'.
  std::uint32_t depthViewCount() const;
  /// Checks every collider; the error names the offending one.
  Status validate() const;
  /// The tagged records: spheres, grounds, the grid, the depth views, boxes, the sphere
  /// trees, the body vertices (kernels/cloth_layout.glslh ClothCollider). `friction`: mu of every collider
  /// without its own; `sphereTreeSearchRadius`: m.
  std::vector<kernels::ClothCollider> records(float friction, float sphereTreeSearchRadius) const;
};

/// The record of one box with friction mu.
kernels::ClothCollider boxRecord(const Obb& box, float friction);

}  // namespace hg
