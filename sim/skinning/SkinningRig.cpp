#include "sim/skinning/SkinningRig.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "sim/body/Mannequin.h"
#include "sim/core/Limits.h"
#include "sim/io/FieldTable.h"
#include "sim/motion/CharacterIO.h"

namespace hg {

namespace fs = std::filesystem;

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

using namespace fields;

/// The body keys of every body type (each type reads its own).
struct RigBody {
  std::string type;
  float length = 2.0f, radius = 0.25f;  ///< two_bone_cylinder, m
  int rings = 41, segments = 32;
  float blend = 1.0f;                ///< m: width of the weight ramp across the joint
  glm::vec3 size{2.0f, 0.5f, 0.5f};  ///< two_bone_box, m
  int subdivisions = 24;
  float height = MannequinParams{}.height;  ///< mannequin, m
  float cellSize = 0.015f;                  ///< mannequin, m
  fs::path path;                            ///< import: relative to the rig file
  int clip = 0;
};

/// The motion keys of every motion type (each type reads its own).
struct RigMotion {
  std::string type;
  glm::vec3 axis{0.0f, 0.0f, 1.0f};
  float fromDegrees = 0.0f, toDegrees = 90.0f;
  int frames = 19;
};

/// What the reader fills: the rig, and the keys the body, joint and poses are built from.
struct RigReading {
  SkinningRig rig;
  RigBody body;
  std::string joint;
  RigMotion motion;
  std::vector<Animation> clips;  ///< an imported body's animations
};

Value<RigBody> bodyValue() {
  Table<RigBody> blend;
  blend.add("blend", &RigBody::blend, number(), "m", "Width of the weight ramp across the joint");
  Table<RigBody> cylinder("A closed cylinder along +x on two bones, joints at x = 0 and length / 2");
  cylinder.add("length", &RigBody::length, number(positive()), "m", "Length");
  cylinder.add("rings", &RigBody::rings, integer(3, limits::kMaxRigRings), "", "Rings along the length");
  cylinder.add("segments", &RigBody::segments, integer(3, limits::kMaxRigRings), "", "Segments around");
  cylinder.add("radius", &RigBody::radius, number(positive()), "m", "Radius");
  cylinder.merge(blend);
  Table<RigBody> box("A closed box along +x on two bones");
  box.add("size", &RigBody::size, fields::vec3(positive()), "m", "Edge lengths");
  box.add("subdivisions", &RigBody::subdivisions, integer(1, limits::kMaxRigSubdivisions), "",
          "Divisions across y and z");
  box.merge(blend);
  Table<RigBody> mannequin("The built-in mannequin (sim/body/Mannequin.h)");
  mannequin.add("height", &RigBody::height, number(positive()), "m", "Floor to the top of the head");
  mannequin.add("cell_size", &RigBody::cellSize, number(positive()), "m", "Grid spacing of the surface extraction");
  Table<RigBody> imported("A skinned character file (glTF, FBX, COLLADA through assimp)");
  imported.add("path", &RigBody::path, path(), "", "The file, relative to the rig file").required();
  imported.add("clip", &RigBody::clip, integer(0, 1 << 20), "", "Its animation the \"animation\" motion plays");
  std::vector<Variant<RigBody>> types;
  for (auto [name, table] : {std::pair{"two_bone_cylinder", cylinder}, std::pair{"two_bone_box", box},
                             std::pair{"mannequin", mannequin}, std::pair{"import", imported}})
    types.push_back({name, table, [type = std::string(name)](RigBody& b) { b.type = type; }});
  return variants<RigBody>("type", "Which body", types);
}

Value<RigMotion> motionValue() {
  Table<RigMotion> angles;
  angles.add("from_degrees", &RigMotion::fromDegrees, number(), "deg", "Angle of the first frame");
  angles.add("to_degrees", &RigMotion::toDegrees, number(), "deg", "Angle of the last frame");
  Table<RigMotion> frames;
  frames.add("frames", &RigMotion::frames, integer(2, limits::kMaxMotionFrames), "", "Frames, evenly spaced");
  Table<RigMotion> rotate("The joint turned about a model-space axis through it");
  rotate.add("axis", &RigMotion::axis, fields::vec3(), "", "The axis (model space)");
  rotate.merge(angles).merge(frames);
  Table<RigMotion> twist("The joint turned about its own bone direction");
  twist.add("axis", &RigMotion::axis, fields::vec3(), "", "Not used: a twist turns about the bone");
  twist.merge(angles).merge(frames);
  Table<RigMotion> animation("The imported body's clip (body type \"import\"), sampled evenly");
  animation.merge(frames);
  std::vector<Variant<RigMotion>> types;
  types.push_back({"rotate", rotate, [](RigMotion& m) { m.type = "rotate"; }});
  types.push_back({"twist", twist, [](RigMotion& m) {
                     m.type = "twist";
                     m.toDegrees = 180.0f;
                   }});
  types.push_back({"animation", animation, [](RigMotion& m) {
                     m.type = "animation";
                     m.frames = 30;
                   }});
  return variants<RigMotion>("type", "Which motion", types);
}

Table<ParticleSkinSettings> particleKeys() {
  Table<ParticleSkinSettings> t("Particle skinning (docs/methods.md section 4; sim/skinning/ParticleSkinning.h)");
  t.add("radius", nested(&ParticleSkinSettings::fill, &ParticleFillSettings::radius), number(positive()), "m",
        "Radius of the finest particles");
  t.add("levels", nested(&ParticleSkinSettings::fill, &ParticleFillSettings::levels), integer(1, 8), "",
        "Radius levels of the fill");
  t.add("radius_ratio", nested(&ParticleSkinSettings::fill, &ParticleFillSettings::radiusRatio), number(), "",
        "Ratio of consecutive radii, >= 1.5");
  t.add("surface_margin", nested(&ParticleSkinSettings::fill, &ParticleFillSettings::surfaceMargin), number(), "",
        "Coarser levels keep a particle this many radii inside the surface");
  t.add(
      "bone_assignment", &ParticleSkinSettings::boneAssignment,
      choice<BoneAssignment>({{"segment", BoneAssignment::Segment}, {"obb", BoneAssignment::Obb}}, parseBoneAssignment),
      "", "A particle's bone: the nearest bone segment or bone box");
  t.add("interaction_gap", &ParticleSkinSettings::interactionGap, number(positive()), "",
        "Particles interact when their rest gap is below this x the smaller radius");
  t.add("spring_stiffness", &ParticleSkinSettings::springStiffness, number(positive()), "1/s^2",
        "Distance spring of two finest particles, per unit mass");
  t.add("spring_damping", &ParticleSkinSettings::springDamping, number(), "1/s", "Damper of two finest particles");
  t.add("bone_stiffness", &ParticleSkinSettings::boneStiffness, number(positive()), "1/s^2",
        "Pull toward the bone target, per unit mass");
  t.add("bone_damping", &ParticleSkinSettings::boneDamping, number(), "1/s",
        "Damping of the velocity relative to the bone target");
  t.add("attachment", &ParticleSkinSettings::attachment,
        choice<BoneAttachment>({{"uniform", BoneAttachment::Uniform}, {"skin_weights", BoneAttachment::SkinWeights}},
                               parseBoneAttachment),
        "", "Every particle pulled fully, or by the skin weight of its bone");
  t.add("attachment_threshold", &ParticleSkinSettings::attachmentThreshold, number(), "",
        "skin_weights: weights below this do not pull, in [0, 1)");
  t.add("bone_target", &ParticleSkinSettings::boneTarget,
        choice<BoneTarget>({{"bone", BoneTarget::Bone}, {"dual_quaternion", BoneTarget::DualQuaternion}},
                           parseBoneTarget),
        "", "Where the bone force pulls: the rest position moved with the one bone, or skinned by dual quaternions");
  t.add("integrator", &ParticleSkinSettings::integrator,
        choice<ParticleIntegrator>({{"improved_euler", ParticleIntegrator::ImprovedEuler},
                                    {"adams", ParticleIntegrator::Adams},
                                    {"leapfrog", ParticleIntegrator::Leapfrog}},
                                   parseParticleIntegrator),
        "", "Time integrator");
  t.add("iterations", &ParticleSkinSettings::iterations, integer(0, 100), "",
        "Extra corrector passes per step (adams, leapfrog)");
  t.add("time_step", &ParticleSkinSettings::timeStep, number(positive()), "s", "Integration step");
  t.add("surface_frame", &ParticleSkinSettings::surfaceFrame,
        choice<SurfaceFrame>({{"bone", SurfaceFrame::Bone}, {"local", SurfaceFrame::Local}}, parseSurfaceFrame), "",
        "The rotation that turns a particle's rest offset to a surface vertex");
  t.add("surface_weights", &ParticleSkinSettings::surfaceWeights,
        choice<SurfaceWeights>(
            {{"average", SurfaceWeights::Average}, {"inverse_distance", SurfaceWeights::InverseDistance}},
            parseSurfaceWeights),
        "", "How the four particle votes of a vertex are averaged");
  t.check([](ParticleSkinSettings& s, const json&, const std::string& where) {
    if (Status valid = s.validate(); !valid) throw SceneError{where + ": " + valid.error().message};
  });
  return t;
}

Table<SkinningRig> outputKeys() {
  Table<SkinningRig> t("What is written (to --out)");
  t.add("directory", &SkinningRig::outputDirectory, path(), "", "Output folder (the command line's --out wins)");
  t.add("obj_every", &SkinningRig::objEvery, integer(0, limits::kMaxMotionFrames), "",
        "Every k-th frame's OBJ (0: none)");
  t.add("image_width", &SkinningRig::imageWidth, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
        "Width of the picture");
  t.add("image_height", &SkinningRig::imageHeight, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
        "Height of the picture");
  return t;
}

/// Rest global rotation of a joint (unit quaternion).
glm::quat restGlobalRotation(const Skeleton& skeleton, int joint) {
  const glm::mat4 global = glm::inverse(skeleton.inverseBind[std::size_t(joint)]);
  return glm::normalize(glm::quat_cast(glm::mat3(global)));
}

void buildBody(RigReading& r) {
  const RigBody& b = r.body;
  if (b.type == "two_bone_cylinder") {
    r.rig.body = makeTwoBoneCylinder(b.length, b.radius, b.rings, b.segments, b.blend);
  } else if (b.type == "two_bone_box") {
    r.rig.body = makeTwoBoneBox(b.size, b.subdivisions, b.blend);
  } else if (b.type == "mannequin") {
    MannequinParams params;
    params.height = b.height;
    params.cellSize = b.cellSize;
    auto built = buildMannequin(params);
    if (!built) throw SceneError{"rig.body: " + built.error().message};
    r.rig.body = std::make_shared<SkinnedMesh>(std::move(*built));
  } else {  // import
    const fs::path file = r.rig.sourcePath.parent_path() / b.path;
    auto character = importCharacter(file);
    if (!character) throw SceneError{"rig.body: " + character.error().message};
    r.clips = std::move(character->animations);
    if (b.clip < 0 || std::size_t(b.clip) >= std::max<std::size_t>(r.clips.size(), 1))
      throw SceneError{"rig.body.clip " + std::to_string(b.clip) + ": " + file.string() + " has " +
                       std::to_string(r.clips.size()) + " animation(s)"};
    r.rig.body = std::make_shared<SkinnedMesh>(std::move(character->body));
  }
}

/// The poses: the joint turned from one angle to another, or the imported clip sampled.
void buildPoses(RigReading& r) {
  SkinningRig& rig = r.rig;
  const Skeleton& skeleton = rig.body->skeleton;
  const RigMotion& m = r.motion;
  const Pose rest = restPose(skeleton);
  if (m.type == "animation") {
    if (r.clips.empty()) throw SceneError{"rig.motion.type 'animation' needs an imported body with an animation"};
    const Animation& animation = r.clips[std::size_t(r.body.clip)];
    rig.parameterName = "time (s)";
    for (int f = 0; f < m.frames; ++f) {
      const float t = animation.duration * float(f) / float(m.frames - 1);
      rig.parameters.push_back(t);
      rig.poses.push_back(animation.sample(skeleton, t));
    }
    return;
  }
  glm::vec3 axis = m.axis;
  if (m.type == "twist") {  // about the bone direction (the joint's axis polyline, joint -> child)
    const JointAxis restAxis = jointAxisFor(*rig.body, rig.joint, rest);
    axis = restAxis.child - restAxis.joint;
  }
  if (!(glm::length(axis) > 0.0f)) throw SceneError{"rig.motion.axis must not be zero"};
  const glm::vec3 local = glm::inverse(restGlobalRotation(skeleton, rig.joint)) * glm::normalize(axis);
  rig.parameterName = m.type == "twist" ? "twist (degrees)" : "bend (degrees)";
  for (int f = 0; f < m.frames; ++f) {
    const float degrees = m.fromDegrees + (m.toDegrees - m.fromDegrees) * float(f) / float(m.frames - 1);
    Pose pose = rest;
    Transform& t = pose[std::size_t(rig.joint)];
    t.rotation = t.rotation * glm::angleAxis(glm::radians(degrees), local);
    rig.parameters.push_back(degrees);
    rig.poses.push_back(std::move(pose));
  }
}

/// The body, the measured joint and the poses, once every key is read.
void buildRig(RigReading& r, const json&, const std::string&) {
  buildBody(r);
  r.rig.joint = r.rig.body->skeleton.find(r.joint);
  if (r.rig.joint < 0) throw SceneError{"rig.joint '" + r.joint + "' is not a joint of the body"};
  buildPoses(r);
}

const Table<RigReading>& rigTable() {
  static const Table<RigReading> table = [] {
    const auto rig = [](RigReading& r) -> SkinningRig& { return r.rig; };
    Table<SkinningRig> settle("Particle skinning: settling after each frame's steps (false: dynamics only)");
    settle.add("speed", &SkinningRig::settleSpeed, number(positive()), "m/s", "Until the fastest particle is slower");
    settle.add("max_steps", &SkinningRig::settleMaxSteps, integer(0, limits::kMaxSettleSteps), "",
               "Steps per frame at most");
    Table<SkinningRig> keys;
    keys.add("zone_radius", &SkinningRig::zoneRadius, number(positive()), "m",
             "The joint zone measured (sim/skinning/SkinningMetrics.h)");
    keys.add("steps_per_frame", &SkinningRig::stepsPerFrame, integer(1, limits::kMaxStepsPerFrame), "",
             "Particle skinning: steps per frame");
    keys.add("settle", self<SkinningRig>,
             object(settle, {.onBool = [](SkinningRig& s, bool each) { s.settleEachFrame = each; }}), "",
             "Settling after each frame, or true / false");
    keys.add("particles", &SkinningRig::particles, object(particleKeys()), "", "Particle skinning settings");
    const std::vector<std::pair<std::string, std::string>> methods = {{"linear", "linear"},
                                                                      {"dual_quaternion", "dual_quaternion"},
                                                                      {"particle", "particle"},
                                                                      {"lbs", "linear"},
                                                                      {"dqs", "dual_quaternion"}};
    keys.add("methods", &SkinningRig::methods, list(choice<std::string>(methods), {.min = 1}), "",
             "The skinning methods compared (lbs and dqs name linear and dual_quaternion)");
    keys.add("self_intersections_from_degrees", &SkinningRig::intersectionsFrom, number(), "deg",
             "Self-intersections are counted from this angle");
    keys.add("self_intersections_to_degrees", &SkinningRig::intersectionsTo, number(), "deg",
             "Self-intersections are counted up to this angle");
    keys.add("output", self<SkinningRig>, object(outputKeys()), "", "What is written");

    Table<RigReading> t(
        "A skinning rig (hagoromo skin): a skinned body, one joint moved through a range of angles "
        "(or the body's own clip), the joint zone measured per frame for each skinning method");
    t.schemaKey();
    t.add("name", nested(&RigReading::rig, &SkinningRig::name), noDefault(outputName()), "",
          "The outputs' base name (default: the file's name)");
    t.add("body", &RigReading::body, bodyValue(), "", "The skinned body").required();
    t.add("joint", &RigReading::joint, text(), "", "The joint measured").required();
    t.add("motion", &RigReading::motion, motionValue(), "", "How the joint moves").required();
    t.include(keys, rig);
    t.check(buildRig);
    return t;
  }();
  return table;
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

Result<SkinningRig> loadSkinningRig(const fs::path& path, const SceneOverrides& overrides) {
  auto content = readSceneFileWithOverrides(path.string(), overrides);
  if (!content) return content.error();
  RigReading reading;
  reading.rig.sourcePath = path;
  reading.rig.name = path.stem().string();
  try {
    rigTable().read(scenejson::parseDocument(*content), "rig", reading);
  } catch (...) {
    return scenejson::sceneParseError(path.string());
  }
  return std::move(reading.rig);
}

fields::ObjectDoc skinRigKeys() { return rigTable().describe(RigReading{}); }

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
