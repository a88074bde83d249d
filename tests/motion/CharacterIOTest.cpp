// assimp character import and animated glTF export: a skinned body with clips, written by
// exportAnimatedGltf and read back by importCharacter (glb), then converted by assimp to
// COLLADA and FBX and read back; garments as morph targets; error messages; atomic writes.
#include <gtest/gtest.h>

#include <assimp/SceneCombiner.h>
#include <assimp/cexport.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/motion/CharacterIO.h"
#include "tests/support/GlmExpect.h"
#include "tests/support/TempDir.h"

using namespace hg;
namespace fs = std::filesystem;

namespace {

using test::expectNear;

using TempDir = test::TempDir;

/// Four joints with non-identity rest rotations; a 2 x 5 vertex strip (unique positions)
/// with 1 to 5 influences per vertex (reduced to 4 by appendInfluences).
SkinnedMesh makeBody() {
  SkinnedMesh body;
  Skeleton& s = body.skeleton;
  s.joints = {{"pelvis", -1, {}}, {"spine", 0, {}}, {"head", 1, {}}, {"thigh_l", 0, {}}};
  s.joints[0].rest.translation = {0.0f, 1.0f, 0.0f};
  s.joints[0].rest.rotation = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  s.joints[1].rest.translation = {0.0f, 0.3f, 0.0f};
  s.joints[1].rest.rotation = glm::angleAxis(-0.2f, glm::vec3(1, 0, 0));
  s.joints[2].rest.translation = {0.0f, 0.4f, 0.05f};
  s.joints[3].rest.translation = {0.1f, -0.1f, 0.0f};
  s.joints[3].rest.rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  s.computeInverseBind();
  TriangleMesh& m = body.mesh;
  for (int row = 0; row < 5; ++row)
    for (int col = 0; col < 2; ++col)
      m.positions.push_back({0.2f * float(col) - 0.1f, 0.5f + 0.3f * float(row), 0.02f * float(row)});
  for (std::uint32_t row = 0; row < 4; ++row) {
    const std::uint32_t a = 2 * row, b = a + 1, c = a + 2, d = a + 3;
    m.indices.insert(m.indices.end(), {a, b, c, b, d, c});
  }
  computeVertexNormals(m);
  const std::vector<std::vector<std::pair<std::uint32_t, float>>> influences = {
      {{3, 1.0f}},
      {{3, 0.63f}, {0, 0.37f}},
      {{0, 0.5f}, {3, 0.3f}, {1, 0.2f}},
      {{0, 0.4f}, {1, 0.3f}, {3, 0.2f}, {2, 0.1f}},
      {{0, 0.25f}, {1, 0.75f}},
      {{1, 0.123f}, {0, 0.456f}, {2, 0.789f}},
      {{1, 1.0f}},
      {{1, 0.3f}, {2, 0.3f}, {0, 0.2f}, {3, 0.15f}, {0, 0.05f}},  // 5 influences -> 4
      {{2, 0.9f}, {1, 0.1f}},
      {{2, 1.0f}},
  };
  for (const auto& list : influences) appendInfluences(body.skin, list);
  return body;
}

std::vector<Animation> makeClips() {
  Animation wave;
  wave.name = "wave";
  wave.duration = 1.25f;
  AnimationChannel pelvis;
  pelvis.joint = 0;
  pelvis.translation = {{0.0f, 0.5f, 1.25f}, {{0.0f, 1.0f, 0.0f}, {0.1f, 1.05f, -0.2f}, {0.3f, 0.95f, 0.125f}}};
  pelvis.rotation = {
      {0.0f, 1.25f},
      {glm::angleAxis(0.3f, glm::vec3(0, 1, 0)), glm::angleAxis(1.1f, glm::normalize(glm::vec3(1, 2, 3)))}};
  pelvis.scale = {{0.0f, 1.25f}, {{1.0f, 1.0f, 1.0f}, {1.0f, 1.1f, 0.9f}}};
  AnimationChannel spine;
  spine.joint = 1;
  spine.rotation.times = {0.0f, 0.4f, 0.8f, 1.25f};
  for (float a : {-0.2f, 0.3f, -0.7f, 0.05f}) spine.rotation.values.push_back(glm::angleAxis(a, glm::vec3(1, 0, 0)));
  wave.channels = {pelvis, spine};
  Animation nod;
  nod.name = "nod";
  nod.duration = 2.0f;
  AnimationChannel head;
  head.joint = 2;
  head.rotation = {{0.0f, 1.0f, 2.0f},
                   {glm::quat(1, 0, 0, 0), glm::angleAxis(0.4f, glm::vec3(1, 0, 0)), glm::quat(1, 0, 0, 0)}};
  nod.channels = {head};
  return {wave, nod};
}

void expectSameRotation(glm::quat a, glm::quat b, float tol, const std::string& what) {
  if (glm::dot(a, b) < 0.0f) b = -b;
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(a[c], b[c], tol) << what << " component " << c;
}
void expectNear(const glm::mat4& a, const glm::mat4& b, float tol, const std::string& what) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], tol) << what << " [" << c << "][" << r << "]";
}

