#include "sim/scene/DrapeScene.h"

#include <string>
#include <vector>

#include "sim/core/Limits.h"
#include "sim/geometry/Obb.h"
#include "sim/io/SceneJson.h"

namespace hg {
namespace {

using namespace scenejson;

/// checkRunSize as a SceneError (inside the parser).
void checkWork(const DrapeScene& scene) {
  if (Status s = checkRunSize(scene); !s) throw SceneError{s.error().message};
}

}  // namespace

Result<DrapeScene> parseDrapeScene(const std::string& text, const std::string& origin) {
  DrapeScene scene;
  // A scene's defaults for a stable run: substeps chosen from the stable step ("auto") and
  // two retries of an unstable frame at 2x and 4x the substeps.
  scene.settings.substeps = 0;
  scene.settings.maxSubstepHalvings = 2;
  try {
    const json root = parseDocument(text);
    checkKeys(
        root, "scene",
        {"name", "cloth", "sphere", "ground", "solver", "output", "avatar", "garments", "dressing", "boxes", "props"});
    if (root.contains("name")) scene.name = outputName(root["name"], "scene.name");
    if (root.contains("cloth")) {
      const json& c = root["cloth"];
      checkKeys(c, "cloth",
                {"resolution", "size", "center", "mesh", "fabric", "areal_density", "area_weighted_mass",
                 "pin_animation", "tensile_stiffness", "bending_rigidity", "spring_damping", "pinned", "anisotropy"});
      for (const char* key : {"resolution", "size", "center", "mesh", "pinned", "pin_animation"})
        scene.clothShapeGiven |= c.contains(key);
      SquareClothSpec& s = scene.sheet;
      s.resolution = integer(c, "cloth", "resolution", s.resolution, 2, limits::kMaxSheetResolution);
      s.size = number(c, "cloth", "size", s.size);
      s.center = vec3(c, "cloth", "center", s.center);
      if (c.contains("mesh")) {
        if (!c["mesh"].is_string()) throw SceneError{"cloth.mesh must be a file name"};
        scene.mesh = c["mesh"].get<std::string>();
      }
      if (c.contains("fabric")) {
        if (!c["fabric"].is_string()) throw SceneError{"cloth.fabric must be a preset name"};
        scene.fabric = c["fabric"].get<std::string>();
      }
      ClothMaterial& m = scene.material;
      for (const char* key : {"areal_density", "tensile_stiffness", "bending_rigidity"})
        if (c.contains(key)) scene.materialOverrides.push_back(key);
      m.arealDensity = number(c, "cloth", "areal_density", m.arealDensity);
      if (c.contains("area_weighted_mass")) {
        if (!c["area_weighted_mass"].is_boolean()) throw SceneError{"cloth.area_weighted_mass must be true or false"};
        m.areaWeightedMass = c["area_weighted_mass"].get<bool>();
      }
      m.tensileStiffness = number(c, "cloth", "tensile_stiffness", m.tensileStiffness);
      m.bendingRigidity = number(c, "cloth", "bending_rigidity", m.bendingRigidity);
      m.springDamping = number(c, "cloth", "spring_damping", m.springDamping);
      if (c.contains("pinned")) {
        if (!c["pinned"].is_array()) throw SceneError{"cloth.pinned must be an array of vertex indices"};
        for (const json& p : c["pinned"]) {
          if (!p.is_number_unsigned()) throw SceneError{"cloth.pinned must hold non-negative integers"};
          scene.pinned.push_back(p.get<std::uint32_t>());
        }
      }
      if (c.contains("pin_animation")) {
        const json& a = c["pin_animation"];
        if (!a.is_array()) throw SceneError{"cloth.pin_animation must be an array of {time, translate} keys"};
        std::vector<PinKey> keys;
        for (const json& key : a) {
          checkKeys(key, "cloth.pin_animation[]", {"time", "translate"});
          keys.push_back({number(key, "cloth.pin_animation[]", "time", 0.0f),
                          vec3(key, "cloth.pin_animation[]", "translate", glm::vec3(0.0f))});
        }
        auto animation = PinAnimation::fromKeys(std::move(keys));
        if (!animation) throw SceneError{"cloth.pin_animation: " + animation.error().message};
        scene.pinAnimation = std::move(animation).value();
      }
      if (c.contains("anisotropy")) {
        const json& a = c["anisotropy"];
        checkKeys(a, "cloth.anisotropy", {"texture", "uniform", "scale"});
        scene.anisotropyScale = positive(a, "cloth.anisotropy", "scale", scene.anisotropyScale);
        if (a.contains("texture")) {
          if (!a["texture"].is_string()) throw SceneError{"cloth.anisotropy.texture must be a file name"};
          scene.anisotropyTexture = a["texture"].get<std::string>();
        }
        if (a.contains("uniform")) {
          const json& u = a["uniform"];
          if (!u.is_array() || u.size() != 4) throw SceneError{"cloth.anisotropy.uniform must be [Ka, Kb, Kc, Kd]"};
          glm::vec4 k;
          for (int i = 0; i < 4; ++i) {
            if (!u[std::size_t(i)].is_number() || u[std::size_t(i)].get<double>() < 0.0)
              throw SceneError{"cloth.anisotropy.uniform must hold numbers >= 0"};
            k[i] = u[std::size_t(i)].get<float>();
          }
          scene.anisotropyUniform = k;
        }
        if (scene.anisotropyUniform && !scene.anisotropyTexture.empty())
          throw SceneError{"cloth.anisotropy: give either texture or uniform, not both"};
      }
    }
    ClothSettings& settings = scene.settings;
    if (root.contains("avatar")) {
      const json& a = root["avatar"];
      checkKeys(a, "avatar",
                {"mannequin", "contact_cell_size", "contact", "motion", "file", "file_clip", "file_clip_time"});
      SceneAvatar avatar;
      if (a.contains("file")) {
        if (!a["file"].is_string()) throw SceneError{"avatar.file must be a file name"};
        if (a.contains("mannequin") || a.contains("motion"))
          throw SceneError{"avatar.file replaces the mannequin: give file or mannequin (and motion), not both"};
        avatar.file = a["file"].get<std::string>();
        if (a.contains("file_clip")) {
          if (!a["file_clip"].is_string()) throw SceneError{"avatar.file_clip must be a clip name or \"*\""};
          avatar.fileClip = a["file_clip"].get<std::string>();
        }
        avatar.fileClipTime = number(a, "avatar", "file_clip_time", avatar.fileClipTime);
      }
      if (a.contains("motion")) {
        const json& m = a["motion"];
        checkKeys(m, "avatar.motion", {"bvh", "map", "time", "skinning", "unit_scale", "animate"});
        SceneMotion motion;
        for (const char* key : {"bvh", "map"})
          if (!m.contains(key) || !m[key].is_string())
            throw SceneError{std::string("avatar.motion.") + key + " must be a file name"};
        motion.bvh = m["bvh"].get<std::string>();
        motion.map = m["map"].get<std::string>();
        motion.time = number(m, "avatar.motion", "time", motion.time);
        motion.unitScale = number(m, "avatar.motion", "unit_scale", motion.unitScale);
        if (m.contains("animate")) {
          if (!m["animate"].is_boolean()) throw SceneError{"avatar.motion.animate must be true or false"};
          motion.animate = m["animate"].get<bool>();
        }
        if (m.contains("skinning")) {
          const json& k = m["skinning"];
          if (!k.is_string() || (k != "dual_quaternion" && k != "linear"))
            throw SceneError{"avatar.motion.skinning must be \"dual_quaternion\" or \"linear\""};
          motion.dualQuaternion = k == "dual_quaternion";
        }
        if (!(motion.time >= 0.0f)) throw SceneError{"avatar.motion.time must be >= 0 s"};
        if (!(motion.unitScale > 0.0f)) throw SceneError{"avatar.motion.unit_scale must be > 0"};
        avatar.motion = motion;
      }
      avatar.contactCellSize = number(a, "avatar", "contact_cell_size", avatar.contactCellSize);
      if (a.contains("contact")) {
        const json& c = a["contact"];
        checkKeys(c, "avatar.contact", {"method", "texel", "layers", "views", "margin", "sphere_tree_resolution"});
        if (c.contains("method")) {
          const json& m = c["method"];
          if (!m.is_string() || (m != "distance_grid" && m != "depth_views" && m != "sphere_tree"))
            throw SceneError{"avatar.contact.method must be \"distance_grid\", \"depth_views\" or \"sphere_tree\""};
          avatar.contactMethod = m == "depth_views"   ? BodyContactMethod::DepthViews
                                 : m == "sphere_tree" ? BodyContactMethod::SphereTree
                                                      : BodyContactMethod::DistanceGrid;
        }
        if (c.contains("sphere_tree_resolution")) {
          avatar.sphereTreeResolution = integer(c, "avatar.contact", "sphere_tree_resolution", 0,
                                                limits::kMinVoxelResolution, limits::kMaxVoxelResolution);
        }
        DepthViewOptions& v = avatar.depthViews;
        v.texelSize = number(c, "avatar.contact", "texel", v.texelSize);
        v.margin = number(c, "avatar.contact", "margin", v.margin);
        v.layers = integer(c, "avatar.contact", "layers", v.layers, 1, HG_MAX_DEPTH_LAYERS);
        if (c.contains("views")) {
          const json& list = c["views"];
          if (!list.is_array() || list.empty())
            throw SceneError{"avatar.contact.views must be a non-empty array of top, front, back, left, right, bottom"};
          v.directions.clear();
          for (const json& name : list) {
            auto direction = name.is_string() ? parseDepthViewDirection(name.get<std::string>())
                                              : Result<DepthViewDirection>(Error{"not a name"});
            if (!direction) throw SceneError{"avatar.contact.views: " + direction.error().message};
            v.directions.push_back(*direction);
          }
        }
        if (Status s = v.validate(); !s) throw SceneError{"avatar.contact: " + s.error().message};
      }
      if (a.contains("mannequin")) {
        const json& m = a["mannequin"];
        const std::string where = "avatar.mannequin";
        checkKeys(m, where,
                  {"height", "chest_girth", "waist_girth", "hip_girth", "neck_girth", "upper_arm_girth", "thigh_girth",
                   "shoulder_width", "arm_length", "leg_length", "pose", "a_pose_arm_angle", "cell_size"});
        MannequinParams& p = avatar.mannequin;
        p.height = number(m, where, "height", p.height);
        p.chestGirth = number(m, where, "chest_girth", p.chestGirth);
        p.waistGirth = number(m, where, "waist_girth", p.waistGirth);
        p.hipGirth = number(m, where, "hip_girth", p.hipGirth);
        p.neckGirth = number(m, where, "neck_girth", p.neckGirth);
        p.upperArmGirth = number(m, where, "upper_arm_girth", p.upperArmGirth);
        p.thighGirth = number(m, where, "thigh_girth", p.thighGirth);
        p.shoulderWidth = number(m, where, "shoulder_width", p.shoulderWidth);
        p.armLength = number(m, where, "arm_length", p.armLength);
        p.legLength = number(m, where, "leg_length", p.legLength);
        p.aPoseArmAngleDegrees = number(m, where, "a_pose_arm_angle", p.aPoseArmAngleDegrees);
        p.cellSize = number(m, where, "cell_size", p.cellSize);
        if (m.contains("pose")) {
          const json& pose = m["pose"];
          if (!pose.is_string() || (pose != "a_pose" && pose != "t_pose"))
            throw SceneError{where + ".pose must be \"a_pose\" or \"t_pose\""};
          p.pose = pose == "a_pose" ? MannequinPose::APose : MannequinPose::TPose;
        }
        if (Status s = p.validate(); !s) throw SceneError{where + ": " + s.error().message};
      }
      if (!(avatar.contactCellSize >= 0.003f && avatar.contactCellSize <= 0.05f))
        throw SceneError{"avatar.contact_cell_size must be in [0.003, 0.05] m"};
      scene.avatar = avatar;
    }
    if (root.contains("garments")) {
      const json& list = root["garments"];
      if (!list.is_array() || list.empty()) throw SceneError{"garments must be a non-empty array of garments"};
      if (!scene.avatar) throw SceneError{"garments need an avatar to be sewn around (add an \"avatar\" block)"};
      if (!scene.avatar->file.empty())
        throw SceneError{
            "garments are sized and placed by the built-in mannequin's measurements and joint names; "
            "with avatar.file, drape a cloth (the cloth block) instead"};
      if (scene.clothShapeGiven)
        throw SceneError{
            "with garments, the cloth block gives only the material: remove its resolution, size, "
            "center, mesh, pinned and pin_animation keys"};
      for (std::size_t i = 0; i < list.size(); ++i) {
        const json& g = list[i];
        const std::string where = "garments[" + std::to_string(i) + "]";
        if (!g.is_object() || !g.contains("type") || !g["type"].is_string())
          throw SceneError{where + " must be an object with a \"type\" (tshirt, skirt, trousers, dress)"};
        auto kind = parseGarmentKind(g["type"].get<std::string>());
        if (!kind) throw SceneError{where + ".type: " + kind.error().message};
        GarmentSpec spec;
        spec.kind = *kind;
        if (g.contains("fabric")) {
          if (!g["fabric"].is_string()) throw SceneError{where + ".fabric must be a preset name"};
          spec.fabric = g["fabric"].get<std::string>();
        }
        if (g.contains("areal_density")) spec.arealDensity = number(g, where, "areal_density", 0.0f);
        if (g.contains("tensile_stiffness")) spec.tensileStiffness = number(g, where, "tensile_stiffness", 0.0f);
        if (g.contains("bending_rigidity")) spec.bendingRigidity = number(g, where, "bending_rigidity", 0.0f);
        for (const char* key : {"areal_density", "tensile_stiffness", "bending_rigidity"})
          if (g.contains(key) && !(number(g, where, key, 0.0f) > 0.0f))
            throw SceneError{where + "." + key + " must be > 0"};
        switch (spec.kind) {
          case GarmentKind::TShirt: {
            checkKeys(g, where,
                      {"type", "chest_ease", "hem_below_waist", "sleeve_length", "sleeve_ease", "neck_ease", "fabric",
                       "areal_density", "tensile_stiffness", "bending_rigidity"});
            TShirtOptions& o = spec.tshirt;
            o.chestEase = number(g, where, "chest_ease", o.chestEase);
            o.hemBelowWaist = number(g, where, "hem_below_waist", o.hemBelowWaist);
            o.sleeveLength = number(g, where, "sleeve_length", o.sleeveLength);
            o.sleeveEase = number(g, where, "sleeve_ease", o.sleeveEase);
            o.neckEase = number(g, where, "neck_ease", o.neckEase);
            break;
          }
          case GarmentKind::Skirt: {
            checkKeys(g, where,
                      {"type", "waist_ease", "hip_ease", "length", "flare", "fabric", "areal_density",
                       "tensile_stiffness", "bending_rigidity"});
            SkirtOptions& o = spec.skirt;
            o.waistEase = number(g, where, "waist_ease", o.waistEase);
            o.hipEase = number(g, where, "hip_ease", o.hipEase);
            o.length = number(g, where, "length", o.length);
            o.flare = number(g, where, "flare", o.flare);
            break;
          }
          case GarmentKind::Trousers: {
            checkKeys(g, where,
                      {"type", "waist_ease", "hip_ease", "knee_girth", "hem_girth", "crotch_ease", "hem_height",
                       "fabric", "areal_density", "tensile_stiffness", "bending_rigidity"});
            TrouserOptions& o = spec.trousers;
            o.waistEase = number(g, where, "waist_ease", o.waistEase);
            o.hipEase = number(g, where, "hip_ease", o.hipEase);
            o.kneeGirth = number(g, where, "knee_girth", o.kneeGirth);
            o.hemGirth = number(g, where, "hem_girth", o.hemGirth);
            o.crotchEase = number(g, where, "crotch_ease", o.crotchEase);
            o.hemHeight = number(g, where, "hem_height", o.hemHeight);
            break;
          }
          case GarmentKind::Dress: {
            checkKeys(g, where,
                      {"type", "chest_ease", "waist_ease", "hip_ease", "skirt_length", "flare", "neck_ease", "fabric",
                       "areal_density", "tensile_stiffness", "bending_rigidity"});
            DressOptions& o = spec.dress;
            o.chestEase = number(g, where, "chest_ease", o.chestEase);
            o.waistEase = number(g, where, "waist_ease", o.waistEase);
            o.hipEase = number(g, where, "hip_ease", o.hipEase);
            o.skirtLength = number(g, where, "skirt_length", o.skirtLength);
            o.flare = number(g, where, "flare", o.flare);
            o.neckEase = number(g, where, "neck_ease", o.neckEase);
            break;
          }
        }
        scene.garments.push_back(spec);
      }
    }
    if (root.contains("dressing")) {
      const json& d = root["dressing"];
      checkKeys(d, "dressing",
                {"edge_length", "clearance", "seam_stiffness", "seam_damping", "sewing_damping", "weld_gap",
                 "max_sewing_frames"});
      DressingSettings& o = scene.dressing;
      o.edgeLength = number(d, "dressing", "edge_length", o.edgeLength);
      o.clearance = number(d, "dressing", "clearance", o.clearance);
      o.seamStiffness = number(d, "dressing", "seam_stiffness", o.seamStiffness);
      o.seamDamping = number(d, "dressing", "seam_damping", o.seamDamping);
      o.sewingDamping = number(d, "dressing", "sewing_damping", o.sewingDamping);
      o.weldGap = number(d, "dressing", "weld_gap", o.weldGap);
      o.maxSewingFrames = integer(d, "dressing", "max_sewing_frames", o.maxSewingFrames, 1, limits::kMaxSewingFrames);
      if (!(o.edgeLength >= 0.005f && o.edgeLength <= 0.1f))
        throw SceneError{"dressing.edge_length must be in [0.005, 0.1] m"};
      if (!(o.clearance > 0.0f && o.clearance <= 0.1f)) throw SceneError{"dressing.clearance must be in (0, 0.1] m"};
      if (!(o.seamStiffness > 0.0f)) throw SceneError{"dressing.seam_stiffness must be > 0 N/m"};
      if (!(o.seamDamping >= 0.0f && o.sewingDamping >= 0.0f)) throw SceneError{"dressing damping must be >= 0"};
      if (!(o.weldGap > 0.0f && o.weldGap <= 0.02f)) throw SceneError{"dressing.weld_gap must be in (0, 0.02] m"};
    }
    if (root.contains("sphere")) {
      const json& s = root["sphere"];
      settings.colliders.spheres.clear();
      if (!s.is_null()) {
        checkKeys(s, "sphere", {"center", "radius"});
        SphereCollider sphere{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f};
        sphere.centre = vec3(s, "sphere", "center", sphere.centre);
        sphere.radius = number(s, "sphere", "radius", sphere.radius);
        settings.colliders.spheres.push_back(sphere);
      }
    }
    if (root.contains("ground")) {
      const json& g = root["ground"];
      settings.colliders.grounds.clear();
      if (!g.is_null()) {
        checkKeys(g, "ground", {"height"});
        GroundCollider ground;
        ground.height = number(g, "ground", "height", ground.height);
        settings.colliders.grounds.push_back(ground);
      }
    }
    if (root.contains("solver")) {
      const json& s = root["solver"];
      checkKeys(s, "solver",
                {"backend",
                 "frames",
                 "frame_dt",
                 "substeps",
                 "velocity_damping",
                 "friction",
                 "contact_offset",
                 "gravity",
                 "max_speed",
                 "threads",
                 "compression_scale",
                 "extension_scale",
                 "tension_exponent",
                 "plastic_rate",
                 "yield_strain",
                 "yield_angle",
                 "max_substep_halvings",
                 "integrator",
                 "iterations",
                 "chebyshev_rho",
                 "until_rest",
                 "continuous_collision"});
      if (s.contains("backend")) {
        if (!s["backend"].is_string()) throw SceneError{"solver.backend must be \"cpu\" or \"gpu\""};
        auto backend = parseBackend(s["backend"].get<std::string>());
        if (!backend) throw SceneError{"solver.backend: " + backend.error().message};
        scene.backend = *backend;
      }
      scene.frames = integer(s, "solver", "frames", scene.frames, 0, limits::kMaxFrames);
      scene.restSpeed = number(s, "solver", "until_rest", scene.restSpeed);
      if (!(scene.restSpeed >= 0.0f)) throw SceneError{"solver.until_rest must be >= 0 m/s (0: run `frames` frames)"};
      settings.frameDt = number(s, "solver", "frame_dt", settings.frameDt);
      if (s.contains("substeps") && s["substeps"].is_string()) {
        if (s["substeps"] != "auto")
          throw SceneError{"solver.substeps must be \"auto\" or a whole number (1.." +
                           std::to_string(limits::kMaxSubsteps) + ")"};
        settings.substeps = 0;
      } else {
        settings.substeps = integer(s, "solver", "substeps", settings.substeps, 1, limits::kMaxSubsteps);
      }
      settings.velocityDamping = number(s, "solver", "velocity_damping", settings.velocityDamping);
      settings.friction = number(s, "solver", "friction", settings.friction);
      settings.contactOffset = number(s, "solver", "contact_offset", settings.contactOffset);
      settings.gravity = vec3(s, "solver", "gravity", settings.gravity);
      settings.maxSpeed = number(s, "solver", "max_speed", settings.maxSpeed);
      settings.threads = integer(s, "solver", "threads", settings.threads, 0, limits::kMaxThreads);
      settings.compressionScale = number(s, "solver", "compression_scale", settings.compressionScale);
      settings.extensionScale = number(s, "solver", "extension_scale", settings.extensionScale);
      settings.tensionExponent = number(s, "solver", "tension_exponent", settings.tensionExponent);
      settings.plasticRate = number(s, "solver", "plastic_rate", settings.plasticRate);
      settings.yieldStrain = number(s, "solver", "yield_strain", settings.yieldStrain);
      settings.yieldAngle = number(s, "solver", "yield_angle", settings.yieldAngle);
      settings.maxSubstepHalvings = integer(s, "solver", "max_substep_halvings", settings.maxSubstepHalvings, 0, 10);
      if (s.contains("integrator")) {
        if (!s["integrator"].is_string()) throw SceneError{"solver.integrator must be a string"};
        auto integrator = parseIntegrator(s["integrator"].get<std::string>());
        if (!integrator) throw SceneError{"solver.integrator: " + integrator.error().message};
        settings.integrator = *integrator;
      }
      settings.solverIterations =
          integer(s, "solver", "iterations", settings.solverIterations, 1, limits::kMaxSolverIterations);
      settings.chebyshevRho = number(s, "solver", "chebyshev_rho", settings.chebyshevRho);
      if (s.contains("continuous_collision") && !s["continuous_collision"].is_null()) {
        const json& c = s["continuous_collision"];
        const std::string where = "solver.continuous_collision";
        checkKeys(c, where, {"method", "patch_triangles", "image", "clearance"});
        std::string method = "radar";
        if (c.contains("method")) {
          if (!c["method"].is_string() || (c["method"] != "radar" && c["method"] != "none"))
            throw SceneError{where + ".method must be \"radar\" or \"none\""};
          method = c["method"].get<std::string>();
        }
        ClothSweepSettings sweep;
        sweep.patchTriangles = integer(c, where, "patch_triangles", sweep.patchTriangles, 1, 1024);
        sweep.image = integer(c, where, "image", sweep.image, 2, HG_RADAR_MAX_IMAGE);
        sweep.clearance = number(c, where, "clearance", settings.contactOffset);
        if (Status valid = sweep.validate(); !valid) throw SceneError{where + "." + valid.error().message};
        if (method == "radar") {
          if (!root.contains("avatar"))
            throw SceneError{where + " needs an avatar: the radars sweep the cloth against the body"};
          scene.continuousCollision = sweep;
        }
      }
    }
    if (root.contains("output")) {
      const json& o = root["output"];
      checkKeys(o, "output", {"directory", "image_width", "image_height", "obj_every"});
      scene.objEvery =
          integer(o, "output", "obj_every", scene.objEvery, 0, limits::kMaxFrames);  // 0: the final shape only
      if (o.contains("directory")) {
        if (!o["directory"].is_string()) throw SceneError{"output.directory must be a string"};
        scene.outputDirectory = o["directory"].get<std::string>();
      }
      scene.imageWidth =
          integer(o, "output", "image_width", scene.imageWidth, limits::kMinImageSide, limits::kMaxImageSide);
      scene.imageHeight =
          integer(o, "output", "image_height", scene.imageHeight, limits::kMinImageSide, limits::kMaxImageSide);
    }
    if (root.contains("boxes")) {
      const json& list = root["boxes"];
      if (!list.is_array())
        throw SceneError{"boxes must be an array of {center, half_extents, rotation_deg, friction}"};
      if (list.size() > HG_MAX_CLOTH_BOXES)
        throw SceneError{"boxes: " + std::to_string(list.size()) + " boxes is out of range (at most " +
                         std::to_string(HG_MAX_CLOTH_BOXES) + " box colliders)"};
      for (std::size_t i = 0; i < list.size(); ++i) {
        const json& b = list[i];
        const std::string where = "boxes[" + std::to_string(i) + "]";
        if (!b.is_object())
          throw SceneError{where + " must be an object {center, half_extents, rotation_deg, friction}"};
        checkKeys(b, where, {"center", "half_extents", "rotation_deg", "friction"});
        if (!b.contains("half_extents")) throw SceneError{where + ".half_extents is required ([x, y, z] m)"};
        SceneBoxSpec spec;
        spec.box.centre = vec3(b, where, "center", glm::vec3(0.0f));
        spec.box.halfLengths = vec3(b, where, "half_extents", glm::vec3(0.0f));
        if (!(spec.box.halfLengths.x > 0.0f && spec.box.halfLengths.y > 0.0f && spec.box.halfLengths.z > 0.0f))
          throw SceneError{where + ".half_extents must be > 0 m"};
        const glm::mat3 r = sceneRotation(vec3(b, where, "rotation_deg", glm::vec3(0.0f)));
        spec.box.axes = {r[0], r[1], r[2]};
        if (b.contains("friction")) {
          spec.friction = number(b, where, "friction", 0.0f);
          if (!(*spec.friction >= 0.0f)) throw SceneError{where + ".friction must be >= 0"};
        }
        scene.boxes.push_back(spec);
      }
    }
    if (root.contains("props")) {
      const json& list = root["props"];
      if (!list.is_array()) throw SceneError{"props must be an array of props ({\"shape\" or \"mesh\", ...})"};
      for (std::size_t i = 0; i < list.size(); ++i) {
        const json& p = list[i];
        const std::string where = "props[" + std::to_string(i) + "]";
        if (!p.is_object()) throw SceneError{where + " must be an object"};
        checkKeys(p, where,
                  {"shape", "mesh", "position", "rotation_deg", "scale", "collider", "resolution", "friction"});
        ScenePropSpec spec;
        if (p.contains("shape") == p.contains("mesh"))
          throw SceneError{where +
                           ": give either \"shape\" (bottle, box, sphere, torus, capsule) or \"mesh\" (a file)"};
        if (p.contains("shape")) {
          const json& k = p["shape"];
          if (!k.is_string() || (k != "bottle" && k != "box" && k != "sphere" && k != "torus" && k != "capsule"))
            throw SceneError{where + ".shape must be \"bottle\", \"box\", \"sphere\", \"torus\" or \"capsule\""};
          spec.shape = k.get<std::string>();
        } else {
          if (!p["mesh"].is_string() || p["mesh"].get<std::string>().empty())
            throw SceneError{where + ".mesh must be a file name"};
          spec.mesh = p["mesh"].get<std::string>();
        }
        spec.position = vec3(p, where, "position", spec.position);
        spec.rotationDegrees = vec3(p, where, "rotation_deg", spec.rotationDegrees);
        if (p.contains("scale")) {
          spec.scale =
              p["scale"].is_array() ? vec3(p, where, "scale", spec.scale) : glm::vec3(number(p, where, "scale", 1.0f));
          if (!(spec.scale.x > 0.0f && spec.scale.y > 0.0f && spec.scale.z > 0.0f))
            throw SceneError{where + ".scale must be > 0 (a number or [sx, sy, sz])"};
        }
        if (p.contains("collider")) {
          const json& c = p["collider"];
          if (!c.is_string() || (c != "sphere_tree" && c != "obb"))
            throw SceneError{where + ".collider must be \"sphere_tree\" or \"obb\""};
          spec.collider = c == "obb" ? PropCollider::Obb : PropCollider::SphereTree;
        }
        if (p.contains("resolution")) {
          spec.resolution = integer(p, where, "resolution", spec.resolution, limits::kMinVoxelResolution,
                                    limits::kMaxVoxelResolution);
        }
        if (p.contains("friction")) {
          spec.friction = number(p, where, "friction", 0.0f);
          if (!(*spec.friction >= 0.0f)) throw SceneError{where + ".friction must be >= 0"};
        }
        scene.props.push_back(spec);
      }
    }
    checkWork(scene);
    if (Status s = settings.validate(); !s) throw SceneError{"solver: " + s.error().message};
  } catch (...) {
    return sceneParseError(origin);
  }
  return scene;
}

Result<DrapeScene> loadDrapeScene(const std::filesystem::path& path) {
  auto text = readSceneFile(path);
  if (!text) return text.error();
  auto scene = parseDrapeScene(*text, path.string());
  if (scene) scene->directory = path.parent_path();
  return scene;
}

}  // namespace hg
