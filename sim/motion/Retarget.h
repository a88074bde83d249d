#pragma once
/// Motion retargeting between skeletons with different proportions and rest orientations,
/// driven by a joint-name map.
///
/// Mapping file (JSON):
///
///     { "map": { "Hips": "pelvis", "Spine": "spine", ... },   // source joint -> target joint
///       "scale": 0.01,                                        // optional, see below
///       "rootTranslation": "relative" }                       // optional: relative | absolute
///
/// Any other key is an error, as is a target joint named twice. Names are checked against
/// both skeletons by checkJointMap() (and by retarget()), and the error names the missing joint.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"

namespace hg {

struct JointMap {
  /// How the root translation is carried over (see retarget()).
  enum class RootTranslation {
    /// target root = target rest root + scale * (source root - source rest root).
    Relative,
    /// The source root positions are world positions over a floor at y = 0 while its rest
    /// root sits anywhere (CMU BVH conversions: rest root at the origin, hip height in the
    /// motion): target root = target rest root + scale * (source root - (0, h, 0)), with
    /// h = restHeightAboveLowestJoint(source, root), the source's standing hip height.
    Absolute,
  };
  /// (source joint, target joint) pairs in file order.
  std::vector<std::pair<std::string, std::string>> pairs;
  /// Multiplies the root translation change; when absent, the ratio of hip heights
  /// (target / source, see retarget()).
  std::optional<float> scale;
  RootTranslation rootTranslation = RootTranslation::Relative;
};

/// Parses a mapping file's text; errors read "<sourceName>: <problem>".
Result<JointMap> parseJointMap(std::string_view json, std::string_view sourceName);
/// Reads a mapping file; errors name the file.
Result<JointMap> loadJointMap(const std::filesystem::path& path);
/// Every source name exists in `source`, every target name in `target`, no target twice.
Status checkJointMap(const JointMap& map, const Skeleton& source, const Skeleton& target);
/// Maps every joint of `skeleton` to the joint of the same name.
JointMap identityJointMap(const Skeleton& skeleton);

/// Height of joint `joint` above the lowest joint of the rest pose (Y up), metres: the
/// "hip height" (leg length) used to scale root translation when the map has no scale.
float restHeightAboveLowestJoint(const Skeleton& skeleton, int joint);

/// Transfers `sourceClip` (animating `source`) onto `target`.
///
/// Rotation: for each mapped pair (s, t), the source joint's rotation change relative to its
/// rest pose, expressed in the world (model) frame, D_s = G_s(pose) * G_s(rest)^-1, is applied
/// to the target joint's world rest rotation: G_t(pose) = D_s * G_t(rest); the target local
/// rotation is then G_parent(pose)^-1 * G_t(pose). Because only the world-frame delta is
/// carried over, skeletons whose joints have different rest (bind) orientations retarget
/// correctly as long as both rest poses have the same shape (e.g. both T-poses): bone
/// directions in the world match the source's. This is the "world-space rest-relative
/// delta" transfer of Monzani et al., "Using an Intermediate Skeleton and Inverse
/// Kinematics for Motion Retargeting", Eurographics 2000 (section 3, without the IK pass),
/// and of three.js SkeletonUtils.retarget. Unmapped target joints keep their rest local
/// rotation (so they follow their parents).
///
/// Translation: for a pair whose source joint is a root of `source`, the root motion is
/// carried over as described by JointMap::RootTranslation, scaled by map.scale or, when
/// absent, by restHeightAboveLowestJoint(target, t) / restHeightAboveLowestJoint(source, s)
/// (1 when either is zero). Other joints keep their rest translations (target proportions).
///
/// Keys: one per distinct key time of the source clip (seconds); the result has a
/// rotation track per mapped target joint and a translation track on the root target.
/// Limitations: rest scales are assumed uniform (rotations are composed without scale);
/// no foot-contact or IK clean-up.
Result<Animation> retarget(const Skeleton& source, const Animation& sourceClip, const Skeleton& target,
                           const JointMap& map);

}  // namespace hg