/// Joint name -> weight of every influence of vertex v.
std::map<std::string, float> influencesByName(const SkinnedMesh& m, std::size_t v) {
  std::map<std::string, float> out;
  for (int k = 0; k < 4; ++k)
    if (m.skin.weights[v][k] > 0.0f) out[m.skeleton.joints[m.skin.joints[v][k]].name] += m.skin.weights[v][k];
  return out;
}

/// Index of the vertex of `mesh` at `p` (the fixtures have unique positions), or -1.
int findVertex(const TriangleMesh& mesh, glm::vec3 p, float tol) {
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (glm::length(mesh.positions[i] - p) < tol) return int(i);
  return -1;
}

/// Skeleton (names, parents, rest, inverse bind) and per-vertex weights of `got` equal `want`.
void expectSameBody(const SkinnedMesh& want, const SkinnedMesh& got, float tol, bool sameVertexOrder) {
  ASSERT_EQ(got.skeleton.size(), want.skeleton.size());
  for (std::size_t j = 0; j < want.skeleton.size(); ++j) {
    const Joint& w = want.skeleton.joints[j];
    const int gi = got.skeleton.find(w.name);
    ASSERT_GE(gi, 0) << "joint " << w.name << " missing";
    const Joint& g = got.skeleton.joints[std::size_t(gi)];
    EXPECT_EQ(g.parent < 0 ? std::string() : got.skeleton.joints[std::size_t(g.parent)].name,
              w.parent < 0 ? std::string() : want.skeleton.joints[std::size_t(w.parent)].name)
        << "parent of " << w.name;
    expectNear(g.rest.translation, w.rest.translation, tol, w.name + " rest translation");
    expectSameRotation(g.rest.rotation, w.rest.rotation, tol, w.name + " rest rotation");
    expectNear(got.skeleton.inverseBind[std::size_t(gi)], want.skeleton.inverseBind[j], tol, w.name + " inverse bind");
  }
  if (sameVertexOrder) {
    ASSERT_EQ(got.mesh.vertexCount(), want.mesh.vertexCount());
  }
  ASSERT_GE(got.mesh.vertexCount(), want.mesh.vertexCount());
  for (std::size_t v = 0; v < got.mesh.vertexCount(); ++v) {
    const int w = sameVertexOrder ? int(v) : findVertex(want.mesh, got.mesh.positions[v], 1e-5f);
    ASSERT_GE(w, 0) << "imported vertex " << v << " is not a vertex of the original";
    expectNear(got.mesh.positions[v], want.mesh.positions[std::size_t(w)], tol, "vertex " + std::to_string(v));
    const auto a = influencesByName(want, std::size_t(w));
    const auto b = influencesByName(got, v);
    ASSERT_EQ(a.size(), b.size()) << "vertex " << v;
    for (const auto& [name, weight] : a) {
      ASSERT_TRUE(b.count(name)) << "vertex " << v << " lost its influence of " << name;
      EXPECT_NEAR(b.at(name), weight, 1e-6f) << "vertex " << v << " weight of " << name;
    }
  }
}

