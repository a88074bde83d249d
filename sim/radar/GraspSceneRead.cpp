// Reading grasp scenes: a field table per block (sim/io/FieldTable.h), then the objects are
// built (mesh files relative to the scene's folder, sphere trees) and the keys that join
// others checked. Every key, unit, range and default is in docs/user-guide.md, "Scene key
// reference", generated from these tables.
#include "sim/radar/GraspSceneRead.h"

#include <algorithm>
#include <memory>
#include <set>

#include <glm/geometric.hpp>

#include "sim/core/Limits.h"
#include "sim/core/Numbers.h"
#include "sim/io/FieldTable.h"
#include "sim/io/MeshImport.h"
#include "sim/radar/Grasp.h"

namespace hg {
namespace {

using namespace fields;

/// Degrees to radians, as sim/radar/Grasp.cpp converts them.

/// A target or distractor as given: the analytic shapes' keys in `object`, a mesh object's
/// beside it; built after the walk (buildObject), when the scene's folder is known.
struct ObjectBlock {
  std::string shape = "sphere";
  GraspObject object;  ///< center, radius, size, detail, id
  std::optional<glm::vec3> a, b;
  std::string mesh;
  std::string builtin;
  glm::vec3 position{0.0f};
  glm::vec3 rotationDeg{0.0f};
  float scale = 1.0f;
  int resolution = kGraspCheckResolution;
  json given;  ///< the object as written: which keys it has
};

/// What the reader fills: the scene, and the objects built after the walk.
struct GraspReading {
  GraspScene scene;
  ObjectBlock target;
  std::vector<ObjectBlock> distractors;
  std::filesystem::path directory;  ///< mesh files are relative to it
};

/// A distractor's defaults: radar ID 2 (the target's is 1).
ObjectBlock distractorPrototype() {
  ObjectBlock b;
  b.object.id = 2;
  return b;
}

/// radar.image: a pixel count (square) or [width, height].
Value<RadarImageSize> imageValue() {
  const json side = {{"type", "integer"}, {"minimum", 8}, {"maximum", HG_RADAR_MAX_IMAGE}};
  const json pair = {{"type", "array"}, {"items", side}, {"minItems", 2}, {"maxItems", 2}};
  return leaf<RadarImageSize>(
      "whole number or [width, height]", "8.." + std::to_string(HG_RADAR_MAX_IMAGE),
      {{"anyOf", json::array({side, pair})}},
      [](const json& v, const std::string& name, RadarImageSize& into) {
        if (v.is_number()) {
          const int pixels = int(scenejson::wholeNumber(v, name, 8, HG_RADAR_MAX_IMAGE));
          into = {pixels, pixels};
        } else if (v.is_array() && v.size() == 2) {
          into = {int(scenejson::wholeNumber(v[0], name + ".width", 8, HG_RADAR_MAX_IMAGE)),
                  int(scenejson::wholeNumber(v[1], name + ".height", 8, HG_RADAR_MAX_IMAGE))};
        } else {
          throw SceneError{name + " must be a pixel count or [width, height]"};
        }
      },
      [](const RadarImageSize& s) {
        return s.width == s.height ? json(s.width) : json::array({s.width, s.height});
      });
}

/// An angle given in degrees, kept in radians.
Value<float> degreesValue() {
  return leaf<float>(
      "number", "", {{"type", "number"}},
      [](const json& v, const std::string& name, float& into) { into = scenejson::numberValue(v, name) * kDegree; },
      [](const float& radians) { return floatJson(radians / kDegree); });
}

Table<ObjectBlock> objectKeys(bool target) {
  std::vector<std::pair<std::string, std::string>> shapes = {{"sphere", "sphere"}, {"capsule", "capsule"}};
  if (!target) shapes.push_back({"box", "box"});
  shapes.push_back({"mesh", "mesh"});
  Table<ObjectBlock> t(target ? "The object the hands detect by its radar ID and grasp"
                              : "A static object in the way, seen by the radars");
  t.add("shape", &ObjectBlock::shape, choice<std::string>(shapes), "",
        "An analytic shape (exact distance checks) or a watertight mesh held as a sphere tree (docs/methods.md "
        "section 6)");
  t.add("id", nested(&ObjectBlock::object, &GraspObject::id),
        target ? integer<std::uint32_t>(0, 127, "must be < 128 (detection by ID reads IDs 0..127)")
               : integer<std::uint32_t>(0, 999, "must be < 1000 (hands use 1000 and up)"),
        "", "Radar object ID");
  t.add("center", nested(&ObjectBlock::object, &GraspObject::center), fields::vec3(), "m", "Sphere and box centre");
  t.add("radius", nested(&ObjectBlock::object, &GraspObject::radius), number(positive()), "m",
        "Sphere and capsule radius");
  t.add("a", &ObjectBlock::a, optional(fields::vec3()), "m", "Capsule axis end (default: center - 0.1 m along y)");
  t.add("b", &ObjectBlock::b, optional(fields::vec3()), "m", "Capsule axis end (default: center + 0.1 m along y)");
  t.add("size", nested(&ObjectBlock::object, &GraspObject::size), fields::vec3(), "m",
        "Box edge lengths (axis-aligned)");
  t.add("detail", nested(&ObjectBlock::object, &GraspObject::detail), integer(1, 6), "",
        "Tessellation: icosphere subdivisions; capsule rings 2 x detail, segments 8 x detail");
  t.add("mesh", &ObjectBlock::mesh, text(true), "",
        "Mesh: a watertight mesh file (any format assimp reads) relative to the scene's folder");
  t.add("builtin", &ObjectBlock::builtin, choice<std::string>({{"bottle", "bottle"}}), "",
        "Mesh: a built-in solid instead of a file (a 0.3 m bottle standing on its base at the origin, +y up)");
  t.add("position", &ObjectBlock::position, fields::vec3(), "m", "Mesh: where its origin is placed");
  t.add("rotation_deg", &ObjectBlock::rotationDeg, fields::vec3(), "deg",
        "Mesh: turned about x, then y, then z (world axes)");
  t.add("scale", &ObjectBlock::scale, number(positive()), "", "Mesh: uniform scale, applied first");
  t.add("resolution", &ObjectBlock::resolution, integer(limits::kMinVoxelResolution, limits::kMaxVoxelResolution), "",
        "Mesh: sphere-tree voxels along its longest side");
  t.check([](ObjectBlock& b, const json& object, const std::string&) { b.given = object; });
  return t;
}

/// A mesh file, welded by position (sim/io/MeshImport.h), or a SceneError naming the key.
TriangleMesh readMeshFile(const std::filesystem::path& path, const std::string& where) {
  Result<TriangleMesh> mesh = importWeldedMesh(path);
  if (!mesh) throw SceneError{where + ".mesh: " + mesh.error().message};
  return std::move(mesh).value();
}

GraspObject buildMeshObject(const ObjectBlock& b, const std::string& where, const std::filesystem::path& directory) {
  for (const char* key : {"center", "radius", "a", "b", "size", "detail"})
    if (b.given.contains(key))
      throw SceneError{where + "." + key + " does not apply to a mesh (use position, rotation_deg and scale)"};
  const bool file = b.given.contains("mesh"), builtin = b.given.contains("builtin");
  if (file == builtin) throw SceneError{where + ": a mesh object needs one of \"mesh\" (a file) or \"builtin\""};
  TriangleMesh mesh;
  std::string source, what;
  if (builtin) {
    mesh = makeBottle(glm::vec3(0.0f), 0.3f);
    source = "builtin:bottle";
    what = where + " (builtin bottle)";
  } else {
    std::filesystem::path path = b.mesh;
    if (path.is_relative()) path = directory / path;
    mesh = readMeshFile(path, where);
    source = b.mesh;
    what = where + " (" + path.string() + ")";
  }
  for (glm::vec3& p : mesh.positions) p *= b.scale;
  RigidPose pose;
  pose.rotation = rotationFromDegrees(b.rotationDeg);
  pose.translation = b.position;
  auto object = makeMeshGraspObject(std::move(mesh), pose, b.resolution, b.object.id, source, what);
  if (!object) throw SceneError{object.error().message};
  auto shape = std::make_shared<GraspMeshShape>(*object->meshShape);
  shape->rotationDeg = b.rotationDeg;
  shape->scale = b.scale;
  object->meshShape = std::move(shape);
  return std::move(object).value();
}

/// The object of a block: a mesh object, or an analytic shape with its checks.
GraspObject buildObject(const ObjectBlock& b, const std::string& where, const std::filesystem::path& directory) {
  if (b.shape == "mesh") return buildMeshObject(b, where, directory);
  for (const char* key : {"mesh", "builtin", "position", "rotation_deg", "scale", "resolution"})
    if (b.given.contains(key)) throw SceneError{where + "." + key + " applies to a mesh only (shape \"mesh\")"};
  GraspObject o = b.object;
  o.shape = b.shape == "capsule" ? GraspObject::Shape::Capsule
            : b.shape == "box"   ? GraspObject::Shape::Box
                                 : GraspObject::Shape::Sphere;
  o.a = b.a.value_or(o.center - glm::vec3(0.0f, 0.1f, 0.0f));
  o.b = b.b.value_or(o.center + glm::vec3(0.0f, 0.1f, 0.0f));
  if (o.shape == GraspObject::Shape::Capsule && !(glm::length(o.b - o.a) > 0.0f))
    throw SceneError{where + ": a capsule needs a != b"};
  if (o.shape == GraspObject::Shape::Box && !(o.size.x > 0.0f && o.size.y > 0.0f && o.size.z > 0.0f))
    throw SceneError{where + ".size must be > 0 along every axis"};
  return o;
}

Table<GraspHandPlacement> handKeys() {
  Table<GraspHandPlacement> t("Where a hand starts (HandModel: 17 radars)");
  t.add("position", &GraspHandPlacement::position, fields::vec3(), "m", "Palm-face centre").required();
  t.add("facing", &GraspHandPlacement::facing, fields::vec3(), "", "Initial palm normal");
  t.add("fingers", &GraspHandPlacement::fingers, fields::vec3(), "",
        "Initial finger direction (made orthogonal to facing)");
  t.add("scan_axis", &GraspHandPlacement::scanAxis, fields::vec3(), "",
        "Phase 1 turns the hand about this axis through the palm centre");
  t.add("scale", &GraspHandPlacement::scale, number(positive()), "", "The standard hand scaled by this");
  t.check([](GraspHandPlacement& hand, const json&, const std::string& where) {
    if (!(glm::length(hand.facing) > 0.0f)) throw SceneError{where + ".facing must not be zero"};
    if (!(glm::length(hand.scanAxis) > 0.0f)) throw SceneError{where + ".scan_axis must not be zero"};
    const glm::vec3 f = glm::normalize(hand.facing);
    if (!(glm::length(hand.fingers - glm::dot(hand.fingers, f) * f) > 1e-3f * glm::length(hand.fingers)))
      throw SceneError{where + ".fingers must not be parallel to facing"};
  });
  return t;
}

Table<GraspSettings> radarKeys() {
  Table<GraspSettings> t("The radars (docs/methods.md section 3)");
  t.add("image", &GraspSettings::image, imageValue(), "px", "Every radar's image (square is best)");
  t.add("detect_width", &GraspSettings::detectWidth, number(), "m", "Phase 1 detection volume: width");
  t.add("detect_height", &GraspSettings::detectHeight, number(), "m", "Phase 1 detection volume: height");
  t.add("detect_depth", &GraspSettings::detectDepth, number(), "m", "Phase 1 detection volume: depth");
  t.add("max_size", &GraspSettings::maxSize, number(), "m", "Phase 2 MaxSize volume: width and height");
  t.add("segment_range", &GraspSettings::segmentRange, number(), "m",
        "Phases 1 and 2: depth of the segments' detection radars");
  t.add("look_ahead", &GraspSettings::lookAhead, number(), "m", "Static segments' collision radars: distance to move");
  return t;
}

Table<GraspSettings> motionKeys() {
  Table<GraspSettings> t("The three phases' steps and limits");
  t.add("scan_step_deg", &GraspSettings::scanStep, degreesValue(), "deg", "Phase 1: turn per frame");
  t.add("max_aim_frames", &GraspSettings::maxAimFrames, integer(0, limits::kMaxFrames), "",
        "Phase 1: turns toward the target before approaching anyway");
  t.add("approach_step", &GraspSettings::approachStep, number(), "m", "Phase 2: move per frame");
  t.add("approach_clearance", &GraspSettings::approachClearance, number(), "m",
        "Phase 2: left between the hand and the obstacle");
  t.add("max_approach", &GraspSettings::maxApproach, number(), "m",
        "Phase 2: farther means the target was not reached");
  t.add("joint_step_deg", &GraspSettings::jointStep, degreesValue(), "deg", "Phase 3: largest bend per frame");
  t.add("grasp_clearance", &GraspSettings::graspClearance, number(), "m",
        "Phase 3: the gap a closing segment aims for");
  t.add("contact_tolerance", &GraspSettings::contactTolerance, number(), "m",
        "Phase 3: above the clearance that still counts as contact");
  t.add("joint_iterations", &GraspSettings::jointIterations, integer(1, limits::kMaxSolverIterations), "",
        "Phase 3: frames per joint at most");
  t.add("max_frames", &GraspSettings::maxFrames, integer(1, limits::kMaxFrames), "", "The run stops after this many");
  t.add("close_together", &GraspSettings::closeTogether, boolean(), "",
        "Phase 3 starts for all hands together (an arrived hand waits)");
  return t;
}

Table<GraspScene> outputKeys() {
  Table<GraspScene> t("What is written (to --out)");
  t.add("directory", &GraspScene::outputDirectory, path(), "", "Output folder (the command line's --out wins)");
  t.add("image_width", &GraspScene::imageWidth, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
        "Width of the picture");
  t.add("image_height", &GraspScene::imageHeight, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
        "Height of the picture");
  return t;
}

/// Builds the objects (mesh files, sphere trees) and checks the IDs and the settings.
void finishScene(GraspReading& r, const json&, const std::string&) {
  r.scene.target = buildObject(r.target, "target", r.directory);
  std::set<std::uint32_t> ids{r.scene.target.id};
  for (std::size_t i = 0; i < r.distractors.size(); ++i) {
    const std::string where = "distractors[" + std::to_string(i) + "]";
    r.scene.distractors.push_back(buildObject(r.distractors[i], where, r.directory));
    if (!ids.insert(r.scene.distractors.back().id).second)
      throw SceneError{where + ".id " + std::to_string(r.scene.distractors.back().id) + " is already used"};
  }
  if (Status st = r.scene.settings.validate(); !st) throw SceneError{st.error().message};
}

const Table<GraspReading>& graspTable() {
  static const Table<GraspReading> table = [] {
    const auto settings = [](GraspReading& r) -> GraspSettings& { return r.scene.settings; };
    Table<GraspReading> t(
        "A grasp scene (hagoromo grasp): hands of radars detect a target, approach it and close "
        "their fingers on it (docs/methods.md section 3)");
    t.topLevel().schemaKey();
    t.add("name", nested(&GraspReading::scene, &GraspScene::name), outputName(), "",
          "The outputs' base name: a plain file name (no folders, no leading '.')");
    t.add("target", &GraspReading::target, object(objectKeys(true)), "", "The object to grasp").required();
    t.add("distractors", &GraspReading::distractors, list(object(objectKeys(false)), {}, distractorPrototype()), "",
          "Other objects in the scene");
    t.add("hands", nested(&GraspReading::scene, &GraspScene::hands),
          list(object(handKeys()),
               {.min = 1,
                .max = 64,
                .tooMany = [](const std::string& name, std::size_t) { return name + ": at most 64"; }}),
          "", "The hands, each of 17 radars")
        .required(" must be a non-empty array");
    t.add("radar", settings, object(radarKeys()), "", "The radars");
    t.add("motion", settings, object(motionKeys()), "", "The phases");
    t.add("output", &GraspReading::scene, object(outputKeys()), "", "What is written");
    t.check(finishScene);
    return t;
  }();
  return table;
}

}  // namespace

Result<GraspScene> parseGraspScene(const std::string& text, const std::string& origin,
                                   const std::filesystem::path& directory) {
  GraspReading reading;
  reading.directory = directory;
  try {
    graspTable().read(scenejson::parseDocument(text), "scene", reading);
  } catch (...) {
    return scenejson::sceneParseError(origin);
  }
  return std::move(reading.scene);
}

Result<GraspScene> loadGraspScene(const std::filesystem::path& path) {
  auto text = scenejson::readSceneFile(path);
  if (!text) return text.error();
  return parseGraspScene(*text, path.string(), path.parent_path());
}

fields::ObjectDoc graspSceneKeys() { return graspTable().describe(GraspReading{}); }

}  // namespace hg
