#pragma once
/// Everything a drape scene needs before its first frame, prepared the same way for the
/// CLI and the viewer: the avatar and its collider, then either the scene's cloth (sheet
/// or mesh) or its garments drafted, placed, sewn and welded around the avatar.
#include <memory>
#include <optional>
#include <vector>

#include "sim/cloth/ClothSolver.h"
#include "sim/garment/Dressing.h"
#include "sim/scene/DrapeBody.h"
#include "sim/scene/DrapeScene.h"

namespace hg {

struct PreparedDrape {
  std::optional<SceneBody> body;             ///< with an avatar
  std::shared_ptr<const ClothModel> model;   ///< the cloth (all garments in one model)
  ClothState start;                          ///< the first frame's state (rest, or sewn)
  std::vector<std::uint32_t> pieceOfVertex;  ///< garment of each vertex (empty: one cloth)
  std::optional<DressedAvatar> dressing;     ///< sewing statistics (its model is `model`)
  TriangleMesh bodyMesh;                     ///< with an animated body: its surface at the last frame
  /// With an animated body seen through depth views: renders them per frame instead of
  /// the CPU reference rasterizer (set by the GPU backend's callers; see BodyAnimator).
  BodyAnimator::ViewRenderer renderBodyViews;
  /// With solver.continuous_collision: the radar sweeps against the body (also set as
  /// scene.settings.continuousCollision, so solvers made from the scene's settings run it;
  /// advanceDrape moves its body along with an animated avatar). Its radar is the CPU
  /// reference; ClothSweep::setRadar swaps in the GPU one.
  std::shared_ptr<ClothSweep> sweep;
  /// The scene's boxes and props (their world surfaces to draw and export); their
  /// colliders are in scene.settings (boxes, sphereTrees with the body's tree after the props').
  SceneProps props;
};

/// Prepares `scene` (sets scene.settings.body, bodyViews or sphereTrees when it has an
/// avatar, scene.settings.boxes and sphereTrees for its boxes and props, and
/// scene.settings.continuousCollision with solver.continuous_collision). `makeSolver`
/// creates the sewing solver; `progress` reports sewing frames. Errors name the scene
/// key or the stage; seams that do not close and a failed weld are ErrorKind::Simulation.
Result<PreparedDrape> prepareDrape(DrapeScene& scene, const ClothSolverFactory& makeSolver,
                                   const SewingProgress& progress = {});

/// One frame of a prepared drape, as the CLI and the viewer run it: the pins follow the
/// scene's pin animation and, with avatar.motion.animate, the body takes its pose at the
/// end of the frame (skinned; the solver gets its new collider, and `bodyMesh` its
/// surface); then the solver steps. `frame` counts from 0. Error: the body pose or
/// collider failed (named); otherwise the step's anomalies.
Result<StepStatus> advanceDrape(DrapeScene& scene, PreparedDrape& drape, ClothSolver& solver, int frame,
                                TriangleMesh* bodyMesh = nullptr);

}  // namespace hg
