#pragma once
/// A drape scene's body (scene key "avatar", sim/scene/DrapeScene.h): the mannequin or a
/// character file, posed from motion capture, with its collider for the cloth (a signed
/// distance grid, depth views as in docs/methods.md section 2, or a sphere tree as in
/// section 6), and, with avatar.motion.animate, the animator that moves it frame by frame.
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/body/Mannequin.h"
#include "sim/body/Skeleton.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/contact/DepthViews.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/scene/DrapeScene.h"

namespace hg {

class CpuBodySkinner;

/// A body that follows a retargeted BVH clip: per frame it is skinned (dual quaternion
/// or linear) and its signed distance grid is rebuilt (exact, CGAL; a few tenths of a
/// second per frame at 1 cm cells): the still-body collider made to move, frame by frame.
class BodyAnimator {
 public:
  /// `rest`: the unposed avatar; errors name the files. `transition` > 0: the clip begins in
  /// the dressing pose (relaxedAPose) and moves into the pose at motion.time over
  /// `transition` seconds, then goes on from there (motion.animate) or holds it
  /// (dressThenMove); not when that pose is the rest pose (dressesFirst() says which).
  static Result<std::unique_ptr<BodyAnimator>> create(const SkinnedMesh& rest, const std::filesystem::path& directory,
                                                      const SceneMotion& motion, const BodyContactSettings& contact,
                                                      float transition = 0.0f);
  ~BodyAnimator();
  BodyAnimator(const BodyAnimator&) = delete;
  BodyAnimator& operator=(const BodyAnimator&) = delete;

  /// Skins the body into the clip's pose at `seconds` (clamped to the clip).
  Result<TriangleMesh> meshAt(float seconds);
  /// The collider of `mesh` (a pose from meshAt).
  Result<std::shared_ptr<const SignedDistanceGrid>> colliderOf(const TriangleMesh& mesh) const;
  /// The depth views of `mesh` moving at `velocities` (m/s per vertex, or empty), in
  /// view boxes fixed for the whole clip (they cover every pose of it).
  Result<std::shared_ptr<const DepthViewImages>> viewsOf(const TriangleMesh& mesh,
                                                         std::span<const glm::vec3> velocities) const;
  /// Sets the solver's body collider (grid or views, as the scene's contact method) to
  /// `mesh`; `previous` (the last frame's mesh, or null) over `dt` gives the surface
  /// velocity of the views.
  /// `renderViews`, when set, renders the views instead of the CPU reference (the GPU
  /// backend: GpuDepthViewRenderer, whose buffers the solver then binds).
  using ViewRenderer =
      std::function<Status(ClothSolver&, const DepthViewSetup&, const TriangleMesh&, std::span<const glm::vec3>)>;
  Status updateCollider(ClothSolver& solver, const TriangleMesh& mesh, const TriangleMesh* previous, float dt,
                        const ViewRenderer& renderViews = {}) const;
  const DepthViewSetup& viewSetup() const { return m_viewSetup; }
  const BodyContactSettings& contact() const { return m_contact; }
  const SkinnedMesh& rest() const { return *m_rest; }
  const Animation& clip() const { return m_clip; }
  /// The clip starts in the dressing pose (create's transition).
  bool dressesFirst() const { return m_dressesFirst; }
  /// With dressesFirst(): the pose the garments are sewn in (relaxedAPose), the clip's start.
  const Pose& dressingPose() const { return m_dressingPose; }
  /// What the BVH file was read despite (BvhMotion::warnings).
  const std::vector<std::string>& warnings() const { return m_warnings; }

 private:
  BodyAnimator();

  std::shared_ptr<const SkinnedMesh> m_rest;
  Animation m_clip;
  bool m_dressesFirst = false;
  Pose m_dressingPose;
  std::vector<std::string> m_warnings;
  std::unique_ptr<CpuBodySkinner> m_skinner;  ///< skins m_rest into the clip's poses (sim/skinning/BodySkinner.h)
  BodyContactSettings m_contact;
  DepthViewSetup m_viewSetup;  ///< with DepthViews: boxes around every pose of the clip
};

/// A clip that starts in `start`, reaches `clip`'s pose at `from` after `transition`
/// seconds (every animated joint blended linearly in time from its start value: slerp
/// for rotations), then plays `clip` on from `from` (`follow`) or ends there (a held
/// pose). The playback eases in and out: its speed rises from 0 to the clip's over
/// `transition` seconds and falls back to 0 over as long at the clip's end, so the body
/// starts and stops at rest instead of jumping to the clip's speed (a walk's 1.2 m/s in
/// one frame tears the garments it wears off the sewing). The playback lasts the clip's
/// remaining seconds plus `transition` (less when fewer remain); the keys are resampled
/// at the clip's key spacing (1/240 to 1/120 s).
Animation dressThenMove(const Animation& clip, const Skeleton& skeleton, const Pose& start, float from,
                        float transition, bool follow);
/// The pose garments are sewn in: the rest pose with each upper arm lowered, in the world,
/// to 45 degrees below horizontal when it is less than 35 degrees below (a T-pose becomes
/// the mannequin's A-pose, where placement around the arms is clear of the torso and the
/// sleeve caps sew without tangling); the rest pose when the skeleton follows no known
/// convention.
Pose relaxedAPose(const Skeleton& skeleton);
/// Whether `pose` is `skeleton`'s rest pose within 0.1 degree per joint and 0.1 mm.
bool isRestPose(const Skeleton& skeleton, const Pose& pose);

/// `body` skinned into `pose` (dual quaternion or linear blend), with that pose as its
/// new rest (bind) pose.
Result<SkinnedMesh> posedBody(const SkinnedMesh& body, const Pose& pose, bool dualQuaternion);
/// `body` (the animator's rest body) skinned into the pose of the animator's clip at
/// `seconds`; the result's rest pose is that pose.
Result<SkinnedMesh> poseFromMotion(const SkinnedMesh& body, BodyAnimator& animator, float seconds);
/// Builds scene.avatar; errors name the scene and the avatar parameter.
Result<SceneBody> buildSceneBody(const DrapeScene& scene);

}  // namespace hg
