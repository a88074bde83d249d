#include "sim/scene/DrapeScene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <glm/trigonometric.hpp>

#include "sim/geometry/Obb.h"

#include "sim/cloth/FabricPresets.h"
#include "sim/core/Limits.h"
#include "sim/io/MeshImport.h"
#include "sim/motion/Bvh.h"
#include "sim/motion/CharacterIO.h"
#include "sim/motion/Retarget.h"
#include "sim/skinning/BodySkinner.h"

namespace hg {

Status checkRunSize(const DrapeScene& scene, const std::string& framesName) {
  // With substeps "auto" (0) the count is known once the cloth is built; prepareDrape checks again then.
  const long long total = (long long)scene.frames * scene.settings.substeps;
  if (total > limits::kMaxTotalSubsteps)
    return Error{framesName + " " + std::to_string(scene.frames) + " x solver.substeps " +
                 std::to_string(scene.settings.substeps) + " = " + std::to_string(total) +
                 " substeps is out of range (at most " + std::to_string(limits::kMaxTotalSubsteps) + " per run)"};
  return Status::success();
}

Result<FabricMaterial> fabricMaterial(const std::filesystem::path& presetsFile, const std::string& name) {
  auto preset = findFabricPreset(presetsFile, name);
  if (!preset) return preset.error();
  FabricMaterial result;
  const float reference = std::max({preset->stretchWarp, preset->stretchWeft, preset->stretchBias});
  result.material.arealDensity = preset->arealDensity;
  result.material.tensileStiffness = reference;
  result.material.bendingRigidity = preset->bendingRigidity;
  result.anisotropy =
      glm::vec4(preset->stretchWarp, preset->stretchWeft, preset->stretchBias, preset->stretchBias) / reference;
  return result;
}

Result<SceneClothMaterial> sceneClothMaterial(const DrapeScene& scene) {
  ClothMaterial material = scene.material;
  std::optional<glm::vec4> uniform = scene.anisotropyUniform;
  if (!scene.fabric.empty()) {
    auto fabric = fabricMaterial(scene.directory / "fabrics.json", scene.fabric);
    if (!fabric) return fabric.error().prefixed("cloth.fabric: ");
    auto overridden = [&](const char* key) {
      return std::find(scene.materialOverrides.begin(), scene.materialOverrides.end(), key) !=
             scene.materialOverrides.end();
    };
    if (!overridden("areal_density")) material.arealDensity = fabric->material.arealDensity;
    if (!overridden("tensile_stiffness")) material.tensileStiffness = fabric->material.tensileStiffness;
    if (!overridden("bending_rigidity")) material.bendingRigidity = fabric->material.bendingRigidity;
    if (!uniform && scene.anisotropyTexture.empty()) uniform = fabric->anisotropy;
  }
  std::optional<AnisotropyTexture> anisotropy;
  if (!scene.anisotropyTexture.empty()) {
    auto texture = loadAnisotropyTexture(scene.directory / scene.anisotropyTexture, scene.anisotropyScale);
    if (!texture) return texture.error().prefixed("cloth: ");
    anisotropy = std::move(texture).value();
  } else if (uniform) {
    anisotropy = AnisotropyTexture::uniform(*uniform, scene.anisotropyScale);
  }
  return SceneClothMaterial{material, std::move(anisotropy)};
}

Result<ClothModel> buildSceneCloth(const DrapeScene& scene) {
  auto material = sceneClothMaterial(scene);
  if (!material) return material.error();
  Result<TriangleMesh> mesh =
      scene.mesh.empty() ? makeSquareSheet(scene.sheet) : importClothMesh(scene.directory / scene.mesh);
  if (!mesh) return mesh.error().prefixed("cloth: ");
  auto model = buildClothModel(*mesh, material->material, scene.pinned, std::move(material->anisotropy));
  if (!model) return model.error().prefixed("cloth: ");
  return model;
}

namespace {

/// `base` with the skinner's current surface as its positions and normals.
TriangleMesh withSkinnedSurface(TriangleMesh base, const CpuBodySkinner& skinner) {
  base.normals.resize(base.positions.size());
  const auto positions = skinner.positions();
  const auto normals = skinner.normals();
  for (std::size_t i = 0; i < base.positions.size(); ++i) {
    base.positions[i] = glm::vec3(positions[i]);
    base.normals[i] = glm::vec3(normals[i]);
  }
  return base;
}

/// `body` with `posedMesh` as its surface and `pose` as its new rest (bind) pose: the
/// posed body becomes the avatar.
SkinnedMesh rebound(const SkinnedMesh& body, TriangleMesh posedMesh, const Pose& pose) {
  SkinnedMesh posed = body;
  posed.mesh = std::move(posedMesh);
  for (std::size_t j = 0; j < posed.skeleton.joints.size(); ++j) posed.skeleton.joints[j].rest = pose[j];
  posed.skeleton.computeInverseBind();
  return posed;
}

BodyContactSettings contactSettings(const SceneAvatar& avatar) {
  BodyContactSettings contact;
  contact.method = avatar.contactMethod;
  contact.grid.cellSize = avatar.contactCellSize;
  contact.grid.band = std::max(0.04f, 3.0f * contact.grid.cellSize);
  contact.grid.margin = contact.grid.band + 2.0f * contact.grid.cellSize;
  contact.views = avatar.depthViews;
  contact.sphereTreeResolution = avatar.sphereTreeResolution;
  return contact;
}

void growBox(const TriangleMesh& mesh, glm::vec3& lo, glm::vec3& hi) {
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
}

}  // namespace

Result<std::shared_ptr<BodyAnimator>> BodyAnimator::create(const SkinnedMesh& rest,
                                                           const std::filesystem::path& directory,
                                                           const SceneMotion& motion,
                                                           const BodyContactSettings& contact) {
  auto bvh = loadBvh(directory / motion.bvh, motion.unitScale);
  if (!bvh) return bvh.error();
  auto map = loadJointMap(directory / motion.map);
  if (!map) return map.error();
  auto clip = retarget(bvh->skeleton, bvh->animation, rest.skeleton, *map);
  if (!clip) return clip.error().prefixed((directory / motion.bvh).string() + ": ");
  auto animator = std::make_shared<BodyAnimator>();
  animator->m_rest = std::make_shared<const SkinnedMesh>(rest);
  animator->m_clip = std::move(clip).value();
  auto skinner = createCpuBodySkinner(animator->m_rest,
                                      motion.dualQuaternion ? SkinningMethod::DualQuaternion : SkinningMethod::Linear);
  if (!skinner) return skinner.error();
  animator->m_skinner = std::shared_ptr<CpuBodySkinner>(std::move(skinner).value());
  animator->m_contact = contact;
  if (contact.method == BodyContactMethod::DepthViews) {
    // One set of view boxes for the whole clip (the solver's buffers keep their size):
    // the bounding box of the body over 33 poses spread across it.
    glm::vec3 lo(1e30f), hi(-1e30f);
    const float duration = animator->m_clip.duration;
    for (int k = 0; k <= 32; ++k) {
      auto mesh = animator->meshAt(duration * float(k) / 32.0f);
      if (!mesh) return mesh.error();
      growBox(*mesh, lo, hi);
    }
    auto setup = makeDepthViewSetup(lo, hi, contact.views);
    if (!setup) return setup.error().prefixed("avatar.contact: ");
    animator->m_viewSetup = std::move(setup).value();
  }
  return animator;
}

Result<TriangleMesh> BodyAnimator::meshAt(float seconds) {
  auto& skinner = *std::static_pointer_cast<CpuBodySkinner>(m_skinner);
  if (Status s = skinner.update(m_clip.sample(m_rest->skeleton, seconds)); !s) return s.error();
  return withSkinnedSurface(m_rest->mesh, skinner);
}

Result<std::shared_ptr<const SignedDistanceGrid>> BodyAnimator::colliderOf(const TriangleMesh& mesh) const {
  auto grid = buildSignedDistanceGrid(mesh, m_contact.grid);
  if (!grid) return grid.error();
  return std::make_shared<const SignedDistanceGrid>(std::move(grid).value());
}

Result<std::shared_ptr<const DepthViewImages>> BodyAnimator::viewsOf(const TriangleMesh& mesh,
                                                                     std::span<const glm::vec3> velocities) const {
  auto images = rasterizeDepthViews(mesh, velocities, m_viewSetup);
  if (!images) return images.error();
  return std::make_shared<const DepthViewImages>(std::move(images).value());
}

const char* bodyContactMethodName(BodyContactMethod method) {
  switch (method) {
    case BodyContactMethod::DistanceGrid:
      return "distance_grid";
    case BodyContactMethod::DepthViews:
      return "depth_views";
    case BodyContactMethod::SphereTree:
      return "sphere_tree";
  }
  return "?";
}

glm::mat3 sceneRotation(glm::vec3 degrees) {
  const glm::vec3 r = glm::radians(degrees);
  const float cx = std::cos(r.x), sx = std::sin(r.x), cy = std::cos(r.y), sy = std::sin(r.y), cz = std::cos(r.z),
              sz = std::sin(r.z);
  // Columns (GLM is column-major): Rz * Ry * Rx, i.e. about x first, then y, then z.
  const glm::mat3 rx(1.0f, 0.0f, 0.0f, 0.0f, cx, sx, 0.0f, -sx, cx);
  const glm::mat3 ry(cy, 0.0f, -sy, 0.0f, 1.0f, 0.0f, sy, 0.0f, cy);
  const glm::mat3 rz(cz, sz, 0.0f, -sz, cz, 0.0f, 0.0f, 0.0f, 1.0f);
  return rz * ry * rx;
}

namespace {

TriangleMesh transformed(TriangleMesh mesh, const glm::mat3& rotation, glm::vec3 translation) {
  for (glm::vec3& p : mesh.positions) p = rotation * p + translation;
  mesh.normals.clear();
  computeVertexNormals(mesh);
  return mesh;
}

}  // namespace

Result<TriangleMesh> scenePropMesh(const DrapeScene& scene, std::size_t prop) {
  const ScenePropSpec& p = scene.props.at(prop);
  const std::string where = "props[" + std::to_string(prop) + "]";
  TriangleMesh mesh;
  if (p.shape == "bottle")
    mesh = makeBottle(glm::vec3(0.0f), 0.3f);
  else if (p.shape == "box")
    mesh = makeBox(glm::vec3(-0.1f), glm::vec3(0.1f), 0);
  else if (p.shape == "sphere")
    mesh = makeIcosphere(glm::vec3(0.0f), 0.1f, 4);
  else if (p.shape == "torus")
    mesh = makeTorus(glm::vec3(0.0f), 0.1f, 0.03f, 64, 24);
  else if (p.shape == "capsule")
    mesh = makeCapsule(glm::vec3(0.0f, -0.1f, 0.0f), glm::vec3(0.0f, 0.1f, 0.0f), 0.05f, 8, 32);
  else if (!p.shape.empty())
    return Error{where + ".shape: unknown shape '" + p.shape + "'"};
  else {
    auto read = importWeldedMesh(scene.directory / p.mesh);  // welded: closed despite UV seams
    if (!read) return read.error().prefixed(where + ".mesh: ");
    mesh = std::move(read).value();
  }
  for (glm::vec3& v : mesh.positions) v *= p.scale;
  mesh.normals.clear();
  computeVertexNormals(mesh);
  return mesh;
}

Result<SceneProps> buildSceneProps(const DrapeScene& scene) {
  SceneProps out;
  const float mu = scene.settings.friction;
  for (const SceneBoxSpec& b : scene.boxes) {
    out.boxes.push_back(b.box);
    out.boxFriction.push_back(b.friction.value_or(mu));
    const glm::mat3 r(b.box.axes[0], b.box.axes[1], b.box.axes[2]);
    out.meshes.push_back(transformed(makeBox(-b.box.halfLengths, b.box.halfLengths, 0), r, b.box.centre));
  }
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < scene.props.size(); ++i) {
    const ScenePropSpec& p = scene.props[i];
    const std::string where = "props[" + std::to_string(i) + "]";
    auto local = scenePropMesh(scene, i);
    if (!local) return local.error();
    const RigidPose pose{sceneRotation(p.rotationDegrees), p.position};
    TriangleMesh world = transformed(*local, pose.rotation, pose.translation);
    if (p.collider == PropCollider::Obb) {
      out.boxes.push_back(fitObb(world.positions));
      out.boxFriction.push_back(p.friction.value_or(mu));
    } else {
      const std::string what = p.mesh.empty() ? where + ".shape (" + p.shape + ")"
                                              : where + ".mesh (" + (scene.directory / p.mesh).string() + ")";
      auto tree = SphereTree::fromMesh(*local, p.resolution, what);
      if (!tree) return tree.error();
      out.trees.add(*tree, pose, p.friction.value_or(mu));
    }
    out.meshes.push_back(std::move(world));
  }
  out.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Status BodyAnimator::updateCollider(ClothSolver& solver, const TriangleMesh& mesh, const TriangleMesh* previous,
                                    float dt, const ViewRenderer& renderViews) const {
  if (m_contact.method == BodyContactMethod::DistanceGrid) {
    auto grid = colliderOf(mesh);
    if (!grid) return grid.error();
    solver.setBody(std::move(grid).value());
    return Status::success();
  }
  std::vector<glm::vec3> velocities;
  if (previous && previous->positions.size() == mesh.positions.size() && dt > 0.0f) {
    velocities.resize(mesh.positions.size());
    for (std::size_t i = 0; i < velocities.size(); ++i)
      velocities[i] = (mesh.positions[i] - previous->positions[i]) / dt;
  }
  if (renderViews) return renderViews(solver, m_viewSetup, mesh, velocities);
  auto views = viewsOf(mesh, velocities);
  if (!views) return views.error();
  solver.setBodyViews(std::move(views).value());
  return Status::success();
}

Result<SkinnedMesh> posedBody(const SkinnedMesh& body, const Pose& pose, bool dualQuaternion) {
  auto skinner = createCpuBodySkinner(std::make_shared<const SkinnedMesh>(body),
                                      dualQuaternion ? SkinningMethod::DualQuaternion : SkinningMethod::Linear);
  if (!skinner) return skinner.error();
  if (Status s = (*skinner)->update(pose); !s) return s.error();
  return rebound(body, withSkinnedSurface(body.mesh, **skinner), pose);
}

Result<SkinnedMesh> poseFromMotion(const SkinnedMesh& body, const std::filesystem::path& directory,
                                   const SceneMotion& motion) {
  auto animator = BodyAnimator::create(body, directory, motion, BodyContactSettings{});
  if (!animator) return animator.error();
  auto mesh = (*animator)->meshAt(motion.time);  // skinned once, by the animator
  if (!mesh) return mesh.error();
  return rebound(body, std::move(mesh).value(), (*animator)->clip().sample(body.skeleton, motion.time));
}

/// The scene's character file, posed by its own clip when avatar.file_clip names one.
Result<SkinnedMesh> importAvatar(const DrapeScene& scene) {
  const SceneAvatar& a = *scene.avatar;
  auto character = importCharacter(scene.directory / a.file);
  if (!character) return character.error();
  if (a.fileClip.empty()) return character->body;
  if (character->body.skeleton.joints.empty() || character->animations.empty())
    return Error{(scene.directory / a.file).string() + ": avatar.file_clip '" + a.fileClip +
                 "' asks for motion, but the file has " +
                 (character->body.skeleton.joints.empty() ? "no skeleton" : "no animation clips") +
                 " (remove avatar.file_clip, or give a rigged, animated file)"};
  const Animation* clip = nullptr;
  for (const Animation& c : character->animations)
    if (a.fileClip == "*" || c.name == a.fileClip) {
      clip = &c;
      break;
    }
  if (!clip)
    return Error{(scene.directory / a.file).string() + ": no animation clip '" + a.fileClip + "' (it has " +
                 std::to_string(character->animations.size()) + ")"};
  return posedBody(character->body, clip->sample(character->body.skeleton, a.fileClipTime), true);
}

Result<SceneBody> buildSceneBody(const DrapeScene& scene) {
  if (!scene.avatar) return Error{"scene '" + scene.name + "' has no avatar"};
  auto avatar = scene.avatar->file.empty() ? buildMannequin(scene.avatar->mannequin) : importAvatar(scene);
  if (!avatar) return avatar.error().prefixed((scene.avatar->file.empty() ? "avatar.mannequin: " : "avatar.file: "));
  std::shared_ptr<BodyAnimator> animator;
  if (const auto& motion = scene.avatar->motion) {
    if (motion->animate) {
      auto created = BodyAnimator::create(*avatar, scene.directory, *motion, contactSettings(*scene.avatar));
      if (!created) return created.error().prefixed("avatar.motion: ");
      animator = std::move(created).value();
    }
    auto posed = poseFromMotion(*avatar, scene.directory, *motion);
    if (!posed) return posed.error().prefixed("avatar.motion: ");
    avatar = std::move(posed).value();
  }
  const std::string what =
      scene.avatar->file.empty() ? std::string("mannequin") : (scene.directory / scene.avatar->file).string();
  const BodyContactSettings contact = contactSettings(*scene.avatar);
  SceneBody body;
  if (contact.method == BodyContactMethod::SphereTree) {
    // Measured on the 2-core VM (bench/RESULTS.md, "Sphere trees"): voxelizing and filling the
    // mannequin takes longer than a frame's simulation, so a moving body is refused rather
    // than rebuilt per frame (use distance_grid or depth_views for avatar.motion.animate).
    if (animator)
      return Error{
          "avatar.contact.method \"sphere_tree\" needs a still body: it is filled once (about a second "
          "at 256 voxels), not per frame; with avatar.motion.animate use \"distance_grid\" or \"depth_views\""};
    auto tree = SphereTree::fromMesh(avatar->mesh, contact.sphereTreeResolution, "avatar collider (" + what + ")");
    if (!tree) return tree.error().prefixed("avatar.contact.sphere_tree_resolution: ");
    body.sphereTree = std::make_shared<const SphereTree>(std::move(tree).value());
  } else if (contact.method == BodyContactMethod::DistanceGrid) {
    auto grid = buildSignedDistanceGrid(avatar->mesh, contact.grid);
    if (!grid) return grid.error().prefixed("avatar collider (" + what + "): ");
    body.collider = std::make_shared<const SignedDistanceGrid>(std::move(grid).value());
  } else if (animator) {
    auto views = animator->viewsOf(avatar->mesh, {});
    if (!views) return views.error().prefixed("avatar depth views (" + what + "): ");
    body.views = std::move(views).value();
  } else {
    auto setup = makeDepthViewSetup(avatar->mesh, contact.views);
    if (!setup) return setup.error().prefixed("avatar.contact: ");
    auto views = rasterizeDepthViews(avatar->mesh, {}, *setup);
    if (!views) return views.error().prefixed("avatar depth views (" + what + "): ");
    body.views = std::make_shared<const DepthViewImages>(std::move(views).value());
  }
  body.measurements = measureBody(*avatar);
  body.avatar = std::move(avatar).value();
  body.animator = std::move(animator);
  return body;
}

}  // namespace hg
