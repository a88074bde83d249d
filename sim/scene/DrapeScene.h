#pragma once
/// A drape scene as read from JSON (scenes/*.json; the reader is sim/scene/DrapeSceneRead.cpp):
/// the cloth, the colliders, the solver settings and the outputs. Every key is optional and
/// defaults to the member's value below (the solver's substeps to "auto" and its
/// max_substep_halvings to 2); unknown keys are errors (a typo must not silently fall back
/// to a default), and so are a key given twice, an integer that is not a whole number in
/// its range and a number a float cannot hold (sim/io/FieldTable.h; the limits in
/// sim/core/Limits.h). Every key with its type, unit, range, default and meaning is listed
/// in docs/user-guide.md, "Scene key reference", and in the JSON Schema
/// docs/schema/drape.schema.json, both generated from the reader's tables.
/// Props are rigid, still colliders drawn in the pictures and exported (<name>_props.obj).
/// Built-in shapes (m, before `scale`, in the prop's frame): "bottle" a 0.3 m wine bottle
/// (makeBottle, 12,090 triangles) standing on the origin; "box" a 0.2 m cube, "sphere" of
/// radius 0.1, "torus" (radii 0.1 and 0.03, axis +y) and "capsule" (radius 0.05, axis +y,
/// 0.3 long) centred on it.
/// Garments (sim/garment/Dressing.h) need an avatar; they are drafted from its
/// measurements, sewn around it and then draped; the "cloth" block then only gives
/// their material (fabric, density, stiffness, bending, damping, anisotropy).
/// With an avatar, the body (sim/body/Mannequin.h) is the cloth's collider: its depth
/// views (sim/contact/DepthViews.h) go into settings.colliders.depthViews, or its signed distance
/// grid into settings.colliders.distanceGrid. A sphere collider only when the scene asks for one.
#include <filesystem>
#include <functional>
#include <optional>

#include <glm/mat3x3.hpp>
#include <span>
#include <string>
#include <vector>

#include "sim/body/Mannequin.h"
#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/cloth/PinAnimation.h"
#include "sim/core/Result.h"
#include "sim/garment/Dressing.h"
#include "sim/geometry/Obb.h"
#include "sim/io/ImportFrame.h"
#include "sim/io/SceneOverrides.h"
#include "sim/radar/ClothSweep.h"
#include "sim/scene/QualityGates.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {

/// A pose for the avatar from motion capture: a BVH clip retargeted by joint names.
struct SceneMotion {
  std::filesystem::path bvh;   ///< relative to the scene's folder
  std::filesystem::path map;   ///< joint-name mapping file (sim/motion/Retarget.h); empty: by naming convention
  float time = 0.0f;           ///< s into the clip
  bool dualQuaternion = true;  ///< skinning: dual quaternion (else linear blend)
  float unitScale = 0.01f;     ///< m per BVH unit (centimetres by default)
  bool animate = false;        ///< drape over the clip from `time` on (the body moves), not one pose
  /// s: with garments, they are sewn on the avatar in its rest pose, which then moves into
  /// the clip's pose at `time` over this long (and on through the clip with `animate`),
  /// as a tailor dresses a mannequin and then moves it; none when that pose is the rest.
  float transition = 0.5f;
};

/// The avatar of a scene: the built-in parametric mannequin, or a skinned character file
/// (glTF, FBX, COLLADA through assimp), optionally posed.
/// How the cloth collides with the avatar.
enum class BodyContactMethod {
  DistanceGrid,  ///< exact signed distance grid (CGAL), rebuilt per frame when the body moves
  DepthViews,    ///< orthographic depth views (docs/methods.md section 2), rasterized per frame
  /// A sphere tree filled into the body's solid voxels (docs/methods.md section 6): contact with
  /// the nearest leaf sphere. A still body only (see buildSceneBody).
  SphereTree,
};

/// Name of a body contact method as in avatar.contact.method.
const char* bodyContactMethodName(BodyContactMethod method);

/// The body colliders' settings of a scene (avatar.contact_cell_size, avatar.contact).
struct BodyContactSettings {
  BodyContactMethod method = BodyContactMethod::DistanceGrid;
  SignedDistanceOptions grid;
  DepthViewOptions views;
  int sphereTreeResolution = 256;  ///< voxels along the body's longest side
  bool thinFeatures = true;        ///< SceneAvatar::thinFeatures
};

