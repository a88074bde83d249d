#include "sim/motion/CharacterIO.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "sim/core/AtomicFile.h"
#include "sim/io/AssimpRead.h"
#include "sim/io/MeshExport.h"

namespace hg {

namespace {

// aiMatrix4x4 is row-major (a1..a4 is the first row); glm is column-major (m[col][row]).
glm::mat4 toGlm(const aiMatrix4x4& a) {
  glm::mat4 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[c][r] = a[unsigned(r)][unsigned(c)];
  return m;
}

aiMatrix4x4 toAi(const glm::mat4& m) {
  aiMatrix4x4 a;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) a[unsigned(r)][unsigned(c)] = m[c][r];
  return a;
}

glm::vec3 toGlm(const aiVector3D& v) { return {v.x, v.y, v.z}; }
glm::quat toGlm(const aiQuaternion& q) { return glm::quat(q.w, q.x, q.y, q.z); }

Transform decompose(const aiMatrix4x4& m) {
  aiVector3D scale, translation;
  aiQuaternion rotation;
  m.Decompose(scale, rotation, translation);
  Transform t;
  t.translation = toGlm(translation);
  t.rotation = glm::normalize(toGlm(rotation));
  t.scale = toGlm(scale);
  return t;
}

// ---------------------------------------------------------------------------------------
// Import

struct NodeInfo {
  const aiNode* node;
  glm::mat4 global;  ///< model-space matrix of the node (scene root included)
};

void collectNodes(const aiNode* node, const glm::mat4& parentGlobal, std::vector<NodeInfo>& out,
                  std::unordered_map<const aiNode*, std::size_t>& index) {
  const glm::mat4 global = parentGlobal * toGlm(node->mTransformation);
  index[node] = out.size();
  out.push_back({node, global});
  for (unsigned c = 0; c < node->mNumChildren; ++c) collectNodes(node->mChildren[c], global, out, index);
}

/// The scene's nodes in depth-first order (parents first) and each node's place in it.
struct SceneNodes {
  std::vector<NodeInfo> list;
  std::unordered_map<const aiNode*, std::size_t> index;
};

/// Reads `path`, triangulating only: no vertex welding or reordering, so vertex order
/// matches the file. Error: no such file, a format assimp does not read, a file it cannot
/// parse, a scene without nodes.
Result<const aiScene*> readCharacterScene(Assimp::Importer& importer, const std::filesystem::path& path) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error{"cannot import " + file + ": no such file"};
  const std::string ext = path.extension().string();
  if (!importer.IsExtensionSupported(ext))
    return Error{"cannot import " + file + ": unsupported format '" + ext +
                 "' (assimp reads glTF 2.0, FBX, COLLADA, ...)"};
  const aiScene* scene = readWithAssimp(importer, path, aiProcess_Triangulate);
  if (scene == nullptr) return Error{"cannot import " + file + ": " + importer.GetErrorString()};
  if (scene->mRootNode == nullptr) return Error{"cannot import " + file + ": the scene has no nodes"};
  return scene;
}

bool hasTriangleMesh(const aiScene& scene) {
  bool anyTriangles = false;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh* mesh = scene.mMeshes[m];
    anyTriangles |= (mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) != 0 && mesh->mNumFaces > 0;
  }
  return anyTriangles;
}

/// The names of the bones of every mesh.
std::set<std::string> boneNamesOf(const aiScene& scene) {
  std::set<std::string> boneNames;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh* mesh = scene.mMeshes[m];
    for (unsigned b = 0; b < mesh->mNumBones; ++b) boneNames.insert(mesh->mBones[b]->mName.C_Str());
  }
  return boneNames;
}

/// Per node, 1 for a joint: the nodes named by bones, plus their ancestors below the scene
/// root (the root itself only when a bone names it).
std::vector<char> markJointNodes(const aiScene& scene, const SceneNodes& nodes,
                                 const std::set<std::string>& boneNames) {
  std::vector<char> isJoint(nodes.list.size(), 0);
  for (std::size_t n = 0; n < nodes.list.size(); ++n) {
    if (!boneNames.count(nodes.list[n].node->mName.C_Str())) continue;
    for (const aiNode* a = nodes.list[n].node; a != nullptr && a != scene.mRootNode; a = a->mParent)
      isJoint[nodes.index.at(a)] = 1;
    if (nodes.list[n].node == scene.mRootNode) isJoint[n] = 1;
  }
  return isJoint;
}

/// Appends the joint nodes to the skeleton in depth-first order (parents first) and
/// returns each node's joint (-1: not a joint). Error: two joints share a name.
Result<std::vector<int>> addJoints(const aiScene& scene, const SceneNodes& nodes, const std::vector<char>& isJoint,
                                   Skeleton& skeleton, const std::string& file) {
  std::vector<int> jointOfNode(nodes.list.size(), -1);
  const glm::mat4 rootMatrix = toGlm(scene.mRootNode->mTransformation);
  for (std::size_t n = 0; n < nodes.list.size(); ++n) {  // depth-first order: parents first
    if (!isJoint[n]) continue;
    const aiNode* node = nodes.list[n].node;
    Joint joint;
    joint.name = node->mName.C_Str();
    if (skeleton.find(joint.name) >= 0)
      return Error{"cannot import " + file + ": two joints are named '" + joint.name + "'"};
    const aiNode* parent = node->mParent;
    joint.parent = parent != nullptr ? jointOfNode[nodes.index.at(parent)] : -1;
    // A root joint's rest includes the scene root's transform (e.g. a COLLADA/FBX axis fix).
    joint.rest = joint.parent < 0 && node != scene.mRootNode
                     ? decompose(toAi(rootMatrix * toGlm(node->mTransformation)))
                     : decompose(node->mTransformation);
    jointOfNode[n] = int(skeleton.joints.size());
    skeleton.joints.push_back(std::move(joint));
  }
  return jointOfNode;
}

/// Nearest joint at or above the node (0 when there is none), for meshes without bones.
int nearestJoint(const aiNode* node, const SceneNodes& nodes, const std::vector<int>& jointOfNode) {
  for (const aiNode* a = node; a != nullptr; a = a->mParent)
    if (const int j = jointOfNode[nodes.index.at(a)]; j >= 0) return j;
  return 0;
}

