#include "sim/body/Mannequin.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "sim/body/BodyMeasure.h"
#include "sim/core/Numbers.h"
#include "sim/geometry/ImplicitShapes.h"
#include "sim/geometry/IsoSurface.h"

namespace hg {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

using implicit::Ellipsoid;
using implicit::smoothMax;
using implicit::smoothMin;
using implicit::TaperedCapsule;

/// Horizontal elliptic torso section at height y: half width a (x), half depth b (z),
/// centred at (0, y, z).
struct TorsoKey {
  float y = 0.0f, a = 0.0f, b = 0.0f, z = 0.0f;
};

/// Perimeter of an ellipse with semi-axes a, b (Ramanujan's first approximation; relative
/// error < 1e-4 for b/a > 0.5).
float ellipsePerimeter(float a, float b) { return kPi * (3.0f * (a + b) - std::sqrt((3.0f * a + b) * (a + 3.0f * b))); }

float smoothStep(float e0, float e1, float x) {
  const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

/// Generalised cylinder with elliptic sections interpolated between keys by smoothstep
/// (so every key is a stationary section: its girth is the key's), rounded flat caps below
/// the first and above the last key.
struct Torso {
  std::vector<TorsoKey> keys;  ///< ascending y
  float capRounding = 0.04f;   ///< m
  TorsoKey at(float y) const {
    if (y <= keys.front().y) return keys.front();
    if (y >= keys.back().y) return keys.back();
    std::size_t i = 1;
    while (keys[i].y < y) ++i;
    const TorsoKey& lo = keys[i - 1];
    const TorsoKey& hi = keys[i];
    const float s = smoothStep(lo.y, hi.y, y);
    return {y, lo.a + s * (hi.a - lo.a), lo.b + s * (hi.b - lo.b), lo.z + s * (hi.z - lo.z)};
  }
  float value(glm::vec3 p) const {
    const TorsoKey k = at(p.y);
    const float q = std::sqrt((p.x / k.a) * (p.x / k.a) + ((p.z - k.z) / k.b) * ((p.z - k.z) / k.b));
    float f = (q - 1.0f) * std::min(k.a, k.b);
    f = smoothMax(f, keys.front().y - p.y, capRounding);
    return smoothMax(f, p.y - keys.back().y, capRounding);
  }
};

// ---------------------------------------------------------------------------------------
// Skeleton layout.

enum JointId : int {
  kPelvis,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kClavicleL,
  kUpperArmL,
  kForearmL,
  kHandL,
  kClavicleR,
  kUpperArmR,
  kForearmR,
  kHandR,
  kThighL,
  kShinL,
  kFootL,
  kThighR,
  kShinR,
  kFootR,
  kJointCount
};
constexpr std::array<const char*, kJointCount> kJointNames = {
    "pelvis",    "spine",  "chest",      "neck",        "head",      "clavicle_l", "upper_arm_l",
    "forearm_l", "hand_l", "clavicle_r", "upper_arm_r", "forearm_r", "hand_r",     "thigh_l",
    "shin_l",    "foot_l", "thigh_r",    "shin_r",      "foot_r"};
constexpr std::array<int, kJointCount> kJointParents = {
    -1,         kPelvis,    kSpine,    kChest,  kNeck,   kChest, kClavicleL, kUpperArmL, kForearmL, kChest,
    kClavicleR, kUpperArmR, kForearmR, kPelvis, kThighL, kShinL, kPelvis,    kThighR,    kShinR};

/// Body parts of the implicit body, each owned by one joint.
enum PartId : int {
  kTorsoPart,
  kNeckPart,
  kHeadPart,
  kClavicleLPart,
  kUpperArmLPart,
  kForearmLPart,
  kHandLPart,
  kClavicleRPart,
  kUpperArmRPart,
  kForearmRPart,
  kHandRPart,
  kThighLPart,
  kShinLPart,
  kFootLPart,
  kThighRPart,
  kShinRPart,
  kFootRPart,
  kPartCount
};

/// Fillet sizes of the smooth unions, metres.
constexpr float kLimbJointBlend = 0.02f;  ///< between the parts of one limb
constexpr float kArmBlend = 0.02f;        ///< arms onto the torso (small: keeps the armpit open)
constexpr float kLegBlend = 0.035f;       ///< legs onto the torso (crotch and buttock creases)
constexpr float kNeckHeadBlend = 0.03f;   ///< neck onto torso and head

/// Scale factors the girth fit adjusts (1 = the initial estimate), and the crotch offset.
struct FitState {
  float chest = 1.0f, waist = 1.0f, hip = 1.0f, neck = 1.0f, thigh = 1.0f;
  float crotchKeyOffset = 0.01f;  ///< torso bottom key above the requested crotch height, m
};

/// The body in its built pose: joint positions (model space, before the floor shift) and
/// the implicit parts.
struct Body {
  std::array<glm::vec3, kJointCount> joints{};
  Torso torso;
  TaperedCapsule neck;
  Ellipsoid head;
  std::array<TaperedCapsule, 2> clavicle, upperArm, forearm, hand, thigh, shin, foot;
  glm::vec3 handTip[2]{}, toeTip[2]{};
  float hipZ = 0.0f;

  /// Field of every part at p.
  std::array<float, kPartCount> parts(glm::vec3 p) const {
    std::array<float, kPartCount> f{};
    f[kTorsoPart] = torso.value(p);
    f[kNeckPart] = neck.value(p);
    f[kHeadPart] = head.value(p);
    for (int s = 0; s < 2; ++s) {
      const int arm = s == 0 ? kClavicleLPart : kClavicleRPart;
      f[std::size_t(arm)] = clavicle[std::size_t(s)].value(p);
      f[std::size_t(arm + 1)] = upperArm[std::size_t(s)].value(p);
      f[std::size_t(arm + 2)] = forearm[std::size_t(s)].value(p);
      f[std::size_t(arm + 3)] = hand[std::size_t(s)].value(p);
      const int leg = s == 0 ? kThighLPart : kThighRPart;
      f[std::size_t(leg)] = thigh[std::size_t(s)].value(p);
      f[std::size_t(leg + 1)] = shin[std::size_t(s)].value(p);
      f[std::size_t(leg + 2)] = foot[std::size_t(s)].value(p);
    }
    return f;
  }

  /// The body field: smooth union of the parts, clipped by the floor y = 0.
  float value(glm::vec3 p) const {
    const std::array<float, kPartCount> f = parts(p);
    float legs = std::numeric_limits<float>::max();
    float body = f[kTorsoPart];
    for (int s = 0; s < 2; ++s) {
      const std::size_t leg = std::size_t(s == 0 ? kThighLPart : kThighRPart);
      legs = std::min(legs, smoothMin(smoothMin(f[leg], f[leg + 1], kLimbJointBlend), f[leg + 2], kLimbJointBlend));
    }
    body = smoothMin(body, legs, kLegBlend);
    for (int s = 0; s < 2; ++s) {
      const std::size_t arm = std::size_t(s == 0 ? kClavicleLPart : kClavicleRPart);
      float limb = smoothMin(f[arm], f[arm + 1], kLimbJointBlend);
      limb = smoothMin(limb, f[arm + 2], kLimbJointBlend);
      limb = smoothMin(limb, f[arm + 3], kLimbJointBlend);
      body = smoothMin(body, limb, kArmBlend);
    }
    body = smoothMin(body, f[kNeckPart], kNeckHeadBlend);
    body = smoothMin(body, f[kHeadPart], kNeckHeadBlend);
    return std::max(body, -p.y);
  }
};

/// Torso section ellipse aspect ratios (depth / width), ANSUR II 2012 male means of chest,
/// waist and hip depth over breadth.
constexpr float kChestAspect = 0.72f;
constexpr float kWaistAspect = 0.78f;
constexpr float kHipAspect = 0.80f;

/// Edges shorter than this fraction of the cell size are collapsed after extraction.
constexpr float kCollapseEdgeFraction = 0.5f;
Body makeBody(const MannequinParams& p, const FitState& fit) {
  const float H = p.height;
  Body body;
  auto& J = body.joints;
  // Heights (fractions of H after Winter, Fig. 4.1): hip joints 0.06 H above the crotch,
  // shoulder joints 0.805 H, ankles 0.039 H, knees halfway between hip and ankle.
  const float yHip = p.legLength + 0.06f * H;
  const float yShoulder = 0.805f * H;
  const float yWaist = yHip + 0.33f * (yShoulder - yHip);
  const float yChest = yHip + 0.67f * (yShoulder - yHip);
  const float yNeck = yShoulder + 0.03f * H;
  const float yHead = 0.885f * H;
  const float yAnkle = 0.039f * H;
  const float yKnee = 0.5f * (yHip + yAnkle);
  const float thighRadius = p.thighGirth / (2.0f * kPi);
  // Hip joints 0.052 H from the midline (Winter's hip width 0.191 H is the surface), moved
  // out where needed to keep a gap of 2.5 cells (at least 2.5 cm) between the thighs: a
  // narrower gap could be bridged by the diagonal edges of the extraction grid.
  const float thighTopRadius = 1.07f * thighRadius * fit.thigh;
  const float xHip = std::max(0.052f * H, thighTopRadius + std::max(0.0125f, 1.25f * p.cellSize));

  J[kPelvis] = {0.0f, yHip, 0.0f};
  J[kSpine] = {0.0f, yWaist, 0.0f};
  J[kChest] = {0.0f, yChest, 0.0f};
  J[kNeck] = {0.0f, yNeck, 0.0f};
  J[kHead] = {0.0f, yHead, 0.0f};

  const float armAngle = p.pose == MannequinPose::TPose ? 0.0f : p.aPoseArmAngleDegrees * kPi / 180.0f;
  for (int s = 0; s < 2; ++s) {
    const float side = s == 0 ? 1.0f : -1.0f;  // left = +X
    const int base = s == 0 ? kClavicleL : kClavicleR;
    const glm::vec3 dir(side * std::cos(armAngle), -std::sin(armAngle), 0.0f);
    J[std::size_t(base)] = {side * 0.02f, yShoulder + 0.01f * H, 0.0f};
    J[std::size_t(base + 1)] = {side * 0.5f * p.shoulderWidth, yShoulder, 0.0f};
    J[std::size_t(base + 2)] = J[std::size_t(base + 1)] + 0.56f * p.armLength * dir;  // elbow
    J[std::size_t(base + 3)] = J[std::size_t(base + 2)] + 0.44f * p.armLength * dir;  // wrist
    body.handTip[s] = J[std::size_t(base + 3)] + 0.09f * H * dir;

    const int leg = s == 0 ? kThighL : kThighR;
    J[std::size_t(leg)] = {side * xHip, yHip, 0.0f};
    J[std::size_t(leg + 1)] = {side * (xHip + 0.012f), yKnee, 0.005f};
    J[std::size_t(leg + 2)] = {side * (xHip + 0.02f), yAnkle, -0.01f};

    // Arm radii: the upper-arm girth is the section at mid upper arm.
    const float rArm = p.upperArmGirth / (2.0f * kPi);
    const std::size_t si = std::size_t(s);
    body.clavicle[si] = {J[std::size_t(base)], J[std::size_t(base + 1)], 0.04f * H / 1.75f, 1.1f * rArm};
    body.upperArm[si] = {J[std::size_t(base + 1)], J[std::size_t(base + 2)], 1.1f * rArm, 0.8f * rArm};
    body.forearm[si] = {J[std::size_t(base + 2)], J[std::size_t(base + 3)], 0.8f * rArm, 0.55f * rArm};
    body.hand[si] = {J[std::size_t(base + 3)], body.handTip[s], 0.55f * rArm, 0.4f * rArm};

    // Legs: the thigh starts at the crotch (above it the torso carries the hip), its top
    // radius is fitted to the thigh girth; knee and ankle radii follow the thigh.
    const glm::vec3 hip = J[std::size_t(leg)], knee = J[std::size_t(leg + 1)], ankle = J[std::size_t(leg + 2)];
    const float tCrotch = (hip.y - p.legLength) / (hip.y - knee.y);
    const glm::vec3 thighStart = hip + tCrotch * (knee - hip);
    const float rKnee = 0.62f * thighRadius, rAnkle = 0.38f * thighRadius;
    body.thigh[si] = {thighStart, knee, thighTopRadius, rKnee};
    body.shin[si] = {knee, ankle, rKnee, rAnkle};
    // Foot: length 0.152 H (Winter), heel and toe spheres resting on the floor.
    const float footLength = 0.152f * H, rHeel = 0.036f * H / 1.75f, rToe = 0.026f * H / 1.75f;
    const glm::vec3 heel(ankle.x, rHeel, ankle.z - 0.07f * H / 1.75f + rHeel);
    const glm::vec3 toe(ankle.x + side * 0.01f, rToe, ankle.z - 0.07f * H / 1.75f + footLength - rToe);
    body.foot[si] = {heel, toe, rHeel, rToe, 1.35f};
    body.toeTip[s] = toe;
  }

  // Torso sections: widths from the girths (ellipse perimeter = girth), scaled by the fit.
  const float aChest = fit.chest * p.chestGirth / ellipsePerimeter(1.0f, kChestAspect);
  const float aWaist = fit.waist * p.waistGirth / ellipsePerimeter(1.0f, kWaistAspect);
  const float aHip = fit.hip * p.hipGirth / ellipsePerimeter(1.0f, kHipAspect);
  body.hipZ = -0.01f;
  body.torso.keys = {
      {p.legLength + fit.crotchKeyOffset, 0.8f * aHip, 0.8f * kHipAspect * aHip, body.hipZ},
      {yHip, aHip, kHipAspect * aHip, body.hipZ},
      {yWaist, aWaist, kWaistAspect * aWaist, 0.0f},
      {yChest, aChest, kChestAspect * aChest, 0.01f},
      {yShoulder - 0.03f * H, std::max(0.95f * aChest, 0.45f * p.shoulderWidth), 0.9f * kChestAspect * aChest, 0.0f},
      {yShoulder + 0.015f * H, 0.36f * p.shoulderWidth, 0.6f * kChestAspect * aChest, -0.01f},
  };

  const float rNeck = fit.neck * p.neckGirth / (2.0f * kPi);
  body.neck = {{0.0f, yNeck - 0.03f, -0.01f}, {0.0f, yHead + 0.03f, 0.0f}, rNeck, rNeck};
  // Head: top at H; height 0.13 H (chin at 0.87 H), breadth 0.088 H, length 0.112 H.
  body.head = {{0.0f, H - 0.065f * H, 0.01f}, {0.044f * H, 0.065f * H, 0.056f * H}};
  return body;
}

// ---------------------------------------------------------------------------------------
// Measurements of the implicit body (the girth fit).

/// Girth of the implicit body's horizontal section at height y around `center` (x, z):
/// rays from the centre to the first surface crossing, convex-hull perimeter. NaN when the
/// centre is outside the body.
float fieldGirth(const Body& body, float y, glm::vec2 center) {
  constexpr int kRays = 180;
  constexpr float kStep = 0.004f, kMaxRadius = 0.6f;
  const auto at = [&](glm::vec2 q) { return body.value({q.x, y, q.y}); };
  if (!(at(center) < 0.0f)) return kNaN;
  std::vector<glm::vec2> points;
  points.reserve(kRays);
  for (int r = 0; r < kRays; ++r) {
    const float angle = 2.0f * kPi * float(r) / float(kRays);
    const glm::vec2 dir(std::cos(angle), std::sin(angle));
    float inside = 0.0f, outside = kStep;
    while (at(center + outside * dir) < 0.0f && outside < kMaxRadius) {
      inside = outside;
      outside += kStep;
    }
    for (int it = 0; it < 20; ++it) {
      const float mid = 0.5f * (inside + outside);
      (at(center + mid * dir) < 0.0f ? inside : outside) = mid;
    }
    points.push_back(center + 0.5f * (inside + outside) * dir);
  }
  return convexHullPerimeter(std::move(points));
}

/// Lowest inside point of the implicit body on the vertical lines x = 0 near the hip centre.
float fieldCrotchHeight(const Body& body) {
  const float yHip = body.joints[kPelvis].y;
  float lowest = yHip;
  const float depth = body.torso.keys.front().b;
  for (int dz = -20; dz <= 20; ++dz) {
    const float z = body.hipZ + depth * float(dz) / 20.0f;
    const auto at = [&](float y) { return body.value({0.0f, y, z}); };
    if (!(at(yHip) < 0.0f)) continue;
    float inside = yHip, outside = yHip;
    while (at(outside) < 0.0f && outside > 0.0f) {
      inside = outside;
      outside -= 0.004f;
    }
    for (int it = 0; it < 20; ++it) {
      const float mid = 0.5f * (inside + outside);
      (at(mid) < 0.0f ? inside : outside) = mid;
    }
    lowest = std::min(lowest, 0.5f * (inside + outside));
  }
  return lowest;
}

// ---------------------------------------------------------------------------------------
// Skin weights.

/// Share of a part's weight given to the joints at its ends: within `blend` metres of the
/// proximal joint (axial coordinate s = 0) half goes to `proximal` at s = 0, within `blend`
/// of the distal joint (s = length) half to `distal`.
struct PartBinding {
  int owner = 0;
  int proximal = -1, distal = -1;
  glm::vec3 a{0.0f}, b{0.0f};  ///< axis from the proximal to the distal joint
};

void addPartInfluences(const PartBinding& bind, glm::vec3 p, float weight,
                       std::vector<std::pair<std::uint32_t, float>>& out) {
  const glm::vec3 d = bind.b - bind.a;
  const float length = glm::length(d);
  const float s = glm::dot(p - bind.a, d) / length;
  const float blend = std::min(0.06f, 0.3f * length);
  const float toProximal = bind.proximal >= 0 ? 1.0f - smoothStep(-blend, blend, s) : 0.0f;
  const float toDistal = bind.distal >= 0 ? smoothStep(length - blend, length + blend, s) : 0.0f;
  out.emplace_back(std::uint32_t(bind.owner), weight * (1.0f - toProximal - toDistal));
  if (toProximal > 0.0f) out.emplace_back(std::uint32_t(bind.proximal), weight * toProximal);
  if (toDistal > 0.0f) out.emplace_back(std::uint32_t(bind.distal), weight * toDistal);
}

/// Torso weights by height: pelvis below the waist, spine between waist and chest, chest
/// above, blended over +-blend around the spine and chest joints (half-half at the joint).
void addTorsoInfluences(const Body& body, float y, float weight, std::vector<std::pair<std::uint32_t, float>>& out) {
  constexpr float kBlend = 0.05f;  // m
  const float toSpine = smoothStep(body.joints[kSpine].y - kBlend, body.joints[kSpine].y + kBlend, y);
  const float toChest = smoothStep(body.joints[kChest].y - kBlend, body.joints[kChest].y + kBlend, y);
  out.emplace_back(std::uint32_t(kPelvis), weight * (1.0f - toSpine));
  out.emplace_back(std::uint32_t(kSpine), weight * (toSpine - toChest));
  out.emplace_back(std::uint32_t(kChest), weight * toChest);
}

SkinWeights computeSkinWeights(const Body& body, const std::vector<glm::vec3>& positions) {
  const auto& J = body.joints;
  std::array<PartBinding, kPartCount> bindings{};
  bindings[kNeckPart] = {kNeck, kChest, kHead, J[kNeck], J[kHead]};
  bindings[kHeadPart] = {kHead, -1, -1, J[kHead], J[kHead] + glm::vec3(0.0f, 0.1f, 0.0f)};
  for (int s = 0; s < 2; ++s) {
    const int arm = s == 0 ? kClavicleL : kClavicleR;
    const int armPart = s == 0 ? kClavicleLPart : kClavicleRPart;
    const std::size_t ap = std::size_t(armPart), aj = std::size_t(arm);
    bindings[ap] = {arm, kChest, arm + 1, J[aj], J[aj + 1]};
    bindings[ap + 1] = {arm + 1, arm, arm + 2, J[aj + 1], J[aj + 2]};
    bindings[ap + 2] = {arm + 2, arm + 1, arm + 3, J[aj + 2], J[aj + 3]};
    bindings[ap + 3] = {arm + 3, arm + 2, -1, J[aj + 3], body.handTip[s]};
    const int leg = s == 0 ? kThighL : kThighR;
    const int legPart = s == 0 ? kThighLPart : kThighRPart;
    const std::size_t lp = std::size_t(legPart), lj = std::size_t(leg);
    bindings[lp] = {leg, kPelvis, leg + 1, J[lj], J[lj + 1]};
    bindings[lp + 1] = {leg + 1, leg, leg + 2, J[lj + 1], J[lj + 2]};
    bindings[lp + 2] = {leg + 2, -1, -1, J[lj + 2], body.toeTip[s]};
  }
  // A part's weight falls from 1 on its own surface to 0 at kPartFalloff (m) outside the
  // nearest part's surface: parts meeting in a smooth-union crease share its vertices.
  constexpr float kPartFalloff = 0.025f;
  SkinWeights skin;
  skin.joints.reserve(positions.size());
  skin.weights.reserve(positions.size());
  std::vector<std::pair<std::uint32_t, float>> influences;
  for (const glm::vec3& p : positions) {
    const std::array<float, kPartCount> f = body.parts(p);
    const float nearest = *std::min_element(f.begin(), f.end());
    influences.clear();
    for (int part = 0; part < kPartCount; ++part) {
      const float u = 1.0f - std::clamp((f[std::size_t(part)] - nearest) / kPartFalloff, 0.0f, 1.0f);
      if (u <= 0.0f) continue;
      if (part == kTorsoPart)
        addTorsoInfluences(body, p.y, u * u, influences);
      else
        addPartInfluences(bindings[std::size_t(part)], p, u * u, influences);
    }
    // Merge duplicate joints before keeping the four largest.
    std::sort(influences.begin(), influences.end());
    std::vector<std::pair<std::uint32_t, float>> merged;
    for (const auto& inf : influences) {
      if (!merged.empty() && merged.back().first == inf.first)
        merged.back().second += inf.second;
      else
        merged.push_back(inf);
    }
    appendInfluences(skin, std::move(merged), kPelvis);
  }
  return skin;
}

// ---------------------------------------------------------------------------------------
// Building.

/// The girth fit on the implicit body: each measurement of the body and the value asked for.
struct Measured {
  const char* name;
  float requested, measured;
};

/// The implicit body's chest, waist, hip, neck and thigh girths and crotch height.
std::array<Measured, 6> measureImplicitBody(const Body& body, const MannequinParams& p) {
  const float crotch = fieldCrotchHeight(body);
  const glm::vec3 hip = body.joints[kThighL], knee = body.joints[kShinL];
  const float thighY = p.legLength - kThighGirthBelowCrotch;
  return {{
      {"chestGirth", p.chestGirth, fieldGirth(body, body.joints[kChest].y, {0.0f, 0.0f})},
      {"waistGirth", p.waistGirth, fieldGirth(body, body.joints[kSpine].y, {0.0f, 0.0f})},
      {"hipGirth", p.hipGirth, fieldGirth(body, body.joints[kPelvis].y, {0.0f, body.hipZ})},
      {"neckGirth", p.neckGirth, fieldGirth(body, 0.5f * (body.joints[kNeck].y + body.joints[kHead].y), {0.0f, 0.0f})},
      {"thighGirth", p.thighGirth, fieldGirth(body, thighY, thighAxisAt(hip, knee, thighY))},
      {"legLength", p.legLength, crotch},
  }};
}

/// Fits the girths and the crotch height on the implicit body: scales each section by
/// requested / measured until every measurement is within kFitTolerance. Error: a
/// measurement still off by more than kAcceptedFitError after the iterations.
Result<Body> fitBody(const MannequinParams& p) {
  constexpr float kFitTolerance = 0.0005f;  // m
  constexpr int kMaxFitIterations = 12;
  FitState fit;
  Body body = makeBody(p, fit);
  std::array<Measured, 6> measured{};
  for (int iteration = 0;; ++iteration) {
    measured = measureImplicitBody(body, p);
    const float crotch = measured[5].measured;
    bool converged = true;
    for (const Measured& m : measured)
      if (!(std::abs(m.measured - m.requested) <= kFitTolerance)) converged = false;
    if (converged || iteration == kMaxFitIterations) break;
    const auto ratio = [](const Measured& m) {
      return std::isfinite(m.measured) && m.measured > 0.0f ? m.requested / m.measured : 1.0f;
    };
    fit.chest *= ratio(measured[0]);
    fit.waist *= ratio(measured[1]);
    fit.hip *= ratio(measured[2]);
    fit.neck *= ratio(measured[3]);
    fit.thigh *= ratio(measured[4]);
    if (std::isfinite(crotch)) fit.crotchKeyOffset += p.legLength - crotch;
    body = makeBody(p, fit);
  }
  constexpr float kAcceptedFitError = 0.01f;  // m
  for (const Measured& m : measured)
    if (!(std::abs(m.measured - m.requested) <= kAcceptedFitError))
      return Error{"mannequin: could not fit " + std::string(m.name) + " = " + std::to_string(m.requested) +
                   " m (the body measures " + std::to_string(m.measured) +
                   " m); the parameters are inconsistent (e.g. a girth too large for the shoulder width, hip or "
                   "arm angle)"};
  return body;
}

/// The extraction box: the parts' bounding boxes grown by a margin, its bottom half a cell
/// below the floor so that no sample lies on the floor plane.
Box3 extractionBox(const Body& body, float cellSize) {
  Box3 box{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(-std::numeric_limits<float>::max())};
  const auto grow = [&box](glm::vec3 c, float r) {
    box.min = glm::min(box.min, c - glm::vec3(r));
    box.max = glm::max(box.max, c + glm::vec3(r));
  };
  for (const auto* group :
       {&body.clavicle, &body.upperArm, &body.forearm, &body.hand, &body.thigh, &body.shin, &body.foot})
    for (const TaperedCapsule& c : *group) {
      grow(c.a, std::max(c.ra, c.rb) * c.widthScale);
      grow(c.b, std::max(c.ra, c.rb) * c.widthScale);
    }
  for (const TorsoKey& k : body.torso.keys) grow({0.0f, k.y, k.z}, std::max(k.a, k.b));
  grow(body.neck.a, body.neck.ra);
  grow(body.neck.b, body.neck.rb);
  grow(body.head.center, std::max({body.head.radii.x, body.head.radii.y, body.head.radii.z}));
  const float margin = 0.05f + 2.0f * cellSize;
  box.min -= glm::vec3(margin);
  box.max += glm::vec3(margin);
  box.min.y = -1.5f * cellSize;
  return box;
}

/// The mannequin's skeleton with rest translations from the joint positions (identity
/// rotations), inverse bind matrices set.
Skeleton mannequinSkeleton(const std::array<glm::vec3, kJointCount>& joints) {
  Skeleton skeleton;
  skeleton.joints.resize(kJointCount);
  for (int j = 0; j < kJointCount; ++j) {
    Joint& joint = skeleton.joints[std::size_t(j)];
    joint.name = kJointNames[std::size_t(j)];
    joint.parent = kJointParents[std::size_t(j)];
    const glm::vec3 parentPosition = joint.parent < 0 ? glm::vec3(0.0f) : joints[std::size_t(joint.parent)];
    joint.rest.translation = joints[std::size_t(j)] - parentPosition;
  }
  skeleton.computeInverseBind();
  return skeleton;
}

std::string rangeText(float lo, float hi, const char* unit) {
  std::string text = "[";
  text += std::to_string(lo);
  text += ", ";
  text += std::to_string(hi);
  text += "] ";
  text += unit;
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------------------

MannequinParams MannequinParams::resolved() const {
  MannequinParams p = *this;
  const float s = height / 1.75f;
  const auto orDefault = [](float& value, float fallback) {
    if (value == 0.0f) value = fallback;
  };
  orDefault(p.chestGirth, 0.96f * s);
  orDefault(p.waistGirth, 0.80f * s);
  orDefault(p.hipGirth, 0.98f * s);
  orDefault(p.neckGirth, 0.38f * s);
  orDefault(p.upperArmGirth, 0.30f * s);
  orDefault(p.thighGirth, 0.56f * s);
  orDefault(p.shoulderWidth, 0.215f * height);
  orDefault(p.armLength, 0.332f * height);
  orDefault(p.legLength, 0.46f * height);
  return p;
}

Status MannequinParams::validate() const {
  const auto check = [](const char* name, float value, float lo, float hi, const char* unit) -> Status {
    if (!std::isfinite(value) || value < lo || value > hi)
      return Error{std::string("mannequin parameter ") + name + " = " + std::to_string(value) + " " + unit +
                   " is outside the accepted range " + rangeText(lo, hi, unit)};
    return {};
  };
  if (Status s = check("height", height, 1.2f, 2.3f, "m"); !s) return s;
  const MannequinParams p = resolved();
  const float H = p.height;
  const std::array<std::tuple<const char*, float, float, float>, 9> lengths = {{
      {"chestGirth", p.chestGirth, 0.55f * H / 1.75f, 1.50f * H / 1.75f},
      {"waistGirth", p.waistGirth, 0.45f * H / 1.75f, 1.40f * H / 1.75f},
      {"hipGirth", p.hipGirth, 0.65f * H / 1.75f, 1.50f * H / 1.75f},
      {"neckGirth", p.neckGirth, 0.25f * H / 1.75f, 0.55f * H / 1.75f},
      {"upperArmGirth", p.upperArmGirth, 0.18f * H / 1.75f, 0.45f * H / 1.75f},
      {"thighGirth", p.thighGirth, 0.35f * H / 1.75f, 0.75f * H / 1.75f},
      {"shoulderWidth", p.shoulderWidth, 0.17f * H, 0.27f * H},
      {"armLength", p.armLength, 0.28f * H, 0.38f * H},
      {"legLength", p.legLength, 0.40f * H, 0.52f * H},
  }};
  for (const auto& [name, value, lo, hi] : lengths)
    if (Status s = check(name, value, lo, hi, "m"); !s) return s;
  if (Status s = check("aPoseArmAngleDegrees", aPoseArmAngleDegrees, 0.0f, 60.0f, "degrees"); !s) return s;
  if (Status s = check("cellSize", cellSize, 0.004f, 0.03f, "m"); !s) return s;
  return {};
}

Result<SkinnedMesh> buildMannequin(const MannequinParams& params) {
  if (Status s = params.validate(); !s) return s.error();
  const MannequinParams p = params.resolved();
  Result<Body> fitted = fitBody(p);
  if (!fitted) return fitted.error();
  Body& body = *fitted;

  // Surface: marching tetrahedra over the body's bounding box.
  const Box3 box = extractionBox(body, p.cellSize);
  Result<TriangleMesh> surface = extractIsoSurface([&body](const glm::vec3& q) { return body.value(q); }, box,
                                                   IsoSurfaceSettings{p.cellSize, 64u << 20, kCollapseEdgeFraction});
  if (!surface) return surface.error().prefixed("mannequin: ");

  SkinnedMesh out;
  out.mesh = std::move(*surface);
  out.skin = computeSkinWeights(body, out.mesh.positions);

  // Feet exactly on y = 0: shift the surface and the skeleton by the lowest vertex.
  float lowest = std::numeric_limits<float>::max();
  for (const glm::vec3& q : out.mesh.positions) lowest = std::min(lowest, q.y);
  for (glm::vec3& q : out.mesh.positions) q.y -= lowest;
  for (glm::vec3& j : body.joints) j.y -= lowest;

  out.skeleton = mannequinSkeleton(body.joints);
  if (Status s = out.validate(); !s) return s.error().prefixed("mannequin: ");
  return out;
}

}  // namespace hg
