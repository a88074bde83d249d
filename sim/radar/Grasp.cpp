#include "sim/radar/Grasp.h"

#include <cmath>
#include <set>
#include <string>

#include <glm/geometric.hpp>

#include "sim/core/Limits.h"
#include "sim/io/MeshImport.h"
#include "sim/io/SceneJson.h"

namespace hg {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kDegree = kPi / 180.0f;

// ---- scene parsing ----

using namespace scenejson;

/// A mesh file, welded by position (sim/io/MeshImport.h), or a SceneError naming the key.
TriangleMesh readMeshFile(const std::filesystem::path& path, const std::string& where) {
  Result<TriangleMesh> mesh = importWeldedMesh(path);
  if (!mesh) throw SceneError{where + ".mesh: " + mesh.error().message};
  return std::move(mesh).value();
}

GraspObject parseMeshObject(const json& j, const std::string& where, std::uint32_t id,
                            const std::filesystem::path& directory) {
  for (const char* key : {"center", "radius", "a", "b", "size", "detail"})
    if (j.contains(key))
      throw SceneError{where + "." + key + " does not apply to a mesh (use position, rotation_deg and scale)"};
  const bool file = j.contains("mesh"), builtin = j.contains("builtin");
  if (file == builtin) throw SceneError{where + ": a mesh object needs one of \"mesh\" (a file) or \"builtin\""};
  const float scale = positive(j, where, "scale", 1.0f);
  const int resolution =
      integer(j, where, "resolution", kGraspCheckResolution, limits::kMinVoxelResolution, limits::kMaxVoxelResolution);
  const glm::vec3 position = vec3(j, where, "position", glm::vec3(0.0f));
  const glm::vec3 degrees = vec3(j, where, "rotation_deg", glm::vec3(0.0f));
  TriangleMesh mesh;
  std::string source, what;
  if (builtin) {
    if (!j["builtin"].is_string() || j["builtin"].get<std::string>() != "bottle")
      throw SceneError{where + ".builtin must be \"bottle\""};
    mesh = makeBottle(glm::vec3(0.0f), 0.3f);
    source = "builtin:bottle";
    what = where + " (builtin bottle)";
  } else {
    if (!j["mesh"].is_string() || j["mesh"].get<std::string>().empty())
      throw SceneError{where + ".mesh must be a file name"};
    std::filesystem::path path = j["mesh"].get<std::string>();
    if (path.is_relative()) path = directory / path;
    mesh = readMeshFile(path, where);
    source = j["mesh"].get<std::string>();
    what = where + " (" + path.string() + ")";
  }
  for (glm::vec3& p : mesh.positions) p *= scale;
  RigidPose pose;
  pose.rotation = rotationFromDegrees(degrees);
  pose.translation = position;
  auto object = makeMeshGraspObject(std::move(mesh), pose, resolution, id, source, what);
  if (!object) throw SceneError{object.error().message};
  auto shape = std::make_shared<GraspMeshShape>(*object->meshShape);
  shape->rotationDeg = degrees;
  shape->scale = scale;
  object->meshShape = std::move(shape);
  return std::move(object).value();
}

GraspObject parseObject(const json& j, const std::string& where, bool target, const std::filesystem::path& directory) {
  checkKeys(j, where,
            {"shape", "center", "radius", "a", "b", "size", "id", "detail", "mesh", "builtin", "position",
             "rotation_deg", "scale", "resolution"});
  GraspObject o;
  const std::string shape =
      j.contains("shape") ? (j["shape"].is_string() ? j["shape"].get<std::string>() : "?") : std::string("sphere");
  if (j.contains("id") && !j["id"].is_number_unsigned()) throw SceneError{where + ".id must be a non-negative integer"};
  const std::uint64_t id = j.contains("id") ? j["id"].get<std::uint64_t>() : (target ? 1u : 2u);
  if (target && id >= 128) throw SceneError{where + ".id must be < 128 (detection by ID reads IDs 0..127)"};
  if (id >= 1000) throw SceneError{where + ".id must be < 1000 (hands use 1000 and up)"};
  if (shape == "sphere") {
    o.shape = GraspObject::Shape::Sphere;
  } else if (shape == "capsule") {
    o.shape = GraspObject::Shape::Capsule;
  } else if (shape == "box" && !target) {
    o.shape = GraspObject::Shape::Box;
  } else if (shape == "mesh") {
    return parseMeshObject(j, where, std::uint32_t(id), directory);
  } else {
    throw SceneError{
        where + ".shape must be " +
        std::string(target ? "\"sphere\", \"capsule\" or \"mesh\"" : "\"sphere\", \"capsule\", \"box\" or \"mesh\"")};
  }
  for (const char* key : {"mesh", "builtin", "position", "rotation_deg", "scale", "resolution"})
    if (j.contains(key)) throw SceneError{where + "." + key + " applies to a mesh only (shape \"mesh\")"};
  o.center = vec3(j, where, "center", o.center);
  o.radius = positive(j, where, "radius", o.radius);
  o.a = vec3(j, where, "a", o.center - glm::vec3(0.0f, 0.1f, 0.0f));
  o.b = vec3(j, where, "b", o.center + glm::vec3(0.0f, 0.1f, 0.0f));
  o.size = vec3(j, where, "size", o.size);
  if (o.shape == GraspObject::Shape::Capsule && !(glm::length(o.b - o.a) > 0.0f))
    throw SceneError{where + ": a capsule needs a != b"};
  if (o.shape == GraspObject::Shape::Box && !(o.size.x > 0.0f && o.size.y > 0.0f && o.size.z > 0.0f))
    throw SceneError{where + ".size must be > 0 along every axis"};
  o.id = std::uint32_t(id);
  o.detail = integer(j, where, "detail", o.detail, 1, 6);
  return o;
}

}  // namespace