/// Every key (time and value) of `want` is in `got`. With `exactKeys` the tracks have the
/// same keys and the durations agree; without, `got` may hold extra keys (FBX resamples all
/// curves of a node at the union of their key times). An empty track may come back as one
/// key holding the rest value (see exportAnimatedGltf) or, without `exactKeys`, as keys
/// holding the rest value.
template <class T, class Same>
void expectKeys(const KeyTrack<T>& want, const KeyTrack<T>& got, const T& rest, bool exactKeys, float tol,
                const std::string& label, Same same) {
  if (want.empty()) {
    if (exactKeys) {
      EXPECT_LE(got.values.size(), 1u) << label;
    }
    for (std::size_t k = 0; k < got.values.size(); ++k)
      same(got.values[k], rest, label + " rest key " + std::to_string(k));
    return;
  }
  if (exactKeys) {
    EXPECT_EQ(got.times.size(), want.times.size()) << label;
    if (got.times.size() != want.times.size()) return;
  }
  for (std::size_t k = 0; k < want.times.size(); ++k) {
    const auto it =
        std::find_if(got.times.begin(), got.times.end(), [&](float t) { return std::abs(t - want.times[k]) <= tol; });
    if (it == got.times.end()) {
      ADD_FAILURE() << label << ": no key at time " << want.times[k];
      continue;
    }
    same(got.values[std::size_t(it - got.times.begin())], want.values[k], label + " key " + std::to_string(k));
  }
}

void expectSameClip(const Animation& want, const Skeleton& ws, const Animation& got, const Skeleton& gs, float tol,
                    bool exactKeys = true, bool checkScale = true) {
  if (exactKeys) {
    EXPECT_NEAR(got.duration, want.duration, tol) << want.name;
  }
  for (const AnimationChannel& wc : want.channels) {
    const Joint& joint = ws.joints[std::size_t(wc.joint)];
    const auto it = std::find_if(got.channels.begin(), got.channels.end(), [&](const AnimationChannel& c) {
      return gs.joints[std::size_t(c.joint)].name == joint.name;
    });
    ASSERT_NE(it, got.channels.end()) << want.name << ": no channel for " << joint.name;
    const std::string label = want.name + "/" + joint.name;
    auto sameVec = [tol](glm::vec3 a, glm::vec3 b, const std::string& what) { expectNear(a, b, tol, what); };
    auto sameRot = [tol](glm::quat a, glm::quat b, const std::string& what) { expectSameRotation(a, b, tol, what); };
    expectKeys(wc.translation, it->translation, joint.rest.translation, exactKeys, tol, label + " translation",
               sameVec);
    expectKeys(wc.rotation, it->rotation, joint.rest.rotation, exactKeys, tol, label + " rotation", sameRot);
    if (checkScale) expectKeys(wc.scale, it->scale, joint.rest.scale, exactKeys, tol, label + " scale", sameVec);
  }
}

const Animation* findClip(const Character& c, const std::string& name) {
  for (const Animation& a : c.animations)
    if (a.name == name) return &a;
  return nullptr;
}