// ---------------------------------------------------------------------------------------
// Bind pose
//
// A skinned vertex is sum_j w_j * G_j * offset_j * v (assimp's aiBone::mOffsetMatrix maps
// the mesh's space to the bone's space in the bind pose; glTF's inverse bind matrices
// likewise), whatever the transform of the mesh's own node: glTF 2.0 section 3.7.3.3
// ("only the joint transforms are applied to the skinned mesh; the transform of the
// skinned mesh node MUST be ignored"). The bind pose is where G_j = X * inverse(offset_j)
// for one placement X of the mesh, and there the body is X * v. The files' node transforms
// need not be that pose (a DirectX .x character stores its frames in another pose), so the
// rest mesh and rest pose are taken from the offsets, not from the nodes: each skinned
// mesh is placed so that a bone it shares with a mesh placed before keeps that mesh's
// bind; the first one by its node when the nodes are in its bind pose (then nothing
// changes), else in the skeleton's space (solveBindPose).

/// A mesh with bones: where its node is and, per bone, the joint and offset matrix.
struct BoundMesh {
  const aiMesh* mesh;
  glm::mat4 nodeGlobal;
  std::vector<std::pair<int, glm::mat4>> bones;  ///< (joint, offset), in the mesh's bone order
};

/// The bind placement X of every bound mesh (see above) and the bind-pose global matrix of
/// every joint (joints no mesh binds follow their parent by their node's local transform).
struct BindPose {
  std::vector<glm::mat4> meshPlacement;  ///< per BoundMesh
  std::vector<glm::mat4> jointGlobal;    ///< per joint
};

/// Whether the nodes' rest pose is the bind pose of `mesh` placed by its own node: every
/// bone's node at meshGlobal * inverse(offset), within 1 mm and 1e-3 in its axes.
bool nodesAreInBindPose(const BoundMesh& mesh, const std::vector<glm::mat4>& nodeRestGlobal) {
  for (const auto& [joint, offset] : mesh.bones) {
    const glm::mat4 bind = mesh.nodeGlobal * glm::inverse(offset);
    const glm::mat4& node = nodeRestGlobal[std::size_t(joint)];
    for (int c = 0; c < 3; ++c)
      if (glm::length(glm::vec3(bind[c]) - glm::vec3(node[c])) > 1e-3f * glm::length(glm::vec3(node[c]))) return false;
    if (glm::length(glm::vec3(bind[3]) - glm::vec3(node[3])) > 1e-3f) return false;
  }
  return true;
}

BindPose solveBindPose(const std::vector<BoundMesh>& meshes, const std::vector<glm::mat4>& nodeRestGlobal,
                       const glm::mat4& sceneRoot, const Skeleton& skeleton) {
  std::vector<std::optional<glm::mat4>> bind(skeleton.size());
  BindPose out;
  out.meshPlacement.resize(meshes.size());
  std::vector<char> placed(meshes.size(), 0);
  for (std::size_t round = 0; round < meshes.size(); ++round) {
    // Next: a mesh sharing a bone with the placed ones (placed to keep that bone's bind),
    // else the first one left.
    std::size_t pick = meshes.size();
    std::optional<glm::mat4> placement;
    for (std::size_t m = 0; m < meshes.size() && !placement; ++m)
      if (!placed[m])
        for (const auto& [joint, offset] : meshes[m].bones)
          if (bind[std::size_t(joint)]) {
            pick = m;
            placement = *bind[std::size_t(joint)] * offset;
            break;
          }
    if (!placement) {
      pick = std::size_t(std::find(placed.begin(), placed.end(), 0) - placed.begin());
      // Nodes in the bind pose: the mesh where its node puts it (COLLADA's and FBX's axis
      // fixes live in those nodes). Nodes in another pose: the skinned mesh's own node is
      // ignored, as glTF 2.0 (section 3.7.3.3) and DirectX skinning define it; its
      // vertices are in the skeleton's space, under the scene root.
      placement = nodesAreInBindPose(meshes[pick], nodeRestGlobal) ? meshes[pick].nodeGlobal : sceneRoot;
    }
    out.meshPlacement[pick] = *placement;
    placed[pick] = 1;
    for (const auto& [joint, offset] : meshes[pick].bones)
      if (!bind[std::size_t(joint)]) bind[std::size_t(joint)] = *placement * glm::inverse(offset);
  }
  // Joints no mesh binds: from their nearest ancestor with a bind through the nodes'
  // relative transforms (their node's own global for none).
  out.jointGlobal.resize(skeleton.size());
  for (std::size_t j = 0; j < skeleton.size(); ++j) {  // parents first
    const int p = skeleton.joints[j].parent;
    out.jointGlobal[j] =
        bind[j]  ? *bind[j]
        : p >= 0 ? out.jointGlobal[std::size_t(p)] * glm::inverse(nodeRestGlobal[std::size_t(p)]) * nodeRestGlobal[j]
                 : nodeRestGlobal[j];
  }
  return out;
}

/// Sets the skeleton's rest pose and inverse binds to the bind pose.
void setRestToBindPose(Skeleton& skeleton, const std::vector<glm::mat4>& bindGlobal) {
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    const int p = skeleton.joints[j].parent;
    const glm::mat4 local = p < 0 ? bindGlobal[j] : glm::inverse(bindGlobal[std::size_t(p)]) * bindGlobal[j];
    skeleton.joints[j].rest = decompose(toAi(local));
    skeleton.inverseBind[j] = glm::inverse(bindGlobal[j]);
  }
}

/// Where the meshes of one node go in the merged body: model space and the joint that
/// binds the vertices no bone weighs.
struct MeshPlacement {
  glm::mat4 meshToModel;
  glm::mat3 normalMatrix;
  int nodeJoint;
};