// ---- settings and scene ----

Status GraspSettings::validate() const {
  if (image.width < 8 || image.height < 8 || image.width > HG_RADAR_MAX_IMAGE || image.height > HG_RADAR_MAX_IMAGE)
    return Error{"radar.image must be in 8.." + std::to_string(HG_RADAR_MAX_IMAGE) + " pixels"};
  const std::pair<float, const char*> positives[] = {{detectWidth, "radar.detect_width"},
                                                     {detectHeight, "radar.detect_height"},
                                                     {detectDepth, "radar.detect_depth"},
                                                     {maxSize, "radar.max_size"},
                                                     {segmentRange, "radar.segment_range"},
                                                     {lookAhead, "radar.look_ahead"},
                                                     {scanStep, "motion.scan_step_deg"},
                                                     {approachStep, "motion.approach_step"},
                                                     {approachClearance, "motion.approach_clearance"},
                                                     {maxApproach, "motion.max_approach"},
                                                     {jointStep, "motion.joint_step_deg"},
                                                     {graspClearance, "motion.grasp_clearance"}};
  for (const auto& [value, name] : positives)
    if (!(std::isfinite(value) && value > 0.0f)) return Error{std::string(name) + " must be finite and > 0"};
  if (!(contactTolerance >= 0.0f && std::isfinite(contactTolerance)))
    return Error{"motion.contact_tolerance must be >= 0"};
  if (scanStep > kPi) return Error{"motion.scan_step_deg must be <= 180"};
  if (jointStep > 1.0f) return Error{"motion.joint_step_deg must be <= 57 (the sweep is a translation)"};
  if (maxAimFrames < 0) return Error{"motion.max_aim_frames must be >= 0"};
  if (jointIterations < 1) return Error{"motion.joint_iterations must be >= 1"};
  if (maxFrames < 1) return Error{"motion.max_frames must be >= 1"};
  return Status::success();
}