/// The JSON chunk of a .glb file (glTF 2.0 spec, "Binary glTF Layout": 12-byte header, then
/// a chunk with uint32 length, uint32 type 0x4E4F534A "JSON", data).
nlohmann::json glbJson(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GE(bytes.size(), 20u);
  if (bytes.size() < 20) return {};
  std::uint32_t magic = 0, length = 0, type = 0;
  std::memcpy(&magic, bytes.data(), 4);
  std::memcpy(&length, bytes.data() + 12, 4);
  std::memcpy(&type, bytes.data() + 16, 4);
  EXPECT_EQ(magic, 0x46546C67u);  // "glTF"
  EXPECT_EQ(type, 0x4E4F534Au);   // "JSON"
  return nlohmann::json::parse(bytes.substr(20, length));
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST(CharacterIO, GlbRoundTripKeepsBonesWeightsAndKeys) {
  const TempDir dir("motion_roundtrip");
  const SkinnedMesh body = makeBody();
  ASSERT_TRUE(body.validate().ok());
  const std::vector<Animation> clips = makeClips();
  const fs::path file = dir / "character.glb";
  Status s = exportAnimatedGltf(file, body, clips, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(filesIn(dir), std::vector<std::string>{"character.glb"});  // no temporary left

  Result<Character> r = importCharacter(file);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expectSameBody(body, r->body, 1e-5f, /*sameVertexOrder=*/true);
  EXPECT_EQ(r->body.mesh.indices, body.mesh.indices);
  ASSERT_EQ(r->animations.size(), 2u);
  for (const Animation& clip : clips) {
    const Animation* got = findClip(*r, clip.name);
    ASSERT_NE(got, nullptr) << clip.name;
    expectSameClip(clip, body.skeleton, *got, r->body.skeleton, 1e-6f);
  }
  // The imported clip poses the imported skeleton as the original clip poses the original.
  const Animation* wave = findClip(*r, "wave");
  ASSERT_NE(wave, nullptr);
  for (float t : {0.0f, 0.3f, 0.9f, 1.25f}) {
    const auto a = globalMatrices(body.skeleton, clips[0].sample(body.skeleton, t));
    const auto b = globalMatrices(r->body.skeleton, wave->sample(r->body.skeleton, t));
    for (std::size_t j = 0; j < a.size(); ++j) expectNear(b[j], a[j], 1e-5f, "t " + std::to_string(t));
  }

  // What Blender reads: one skin with all joints, JOINTS_0/WEIGHTS_0, one animation per clip.
  const nlohmann::json gltf = glbJson(file);
  ASSERT_EQ(gltf["skins"].size(), 1u);
  EXPECT_EQ(gltf["skins"][0]["joints"].size(), 4u);
  const nlohmann::json& attributes = gltf["meshes"][0]["primitives"][0]["attributes"];
  EXPECT_TRUE(attributes.contains("JOINTS_0") && attributes.contains("WEIGHTS_0")) << attributes.dump();
  ASSERT_EQ(gltf["animations"].size(), 2u);
  for (const auto& a : gltf["animations"]) EXPECT_FALSE(a["channels"].empty()) << a.dump();
}

TEST(CharacterIO, ColladaAndFbxWrittenByAssimpImport) {
  const TempDir dir("motion_convert");
  const SkinnedMesh body = makeBody();
  const std::vector<Animation> clips = makeClips();
  const fs::path glb = dir / "character.glb";
  ASSERT_TRUE(exportAnimatedGltf(glb, body, clips, {}).ok());
  // assimp converts the glb to FBX and COLLADA (its own exporters); we read those back.
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(glb.string(), 0);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  Assimp::Exporter exporter;
  {
    SCOPED_TRACE("fbx");
    // assimp 5.2.5's FBX exporter reads aiAnimation key times as seconds, ignoring
    // mTicksPerSecond (the glTF importer gives milliseconds, 1000 ticks per second), so
    // the copy it exports gets its times converted to seconds first.
    aiScene* seconds = nullptr;
    aiCopyScene(scene, &seconds);
    std::unique_ptr<aiScene> owner(seconds);
    for (unsigned a = 0; a < seconds->mNumAnimations; ++a) {
      aiAnimation* anim = seconds->mAnimations[a];
      const double tps = anim->mTicksPerSecond != 0.0 ? anim->mTicksPerSecond : 25.0;
      anim->mDuration /= tps;
      anim->mTicksPerSecond = 1.0;
      for (unsigned c = 0; c < anim->mNumChannels; ++c) {
        aiNodeAnim* na = anim->mChannels[c];
        for (unsigned k = 0; k < na->mNumPositionKeys; ++k) na->mPositionKeys[k].mTime /= tps;
        for (unsigned k = 0; k < na->mNumRotationKeys; ++k) na->mRotationKeys[k].mTime /= tps;
        for (unsigned k = 0; k < na->mNumScalingKeys; ++k) na->mScalingKeys[k].mTime /= tps;
      }
    }
    // It also writes each take's LocalStop as whole seconds (truncated), and assimp's FBX
    // importer drops keys after LocalStop: round the durations up.
    for (unsigned a = 0; a < seconds->mNumAnimations; ++a)
      seconds->mAnimations[a]->mDuration = std::ceil(seconds->mAnimations[a]->mDuration);
    const fs::path fbx = dir / "character.fbx";
    ASSERT_EQ(exporter.Export(seconds, "fbxa", fbx.string()), aiReturn_SUCCESS) << exporter.GetErrorString();
    Result<Character> r = importCharacter(fbx);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameBody(body, r->body, 1e-4f, /*sameVertexOrder=*/false);
    for (const Animation& clip : clips) {
      const Animation* got = findClip(*r, clip.name);
      ASSERT_NE(got, nullptr) << clip.name;
      EXPECT_NEAR(got->duration, std::ceil(clip.duration), 1e-4f);
      // Scale keys do not survive assimp's FBX export + import (the last key comes back as
      // (1, 1, 1)); translation and rotation keys do.
      expectSameClip(clip, body.skeleton, *got, r->body.skeleton, 1e-4f, /*exactKeys=*/false, /*checkScale=*/false);
    }
  }
  {
    SCOPED_TRACE("collada");
    // assimp 5.2.5's COLLADA exporter writes animation sources its own importer rejects
    // ("Unable to resolve library reference \"pelvis_matrix-input\""), so the COLLADA
    // check covers the skinned mesh without clips.
    aiScene* still = nullptr;
    aiCopyScene(scene, &still);
    std::unique_ptr<aiScene> owner(still);
    for (unsigned a = 0; a < still->mNumAnimations; ++a) delete still->mAnimations[a];
    delete[] still->mAnimations;
    still->mAnimations = nullptr;
    still->mNumAnimations = 0;
    const fs::path dae = dir / "character.dae";
    ASSERT_EQ(exporter.Export(still, "collada", dae.string()), aiReturn_SUCCESS) << exporter.GetErrorString();
    Result<Character> r = importCharacter(dae);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameBody(body, r->body, 1e-4f, /*sameVertexOrder=*/false);
  }
}

TEST(CharacterIO, GarmentsAreWrittenAsOneMorphTargetPerFrame) {
  const TempDir dir("motion_garment");
  NamedMeshSequence shirt;
  shirt.name = "shirt";
  shirt.color = {0.62f, 0.20f, 0.08f};
  shirt.mesh.positions = {{0, 1, 0}, {0.3f, 1, 0}, {0, 1.3f, 0}, {0.3f, 1.3f, 0}};
  shirt.mesh.indices = {0, 1, 2, 1, 3, 2};
  for (int f = 0; f < 3; ++f) {
    shirt.times.push_back(0.04f * float(f));
    std::vector<glm::vec3> p = shirt.mesh.positions;
    for (glm::vec3& v : p) v += glm::vec3(0.0f, -0.01f * float(f) * v.x, 0.02f * float(f));
    shirt.positions.push_back(p);
  }
  const fs::path file = dir / "scene.glb";
  Status s = exportAnimatedGltf(file, makeBody(), makeClips(), {shirt});
  ASSERT_TRUE(s.ok()) << s.error().message;

  const nlohmann::json gltf = glbJson(file);
  const auto mesh =
      std::find_if(gltf["meshes"].begin(), gltf["meshes"].end(), [](const auto& m) { return m["name"] == "shirt"; });
  ASSERT_NE(mesh, gltf["meshes"].end());
  EXPECT_EQ((*mesh)["primitives"][0]["targets"].size(), 3u);
  EXPECT_EQ((*mesh)["extras"]["targetNames"], (nlohmann::json{"shirt_t0.000s", "shirt_t0.040s", "shirt_t0.080s"}));
  // The shirt has a material of its own, named after it, with its colour.
  const nlohmann::json& material = gltf["materials"][(*mesh)["primitives"][0]["material"].get<std::size_t>()];
  EXPECT_EQ(material["name"], "shirt");
  EXPECT_NEAR(material["pbrMetallicRoughness"]["baseColorFactor"][0].get<float>(), shirt.color.r, 1e-6f);
  EXPECT_NEAR(material["pbrMetallicRoughness"]["baseColorFactor"][2].get<float>(), shirt.color.b, 1e-6f);
  // The two clips, and the garment's drape: a weights channel on the shirt's node that
  // steps through its three targets at the frame times (added to assimp's output).
  ASSERT_EQ(gltf["animations"].size(), 3u);
  const nlohmann::json& drape = gltf["animations"][2];
  EXPECT_EQ(drape["name"], "shirt_drape");
  ASSERT_EQ(drape["channels"].size(), 1u);
  EXPECT_EQ(drape["channels"][0]["target"]["path"], "weights");
  const int node = drape["channels"][0]["target"]["node"];
  EXPECT_EQ(gltf["nodes"][std::size_t(node)]["mesh"], int(mesh - gltf["meshes"].begin()));
  const nlohmann::json& sampler = drape["samplers"][0];
  const nlohmann::json& input = gltf["accessors"][sampler["input"].get<std::size_t>()];
  const nlohmann::json& output = gltf["accessors"][sampler["output"].get<std::size_t>()];
  EXPECT_EQ(input["count"], 3);
  EXPECT_FLOAT_EQ(input["max"][0].get<float>(), 0.08f);
  EXPECT_EQ(output["count"], 9);  // frames x targets
  EXPECT_EQ(sampler["interpolation"], "LINEAR");

  // Read back with assimp: the base shape is the last frame, target k is frame k.
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(file.string(), 0);
  ASSERT_NE(scene, nullptr) << importer.GetErrorString();
  const aiMesh* m = nullptr;
  for (unsigned i = 0; i < scene->mNumMeshes; ++i)
    if (std::string(scene->mMeshes[i]->mName.C_Str()) == "shirt") m = scene->mMeshes[i];
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->mNumVertices, 4u);
  for (unsigned v = 0; v < 4; ++v)
    expectNear({m->mVertices[v].x, m->mVertices[v].y, m->mVertices[v].z}, shirt.positions[2][v], 1e-6f, "base");
  ASSERT_EQ(m->mNumAnimMeshes, 3u);
  for (unsigned f = 0; f < 3; ++f)
    for (unsigned v = 0; v < 4; ++v) {
      const aiVector3D p = m->mAnimMeshes[f]->mVertices[v];
      expectNear({p.x, p.y, p.z}, shirt.positions[f][v], 1e-6f,
                 "frame " + std::to_string(f) + " vertex " + std::to_string(v));
    }
}

TEST(CharacterIO, ImportErrorsNameTheFileAndProblem) {
  const TempDir dir("motion_errors");
  auto message = [](const fs::path& p) {
    Result<Character> r = importCharacter(p);
    return r.ok() ? std::string("(no error)") : r.error().message;
  };
  const fs::path missing = dir / "missing.glb";
  EXPECT_NE(message(missing).find(missing.string() + ": no such file"), std::string::npos) << message(missing);

  const fs::path unsupported = dir / "body.xyz123";
  std::ofstream(unsupported) << "data";
  EXPECT_NE(message(unsupported).find("unsupported format '.xyz123'"), std::string::npos) << message(unsupported);

  const fs::path garbage = dir / "broken.glb";
  std::ofstream(garbage) << "this is not a glb file";
  const std::string g = message(garbage);
  EXPECT_EQ(g.find("cannot import " + garbage.string() + ": "), 0u) << g;

  // A glTF with a node but no mesh.
  const fs::path empty = dir / "empty.gltf";
  std::ofstream(empty)
      << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "n"}]})";
  const std::string e = message(empty);
  EXPECT_EQ(e.find("cannot import " + empty.string() + ": "), 0u) << e;

  // No skeleton: one joint "root", every vertex weighted 1 to it (an OBJ triangle).
  const fs::path obj = dir / "tri.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  Result<Character> r = importCharacter(obj);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->body.skeleton.size(), 1u);
  EXPECT_EQ(r->body.skeleton.joints[0].name, "root");
  ASSERT_EQ(r->body.mesh.vertexCount(), 3u);
  for (std::size_t v = 0; v < 3; ++v) {
    EXPECT_EQ(r->body.skin.joints[v][0], 0u);
    EXPECT_FLOAT_EQ(r->body.skin.weights[v][0], 1.0f);
  }
}

