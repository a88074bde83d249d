#include "sim/motion/Retarget.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <glm/gtc/constants.hpp>
#include <nlohmann/json.hpp>

#include "sim/body/SkeletonConvention.h"
#include "sim/io/SceneJson.h"

namespace hg {

Result<JointMap> parseJointMap(std::string_view text, std::string_view sourceName) {
  const std::string src(sourceName);
  // ordered_json keeps the pairs in file order (plain json sorts keys).
  nlohmann::ordered_json doc;
  try {
    (void)scenejson::parseDocument(std::string(text));  // a joint named twice is an error, not the last one winning
    doc = nlohmann::ordered_json::parse(text.begin(), text.end());
  } catch (...) {  // not JSON, a number like 1e999, a duplicate key
    return scenejson::sceneParseError(src);
  }
  if (!doc.is_object()) return Error{src + ": the mapping file must be a JSON object with a \"map\" object"};
  JointMap map;
  bool hasMap = false;
  for (const auto& [key, value] : doc.items()) {
    if (key == "map") {
      if (!value.is_object()) return Error{src + ": \"map\" must be an object {\"sourceJoint\": \"targetJoint\", ...}"};
      hasMap = true;
      std::set<std::string> targets;
      for (const auto& [from, to] : value.items()) {
        if (!to.is_string()) return Error{src + ": \"map\" entry '" + from + "' must name a target joint (a string)"};
        const std::string target = to.get<std::string>();
        if (from.empty() || target.empty()) return Error{src + ": \"map\" has an empty joint name"};
        if (!targets.insert(target).second)
          return Error{src + ": target joint '" + target + "' is mapped from more than one source joint"};
        map.pairs.emplace_back(from, target);
      }
    } else if (key == "scale") {
      if (!value.is_number() || !(value.get<double>() > 0.0) || !std::isfinite(value.get<double>()))
        return Error{src + ": \"scale\" must be a positive number"};
      map.scale = value.get<float>();
    } else if (key == "rootTranslation") {
      const std::string mode = value.is_string() ? value.get<std::string>() : "";
      if (mode == "relative")
        map.rootTranslation = JointMap::RootTranslation::Relative;
      else if (mode == "absolute")
        map.rootTranslation = JointMap::RootTranslation::Absolute;
      else if (mode == "grounded")
        map.rootTranslation = JointMap::RootTranslation::Grounded;
      else
        return Error{src + ": \"rootTranslation\" must be \"relative\", \"absolute\" or \"grounded\""};
    } else if (key == "alignRestPoses") {
      if (!value.is_boolean()) return Error{src + ": \"alignRestPoses\" must be true or false"};
      map.alignRestPoses = value.get<bool>();
    } else {
      return Error{src + ": unknown key \"" + key +
                   "\" (expected \"map\", \"scale\", \"rootTranslation\" or \"alignRestPoses\")"};
    }
  }
  if (!hasMap) return Error{src + ": missing \"map\" object"};
  return map;
}

Result<JointMap> loadJointMap(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read joint map " + path.string() + ": it does not exist or is not readable"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parseJointMap(buffer.str(), path.string());
}

Status checkJointMap(const JointMap& map, const Skeleton& source, const Skeleton& target) {
  std::set<std::string_view> targets;
  for (const auto& [s, t] : map.pairs) {
    if (source.find(s) < 0) return Error{"joint map: source joint '" + s + "' is not in the source skeleton"};
    if (target.find(t) < 0) return Error{"joint map: target joint '" + t + "' is not in the target skeleton"};
    if (!targets.insert(t).second) return Error{"joint map: target joint '" + t + "' is mapped more than once"};
  }
  return {};
}

JointMap identityJointMap(const Skeleton& skeleton) {
  JointMap map;
  for (const Joint& j : skeleton.joints) map.pairs.emplace_back(j.name, j.name);
  return map;
}

Result<JointMap> conventionJointMap(const Skeleton& source, const std::string& sourceWhat, const Skeleton& target,
                                    const std::string& targetWhat) {
  auto s = detectSkeletonConvention(source, sourceWhat);
  if (!s) return s.error();
  auto t = detectSkeletonConvention(target, targetWhat);
  if (!t) return t.error();
  JointMap map;
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c)
    map.pairs.emplace_back(source.joints[std::size_t(s->joint[c])].name, target.joints[std::size_t(t->joint[c])].name);
  map.rootTranslation = JointMap::RootTranslation::Grounded;
  map.alignRestPoses = true;
  return map;
}

