#pragma once
/// The built-in parametric mannequin: a watertight, manifold, genus-0 human body surface
/// with a skeleton and skin weights, built from a handful of measurements, so that every
/// scene has an avatar without any file. See sim/body/README.md for the construction.
///
/// Coordinates: metres, Y up, feet on y = 0, the body faces +Z, the body's left side at +X.
/// Skeleton joints (exact names; garments and retargeting rely on them), parents first:
///   pelvis (root), spine, chest, neck, head,
///   clavicle_l, upper_arm_l, forearm_l, hand_l, clavicle_r, upper_arm_r, forearm_r, hand_r,
///   thigh_l, shin_l, foot_l, thigh_r, shin_r, foot_r.
/// Every joint sits at the proximal end of its bone (upper_arm_l at the left shoulder,
/// forearm_l at the elbow, hand_l at the wrist, thigh_l at the hip, shin_l at the knee,
/// foot_l at the ankle); in the rest pose (= the built pose) every joint frame is aligned
/// with the model axes (identity rotations), local transforms are pure translations.
#include <map>
#include <string>
#include <string_view>

#include <glm/vec3.hpp>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"

namespace hg {

enum class MannequinPose {
  APose,  ///< arms lowered by MannequinParams::aPoseArmAngleDegrees from horizontal
  TPose,  ///< arms horizontal along +-X
};

/// Body measurements in metres. A value of 0 means "derive from height" with the ratios
/// listed (adult proportions after Drillis & Contini 1966 as tabulated by Winter,
/// "Biomechanics and Motor Control of Human Movement", 4th ed., Fig. 4.1, and ANSUR II
/// 2012 means; the girth defaults are the brief's adult sizes at 1.75 m, scaled by
/// height / 1.75 m). Girths are tape-measure girths: the perimeter of the convex hull of the
/// horizontal cross-section of the torso (neck) at the landmark heights of measureBody().
struct MannequinParams {
  float height = 1.75f;        ///< floor to top of head, [1.2, 2.3] m
  float chestGirth = 0.0f;     ///< at the chest joint height (bust line); 0 -> 0.96 * height / 1.75
  float waistGirth = 0.0f;     ///< at the spine joint height (natural waist); 0 -> 0.80 * height / 1.75
  float hipGirth = 0.0f;       ///< at the pelvis joint height (hip joints, fullest buttocks); 0 -> 0.98 * height / 1.75
  float neckGirth = 0.0f;      ///< halfway between the neck and head joints; 0 -> 0.38 * height / 1.75
  float upperArmGirth = 0.0f;  ///< perpendicular to the upper arm near the shoulder; 0 -> 0.30 * height / 1.75
  float thighGirth = 0.0f;     ///< horizontal, 5 cm below the crotch; 0 -> 0.56 * height / 1.75
  float shoulderWidth = 0.0f;  ///< between the shoulder joint centres (upper_arm_l/_r); 0 -> 0.215 * height
  float armLength = 0.0f;      ///< shoulder joint to wrist joint along the arm; 0 -> 0.332 * height
  float legLength = 0.0f;      ///< inseam: crotch to floor; 0 -> 0.46 * height
  MannequinPose pose = MannequinPose::APose;
  float aPoseArmAngleDegrees = 45.0f;  ///< A-pose: arms down from horizontal, degrees, [0, 60]
  float cellSize = 0.01f;              ///< grid spacing of the surface extraction, metres, [0.004, 0.03]

  /// The parameters with every 0 ("derive from height") replaced by its derived value.
  MannequinParams resolved() const;
  /// Rejects non-finite and implausible values (checked after resolving the defaults); the
  /// error names the parameter, its value and the accepted range.
  Status validate() const;
};

/// Builds the mannequin: an implicit body (smooth union of tapered capsules and ellipsoids
/// along the bones, an elliptic-section torso) whose cross-sections are scaled iteratively
/// until the girths match the parameters, triangulated by marching tetrahedra (closed
/// 2-manifold by construction), skinned by distance to the body parts with blending across
/// joints (at most four influences, normalised). The skeleton's inverse bind matrices are
/// set. Errors: invalid parameters, or a body that could not be fitted to the requested
/// girths within 1 cm (the error names the measurement).
Result<SkinnedMesh> buildMannequin(const MannequinParams& params);

/// Measurements of a body mesh with the mannequin's joint names and axes (Y up, facing +Z,
/// legs apart, arms away from the torso below the armpits), in its rest pose. Lengths in
/// metres. A field whose joints are missing is NaN.
struct BodyMeasurements {
  float height = 0.0f;      ///< top of head minus the lowest point (the floor), m
  float chestGirth = 0.0f;  ///< m, convex-hull perimeter of the torso slice at chestHeight
  float waistGirth = 0.0f;  ///< m, same at waistHeight
  float hipGirth = 0.0f;    ///< m, same at hipHeight
  float neckGirth = 0.0f;   ///< m, same around the neck at neckHeight
  float thighGirth = 0.0f;  ///< m, same around the left thigh at thighHeight
  /// m, around the left upper arm in the plane perpendicular to it a third of the way from
  /// the shoulder to the elbow joint (where the mannequin's arm has upperArmGirth)
  float upperArmGirth = 0.0f;
  float chestHeight = 0.0f;    ///< m above the floor: the chest joint
  float waistHeight = 0.0f;    ///< m above the floor: the spine joint
  float hipHeight = 0.0f;      ///< m above the floor: the pelvis joint
  float neckHeight = 0.0f;     ///< m above the floor: halfway between the neck and head joints
  float thighHeight = 0.0f;    ///< m above the floor: crotchHeight - 0.05 m
  float crotchHeight = 0.0f;   ///< m above the floor: lowest point of the body in the plane x = pelvis x
  float shoulderWidth = 0.0f;  ///< m, distance between the upper_arm_l and upper_arm_r joints
  float armLength = 0.0f;      ///< m, left shoulder to wrist along the bones (upper_arm_l -> forearm_l -> hand_l)
  float legLength = 0.0f;      ///< m, inseam = crotchHeight
  /// Global rest position (m, model space) of every joint, by name, and of the canonical
  /// joints (the mannequin's names) under those names too when the skeleton follows a known
  /// naming convention (sim/body/SkeletonConvention.h).
  std::map<std::string, glm::vec3, std::less<>> jointPositions;
  /// The skeleton's naming convention ("mannequin", "mixamo", ...), or empty: none is
  /// known, and only the height is measured (the rest is NaN).
  std::string convention;
  /// The rest position of joint `name`, or NaN if there is no such joint.
  glm::vec3 joint(std::string_view name) const;
};

/// Measures `body` (its mesh positions, skeleton rest pose, +Y up, feet at the lowest
/// vertex), its landmarks found through its skeleton's naming convention. Girths are the
/// perimeter of the convex hull of the horizontal cross-section of the one surface loop that
/// encloses the relevant joint (the torso loop for chest, waist and hip; so the arms are
/// excluded); the upper arm's section is perpendicular to the bone.
BodyMeasurements measureBody(const SkinnedMesh& body);

}  // namespace hg