/// Appends a triangle mesh to the body (positions in model space; normals and uvs when
/// every mesh has them) and its bone weights to the skin.
void appendBodyMesh(const aiMesh& mesh, const MeshPlacement& at, bool allHaveNormals, bool allHaveUvs,
                    Character& character) {
  TriangleMesh& body = character.body.mesh;
  Skeleton& skeleton = character.body.skeleton;
  const std::uint32_t base = std::uint32_t(body.positions.size());
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
    body.positions.push_back(glm::vec3(at.meshToModel * glm::vec4(toGlm(mesh.mVertices[v]), 1.0f)));
    if (allHaveNormals) body.normals.push_back(glm::normalize(at.normalMatrix * toGlm(mesh.mNormals[v])));
    if (allHaveUvs) body.uvs.emplace_back(mesh.mTextureCoords[0][v].x, mesh.mTextureCoords[0][v].y);
  }
  for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
    const aiFace& face = mesh.mFaces[f];
    if (face.mNumIndices != 3) continue;
    for (int c = 0; c < 3; ++c) body.indices.push_back(base + face.mIndices[c]);
  }
  std::vector<std::vector<std::pair<std::uint32_t, float>>> influences(mesh.mNumVertices);
  for (unsigned b = 0; b < mesh.mNumBones; ++b) {
    const aiBone* bone = mesh.mBones[b];
    const int joint = skeleton.find(bone->mName.C_Str());
    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId < mesh.mNumVertices) influences[vw.mVertexId].emplace_back(std::uint32_t(joint), vw.mWeight);
    }
  }
  for (auto& list : influences) appendInfluences(character.body.skin, std::move(list), std::uint32_t(at.nodeJoint));
}

/// Merges the scene's triangle meshes into the body in the bind pose (see "Bind pose"),
/// node by node (depth-first), and makes the bind pose the skeleton's rest; vertex normals
/// are computed when some mesh has none. A mesh without bones moves with its node's
/// nearest joint from that joint's node transform to its bind.
void mergeMeshes(const aiScene& scene, const SceneNodes& nodes, const std::vector<int>& jointOfNode,
                 Character& character) {
  bool allHaveNormals = true, allHaveUvs = true;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    allHaveNormals &= scene.mMeshes[m]->HasNormals();
    allHaveUvs &= scene.mMeshes[m]->HasTextureCoords(0);
  }
  Skeleton& skeleton = character.body.skeleton;
  std::vector<glm::mat4> nodeRestGlobal(skeleton.size(), glm::mat4(1.0f));
  for (std::size_t n = 0; n < nodes.list.size(); ++n)
    if (jointOfNode[n] >= 0) nodeRestGlobal[std::size_t(jointOfNode[n])] = nodes.list[n].global;
  std::vector<BoundMesh> bound;
  for (const NodeInfo& info : nodes.list)
    for (unsigned k = 0; k < info.node->mNumMeshes; ++k) {
      const aiMesh* mesh = scene.mMeshes[info.node->mMeshes[k]];
      if ((mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0 || mesh->mNumBones == 0) continue;
      BoundMesh b{mesh, info.global, {}};
      for (unsigned i = 0; i < mesh->mNumBones; ++i)
        b.bones.emplace_back(skeleton.find(mesh->mBones[i]->mName.C_Str()), toGlm(mesh->mBones[i]->mOffsetMatrix));
      bound.push_back(std::move(b));
    }
  const BindPose bind = solveBindPose(bound, nodeRestGlobal, toGlm(scene.mRootNode->mTransformation), skeleton);
  std::size_t boundIndex = 0;
  for (const NodeInfo& info : nodes.list) {
    for (unsigned k = 0; k < info.node->mNumMeshes; ++k) {
      const aiMesh* mesh = scene.mMeshes[info.node->mMeshes[k]];
      if ((mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0) continue;
      MeshPlacement at;
      at.nodeJoint = nearestJoint(info.node, nodes, jointOfNode);
      if (mesh->mNumBones > 0)
        at.meshToModel = bind.meshPlacement[boundIndex++];
      else if (skeleton.joints.empty() || at.nodeJoint < 0)
        at.meshToModel = info.global;
      else
        at.meshToModel = bind.jointGlobal[std::size_t(at.nodeJoint)] *
                         glm::inverse(nodeRestGlobal[std::size_t(at.nodeJoint)]) * info.global;
      at.normalMatrix = glm::transpose(glm::inverse(glm::mat3(at.meshToModel)));
      appendBodyMesh(*mesh, at, allHaveNormals, allHaveUvs, character);
    }
  }
  setRestToBindPose(skeleton, bind.jointGlobal);
  if (!allHaveNormals) computeVertexNormals(character.body.mesh);
}

/// The scene root's transform, which the keys of root joints take on (rotation and uniform
/// scale) unless the root is itself the joint.
struct RootTransform {
  const aiNode* node;
  glm::mat4 matrix;
  Transform parts;
  bool identity;
};

/// A joint's keys with times in seconds; `applyRoot`: with the scene root's transform.
AnimationChannel importChannel(const aiNodeAnim& na, int joint, double ticksPerSecond, bool applyRoot,
                               const RootTransform& root) {
  AnimationChannel ch;
  ch.joint = joint;
  for (unsigned k = 0; k < na.mNumPositionKeys; ++k) {
    glm::vec3 t = toGlm(na.mPositionKeys[k].mValue);
    if (applyRoot) t = glm::vec3(root.matrix * glm::vec4(t, 1.0f));
    ch.translation.times.push_back(float(na.mPositionKeys[k].mTime / ticksPerSecond));
    ch.translation.values.push_back(t);
  }
  for (unsigned k = 0; k < na.mNumRotationKeys; ++k) {
    glm::quat q = glm::normalize(toGlm(na.mRotationKeys[k].mValue));
    if (applyRoot) q = glm::normalize(root.parts.rotation * q);
    ch.rotation.times.push_back(float(na.mRotationKeys[k].mTime / ticksPerSecond));
    ch.rotation.values.push_back(q);
  }
  for (unsigned k = 0; k < na.mNumScalingKeys; ++k) {
    glm::vec3 s = toGlm(na.mScalingKeys[k].mValue);
    if (applyRoot) s *= root.parts.scale;
    ch.scale.times.push_back(float(na.mScalingKeys[k].mTime / ticksPerSecond));
    ch.scale.values.push_back(s);
  }
  return ch;
}

/// Clip `a` of the scene: the channels of the skeleton's joints (none when the file has
/// no skeleton); the duration covers every key.
Animation importAnimation(const aiAnimation& anim, unsigned a, const Skeleton& skeleton, bool hasSkeleton,
                          const RootTransform& root) {
  // assimp: "mTicksPerSecond ... 0 if not specified in the imported file"; 25 is the
  // default assimp's own tools assume.
  const double ticksPerSecond = anim.mTicksPerSecond != 0.0 ? anim.mTicksPerSecond : 25.0;
  Animation clip;
  clip.name = anim.mName.length > 0 ? anim.mName.C_Str() : "animation_" + std::to_string(a);
  clip.duration = float(anim.mDuration / ticksPerSecond);
  for (unsigned c = 0; c < anim.mNumChannels; ++c) {
    const aiNodeAnim* na = anim.mChannels[c];
    const int joint = skeleton.find(na->mNodeName.C_Str());
    if (joint < 0 || !hasSkeleton) continue;
    const bool applyRoot = skeleton.joints[std::size_t(joint)].parent < 0 && !root.identity &&
                           std::string(na->mNodeName.C_Str()) != root.node->mName.C_Str();
    AnimationChannel ch = importChannel(*na, joint, ticksPerSecond, applyRoot, root);
    for (const auto* times : {&ch.translation.times, &ch.rotation.times, &ch.scale.times})
      if (!times->empty()) clip.duration = std::max(clip.duration, times->back());
    clip.channels.push_back(std::move(ch));
  }
  return clip;
}

/// Welds the body's vertices that share a position (positionWeldMap): the first one's skin
/// weights, uv and normal stay; triangles the merge collapses are dropped.
void weldBody(SkinnedMesh& body) {
  const std::vector<std::uint32_t> remap = positionWeldMap(body.mesh);
  const std::size_t count = remap.empty() ? 0 : std::size_t(*std::max_element(remap.begin(), remap.end())) + 1;
  if (count == body.mesh.vertexCount()) return;
  SkinnedMesh welded;
  welded.skeleton = std::move(body.skeleton);
  TriangleMesh& out = welded.mesh;
  out.positions.resize(count);
  if (!body.mesh.normals.empty()) out.normals.resize(count);
  if (!body.mesh.uvs.empty()) out.uvs.resize(count);
  welded.skin.joints.resize(count);
  welded.skin.weights.resize(count);
  std::vector<char> seen(count, 0);
  for (std::size_t v = 0; v < remap.size(); ++v) {
    const std::uint32_t w = remap[v];
    if (seen[w]) continue;
    seen[w] = 1;
    out.positions[w] = body.mesh.positions[v];
    if (!out.normals.empty()) out.normals[w] = body.mesh.normals[v];
    if (!out.uvs.empty()) out.uvs[w] = body.mesh.uvs[v];
    welded.skin.joints[w] = body.skin.joints[v];
    welded.skin.weights[w] = body.skin.weights[v];
  }
  for (std::size_t t = 0; t + 2 < body.mesh.indices.size(); t += 3) {
    const std::uint32_t a = remap[body.mesh.indices[t]], b = remap[body.mesh.indices[t + 1]],
                        c = remap[body.mesh.indices[t + 2]];
    if (a != b && b != c && a != c) out.indices.insert(out.indices.end(), {a, b, c});
  }
  body = std::move(welded);
}

}  // namespace