Result<GraspScene> parseGraspScene(const std::string& text, const std::string& origin,
                                   const std::filesystem::path& directory) {
  GraspScene scene;
  try {
    const json root = parseDocument(text);
    checkKeys(root, "scene", {"name", "target", "distractors", "hands", "radar", "motion", "output"});
    if (root.contains("name")) scene.name = outputName(root["name"], "scene.name");
    if (!root.contains("target")) throw SceneError{"scene.target is missing"};
    scene.target = parseObject(root["target"], "target", true, directory);
    std::set<std::uint32_t> ids{scene.target.id};
    if (root.contains("distractors")) {
      if (!root["distractors"].is_array()) throw SceneError{"distractors must be an array"};
      for (std::size_t i = 0; i < root["distractors"].size(); ++i) {
        const std::string where = "distractors[" + std::to_string(i) + "]";
        scene.distractors.push_back(parseObject(root["distractors"][i], where, false, directory));
        if (!ids.insert(scene.distractors.back().id).second)
          throw SceneError{where + ".id " + std::to_string(scene.distractors.back().id) + " is already used"};
      }
    }
    if (!root.contains("hands") || !root["hands"].is_array() || root["hands"].empty())
      throw SceneError{"hands must be a non-empty array"};
    if (root["hands"].size() > 64) throw SceneError{"hands: at most 64"};
    for (std::size_t i = 0; i < root["hands"].size(); ++i) {
      const std::string where = "hands[" + std::to_string(i) + "]";
      const json& j = root["hands"][i];
      checkKeys(j, where, {"position", "facing", "fingers", "scan_axis", "scale"});
      GraspHandPlacement hand;
      if (!j.contains("position")) throw SceneError{where + ".position is missing"};
      hand.position = vec3(j, where, "position", hand.position);
      hand.facing = vec3(j, where, "facing", hand.facing);
      hand.fingers = vec3(j, where, "fingers", hand.fingers);
      hand.scanAxis = vec3(j, where, "scan_axis", hand.scanAxis);
      hand.scale = positive(j, where, "scale", hand.scale);
      if (!(glm::length(hand.facing) > 0.0f)) throw SceneError{where + ".facing must not be zero"};
      if (!(glm::length(hand.scanAxis) > 0.0f)) throw SceneError{where + ".scan_axis must not be zero"};
      const glm::vec3 f = glm::normalize(hand.facing);
      if (!(glm::length(hand.fingers - glm::dot(hand.fingers, f) * f) > 1e-3f * glm::length(hand.fingers)))
        throw SceneError{where + ".fingers must not be parallel to facing"};
      scene.hands.push_back(hand);
    }
    GraspSettings& s = scene.settings;
    if (root.contains("radar")) {
      const json& r = root["radar"];
      checkKeys(r, "radar",
                {"image", "detect_width", "detect_height", "detect_depth", "max_size", "segment_range", "look_ahead"});
      if (r.contains("image")) {
        const json& im = r["image"];
        if (im.is_number()) {
          const int side = integer(r, "radar", "image", 0, 8, HG_RADAR_MAX_IMAGE);
          s.image = {side, side};
        } else if (im.is_array() && im.size() == 2) {
          const json sides = {{"width", im[0]}, {"height", im[1]}};
          s.image = {integer(sides, "radar.image", "width", 0, 8, HG_RADAR_MAX_IMAGE),
                     integer(sides, "radar.image", "height", 0, 8, HG_RADAR_MAX_IMAGE)};
        } else {
          throw SceneError{"radar.image must be a pixel count or [width, height]"};
        }
      }
      s.detectWidth = number(r, "radar", "detect_width", s.detectWidth);
      s.detectHeight = number(r, "radar", "detect_height", s.detectHeight);
      s.detectDepth = number(r, "radar", "detect_depth", s.detectDepth);
      s.maxSize = number(r, "radar", "max_size", s.maxSize);
      s.segmentRange = number(r, "radar", "segment_range", s.segmentRange);
      s.lookAhead = number(r, "radar", "look_ahead", s.lookAhead);
    }
    if (root.contains("motion")) {
      const json& m = root["motion"];
      checkKeys(
          m, "motion",
          {"scan_step_deg", "max_aim_frames", "approach_step", "approach_clearance", "max_approach", "joint_step_deg",
           "grasp_clearance", "contact_tolerance", "joint_iterations", "max_frames", "close_together"});
      s.scanStep = number(m, "motion", "scan_step_deg", s.scanStep / kDegree) * kDegree;
      s.maxAimFrames = integer(m, "motion", "max_aim_frames", s.maxAimFrames, 0, limits::kMaxFrames);
      s.approachStep = number(m, "motion", "approach_step", s.approachStep);
      s.approachClearance = number(m, "motion", "approach_clearance", s.approachClearance);
      s.maxApproach = number(m, "motion", "max_approach", s.maxApproach);
      s.jointStep = number(m, "motion", "joint_step_deg", s.jointStep / kDegree) * kDegree;
      s.graspClearance = number(m, "motion", "grasp_clearance", s.graspClearance);
      s.contactTolerance = number(m, "motion", "contact_tolerance", s.contactTolerance);
      s.jointIterations = integer(m, "motion", "joint_iterations", s.jointIterations, 1, limits::kMaxSolverIterations);
      s.maxFrames = integer(m, "motion", "max_frames", s.maxFrames, 1, limits::kMaxFrames);
      if (m.contains("close_together")) {
        if (!m["close_together"].is_boolean()) throw SceneError{"motion.close_together must be true or false"};
        s.closeTogether = m["close_together"].get<bool>();
      }
    }
    if (Status st = s.validate(); !st) throw SceneError{st.error().message};
    if (root.contains("output")) {
      const json& o = root["output"];
      checkKeys(o, "output", {"directory", "image_width", "image_height"});
      if (o.contains("directory")) {
        if (!o["directory"].is_string()) throw SceneError{"output.directory must be a string"};
        scene.outputDirectory = o["directory"].get<std::string>();
      }
      scene.imageWidth =
          integer(o, "output", "image_width", scene.imageWidth, limits::kMinImageSide, limits::kMaxImageSide);
      scene.imageHeight =
          integer(o, "output", "image_height", scene.imageHeight, limits::kMinImageSide, limits::kMaxImageSide);
    }
  } catch (...) {
    return sceneParseError(origin);
  }
  return scene;
}

Result<GraspScene> loadGraspScene(const std::filesystem::path& path) {
  auto text = readSceneFile(path);
  if (!text) return text.error();
  return parseGraspScene(*text, path.string(), path.parent_path());
}

}  // namespace hg
