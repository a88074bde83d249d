#pragma once
/// A procedural hand for the Cyber Radar grasp (docs/methods.md section 3, "Application in the
/// source: grasp simulation"): a palm box and five fingers of three box
/// segments each, 16 rigid segments, each its own radar object; with the whole-hand radar,
/// 17 radars per hand as in the source.
///
/// Frames (all lengths in metres, angles in radians):
/// - palm frame: origin at the centre of the palm face, x across the palm (thumb at -x),
///   y toward the fingers, z the palm normal (the side that grasps). The palm box is
///   [-W/2, W/2] x [-L/2, L/2 - g] x [-T, 0] (g: the hinge gap).
/// - segment k of a finger: origin on its joint's hinge, x along the hinge axis, y along
///   the segment toward the tip, z its palm-side normal; the box is
///   [-w/2, w/2] x [g, length - g] x [-t, 0] (the distal one reaches its full length).
///
/// Joints are hinges on the palm-side surface of the finger (z = 0 of both segments), with
/// a gap g on each side. Closing a joint by a in [0, pi) rotates the rest of the finger
/// about the hinge axis toward +z; with the hinge on the palm side, two neighbouring
/// segments never overlap for any such angle (a point of the outer segment at (u, -v),
/// u >= g, v >= 0, goes to y = u cos a + v sin a, z = u sin a - v cos a: either z > 0 or
/// y >= 0 > -g, outside the inner segment). Seen along a segment's closing motion (its
/// +z), its neighbours fall outside its silhouette for joint angles up to pi / 2, so its
/// radar's look-at image L only holds the real obstacles (docs/methods.md section 3, step 6:
/// pixels without the sensor are eliminated). The four fingers are parallel (their
/// silhouettes are disjoint across x), the thumb is splayed outside the palm.
///
/// Limitations: boxes, not a skinned hand; one hinge axis per joint (no abduction); the
/// thumb closes like a finger, toward the palm normal.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

inline constexpr int kHandFingers = 5;          ///< 0 thumb, 1 index, 2 middle, 3 ring, 4 little
inline constexpr int kHandJointsPerFinger = 3;  ///< proximal, middle, distal
/// Rigid segments per hand: the palm (segment 0) and 5 x 3 finger segments.
inline constexpr int kHandSegments = 1 + kHandFingers * kHandJointsPerFinger;
/// Radars per hand (docs/methods.md section 3): one for the whole hand and one per segment.
inline constexpr int kHandRadars = 1 + kHandSegments;

/// One finger: where and how it is attached, its segments and joint limits.
struct FingerSpec {
  glm::vec2 base{0.0f};      ///< hinge centre of the proximal joint in the palm plane (palm x, y), m
  float splay = 0.0f;        ///< rad: the finger's direction is +y turned about +z by this (toward -x)
  float width = 0.018f;      ///< m, along the hinge axis
  float thickness = 0.016f;  ///< m, along -z from the palm-side surface
  std::array<float, 3> lengths{0.04f, 0.025f, 0.02f};  ///< hinge-to-hinge (last: to the tip), m
  std::array<float, 3> limits{1.5f, 1.6f, 1.2f};       ///< largest closing angle per joint, rad (< pi)
};

/// The hand's dimensions (the procedural model's settings, shared by every hand of a scene
/// with the same scale).
struct HandSpec {
  float palmWidth = 0.085f;      ///< W, m
  float palmLength = 0.095f;     ///< L, m (wrist to the finger hinges)
  float palmThickness = 0.025f;  ///< T, m
  float hingeGap = 0.0015f;      ///< g, m: free length on each side of a hinge
  int boxSubdivisions = 1;       ///< makeBox subdivisions (more vertices for the distance checks)
  std::array<FingerSpec, kHandFingers> fingers{};

  /// An adult hand about 0.19 m long: thumb splayed 0.45 rad on the -x side, four parallel
  /// fingers 18 mm wide, 3 mm apart; limits 90/100/75 degrees (thumb 55/65/80).
  static HandSpec standard();
  /// Every length times `factor` (> 0).
  HandSpec scaled(float factor) const;
  /// Error: non-positive or non-finite sizes, limits outside (0, pi), a gap too long for a segment.
  Status validate() const;
};