namespace {

/// World rotation of every joint: product of local rotations along the chain.
std::vector<glm::quat> globalRotations(const Skeleton& skeleton, const Pose& pose) {
  std::vector<glm::quat> g(pose.size());
  for (std::size_t i = 0; i < pose.size(); ++i) {
    const int p = skeleton.joints[i].parent;
    g[i] = glm::normalize(p < 0 ? pose[i].rotation : g[std::size_t(p)] * pose[i].rotation);
  }
  return g;
}

glm::vec3 position(const glm::mat4& m) { return glm::vec3(m[3]); }

/// What retarget() maps with (see Retarget.h): per target joint its source joint (-1:
/// unmapped), the root-motion pair, the root translation's scale and source reference,
/// the rest rotations (world) of both skeletons and the target's rest pose and matrices.
struct RetargetPlan {
  std::vector<int> sourceOf;
  int rootSource = -1, rootTarget = -1;
  float scale = 1.0f;
  glm::vec3 sourceReference{0.0f};
  std::vector<glm::quat> sourceRestRot, targetRestRot;
  /// Per target joint the world rotation aligning its rest bone to the source's (identity
  /// without JointMap::alignRestPoses).
  std::vector<glm::quat> restAlignment;
  /// RootTranslation::Grounded: the lowest mapped source joint's lowest height over the
  /// clip, and the lowest mapped target joint's rest height (m).
  float sourceFloor = 0.0f, targetRestLowest = 0.0f;
  bool grounded = false;
  std::vector<char> sourceMapped, targetMapped;  ///< per joint: mapped (Grounded's lowest joints)
  Pose targetRest;
  std::vector<glm::mat4> targetRestGlobal;
};

/// Target joint -> source joint; the root-motion pair: the first mapped source root.
void mapJoints(const Skeleton& source, const Skeleton& target, const JointMap& map, RetargetPlan& plan) {
  plan.sourceOf.assign(target.size(), -1);
  for (const auto& [s, t] : map.pairs) {
    const int si = source.find(s), ti = target.find(t);
    plan.sourceOf[std::size_t(ti)] = si;
    if (source.joints[std::size_t(si)].parent < 0 && plan.rootSource < 0) {
      plan.rootSource = si;
      plan.rootTarget = ti;
    }
  }
}

/// The map's scale, else the ratio of the roots' rest heights (target / source), else 1.
float rootScale(const Skeleton& source, const Skeleton& target, const JointMap& map, const RetargetPlan& plan) {
  float scale = 1.0f;
  if (map.scale) {
    scale = *map.scale;
  } else if (plan.rootSource >= 0) {
    const float hs = restHeightAboveLowestJoint(source, plan.rootSource);
    const float ht = restHeightAboveLowestJoint(target, plan.rootTarget);
    if (hs > 1e-6f && ht > 1e-6f) scale = ht / hs;
  }
  return scale;
}

/// Shortest rotation taking direction `from` to direction `to` (identity when either is
/// zero; a half turn about an axis perpendicular to `from` when they are opposite).
glm::quat shortestArc(glm::vec3 from, glm::vec3 to) {
  const float lf = glm::length(from), lt = glm::length(to);
  if (lf < 1e-6f || lt < 1e-6f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  from /= lf;
  to /= lt;
  const float c = glm::dot(from, to);
  if (c < -0.999999f) {
    glm::vec3 axis = glm::cross(glm::vec3(1.0f, 0.0f, 0.0f), from);
    if (glm::length(axis) < 1e-3f) axis = glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), from);
    return glm::angleAxis(glm::pi<float>(), glm::normalize(axis));
  }
  const glm::vec3 axis = glm::cross(from, to);
  return glm::normalize(glm::quat(1.0f + c, axis.x, axis.y, axis.z));
}

