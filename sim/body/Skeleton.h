#pragma once
/// Skeletons, poses, skin weights and keyframed animation: the data every avatar source
/// (the built-in mannequin, assimp-imported characters, BVH motion) produces and every
/// skinning backend consumes. Units: metres, radians, seconds. GL-free.
///
/// Conventions (glTF's): a joint's local transform maps joint space to its parent's
/// space as T * R * S; a joint's global matrix is parent global * local; the inverse
/// bind matrix of a joint is the inverse of its global matrix in the bind (rest) pose,
/// so the skinning matrix global(pose) * inverseBind is the identity in the rest pose.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

/// Translation, rotation, scale (applied scale first): matrix() = T * R * S.
struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  ///< unit quaternion (w, x, y, z)
  glm::vec3 scale{1.0f};
  glm::mat4 matrix() const;
};

/// Interpolates translation and scale linearly and rotation by shortest-arc slerp.
Transform interpolate(const Transform& a, const Transform& b, float t);

struct Joint {
  std::string name;
  int parent = -1;  ///< index of the parent joint, -1 for a root; always < own index
  Transform rest;   ///< local transform in the rest (bind) pose, relative to the parent
};

/// A joint hierarchy with parents stored before their children.
struct Skeleton {
  std::vector<Joint> joints;
  /// Inverse of each joint's global rest matrix (see the file comment). Filled by
  /// computeInverseBind(), or taken from an imported file.
  std::vector<glm::mat4> inverseBind;

  std::size_t size() const { return joints.size(); }
  /// Index of the joint called `name`, or -1.
  int find(std::string_view name) const;
  /// Sets inverseBind from the rest pose.
  void computeInverseBind();
  /// Parents precede children, names are unique and non-empty, inverseBind has one
  /// finite matrix per joint. The error names the joint and the problem.
  Status validate() const;
};

/// Local transform of every joint (one per joint, same order as Skeleton::joints).
using Pose = std::vector<Transform>;

/// The rest pose: every joint's rest local transform.
Pose restPose(const Skeleton& skeleton);
/// Global (model-space) matrix of every joint in `pose`.
std::vector<glm::mat4> globalMatrices(const Skeleton& skeleton, const Pose& pose);
/// Skinning matrix of every joint: global(pose) * inverseBind (identity at rest).
std::vector<glm::mat4> skinningMatrices(const Skeleton& skeleton, const Pose& pose);

/// Up to four joint influences per vertex. Unused slots have weight 0 (joint index
/// then unused, conventionally 0). Weights of a vertex sum to 1.
struct SkinWeights {
  std::vector<glm::uvec4> joints;
  std::vector<glm::vec4> weights;
  std::size_t size() const { return joints.size(); }
};

/// Keeps the four largest of any number of (joint, weight) influences, drops negative
/// and zero weights, and normalises the rest to sum 1. A vertex without a positive
/// influence gets joint `fallbackJoint` with weight 1.
void appendInfluences(SkinWeights& skin, std::vector<std::pair<std::uint32_t, float>> influences,
                      std::uint32_t fallbackJoint = 0);

/// A body surface bound to a skeleton: mesh positions are the rest (bind) pose.
struct SkinnedMesh {
  TriangleMesh mesh;
  Skeleton skeleton;
  SkinWeights skin;  ///< one entry per mesh vertex
  /// Skeleton valid, one skin entry per vertex, joint indices in range, weights
  /// finite, non-negative and summing to 1 within `tolerance`.
  Status validate(float tolerance = 1e-5f) const;
};

/// Keys of one component of one joint, times ascending (seconds).
template <class T>
struct KeyTrack {
  std::vector<float> times;
  std::vector<T> values;
  bool empty() const { return times.empty(); }
};

/// The animated components of one joint; an empty track keeps the rest component.
struct AnimationChannel {
  int joint = -1;
  KeyTrack<glm::vec3> translation;
  KeyTrack<glm::quat> rotation;
  KeyTrack<glm::vec3> scale;
};

/// A keyframed clip. Sampling clamps to the first/last key (no extrapolation);
/// between keys translation and scale interpolate linearly, rotation by slerp.
struct Animation {
  std::string name;
  float duration = 0.0f;  ///< seconds
  std::vector<AnimationChannel> channels;
  /// The pose at time `seconds`: the rest pose with every channel's keys applied.
  Pose sample(const Skeleton& skeleton, float seconds) const;
  /// Channels name joints in range, tracks have as many values as times, times
  /// ascend and are finite. The error names the channel's joint and the problem.
  Status validate(const Skeleton& skeleton) const;
};

}  // namespace hg