struct SceneAvatar {
  MannequinParams mannequin;
  std::filesystem::path file;  ///< character file relative to the scene (empty: the mannequin)
  std::string fileClip;        ///< with `file`: pose it as this clip of the file ("" : none, "*": the first)
  float fileClipTime = 0.0f;   ///< s into fileClip
  /// With `file`: how it is put into the world (up axis and units detected unless given).
  ImportFrame frame;
  /// With `file`: a joint-name map file (sim/motion/Retarget.h format) renaming the file's
  /// joints to the mannequin's names, for a rig no known convention names; empty: none.
  std::filesystem::path jointMap;
  float contactCellSize = 0.01f;  ///< m, cell of the body's signed distance grid
  BodyContactMethod contactMethod = BodyContactMethod::DepthViews;
  DepthViewOptions depthViews;     ///< with BodyContactMethod::DepthViews
  int sphereTreeResolution = 256;  ///< with BodyContactMethod::SphereTree: voxels along the body's longest side
  /// With depth views or the distance grid: the thin-feature pass after every substep
  /// (docs/methods.md section 2, "Thin features").
  bool thinFeatures = true;
  std::optional<SceneMotion> motion;
};

/// How a prop collides with the cloth.
enum class PropCollider {
  SphereTree,  ///< a sphere tree of its solid voxels (docs/methods.md section 6)
  Obb,         ///< its PCA-fitted oriented box (fitObb), an analytic collider (section 7)
};

/// A rigid, still object under the cloth (scene key "props").
struct ScenePropSpec {
  std::string shape;                ///< built-in shape ("bottle", "box", "sphere", "torus", "capsule"), or empty
  std::filesystem::path mesh;       ///< a closed mesh file relative to the scene (when shape is empty)
  std::optional<FileAxis> up;       ///< the mesh file's up axis (none: from the file, else +y)
  glm::vec3 position{0.0f};         ///< m: the prop frame's origin in the world
  glm::vec3 rotationDegrees{0.0f};  ///< about the world x, then y, then z axes
  glm::vec3 scale{1.0f};            ///< applied to the shape in its frame, before the rotation
  PropCollider collider = PropCollider::SphereTree;
  int resolution = 128;           ///< sphere tree: voxels along the prop's longest side
  std::optional<float> friction;  ///< Coulomb mu (default: solver.friction)
};

/// A plain analytic box (scene key "boxes").
struct SceneBoxSpec {
  Obb box;
  std::optional<float> friction;  ///< Coulomb mu (default: solver.friction)
};

struct DrapeScene {
  std::string name = "scene";
  std::filesystem::path directory;             ///< folder of the scene file; relative paths start here
  SquareClothSpec sheet;                       ///< used when mesh is empty
  std::filesystem::path mesh;                  ///< cloth mesh file (relative to directory), or empty
  ImportFrame meshFrame;                       ///< how the cloth mesh is put into the world
  std::string fabric;                          ///< preset name in directory / "fabrics.json", or empty
  std::vector<std::string> materialOverrides;  ///< material keys given explicitly (win over the fabric)
  ClothMaterial material;
  PinSet pinned;
  PinAnimation pinAnimation;                ///< moves the pinned vertices over time (empty: they stay)
  std::filesystem::path anisotropyTexture;  ///< PNG, or empty
  std::optional<glm::vec4> anisotropyUniform;
  float anisotropyScale = 2.0f;
  ClothSettings settings;
  Backend backend = Backend::Gpu;
  int frames = 180;
  std::filesystem::path outputDirectory = "out";
  int imageWidth = 1280;
  int imageHeight = 960;
  /// > 0: simulate to rest instead (ClothSolver::relaxToRest: until the largest vertex
  /// speed falls below this, m/s, within `frames` frames' worth of substeps).
  float restSpeed = 0.0f;
  int objEvery = 0;                   ///< > 0: also an OBJ of the cloth every this many frames (<name>_frame_NNNN.obj)
  std::optional<SceneAvatar> avatar;  ///< a body to drape on, or none
  std::vector<GarmentSpec> garments;  ///< the outfit sewn around the avatar (empty: the cloth block's sheet or mesh)
  DressingSettings dressing;
  bool clothShapeGiven = false;  ///< the cloth block named a sheet or mesh shape or pins
  /// solver.continuous_collision: radar sweeps against the avatar after every frame, or none.
  std::optional<ClothSweepSettings> continuousCollision;
  std::vector<SceneBoxSpec> boxes;   ///< analytic box colliders ("boxes")
  std::vector<ScenePropSpec> props;  ///< rigid props ("props")
  QualityGateLimits gates;           ///< what makes a finished run a failure ("gates")
};