/// JointMap::alignRestPoses: per target joint the rotation of its rest bone onto the
/// source's (a joint with exactly one mapped child), else its nearest mapped ancestor's.
std::vector<glm::quat> restAlignments(const Skeleton& source, const Skeleton& target, const RetargetPlan& plan) {
  std::vector<glm::vec3> sPos, tPos;
  for (const glm::mat4& m : globalMatrices(source, restPose(source))) sPos.push_back(position(m));
  for (const glm::mat4& m : globalMatrices(target, restPose(target))) tPos.push_back(position(m));
  // Nearest mapped proper ancestor of every target joint (-1: none).
  std::vector<int> mappedAncestor(target.size(), -1);
  std::vector<std::vector<int>> mappedChildren(target.size());
  for (std::size_t t = 0; t < target.size(); ++t) {
    const int p = target.joints[t].parent;
    if (p >= 0) mappedAncestor[t] = plan.sourceOf[std::size_t(p)] >= 0 ? p : mappedAncestor[std::size_t(p)];
    if (plan.sourceOf[t] >= 0 && mappedAncestor[t] >= 0)
      mappedChildren[std::size_t(mappedAncestor[t])].push_back(int(t));
  }
  std::vector<glm::quat> align(target.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  for (std::size_t t = 0; t < target.size(); ++t) {  // parents first
    const int s = plan.sourceOf[t];
    if (s >= 0 && mappedChildren[t].size() == 1) {
      const std::size_t c = std::size_t(mappedChildren[t][0]);
      align[t] = shortestArc(tPos[c] - tPos[t], sPos[std::size_t(plan.sourceOf[c])] - sPos[std::size_t(s)]);
    } else if (mappedAncestor[t] >= 0) {
      align[t] = align[std::size_t(mappedAncestor[t])];
    }
  }
  return align;
}

/// Height of the lowest mapped joint among `globals` (`mapped`: per joint, whether it counts).
float lowestMapped(const std::vector<glm::mat4>& globals, const std::vector<char>& mapped) {
  float lowest = 1e30f;
  for (std::size_t j = 0; j < globals.size(); ++j)
    if (mapped[j]) lowest = std::min(lowest, globals[j][3].y);
  return lowest;
}

RetargetPlan planRetarget(const Skeleton& source, const Skeleton& target, const JointMap& map) {
  RetargetPlan plan;
  mapJoints(source, target, map, plan);
  plan.scale = rootScale(source, target, map, plan);
  // Source root position that maps to the target's rest root position.
  if (plan.rootSource >= 0)
    plan.sourceReference = map.rootTranslation == JointMap::RootTranslation::Relative
                               ? glm::vec3(globalMatrices(source, restPose(source))[std::size_t(plan.rootSource)][3])
                               : glm::vec3(0.0f, restHeightAboveLowestJoint(source, plan.rootSource), 0.0f);
  const Pose sourceRest = restPose(source);
  plan.sourceRestRot = globalRotations(source, sourceRest);
  plan.targetRest = restPose(target);
  plan.targetRestRot = globalRotations(target, plan.targetRest);
  plan.targetRestGlobal = globalMatrices(target, plan.targetRest);
  plan.restAlignment = map.alignRestPoses ? restAlignments(source, target, plan)
                                          : std::vector<glm::quat>(target.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  return plan;
}

/// Distinct key times of the clip, ascending (0 alone for a clip without keys).
std::vector<float> keyTimes(const Animation& clip) {
  std::vector<float> times;
  for (const AnimationChannel& c : clip.channels) {
    times.insert(times.end(), c.translation.times.begin(), c.translation.times.end());
    times.insert(times.end(), c.rotation.times.begin(), c.rotation.times.end());
    times.insert(times.end(), c.scale.times.begin(), c.scale.times.end());
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  if (times.empty()) times.push_back(0.0f);
  return times;
}

/// Per joint whether it is mapped: of the source (`ofSource`) or of the target.
std::vector<char> mappedJoints(const RetargetPlan& plan, std::size_t sourceSize, bool ofSource) {
  std::vector<char> mapped(ofSource ? sourceSize : plan.sourceOf.size(), 0);
  for (std::size_t t = 0; t < plan.sourceOf.size(); ++t)
    if (plan.sourceOf[t] >= 0) mapped[ofSource ? std::size_t(plan.sourceOf[t]) : t] = 1;
  return mapped;
}

/// RootTranslation::Grounded: lifts the target's root so that its lowest mapped joint is
/// scale * (the source's lowest mapped joint above its clip floor) above its rest height.
void groundRoot(const std::vector<glm::mat4>& sGlobal, const Skeleton& target, const std::vector<glm::mat4>& tGlobal,
                const RetargetPlan& plan, Pose& tp) {
  const float sourceAbove = lowestMapped(sGlobal, plan.sourceMapped) - plan.sourceFloor;
  const float wanted = plan.targetRestLowest + plan.scale * sourceAbove;
  const float lift = wanted - lowestMapped(tGlobal, plan.targetMapped);
  const int root = plan.rootTarget, parent = target.joints[std::size_t(root)].parent;
  const glm::vec3 up(0.0f, lift, 0.0f);
  tp[std::size_t(root)].translation += parent < 0 ? up : glm::inverse(glm::mat3(tGlobal[std::size_t(parent)])) * up;
}

/// The target pose for the source pose `sp`: each mapped joint takes the world-frame
/// rest-relative rotation of its source joint, the others keep their rest rotation; the
/// root follows the source root's scaled translation.
Pose targetPose(const Skeleton& source, const Pose& sp, const Skeleton& target, const RetargetPlan& plan) {
  const std::vector<glm::quat> sRot = globalRotations(source, sp);
  const std::vector<glm::mat4> sGlobal = globalMatrices(source, sp);
  Pose tp = plan.targetRest;
  std::vector<glm::quat> tRot(target.size());
  std::vector<glm::mat4> tGlobal(target.size());
  for (std::size_t t = 0; t < target.size(); ++t) {
    const int parent = target.joints[t].parent;
    const glm::quat parentRot = parent < 0 ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : tRot[std::size_t(parent)];
    const int s = plan.sourceOf[t];
    if (s >= 0) {
      // World-frame rest-relative delta of the source joint, applied to the target's world rest.
      const glm::quat delta = sRot[std::size_t(s)] * glm::inverse(plan.sourceRestRot[std::size_t(s)]);
      tRot[t] = glm::normalize(delta * plan.restAlignment[t] * plan.targetRestRot[t]);
      tp[t].rotation = glm::normalize(glm::inverse(parentRot) * tRot[t]);
    } else {
      tRot[t] = glm::normalize(parentRot * tp[t].rotation);
    }
    if (int(t) == plan.rootTarget) {
      const glm::vec3 sourcePos = position(sGlobal[std::size_t(plan.rootSource)]);
      glm::vec3 wanted = position(plan.targetRestGlobal[t]) + plan.scale * (sourcePos - plan.sourceReference);
      if (plan.grounded) wanted.y = position(plan.targetRestGlobal[t]).y;  // lifted onto the floor below
      tp[t].translation =
          parent < 0 ? wanted : glm::vec3(glm::inverse(tGlobal[std::size_t(parent)]) * glm::vec4(wanted, 1.0f));
    }
    tGlobal[t] = parent < 0 ? tp[t].matrix() : tGlobal[std::size_t(parent)] * tp[t].matrix();
  }
  if (plan.grounded && plan.rootTarget >= 0) groundRoot(sGlobal, target, tGlobal, plan, tp);
  return tp;
}

/// Appends the keys of the target pose at `time`: rotations of the mapped joints (kept in
/// one hemisphere with the previous key), the root's translation.
void appendKeys(const Pose& tp, float time, const RetargetPlan& plan, const std::vector<int>& channelOf,
                Animation& out) {
  for (std::size_t t = 0; t < tp.size(); ++t) {
    if (channelOf[t] < 0) continue;
    AnimationChannel& c = out.channels[std::size_t(channelOf[t])];
    if (plan.sourceOf[t] >= 0) {
      glm::quat q = tp[t].rotation;
      // Keep consecutive keys in one hemisphere (q and -q are the same rotation).
      if (!c.rotation.values.empty() && glm::dot(c.rotation.values.back(), q) < 0.0f) q = -q;
      c.rotation.times.push_back(time);
      c.rotation.values.push_back(q);
    }
    if (int(t) == plan.rootTarget) {
      c.translation.times.push_back(time);
      c.translation.values.push_back(tp[t].translation);
    }
  }
}

}  // namespace

float restHeightAboveLowestJoint(const Skeleton& skeleton, int joint) {
  const std::vector<glm::mat4> g = globalMatrices(skeleton, restPose(skeleton));
  float lowest = g.empty() ? 0.0f : g[0][3].y;
  for (const glm::mat4& m : g) lowest = std::min(lowest, m[3].y);
  return g[std::size_t(joint)][3].y - lowest;
}

Result<Animation> retarget(const Skeleton& source, const Animation& sourceClip, const Skeleton& target,
                           const JointMap& map) {
  if (Status s = checkJointMap(map, source, target); !s) return s.error();
  if (Status s = sourceClip.validate(source); !s) return s.error().prefixed("retarget: source clip: ");
  RetargetPlan plan = planRetarget(source, target, map);
  const std::vector<float> times = keyTimes(sourceClip);
  if (map.rootTranslation == JointMap::RootTranslation::Grounded && plan.rootSource >= 0) {
    plan.grounded = true;
    plan.sourceMapped = mappedJoints(plan, source.size(), true);
    plan.targetMapped = mappedJoints(plan, source.size(), false);
    plan.sourceFloor = 1e30f;
    for (const float time : times)
      plan.sourceFloor = std::min(
          plan.sourceFloor, lowestMapped(globalMatrices(source, sourceClip.sample(source, time)), plan.sourceMapped));
    plan.sourceReference =
        position(globalMatrices(source, sourceClip.sample(source, times.front()))[std::size_t(plan.rootSource)]);
    plan.targetRestLowest = lowestMapped(plan.targetRestGlobal, plan.targetMapped);
  }

  // One channel per mapped target joint and the root.
  Animation out;
  out.name = sourceClip.name;
  out.duration = std::max(sourceClip.duration, times.back());
  std::vector<int> channelOf(target.size(), -1);
  for (std::size_t t = 0; t < target.size(); ++t) {
    if (plan.sourceOf[t] < 0 && int(t) != plan.rootTarget) continue;
    channelOf[t] = int(out.channels.size());
    out.channels.push_back(AnimationChannel{});
    out.channels.back().joint = int(t);
  }

  for (const float time : times)
    appendKeys(targetPose(source, sourceClip.sample(source, time), target, plan), time, plan, channelOf, out);
  return out;
}

}  // namespace hg
