#include "sim/body/Skeleton.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace hg {

glm::mat4 Transform::matrix() const {
  glm::mat4 m = glm::mat4_cast(rotation);
  m[0] *= scale.x;
  m[1] *= scale.y;
  m[2] *= scale.z;
  m[3] = glm::vec4(translation, 1.0f);
  return m;
}

Transform interpolate(const Transform& a, const Transform& b, float t) {
  Transform out;
  out.translation = glm::mix(a.translation, b.translation, t);
  out.scale = glm::mix(a.scale, b.scale, t);
  // Shortest arc: q and -q are the same rotation.
  const glm::quat target = glm::dot(a.rotation, b.rotation) < 0.0f ? -b.rotation : b.rotation;
  out.rotation = glm::normalize(glm::slerp(a.rotation, target, t));
  return out;
}

int Skeleton::find(std::string_view name) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return int(i);
  return -1;
}

void Skeleton::computeInverseBind() {
  const std::vector<glm::mat4> global = globalMatrices(*this, restPose(*this));
  inverseBind.resize(global.size());
  for (std::size_t i = 0; i < global.size(); ++i) inverseBind[i] = glm::inverse(global[i]);
}

Status Skeleton::validate() const {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const Joint& j = joints[i];
    const std::string label = "joint " + std::to_string(i) + " '" + j.name + "'";
    if (j.name.empty()) return Error{"joint " + std::to_string(i) + " has no name"};
    if (!names.insert(j.name).second) return Error{label + ": the name is used twice"};
    if (j.parent >= int(i) || j.parent < -1)
      return Error{label + ": parent " + std::to_string(j.parent) + " does not precede it"};
    const float* t = glm::value_ptr(j.rest.translation);
    const float* q = &j.rest.rotation.x;
    const float* s = glm::value_ptr(j.rest.scale);
    for (int c = 0; c < 3; ++c)
      if (!std::isfinite(t[c]) || !std::isfinite(s[c])) return Error{label + ": rest transform is not finite"};
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(q[c])) return Error{label + ": rest rotation is not finite"};
  }
  if (inverseBind.size() != joints.size())
    return Error{"skeleton has " + std::to_string(joints.size()) + " joints but " + std::to_string(inverseBind.size()) +
                 " inverse bind matrices"};
  for (std::size_t i = 0; i < inverseBind.size(); ++i) {
    const float* m = glm::value_ptr(inverseBind[i]);
    if (!std::all_of(m, m + 16, [](float v) { return std::isfinite(v); }))
      return Error{"joint " + std::to_string(i) + " '" + joints[i].name + "': inverse bind matrix is not finite"};
  }
  return {};
}

Pose restPose(const Skeleton& skeleton) {
  Pose pose(skeleton.joints.size());
  for (std::size_t i = 0; i < pose.size(); ++i) pose[i] = skeleton.joints[i].rest;
  return pose;
}

std::vector<glm::mat4> globalMatrices(const Skeleton& skeleton, const Pose& pose) {
  assert(pose.size() == skeleton.joints.size());
  std::vector<glm::mat4> global(pose.size());
  for (std::size_t i = 0; i < pose.size(); ++i) {
    const int parent = skeleton.joints[i].parent;
    global[i] = parent < 0 ? pose[i].matrix() : global[std::size_t(parent)] * pose[i].matrix();
  }
  return global;
}

std::vector<glm::mat4> skinningMatrices(const Skeleton& skeleton, const Pose& pose) {
  std::vector<glm::mat4> m = globalMatrices(skeleton, pose);
  assert(skeleton.inverseBind.size() == m.size());
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = m[i] * skeleton.inverseBind[i];
  return m;
}

