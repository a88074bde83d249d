#pragma once
/// Skinning test rigs (`hagoromo skin RIG.json`, the tests and the benchmarks share them):
/// a skinned body, one joint moved through a range of angles (or an imported character's
/// own animation), and the joint zone measured per frame for each skinning method (LBS,
/// DQS, particle skinning), so a user can see where each method fails.
///
/// Rig file (JSON; every key optional unless marked; every key with its unit, range and
/// default: docs/user-guide.md, "Scene key reference"):
///   "name": "bend_cylinder",
///   "body": {"type": "two_bone_cylinder", "length": 2, "radius": 0.25, "rings": 41,
///            "segments": 32, "blend": 1.0}         (blend: width (m) of the weight ramp
///                                                    across the joint; "two_bone_box" takes
///                                                    "size": [x, y, z] and "subdivisions")
///         | {"type": "mannequin", "height": 1.75, "cell_size": 0.015}
///         | {"type": "import", "path": "character.glb", "clip": 0}  (path relative to the rig file)
///   "joint": "twist"                 (required: the joint measured)
///   "zone_radius": 0.5               (m: the joint zone, see SkinningMetrics.h)
///   "motion": {"type": "rotate", "axis": [0, 0, 1], "from_degrees": 0, "to_degrees": 135,
///              "frames": 28}         (the joint turned about a model-space axis through it;
///                                     "twist" turns it about its own bone direction)
///           | {"type": "twist", "from_degrees": 0, "to_degrees": 180, "frames": 37}
///           | {"type": "animation", "frames": 60}  (the imported clip, sampled evenly)
///   "steps_per_frame": 40, "settle": {"speed": 0.002, "max_steps": 4000}  (particle
///                                     skinning: steps per frame, then settling per frame;
///                                     "settle": false for dynamics only)
///   "particles": {"radius": 0.02, "levels": 3, "radius_ratio": 2, "surface_margin": 1,
///                 "bone_assignment": "segment", "interaction_gap": 2, "spring_stiffness": 500,
///                 "spring_damping": 4, "bone_stiffness": 4000, "bone_damping": 20, "attachment": "uniform",
///                 "attachment_threshold": 0.5, "bone_target": "dual_quaternion",
///                 "integrator": "leapfrog", "iterations": 0, "time_step": 0.0020833,
///                 "surface_frame": "local", "surface_weights": "average"}
///   "methods": ["linear", "dual_quaternion", "particle"]
///   "self_intersections_from_degrees": 126, "self_intersections_to_degrees": 135
///   "output": {"directory": "out/skin", "obj_every": 1, "image_width": 960, "image_height": 540}
/// Units: metres, degrees in the file, radians in code. GL-free.
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"
#include "sim/io/SceneOverrides.h"
#include "sim/skinning/BodySkinner.h"
#include "sim/skinning/ParticleSkinning.h"
#include "sim/skinning/SkinningMetrics.h"

namespace hg {

namespace fields {
struct ObjectDoc;
}

struct SkinningRig {
  std::string name;
  std::filesystem::path sourcePath;  ///< the rig file ("" when built in code)
  std::shared_ptr<const SkinnedMesh> body;
  int joint = -1;                 ///< the measured joint
  float zoneRadius = 0.5f;        ///< m
  std::string parameterName;      ///< "bend (degrees)", "twist (degrees)" or "time (s)"
  std::vector<float> parameters;  ///< per frame: angle (degrees) or time (s)
  std::vector<Pose> poses;        ///< per frame
  int stepsPerFrame = 40;
  bool settleEachFrame = true;
  float settleSpeed = 0.002f;  ///< m/s
  int settleMaxSteps = 4000;
  ParticleSkinSettings particles;
  std::vector<std::string> methods{"linear", "dual_quaternion", "particle"};
  float intersectionsFrom = 126.0f, intersectionsTo = 135.0f;  ///< degrees (angle rigs)
  std::filesystem::path outputDirectory{"out/skin"};
  int objEvery = 1;  ///< write every k-th frame's OBJ (0: none)
  int imageWidth = 960, imageHeight = 540;

  bool angleRig() const { return parameterName != "time (s)"; }
};

/// Reads a rig file (see the file comment). Errors name the file and the key.
Result<SkinningRig> loadSkinningRig(const std::filesystem::path& path, const SceneOverrides& overrides = {});
/// The keys of a rig file (scenes/skin/*.json), for docs/schema/skin-rig.schema.json and the
/// key reference of docs/user-guide.md (apps/tools/write_scene_docs.cpp).
fields::ObjectDoc skinRigKeys();

/// The two-bone bodies of the rigs: a closed cylinder (or box) along +x from 0 to
/// `length`, joints "root" at x = 0 and "joint" at x = length / 2, the second bone's weight
/// ramping linearly from 0 to 1 over `blend` metres centred on the joint.
std::shared_ptr<SkinnedMesh> makeTwoBoneCylinder(float length, float radius, int rings, int segments, float blend);
std::shared_ptr<SkinnedMesh> makeTwoBoneBox(glm::vec3 size, int subdivisions, float blend);

/// The skeleton polyline through `joint` in `pose` (SkinningMetrics.h): the parent's
/// position, the joint's, and its first child's (a leaf: the point one parent-bone
/// length beyond it, moved with the joint).
JointAxis jointAxisFor(const SkinnedMesh& body, int joint, const Pose& pose);

/// One method's run over a rig's frames.
struct RigMethodRun {
  std::string method;
  std::vector<JointZoneRatios> ratios;  ///< per frame
  std::vector<double> milliseconds;     ///< per frame, skinning only (not measuring)
  std::vector<int> settleSteps;         ///< per frame (particle skinning; else 0)
};

/// Called per frame with the skinned surface; an error stops the run.
using RigFrameCallback = std::function<Status(std::size_t frame, std::span<const glm::vec4> positions)>;

/// Runs vertex blending (any BodySkinner backend) / particle skinning (any backend,
/// starting from its current state) over every frame of the rig, measuring the joint
/// zone (self-intersections only within the rig's degree range).
Result<RigMethodRun> runRig(const SkinningRig& rig, BodySkinner& skinner, const RigFrameCallback& onFrame = {});
Result<RigMethodRun> runRig(const SkinningRig& rig, ParticleSkinner& skinner, const RigFrameCallback& onFrame = {});

}  // namespace hg
