#include "sim/skinning/SkinningRig.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "sim/body/Mannequin.h"
#include "sim/core/Limits.h"
#include "sim/io/SceneJson.h"
#include "sim/motion/CharacterIO.h"

namespace hg {

namespace fs = std::filesystem;
using scenejson::json;
using scenejson::SceneError;

namespace {

/// A closed box mesh along +x from 0 to size.x, centred on the x axis, with `subdivisions`
/// divisions across y and z and enough along x for square-ish cells.
TriangleMesh boxAlongX(glm::vec3 size, int subdivisions) {
  return makeBox(glm::vec3(0.0f, -0.5f * size.y, -0.5f * size.z), glm::vec3(size.x, 0.5f * size.y, 0.5f * size.z),
                 subdivisions);
}

std::shared_ptr<SkinnedMesh> twoBoneBody(TriangleMesh mesh, float length, float blend) {
  auto body = std::make_shared<SkinnedMesh>();
  body->mesh = std::move(mesh);
  for (int k = 0; k < 2; ++k) {
    Joint joint;
    joint.name = k == 0 ? "root" : "joint";
    joint.parent = k - 1;
    joint.rest.translation = glm::vec3(k == 0 ? 0.0f : 0.5f * length, 0.0f, 0.0f);
    body->skeleton.joints.push_back(joint);
  }
  body->skeleton.computeInverseBind();
  const float half = 0.5f * length;
  for (const glm::vec3& x : body->mesh.positions) {
    const float w = blend > 0.0f ? glm::clamp((x.x - half) / blend + 0.5f, 0.0f, 1.0f) : (x.x >= half ? 1.0f : 0.0f);
    appendInfluences(body->skin, {{0u, 1.0f - w}, {1u, w}});
  }
  return body;
}

std::string text(const json& object, const std::string& where, const char* key, const std::string& fallback) {
  if (!object.contains(key)) return fallback;
  if (!object[key].is_string()) throw SceneError{where + "." + key + " must be a string"};
  return object[key].get<std::string>();
}

template <class T, class Parse>
T named(const json& object, const std::string& where, const char* key, T fallback, Parse parse) {
  if (!object.contains(key)) return fallback;
  auto parsed = parse(text(object, where, key, ""));
  if (!parsed) throw SceneError{where + "." + key + ": " + parsed.error().message};
  return *parsed;
}

ParticleSkinSettings parseParticles(const json& p, const std::string& where) {
  scenejson::checkKeys(
      p, where,
      {"radius", "levels", "radius_ratio", "surface_margin", "bone_assignment", "interaction_gap", "spring_stiffness",
       "spring_damping", "bone_stiffness", "bone_damping", "attachment", "attachment_threshold", "bone_target",
       "integrator", "iterations", "time_step", "surface_frame", "surface_weights"});
  ParticleSkinSettings s;
  s.fill.radius = scenejson::positive(p, where, "radius", s.fill.radius);
  s.fill.levels = scenejson::integer(p, where, "levels", s.fill.levels, 1, 8);
  s.fill.radiusRatio = scenejson::number(p, where, "radius_ratio", s.fill.radiusRatio);
  s.fill.surfaceMargin = scenejson::number(p, where, "surface_margin", s.fill.surfaceMargin);
  s.boneAssignment = named(p, where, "bone_assignment", s.boneAssignment, parseBoneAssignment);
  s.interactionGap = scenejson::positive(p, where, "interaction_gap", s.interactionGap);
  s.springStiffness = scenejson::positive(p, where, "spring_stiffness", s.springStiffness);
  s.springDamping = scenejson::number(p, where, "spring_damping", s.springDamping);
  s.boneStiffness = scenejson::positive(p, where, "bone_stiffness", s.boneStiffness);
  s.boneDamping = scenejson::number(p, where, "bone_damping", s.boneDamping);
  s.attachment = named(p, where, "attachment", s.attachment, parseBoneAttachment);
  s.attachmentThreshold = scenejson::number(p, where, "attachment_threshold", s.attachmentThreshold);
  s.boneTarget = named(p, where, "bone_target", s.boneTarget, parseBoneTarget);
  s.integrator = named(p, where, "integrator", s.integrator, parseParticleIntegrator);
  s.iterations = scenejson::integer(p, where, "iterations", s.iterations, 0, 100);
  s.timeStep = scenejson::positive(p, where, "time_step", s.timeStep);
  s.surfaceFrame = named(p, where, "surface_frame", s.surfaceFrame, parseSurfaceFrame);
  s.surfaceWeights = named(p, where, "surface_weights", s.surfaceWeights, parseSurfaceWeights);
  if (Status valid = s.validate(); !valid) throw SceneError{where + ": " + valid.error().message};
  return s;
}

/// Rest global rotation of a joint (unit quaternion).
glm::quat restGlobalRotation(const Skeleton& skeleton, int joint) {
  const glm::mat4 global = glm::inverse(skeleton.inverseBind[std::size_t(joint)]);
  return glm::normalize(glm::quat_cast(glm::mat3(global)));
}

SkinningRig parseRig(const json& doc, const fs::path& path) {
  const std::string where = "rig";
  if (!doc.is_object()) throw SceneError{"the rig must be a JSON object"};
  scenejson::checkKeys(doc, where,
                       {"name", "body", "joint", "zone_radius", "motion", "steps_per_frame", "settle", "particles",
                        "methods", "self_intersections_from_degrees", "self_intersections_to_degrees", "output"});
  SkinningRig rig;
  rig.sourcePath = path;
  rig.name = doc.contains("name") ? scenejson::outputName(doc["name"], "rig.name") : path.stem().string();

  // Body.
  if (!doc.contains("body") || !doc["body"].is_object()) throw SceneError{"rig.body (an object) is required"};
  const json& b = doc["body"];
  const std::string type = text(b, "rig.body", "type", "");
  std::vector<Animation> clips;
  int clip = 0;
  if (type == "two_bone_cylinder") {
    scenejson::checkKeys(b, "rig.body", {"type", "length", "radius", "rings", "segments", "blend"});
    const float length = scenejson::positive(b, "rig.body", "length", 2.0f);
    const int rings = scenejson::integer(b, "rig.body", "rings", 41, 3, limits::kMaxRigRings);
    const int segments = scenejson::integer(b, "rig.body", "segments", 32, 3, limits::kMaxRigRings);
    rig.body = makeTwoBoneCylinder(length, scenejson::positive(b, "rig.body", "radius", 0.25f), rings, segments,
                                   scenejson::number(b, "rig.body", "blend", 1.0f));
  } else if (type == "two_bone_box") {
    scenejson::checkKeys(b, "rig.body", {"type", "size", "subdivisions", "blend"});
    const glm::vec3 size = scenejson::vec3(b, "rig.body", "size", glm::vec3(2.0f, 0.5f, 0.5f));
    if (glm::any(glm::lessThanEqual(size, glm::vec3(0.0f)))) throw SceneError{"rig.body.size must be > 0"};
    const int subdivisions = scenejson::integer(b, "rig.body", "subdivisions", 24, 1, limits::kMaxRigSubdivisions);
    rig.body = makeTwoBoneBox(size, subdivisions, scenejson::number(b, "rig.body", "blend", 1.0f));
  } else if (type == "mannequin") {
    scenejson::checkKeys(b, "rig.body", {"type", "height", "cell_size"});
    MannequinParams params;
    params.height = scenejson::positive(b, "rig.body", "height", params.height);
    params.cellSize = scenejson::positive(b, "rig.body", "cell_size", 0.015f);
    auto built = buildMannequin(params);
    if (!built) throw SceneError{"rig.body: " + built.error().message};
    rig.body = std::make_shared<SkinnedMesh>(std::move(*built));
  } else if (type == "import") {
    scenejson::checkKeys(b, "rig.body", {"type", "path", "clip"});
    const fs::path file = path.parent_path() / text(b, "rig.body", "path", "");
    auto character = importCharacter(file);
    if (!character) throw SceneError{"rig.body: " + character.error().message};
    clips = std::move(character->animations);
    clip = scenejson::integer(b, "rig.body", "clip", 0, 0, 1 << 20);
    if (clip < 0 || std::size_t(clip) >= std::max<std::size_t>(clips.size(), 1))
      throw SceneError{"rig.body.clip " + std::to_string(clip) + ": " + file.string() + " has " +
                       std::to_string(clips.size()) + " animation(s)"};
    rig.body = std::make_shared<SkinnedMesh>(std::move(character->body));
  } else {
    throw SceneError{"rig.body.type '" + type + "' unknown (two_bone_cylinder, two_bone_box, mannequin, import)"};
  }
  const Skeleton& skeleton = rig.body->skeleton;

  const std::string jointName = text(doc, where, "joint", "");
  rig.joint = skeleton.find(jointName);
  if (rig.joint < 0) throw SceneError{"rig.joint '" + jointName + "' is not a joint of the body"};
  rig.zoneRadius = scenejson::positive(doc, where, "zone_radius", rig.zoneRadius);

  // Motion.
  if (!doc.contains("motion") || !doc["motion"].is_object()) throw SceneError{"rig.motion (an object) is required"};
  const json& m = doc["motion"];
  const std::string motion = text(m, "rig.motion", "type", "");
  const Pose rest = restPose(skeleton);
  if (motion == "rotate" || motion == "twist") {
    scenejson::checkKeys(m, "rig.motion", {"type", "axis", "from_degrees", "to_degrees", "frames"});
    const float from = scenejson::number(m, "rig.motion", "from_degrees", 0.0f);
    const float to = scenejson::number(m, "rig.motion", "to_degrees", motion == "twist" ? 180.0f : 90.0f);
    const int frames = scenejson::integer(m, "rig.motion", "frames", 19, 2, limits::kMaxMotionFrames);
    glm::vec3 axis;
    if (motion == "rotate") {
      axis = scenejson::vec3(m, "rig.motion", "axis", glm::vec3(0.0f, 0.0f, 1.0f));
    } else {  // twist: about the bone direction (the joint's axis polyline, joint -> child)
      const JointAxis restAxis = jointAxisFor(*rig.body, rig.joint, rest);
      axis = restAxis.child - restAxis.joint;
    }
    if (!(glm::length(axis) > 0.0f)) throw SceneError{"rig.motion.axis must not be zero"};
    const glm::vec3 local = glm::inverse(restGlobalRotation(skeleton, rig.joint)) * glm::normalize(axis);
    rig.parameterName = motion == "twist" ? "twist (degrees)" : "bend (degrees)";
    for (int f = 0; f < frames; ++f) {
      const float degrees = from + (to - from) * float(f) / float(frames - 1);
      Pose pose = rest;
      Transform& t = pose[std::size_t(rig.joint)];
      t.rotation = t.rotation * glm::angleAxis(glm::radians(degrees), local);
      rig.parameters.push_back(degrees);
      rig.poses.push_back(std::move(pose));
    }
  } else if (motion == "animation") {
    scenejson::checkKeys(m, "rig.motion", {"type", "frames"});
    if (clips.empty()) throw SceneError{"rig.motion.type 'animation' needs an imported body with an animation"};
    const int frames = scenejson::integer(m, "rig.motion", "frames", 30, 2, limits::kMaxMotionFrames);
    const Animation& animation = clips[std::size_t(clip)];
    rig.parameterName = "time (s)";
    for (int f = 0; f < frames; ++f) {
      const float t = animation.duration * float(f) / float(frames - 1);
      rig.parameters.push_back(t);
      rig.poses.push_back(animation.sample(skeleton, t));
    }
  } else {
    throw SceneError{"rig.motion.type '" + motion + "' unknown (rotate, twist, animation)"};
  }

  rig.stepsPerFrame =
      scenejson::integer(doc, where, "steps_per_frame", rig.stepsPerFrame, 1, limits::kMaxStepsPerFrame);
  if (doc.contains("settle")) {
    const json& s = doc["settle"];
    if (s.is_boolean()) {
      rig.settleEachFrame = s.get<bool>();
    } else {
      scenejson::checkKeys(s, "rig.settle", {"speed", "max_steps"});
      rig.settleSpeed = scenejson::positive(s, "rig.settle", "speed", rig.settleSpeed);
      rig.settleMaxSteps =
          scenejson::integer(s, "rig.settle", "max_steps", rig.settleMaxSteps, 0, limits::kMaxSettleSteps);
    }
  }
  if (doc.contains("particles")) rig.particles = parseParticles(doc["particles"], "rig.particles");
  if (doc.contains("methods")) {
    if (!doc["methods"].is_array() || doc["methods"].empty()) throw SceneError{"rig.methods must be a non-empty array"};
    rig.methods.clear();
    for (const json& name : doc["methods"]) {
      if (!name.is_string()) throw SceneError{"rig.methods must hold strings"};
      const std::string method = name.get<std::string>();
      if (method != "particle" && !parseSkinningMethod(method))
        throw SceneError{"rig.methods: unknown method '" + method + "' (linear, dual_quaternion, particle)"};
      rig.methods.push_back(method == "lbs" ? "linear" : method == "dqs" ? "dual_quaternion" : method);
    }
  }
  rig.intersectionsFrom = scenejson::number(doc, where, "self_intersections_from_degrees", rig.intersectionsFrom);
  rig.intersectionsTo = scenejson::number(doc, where, "self_intersections_to_degrees", rig.intersectionsTo);
  if (doc.contains("output")) {
    const json& o = doc["output"];
    scenejson::checkKeys(o, "rig.output", {"directory", "obj_every", "image_width", "image_height"});
    rig.outputDirectory = text(o, "rig.output", "directory", rig.outputDirectory.string());
    rig.objEvery = scenejson::integer(o, "rig.output", "obj_every", rig.objEvery, 0, limits::kMaxMotionFrames);
    rig.imageWidth = scenejson::integer(o, "rig.output", "image_width", rig.imageWidth, limits::kMinImageSide,
                                        limits::kMaxImageSide);
    rig.imageHeight = scenejson::integer(o, "rig.output", "image_height", rig.imageHeight, limits::kMinImageSide,
                                         limits::kMaxImageSide);
  }
  return rig;
}

bool inIntersectionRange(const SkinningRig& rig, std::size_t frame) {
  return rig.angleRig() && std::abs(rig.parameters[frame]) >= rig.intersectionsFrom &&
         std::abs(rig.parameters[frame]) <= rig.intersectionsTo;
}

template <class Skin>
Result<RigMethodRun> runFrames(const SkinningRig& rig, std::string method, const RigFrameCallback& onFrame,
                               Skin&& skinFrame) {
  auto meter = JointZoneMeter::create(rig.body->mesh, jointAxisFor(*rig.body, rig.joint, restPose(rig.body->skeleton)),
                                      rig.zoneRadius);
  if (!meter) return meter.error().prefixed(rig.name + ": ");
  RigMethodRun run;
  run.method = std::move(method);
  for (std::size_t f = 0; f < rig.poses.size(); ++f) {
    const auto start = std::chrono::steady_clock::now();
    int settleSteps = 0;
    auto positions = skinFrame(rig.poses[f], settleSteps);
    if (!positions)
      return positions.error().prefixed(rig.name + " frame " + std::to_string(f) + " (" + run.method + "): ");
    run.milliseconds.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    run.settleSteps.push_back(settleSteps);
    run.ratios.push_back(
        meter->ratios(*positions, jointAxisFor(*rig.body, rig.joint, rig.poses[f]), inIntersectionRange(rig, f)));
    if (onFrame)
      if (Status s = onFrame(f, *positions); !s) return s.error();
  }
  return run;
}

}  // namespace

std::shared_ptr<SkinnedMesh> makeTwoBoneCylinder(float length, float radius, int rings, int segments, float blend) {
  return twoBoneBody(makeCylinder(length, radius, rings, segments), length, blend);
}

std::shared_ptr<SkinnedMesh> makeTwoBoneBox(glm::vec3 size, int subdivisions, float blend) {
  return twoBoneBody(boxAlongX(size, subdivisions), size.x, blend);
}

JointAxis jointAxisFor(const SkinnedMesh& body, int joint, const Pose& pose) {
  const Skeleton& skeleton = body.skeleton;
  const std::vector<glm::mat4> globals = globalMatrices(skeleton, pose);
  const std::vector<glm::mat4> skinning = skinningMatrices(skeleton, pose);
  const auto restPosition = [&](int j) { return glm::vec3(glm::inverse(skeleton.inverseBind[std::size_t(j)])[3]); };
  JointAxis axis;
  axis.joint = glm::vec3(globals[std::size_t(joint)][3]);
  const int parent = skeleton.joints[std::size_t(joint)].parent;
  axis.parent = parent >= 0 ? glm::vec3(globals[std::size_t(parent)][3]) : axis.joint;
  int child = -1;
  for (std::size_t j = 0; j < skeleton.size() && child < 0; ++j)
    if (skeleton.joints[j].parent == joint) child = int(j);
  if (child >= 0) {
    axis.child = glm::vec3(globals[std::size_t(child)][3]);
  } else {
    const glm::vec3 restJoint = restPosition(joint);
    const glm::vec3 beyond = parent >= 0 ? 2.0f * restJoint - restPosition(parent) : restJoint;
    axis.child = glm::vec3(skinning[std::size_t(joint)] * glm::vec4(beyond, 1.0f));
  }
  return axis;
}

Result<SkinningRig> loadSkinningRig(const fs::path& path) {
  auto content = scenejson::readSceneFile(path);
  if (!content) return content.error();
  try {
    return parseRig(scenejson::parseDocument(*content), path);
  } catch (...) {
    return scenejson::sceneParseError(path.string());
  }
}

Result<RigMethodRun> runRig(const SkinningRig& rig, BodySkinner& skinner, const RigFrameCallback& onFrame) {
  SkinnedSurface surface;
  return runFrames(rig, std::string(skinningMethodName(skinner.method())), onFrame,
                   [&](const Pose& pose, int&) -> Result<std::span<const glm::vec4>> {
                     if (Status s = skinner.update(pose); !s) return s.error();
                     surface = skinner.readSurface();
                     return std::span<const glm::vec4>(surface.positions);
                   });
}

Result<RigMethodRun> runRig(const SkinningRig& rig, ParticleSkinner& skinner, const RigFrameCallback& onFrame) {
  SkinnedSurface surface;
  return runFrames(rig, "particle", onFrame,
                   [&](const Pose& pose, int& settleSteps) -> Result<std::span<const glm::vec4>> {
                     if (Status s = skinner.advance(pose, rig.stepsPerFrame); !s) return s.error();
                     if (rig.settleEachFrame) {
                       auto settled = skinner.settle(pose, rig.settleSpeed, rig.settleMaxSteps);
                       if (!settled) return settled.error();
                       settleSteps = *settled;
                     }
                     auto rebuilt = skinner.surface();
                     if (!rebuilt) return rebuilt.error();
                     surface = std::move(*rebuilt);
                     return std::span<const glm::vec4>(surface.positions);
                   });
}

}  // namespace hg