void appendInfluences(SkinWeights& skin, std::vector<std::pair<std::uint32_t, float>> influences,
                      std::uint32_t fallbackJoint) {
  std::erase_if(influences, [](const auto& p) { return !(p.second > 0.0f) || !std::isfinite(p.second); });
  // Largest first; ties by joint index so the result does not depend on input order.
  std::sort(influences.begin(), influences.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (influences.size() > 4) influences.resize(4);
  glm::uvec4 joints(0u);
  glm::vec4 weights(0.0f);
  if (influences.empty()) {
    joints.x = fallbackJoint;
    weights.x = 1.0f;
  } else {
    float total = 0.0f;
    for (const auto& p : influences) total += p.second;
    for (std::size_t k = 0; k < influences.size(); ++k) {
      joints[int(k)] = influences[k].first;
      weights[int(k)] = influences[k].second / total;
    }
  }
  skin.joints.push_back(joints);
  skin.weights.push_back(weights);
}

Status SkinnedMesh::validate(float tolerance) const {
  if (Status s = skeleton.validate(); !s) return s;
  if (skin.joints.size() != mesh.vertexCount() || skin.weights.size() != mesh.vertexCount())
    return Error{"skin has " + std::to_string(skin.joints.size()) + " joint sets and " +
                 std::to_string(skin.weights.size()) + " weight sets for " + std::to_string(mesh.vertexCount()) +
                 " vertices"};
  for (std::size_t v = 0; v < skin.size(); ++v) {
    float total = 0.0f;
    for (int k = 0; k < 4; ++k) {
      const float w = skin.weights[v][k];
      if (!std::isfinite(w) || w < 0.0f)
        return Error{"vertex " + std::to_string(v) + ": weight " + std::to_string(k) + " is " + std::to_string(w)};
      if (w > 0.0f && skin.joints[v][k] >= skeleton.size())
        return Error{"vertex " + std::to_string(v) + ": joint index " + std::to_string(skin.joints[v][k]) +
                     " out of range (" + std::to_string(skeleton.size()) + " joints)"};
      total += w;
    }
    if (std::abs(total - 1.0f) > tolerance)
      return Error{"vertex " + std::to_string(v) + ": weights sum to " + std::to_string(total) + ", not 1"};
  }
  return {};
}

namespace {

/// Value of `track` at time t (clamped at the ends); `interp` blends two values.
template <class T, class Blend>
T sampleTrack(const KeyTrack<T>& track, float t, Blend interp) {
  const auto& times = track.times;
  if (t <= times.front()) return track.values.front();
  if (t >= times.back()) return track.values.back();
  const std::size_t hi = std::size_t(std::upper_bound(times.begin(), times.end(), t) - times.begin());
  const std::size_t lo = hi - 1;
  const float span = times[hi] - times[lo];
  const float u = span > 0.0f ? (t - times[lo]) / span : 0.0f;
  return interp(track.values[lo], track.values[hi], u);
}

template <class T>
Status validateTrack(const KeyTrack<T>& track, const std::string& label) {
  if (track.times.size() != track.values.size())
    return Error{label + ": " + std::to_string(track.times.size()) + " key times but " +
                 std::to_string(track.values.size()) + " values"};
  for (std::size_t k = 0; k < track.times.size(); ++k) {
    if (!std::isfinite(track.times[k])) return Error{label + ": key " + std::to_string(k) + " time is not finite"};
    if (k > 0 && track.times[k] < track.times[k - 1])
      return Error{label + ": key times are not ascending at key " + std::to_string(k)};
  }
  return {};
}

}  // namespace

Pose Animation::sample(const Skeleton& skeleton, float seconds) const {
  Pose pose = restPose(skeleton);
  for (const AnimationChannel& c : channels) {
    if (c.joint < 0 || std::size_t(c.joint) >= pose.size()) continue;
    Transform& t = pose[std::size_t(c.joint)];
    if (!c.translation.empty())
      t.translation =
          sampleTrack(c.translation, seconds, [](glm::vec3 a, glm::vec3 b, float u) { return glm::mix(a, b, u); });
    if (!c.scale.empty())
      t.scale = sampleTrack(c.scale, seconds, [](glm::vec3 a, glm::vec3 b, float u) { return glm::mix(a, b, u); });
    if (!c.rotation.empty())
      t.rotation = sampleTrack(c.rotation, seconds, [](glm::quat a, glm::quat b, float u) {
        return glm::normalize(glm::slerp(a, glm::dot(a, b) < 0.0f ? -b : b, u));
      });
  }
  return pose;
}

Status Animation::validate(const Skeleton& skeleton) const {
  if (!std::isfinite(duration) || duration < 0.0f) return Error{"animation '" + name + "': duration is not valid"};
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const AnimationChannel& c = channels[i];
    if (c.joint < 0 || std::size_t(c.joint) >= skeleton.size())
      return Error{"animation '" + name + "': channel " + std::to_string(i) + " names joint " +
                   std::to_string(c.joint) + ", out of range"};
    const std::string label = "animation '" + name + "', joint '" + skeleton.joints[std::size_t(c.joint)].name + "'";
    if (Status s = validateTrack(c.translation, label + " translation"); !s) return s;
    if (Status s = validateTrack(c.rotation, label + " rotation"); !s) return s;
    if (Status s = validateTrack(c.scale, label + " scale"); !s) return s;
  }
  return {};
}

}  // namespace hg
