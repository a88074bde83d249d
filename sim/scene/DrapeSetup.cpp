#include "sim/scene/DrapeSetup.h"

#include <string>
#include <utility>
#include <vector>

#include "sim/cloth/StableStep.h"
#include "sim/core/Limits.h"
#include "sim/scene/DrapeFabric.h"
#include "sim/scene/DrapeProps.h"

namespace hg {
namespace {

/// The radar sweeps of solver.continuous_collision (sim/radar/ClothSweep.h) for the
/// prepared cloth against the body, handed to the solvers through scene.settings.
Status attachSweep(DrapeScene& scene, PreparedDrape& prepared) {
  if (!scene.continuousCollision) return Status::success();
  if (!prepared.body) return Error{"solver.continuous_collision needs an avatar"};
  auto sweep = ClothSweep::create(prepared.model->triangles, prepared.model->vertexCount(), prepared.body->avatar.mesh,
                                  *scene.continuousCollision);
  if (!sweep) return sweep.error().prefixed("solver.continuous_collision: ");
  prepared.sweep = std::move(sweep).value();
  scene.settings.continuousCollision = prepared.sweep;
  return Status::success();
}

/// scene.settings.substeps resolved for the built model (sim/cloth/StableStep.h): "auto"
/// becomes the stable count, a fixed count below it is an error; then the run's size.
Status resolveSceneSubsteps(DrapeScene& scene, const ClothModel& model) {
  auto resolved = resolveSubsteps(model, scene.settings);
  if (!resolved) return resolved.error();
  scene.settings = std::move(resolved).value();
  return checkRunSize(scene, "frames");
}

}  // namespace

Status checkRunSize(const DrapeScene& scene, const std::string& framesName) {
  // With substeps "auto" (0) the count is known once the cloth is built; prepareDrape checks again then.
  const long long total = (long long)scene.frames * scene.settings.substeps;
  if (total > limits::kMaxTotalSubsteps)
    return Error{framesName + " " + std::to_string(scene.frames) + " x solver.substeps " +
                 std::to_string(scene.settings.substeps) + " = " + std::to_string(total) +
                 " substeps is out of range (at most " + std::to_string(limits::kMaxTotalSubsteps) + " per run)"};
  return Status::success();
}

Result<StepStatus> advanceDrape(DrapeScene& scene, PreparedDrape& drape, ClothSolver& solver, int frame,
                                TriangleMesh* bodyMesh) {
  const float end = float(frame + 1) * scene.settings.frameDt;  // s since the drape began
  scene.pinAnimation.apply(solver, scene.pinned, end);
  if (drape.body && drape.body->animator) {
    BodyAnimator& animator = *drape.body->animator;
    auto mesh = animator.meshAt(scene.avatar->motion->time + end);
    if (!mesh) return mesh.error().prefixed("body pose at frame " + std::to_string(frame + 1) + ": ");
    const TriangleMesh* previous = drape.bodyMesh.positions.empty() ? &drape.body->avatar.mesh : &drape.bodyMesh;
    if (Status s = animator.updateCollider(solver, *mesh, previous, scene.settings.frameDt, drape.renderBodyViews); !s)
      return s.error().prefixed("body collider at frame " + std::to_string(frame + 1) + ": ");
    drape.bodyMesh = std::move(mesh).value();
    if (bodyMesh) *bodyMesh = drape.bodyMesh;
    if (drape.sweep) {
      if (Status s = drape.sweep->setBodyPositions(drape.bodyMesh.positions); !s)
        return s.error().prefixed("continuous collision at frame " + std::to_string(frame + 1) + ": ");
    }
  }
  const StepStatus status = solver.step();
  if (const Status& swept = solver.continuousCollisionStatus(); !swept)
    return swept.error().prefixed("continuous collision at frame " + std::to_string(frame + 1) + ": ");
  return status;
}

Result<PreparedDrape> prepareDrape(DrapeScene& scene, const ClothSolverFactory& makeSolver,
                                   const SewingProgress& progress) {
  PreparedDrape prepared;
  auto props = buildSceneProps(scene);
  if (!props) return props.error();
  prepared.props = std::move(props).value();
  SphereTreeColliders trees = prepared.props.trees;
  scene.settings.boxes = prepared.props.boxes;
  scene.settings.boxFriction = prepared.props.boxFriction;
  if (scene.avatar) {
    auto body = buildSceneBody(scene);
    if (!body) return body.error();
    prepared.body = std::move(body).value();
    scene.settings.body = prepared.body->collider;
    scene.settings.bodyViews = prepared.body->views;
    if (prepared.body->sphereTree) trees.add(*prepared.body->sphereTree, RigidPose{}, scene.settings.friction);
  }
  scene.settings.sphereTrees = trees.empty() ? nullptr : std::make_shared<const SphereTreeColliders>(std::move(trees));
  if (scene.garments.empty()) {
    auto model = buildSceneCloth(scene);
    if (!model) return model.error();
    prepared.model = std::make_shared<const ClothModel>(std::move(model).value());
    if (Status s = resolveSceneSubsteps(scene, *prepared.model); !s) return s.error();
    prepared.start = restState(*prepared.model);
    if (Status s = attachSweep(scene, prepared); !s) return s.error();
    return prepared;
  }
  if (!prepared.body) return Error{"garments need an avatar"};
  auto material = sceneClothMaterial(scene);
  if (!material) return material.error();
  auto garments = sceneGarments(scene, material->material);
  if (!garments) return garments.error();
  // dressAvatar's errors start with the stage ("sewing: ...", "welding: ...", "garment N ...").
  auto dressed = dressAvatar(prepared.body->avatar.mesh, prepared.body->measurements, *garments, material->material,
                             std::move(material->anisotropy), scene.settings, makeSolver, scene.dressing, progress);
  if (!dressed) return dressed.error();
  prepared.model = std::make_shared<const ClothModel>(std::move(dressed->model));
  if (Status s = resolveSceneSubsteps(scene, *prepared.model); !s) return s.error();
  dressed->model = ClothModel{};  // moved into `model`
  prepared.start = dressed->state;
  prepared.pieceOfVertex = dressed->garmentOfVertex;
  prepared.dressing = std::move(dressed).value();
  if (Status s = attachSweep(scene, prepared); !s) return s.error();
  return prepared;
}

}  // namespace hg
