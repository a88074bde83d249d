#include "sim/scene/DrapeBody.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/motion/Bvh.h"
#include "sim/motion/CharacterIO.h"
#include "sim/motion/Retarget.h"
#include "sim/skinning/BodySkinner.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {
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
  contact.thinFeatures = avatar.thinFeatures;
  return contact;
}

void growBox(const TriangleMesh& mesh, glm::vec3& lo, glm::vec3& hi) {
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
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

}  // namespace

BodyAnimator::BodyAnimator() = default;
BodyAnimator::~BodyAnimator() = default;

Result<std::unique_ptr<BodyAnimator>> BodyAnimator::create(const SkinnedMesh& rest,
                                                           const std::filesystem::path& directory,
                                                           const SceneMotion& motion,
                                                           const BodyContactSettings& contact) {
  auto bvh = loadBvh(directory / motion.bvh, motion.unitScale);
  if (!bvh) return bvh.error();
  auto map = loadJointMap(directory / motion.map);
  if (!map) return map.error();
  auto clip = retarget(bvh->skeleton, bvh->animation, rest.skeleton, *map);
  if (!clip) return clip.error().prefixed((directory / motion.bvh).string() + ": ");
  std::unique_ptr<BodyAnimator> animator(new BodyAnimator());
  animator->m_rest = std::make_shared<const SkinnedMesh>(rest);
  animator->m_clip = std::move(clip).value();
  animator->m_warnings = std::move(bvh->warnings);
  auto skinner = createCpuBodySkinner(animator->m_rest,
                                      motion.dualQuaternion ? SkinningMethod::DualQuaternion : SkinningMethod::Linear);
  if (!skinner) return skinner.error();
  animator->m_skinner = std::move(skinner).value();
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
  CpuBodySkinner& skinner = *m_skinner;
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

Status BodyAnimator::updateCollider(ClothSolver& solver, const TriangleMesh& mesh, const TriangleMesh* previous,
                                    float dt, const ViewRenderer& renderViews) const {
  std::shared_ptr<const BodyVertexGrid> vertices;  // none without thin features
  if (m_contact.thinFeatures) {
    auto built = buildBodyVertexGrid(mesh);
    if (!built) return built.error();
    vertices = std::move(built).value();
  }
  if (m_contact.method == BodyContactMethod::DistanceGrid) {
    auto grid = colliderOf(mesh);
    if (!grid) return grid.error();
    ClothColliders colliders = solver.settings().colliders;
    colliders.distanceGrid = std::move(grid).value();
    colliders.bodyVertices = vertices;
    solver.setColliders(std::move(colliders));
    return Status::success();
  }
  std::vector<glm::vec3> velocities;
  if (previous && previous->positions.size() == mesh.positions.size() && dt > 0.0f) {
    velocities.resize(mesh.positions.size());
    for (std::size_t i = 0; i < velocities.size(); ++i)
      velocities[i] = (mesh.positions[i] - previous->positions[i]) / dt;
  }
  if (renderViews) {
    ClothColliders colliders = solver.settings().colliders;
    colliders.bodyVertices = vertices;
    solver.setColliders(std::move(colliders));
    return renderViews(solver, m_viewSetup, mesh, velocities);
  }
  auto views = viewsOf(mesh, velocities);
  if (!views) return views.error();
  ClothColliders colliders = solver.settings().colliders;
  colliders.bodyVertices = vertices;
  colliders.depthViews = std::move(views).value();
  colliders.residentDepthViews = {};
  solver.setColliders(std::move(colliders));
  return Status::success();
}

Result<SkinnedMesh> posedBody(const SkinnedMesh& body, const Pose& pose, bool dualQuaternion) {
  auto skinner = createCpuBodySkinner(std::make_shared<const SkinnedMesh>(body),
                                      dualQuaternion ? SkinningMethod::DualQuaternion : SkinningMethod::Linear);
  if (!skinner) return skinner.error();
  if (Status s = (*skinner)->update(pose); !s) return s.error();
  return rebound(body, withSkinnedSurface(body.mesh, **skinner), pose);
}

Result<SkinnedMesh> poseFromMotion(const SkinnedMesh& body, BodyAnimator& animator, float seconds) {
  auto mesh = animator.meshAt(seconds);  // skinned once, by the animator
  if (!mesh) return mesh.error();
  return rebound(body, std::move(mesh).value(), animator.clip().sample(body.skeleton, seconds));
}

Result<SceneBody> buildSceneBody(const DrapeScene& scene) {
  if (!scene.avatar) return Error{"scene '" + scene.name + "' has no avatar"};
  auto avatar = scene.avatar->file.empty() ? buildMannequin(scene.avatar->mannequin) : importAvatar(scene);
  if (!avatar) return avatar.error().prefixed((scene.avatar->file.empty() ? "avatar.mannequin: " : "avatar.file: "));
  std::unique_ptr<BodyAnimator> animator;
  std::vector<std::string> warnings;
  if (const auto& motion = scene.avatar->motion) {
    // One animator poses the body at motion.time and, with animate, moves it per frame
    // (its contact settings then build the colliders; posing needs none).
    auto created = BodyAnimator::create(*avatar, scene.directory, *motion,
                                        motion->animate ? contactSettings(*scene.avatar) : BodyContactSettings{});
    if (!created) return created.error().prefixed("avatar.motion: ");
    warnings = (*created)->warnings();
    auto posed = poseFromMotion(*avatar, **created, motion->time);
    if (!posed) return posed.error().prefixed("avatar.motion: ");
    avatar = std::move(posed).value();
    if (motion->animate) animator = std::move(created).value();
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
  if ((body.views || body.collider) && scene.avatar->thinFeatures) {
    auto vertices = buildBodyVertexGrid(avatar->mesh);
    if (!vertices) return vertices.error().prefixed("avatar (" + what + "): ");
    body.vertices = std::move(vertices).value();
  }
  body.measurements = measureBody(*avatar);
  body.avatar = std::move(avatar).value();
  body.animator = std::move(animator);
  body.warnings = std::move(warnings);
  return body;
}

}  // namespace hg
