#include "sim/body/SkeletonConvention.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <optional>
#include <utility>

namespace hg {
namespace {

constexpr std::array<std::string_view, kCanonicalJointCount> kCanonical = {
    "pelvis",    "spine",  "chest",      "neck",        "head",      "clavicle_l", "upper_arm_l",
    "forearm_l", "hand_l", "clavicle_r", "upper_arm_r", "forearm_r", "hand_r",     "thigh_l",
    "shin_l",    "foot_l", "thigh_r",    "shin_r",      "foot_r"};

/// The names one convention gives the joints: per canonical joint the candidates, best
/// first. In a left-side joint's candidates "<side>", "<Side>", "<s>" and "<S>" stand for
/// left, Left, l and L (the right-side joint uses the same candidates with the other side).
struct ConventionNames {
  SkeletonConvention convention;
  const char* name;
  std::initializer_list<std::string_view> pelvis, spine, chest, neck, head;
  std::initializer_list<std::string_view> clavicle, upperArm, forearm, hand, thigh, shin, foot;
  std::initializer_list<std::string_view> markers;  ///< normalised names (or "mixamorig") that tell it apart
};

const std::array<ConventionNames, 5>& conventionTables() {
  static const std::array<ConventionNames, 5> tables = {{
      {SkeletonConvention::Mannequin,
       "mannequin",
       {"pelvis"},
       {"spine"},
       {"chest"},
       {"neck"},
       {"head"},
       {"clavicle_<s>"},
       {"upper_arm_<s>"},
       {"forearm_<s>"},
       {"hand_<s>"},
       {"thigh_<s>"},
       {"shin_<s>"},
       {"foot_<s>"},
       {"upper_arm_l", "chest"}},
      {SkeletonConvention::Mixamo,
       "mixamo",
       {"Hips"},
       {"Spine"},
       {"Spine2", "Spine1"},
       {"Neck"},
       {"Head"},
       {"<Side>Shoulder"},
       {"<Side>Arm"},
       {"<Side>ForeArm"},
       {"<Side>Hand"},
       {"<Side>UpLeg"},
       {"<Side>Leg"},
       {"<Side>Foot"},
       {"mixamorig", "Spine2"}},
      {SkeletonConvention::Unreal,
       "unreal",
       {"pelvis"},
       {"spine_01"},
       {"spine_03"},
       {"neck_01"},
       {"head"},
       {"clavicle_<s>"},
       {"upperarm_<s>"},
       {"lowerarm_<s>"},
       {"hand_<s>"},
       {"thigh_<s>"},
       {"calf_<s>"},
       {"foot_<s>"},
       {"spine_01", "calf_l"}},
      {SkeletonConvention::CmuBvh,
       "cmu_bvh",
       {"Hips"},
       {"Spine", "LowerBack"},
       {"Spine1"},
       {"Neck"},
       {"Head"},
       {"<Side>Shoulder"},
       {"<Side>Arm"},
       {"<Side>ForeArm"},
       {"<Side>Hand"},
       {"<Side>UpLeg"},
       {"<Side>Leg"},
       {"<Side>Foot"},
       {"LowerBack", "LHipJoint", "Neck1"}},
      {SkeletonConvention::Smpl,
       "smpl",
       {"pelvis"},
       {"spine1"},
       {"spine3", "spine2"},
       {"neck"},
       {"head"},
       {"<side>_collar", "<S>_Collar"},
       {"<side>_shoulder", "<S>_Shoulder"},
       {"<side>_elbow", "<S>_Elbow"},
       {"<side>_wrist", "<S>_Wrist"},
       {"<side>_hip", "<S>_Hip"},
       {"<side>_knee", "<S>_Knee"},
       {"<side>_ankle", "<S>_Ankle"},
       {"spine3", "left_collar", "l_collar"}},
  }};
  return tables;
}

std::string lowerCase(std::string_view text) {
  std::string lower;
  for (const char c : text) lower.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  return lower;
}

bool isSeparator(char c) { return c == '_' || c == '-' || c == '.' || c == ' '; }

/// Lower case, without the namespace before the last ':', without an exporter prefix
/// ("mixamorig", "mixamorig1", "m_avg_", "f_avg_") and without separators.
std::string normalisedJointName(std::string_view raw) {
  if (const std::size_t colon = raw.rfind(':'); colon != std::string_view::npos) raw = raw.substr(colon + 1);
  const std::string lower = lowerCase(raw);
  std::string_view s = lower;
  if (s.starts_with("mixamorig")) {
    s.remove_prefix(9);
    while (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || isSeparator(s.front())))
      s.remove_prefix(1);
  }
  for (const std::string_view prefix : {"m_avg_", "f_avg_"})
    if (s.starts_with(prefix)) s.remove_prefix(prefix.size());
  std::string out;
  for (const char c : s)
    if (!isSeparator(c)) out.push_back(c);
  return out;
}

/// `pattern` with "<side>" and "<s>" filled in for the left (or right) side.
std::string forSide(std::string_view pattern, bool left) {
  std::string out(pattern);
  for (const auto& [key, value] : {std::pair<std::string_view, std::string_view>{"<side>", left ? "left" : "right"},
                                   {"<Side>", left ? "Left" : "Right"},
                                   {"<s>", left ? "l" : "r"},
                                   {"<S>", left ? "L" : "R"}})
    if (const std::size_t at = out.find(key); at != std::string::npos) out.replace(at, key.size(), value);
  return out;
}

/// Per canonical joint (kCanonical order) the candidate names of `names`.
std::array<std::vector<std::string>, kCanonicalJointCount> candidates(const ConventionNames& names) {
  std::array<std::vector<std::string>, kCanonicalJointCount> out;
  const auto fill = [&out](std::size_t at, std::initializer_list<std::string_view> list, int side) {
    for (const std::string_view c : list) out[at].push_back(side == 0 ? std::string(c) : forSide(c, side > 0));
  };
  fill(0, names.pelvis, 0);
  fill(1, names.spine, 0);
  fill(2, names.chest, 0);
  fill(3, names.neck, 0);
  fill(4, names.head, 0);
  for (const int side : {1, -1}) {  // arms: left at 5..8, right at 9..12
    const std::size_t base = side > 0 ? 5 : 9;
    fill(base + 0, names.clavicle, side);
    fill(base + 1, names.upperArm, side);
    fill(base + 2, names.forearm, side);
    fill(base + 3, names.hand, side);
  }
  for (const int side : {1, -1}) {  // legs: left at 13..15, right at 16..18
    const std::size_t base = side > 0 ? 13 : 16;
    fill(base + 0, names.thigh, side);
    fill(base + 1, names.shin, side);
    fill(base + 2, names.foot, side);
  }
  return out;
}

ConventionMatch match(const Skeleton& skeleton, const ConventionNames& names) {
  std::map<std::string, int> jointByName;  // normalised name -> first joint with it
  bool mixamoNamespace = false;
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    jointByName.emplace(normalisedJointName(skeleton.joints[j].name), int(j));
    mixamoNamespace |= lowerCase(skeleton.joints[j].name).starts_with("mixamorig");
  }
  ConventionMatch m;
  m.convention = names.convention;
  m.joint.fill(-1);
  const auto lists = candidates(names);
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c) {
    for (const std::string& candidate : lists[c]) {
      const auto it = jointByName.find(normalisedJointName(candidate));
      if (it == jointByName.end() || std::find(m.joint.begin(), m.joint.end(), it->second) != m.joint.end()) continue;
      m.joint[c] = it->second;
      break;
    }
    if (m.joint[c] < 0) {
      std::string wanted;
      for (const std::string& candidate : lists[c]) wanted += (wanted.empty() ? "" : " or ") + candidate;
      m.unmapped.push_back(std::string(kCanonical[c]) + " (" + wanted + ")");
    }
  }
  for (const std::string_view marker : names.markers)
    m.markers += marker == "mixamorig" ? int(mixamoNamespace) : int(jointByName.count(normalisedJointName(marker)));
  return m;
}

}  // namespace

