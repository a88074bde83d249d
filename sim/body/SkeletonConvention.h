#pragma once
/// Skeleton naming conventions: which joint of a rig is the pelvis, the left knee, ...
///
/// Every convention is read into the built-in mannequin's 19 joint names (sim/body/README.md),
/// the *canonical* joints: pelvis, spine, chest, neck, head, clavicle/upper_arm/forearm/hand
/// _l/_r, thigh/shin/foot _l/_r. A canonical joint sits at the proximal end of its bone (the
/// knee is "shin_l"), as in every convention below. Left is the body's own left.
///
/// Conventions shipped (the names as their tools write them; the match ignores case, the
/// separators '_', '-', '.', ' ', and any namespace before the last ':' such as "mixamorig:"):
///
/// | convention | pelvis / spine / chest / neck | left arm | left leg | source |
/// |---|---|---|---|---|
/// | mannequin | pelvis, spine, chest, neck, head | clavicle_l, upper_arm_l, forearm_l, hand_l | thigh_l, shin_l,
/// foot_l | sim/body/Mannequin.h | | mixamo | Hips, Spine, Spine2 (else Spine1), Neck, Head | LeftShoulder, LeftArm,
/// LeftForeArm, LeftHand | LeftUpLeg, LeftLeg, LeftFoot | Adobe Mixamo rigs ("mixamorig:" prefix) | | unreal | pelvis,
/// spine_01, spine_03, neck_01, head | clavicle_l, upperarm_l, lowerarm_l, hand_l | thigh_l, calf_l, foot_l | Unreal
/// Engine 4/5 mannequin | | cmu_bvh | Hips, Spine (else LowerBack), Spine1, Neck, Head | LeftShoulder, LeftArm,
/// LeftForeArm, LeftHand | LeftUpLeg, LeftLeg, LeftFoot | CMU mocap BVH conversions (cgspeed), with LowerBack,
/// LHipJoint, Neck1 | | smpl | pelvis, spine1, spine3, neck, head | left_collar, left_shoulder, left_elbow, left_wrist
/// | left_hip, left_knee, left_ankle | SMPL / SMPL-X (Loper et al. 2015; Pavlakos et al. 2019) joint names, also the
/// FBX form L_Collar, m_avg_L_Hip |
///
/// Detection (detectSkeletonConvention) tries every convention and keeps the one that maps
/// all 19 joints, preferring the one with more of its marker joints present (Mixamo:
/// Spine2 or a "mixamorig" namespace; CMU: LowerBack, LHipJoint or Neck1; Unreal: spine_01;
/// SMPL: spine3 or a collar). A skeleton no convention maps fully is an error naming the
/// closest convention's unmapped joints.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"

namespace hg {

enum class SkeletonConvention { Mannequin, Mixamo, Unreal, CmuBvh, Smpl };

/// Number of canonical joints.
inline constexpr std::size_t kCanonicalJointCount = 19;
/// The canonical joint names, parents before children.
const std::array<std::string_view, kCanonicalJointCount>& canonicalJointNames();
/// "mannequin", "mixamo", "unreal", "cmu_bvh", "smpl".
const char* skeletonConventionName(SkeletonConvention convention);
/// Every convention, in the order detection tries them.
const std::array<SkeletonConvention, 5>& skeletonConventions();

/// A skeleton read through a convention.
struct ConventionMatch {
  SkeletonConvention convention = SkeletonConvention::Mannequin;
  /// Per canonical joint (canonicalJointNames() order) the skeleton's joint index, or -1.
  std::array<int, kCanonicalJointCount> joint{};
  /// Canonical joints the convention did not find in the skeleton.
  std::vector<std::string> unmapped;
  int markers = 0;  ///< marker joints of the convention present (see the file comment)
  bool complete() const { return unmapped.empty(); }
  /// The skeleton's joint for canonical `name`, or -1.
  int find(std::string_view canonicalName) const;
};

/// The name `convention` gives canonical joint `canonical` (its first candidate, e.g.
/// "LeftUpLeg" for thigh_l in mixamo; without a namespace).
std::string conventionJointName(SkeletonConvention convention, std::size_t canonical);

/// Reads `skeleton` through `convention` (no error: see ConventionMatch::unmapped).
ConventionMatch matchConvention(const Skeleton& skeleton, SkeletonConvention convention);

/// The convention that maps every canonical joint of `skeleton`. Error (prefixed by
/// `what`, e.g. the file): no convention does; it names the closest one and its unmapped
/// joints, and lists the conventions known.
Result<ConventionMatch> detectSkeletonConvention(const Skeleton& skeleton, const std::string& what);

}  // namespace hg
