#include "sim/scene/PreparedDrape.h"

#include <string>
#include <utility>

#include "sim/cloth/StableStep.h"
#include "sim/core/Limits.h"
#include "sim/scene/DrapeFabric.h"
#include "sim/scene/DrapeProps.h"

namespace hg {
namespace {

/// `settings` with the cloth's colliders of a prepared scene, in the ClothSettings
/// collider fields: the analytic boxes (docs/methods.md section 7: the scene's boxes and
/// the props with collider "obb"), the body's signed distance grid or depth views
/// (section 2), and the sphere trees (section 6: the props', then a body's).
ClothSettings withColliders(ClothSettings settings, const SceneProps& props, const SceneBody* body) {
  SphereTreeColliders trees = props.trees;
  ClothColliders& colliders = settings.colliders;
  colliders.boxes.clear();
  for (std::size_t i = 0; i < props.boxes.size(); ++i)
    colliders.boxes.push_back({props.boxes[i], i < props.boxFriction.size() ? props.boxFriction[i] : -1.0f});
  if (body) {
    colliders.distanceGrid = body->collider;
    colliders.depthViews = body->views;
    colliders.bodyVertices = body->vertices;
    if (body->sphereTree) trees.add(*body->sphereTree, RigidPose{}, settings.friction);
  }
  colliders.sphereTrees = trees.empty() ? nullptr : std::make_shared<const SphereTreeColliders>(std::move(trees));
  return settings;
}

std::string atFrame(int frame) { return " at frame " + std::to_string(frame); }

}  // namespace

Status checkRunSize(const DrapeScene& scene, const std::string& framesName) {
  // With substeps "auto" (0) the count is known once the cloth is built; PreparedDrape checks again then.
  const long long total = (long long)scene.frames * scene.settings.substeps;
  if (total > limits::kMaxTotalSubsteps)
    return Error{framesName + " " + std::to_string(scene.frames) + " x solver.substeps " +
                 std::to_string(scene.settings.substeps) + " = " + std::to_string(total) +
                 " substeps is out of range (at most " + std::to_string(limits::kMaxTotalSubsteps) + " per run)"};
  return Status::success();
}

Result<PreparedDrape> PreparedDrape::prepare(const DrapeScene& scene, const ClothSolverFactory& makeSolver,
                                             const SewingProgress& progress) {
  PreparedDrape prepared;
  prepared.m_pinned = scene.pinned;
  prepared.m_pinAnimation = scene.pinAnimation;
  if (Status s = prepared.buildColliders(scene); !s) return s.error();
  if (prepared.m_body) prepared.m_motionStart = prepared.m_body->clipStart;
  if (prepared.m_body && prepared.m_body->animator && prepared.m_body->animator->dressesFirst()) {
    const float transition = scene.avatar->motion->transition;
    if (float(scene.frames) * scene.settings.frameDt < transition)
      return Error{"solver.frames: " + std::to_string(scene.frames) + " frames end before avatar.motion.transition (" +
                   std::to_string(transition) + " s) brings the dressed body into its pose"};
  }
  const Status cloth =
      scene.garments.empty() ? prepared.buildCloth(scene) : prepared.sewGarments(scene, makeSolver, progress);
  if (!cloth) return cloth.error();
  if (Status s = prepared.chooseSubsteps(scene); !s) return s.error();
  if (Status s = prepared.attachSweep(scene); !s) return s.error();
  return prepared;
}

/// The boxes and props, then the avatar (its body and collider), into settings().
Status PreparedDrape::buildColliders(const DrapeScene& scene) {
  auto props = buildSceneProps(scene);
  if (!props) return props.error();
  m_props = std::move(props).value();
  if (scene.avatar) {
    auto body = buildSceneBody(scene);
    if (!body) return body.error();
    m_body = std::move(body).value();
  }
  m_settings = withColliders(scene.settings, m_props, body());
  return Status::success();
}

/// The scene's sheet or mesh, at rest.
Status PreparedDrape::buildCloth(const DrapeScene& scene) {
  auto model = buildSceneCloth(scene);
  if (!model) return model.error();
  m_model = std::make_shared<const ClothModel>(std::move(model).value());
  m_start = restState(*m_model);
  return Status::success();
}

/// The garments, sewn and welded around the avatar (sim/garment/Dressing.h), each with
/// its own material.
Status PreparedDrape::sewGarments(const DrapeScene& scene, const ClothSolverFactory& makeSolver,
                                  const SewingProgress& progress) {
  if (!m_body) return Error{"garments need an avatar"};
  auto material = sceneClothMaterial(scene);
  if (!material) return material.error();
  auto garments = sceneGarments(scene, material->material);
  if (!garments) return garments.error();
  // dressAvatar's errors start with the stage ("sewing: ...", "welding: ...", "garment N ...").
  auto dressed = dressAvatar(m_body->avatar.mesh, m_body->measurements, *garments, material->material,
                             std::move(material->anisotropy), m_settings, makeSolver, scene.dressing, progress);
  if (!dressed) return dressed.error();
  m_model = std::make_shared<const ClothModel>(std::move(dressed->model));
  dressed->model = ClothModel{};  // moved into `m_model`
  m_start = dressed->state;
  m_pieceOfVertex = dressed->garmentOfVertex;
  // Self contact's layers, inner first: each garment's "layer", else its place in the outfit.
  if (m_settings.selfContact.enabled) {
    std::vector<std::uint32_t>& layers = m_settings.selfContact.layerOfVertex;
    layers.resize(m_pieceOfVertex.size());
    for (std::size_t v = 0; v < layers.size(); ++v)
      layers[v] = scene.garments[m_pieceOfVertex[v]].layer.value_or(m_pieceOfVertex[v]);
  }
  m_dressing = std::move(dressed).value();
  m_settleFrames = scene.dressing.settleFrames;
  return Status::success();
}

/// The substeps resolved for the built model (sim/cloth/StableStep.h): "auto" becomes the
/// stable count, a fixed count below it is an error; then the run's size.
Status PreparedDrape::chooseSubsteps(const DrapeScene& scene) {
  auto resolved = resolveSubsteps(*m_model, m_settings);
  if (!resolved) return resolved.error();
  m_settings = std::move(resolved).value();
  DrapeScene run;  // checkRunSize looks at the frames and the substeps only
  run.frames = scene.frames;
  run.settings.substeps = m_settings.substeps;
  return checkRunSize(run, "frames");
}

/// The radar sweeps of solver.continuous_collision (sim/radar/ClothSweep.h) for the
/// prepared cloth against the body, handed to the solvers through settings().
Status PreparedDrape::attachSweep(const DrapeScene& scene) {
  if (!scene.continuousCollision) return Status::success();
  if (!m_body) return Error{"solver.continuous_collision needs an avatar"};
  auto sweep =
      ClothSweep::create(m_model->triangles, m_model->vertexCount(), m_body->avatar.mesh, *scene.continuousCollision);
  if (!sweep) return sweep.error().prefixed("solver.continuous_collision: ");
  m_sweep = std::move(sweep).value();
  m_settings.continuousCollision = m_sweep;
  return Status::success();
}

Status PreparedDrape::createSolver(const ClothSolverFactory& makeSolver) {
  auto solver = makeSolver(m_model, m_settings);
  if (!solver) return solver.error();
  m_solver = std::move(solver).value();
  m_solver->writeState(m_start);
  if (m_dressing && m_settleFrames > 0) return settleGarments();
  return Status::success();
}

/// Quasi-static relaxation of the just-welded garments (DressingSettings::settleFrames):
/// each frame starts at rest, so the sewing's stored stretch leaves as motion of at most a
/// frame's worth of acceleration, not as speed that builds up.
Status PreparedDrape::settleGarments() {
  for (int frame = 1; frame <= m_settleFrames; ++frame) {
    if (StepStatus status = m_solver->step(); any(status)) {
      const std::optional<FastestVertex> fastest = fastestVertex(m_solver->readState());
      return simulationError("settling the sewn garments: frame " + std::to_string(frame) + ": " + describe(status) +
                             (fastest ? "; " + describe(*fastest) : std::string()));
    }
    ClothState state = m_solver->readState();
    for (glm::vec4& v : state.velocities) v = glm::vec4(0.0f);
    m_solver->writeState(state);
    m_dressing->settleFrames = frame;
  }
  m_start = m_solver->readState();
  return Status::success();
}

const TriangleMesh* PreparedDrape::bodySurface() const {
  if (!m_body) return nullptr;
  return m_bodyMesh.positions.empty() ? &m_body->avatar.mesh : &m_bodyMesh;
}

/// The moving body in its pose at `seconds` since the drape began: the solver's collider
/// and the sweeps' body follow it.
Status PreparedDrape::moveBody(float seconds) {
  auto mesh = m_body->animator->meshAt(m_motionStart + seconds);
  if (!mesh) return mesh.error().prefixed("body pose" + atFrame(m_frame) + ": ");
  if (Status s =
          m_body->animator->updateCollider(*m_solver, *mesh, bodySurface(), m_settings.frameDt, m_renderBodyViews);
      !s)
    return s.error().prefixed("body collider" + atFrame(m_frame) + ": ");
  m_bodyMesh = std::move(mesh).value();
  if (m_sweep) {
    if (Status s = m_sweep->setBodyPositions(m_bodyMesh.positions); !s)
      return s.error().prefixed("continuous collision" + atFrame(m_frame) + ": ");
  }
  return Status::success();
}

Result<StepStatus> PreparedDrape::advance() {
  ++m_frame;
  const float end = float(m_frame) * m_settings.frameDt;  // s since the drape began
  m_pinAnimation.apply(*m_solver, m_pinned, end);
  if (bodyMoves())
    if (Status s = moveBody(end); !s) return s.error();
  const StepStatus status = m_solver->step();
  if (const Status& swept = m_solver->continuousCollisionStatus(); !swept)
    return swept.error().prefixed("continuous collision" + atFrame(m_frame) + ": ");
  return status;
}

void PreparedDrape::restart() {
  m_solver->writeState(m_start);
  if (m_body) {  // the body back in its first pose
    ClothColliders colliders = m_solver->settings().colliders;
    colliders.distanceGrid = m_body->collider;
    colliders.depthViews = m_body->views;
    colliders.bodyVertices = m_body->vertices;
    colliders.residentDepthViews = {};
    colliders.bodyMoves = false;
    m_solver->setColliders(std::move(colliders));
    m_bodyMesh = TriangleMesh{};
  }
  m_frame = 0;
}

}  // namespace hg