const std::array<std::string_view, kCanonicalJointCount>& canonicalJointNames() { return kCanonical; }

const std::array<SkeletonConvention, 5>& skeletonConventions() {
  static const std::array<SkeletonConvention, 5> all = {SkeletonConvention::Mannequin, SkeletonConvention::Mixamo,
                                                        SkeletonConvention::Unreal, SkeletonConvention::CmuBvh,
                                                        SkeletonConvention::Smpl};
  return all;
}

const char* skeletonConventionName(SkeletonConvention convention) {
  for (const ConventionNames& names : conventionTables())
    if (names.convention == convention) return names.name;
  return "?";
}

int ConventionMatch::find(std::string_view canonicalName) const {
  for (std::size_t c = 0; c < kCanonicalJointCount; ++c)
    if (kCanonical[c] == canonicalName) return joint[c];
  return -1;
}

std::string conventionJointName(SkeletonConvention convention, std::size_t canonical) {
  for (const ConventionNames& names : conventionTables())
    if (names.convention == convention && canonical < kCanonicalJointCount) return candidates(names)[canonical].front();
  return {};
}

ConventionMatch matchConvention(const Skeleton& skeleton, SkeletonConvention convention) {
  for (const ConventionNames& names : conventionTables())
    if (names.convention == convention) return match(skeleton, names);
  return {};
}

Result<ConventionMatch> detectSkeletonConvention(const Skeleton& skeleton, const std::string& what) {
  std::optional<ConventionMatch> best, closest;
  for (const ConventionNames& names : conventionTables()) {
    ConventionMatch m = match(skeleton, names);
    if (m.complete() && (!best || m.markers > best->markers)) best = m;
    if (!closest || m.unmapped.size() < closest->unmapped.size()) closest = std::move(m);
  }
  if (best) return *best;
  std::string known, missing;
  for (const ConventionNames& names : conventionTables())
    known += (known.empty() ? "" : ", ") + std::string(names.name);
  for (const std::string& u : closest->unmapped) missing += (missing.empty() ? "" : ", ") + u;
  return Error{what + ": the skeleton's joint names follow none of the known conventions (" + known +
               "); the closest, " + skeletonConventionName(closest->convention) + ", has no joint for " + missing +
               " (rename those joints, or give a joint map file)"};
}

}  // namespace hg