/// A rigid placement of the palm frame in the world (a quaternion; not the sphere trees'
/// matrix RigidPose of sim/spheretree/SphereTree.h, which the grasp objects also use).
struct HandPose {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 position{0.0f};  ///< m, the palm-face centre
  glm::vec3 apply(glm::vec3 p) const { return position + rotation * p; }
};

/// A joint in the world: closing by +angle rotates the outer segments about `axis`
/// (right hand rule) through `pivot`.
struct HandJoint {
  glm::vec3 pivot{0.0f};
  glm::vec3 axis{1.0f, 0.0f, 0.0f};  ///< unit
  float angle = 0.0f;                ///< rad, in [0, limit]
  float limit = 0.0f;                ///< rad
};

/// A segment's frame in the world (its box: lateral in [-width/2, width/2], along in
/// [start, end], normal in [-thickness, 0], from `origin`).
struct HandSegmentFrame {
  glm::vec3 origin{0.0f};                ///< on its hinge (palm: the palm-face centre), m
  glm::vec3 lateral{1.0f, 0.0f, 0.0f};   ///< unit, along the hinge axis (palm: x)
  glm::vec3 along{0.0f, 1.0f, 0.0f};     ///< unit, toward the tip
  glm::vec3 normal{0.0f, 0.0f, 1.0f};    ///< unit, palm side: the direction it closes toward
  float start = 0.0f, end = 0.0f;        ///< m along `along`
  float width = 0.0f, thickness = 0.0f;  ///< m
};

/// The hand: spec, pose and 15 joint angles; forward kinematics to segment frames and meshes.
class HandModel {
 public:
  explicit HandModel(HandSpec spec = HandSpec::standard());

  const HandSpec& spec() const { return m_spec; }
  const HandPose& pose() const { return m_pose; }
  void setPose(const HandPose& pose) { m_pose = pose; }

  /// Sets a joint's closing angle (rad), clamped to [0, limit].
  void setJointAngle(int finger, int joint, float angle);
  float jointAngle(int finger, int joint) const { return m_angles[std::size_t(finger)][std::size_t(joint)]; }
  float jointLimit(int finger, int joint) const;
  /// Opens every joint (angle 0).
  void open();

  /// Segment index of a finger's segment (0 is the palm).
  static constexpr int segmentIndex(int finger, int joint) { return 1 + kHandJointsPerFinger * finger + joint; }

  HandJoint joint(int finger, int joint) const;
  HandSegmentFrame segmentFrame(int segment) const;
  /// The segment's box in its own frame (see the class doc).
  glm::vec3 localMin(int segment) const;
  glm::vec3 localMax(int segment) const;
  /// World positions of the segment's mesh vertices (the same order as segmentMesh).
  std::vector<glm::vec3> segmentPositions(int segment) const;
  /// The segment's closed box mesh in the world, with vertex normals.
  TriangleMesh segmentMesh(int segment) const;
  /// All 16 segments merged (segment 0 first), with vertex normals.
  TriangleMesh mesh() const;
  /// Vertex count of each segment's mesh (all equal).
  std::size_t segmentVertexCount() const { return m_box.positions.size(); }

  glm::vec3 palmCentre() const { return m_pose.position; }
  glm::vec3 palmNormal() const { return m_pose.rotation * glm::vec3(0.0f, 0.0f, 1.0f); }
  glm::vec3 fingerDirection() const { return m_pose.rotation * glm::vec3(0.0f, 1.0f, 0.0f); }

 private:
  /// Local (segment frame) to palm frame.
  glm::mat4 segmentToPalm(int segment) const;
  HandSpec m_spec;
  HandPose m_pose;
  std::array<std::array<float, kHandJointsPerFinger>, kHandFingers> m_angles{};
  TriangleMesh m_box;  ///< the unit box [0, 1]^3 with the spec's subdivisions, scaled per segment
};

}  // namespace hg
