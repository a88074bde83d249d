#include "sim/scene/DrapeBody.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sim/body/SkeletonConvention.h"
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

/// The scene's character file, posed by its own clip when avatar.file_clip names one;
/// `report` gets how it was read.
Result<SkinnedMesh> importAvatar(const DrapeScene& scene, SceneBody& report) {
  const SceneAvatar& a = *scene.avatar;
  auto character = importCharacter(scene.directory / a.file, a.frame);
  if (!character) return character.error();
  report.imported = true;
  report.fileFrame = character->report;
  report.fileVertices = character->verticesBeforeWeld;
  if (!a.jointMap.empty()) {
    // The user's names for a rig no convention knows: rename its joints to the mannequin's.
    auto map = loadJointMap(scene.directory / a.jointMap);
    if (!map) return map.error().prefixed("avatar.joint_map: ");
    Skeleton& skeleton = character->body.skeleton;
    for (const auto& [from, to] : map->pairs) {
      const int j = skeleton.find(from);
      if (j < 0)
        return Error{"avatar.joint_map: " + (scene.directory / a.jointMap).string() + ": joint '" + from +
                     "' is not in " + (scene.directory / a.file).string()};
      if (const int taken = skeleton.find(to); taken >= 0 && taken != j)
        return Error{"avatar.joint_map: " + (scene.directory / a.jointMap).string() + ": '" + to +
                     "' already names another joint of the file"};
      skeleton.joints[std::size_t(j)].name = to;
    }
  }
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

namespace {

/// Clip seconds played `tau` seconds into a playback of `length` clip seconds whose speed
/// rises from 0 to 1 over the first `ramp` seconds and falls back to 0 over the last
/// (smoothstep profiles, each covering ramp / 2 clip seconds; the playback lasts
/// length + ramp, ramp <= length). The integral of the smoothstep over u in [0, 1] is
/// u^3 - u^4 / 2.
float easedClipSeconds(float tau, float length, float ramp) {
  if (ramp <= 0.0f) return std::clamp(tau, 0.0f, length);
  const auto covered = [ramp](float t) {
    const float u = std::clamp(t / ramp, 0.0f, 1.0f);
    return ramp * (u * u * u - 0.5f * u * u * u * u);
  };
  const float playback = length + ramp;
  if (tau <= ramp) return covered(tau);
  if (tau >= playback - ramp) return length - covered(std::max(0.0f, playback - tau));
  return 0.5f * ramp + (tau - ramp);
}

/// The shortest interval between two keys of `clip` (its frame time), kept within
/// [1/240, 1/120] s: the spacing of the resampled keys (fine enough that the eased start
/// and end, linear between keys, stay near rest at a 60 Hz frame rate).
float keySpacing(const Animation& clip) {
  float spacing = 1.0f / 120.0f;
  const auto scan = [&spacing](const std::vector<float>& times) {
    for (std::size_t k = 1; k < times.size(); ++k)
      if (times[k] > times[k - 1]) spacing = std::min(spacing, times[k] - times[k - 1]);
  };
  for (const AnimationChannel& c : clip.channels) {
    scan(c.translation.times);
    scan(c.rotation.times);
    scan(c.scale.times);
  }
  return std::max(spacing, 1.0f / 240.0f);
}

/// `a` to `b` by weight w: translation and scale linearly, rotation by shortest-arc slerp.
/// hg::interpolate (sim/body/Skeleton.h) without its final normalize: that rounding
/// changes the pinned state hash of outfit_posed_from_bvh.json.
Transform blendTransform(const Transform& a, const Transform& b, float w) {
  Transform t = b;
  t.translation = glm::mix(a.translation, b.translation, w);
  t.rotation = glm::slerp(a.rotation, glm::dot(a.rotation, b.rotation) < 0.0f ? -b.rotation : b.rotation, w);
  t.scale = glm::mix(a.scale, b.scale, w);
  return t;
}

}  // namespace

Animation dressThenMove(const Animation& clip, const Skeleton& skeleton, const Pose& start, float from,
                        float transition, bool follow) {
  const Pose target = clip.sample(skeleton, from);
  const float length = follow ? std::max(0.0f, clip.duration - from) : 0.0f;  // clip seconds played
  const float ramp = std::min(transition, length);
  const float playback = length > 0.0f ? length + ramp : 0.0f;
  Animation out;
  out.name = clip.name;
  out.duration = transition + playback;

  // The pose at each output time: the blend (linear in time, as a held pose's transition
  // always was: a smoothstep blend left outfit_posed_from_bvh's skirt hem at strain 0.5006
  // instead of 0.48, over its gate), then the eased playback.
  const auto poseAt = [&](float t) {
    if (t < transition) {
      Pose pose = start;
      const float w = t / transition;
      for (std::size_t j = 0; j < pose.size(); ++j) pose[j] = blendTransform(start[j], target[j], w);
      return pose;
    }
    return clip.sample(skeleton, from + easedClipSeconds(t - transition, length, ramp));
  };
  std::vector<float> times;
  const float spacing = keySpacing(clip);
  const int blendKeys = std::max(8, int(std::ceil(transition / spacing)));
  for (int k = 0; k <= blendKeys; ++k) times.push_back(transition * float(k) / float(blendKeys));
  if (playback > 0.0f) {
    const int playKeys = std::max(1, int(std::ceil(playback / spacing)));
    for (int k = 1; k <= playKeys; ++k) times.push_back(transition + playback * float(k) / float(playKeys));
  }

  // One channel per joint the clip animates or the start pose moves: its rotation, and its
  // translation and scale where the clip keys them.
  std::vector<const AnimationChannel*> channelOf(skeleton.size(), nullptr);
  for (const AnimationChannel& c : clip.channels) channelOf[std::size_t(c.joint)] = &c;
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    const AnimationChannel* c = channelOf[j];
    const Transform& rest = skeleton.joints[j].rest;
    const bool moves = glm::length(start[j].translation - rest.translation) > 0.0f ||
                       std::abs(glm::dot(start[j].rotation, rest.rotation)) < 1.0f ||
                       glm::length(start[j].scale - rest.scale) > 0.0f;
    if (!c && !moves) continue;
    AnimationChannel d;
    d.joint = int(j);
    out.channels.push_back(std::move(d));
  }
  for (const float t : times) {
    const Pose pose = poseAt(t);
    for (AnimationChannel& d : out.channels) {
      const AnimationChannel* c = channelOf[std::size_t(d.joint)];
      const Transform& value = pose[std::size_t(d.joint)];
      if (c && !c->translation.times.empty()) {
        d.translation.times.push_back(t);
        d.translation.values.push_back(value.translation);
      }
      glm::quat q = value.rotation;  // kept in one hemisphere with the previous key
      if (!d.rotation.values.empty() && glm::dot(d.rotation.values.back(), q) < 0.0f) q = -q;
      d.rotation.times.push_back(t);
      d.rotation.values.push_back(q);
      if (c && !c->scale.times.empty()) {
        d.scale.times.push_back(t);
        d.scale.values.push_back(value.scale);
      }
    }
  }
  return out;
}