TEST(CharacterIO, FailedExportLeavesNoPartialFile) {
  const TempDir dir("motion_atomic");
  const SkinnedMesh body = makeBody();
  // An existing output is kept as it was when the export fails (invalid weights).
  const fs::path file = dir / "out.glb";
  std::ofstream(file) << "previous";
  SkinnedMesh bad = body;
  bad.skin.weights[3] *= 2.0f;
  Status s = exportAnimatedGltf(file, bad, {}, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(file.string()), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("vertex 3"), std::string::npos) << s.error().message;
  {
    std::ifstream in(file);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(content, "previous");
  }
  // A failure after assimp produced the bytes (the final rename onto a folder fails):
  // the temporary file is removed, the folder is untouched.
  const fs::path folder = dir / "taken.glb";
  fs::create_directories(folder / "inside");
  s = exportAnimatedGltf(folder, body, makeClips(), {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(folder.string()), std::string::npos) << s.error().message;
  EXPECT_TRUE(fs::is_directory(folder / "inside"));
  // Unsupported extension and a garment with a wrong frame size: no file at all.
  EXPECT_FALSE(exportAnimatedGltf(dir / "out.gltf", body, {}, {}).ok());
  NamedMeshSequence g;
  g.name = "skirt";
  g.mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  g.mesh.indices = {0, 1, 2};
  g.times = {0.0f};
  g.positions = {{{0, 0, 0}}};
  s = exportAnimatedGltf(dir / "garment.glb", body, {}, {g});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("garment 'skirt': frame 0 has 1 positions for 3 vertices"), std::string::npos)
      << s.error().message;
  EXPECT_EQ(filesIn(dir), (std::vector<std::string>{"out.glb", "taken.glb"}));
}

