#pragma once
/// Skinned character import and animated glTF export, both through assimp (5.2).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "sim/body/Skeleton.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/io/AssimpRead.h"

namespace hg {

/// A skinned body with the clips found in its file.
struct Character {
  SkinnedMesh body;
  std::vector<Animation> animations;
  FileFrame report;                    ///< the up axis and scale used (sim/io/AssimpRead.h)
  std::size_t verticesBeforeWeld = 0;  ///< the file's vertices; after welding: body.mesh.vertexCount()
};

/// Applies the similarity `m` (rotation, uniform scale, translation) to a character: its
/// mesh, its skeleton's roots (rest and inverse binds) and its clips' root keys. Error: `m`
/// is not a similarity (shear or non-uniform scale).
Status transformCharacter(Character& character, const glm::mat4& m);

/// Imports a skinned character with assimp: glTF 2.0 (.gltf/.glb), FBX, COLLADA (.dae) and
/// every other format assimp reads.
///
/// - Meshes: all triangle meshes of the scene are merged into one body mesh in model
///   space, in the skin's bind pose (points and lines dropped), then vertices with the
///   same position are welded into one (the first one's skin weights and uv are kept;
///   exporters split vertices at uv and normal seams, and a body must be one surface).
///   Normals are taken from the file (transformed) or computed. UV channel 0 is kept when
///   every mesh has one.
/// - Skeleton: the nodes named by any aiBone, plus their ancestor nodes below the scene
///   root (so the hierarchy and animated intermediate nodes survive), in depth-first
///   order (parents first). The rest pose is the **bind pose** given by the bones' offset
///   (inverse bind) matrices, not the node transforms, which a file may store in another
///   pose (see "Bind pose" in CharacterIO.cpp): a skinned mesh is placed so that the
///   bind of its root-most bone is that bone's node transform; joints no bone names keep
///   their node's local transform. The scene root's transform is folded into the roots'
///   rest (and root animation keys).
/// - Frame: `frame` turns the file's up axis to +Y, scales it to metres, rotates and moves
///   it (ImportFrame; what was detected is in Character::report).
/// - Weights: all influences of a vertex, reduced to the 4 largest and normalised
///   (appendInfluences).
/// - No skeleton at all (a static mesh): a single joint "root" at the origin with every
///   vertex weighted 1 to it, so the result is still a valid SkinnedMesh. Vertices of an
///   unskinned mesh in a file that has bones are bound to their node's nearest joint
///   ancestor, else to joint 0.
/// - Animations: aiNodeAnim position/rotation/scale keys of joint nodes; times converted
///   from ticks to seconds with mTicksPerSecond (25 when 0, as assimp's own
///   aiAnimation documentation assumes). Channels of nodes that are not joints are ignored.
/// Errors name the file and the problem (unsupported format, assimp's own error string,
/// no mesh).
Result<Character> importCharacter(const std::filesystem::path& path,
                                  const ImportFrame& frame = ImportFrame::asStored());

/// A garment (or any surface) over time: fixed topology, one position set per frame.
struct NamedMeshSequence {
  std::string name;
  TriangleMesh
      mesh;  ///< topology (indices, uvs, normals); positions: the rest shape, exported only when there are no frames
  std::vector<float> times;                       ///< seconds, ascending, one per frame
  std::vector<std::vector<glm::vec3>> positions;  ///< per frame, mesh.vertexCount() positions (m)
  glm::vec3 color{0.8f};                          ///< linear RGB in [0, 1]: its material's base colour
};

/// Writes binary glTF 2.0 (.glb, one file; assimp's "glb2" exporter) that Blender imports,
/// atomically (temporary file + rename): on any failure the target path is left as it was.
/// Other extensions are rejected: assimp 5.2's text "gltf2" exporter writes the buffer as a
/// second file, which cannot be written to memory with a usable URI.
///
/// - The body: a skinned mesh "body" (JOINTS_0/WEIGHTS_0, inverseBindMatrices from
///   skeleton.inverseBind), every joint a node of the skin, under a root node "Scene" (a
///   unique name), and every clip as one glTF animation (key times in seconds, LINEAR;
///   tracks a clip leaves empty are written as one key holding the rest value, because the
///   exporter gives each channel all three paths).
/// - Garments: one mesh node each. What assimp 5.2.5 can write, checked by
///   tests/motion/CharacterIOTest.cpp: morph targets (aiMesh::mAnimMeshes -> glTF
///   primitive "targets", stored relative to the base shape) with their names
///   (mesh.extras.targetNames), one target per frame named by its time,
///   "<garment>_t<seconds>s" with three decimals ("shirt_t0.500s"), which Blender imports as
///   shape keys. Each garment has a material of its own, named as the garment, with its
///   colour as base colour (the body's material is "body"). What it cannot write is the morph *weights* animation
///   (aiAnimation::mMorphMeshChannels is ignored), so it is added to assimp's GLB
///   afterwards: per garment with two or more frames an animation "<garment>_drape" whose
///   "weights" channel (LINEAR) gives target k weight 1 at frame k's time. The garment's
///   base shape is its last frame (what a viewer without animation shows).
Status exportAnimatedGltf(const std::filesystem::path& path, const SkinnedMesh& body,
                          const std::vector<Animation>& clips, const std::vector<NamedMeshSequence>& garments);

/// Writes a skinned character (no garments) as binary glTF (.glb, exportAnimatedGltf), FBX
/// (.fbx, ASCII, in centimetres with UnitScaleFactor 1 as assimp 5.2.5 writes it, clip
/// durations rounded up to whole seconds) or COLLADA (.dae, without clips: assimp 5.2.5's
/// COLLADA exporter writes animations its own importer rejects), atomically. importCharacter
/// with ImportFrame{} (detection) reads each back as the same body in metres.
Status exportCharacter(const std::filesystem::path& path, const SkinnedMesh& body, const std::vector<Animation>& clips);

}  // namespace hg