Pose relaxedAPose(const Skeleton& skeleton) {
  Pose pose = restPose(skeleton);
  auto convention = detectSkeletonConvention(skeleton, "avatar");
  if (!convention) return pose;
  const std::vector<glm::mat4> global = globalMatrices(skeleton, pose);
  const float wanted = glm::radians(45.0f);
  for (const auto& [shoulderName, elbowName] :
       {std::pair{"upper_arm_l", "forearm_l"}, std::pair{"upper_arm_r", "forearm_r"}}) {
    const int shoulder = convention->find(shoulderName), elbow = convention->find(elbowName);
    const glm::vec3 direction = glm::vec3(global[std::size_t(elbow)][3] - global[std::size_t(shoulder)][3]);
    if (glm::length(direction) <= 0.0f) continue;
    const glm::vec3 d = glm::normalize(direction);
    const float below = std::asin(std::clamp(-d.y, -1.0f, 1.0f));
    const glm::vec3 axis = glm::cross(d, glm::vec3(0.0f, -1.0f, 0.0f));
    if (below >= glm::radians(35.0f) || glm::length(axis) < 1e-4f) continue;
    // Turn the arm in the world about the horizontal axis that lowers it, keeping its parent.
    const glm::quat lower = glm::angleAxis(wanted - below, glm::normalize(axis));
    const int parent = skeleton.joints[std::size_t(shoulder)].parent;
    const glm::quat parentRotation =
        parent < 0 ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : glm::quat_cast(glm::mat3(global[std::size_t(parent)]));
    const glm::quat worldRotation = parentRotation * pose[std::size_t(shoulder)].rotation;
    pose[std::size_t(shoulder)].rotation = glm::normalize(glm::inverse(parentRotation) * lower * worldRotation);
  }
  return pose;
}

bool isRestPose(const Skeleton& skeleton, const Pose& pose) {
  for (std::size_t j = 0; j < skeleton.size(); ++j) {
    const Transform& r = skeleton.joints[j].rest;
    const float angle = 2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(r.rotation, pose[j].rotation))));
    if (angle > glm::radians(0.1f) || glm::length(r.translation - pose[j].translation) > 1e-4f ||
        glm::length(r.scale - pose[j].scale) > 1e-4f)
      return false;
  }
  return true;
}

