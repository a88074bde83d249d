// Reading drape scenes: a field table per block (sim/io/FieldTable.h), then the checks that
// join several keys. Every key, unit, range and default is in docs/user-guide.md, "Scene key
// reference", generated from these tables.
#include "sim/scene/DrapeSceneRead.h"

#include <limits>

#include "sim/core/Limits.h"
#include "sim/io/FieldTable.h"
#include "sim/scene/DrapeScene.h"

namespace hg {
namespace {

using namespace fields;

/// solver.continuous_collision as given; it joins the scene after the walk (its clearance
/// defaults to solver.contact_offset, its radars need an avatar).
struct SweepBlock {
  bool given = false;  ///< an object, not null
  std::string method = "radar";
  ClothSweepSettings settings;
  std::optional<float> clearance;
};

/// A "boxes" entry as given (rotation in degrees).
struct BoxBlock {
  glm::vec3 center{0.0f};
  glm::vec3 halfExtents{0.0f};
  glm::vec3 rotationDeg{0.0f};
  std::optional<float> friction;
};

/// A scene's defaults for a stable run: substeps chosen from the stable step ("auto") and
/// two retries of an unstable frame at 2x and 4x the substeps.
DrapeScene defaultDrapeScene() {
  DrapeScene scene;
  scene.settings.substeps = 0;
  scene.settings.maxSubstepHalvings = 2;
  return scene;
}

/// What the reader fills: the scene, and the blocks that become part of it after the walk.
/// "sphere": a sphere collider when an object is given (absent or null: none).
struct SphereBlock {
  glm::vec3 center{0.0f, 0.6f, 0.0f};  ///< m
  float radius = 0.5f;                 ///< m
  bool given = false;
};

/// "ground": the plane y = height (null: none).
struct GroundBlock {
  float height = 0.0f;  ///< m
  bool given = true;
};

struct DrapeReading {
  DrapeScene scene = defaultDrapeScene();
  SphereBlock sphere;
  GroundBlock ground;
  std::vector<PinKey> pinKeys;  ///< cloth.pin_animation
  SweepBlock sweep;             ///< solver.continuous_collision
  std::vector<BoxBlock> boxes;
  ImportFrame meshFrame;  ///< cloth.up, scale, rotation_deg, position
};

/// solver.substeps: "auto" (0) or a whole number.
Value<int> substepsValue() {
  const json count = {{"type", "integer"}, {"minimum", 1}, {"maximum", limits::kMaxSubsteps}};
  const json schema = {{"anyOf", json::array({count, json{{"const", "auto"}}})}};
  return leaf<int>(
      "\"auto\" or whole number", "1.." + std::to_string(limits::kMaxSubsteps), schema,
      [](const json& v, const std::string& name, int& into) {
        if (!v.is_string()) {
          into = int(scenejson::wholeNumber(v, name, 1, limits::kMaxSubsteps));
        } else if (v == "auto") {
          into = 0;
        } else {
          throw SceneError{name + " must be \"auto\" or a whole number (1.." + std::to_string(limits::kMaxSubsteps) +
                           ")"};
        }
      },
      [](const int& n) { return n == 0 ? json("auto") : json(n); });
}

/// props[].scale: a number or [sx, sy, sz], > 0.
Value<glm::vec3> scaleValue() {
  json positiveNumber = {{"type", "number"}};
  positive().constrain(positiveNumber);
  const json vector = {{"type", "array"}, {"items", positiveNumber}, {"minItems", 3}, {"maxItems", 3}};
  const Value<glm::vec3> three = fields::vec3();
  return leaf<glm::vec3>(
      "number or [x, y, z]", "> 0", {{"anyOf", json::array({positiveNumber, vector})}},
      [three](const json& v, const std::string& name, glm::vec3& into) {
        glm::vec3 s(0.0f);
        if (v.is_array())
          three.read(v, name, s);
        else
          s = glm::vec3(scenejson::numberValue(v, name));
        if (!(s.x > 0.0f && s.y > 0.0f && s.z > 0.0f))
          throw SceneError{name + " must be > 0 (a number or [sx, sy, sz])"};
        into = s;
      },
      [](const glm::vec3& s) {
        return s.x == s.y && s.y == s.z ? floatJson(s.x)
                                        : json::array({floatJson(s.x), floatJson(s.y), floatJson(s.z)});
      });
}

Table<DrapeReading> anisotropyKeys() {
  Table<DrapeReading> t(
      "Direction-dependent stretch stiffness (docs/methods.md section 1): a texture or four uniform "
      "factors");
  t.add("scale", nested(&DrapeReading::scene, &DrapeScene::anisotropyScale), number(positive()), "",
        "Largest factor: a channel value v gives v / 255 x scale");
  t.add("texture", nested(&DrapeReading::scene, &DrapeScene::anisotropyTexture), path(), "",
        "RGBA PNG of the factors Ka, Kb, Kc, Kd per texel, relative to the scene's folder");
  t.add("uniform", nested(&DrapeReading::scene, &DrapeScene::anisotropyUniform),
        optional(vec4("[Ka, Kb, Kc, Kd]", atLeast(0.0))), "", "The same factors Ka, Kb, Kc, Kd everywhere");
  t.check([](DrapeReading& r, const json&, const std::string& where) {
    if (r.scene.anisotropyUniform && !r.scene.anisotropyTexture.empty())
      throw SceneError{where + ": give either texture or uniform, not both"};
  });
  return t;
}

/// An imported file's up axis: "auto" (detect) or one of the six axes.
Value<std::optional<FileAxis>> upAxisValue() {
  std::vector<std::pair<std::string, std::optional<FileAxis>>> axes = {{"auto", std::nullopt}};
  for (const FileAxis a :
       {FileAxis::PosY, FileAxis::PosZ, FileAxis::NegZ, FileAxis::NegY, FileAxis::PosX, FileAxis::NegX})
    axes.emplace_back(fileAxisName(a), a);
  return choice<std::optional<FileAxis>>(std::move(axes));
}

/// up, scale, rotation_deg and position of an imported file (sim/io/ImportFrame.h).
template <class Owner>
void addImportFrameKeys(Table<Owner>& t, ImportFrame Owner::*frame, const std::string& what) {
  t.add("up", nested(frame, &ImportFrame::up), upAxisValue(), "",
        "The " + what +
            " file's up axis, turned to +y (auto: from the file where it says, glTF +y, FBX's UpAxis; "
            "else +y)");
  t.add("scale", nested(frame, &ImportFrame::scale), optional(number(between(1e-6, 1e6))), "m/unit",
        "Metres per unit of the " + what +
            " file (default: from the file, FBX's UnitScaleFactor; glTF metres; "
            "else 1)");
  t.add("rotation_deg", nested(frame, &ImportFrame::rotationDegrees), fields::vec3(), "deg",
        "Then about the world x, then y, then z axes");
  t.add("position", nested(frame, &ImportFrame::position), fields::vec3(), "m", "Then moved by this");
}

Table<DrapeReading> clothKeys() {
  Table<PinKey> pinKey("A key of the pinned vertices' motion");
  pinKey.add("time", &PinKey::time, number(), "s", "When the pins reach this translation and twist");
  pinKey.add("translate", &PinKey::translation, fields::vec3(), "m", "Added to every pinned vertex's rest position");
  pinKey.add("twist", &PinKey::twist, fields::vec3(), "deg/m",
             "Turns each pinned vertex about this axis through the pins' rest centroid, by the vector's length "
             "times the vertex's rest position along the axis (the ends of a tube turn opposite ways)");
  Table<SquareClothSpec> sheet;
  sheet.add("resolution", &SquareClothSpec::resolution, integer(2, limits::kMaxSheetResolution), "",
            "Vertices along a side of the generated square sheet");
  sheet.add("size", &SquareClothSpec::size, number(), "m", "Side of the sheet");
  sheet.add("center", &SquareClothSpec::center, fields::vec3(), "m", "Centre of the sheet");
  Table<ClothMaterial> material;
  material.add("areal_density", &ClothMaterial::arealDensity, number(), "kg/m^2", "Mass per area");
  material.add("area_weighted_mass", &ClothMaterial::areaWeightedMass, boolean(), "",
               "Vertex masses from 1/3 of the adjacent areas instead of W/p per vertex (docs/methods.md section 1)");
  material.add("tensile_stiffness", &ClothMaterial::tensileStiffness, number(), "N/m",
               "E: force per width per unit strain");
  material.add("bending_rigidity", &ClothMaterial::bendingRigidity, number(), "N m",
               "D: the hinges' rigidity; a sheet bends with 3 D of moment per width per unit curvature "
               "(docs/methods.md section 10)");
  material.add("spring_damping", &ClothMaterial::springDamping, number(), "N s/m", "Axial damping per spring");

  Table<DrapeReading> t(
      "The cloth: a generated square sheet or a mesh, its material and its pins (with garments, "
      "only the material keys)");
  t.include(sheet, nested(&DrapeReading::scene, &DrapeScene::sheet));
  t.add("mesh", nested(&DrapeReading::scene, &DrapeScene::mesh), path(), "",
        "A cloth mesh with UVs (OBJ or any format assimp reads) relative to the scene's folder, instead of the sheet");
  addImportFrameKeys(t, &DrapeReading::meshFrame, "cloth mesh");
  t.add("fabric", nested(&DrapeReading::scene, &DrapeScene::fabric), text(), "",
        "A fabric of the library (`hagoromo fabrics`: measured or calibrated, docs/methods.md section 10), a "
        "preset of fabrics.json beside the scene, or a fabric file in physical units (NAME.json, relative to the "
        "scene: g/m^2, N/m along warp, weft and bias, N m): density (per area), stiffness with its strain "
        "stiffening, bending and a uniform anisotropy (the keys below win)");
  t.include(material, nested(&DrapeReading::scene, &DrapeScene::material));
  t.add("pinned", nested(&DrapeReading::scene, &DrapeScene::pinned),
        list(integer<std::uint32_t>(0, std::numeric_limits<std::uint32_t>::max())), "",
        "Vertex indices held in place (or moved by pin_animation)");
  t.add("pin_animation", &DrapeReading::pinKeys, list(object(pinKey), {.indexed = false}), "",
        "Keys that move the pinned vertices over time, linearly between them");
  t.add("anisotropy", self<DrapeReading>, object(anisotropyKeys()), "", "Direction-dependent stretch stiffness");
  t.check([](DrapeReading& r, const json& cloth, const std::string& where) {
    for (const char* key : {"resolution", "size", "center", "mesh", "pinned", "pin_animation"})
      r.scene.clothShapeGiven |= cloth.contains(key);
    for (const char* key : {"resolution", "size", "center"})
      if (cloth.contains("mesh") && cloth.contains(key))
        throw SceneError{where + "." + key +
                         " shapes the generated sheet; with mesh, place the mesh with up, "
                         "scale, rotation_deg and position"};
    for (const char* key : {"up", "scale", "rotation_deg", "position"})
      if (!cloth.contains("mesh") && cloth.contains(key))
        throw SceneError{where + "." + key + " places a cloth mesh; the generated sheet is placed by center and size"};
    r.scene.meshFrame = r.meshFrame;
    for (const char* key : {"areal_density", "tensile_stiffness", "bending_rigidity"})
      if (cloth.contains(key)) r.scene.materialOverrides.push_back(key);
    if (cloth.contains("pin_animation")) {
      auto animation = PinAnimation::fromKeys(r.pinKeys);
      if (!animation) throw SceneError{where + ".pin_animation: " + animation.error().message};
      r.scene.pinAnimation = std::move(animation).value();
    }
  });
  return t;
}

Table<SceneMotion> motionKeys() {
  Table<SceneMotion> motion(
      "Pose or move the avatar as a BVH clip retargeted onto it (its joints found by their naming "
      "convention, sim/body/SkeletonConvention.h, or by a map file)");
  motion.add("bvh", &SceneMotion::bvh, path(), "", "The BVH clip, relative to the scene's folder").required();
  motion.add("map", &SceneMotion::map, path(), "",
             "A joint-name map file (scenes/motion/) relative to the scene's folder; without it the joints are "
             "matched by their naming conventions (mannequin, Mixamo, Unreal, CMU BVH, SMPL), the rest poses "
             "aligned and the feet kept on the floor");
  motion.add("time", &SceneMotion::time, number(atLeast(0.0)), "s", "Time in the clip of the pose");
  motion.add("unit_scale", &SceneMotion::unitScale, number(positive()), "m", "Metres per BVH unit");
  motion.add("animate", &SceneMotion::animate, boolean(), "",
             "The body follows the clip from `time` on while the cloth drapes (else one pose)");
  motion.add("transition", &SceneMotion::transition, number(between(0.0, 60.0)), "s",
             "With garments: they are sewn on the avatar's rest pose, which then moves into the pose at `time` "
             "over this long (then on through the clip with animate, its playback speeding up from rest over as "
             "long and slowing to rest at its end); 0 sews around that pose instead");
  motion.add("skinning", &SceneMotion::dualQuaternion, choice<bool>({{"dual_quaternion", true}, {"linear", false}}), "",
             "Skinning of the posed body");
  return motion;
}

Table<SceneAvatar> contactKeys() {
  Table<SceneAvatar> contact("How the cloth collides with the body");
  contact.add("method", &SceneAvatar::contactMethod,
              choice<BodyContactMethod>({{"distance_grid", BodyContactMethod::DistanceGrid},
                                         {"depth_views", BodyContactMethod::DepthViews},
                                         {"sphere_tree", BodyContactMethod::SphereTree}}),
              "", "Depth views (docs/methods.md section 2), a signed distance grid or a sphere tree (section 6)");
  contact.add("sphere_tree_resolution", &SceneAvatar::sphereTreeResolution,
              integer(limits::kMinVoxelResolution, limits::kMaxVoxelResolution), "",
              "Sphere tree: voxels along the body's longest side");
  contact.add("thin_features", &SceneAvatar::thinFeatures, boolean(), "",
              "Depth views or distance grid: after every substep, body vertices that came through a cloth "
              "triangle push it back out (docs/methods.md section 2)");
  contact.add("texel", nested(&SceneAvatar::depthViews, &DepthViewOptions::texelSize), number(), "m",
              "Depth views: edge of a texel");
  contact.add("margin", nested(&SceneAvatar::depthViews, &DepthViewOptions::margin), number(), "m",
              "Depth views: view box beyond the body's bounding box on every side");
  contact.add("layers", nested(&SceneAvatar::depthViews, &DepthViewOptions::layers), integer(1, HG_MAX_DEPTH_LAYERS),
              "", "Depth views: depth-peeled layers per view (1: the source's method)");
  std::vector<std::pair<std::string, DepthViewDirection>> directions;
  for (DepthViewDirection d : {DepthViewDirection::Top, DepthViewDirection::Front, DepthViewDirection::Back,
                               DepthViewDirection::Left, DepthViewDirection::Right, DepthViewDirection::Bottom})
    directions.push_back({std::string(depthViewName(d)), d});
  contact.add("views", nested(&SceneAvatar::depthViews, &DepthViewOptions::directions),
              list(choice<DepthViewDirection>(directions, parseDepthViewDirection), {.min = 1}), "",
              "Depth views: the directions the body is seen from");
  contact.check([](SceneAvatar& a, const json&, const std::string& where) {
    if (Status s = a.depthViews.validate(); !s) throw SceneError{where + ": " + s.error().message};
  });
  return contact;
}

Table<MannequinParams> mannequinKeys() {
  Table<MannequinParams> body(
      "The built-in mannequin (sim/body/Mannequin.h): girths and lengths in m, 0 derives "
      "one from the height");
  body.add("height", &MannequinParams::height, number(), "m", "Floor to the top of the head");
  body.add("chest_girth", &MannequinParams::chestGirth, number(), "m", "At the bust line (0: 0.96 x height / 1.75)");
  body.add("waist_girth", &MannequinParams::waistGirth, number(), "m",
           "At the natural waist (0: 0.80 x height / 1.75)");
  body.add("hip_girth", &MannequinParams::hipGirth, number(), "m", "At the hip joints (0: 0.98 x height / 1.75)");
  body.add("neck_girth", &MannequinParams::neckGirth, number(), "m", "0: 0.38 x height / 1.75");
  body.add("upper_arm_girth", &MannequinParams::upperArmGirth, number(), "m", "0: 0.30 x height / 1.75");
  body.add("thigh_girth", &MannequinParams::thighGirth, number(), "m",
           "5 cm below the crotch (0: 0.56 x height / 1.75)");
  body.add("shoulder_width", &MannequinParams::shoulderWidth, number(), "m",
           "Between the shoulder joint centres (0: 0.215 x height)");
  body.add("arm_length", &MannequinParams::armLength, number(), "m",
           "Shoulder joint to wrist joint (0: 0.332 x height)");
  body.add("leg_length", &MannequinParams::legLength, number(), "m", "Inseam, crotch to floor (0: 0.46 x height)");
  body.add("a_pose_arm_angle", &MannequinParams::aPoseArmAngleDegrees, number(), "deg",
           "A-pose: arms down from horizontal");
  body.add("cell_size", &MannequinParams::cellSize, number(), "m", "Grid spacing of the surface extraction");
  body.add("pose", &MannequinParams::pose,
           choice<MannequinPose>({{"a_pose", MannequinPose::APose}, {"t_pose", MannequinPose::TPose}}), "",
           "Rest pose of the arms");
  body.check([](MannequinParams& p, const json&, const std::string& where) {
    if (Status s = p.validate(); !s) throw SceneError{where + ": " + s.error().message};
  });
  return body;
}

Table<SceneAvatar> avatarKeys() {
  Table<SceneAvatar> t(
      "A body to drape on: the built-in mannequin, optionally posed by a BVH clip, or a skinned "
      "character file");
  t.add("file", &SceneAvatar::file, path(), "",
        "A skinned character (glTF, FBX, COLLADA) relative to the scene's folder, instead of the mannequin: read in "
        "its bind pose and welded; an open scan is accepted");
  t.add("file_clip", &SceneAvatar::fileClip, text(), "",
        "With file: pose it as this clip of the file (\"*\": the first)");
  t.add("file_clip_time", &SceneAvatar::fileClipTime, number(), "s", "With file_clip: time in the clip");
  addImportFrameKeys(t, &SceneAvatar::frame, "avatar");
  t.add("joint_map", &SceneAvatar::jointMap, path(), "",
        "With file: a map file {\"map\": {\"FileJoint\": \"pelvis\", ...}} naming the file's joints as the "
        "mannequin's (pelvis, spine, chest, neck, head, clavicle/upper_arm/forearm/hand_l/_r, thigh/shin/foot_l/_r), "
        "for a rig no known convention names");
  t.add("motion", &SceneAvatar::motion, optional(object(motionKeys())), "", "Pose or move the avatar as a BVH clip");
  t.add("contact_cell_size", &SceneAvatar::contactCellSize, number(between(0.003, 0.05)), "m",
        "Cell of the body's signed distance grid");
  t.add("contact", self<SceneAvatar>, object(contactKeys()), "", "How the cloth collides with the body");
  t.add("mannequin", &SceneAvatar::mannequin, object(mannequinKeys()), "",
        "The built-in mannequin's measurements and pose");
  t.check([](SceneAvatar& a, const json& avatar, const std::string& where) {
    if (avatar.contains("file") && avatar.contains("mannequin"))
      throw SceneError{where + ".file replaces the mannequin: give file or mannequin, not both"};
    if (!avatar.contains("file"))
      for (const char* key : {"up", "scale", "rotation_deg", "position", "joint_map"})
        if (avatar.contains(key))
          throw SceneError{where + "." + key + " places an imported avatar.file; the mannequin stands at the origin"};
    if (!avatar.contains("file")) {  // the clip keys apply to a file only
      a.fileClip = SceneAvatar{}.fileClip;
      a.fileClipTime = SceneAvatar{}.fileClipTime;
    }
  });
  return t;
}

Value<GarmentSpec> garmentValue() {
  Table<GarmentSpec> material;
  material.add("fabric", &GarmentSpec::fabric, text(), "",
               "Its own fabric (as cloth.fabric: its density, stiffness with its anisotropy and strain "
               "stiffening, bending with its factors by direction; the keys below win), else the cloth block's "
               "material");
  material.add("areal_density", &GarmentSpec::arealDensity, optional(number(positive())), "kg/m^2",
               "Its own mass per area");
  material.add("tensile_stiffness", &GarmentSpec::tensileStiffness, optional(number(positive())), "N/m",
               "Its own tensile stiffness");
  material.add("bending_rigidity", &GarmentSpec::bendingRigidity, optional(number(positive())), "N m",
               "Its own bending rigidity");
  material.add("layer", &GarmentSpec::layer, optional(integer<std::uint32_t>(0, 64)), "",
               "With solver.self_contact: its layer, inner first (default: its place in the garments list)");

  Table<GarmentSpec> tshirt("A T-shirt: bodice and set-in short sleeves (sim/garment/Patterns.h)");
  tshirt.add("chest_ease", nested(&GarmentSpec::tshirt, &TShirtOptions::chestEase), number(), "m",
             "Added to the chest girth");
  tshirt.add("hem_below_waist", nested(&GarmentSpec::tshirt, &TShirtOptions::hemBelowWaist), number(), "m",
             "From the waist line down to the hem");
  tshirt.add("sleeve_length", nested(&GarmentSpec::tshirt, &TShirtOptions::sleeveLength), number(), "m",
             "From the shoulder point to the sleeve hem");
  tshirt.add("sleeve_ease", nested(&GarmentSpec::tshirt, &TShirtOptions::sleeveEase), number(), "m",
             "Added to the upper-arm girth");
  tshirt.add("neck_ease", nested(&GarmentSpec::tshirt, &TShirtOptions::neckEase), number(), "m",
             "Added to the neck girth");
  tshirt.add("armhole_drop", nested(&GarmentSpec::tshirt, &TShirtOptions::armholeDrop), number(), "m",
             "The underarm point below the block's scye depth (deeper for an outer layer)");
  tshirt.add("shoulder_extension", nested(&GarmentSpec::tshirt, &TShirtOptions::shoulderExtension), number(), "m",
             "The shoulder seam past the shoulder point (wider for an outer layer)");
  Table<GarmentSpec> skirt("An A-line skirt");
  skirt.add("waist_ease", nested(&GarmentSpec::skirt, &SkirtOptions::waistEase), number(), "m",
            "Added to the waist girth");
  skirt.add("hip_ease", nested(&GarmentSpec::skirt, &SkirtOptions::hipEase), number(), "m", "Added to the hip girth");
  skirt.add("length", nested(&GarmentSpec::skirt, &SkirtOptions::length), number(), "m",
            "From the waist line to the hem");
  skirt.add("flare", nested(&GarmentSpec::skirt, &SkirtOptions::flare), number(), "m",
            "Hem circumference beyond hip and ease (0: straight)");
  skirt.add("dart_intake", nested(&GarmentSpec::skirt, &SkirtOptions::dartIntake), number(), "m",
            "Taken in by each of four waist darts (two per panel) instead of in the side seams (0: none)");
  skirt.add("front_dart_length", nested(&GarmentSpec::skirt, &SkirtOptions::frontDartLength), number(), "m",
            "From the waist to the front darts' points");
  skirt.add("back_dart_length", nested(&GarmentSpec::skirt, &SkirtOptions::backDartLength), number(), "m",
            "From the waist to the back darts' points");
  Table<GarmentSpec> trousers("Trousers");
  trousers.add("waist_ease", nested(&GarmentSpec::trousers, &TrouserOptions::waistEase), number(), "m",
               "Added to the waist girth");
  trousers.add("hip_ease", nested(&GarmentSpec::trousers, &TrouserOptions::hipEase), number(), "m",
               "Added to the hip girth");
  trousers.add("knee_girth", nested(&GarmentSpec::trousers, &TrouserOptions::kneeGirth), number(), "m",
               "Circumference at the knee (0: 0.8 x thigh girth)");
  trousers.add("hem_girth", nested(&GarmentSpec::trousers, &TrouserOptions::hemGirth), number(), "m",
               "Circumference at the hem");
  trousers.add("crotch_ease", nested(&GarmentSpec::trousers, &TrouserOptions::crotchEase), number(), "m",
               "The front crotch point below the body's crotch");
  trousers.add("hem_height", nested(&GarmentSpec::trousers, &TrouserOptions::hemHeight), number(), "m",
               "Above the floor (0: 4 cm below the ankle, at least 1 cm)");
  Table<GarmentSpec> dress("A dress: bodice and skirt");
  dress.add("chest_ease", nested(&GarmentSpec::dress, &DressOptions::chestEase), number(), "m",
            "Added to the chest girth");
  dress.add("waist_ease", nested(&GarmentSpec::dress, &DressOptions::waistEase), number(), "m",
            "Added to the waist girth");
  dress.add("hip_ease", nested(&GarmentSpec::dress, &DressOptions::hipEase), number(), "m", "Added to the hip girth");
  dress.add("skirt_length", nested(&GarmentSpec::dress, &DressOptions::skirtLength), number(), "m",
            "From the waist line to the hem");
  dress.add("flare", nested(&GarmentSpec::dress, &DressOptions::flare), number(), "m",
            "Hem circumference beyond hip and ease");
  dress.add("neck_ease", nested(&GarmentSpec::dress, &DressOptions::neckEase), number(), "m",
            "Added to the neck girth");

  Table<GarmentSpec> pattern(
      "A sewing pattern from a file: GarmentCode JSON (sim/garment/GarmentCode.h) or DXF-AAMA with a sidecar of "
      "seams and placement (sim/garment/AamaDxf.h); its panels placed by their own 3D transforms, its seams sewn");
  pattern
      .add("file", &GarmentSpec::patternFile, path(), "",
           "The GarmentCode specification, or a .dxf (DXF-AAMA), relative to the scene")
      .required();
  pattern.add("grain_degrees", &GarmentSpec::grainDegrees, number(between(-180.0, 180.0)), "degrees",
              "The warp's angle from each panel's grain (its +y, or a DXF piece's grain line), counter-clockwise "
              "seen from outside: 45 cuts the pattern on the bias");
  pattern.add("placement", &GarmentSpec::placeAroundBody, choice<bool>({{"file", false}, {"around_body", true}}), "",
              "\"file\": each panel where the file's transform puts it; \"around_body\": wrapped around the body "
              "by its region, as the built-in blocks (files written by hagoromo patterns give every panel's region)");
  pattern.add("sidecar", &GarmentSpec::patternSidecar, path(), "",
              "A .dxf's seams and placement, relative to the scene (default: the .dxf's name with .seams.json)");
  pattern.add("ease", &GarmentSpec::ease, boolean(), "",
              "Sew stitched edges whose lengths differ by more than 5 mm, the longer gathered evenly onto the shorter "
              "(else such a file is refused)");

  std::vector<Variant<GarmentSpec>> kinds;
  for (auto [kind, table] : {std::pair{GarmentKind::TShirt, tshirt}, std::pair{GarmentKind::Skirt, skirt},
                             std::pair{GarmentKind::Trousers, trousers}, std::pair{GarmentKind::Dress, dress},
                             std::pair{GarmentKind::Pattern, pattern}})
    kinds.push_back(
        {std::string(garmentKindName(kind)), table.merge(material), [kind = kind](GarmentSpec& g) { g.kind = kind; }});
  return variants<GarmentSpec>("type", "The garment's pattern block", kinds,
                               [](const std::string& name) { return parseGarmentKind(name).error().message; });
}

Table<DrapeReading> solverKeys() {
  Table<SweepBlock> sweep(
      "Radar sweeps of cloth patches against the avatar after every frame (or part of one), so fast motion "
      "cannot tunnel through thin body parts (sim/radar/ClothSweep.h; needs an avatar)");
  sweep.add("method", &SweepBlock::method, choice<std::string>({{"radar", "radar"}, {"none", "none"}}), "",
            "\"none\": no sweeps");
  sweep.add("patch_triangles", nested(&SweepBlock::settings, &ClothSweepSettings::patchTriangles), integer(1, 1024), "",
            "Target triangles per patch");
  sweep.add("image", nested(&SweepBlock::settings, &ClothSweepSettings::image), integer(2, HG_RADAR_MAX_IMAGE), "px",
            "Pixels on a side of every radar");
  sweep.add("sweeps_per_frame", nested(&SweepBlock::settings, &ClothSweepSettings::sweepsPerFrame),
            integer(1, ClothSweepSettings::kMaxSweepsPerFrame), "",
            "Sweeps per frame, each over an equal part of its substeps (at most one per substep): more see shorter "
            "motion, so cloth beside a thin part is held back with the cloth that hits it");
  sweep.add("clearance", &SweepBlock::clearance, optional(number(between(0.0, 0.1))), "m",
            "Kept between the stopped cloth and the body (default: solver.contact_offset)");
  sweep.check([](SweepBlock& b, const json&, const std::string&) { b.given = true; });

  Table<SelfContactSettings> self(
      "Self and cloth-cloth contact: every part of the cloth (every garment) keeps its thickness from every "
      "other and no substep creates an intersection (sim/cloth/SelfContact.h, sim/gpu/GpuSelfContact.h; both "
      "backends). true: on with "
      "the defaults");
  self.add("thickness", &SelfContactSettings::thickness, number(between(1e-4, 0.05)), "m",
           "Kept between parts of the cloth that share no vertex");
  self.add("friction", &SelfContactSettings::friction, number(between(0.0, 2.0)), "",
           "Coulomb coefficient between layers");
  self.add("iterations", &SelfContactSettings::iterations, integer(1, 100), "", "Separation passes per substep");
  self.add("layer_offset", &SelfContactSettings::layerOffset, optional(number(between(0.0, 0.05))), "m",
           "Added per garment layer above the innermost to the distance kept from the body (default: thickness + "
           "1 mm), so that layers stack instead of an outer one pressing an inner one into the body");
  self.check([](SelfContactSettings& s, const json&, const std::string&) { s.enabled = true; });

  Table<DrapeReading> t("The simulation");
  const auto settings = [](DrapeReading& r) -> ClothSettings& { return r.scene.settings; };
  Table<ClothSettings> cloth;
  cloth.add("frame_dt", &ClothSettings::frameDt, number(), "s", "Time advanced by one frame");
  cloth.add("substeps", &ClothSettings::substeps, substepsValue(), "",
            "Substeps per frame; \"auto\": the explicit integrator's stable count (sim/cloth/StableStep.h) or 40 "
            "for projective_jacobi");
  cloth.add("velocity_damping", &ClothSettings::velocityDamping, number(), "1/s", "Air drag stand-in: dv/dt = -c v");
  cloth.add("friction", &ClothSettings::friction, number(), "", "Coulomb coefficient at the colliders");
  cloth.add("contact_offset", &ClothSettings::contactOffset, number(), "m", "Kept between the cloth and the colliders");
  cloth.add("gravity", &ClothSettings::gravity, fields::vec3(), "m/s^2", "Acceleration of gravity");
  cloth.add("max_speed", &ClothSettings::maxSpeed, number(), "m/s", "A faster vertex makes the frame unstable");
  cloth.add("threads", &ClothSettings::threads, integer(0, limits::kMaxThreads), "",
            "CPU backend: OpenMP threads (0: the default)");
  cloth.add("compression_scale", &ClothSettings::compressionScale, number(), "",
            "a in the compression force f = k a L abs(e)^n (docs/methods.md section 1)");
  cloth.add("extension_scale", &ClothSettings::extensionScale, number(), "", "b in the extension force f = k b L e^n");
  cloth.add("tension_exponent", &ClothSettings::tensionExponent, number(), "", "n: 1 Hookean, 2 the source's form");
  cloth.add("plastic_rate", &ClothSettings::plasticRate, number(), "1/s",
            "Rest lengths and angles creep toward the shape beyond the yield (0: elastic)");
  cloth.add("yield_strain", &ClothSettings::yieldStrain, number(), "", "Strain where plasticity starts");
  cloth.add("yield_angle", &ClothSettings::yieldAngle, number(), "rad", "Bend where plasticity starts");
  cloth.add("max_substep_halvings", &ClothSettings::maxSubstepHalvings, integer(0, 10), "",
            "An unstable frame is retried with 2x, 4x, ... the substeps this many times");
  cloth.add("integrator", &ClothSettings::integrator,
            choice<ClothIntegrator>({{"symplectic_euler", ClothIntegrator::SymplecticEuler},
                                     {"projective_jacobi", ClothIntegrator::ProjectiveJacobi}},
                                    parseIntegrator),
            "", "Explicit symplectic Euler, or projective dynamics solved by Jacobi iterations");
  cloth.add("iterations", &ClothSettings::solverIterations, integer(1, limits::kMaxSolverIterations), "",
            "projective_jacobi: Jacobi iterations per substep");
  cloth.add("self_contact", &ClothSettings::selfContact,
            object(self, {.onBool = [](SelfContactSettings& s, bool on) { s.enabled = on; }}), "",
            "Self and cloth-cloth contact (off by default)");
  cloth.add("chebyshev_rho", &ClothSettings::chebyshevRho, number(), "",
            "projective_jacobi: spectral radius estimate of the Chebyshev acceleration (0: none)");
  cloth.add("bending", &ClothSettings::bending,
            choice<BendingScheme>({{"explicit", BendingScheme::Explicit}, {"implicit", BendingScheme::Implicit}},
                                  parseBendingScheme),
            "",
            "projective_jacobi: hinges as an explicit force, or as constraints of the solve (implicit: stable at "
            "any stiffness)");

  t.add("backend", nested(&DrapeReading::scene, &DrapeScene::backend),
        choice<Backend>({{"cpu", Backend::Cpu}, {"gpu", Backend::Gpu}}, parseBackend), "",
        "CPU reference or GPU solver");
  t.add("frames", nested(&DrapeReading::scene, &DrapeScene::frames), integer(0, limits::kMaxFrames), "",
        "Frames simulated");
  t.add("until_rest", nested(&DrapeReading::scene, &DrapeScene::restSpeed), number(atLeast(0.0)), "m/s",
        "> 0: drape to rest instead, until the fastest vertex is slower (within `frames` frames' substeps)");
  t.include(cloth, settings);
  t.add("continuous_collision", &DrapeReading::sweep, object(sweep, {.onNull = [](SweepBlock&) {}}), "",
        "Radar sweeps against the avatar after every frame, or null (none)");
  return t;
}

/// The checks that join blocks, after every key is read.
void finishScene(DrapeReading& r, const json&, const std::string&) {
  DrapeScene& scene = r.scene;
  ClothColliders& colliders = scene.settings.colliders;
  colliders.spheres.clear();
  if (r.sphere.given) colliders.spheres.push_back(SphereCollider{r.sphere.center, r.sphere.radius});
  colliders.grounds.clear();
  if (r.ground.given) colliders.grounds.push_back(GroundCollider{r.ground.height, glm::vec3(0.0f, 1.0f, 0.0f)});
  if (!scene.garments.empty()) {
    if (!scene.avatar) throw SceneError{"garments need an avatar to be sewn around (add an \"avatar\" block)"};
    if (scene.clothShapeGiven)
      throw SceneError{
          "with garments, the cloth block gives only the material: remove its resolution, size, "
          "center, mesh, pinned and pin_animation keys"};
  }
  if (r.sweep.given) {
    const std::string where = "solver.continuous_collision";
    ClothSweepSettings sweep = r.sweep.settings;
    sweep.clearance = r.sweep.clearance.value_or(scene.settings.contactOffset);
    if (Status valid = sweep.validate(); !valid) throw SceneError{where + "." + valid.error().message};
    if (r.sweep.method == "radar") {
      if (!scene.avatar) throw SceneError{where + " needs an avatar: the radars sweep the cloth against the body"};
      scene.continuousCollision = sweep;
    }
  }
  for (const BoxBlock& b : r.boxes) {
    SceneBoxSpec spec;
    spec.box.centre = b.center;
    spec.box.halfLengths = b.halfExtents;
    const glm::mat3 rotation = sceneRotation(b.rotationDeg);
    spec.box.axes = {rotation[0], rotation[1], rotation[2]};
    spec.friction = b.friction;
    scene.boxes.push_back(spec);
  }
  if (Status s = checkRunSize(scene); !s) throw SceneError{s.error().message};
  if (Status s = scene.settings.validate(); !s) throw SceneError{"solver: " + s.error().message};
}

Table<DressingSettings> dressingKeys() {
  Table<DressingSettings> dressing("Sewing the garments around the avatar (sim/garment/Dressing.h)");
  dressing.add("edge_length", &DressingSettings::edgeLength, number(between(0.005, 0.1)), "m",
               "Target triangle edge of the panels");
  dressing.add("clearance", &DressingSettings::clearance, number(aboveUpTo(0.0, 0.1)), "m",
               "Kept between the placed panels and the body");
  dressing.add("layer_gap", &DressingSettings::layerGap, number(between(0.0, 0.1)), "m",
               "Above 0, each layer is sewn in turn, inner first, against the body grown to hold the layers "
               "sewn before it by capsules reaching this far beyond their vertices, so that no seam closes "
               "through an inner layer; and per layer the placement's wrapping surfaces grow by this. 0: all "
               "garments sewn at once");
  dressing.add("seam_stiffness", &DressingSettings::seamStiffness, number(positive()), "N/m",
               "Each rest-length-0 seam spring");
  dressing.add("seam_damping", &DressingSettings::seamDamping, number(atLeast(0.0)), "N s/m",
               "Axial damping of the seam springs");
  dressing.add("sewing_damping", &DressingSettings::sewingDamping, number(atLeast(0.0)), "1/s",
               "Velocity damping while sewing");
  dressing.add("sewing_bending", &DressingSettings::sewingBendingScale, number(between(0.0, 1.0)), "",
               "Bending rigidity while sewing, as a fraction of the cloth's");
  dressing.add("weld_gap", &DressingSettings::weldGap, number(aboveUpTo(0.0, 0.02)), "m",
               "Seams are welded once every pair is this close");
  dressing.add("max_sewing_frames", &DressingSettings::maxSewingFrames, integer(1, limits::kMaxSewingFrames), "",
               "Frames before sewing gives up (an error)");
  dressing.add("rest_from_panels", &DressingSettings::restFromPanels, boolean(), "",
               "Springs, hinges and masses from the flat panels' lengths and areas, not from the panels as placed "
               "(off: as before 2026-11-29; on: bodies from 1.55 to 1.80 m dressed, bench/RESULTS.md)");
  dressing.add("settle_frames", &DressingSettings::settleFrames, integer(0, limits::kMaxSewingFrames), "",
               "Frames the welded garments settle under the drape's solver, every velocity zeroed after each, "
               "before the drape's first frame");
  return dressing;
}

Table<DrapeScene> outputKeys() {
  Table<DrapeScene> output("What is written (to --out)");
  output.add("obj_every", &DrapeScene::objEvery, integer(0, limits::kMaxFrames), "",
             "> 0: an OBJ of the cloth every this many frames too (<name>_frame_NNNN.obj)");
  output.add("directory", &DrapeScene::outputDirectory, path(), "", "Output folder (the command line's --out wins)");
  output.add("image_width", &DrapeScene::imageWidth, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
             "Width of the pictures");
  output.add("image_height", &DrapeScene::imageHeight, integer(limits::kMinImageSide, limits::kMaxImageSide), "px",
             "Height of the pictures");
  return output;
}

Table<BoxBlock> boxKeys() {
  Table<BoxBlock> box("An analytic box collider (docs/methods.md section 7), still");
  box.add("center", &BoxBlock::center, fields::vec3(), "m", "Centre");
  box.add("half_extents", &BoxBlock::halfExtents, fields::vec3(positive()), "m", "Half its size along its axes")
      .required();
  box.add("rotation_deg", &BoxBlock::rotationDeg, fields::vec3(), "deg", "About the world x, then y, then z axes");
  box.add("friction", &BoxBlock::friction, optional(number(atLeast(0.0))), "",
          "Coulomb coefficient (default: solver.friction)");
  return box;
}

Table<ScenePropSpec> propKeys() {
  Table<ScenePropSpec> prop(
      "A rigid, still prop: a built-in solid or a closed mesh, drawn and exported "
      "(<name>_props.obj)");
  prop.add(
      "shape", &ScenePropSpec::shape,
      choice<std::string>(
          {{"bottle", "bottle"}, {"box", "box"}, {"sphere", "sphere"}, {"torus", "torus"}, {"capsule", "capsule"}}),
      "",
      "A built-in solid: a 0.3 m wine bottle standing on the origin, a 0.2 m cube, a sphere of radius 0.1, "
      "a torus (radii 0.1 and 0.03) or a capsule (radius 0.05, 0.3 long) centred on it");
  prop.add("mesh", &ScenePropSpec::mesh, path(true), "",
           "A closed mesh relative to the scene's folder (welded by position), instead of shape");
  prop.add("up", &ScenePropSpec::up, upAxisValue(), "",
           "With mesh: the file's up axis, turned to +y before scale and rotation (auto: from the file where it "
           "says; else +y); its units are read from the file where it says (FBX)");
  prop.add("position", &ScenePropSpec::position, fields::vec3(), "m", "The prop frame's origin in the world");
  prop.add("rotation_deg", &ScenePropSpec::rotationDegrees, fields::vec3(), "deg",
           "About the world x, then y, then z axes");
  prop.add("scale", &ScenePropSpec::scale, scaleValue(), "", "Applied to the shape in its frame, before the rotation");
  prop.add("collider", &ScenePropSpec::collider,
           choice<PropCollider>({{"sphere_tree", PropCollider::SphereTree}, {"obb", PropCollider::Obb}}), "",
           "A sphere tree of its solid voxels (docs/methods.md section 6) or its PCA-fitted box (section 7)");
  prop.add("resolution", &ScenePropSpec::resolution, integer(limits::kMinVoxelResolution, limits::kMaxVoxelResolution),
           "", "Sphere tree: voxels along the prop's longest side");
  prop.add("friction", &ScenePropSpec::friction, optional(number(atLeast(0.0))), "",
           "Coulomb coefficient (default: solver.friction)");
  prop.check([](ScenePropSpec&, const json& p, const std::string& where) {
    if (p.contains("shape") == p.contains("mesh"))
      throw SceneError{where + ": give either \"shape\" (bottle, box, sphere, torus, capsule) or \"mesh\" (a file)"};
    if (p.contains("up") && !p.contains("mesh")) throw SceneError{where + ".up applies to a mesh file"};
  });
  return prop;
}

Table<QualityGateLimits> gateKeys() {
  Table<QualityGateLimits> t("The quality gates of the last frame (sim/scene/QualityGates.h)");
  t.add("max_intersecting_pairs", &QualityGateLimits::maxIntersectingPairs, integer<std::size_t>(0, 1LL << 30), "",
        "Exact intersecting triangle pairs (within and between garments, cloth vs body), where measured");
  t.add("max_vertices_inside_body", &QualityGateLimits::maxVerticesInsideBody, integer<std::size_t>(0, 1LL << 30), "",
        "Cloth vertices inside the body (exact reference)");
  t.add("max_strain", &QualityGateLimits::maxStrain, number(between(0.0, 100.0)), "",
        "Largest stretch, length / rest length - 1, over the cloth's edges");
  t.add("max_compression", &QualityGateLimits::maxCompression, number(between(0.0, 1.0)), "",
        "Largest compression, 1 - length / rest length, over the cloth's edges (a coarse mesh folds by compressing "
        "edges; 0.75: an edge crushed to a quarter of its length)");
  t.add("min_area_ratio", &QualityGateLimits::minAreaRatio, number(between(0.0, 1.0)), "",
        "Smallest area / rest area of a garment (or the cloth): below it the cloth collapsed");
  return t;
}

Table<DrapeReading> rootKeys() {
  Table<SphereBlock> sphere("A sphere collider");
  sphere.add("center", &SphereBlock::center, fields::vec3(), "m", "Centre");
  sphere.add("radius", &SphereBlock::radius, number(), "m", "Radius");
  sphere.check([](SphereBlock& b, const json&, const std::string&) { b.given = true; });
  Table<GroundBlock> ground("The ground plane y = height");
  ground.add("height", &GroundBlock::height, number(), "m", "Height of the plane");
  ground.check([](GroundBlock& b, const json&, const std::string&) { b.given = true; });
  const auto scene = [](DrapeReading& r) -> DrapeScene& { return r.scene; };
  Table<DrapeReading> t("A drape scene (hagoromo drape): the cloth, its colliders, the solver and the outputs");
  t.topLevel().schemaKey();
  t.add("name", nested(&DrapeReading::scene, &DrapeScene::name), outputName(), "",
        "The outputs' base name: a plain file name (no folders, no leading '.')");
  t.add("cloth", self<DrapeReading>, object(clothKeys()), "", "The cloth and its material");
  t.add("avatar", nested(&DrapeReading::scene, &DrapeScene::avatar), optional(object(avatarKeys())), "",
        "A body to drape on");
  t.add("garments", nested(&DrapeReading::scene, &DrapeScene::garments), list(garmentValue(), {.min = 1}), "",
        "An outfit drafted from the avatar's measurements, sewn around it and draped (needs the mannequin)");
  t.add("dressing", nested(&DrapeReading::scene, &DrapeScene::dressing), object(dressingKeys()), "",
        "How the garments are sewn");
  t.add("sphere", &DrapeReading::sphere, object(sphere, {.onNull = [](SphereBlock& b) { b.given = false; }}), "",
        "A sphere collider (none unless given), or null for none");
  t.add("ground", &DrapeReading::ground, object(ground, {.onNull = [](GroundBlock& b) { b.given = false; }}), "",
        "The ground plane, or null for none");
  t.add("solver", self<DrapeReading>, object(solverKeys()), "", "The simulation");
  t.add("output", scene, object(outputKeys()), "", "What is written");
  t.add("boxes", &DrapeReading::boxes,
        list(object(boxKeys()), {.max = HG_MAX_CLOTH_BOXES,
                                 .tooMany =
                                     [](const std::string& name, std::size_t count) {
                                       return name + ": " + std::to_string(count) + " boxes is out of range (at most " +
                                              std::to_string(HG_MAX_CLOTH_BOXES) + " box colliders)";
                                     }}),
        "", "Analytic box colliders");
  t.add("props", nested(&DrapeReading::scene, &DrapeScene::props), list(object(propKeys())), "",
        "Rigid props under the cloth");
  t.add("gates", nested(&DrapeReading::scene, &DrapeScene::gates), object(gateKeys()), "",
        "What makes a finished run a failure (exit 6, outputs still written; --no-gates: report only)");
  t.check(finishScene);
  return t;
}

const Table<DrapeReading>& drapeTable() {
  static const Table<DrapeReading> table = rootKeys();
  return table;
}

}  // namespace

Result<DrapeScene> parseDrapeScene(const std::string& text, const std::string& origin) {
  DrapeReading reading;
  try {
    drapeTable().read(scenejson::parseDocument(text), "scene", reading);
  } catch (...) {
    return scenejson::sceneParseError(origin);
  }
  return std::move(reading.scene);
}

Result<DrapeScene> loadDrapeScene(const std::filesystem::path& path, const SceneOverrides& overrides) {
  auto text = readSceneFileWithOverrides(path.string(), overrides);
  if (!text) return text.error();
  auto scene = parseDrapeScene(*text, path.string());
  if (scene) scene->directory = path.parent_path();
  return scene;
}

fields::ObjectDoc drapeSceneKeys() { return drapeTable().describe(DrapeReading{}); }

}  // namespace hg