Status transformCharacter(Character& character, const glm::mat4& m) {
  const glm::mat3 linear(m);
  const float scale = glm::length(linear[0]);
  for (int c = 0; c < 3; ++c) {
    if (!(std::abs(glm::length(linear[c]) - scale) <= 1e-4f * scale))
      return Error{"the import transform scales unevenly (give one scale for all axes)"};
    for (int d = c + 1; d < 3; ++d)
      if (!(std::abs(glm::dot(linear[c], linear[d])) <= 1e-4f * scale * scale))
        return Error{"the import transform shears"};
  }
  if (!(scale > 0.0f) || !std::isfinite(scale)) return Error{"the import scale must be a positive number"};
  if (glm::determinant(linear) < 0.0f) return Error{"the import transform mirrors"};
  const glm::quat rotation = glm::normalize(glm::quat_cast(linear / scale));
  const auto point = [&m](glm::vec3 p) { return glm::vec3(m * glm::vec4(p, 1.0f)); };
  TriangleMesh& mesh = character.body.mesh;
  for (glm::vec3& p : mesh.positions) p = point(p);
  for (glm::vec3& n : mesh.normals) n = rotation * n;
  Skeleton& skeleton = character.body.skeleton;
  const glm::mat4 inverse = glm::inverse(m);
  for (glm::mat4& ib : skeleton.inverseBind) ib = ib * inverse;
  for (Joint& joint : skeleton.joints) {
    if (joint.parent >= 0) continue;
    joint.rest.translation = point(joint.rest.translation);
    joint.rest.rotation = glm::normalize(rotation * joint.rest.rotation);
    joint.rest.scale *= scale;
  }
  for (Animation& clip : character.animations)
    for (AnimationChannel& ch : clip.channels) {
      if (ch.joint < 0 || skeleton.joints[std::size_t(ch.joint)].parent >= 0) continue;
      for (glm::vec3& t : ch.translation.values) t = point(t);
      for (glm::quat& q : ch.rotation.values) q = glm::normalize(rotation * q);
      for (glm::vec3& s : ch.scale.values) s *= scale;
    }
  return Status::success();
}