Result<std::unique_ptr<BodyAnimator>> BodyAnimator::create(const SkinnedMesh& rest,
                                                           const std::filesystem::path& directory,
                                                           const SceneMotion& motion,
                                                           const BodyContactSettings& contact, float transition) {
  auto bvh = loadBvh(directory / motion.bvh, motion.unitScale);
  if (!bvh) return bvh.error();
  auto map = motion.map.empty()
                 ? conventionJointMap(bvh->skeleton, (directory / motion.bvh).string(), rest.skeleton, "the avatar")
                 : loadJointMap(directory / motion.map);
  if (!map) return map.error();
  auto clip = retarget(bvh->skeleton, bvh->animation, rest.skeleton, *map);
  if (!clip) return clip.error().prefixed((directory / motion.bvh).string() + ": ");
  std::unique_ptr<BodyAnimator> animator(new BodyAnimator());
  animator->m_rest = std::make_shared<const SkinnedMesh>(rest);
  animator->m_clip = std::move(clip).value();
  if (transition > 0.0f && !isRestPose(rest.skeleton, animator->m_clip.sample(rest.skeleton, motion.time))) {
    animator->m_dressingPose = relaxedAPose(rest.skeleton);
    animator->m_clip = dressThenMove(animator->m_clip, rest.skeleton, animator->m_dressingPose, motion.time, transition,
                                     motion.animate);
    animator->m_dressesFirst = true;
  }
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
  // Whether the body moved since `previous` (a held pose does not: the thin-feature pass
  // then runs after every substep, as for a still body; ClothColliders::bodyMoves).
  const bool moved = previous && previous->positions != mesh.positions;
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
    colliders.bodyMoves = moved;
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
    colliders.bodyMoves = moved;
    solver.setColliders(std::move(colliders));
    return renderViews(solver, m_viewSetup, mesh, velocities);
  }
  auto views = viewsOf(mesh, velocities);
  if (!views) return views.error();
  ClothColliders colliders = solver.settings().colliders;
  colliders.bodyVertices = vertices;
  colliders.depthViews = std::move(views).value();
  colliders.residentDepthViews = {};
  colliders.bodyMoves = moved;
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
  SceneBody body;
  auto avatar = scene.avatar->file.empty() ? buildMannequin(scene.avatar->mannequin) : importAvatar(scene, body);
  if (!avatar) return avatar.error().prefixed((scene.avatar->file.empty() ? "avatar.mannequin: " : "avatar.file: "));
  std::unique_ptr<BodyAnimator> animator;
  std::vector<std::string> warnings;
  if (const auto& motion = scene.avatar->motion) {
    // One animator poses the body at motion.time and, with animate, moves it per frame
    // (its contact settings then build the colliders; posing needs none). With garments
    // (and a pose other than the rest), they are sewn on the rest pose and the animator
    // moves the dressed body into the pose (BodyAnimator::create's transition).
    const float transition = scene.garments.empty() ? 0.0f : motion->transition;
    auto created = BodyAnimator::create(
        *avatar, scene.directory, *motion,
        motion->animate || transition > 0.0f ? contactSettings(*scene.avatar) : BodyContactSettings{}, transition);
    if (!created) return created.error().prefixed("avatar.motion: ");
    warnings = (*created)->warnings();
    if ((*created)->dressesFirst()) {
      // Sewn on the rest pose, its arms relaxed into an A-pose (relaxedAPose).
      auto dressing = posedBody(*avatar, (*created)->dressingPose(), motion->dualQuaternion);
      if (!dressing) return dressing.error().prefixed("avatar.motion: ");
      avatar = std::move(dressing).value();
      animator = std::move(created).value();
    } else {
      auto posed = poseFromMotion(*avatar, **created, motion->time);
      if (!posed) return posed.error().prefixed("avatar.motion: ");
      avatar = std::move(posed).value();
      body.clipStart = motion->time;
      if (motion->animate) animator = std::move(created).value();
    }
  }
  const std::string what =
      scene.avatar->file.empty() ? std::string("mannequin") : (scene.directory / scene.avatar->file).string();
  const BodyContactSettings contact = contactSettings(*scene.avatar);
  if (contact.method == BodyContactMethod::SphereTree) {
    // Measured on the 2-core VM (bench/RESULTS.md, "Sphere trees"): voxelizing and filling the
    // mannequin takes longer than a frame's simulation, so a moving body is refused rather
    // than rebuilt per frame (use distance_grid or depth_views for avatar.motion.animate).
    if (animator)
      return Error{
          "avatar.contact.method \"sphere_tree\" needs a still body (avatar.motion.animate, or garments sewn "
          "before a transition into the pose, move it): it is filled once (about a second "
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
  if (!scene.garments.empty() && body.measurements.convention.empty()) {
    // Garments are drafted from landmarks found through the joints' names.
    auto convention = detectSkeletonConvention(avatar->skeleton, what);
    return convention.error().prefixed("garments need the avatar's landmarks: ");
  }
  body.avatar = std::move(avatar).value();
  body.animator = std::move(animator);
  body.warnings = std::move(warnings);
  return body;
}

}  // namespace hg