/// The scene's props and boxes made ready for the cloth (buildSceneProps,
/// sim/scene/DrapeProps.h): their surfaces in the world (to draw and export), the analytic
/// boxes (plain ones and props with collider "obb") and the sphere trees of the other props.
struct SceneProps {
  std::vector<TriangleMesh> meshes;  ///< world space: every "boxes" entry, then every prop
  std::vector<Obb> boxes;
  std::vector<float> boxFriction;
  SphereTreeColliders trees;
  double buildSeconds = 0.0;  ///< time spent voxelizing, filling and building the trees
};

/// The world rotation of rotation_deg (x, then y, then z about the world axes).
glm::mat3 sceneRotation(glm::vec3 degrees);

/// The run's size within limits (sim/core/Limits.h): frames x substeps at most
/// kMaxTotalSubsteps. `framesName` names where the frame count came from ("solver.frames",
/// or "--frames" after a command-line override).
Status checkRunSize(const DrapeScene& scene, const std::string& framesName = "solver.frames");

/// Parses a scene; errors name the file, the key and what is wrong. `overrides` replace keys
/// of the file before it is parsed (sim/io/SceneOverrides.h).
Result<DrapeScene> loadDrapeScene(const std::filesystem::path& path, const SceneOverrides& overrides = {});
/// Parses scene text; `origin` names it in error messages.
Result<DrapeScene> parseDrapeScene(const std::string& text, const std::string& origin);

/// The scene's body (buildSceneBody, sim/scene/DrapeBody.h): the posed avatar mesh with its
/// skeleton (rest = the pose), its measurements and its collider for the cloth.
class BodyAnimator;
struct SceneBody {
  SkinnedMesh avatar;
  BodyMeasurements measurements;
  std::shared_ptr<const SignedDistanceGrid> collider;  ///< with the distance grid method
  std::shared_ptr<const DepthViewImages> views;        ///< with the depth view method
  std::shared_ptr<const BodyVertexGrid> vertices;      ///< with depth views or the grid: thin-feature samples
  std::shared_ptr<const SphereTree> sphereTree;        ///< with the sphere tree method (world frame)
  /// With avatar.motion.animate: poses the body and rebuilds its collider per frame
  /// (sim/scene/DrapeBody.h; a SceneBody is destroyed where that header is included).
  std::unique_ptr<BodyAnimator> animator;
  /// What the avatar's files were read despite, each naming its file (a BVH 'Frames:'
  /// count off by one); the CLI prints them and writes them to the metrics.
  std::vector<std::string> warnings;
  /// With avatar.file: the up axis and scale the import used, the file's vertex count
  /// before welding.
  bool imported = false;
  FileFrame fileFrame;
  /// Seconds into the animator's clip at frame 0 (avatar.motion.time; 0 when the garments
  /// are sewn on the rest pose first, whose clip starts there).
  float clipStart = 0.0f;
  std::size_t fileVertices = 0;
};

/// The cloth's material and anisotropy (fabric preset, explicit keys, texture or
/// uniform; sceneClothMaterial, sim/scene/DrapeFabric.h).
struct SceneClothMaterial {
  ClothMaterial material;
  std::optional<AnisotropyTexture> anisotropy;
};

/// Material and uniform anisotropy (Ka, Kb, Kc, Kd with scale 2) from a fabric preset
/// (fabricMaterial, sim/scene/DrapeFabric.h):
/// E = max(warp, weft, bias) stretch stiffness, K = direction stiffness / E; bending
/// rigidity and areal density as measured. The bias channels take the preset's bias
/// stretch stiffness, which on the edge-spring grid governs how easily the cloth shears
/// under a bias pull (strain-controlled, warp and weft springs add to it).
struct FabricMaterial {
  ClothMaterial material;
  glm::vec4 anisotropy{1.0f};
};

}  // namespace hg