Result<Character> importCharacter(const std::filesystem::path& path, const ImportFrame& frame) {
  const std::string file = path.string();
  Assimp::Importer importer;
  const Result<const aiScene*> read = readCharacterScene(importer, path);
  if (!read) return read.error();
  const aiScene& scene = **read;

  SceneNodes nodes;
  collectNodes(scene.mRootNode, glm::mat4(1.0f), nodes.list, nodes.index);

  // Joints: nodes named by bones, plus their ancestors below the scene root.
  const std::set<std::string> boneNames = boneNamesOf(scene);
  if (!hasTriangleMesh(scene)) return Error{"cannot import " + file + ": the file has no triangle mesh"};
  const std::vector<char> isJoint = markJointNodes(scene, nodes, boneNames);
  for (const std::string& name : boneNames)
    if (scene.mRootNode->FindNode(name.c_str()) == nullptr)
      return Error{"cannot import " + file + ": bone '" + name + "' has no node in the scene"};

  Character character;
  Skeleton& skeleton = character.body.skeleton;
  const Result<std::vector<int>> jointOfNode = addJoints(scene, nodes, isJoint, skeleton, file);
  if (!jointOfNode) return jointOfNode.error();
  const bool hasSkeleton = !skeleton.joints.empty();
  if (!hasSkeleton) skeleton.joints.push_back(Joint{"root", -1, {}});
  skeleton.computeInverseBind();  // mergeMeshes replaces it for joints that are bones

  // Meshes, merged in model space.
  mergeMeshes(scene, nodes, *jointOfNode, character);
  if (character.body.mesh.indices.empty()) return Error{"cannot import " + file + ": the file has no triangle mesh"};
  character.verticesBeforeWeld = character.body.mesh.vertexCount();
  weldBody(character.body);

  // Animations. Root joints' keys get the scene root transform (rotation and uniform scale).
  const RootTransform root{scene.mRootNode, toGlm(scene.mRootNode->mTransformation),
                           decompose(scene.mRootNode->mTransformation), scene.mRootNode->mTransformation.IsIdentity()};
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    Animation clip = importAnimation(*scene.mAnimations[a], a, skeleton, hasSkeleton, root);
    if (Status s = clip.validate(skeleton); !s) return s.error().prefixed("cannot import " + file + ": ");
    character.animations.push_back(std::move(clip));
  }

  character.report = resolveFileFrame(scene, path, frame);
  const glm::mat4 toWorld = importTransform(character.report, frame);
  if (toWorld != glm::mat4(1.0f))
    if (Status s = transformCharacter(character, toWorld); !s)
      return s.error().prefixed("cannot import " + file + ": ");
  if (Status s = character.body.validate(1e-4f); !s) return s.error().prefixed("cannot import " + file + ": ");
  return character;
}

// ---------------------------------------------------------------------------------------
// Export

namespace {

template <class T, class Key, class Convert>
Key* makeKeys(const KeyTrack<T>& track, const T& rest, unsigned& count, Convert convert) {
  // glTF requires a sampler per channel: an empty track becomes one key holding the rest value.
  if (track.empty()) {
    count = 1;
    return new Key[1]{Key(0.0, convert(rest))};
  }
  count = unsigned(track.times.size());
  Key* keys = new Key[count];
  for (unsigned k = 0; k < count; ++k) keys[k] = Key(double(track.times[k]), convert(track.values[k]));
  return keys;
}

std::string uniqueName(std::string base, std::set<std::string>& taken) {
  std::string name = base;
  for (int i = 1; taken.count(name); ++i) name = base + "_" + std::to_string(i);
  taken.insert(name);
  return name;
}

template <class T>
T** newArray(const std::vector<T*>& items) {
  T** a = new T*[items.size()];
  std::copy(items.begin(), items.end(), a);
  return a;
}

/// glTF 2.0 binary container (GLB, spec section 4.4): 12-byte header, then chunks.
constexpr std::uint32_t kGlbMagic = 0x46546C67, kChunkJson = 0x4E4F534A, kChunkBin = 0x004E4942;

std::uint32_t readU32(const std::byte* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void appendU32(std::vector<std::byte>& out, std::uint32_t v) {
  const auto* b = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), b, b + 4);
}

/// Zeroes the bytes of the binary chunk that no buffer view covers. assimp 5.2's glTF2
/// exporter reserves 4 bytes per JOINTS_0 component but writes them as 2-byte unsigned
/// shorts, leaving half of the reservation as uninitialized heap; without this the file
/// would change from run to run while the scene does not.
void zeroBytesOutsideBufferViews(const nlohmann::json& doc, std::span<std::byte> bin) {
  std::vector<bool> viewed(bin.size(), false);
  for (const nlohmann::json& view : doc.value("bufferViews", nlohmann::json::array())) {
    if (view.value("buffer", 0) != 0) continue;
    const std::size_t offset = std::min(view.value("byteOffset", std::size_t(0)), bin.size());
    const std::size_t end = std::min(offset + view.value("byteLength", std::size_t(0)), bin.size());
    std::fill(viewed.begin() + std::ptrdiff_t(offset), viewed.begin() + std::ptrdiff_t(end), true);
  }
  for (std::size_t i = 0; i < bin.size(); ++i)
    if (!viewed[i]) bin[i] = std::byte{0};
}

