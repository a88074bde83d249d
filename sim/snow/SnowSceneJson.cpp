#include "sim/snow/SnowSceneJson.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "sim/core/Limits.h"
#include "sim/io/AssimpRead.h"
#include "sim/io/FieldTable.h"
#include "sim/snow/SnowProps.h"

namespace hg {

namespace {

using namespace fields;

/// The one shape key of `object` among `shapes`; error when none or several are given.
std::string shapeOf(const json& object, const std::string& where, const std::vector<std::string>& shapes) {
  std::string found, list;
  for (const std::string& s : shapes) list += (list.empty() ? "" : ", ") + s;
  for (const std::string& s : shapes) {
    if (!object.contains(s)) continue;
    if (!found.empty()) throw SceneError{where + ": give one of " + list + ", not both " + found + " and " + s};
    found = s;
  }
  if (found.empty()) throw SceneError{where + ": give one of " + list};
  return found;
}

/// "WHERE: scale and translate apply to a mesh only" unless the shape is a mesh.
void meshOnlyKeys(const json& object, const std::string& where, const std::string& shape) {
  if (shape != "mesh" && (object.contains("scale") || object.contains("translate")))
    throw SceneError{where + ": scale and translate apply to a mesh only"};
}

/// Throws unless max exceeds min on every axis of the vectors.
template <class V>
void checkExtent(const V& min, const V& max, const std::string& at, const char* axes) {
  for (int i = 0; i < V::length(); ++i)
    if (!(max[i] > min[i])) throw SceneError{at + ".max must exceed " + at + ".min" + axes};
}

struct PlaneBlock {
  glm::vec2 min{0.0f}, max{0.0f};
  float y = 0.0f;
};

/// A mesh file's keys (ground and objects).
struct MeshBlock {
  std::string mesh;  ///< relative to the scene's folder
  float scale = 1.0f;
  glm::vec3 translate{0.0f};
};

struct GroundBlock : MeshBlock {
  std::optional<PlaneBlock> plane;
  std::optional<TerrainSpec> terrain;
  std::string shape;  ///< the one of plane, terrain, mesh given
};

struct BoxBlock {
  glm::vec3 min{0.0f}, max{0.0f};
};

/// A vertical cylinder or cone, or a tree (cones on a trunk).
struct ConeBlock {
  glm::vec3 base{0.0f};
  float radius = 1.0f, height = 1.0f;
  int segments = 16;
};

/// A tree's defaults: 12 segments.
ConeBlock treePrototype() {
  ConeBlock tree;
  tree.segments = 12;
  return tree;
}

struct ObjectBlock : MeshBlock {
  std::optional<BoxBlock> box;
  std::optional<ConeBlock> cylinder, cone, tree;
  std::optional<GableHouse> house;
  std::string shape;
};

/// What the reader fills: the file, and the ground and objects built after the walk.
struct SnowReading {
  SnowSceneFile file;
  GroundBlock ground;
  std::vector<ObjectBlock> objects;
};

/// A mesh file (triangulated, node transforms applied, identical vertices joined), its
/// positions scaled then translated (m). `where` is the key naming the file.
TriangleMesh importMesh(const MeshBlock& b, const std::string& where, const std::filesystem::path& directory) {
  std::filesystem::path path = b.mesh;
  if (path.is_relative()) path = directory / path;
  Assimp::Importer importer;
  const aiScene* scene = readWithAssimp(
      importer, path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices);
  if (scene == nullptr)
    throw SceneError{where + ".mesh: cannot read mesh " + path.string() + " (" + importer.GetErrorString() + ")"};
  TriangleMesh mesh;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* in = scene->mMeshes[m];
    const auto offset = std::uint32_t(mesh.positions.size());
    for (unsigned i = 0; i < in->mNumVertices; ++i) {
      const aiVector3D p = in->mVertices[i];
      const glm::vec3 q = glm::vec3(p.x, p.y, p.z) * b.scale + b.translate;
      if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
        throw SceneError{where + ".mesh: " + path.string() + " has a non-finite vertex"};
      mesh.positions.push_back(q);
    }
    for (unsigned f = 0; f < in->mNumFaces; ++f) {
      if (in->mFaces[f].mNumIndices != 3) continue;  // points and lines
      for (int k = 0; k < 3; ++k) mesh.indices.push_back(offset + in->mFaces[f].mIndices[k]);
    }
  }
  if (mesh.indices.empty()) throw SceneError{where + ".mesh: " + path.string() + " has no triangles"};
  computeVertexNormals(mesh);
  return mesh;
}

/// A position on the ground: [x, z] in m.
Value<glm::vec2> xz() { return fields::vec2("an array of 2 numbers [x, z]"); }

Table<MeshBlock> meshKeys() {
  Table<MeshBlock> t;
  t.add("mesh", &MeshBlock::mesh, text(true), "",
        "A mesh file (any format assimp reads; triangulated, its node transforms applied) relative to the scene's "
        "folder");
  t.add("scale", &MeshBlock::scale, number(positive()), "", "Mesh: its positions scaled by this, then translated");
  t.add("translate", &MeshBlock::translate, fields::vec3(), "m", "Mesh: added to its positions");
  return t;
}

Table<GroundBlock> groundKeys() {
  Table<PlaneBlock> plane("A flat ground");
  plane.add("min", &PlaneBlock::min, xz(), "m", "Corner (x, z)").required();
  plane.add("max", &PlaneBlock::max, xz(), "m", "Opposite corner (x, z)").required();
  plane.add("y", &PlaneBlock::y, number(), "m", "Height");
  plane.check(
      [](PlaneBlock& p, const json&, const std::string& where) { checkExtent(p.min, p.max, where, " in x and z"); });
  Table<TerrainHill> hill("A cosine bump: 0 from its radius on");
  hill.add("centre", &TerrainHill::centre, xz(), "m", "Centre (x, z)").required();
  hill.add("radius", &TerrainHill::radius, number(positive()), "m", "Radius").required();
  hill.add("height", &TerrainHill::height, number(), "m", "Height (negative: a hollow)").required();
  Table<TerrainSpec> terrain("A procedural terrain: hills plus value noise on a grid");
  terrain.add("min", &TerrainSpec::min, xz(), "m", "Corner (x, z)").required();
  terrain.add("max", &TerrainSpec::max, xz(), "m", "Opposite corner (x, z)").required();
  terrain.add("cell", &TerrainSpec::cell, number(positive()), "m", "Grid spacing (at most)");
  terrain.add("y", &TerrainSpec::y, number(), "m", "Base height");
  terrain.add("seed", &TerrainSpec::seed, integer<std::uint32_t>(0, std::numeric_limits<int>::max()), "",
              "Value-noise seed");
  terrain.add("noise", &TerrainSpec::noise, number(atLeast(0.0)), "m", "Value-noise amplitude");
  terrain.add("noise_scale", &TerrainSpec::noiseScale, number(positive()), "m", "Value-noise lattice spacing");
  terrain.add("hills", &TerrainSpec::hills, list(object(hill)), "", "Hills and hollows");
  terrain.check(
      [](TerrainSpec& t, const json&, const std::string& where) { checkExtent(t.min, t.max, where, " in x and z"); });
  Table<GroundBlock> t("The ground the snow falls on: one of plane, terrain and mesh");
  t.add("plane", &GroundBlock::plane, optional(object(plane)), "", "A flat ground");
  t.add("terrain", &GroundBlock::terrain, optional(object(terrain)), "", "A procedural terrain");
  t.include(meshKeys(), [](GroundBlock& g) -> MeshBlock& { return g; });
  t.check([](GroundBlock& g, const json& ground, const std::string& where) {
    g.shape = shapeOf(ground, where, {"plane", "terrain", "mesh"});
    meshOnlyKeys(ground, where, g.shape);
  });
  return t;
}

Table<ObjectBlock> objectKeys() {
  Table<BoxBlock> box("An axis-aligned box");
  box.add("min", &BoxBlock::min, fields::vec3(), "m", "Lowest corner").required();
  box.add("max", &BoxBlock::max, fields::vec3(), "m", "Highest corner").required();
  box.check([](BoxBlock& b, const json&, const std::string& where) { checkExtent(b.min, b.max, where, ""); });
  Table<ConeBlock> cone("A vertical cylinder or cone standing on its base");
  cone.add("base", &ConeBlock::base, fields::vec3(), "m", "Centre of the base").required();
  cone.add("radius", &ConeBlock::radius, number(positive()), "m", "Radius of the base").required();
  cone.add("height", &ConeBlock::height, number(positive()), "m", "Height").required();
  cone.add("segments", &ConeBlock::segments, integer(3, 1024), "", "Segments around");
  Table<ConeBlock> tree("A tree: two cones on a trunk");
  tree.add("base", &ConeBlock::base, fields::vec3(), "m", "Foot of the trunk").required();
  tree.add("height", &ConeBlock::height, number(positive()), "m", "Height to the tip").required();
  tree.add("radius", &ConeBlock::radius, number(positive()), "m", "Radius of the lower cone").required();
  tree.add("segments", &ConeBlock::segments, integer(3, 1024), "", "Segments around");
  Table<GableHouse> house("A house with a gable roof, its ridge along the longer side");
  house.add("min", &GableHouse::min, xz(), "m", "Footprint corner (x, z)").required();
  house.add("max", &GableHouse::max, xz(), "m", "Opposite footprint corner (x, z)").required();
  house.add("wall_height", &GableHouse::wallHeight, number(positive()), "m", "Height of the walls").required();
  house.add("roof_height", &GableHouse::roofHeight, number(positive()), "m", "Ridge above the wall tops").required();
  house.add("y", &GableHouse::y, number(), "m", "Base of the walls");
  house.add("eaves", &GableHouse::eaves, number(atLeast(0.0)), "m", "Roof overhang on every side");
  house.check(
      [](GableHouse& h, const json&, const std::string& where) { checkExtent(h.min, h.max, where, " in x and z"); });
  Table<ObjectBlock> t("An object the snow falls on: one of box, cylinder, cone, tree, house and mesh");
  t.add("box", &ObjectBlock::box, optional(object(box)), "", "A box");
  t.add("cylinder", &ObjectBlock::cylinder, optional(object(cone)), "", "A vertical cylinder");
  t.add("cone", &ObjectBlock::cone, optional(object(cone)), "", "A vertical cone");
  t.add("tree", &ObjectBlock::tree, optional(object(tree), treePrototype()), "", "A tree");
  t.add("house", &ObjectBlock::house, optional(object(house)), "", "A house");
  t.include(meshKeys(), [](ObjectBlock& o) -> MeshBlock& { return o; });
  t.check([](ObjectBlock& o, const json& object, const std::string& where) {
    o.shape = shapeOf(object, where, {"box", "cylinder", "cone", "tree", "house", "mesh"});
    meshOnlyKeys(object, where, o.shape);
  });
  return t;
}

TriangleMesh buildObject(const ObjectBlock& o, const std::string& where, const std::filesystem::path& directory) {
  if (o.shape == "box") return makeBox(o.box->min, o.box->max, 0);
  if (o.shape == "cylinder")
    return makeVerticalCylinder(o.cylinder->base, o.cylinder->radius, o.cylinder->height, o.cylinder->segments);
  if (o.shape == "cone") return makeCone(o.cone->base, o.cone->radius, o.cone->height, o.cone->segments);
  if (o.shape == "tree") return makeSnowTree(o.tree->base, o.tree->height, o.tree->radius, o.tree->segments);
  if (o.shape == "house") return makeGableRoofHouse(*o.house);
  return importMesh(o, where, directory);
}

/// The ground's and the objects' meshes, once every key is read.
void buildScene(SnowReading& r, const json&, const std::string&) {
  const std::filesystem::path directory = r.file.path.parent_path();
  const GroundBlock& g = r.ground;
  if (g.shape == "plane") {
    r.file.scene.ground = makeGroundPlane(g.plane->min, g.plane->max, g.plane->y);
  } else if (g.shape == "terrain") {
    auto mesh = makeTerrain(*g.terrain);
    if (!mesh) throw SceneError{"ground.terrain: " + mesh.error().message};
    r.file.scene.ground = std::move(mesh).value();
  } else {
    r.file.scene.ground = importMesh(g, "ground", directory);
  }
  for (std::size_t k = 0; k < r.objects.size(); ++k)
    appendMesh(r.file.scene.objects, buildObject(r.objects[k], "objects[" + std::to_string(k) + "]", directory));
}

Table<SnowfallSettings> snowfallKeys() {
  Table<SnowfallSettings> t("The snowfall directions (docs/methods.md section 5)");
  t.add("directions", &SnowfallSettings::count, integer(1, limits::kMaxSnowDirections), "",
        "Directions (depth maps) per pass");
  t.add("cone_degrees", &SnowfallSettings::coneDegrees, number(), "deg", "Half-angle of the jitter cone, 0..80");
  t.add("wind_tilt_degrees", &SnowfallSettings::windTiltDegrees, number(), "deg",
        "The cone's axis tilted from fall toward wind, 0..80");
  t.add("wind", &SnowfallSettings::wind, fields::vec3(), "", "Where the wind blows (only its part across fall counts)");
  t.add("fall", &SnowfallSettings::fall, fields::vec3(), "", "Direction of fall without wind");
  t.add("seed", &SnowfallSettings::seed, integer<std::uint32_t>(0, std::numeric_limits<int>::max()), "",
        "Jitter seed (the same seed gives the same directions)");
  return t;
}

Table<SnowSettings> snowKeys() {
  Table<SnowSettings> t("Accumulation (docs/methods.md section 5)");
  t.add("rate_m_per_hour", &SnowSettings::rateMetresPerHour, number(), "m/h",
        "Fresh snow depth per hour on open level ground");
  t.add("hours", &SnowSettings::hours, number(), "h", "Duration of the snowfall");
  t.add("passes", &SnowSettings::passes, integer(1, limits::kMaxSnowPasses), "",
        "Accumulation passes over the duration (snow on snow between them)");
  t.add("ground_cell", &SnowSettings::groundCell, number(), "m", "Cell of the ground's height field");
  t.add("object_edge", &SnowSettings::objectEdge, number(), "m",
        "Longest object edge after refinement (negative: ground_cell)");
  t.add("map_resolution", &SnowSettings::mapResolution, integer(0, 16384), "",
        "Texels of a depth map across the scene's larger horizontal extent (0: texel_m)");
  t.add("texel_m", nested(&SnowSettings::exposure, &SnowExposureSettings::texel), number(), "m",
        "Texel of the depth maps (when map_resolution is 0)");
  t.add("bias_m", nested(&SnowSettings::exposure, &SnowExposureSettings::bias), number(), "m",
        "A point counts as first hit up to this behind the map's depth (negative: 1.5 texels)");
  t.add("rays_per_direction", nested(&SnowSettings::exposure, &SnowExposureSettings::raysPerDirection), integer(1, 64),
        "", "Sub-rays tilted around each direction");
  t.add("ray_spread", nested(&SnowSettings::exposure, &SnowExposureSettings::raySpread), number(), "",
        "Tangent of the sub-rays' largest tilt (0: from the snowfall)");
  t.add("repose_degrees", nested(&SnowSettings::repose, &SnowReposeSettings::degrees), number(), "deg",
        "Angle of repose, (0, 80]");
  t.add("repose_tolerance", nested(&SnowSettings::repose, &SnowReposeSettings::tolerance), number(), "",
        "Relax until the steepest slope is within (1 + this) x tan(angle)");
  t.add("repose_max_iterations", nested(&SnowSettings::repose, &SnowReposeSettings::maxIterations),
        integer(0, limits::kMaxReposeIterations), "", "Relaxation sweeps per pass at most");
  t.add("repose_check_every", nested(&SnowSettings::repose, &SnowReposeSettings::checkEvery), integer(1, 1 << 20), "",
        "Sweeps between convergence checks");
  return t;
}

Table<SnowSceneFile::Camera> cameraKeys() {
  Table<SnowSceneFile::Camera> t("The pictures' camera (else one is placed from the scene's box)");
  t.add("eye", &SnowSceneFile::Camera::eye, fields::vec3(), "m", "Where it looks from").required();
  t.add("target", &SnowSceneFile::Camera::target, fields::vec3(), "m", "Where it looks at").required();
  t.check([](SnowSceneFile::Camera& c, const json&, const std::string&) {
    if (!(glm::distance(c.eye, c.target) > 1e-6f))
      throw SceneError{"camera.eye and camera.target must differ (the camera looks from eye to target)"};
    c.set = true;
  });
  return t;
}

const Table<SnowReading>& snowTable() {
  static const Table<SnowReading> table = [] {
    Table<SnowReading> t(
        "A snow scene (hagoromo snow): the ground, the objects the snow falls on, the snowfall and "
        "an optional camera; metres, degrees, hours");
    t.topLevel().schemaKey();
    t.add("name", nested(&SnowReading::file, &SnowSceneFile::name), noDefault(outputName()), "",
          "The outputs' base name (default: the file's name)");
    t.add("ground", &SnowReading::ground, object(groundKeys()), "", "The ground")
        .required(" is missing (give ground.plane, ground.terrain or ground.mesh)");
    t.add("objects", &SnowReading::objects, list(object(objectKeys())), "", "The objects the snow falls on");
    t.add("snowfall", nested(&SnowReading::file, &SnowSceneFile::settings, &SnowSettings::fall), object(snowfallKeys()),
          "", "The snowfall directions");
    t.add("snow", nested(&SnowReading::file, &SnowSceneFile::settings), object(snowKeys()), "", "Accumulation");
    t.add("camera", nested(&SnowReading::file, &SnowSceneFile::camera), object(cameraKeys()), "",
          "The pictures' camera");
    t.check(buildScene);
    return t;
  }();
  return table;
}

}  // namespace

Result<SnowSceneFile> parseSnowScene(const std::string& text, const std::filesystem::path& path) {
  SnowReading reading;
  reading.file.path = path;
  reading.file.name = path.stem().string();
  try {
    snowTable().read(scenejson::parseDocument(text), "scene", reading);
  } catch (...) {
    return scenejson::sceneParseError(path.string());
  }
  if (Status s = reading.file.settings.validate(); !s) return s.error().prefixed(path.string() + ": ");
  return std::move(reading.file);
}

Result<SnowSceneFile> loadSnowScene(const std::filesystem::path& path, const SceneOverrides& overrides) {
  auto text = readSceneFileWithOverrides(path.string(), overrides);
  if (!text) return text.error();
  return parseSnowScene(*text, path);
}

fields::ObjectDoc snowSceneKeys() {
  SnowReading defaults;
  return snowTable().describe(defaults);
}

}  // namespace hg
