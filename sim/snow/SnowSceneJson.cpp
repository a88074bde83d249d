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
#include "sim/io/SceneJson.h"
#include "sim/snow/SnowProps.h"

namespace hg {

namespace {

using namespace scenejson;

void require(const json& object, const std::string& where, const char* key) {
  if (!object.contains(key)) throw SceneError{where + "." + key + " is missing"};
}

/// object[key] as an array of 2 finite numbers (x, z), required.
glm::vec2 vec2(const json& object, const std::string& where, const char* key) {
  require(object, where, key);
  const json& v = object.at(key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw SceneError{where + "." + key + " must be an array of 2 numbers [x, z]"};
  const glm::vec2 r(v[0].get<float>(), v[1].get<float>());
  if (!std::isfinite(r.x) || !std::isfinite(r.y)) throw SceneError{where + "." + key + " must be finite"};
  return r;
}

glm::vec3 requiredVec3(const json& object, const std::string& where, const char* key) {
  require(object, where, key);
  return vec3(object, where, key, glm::vec3(0.0f));
}

float requiredPositive(const json& object, const std::string& where, const char* key) {
  require(object, where, key);
  return positive(object, where, key, 1.0f);
}

float nonNegative(const json& object, const std::string& where, const char* key, float fallback) {
  const float v = number(object, where, key, fallback);
  if (v < 0.0f) throw SceneError{where + "." + key + " must be >= 0"};
  return v;
}

int segmentsOf(const json& object, const std::string& where, int fallback) {
  return integer(object, where, "segments", fallback, 3, 1024);
}

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

/// A mesh file (triangulated, node transforms applied, identical vertices joined), its
/// positions scaled then translated (m). `where` is the key naming the file.
TriangleMesh importMesh(const json& object, const std::string& where, const std::filesystem::path& directory) {
  const json& file = object.at("mesh");
  if (!file.is_string() || file.get<std::string>().empty()) throw SceneError{where + ".mesh must be a file name"};
  const float scale = positive(object, where, "scale", 1.0f);
  const glm::vec3 translate = vec3(object, where, "translate", glm::vec3(0.0f));
  std::filesystem::path path = file.get<std::string>();
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
      const glm::vec3 q = glm::vec3(p.x, p.y, p.z) * scale + translate;
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

TriangleMesh parseGround(const json& g, const std::filesystem::path& directory) {
  const std::string where = "ground";
  checkKeys(g, where, {"plane", "terrain", "mesh", "scale", "translate"});
  const std::string shape = shapeOf(g, where, {"plane", "terrain", "mesh"});
  if (shape != "mesh" && (g.contains("scale") || g.contains("translate")))
    throw SceneError{where + ": scale and translate apply to a mesh only"};
  if (shape == "plane") {
    const json& p = g.at("plane");
    const std::string at = where + ".plane";
    checkKeys(p, at, {"min", "max", "y"});
    const glm::vec2 lo = vec2(p, at, "min"), hi = vec2(p, at, "max");
    if (!(hi.x > lo.x) || !(hi.y > lo.y)) throw SceneError{at + ".max must exceed " + at + ".min in x and z"};
    return makeGroundPlane(lo, hi, number(p, at, "y", 0.0f));
  }
  if (shape == "terrain") {
    const json& t = g.at("terrain");
    const std::string at = where + ".terrain";
    checkKeys(t, at, {"min", "max", "cell", "y", "hills", "seed", "noise", "noise_scale"});
    TerrainSpec spec;
    spec.min = vec2(t, at, "min");
    spec.max = vec2(t, at, "max");
    if (!(spec.max.x > spec.min.x) || !(spec.max.y > spec.min.y))
      throw SceneError{at + ".max must exceed " + at + ".min in x and z"};
    spec.cell = positive(t, at, "cell", spec.cell);
    spec.y = number(t, at, "y", spec.y);
    const int seed = integer(t, at, "seed", int(spec.seed), 0, std::numeric_limits<int>::max());
    spec.seed = std::uint32_t(seed);
    spec.noise = nonNegative(t, at, "noise", spec.noise);
    spec.noiseScale = positive(t, at, "noise_scale", spec.noiseScale);
    if (t.contains("hills")) {
      const json& hills = t.at("hills");
      if (!hills.is_array()) throw SceneError{at + ".hills must be an array of {centre, radius, height}"};
      for (std::size_t k = 0; k < hills.size(); ++k) {
        const std::string h = at + ".hills[" + std::to_string(k) + "]";
        checkKeys(hills[k], h, {"centre", "radius", "height"});
        TerrainHill hill;
        hill.centre = vec2(hills[k], h, "centre");
        hill.radius = requiredPositive(hills[k], h, "radius");
        require(hills[k], h, "height");
        hill.height = number(hills[k], h, "height", 0.0f);
        spec.hills.push_back(hill);
      }
    }
    auto mesh = makeTerrain(spec);
    if (!mesh) throw SceneError{at + ": " + mesh.error().message};
    return std::move(mesh).value();
  }
  return importMesh(g, where, directory);
}

TriangleMesh parseObject(const json& o, const std::string& where, const std::filesystem::path& directory) {
  checkKeys(o, where, {"box", "cylinder", "cone", "tree", "house", "mesh", "scale", "translate"});
  const std::string shape = shapeOf(o, where, {"box", "cylinder", "cone", "tree", "house", "mesh"});
  if (shape != "mesh" && (o.contains("scale") || o.contains("translate")))
    throw SceneError{where + ": scale and translate apply to a mesh only"};
  if (shape == "mesh") return importMesh(o, where, directory);
  const json& s = o.at(shape);
  const std::string at = where + "." + shape;
  if (shape == "box") {
    checkKeys(s, at, {"min", "max"});
    const glm::vec3 lo = requiredVec3(s, at, "min"), hi = requiredVec3(s, at, "max");
    if (!(hi.x > lo.x) || !(hi.y > lo.y) || !(hi.z > lo.z)) throw SceneError{at + ".max must exceed " + at + ".min"};
    return makeBox(lo, hi, 0);
  }
  if (shape == "cylinder" || shape == "cone") {
    checkKeys(s, at, {"base", "radius", "height", "segments"});
    const glm::vec3 base = requiredVec3(s, at, "base");
    const float radius = requiredPositive(s, at, "radius"), height = requiredPositive(s, at, "height");
    const int segments = segmentsOf(s, at, 16);
    return shape == "cylinder" ? makeVerticalCylinder(base, radius, height, segments)
                               : makeCone(base, radius, height, segments);
  }
  if (shape == "tree") {
    checkKeys(s, at, {"base", "height", "radius", "segments"});
    const glm::vec3 base = requiredVec3(s, at, "base");
    const float height = requiredPositive(s, at, "height"), radius = requiredPositive(s, at, "radius");
    return makeSnowTree(base, height, radius, segmentsOf(s, at, 12));
  }
  // house
  checkKeys(s, at, {"min", "max", "wall_height", "roof_height", "y", "eaves"});
  GableHouse house;
  house.min = vec2(s, at, "min");
  house.max = vec2(s, at, "max");
  if (!(house.max.x > house.min.x) || !(house.max.y > house.min.y))
    throw SceneError{at + ".max must exceed " + at + ".min in x and z"};
  house.wallHeight = requiredPositive(s, at, "wall_height");
  house.roofHeight = requiredPositive(s, at, "roof_height");
  house.y = number(s, at, "y", house.y);
  house.eaves = nonNegative(s, at, "eaves", house.eaves);
  return makeGableRoofHouse(house);
}

void parseSnowfall(const json& f, SnowfallSettings& fall) {
  const std::string at = "snowfall";
  checkKeys(f, at, {"directions", "cone_degrees", "wind_tilt_degrees", "wind", "fall", "seed"});
  fall.count = integer(f, at, "directions", fall.count, 1, limits::kMaxSnowDirections);
  fall.coneDegrees = number(f, at, "cone_degrees", fall.coneDegrees);
  fall.windTiltDegrees = number(f, at, "wind_tilt_degrees", fall.windTiltDegrees);
  fall.wind = vec3(f, at, "wind", fall.wind);
  fall.fall = vec3(f, at, "fall", fall.fall);
  const int seed = integer(f, at, "seed", int(fall.seed), 0, std::numeric_limits<int>::max());
  fall.seed = std::uint32_t(seed);
}

void parseSnow(const json& s, SnowSettings& settings) {
  const std::string at = "snow";
  checkKeys(s, at,
            {"rate_m_per_hour", "hours", "passes", "ground_cell", "object_edge", "map_resolution", "texel_m", "bias_m",
             "rays_per_direction", "ray_spread", "repose_degrees", "repose_tolerance", "repose_max_iterations",
             "repose_check_every"});
  settings.rateMetresPerHour = number(s, at, "rate_m_per_hour", settings.rateMetresPerHour);
  settings.hours = number(s, at, "hours", settings.hours);
  settings.passes = integer(s, at, "passes", settings.passes, 1, limits::kMaxSnowPasses);
  settings.groundCell = number(s, at, "ground_cell", settings.groundCell);
  settings.objectEdge = number(s, at, "object_edge", settings.objectEdge);
  settings.mapResolution = integer(s, at, "map_resolution", settings.mapResolution, 0, 16384);
  settings.exposure.texel = number(s, at, "texel_m", settings.exposure.texel);
  settings.exposure.bias = number(s, at, "bias_m", settings.exposure.bias);
  settings.exposure.raysPerDirection = integer(s, at, "rays_per_direction", settings.exposure.raysPerDirection, 1, 64);
  settings.exposure.raySpread = number(s, at, "ray_spread", settings.exposure.raySpread);
  settings.repose.degrees = number(s, at, "repose_degrees", settings.repose.degrees);
  settings.repose.tolerance = number(s, at, "repose_tolerance", settings.repose.tolerance);
  settings.repose.maxIterations =
      integer(s, at, "repose_max_iterations", settings.repose.maxIterations, 0, limits::kMaxReposeIterations);
  settings.repose.checkEvery = integer(s, at, "repose_check_every", settings.repose.checkEvery, 1, 1 << 20);
}

}  // namespace

Result<SnowSceneFile> parseSnowScene(const std::string& text, const std::filesystem::path& path) {
  const std::string origin = path.string();
  SnowSceneFile file;
  file.path = path;
  file.name = path.stem().string();
  const std::filesystem::path directory = path.parent_path();
  try {
    const json root = parseDocument(text);
    checkKeys(root, "scene", {"name", "ground", "objects", "snowfall", "snow", "camera"});
    if (root.contains("name")) file.name = outputName(root["name"], "scene.name");
    if (!root.contains("ground"))
      throw SceneError{"ground is missing (give ground.plane, ground.terrain or ground.mesh)"};
    file.scene.ground = parseGround(root["ground"], directory);
    if (root.contains("objects")) {
      const json& objects = root["objects"];
      if (!objects.is_array()) throw SceneError{"objects must be an array"};
      for (std::size_t k = 0; k < objects.size(); ++k)
        appendMesh(file.scene.objects, parseObject(objects[k], "objects[" + std::to_string(k) + "]", directory));
    }
    if (root.contains("snowfall")) parseSnowfall(root["snowfall"], file.settings.fall);
    if (root.contains("snow")) parseSnow(root["snow"], file.settings);
    if (root.contains("camera")) {
      const json& c = root["camera"];
      checkKeys(c, "camera", {"eye", "target"});
      file.camera.eye = requiredVec3(c, "camera", "eye");
      file.camera.target = requiredVec3(c, "camera", "target");
      if (!(glm::distance(file.camera.eye, file.camera.target) > 1e-6f))
        throw SceneError{"camera.eye and camera.target must differ (the camera looks from eye to target)"};
      file.camera.set = true;
    }
  } catch (...) {
    return sceneParseError(origin);
  }
  if (Status s = file.settings.validate(); !s) return s.error().prefixed(origin + ": ");
  return file;
}

Result<SnowSceneFile> loadSnowScene(const std::filesystem::path& path) {
  auto text = readSceneFile(path);
  if (!text) return text.error();
  return parseSnowScene(*text, path);
}

}  // namespace hg