/// Adds the morph-weight animation that assimp 5.2 cannot write: per garment with two or
/// more frames, an animation "<garment>_drape" whose "weights" channel steps through the
/// garment's per-frame targets (target k has weight 1 at frame k's time, 0 at the others,
/// interpolated linearly in between, so the shape blends from frame to frame). Works on
/// the GLB that assimp wrote: appends the key times and weights to its binary chunk and
/// the accessors, buffer views and animations to its JSON chunk. The bytes outside the
/// buffer views are zeroed either way (zeroBytesOutsideBufferViews).
Result<std::vector<std::byte>> addMorphWeightAnimations(std::span<const std::byte> glb,
                                                        const std::vector<NamedMeshSequence>& garments) {
  using nlohmann::json;
  if (glb.size() < 20 || readU32(glb.data()) != kGlbMagic || readU32(glb.data() + 4) != 2)
    return Error{"the exporter did not write GLB 2.0"};
  const std::uint32_t jsonLength = readU32(glb.data() + 12);
  if (readU32(glb.data() + 16) != kChunkJson || 20 + std::size_t(jsonLength) > glb.size())
    return Error{"the GLB's first chunk is not JSON"};
  json doc = json::parse(reinterpret_cast<const char*>(glb.data() + 20),
                         reinterpret_cast<const char*>(glb.data() + 20 + jsonLength), nullptr, false);
  if (doc.is_discarded()) return Error{"the GLB's JSON chunk does not parse"};
  std::vector<std::byte> bin;
  const std::size_t binAt = 20 + std::size_t(jsonLength);
  if (binAt + 8 <= glb.size() && readU32(glb.data() + binAt + 4) == kChunkBin) {
    const std::uint32_t binLength = readU32(glb.data() + binAt);
    if (binAt + 8 + std::size_t(binLength) > glb.size()) return Error{"the GLB's binary chunk is truncated"};
    bin.assign(glb.data() + binAt + 8, glb.data() + binAt + 8 + binLength);
  }
  zeroBytesOutsideBufferViews(doc, bin);
  auto appendFloats = [&](const std::vector<float>& values) {
    while (bin.size() % 4 != 0) bin.push_back(std::byte{0});
    const std::size_t offset = bin.size();
    const auto* b = reinterpret_cast<const std::byte*>(values.data());
    bin.insert(bin.end(), b, b + values.size() * sizeof(float));
    doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(float)}});
    return doc["bufferViews"].size() - 1;
  };
  bool changed = false;
  for (const NamedMeshSequence& g : garments) {
    const std::size_t frames = g.times.size();
    if (frames < 2 || g.positions.size() != frames) continue;
    // The garment's mesh (by name) and the node that shows it.
    std::optional<std::size_t> mesh, node;
    for (std::size_t m = 0; m < doc.value("meshes", json::array()).size(); ++m)
      if (doc["meshes"][m].value("name", "") == g.name) mesh = m;
    for (std::size_t n = 0; mesh && n < doc.value("nodes", json::array()).size(); ++n)
      if (doc["nodes"][n].value("mesh", -1) == int(*mesh)) node = n;
    if (!mesh || !node) return Error{"garment '" + g.name + "' has no mesh node in the exported glTF"};
    const json& primitives = doc["meshes"][*mesh]["primitives"];
    if (primitives.empty() || primitives[0].value("targets", json::array()).size() != frames)
      return Error{"garment '" + g.name + "': the exported mesh lacks its " + std::to_string(frames) +
                   " morph targets"};
    std::vector<float> weights(frames * frames, 0.0f);
    for (std::size_t k = 0; k < frames; ++k) weights[k * frames + k] = 1.0f;
    const std::size_t timesView = appendFloats(g.times);
    const std::size_t weightsView = appendFloats(weights);
    doc["accessors"].push_back({{"bufferView", timesView},
                                {"componentType", 5126},
                                {"count", frames},
                                {"type", "SCALAR"},
                                {"min", {g.times.front()}},
                                {"max", {g.times.back()}}});
    const std::size_t input = doc["accessors"].size() - 1;
    doc["accessors"].push_back(
        {{"bufferView", weightsView}, {"componentType", 5126}, {"count", frames * frames}, {"type", "SCALAR"}});
    const std::size_t output = doc["accessors"].size() - 1;
    doc["animations"].push_back({{"name", g.name + "_drape"},
                                 {"samplers", {{{"input", input}, {"output", output}, {"interpolation", "LINEAR"}}}},
                                 {"channels", {{{"sampler", 0}, {"target", {{"node", *node}, {"path", "weights"}}}}}}});
    changed = true;
  }
  if (!changed) {
    std::vector<std::byte> out(glb.begin(), glb.end());
    std::copy(bin.begin(), bin.end(), out.begin() + std::ptrdiff_t(binAt + 8));
    return out;
  }
  while (bin.size() % 4 != 0) bin.push_back(std::byte{0});
  if (doc.value("buffers", json::array()).empty()) doc["buffers"] = json::array({json::object()});
  doc["buffers"][0]["byteLength"] = bin.size();
  std::string text = doc.dump();
  while (text.size() % 4 != 0) text.push_back(' ');
  std::vector<std::byte> out;
  appendU32(out, kGlbMagic);
  appendU32(out, 2);
  appendU32(out, std::uint32_t(12 + 8 + text.size() + 8 + bin.size()));
  appendU32(out, std::uint32_t(text.size()));
  appendU32(out, kChunkJson);
  const auto* t = reinterpret_cast<const std::byte*>(text.data());
  out.insert(out.end(), t, t + text.size());
  appendU32(out, std::uint32_t(bin.size()));
  appendU32(out, kChunkBin);
  out.insert(out.end(), bin.begin(), bin.end());
  return out;
}

/// The checks before export: a valid body, clips that fit its skeleton, garments with
/// triangles and one position per vertex in every frame at increasing times.
Status checkExportInput(const std::string& file, const SkinnedMesh& body, const std::vector<Animation>& clips,
                        const std::vector<NamedMeshSequence>& garments) {
  if (Status s = body.validate(1e-4f); !s) return s.error().prefixed("cannot export " + file + ": body: ");
  if (body.mesh.indices.empty() || body.mesh.indices.size() % 3 != 0)
    return Error{"cannot export " + file + ": body mesh has no triangles or an index count not a multiple of 3"};
  for (const Animation& clip : clips)
    if (Status s = clip.validate(body.skeleton); !s) return s.error().prefixed("cannot export " + file + ": ");
  for (const NamedMeshSequence& g : garments) {
    const std::string label = "cannot export " + file + ": garment '" + g.name + "': ";
    if (g.mesh.indices.empty() || g.mesh.indices.size() % 3 != 0) return Error{label + "no triangles"};
    if (g.times.size() != g.positions.size())
      return Error{label + std::to_string(g.times.size()) + " times but " + std::to_string(g.positions.size()) +
                   " frames"};
    for (std::size_t f = 0; f < g.positions.size(); ++f) {
      if (g.positions[f].size() != g.mesh.vertexCount())
        return Error{label + "frame " + std::to_string(f) + " has " + std::to_string(g.positions[f].size()) +
                     " positions for " + std::to_string(g.mesh.vertexCount()) + " vertices"};
      if (!std::isfinite(g.times[f]) || (f > 0 && g.times[f] <= g.times[f - 1]))
        return Error{label + "frame times must be finite and increasing (frame " + std::to_string(f) + ")"};
    }
  }
  return Status::success();
}

/// One node per joint at its rest transform; each goes into `children` of its parent
/// (index skeleton.size(): the scene root).
std::vector<aiNode*> newJointNodes(const Skeleton& skeleton, std::vector<std::vector<aiNode*>>& children) {
  std::vector<aiNode*> jointNodes(skeleton.size());
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    jointNodes[j] = new aiNode(skeleton.joints[j].name);
    jointNodes[j]->mTransformation = toAi(skeleton.joints[j].rest.matrix());
    const int p = skeleton.joints[j].parent;
    children[p < 0 ? skeleton.size() : std::size_t(p)].push_back(jointNodes[j]);
  }
  return jointNodes;
}

