#pragma once
/// Motion retargeting between skeletons with different proportions and rest orientations,
/// driven by a joint-name map.
///
/// Mapping file (JSON):
///
///     { "map": { "Hips": "pelvis", "Spine": "spine", ... },   // source joint -> target joint
///       "scale": 0.01,                                        // optional, see below
///       "rootTranslation": "relative",                        // optional: relative | absolute | grounded
///       "alignRestPoses": false }                             // optional, see JointMap::alignRestPoses
///
/// Without a file, conventionJointMap() builds the map from the skeletons' naming
/// conventions (sim/body/SkeletonConvention.h), with grounded root motion and aligned rest
/// poses. Any other key is an error, as is a target joint named twice. Names are checked against
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
    /// The body starts at the target's rest position and stays on its floor: horizontally,
    /// target root = target rest root + scale * (source root - source root at the first key)
    /// (x and z); vertically, the target is lifted so that its lowest mapped joint is as far
    /// above its rest height as the source's lowest mapped joint is above that joint's
    /// lowest height over the whole clip (times scale). A foot planted in the source is
    /// planted in the target, whatever the legs' lengths, and a clip recorded away from the
    /// origin plays at it.
    Grounded,
  };
  /// (source joint, target joint) pairs in file order.
  std::vector<std::pair<std::string, std::string>> pairs;
  /// Multiplies the root translation change; when absent, the ratio of hip heights
  /// (target / source, see retarget()).
  std::optional<float> scale;
  RootTranslation rootTranslation = RootTranslation::Relative;
  /// Compensate differing rest poses by bone-direction alignment: each mapped target joint
  /// with exactly one mapped child first turns (in the world) by the shortest rotation
  /// taking its rest bone direction (joint -> child) to the source's rest bone direction,
  /// then takes the source's rest-relative delta; joints with no or several mapped
  /// children (hands, feet, head, pelvis, chest) turn as their nearest mapped ancestor.
  /// So a T-pose clip drives an A-pose body into the clip's own arm angles, and a CMU
  /// skeleton whose rest legs splay ~20 degrees does not cross the target's legs.
  /// Off by default for map files (the shipped ones were written for matching rest poses).
  bool alignRestPoses = false;
};

/// Parses a mapping file's text; errors read "<sourceName>: <problem>".
Result<JointMap> parseJointMap(std::string_view json, std::string_view sourceName);
/// Reads a mapping file; errors name the file.
Result<JointMap> loadJointMap(const std::filesystem::path& path);
/// Every source name exists in `source`, every target name in `target`, no target twice.
Status checkJointMap(const JointMap& map, const Skeleton& source, const Skeleton& target);
/// Maps every joint of `skeleton` to the joint of the same name.
JointMap identityJointMap(const Skeleton& skeleton);
/// The map between two skeletons through their detected naming conventions
/// (detectSkeletonConvention, sim/body/SkeletonConvention.h): the 19 canonical joints,
/// RootTranslation::Grounded, alignRestPoses. Errors name `sourceWhat` or `targetWhat` and
/// the unmapped joints.
Result<JointMap> conventionJointMap(const Skeleton& source, const std::string& sourceWhat, const Skeleton& target,
                                    const std::string& targetWhat);

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
/// With map.alignRestPoses each mapped joint's rest is first aligned to the source's bone
/// direction (see JointMap::alignRestPoses): G_t(pose) = D_s * A_t * G_t(rest).
/// Limitations: rest scales are assumed uniform (rotations are composed without scale);
/// no IK clean-up (feet slide where the legs' proportions differ from the source's).
Result<Animation> retarget(const Skeleton& source, const Animation& sourceClip, const Skeleton& target,
                           const JointMap& map);

}  // namespace hg
