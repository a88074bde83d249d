#pragma once
/// A drape scene made ready to run, the same way for the CLI and the viewer: the scene
/// (sim/scene/DrapeScene.h) is read once and stays as read; preparing it builds the run
/// beside it: the avatar and its collider, the boxes and props, the scene's cloth (sheet
/// or mesh) or its garments drafted, placed, sewn and welded around the avatar, the
/// solver's settings with every collider and the resolved substeps, then the solver, and
/// the state that moves from frame to frame (pins, the animated body, the step).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/cloth/ClothSolver.h"
#include "sim/cloth/PinAnimation.h"
#include "sim/core/Result.h"
#include "sim/core/StepStatus.h"
#include "sim/garment/Dressing.h"
#include "sim/radar/ClothSweep.h"
#include "sim/scene/DrapeBody.h"
#include "sim/scene/DrapeScene.h"

namespace hg {

class PreparedDrape {
 public:
  /// Prepares `scene`: its boxes and props, its avatar and the body collider (as the
  /// scene's contact method), the cloth or the sewn garments, the substeps ("auto"
  /// resolved for the built cloth, sim/cloth/StableStep.h; then the run's size checked)
  /// and, with solver.continuous_collision, the radar sweeps against the body.
  /// `makeSolver` creates the sewing solver; `progress` reports sewing frames. Errors
  /// name the scene key or the stage; seams that do not close and a failed weld are
  /// ErrorKind::Simulation.
  static Result<PreparedDrape> prepare(const DrapeScene& scene, const ClothSolverFactory& makeSolver,
                                       const SewingProgress& progress = {});

  /// Creates the run's solver from settings() with `makeSolver` and puts the cloth in its
  /// start state (frame 0). Sewn garments first settle for dressing.settle_frames frames
  /// (DressingSettings::settleFrames), whose end is then the start state; error
  /// (ErrorKind::Simulation) when a settling frame is unstable.
  Status createSolver(const ClothSolverFactory& makeSolver);
  /// With an animated body seen through depth views: renders them per frame with
  /// `renderViews` (the GPU backend's, sim/gpu/GpuDepthViewRenderer.h) instead of the CPU
  /// reference rasterizer. Unused by other bodies.
  void setBodyViewRenderer(BodyAnimator::ViewRenderer renderViews) { m_renderBodyViews = std::move(renderViews); }

  /// One frame, as the CLI and the viewer run it (needs createSolver): the pins follow
  /// the scene's pin animation and, with avatar.motion.animate, the body takes its pose at
  /// the end of the frame (skinned; the solver gets its new collider, the sweeps its
  /// surface); then the solver steps. The frame counts as run even when it fails. Error:
  /// the body pose or collider failed, or the continuous collision (named with the frame);
  /// otherwise the step's anomalies.
  Result<StepStatus> advance();
  /// Back to frame 0: the start state, and the body in its first pose with its first collider.
  void restart();

  /// Frames run since the start (or the last restart).
  int frame() const { return m_frame; }
  ClothSolver& solver() { return *m_solver; }
  const ClothSolver& solver() const { return *m_solver; }
  /// The run's settings: the scene's, with the colliders (boxes, body grid or views,
  /// sphere trees, continuous collision) and the substeps resolved.
  const ClothSettings& settings() const { return m_settings; }
  /// The cloth (all garments in one model).
  const std::shared_ptr<const ClothModel>& model() const { return m_model; }
  /// The first frame's state (rest, or sewn).
  const ClothState& start() const { return m_start; }
  /// The avatar, or null.
  const SceneBody* body() const { return m_body ? &*m_body : nullptr; }
  /// With avatar.motion.animate: the body moves (advance poses it every frame).
  bool bodyMoves() const { return m_body && m_body->animator; }
  /// The body's surface now (its pose at the last frame run when it moves), or null.
  const TriangleMesh* bodySurface() const;
  /// Garment of each vertex (empty: one cloth).
  const std::vector<std::uint32_t>& pieceOfVertex() const { return m_pieceOfVertex; }
  /// Sewing statistics (its model is model()), or null without garments.
  const DressedAvatar* dressing() const { return m_dressing ? &*m_dressing : nullptr; }
  /// The scene's boxes and props: their world surfaces to draw and export (their
  /// colliders are in settings()).
  const SceneProps& props() const { return m_props; }
  /// With solver.continuous_collision: the radar sweeps against the body (in settings(),
  /// so the solver runs them). Its radar is the CPU reference; ClothSweep::setRadar swaps
  /// in the GPU one. Null otherwise.
  ClothSweep* sweep() const { return m_sweep.get(); }

 private:
  PreparedDrape() = default;

  Status buildColliders(const DrapeScene& scene);
  Status buildCloth(const DrapeScene& scene);
  Status sewGarments(const DrapeScene& scene, const ClothSolverFactory& makeSolver, const SewingProgress& progress);
  Status chooseSubsteps(const DrapeScene& scene);
  Status attachSweep(const DrapeScene& scene);
  Status moveBody(float seconds);
  Status settleGarments();

  ClothSettings m_settings;
  SceneProps m_props;
  std::optional<SceneBody> m_body;
  std::shared_ptr<const ClothModel> m_model;
  ClothState m_start;
  std::vector<std::uint32_t> m_pieceOfVertex;
  std::optional<DressedAvatar> m_dressing;
  int m_settleFrames = 0;  ///< dressing.settle_frames, run by createSolver
  std::shared_ptr<ClothSweep> m_sweep;
  BodyAnimator::ViewRenderer m_renderBodyViews;
  // What advance() needs of the scene: the pins and their animation, the clip's start (s).
  PinSet m_pinned;
  PinAnimation m_pinAnimation;
  float m_motionStart = 0.0f;
  std::unique_ptr<ClothSolver> m_solver;
  TriangleMesh m_bodyMesh;  ///< a moving body's surface at the last frame run (empty before the first)
  int m_frame = 0;
};

}  // namespace hg