namespace {

/// makeBody's skeleton on a strip of 2 x `rows` vertices, one influence each.
SkinnedMesh makeTallBody(int rows) {
  SkinnedMesh body = makeBody();
  body.mesh = {};
  body.skin = {};
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < 2; ++col)
      body.mesh.positions.push_back({0.2f * float(col) - 0.1f, 0.001f * float(row), 0.0f});
  for (std::uint32_t row = 0; row + 1 < std::uint32_t(rows); ++row) {
    const std::uint32_t a = 2 * row, b = a + 1, c = a + 2, d = a + 3;
    body.mesh.indices.insert(body.mesh.indices.end(), {a, b, c, b, d, c});
  }
  computeVertexNormals(body.mesh);
  for (int v = 0; v < 2 * rows; ++v) appendInfluences(body.skin, {{std::uint32_t(v / 2 % 4), 1.0f}});
  return body;
}

/// Leaves freed heap blocks of several sizes full of 0xAB, as a long run leaves its heap.
void dirtyTheHeap() {
  std::vector<std::vector<std::uint8_t>> blocks;
  for (std::size_t size = 1 << 12; size <= std::size_t(1) << 23; size *= 2) blocks.emplace_back(size, 0xAB);
  for (int repeat = 0; repeat < 3; ++repeat) {
    blocks.clear();
    for (std::size_t size = std::size_t(1) << 23; size >= 1 << 12; size /= 2) blocks.emplace_back(size, 0xAB);
  }
}

