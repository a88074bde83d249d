#include "sim/skinning/ParticleSkinning.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

namespace hg {

namespace {

template <class Enum, std::size_t N>
Result<Enum> parseNamed(std::string_view name, const std::array<std::pair<std::string_view, Enum>, N>& table,
                        std::string_view what) {
  std::string known;
  for (const auto& [text, value] : table) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(text);
  }
  return Error{"unknown " + std::string(what) + " '" + std::string(name) + "' (known: " + known + ")"};
}

constexpr std::array<std::pair<std::string_view, ParticleIntegrator>, 3> kIntegrators{{
    {"improved_euler", ParticleIntegrator::ImprovedEuler},
    {"adams", ParticleIntegrator::Adams},
    {"leapfrog", ParticleIntegrator::Leapfrog},
}};
constexpr std::array<std::pair<std::string_view, BoneAssignment>, 2> kAssignments{{
    {"segment", BoneAssignment::Segment},
    {"obb", BoneAssignment::Obb},
}};
constexpr std::array<std::pair<std::string_view, BoneTarget>, 2> kTargets{{
    {"bone", BoneTarget::Bone},
    {"dual_quaternion", BoneTarget::DualQuaternion},
}};
constexpr std::array<std::pair<std::string_view, BoneAttachment>, 2> kAttachments{{
    {"uniform", BoneAttachment::Uniform},
    {"skin_weights", BoneAttachment::SkinWeights},
}};
constexpr std::array<std::pair<std::string_view, SurfaceFrame>, 2> kFrames{{
    {"bone", SurfaceFrame::Bone},
    {"local", SurfaceFrame::Local},
}};
constexpr std::array<std::pair<std::string_view, SurfaceWeights>, 2> kWeights{{
    {"average", SurfaceWeights::Average},
    {"inverse_distance", SurfaceWeights::InverseDistance},
}};

template <class Enum, std::size_t N>
std::string_view nameOf(Enum value, const std::array<std::pair<std::string_view, Enum>, N>& table) {
  for (const auto& [text, v] : table)
    if (v == value) return text;
  return "?";
}

bool finitePositive(float x) { return std::isfinite(x) && x > 0.0f; }
bool finiteNonNegative(float x) { return std::isfinite(x) && x >= 0.0f; }

}  // namespace

std::string_view particleIntegratorName(ParticleIntegrator integrator) { return nameOf(integrator, kIntegrators); }
Result<ParticleIntegrator> parseParticleIntegrator(std::string_view name) {
  return parseNamed(name, kIntegrators, "integrator");
}
std::string_view boneAssignmentName(BoneAssignment assignment) { return nameOf(assignment, kAssignments); }
Result<BoneAssignment> parseBoneAssignment(std::string_view name) {
  return parseNamed(name, kAssignments, "bone assignment");
}
std::string_view boneAttachmentName(BoneAttachment attachment) { return nameOf(attachment, kAttachments); }
Result<BoneAttachment> parseBoneAttachment(std::string_view name) {
  return parseNamed(name, kAttachments, "bone attachment");
}
std::string_view boneTargetName(BoneTarget target) { return nameOf(target, kTargets); }
Result<BoneTarget> parseBoneTarget(std::string_view name) { return parseNamed(name, kTargets, "bone target"); }
std::string_view surfaceFrameName(SurfaceFrame frame) { return nameOf(frame, kFrames); }
Result<SurfaceFrame> parseSurfaceFrame(std::string_view name) { return parseNamed(name, kFrames, "surface frame"); }
std::string_view surfaceWeightsName(SurfaceWeights weights) { return nameOf(weights, kWeights); }
Result<SurfaceWeights> parseSurfaceWeights(std::string_view name) {
  return parseNamed(name, kWeights, "surface weights");
}