/// The body's mesh "body" with its skin as bones.
aiMesh* newSkinnedBodyMesh(const SkinnedMesh& body) {
  const Skeleton& skeleton = body.skeleton;
  aiMesh* bodyMesh = newAiMesh(body.mesh, "body");
  std::vector<std::vector<aiVertexWeight>> weights(skeleton.size());
  for (std::size_t v = 0; v < body.skin.size(); ++v)
    for (int k = 0; k < 4; ++k)
      if (body.skin.weights[v][k] > 0.0f)
        weights[body.skin.joints[v][k]].push_back(aiVertexWeight(unsigned(v), body.skin.weights[v][k]));
  // Every joint becomes a bone (also those without weights) so the whole skeleton is a
  // glTF skin and survives a round trip.
  std::vector<aiBone*> bones;
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    auto* bone = new aiBone();
    bone->mName = aiString(skeleton.joints[j].name);
    bone->mOffsetMatrix = toAi(skeleton.inverseBind[j]);
    bone->mNumWeights = unsigned(weights[j].size());
    bone->mWeights = new aiVertexWeight[std::max<std::size_t>(1, weights[j].size())];
    std::copy(weights[j].begin(), weights[j].end(), bone->mWeights);
    bones.push_back(bone);
  }
  bodyMesh->mNumBones = unsigned(bones.size());
  bodyMesh->mBones = newArray(bones);
  return bodyMesh;
}

/// A morph target's name: the garment's and the frame's time, "shirt_t0.500s".
std::string morphTargetName(const std::string& garment, float seconds) {
  char time[32];
  std::snprintf(time, sizeof time, "_t%.3fs", double(seconds));
  return garment + time;
}

/// A garment's mesh: its last frame as the base shape (what a viewer shows without the
/// shape-key animation, which assimp 5.2 cannot write, see the header) and one morph
/// target per frame.
aiMesh* newGarmentMesh(const NamedMeshSequence& g) {
  TriangleMesh base = g.mesh;
  if (!g.positions.empty()) {
    base.positions = g.positions.back();
    if (base.normals.size() == base.positions.size()) computeVertexNormals(base);
  }
  aiMesh* mesh = newAiMesh(base, g.name);
  // One morph target per frame: aiAnimMesh holds absolute positions; the glTF2 exporter
  // stores them as differences to the base mesh, as glTF requires.
  mesh->mNumAnimMeshes = unsigned(g.positions.size());
  mesh->mAnimMeshes = new aiAnimMesh*[std::max<std::size_t>(1, g.positions.size())];
  for (std::size_t f = 0; f < g.positions.size(); ++f) {
    auto* am = new aiAnimMesh();
    am->mName = aiString(morphTargetName(g.name, f < g.times.size() ? g.times[f] : float(f)));
    am->mNumVertices = mesh->mNumVertices;
    am->mVertices = new aiVector3D[am->mNumVertices];
    for (unsigned v = 0; v < am->mNumVertices; ++v)
      am->mVertices[v] = {g.positions[f][v].x, g.positions[f][v].y, g.positions[f][v].z};
    am->mWeight = 0.0f;
    mesh->mAnimMeshes[f] = am;
  }
  return mesh;
}

/// A node (named uniquely among `names`) that shows mesh `meshIndex`, added to `rootChildren`.
void addMeshNode(const std::string& name, unsigned meshIndex, std::set<std::string>& names,
                 std::vector<aiNode*>& rootChildren) {
  auto* node = new aiNode(uniqueName(name, names));
  node->mNumMeshes = 1;
  node->mMeshes = new unsigned[1]{meshIndex};
  rootChildren.push_back(node);
}

/// A clip as an aiAnimation with times in seconds (mTicksPerSecond = 1).
aiAnimation* newAiAnimation(const Animation& clip, const Skeleton& skeleton) {
  auto* anim = new aiAnimation();
  anim->mName = aiString(clip.name);
  anim->mTicksPerSecond = 1.0;
  anim->mDuration = clip.duration;
  std::vector<aiNodeAnim*> channels;
  for (const AnimationChannel& c : clip.channels) {
    const Joint& joint = skeleton.joints[std::size_t(c.joint)];
    auto* na = new aiNodeAnim();
    na->mNodeName = aiString(joint.name);
    na->mPositionKeys = makeKeys<glm::vec3, aiVectorKey>(c.translation, joint.rest.translation, na->mNumPositionKeys,
                                                         [](glm::vec3 v) { return aiVector3D(v.x, v.y, v.z); });
    na->mRotationKeys = makeKeys<glm::quat, aiQuatKey>(c.rotation, joint.rest.rotation, na->mNumRotationKeys,
                                                       [](glm::quat q) { return aiQuaternion(q.w, q.x, q.y, q.z); });
    na->mScalingKeys = makeKeys<glm::vec3, aiVectorKey>(c.scale, joint.rest.scale, na->mNumScalingKeys,
                                                        [](glm::vec3 v) { return aiVector3D(v.x, v.y, v.z); });
    channels.push_back(na);
  }
  anim->mNumChannels = unsigned(channels.size());
  anim->mChannels = newArray(channels);
  return anim;
}

/// The scene as one GLB in memory (assimp's "glb2" exporter), the garments' morph-weight
/// animations added (addMorphWeightAnimations).
Result<std::vector<std::byte>> exportGlb(const aiScene& scene, const std::vector<NamedMeshSequence>& garments,
                                         const std::string& file) {
  const char* formatId = "glb2";
  Assimp::Exporter exporter;
  Assimp::ExportProperties properties;
  // Writes mesh.extras.targetNames (the aiAnimMesh names), which Blender uses to name the
  // shape keys it creates from the morph targets.
  properties.SetPropertyBool("GLTF2_TARGETNAMES_EXP", true);
  const aiExportDataBlob* blob = exporter.ExportToBlob(&scene, formatId, 0, &properties);
  if (blob == nullptr) return Error{"cannot export " + file + " as '" + formatId + "': " + exporter.GetErrorString()};
  if (blob->next != nullptr)
    return Error{"cannot export " + file + ": assimp's '" + formatId + "' exporter wrote several files"};
  auto glb = addMorphWeightAnimations(std::span<const std::byte>(static_cast<const std::byte*>(blob->data), blob->size),
                                      garments);
  if (!glb) return glb.error().prefixed("cannot export " + file + ": ");
  return glb;
}