std::string fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

// assimp 5.2's glTF exporter reserves more room for JOINTS_0 than it fills (the rest is
// uninitialized heap); the exported file must depend only on the scene: every byte of the
// binary chunk outside the buffer views is zero, and two exports are identical.
TEST(CharacterIO, GlbBytesDependOnlyOnTheScene) {
  const TempDir dir("motion_deterministic");
  const SkinnedMesh body = makeTallBody(20000);
  NamedMeshSequence shirt;
  shirt.name = "shirt";
  shirt.mesh.positions = {{0, 1, 0}, {0.3f, 1, 0}, {0, 1.3f, 0}};
  shirt.mesh.indices = {0, 1, 2};
  shirt.times = {0.0f, 0.04f};
  shirt.positions = {shirt.mesh.positions, shirt.mesh.positions};
  for (const bool withGarment : {false, true}) {
    std::vector<std::string> exports;
    for (int run = 0; run < 2; ++run) {
      const fs::path file = dir / ("body_" + std::to_string(run) + ".glb");
      dirtyTheHeap();
      Status s = exportAnimatedGltf(file, body, makeClips(),
                                    withGarment ? std::vector{shirt} : std::vector<NamedMeshSequence>{});
      ASSERT_TRUE(s.ok()) << s.error().message;
      exports.push_back(fileBytes(file));
    }
    const std::string& bytes = exports[0];
    const nlohmann::json gltf = glbJson(dir / "body_0.glb");
    std::uint32_t jsonLength = 0, binLength = 0;
    std::memcpy(&jsonLength, bytes.data() + 12, 4);
    const std::size_t binAt = 20 + std::size_t(jsonLength) + 8;
    std::memcpy(&binLength, bytes.data() + binAt - 8, 4);
    ASSERT_EQ(binAt + binLength, bytes.size());
    std::vector<bool> viewed(binLength, false);
    for (const auto& view : gltf["bufferViews"]) {
      const std::size_t offset = view.value("byteOffset", std::size_t(0)), length = view["byteLength"];
      ASSERT_LE(offset + length, viewed.size());
      std::fill(viewed.begin() + std::ptrdiff_t(offset), viewed.begin() + std::ptrdiff_t(offset + length), true);
    }
    std::size_t unviewed = 0, nonZero = 0;
    for (std::size_t i = 0; i < binLength; ++i)
      if (!viewed[i]) {
        ++unviewed;
        nonZero += bytes[binAt + i] != 0;
      }
    EXPECT_EQ(nonZero, 0u) << "of " << unviewed << " bytes outside the buffer views, garment " << withGarment;
    EXPECT_TRUE(exports[0] == exports[1]) << "garment " << withGarment;
  }
}