Status ParticleSkinSettings::validate() const {
  const auto bad = [](const std::string& what) { return Status(Error{"particle skinning: " + what}); };
  if (!finitePositive(fill.radius)) return bad("particles.radius must be > 0 (m)");
  if (fill.levels < 1 || fill.levels > 8) return bad("particles.levels must be 1..8");
  if (!std::isfinite(fill.radiusRatio) || fill.radiusRatio < 1.5f) return bad("particles.radius_ratio must be >= 1.5");
  if (!finiteNonNegative(fill.surfaceMargin)) return bad("particles.surface_margin must be >= 0");
  if (!finitePositive(interactionGap)) return bad("interaction_gap must be > 0 (times the smaller radius)");
  if (!finitePositive(springStiffness)) return bad("spring_stiffness must be > 0 (1/s^2)");
  if (!finiteNonNegative(springDamping)) return bad("spring_damping must be >= 0 (1/s)");
  if (!finitePositive(boneStiffness)) return bad("bone_stiffness must be > 0 (1/s^2)");
  if (!finiteNonNegative(boneDamping)) return bad("bone_damping must be >= 0 (1/s)");
  if (!std::isfinite(attachmentThreshold) || attachmentThreshold < 0.0f || attachmentThreshold >= 1.0f)
    return bad("attachment_threshold must be in [0, 1)");
  if (iterations < 0 || iterations > 100) return bad("iterations must be 0..100 (the source's cap)");
  if (iterations > 0 && integrator == ParticleIntegrator::ImprovedEuler)
    return bad("iterations apply to adams and leapfrog only (improved_euler has a fixed corrector)");
  if (!finitePositive(timeStep)) return bad("time_step must be > 0 (s)");
  return Status::success();
}

ParticleTargets particleTargets(const ParticleSkinModel& model, std::span<const glm::mat4> skinningMatrices) {
  ParticleTargets targets;
  std::vector<kernels::DualQuaternion> joints(skinningMatrices.size());
  targets.boneRotations.resize(skinningMatrices.size());
  for (std::size_t j = 0; j < skinningMatrices.size(); ++j) {
    joints[j] = kernels::rigidDualQuaternion(skinningMatrices[j]);
    targets.boneRotations[j] = joints[j].real;
  }
  const std::size_t n = model.particleCount();
  targets.positions.resize(n);
  if (model.settings.boneTarget == BoneTarget::Bone) {
#pragma omp parallel for schedule(static) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      const kernels::ParticleRest& rest = model.particles[i];
      targets.positions[i] = skinningMatrices[rest.bone.x] * glm::vec4(glm::vec3(rest.position), 1.0f);
    }
    return targets;
  }
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (std::size_t i = 0; i < n; ++i) {
    const kernels::ParticleRest& rest = model.particles[i];
    const kernels::DualQuaternion q = kernels::blendDualQuaternions(
        joints[rest.joints.x], joints[rest.joints.y], joints[rest.joints.z], joints[rest.joints.w], rest.weights);
    targets.positions[i] = glm::vec4(kernels::dualQuaternionTransformPoint(q, glm::vec3(rest.position)), 1.0f);
  }
  return targets;
}

std::vector<glm::vec4> surfaceNormals(std::span<const glm::vec4> positions, std::span<const std::uint32_t> indices) {
  std::vector<glm::vec3> sums(positions.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const std::uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const glm::vec3 n = glm::cross(glm::vec3(positions[b] - positions[a]), glm::vec3(positions[c] - positions[a]));
    sums[a] += n;
    sums[b] += n;
    sums[c] += n;
  }
  std::vector<glm::vec4> normals(positions.size());
  for (std::size_t v = 0; v < sums.size(); ++v) {
    const float len = glm::length(sums[v]);
    normals[v] = glm::vec4(len > 0.0f ? sums[v] / len : glm::vec3(0.0f), 0.0f);
  }
  return normals;
}

Result<int> ParticleSkinner::settle(const Pose& pose, float speedTolerance, int maxSteps, int checkEvery) {
  if (!(speedTolerance > 0.0f) || maxSteps < 0 || checkEvery < 1)
    return Error{"particle skinning: settle needs speedTolerance > 0, maxSteps >= 0, checkEvery >= 1"};
  int steps = 0;
  while (steps < maxSteps) {
    const int chunk = std::min(checkEvery, maxSteps - steps);
    if (Status advanced = advance(pose, chunk); !advanced) return advanced.error();
    steps += chunk;
    float fastest = 0.0f;
    for (const glm::vec4& v : readParticles().velocities) fastest = std::max(fastest, glm::length(glm::vec3(v)));
    if (fastest < speedTolerance) return steps;
  }
  return maxSteps + 1;
}

}  // namespace hg