/// The aiScene that the exporters write: joint nodes mirroring the skeleton under a root
/// "Scene", the skinned body and the garments one mesh node each, the clips (seconds).
std::unique_ptr<aiScene> buildExportScene(const SkinnedMesh& body, const std::vector<Animation>& clips,
                                          const std::vector<NamedMeshSequence>& garments) {
  const Skeleton& skeleton = body.skeleton;
  // aiScene frees every array it points to (new[] / delete[]) in its destructor.
  auto scene = std::make_unique<aiScene>();
  std::set<std::string> names;
  for (const Joint& j : skeleton.joints) names.insert(j.name);
  scene->mRootNode = new aiNode(uniqueName("Scene", names));
  // Materials: 0 = body (a neutral skin tone), 1.. = one per garment.
  scene->mNumMaterials = unsigned(1 + garments.size());
  scene->mMaterials = new aiMaterial*[scene->mNumMaterials];
  scene->mMaterials[0] = newColorMaterial("body", glm::vec3(0.80f, 0.66f, 0.55f));
  for (std::size_t g = 0; g < garments.size(); ++g)
    scene->mMaterials[g + 1] = newColorMaterial(garments[g].name, garments[g].color);

  // Joint nodes mirror the skeleton.
  std::vector<std::vector<aiNode*>> children(skeleton.size() + 1);  // last: the scene root
  const std::vector<aiNode*> jointNodes = newJointNodes(skeleton, children);

  // Meshes: 0 = body, 1.. = garments; one node each under the scene root.
  std::vector<aiMesh*> meshes;
  meshes.push_back(newSkinnedBodyMesh(body));
  addMeshNode("body", 0, names, children[skeleton.size()]);
  for (const NamedMeshSequence& g : garments) {
    meshes.push_back(newGarmentMesh(g));
    meshes.back()->mMaterialIndex = unsigned(meshes.size() - 1);
    addMeshNode(g.name, unsigned(meshes.size() - 1), names, children[skeleton.size()]);
  }
  scene->mNumMeshes = unsigned(meshes.size());
  scene->mMeshes = newArray(meshes);

  for (std::size_t j = 0; j <= skeleton.size(); ++j) {
    aiNode* parent = j < skeleton.size() ? jointNodes[j] : scene->mRootNode;
    if (children[j].empty()) continue;
    parent->addChildren(unsigned(children[j].size()), children[j].data());
  }

  // Animations, with times in seconds (mTicksPerSecond = 1).
  std::vector<aiAnimation*> animations;
  for (const Animation& clip : clips) animations.push_back(newAiAnimation(clip, skeleton));
  scene->mNumAnimations = unsigned(animations.size());
  scene->mAnimations = animations.empty() ? nullptr : newArray(animations);
  return scene;
}

}  // namespace

Status exportAnimatedGltf(const std::filesystem::path& path, const SkinnedMesh& body,
                          const std::vector<Animation>& clips, const std::vector<NamedMeshSequence>& garments) {
  const std::string file = path.string();
  const std::string ext = path.extension().string();
  // Binary glTF only: assimp's "gltf2" exporter writes the buffer as a second file whose
  // URI, when exporting to memory, is the placeholder "$blobfile.bin".
  if (ext != ".glb") return Error{"cannot export " + file + ": the extension must be .glb (binary glTF 2.0, one file)"};
  if (Status s = checkExportInput(file, body, clips, garments); !s) return s;
  const std::unique_ptr<aiScene> scene = buildExportScene(body, clips, garments);
  const Result<std::vector<std::byte>> glb = exportGlb(*scene, garments, file);
  if (!glb) return glb.error();
  return writeFileAtomically(path, std::span<const std::byte>(*glb));
}

Status exportCharacter(const std::filesystem::path& path, const SkinnedMesh& body,
                       const std::vector<Animation>& clips) {
  const std::string file = path.string();
  const std::string ext = path.extension().string();
  if (ext == ".glb") return exportAnimatedGltf(path, body, clips, {});
  if (ext != ".fbx" && ext != ".dae")
    return Error{"cannot export " + file + ": the extension must be .glb, .fbx or .dae"};
  if (Status s = checkExportInput(file, body, clips, {}); !s) return s;
  const bool fbx = ext == ".fbx";
  // FBX: assimp 5.2.5's exporter writes GlobalSettings UnitScaleFactor 1 (centimetres), so
  // the body is written in centimetres to mean what the file says. It also writes each
  // take's LocalStop as whole seconds (truncated) and its importer drops keys after
  // LocalStop, so durations are rounded up. COLLADA: its exporter writes animation sources
  // its own importer rejects ("Unable to resolve library reference"), so no clips.
  SkinnedMesh written = body;
  std::vector<Animation> writtenClips = fbx ? clips : std::vector<Animation>{};
  if (fbx) {
    Character scaled{written, writtenClips, {}, 0};
    if (Status s = transformCharacter(scaled, glm::scale(glm::mat4(1.0f), glm::vec3(100.0f))); !s) return s;
    written = std::move(scaled.body);
    writtenClips = std::move(scaled.animations);
    for (Animation& clip : writtenClips) clip.duration = std::ceil(clip.duration);
  }
  const std::unique_ptr<aiScene> scene = buildExportScene(written, writtenClips, {});
  Assimp::Exporter exporter;
  // ASCII FBX: the binary "fbx" exporter, writing to memory, writes block offsets its own
  // importer rejects ("FBX-Tokenize ... block offset is out of range").
  const char* formatId = fbx ? "fbxa" : "collada";
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), formatId);
  if (blob == nullptr) return Error{"cannot export " + file + " as '" + formatId + "': " + exporter.GetErrorString()};
  if (blob->next != nullptr)
    return Error{"cannot export " + file + ": assimp's '" + formatId + "' exporter wrote several files"};
  return writeFileAtomically(path, std::span<const std::byte>(static_cast<const std::byte*>(blob->data), blob->size));
}

}  // namespace hg
