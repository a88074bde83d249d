#include "sim/radar/Grasp.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

namespace hg {

// ---- the simulation ----

Result<GraspSimulation> GraspSimulation::create(const GraspScene& scene) {
  if (Status s = scene.settings.validate(); !s) return s.error();
  if (scene.hands.empty()) return Error{"grasp: no hands"};
  // A box has no exact box-to-box distance here (GraspObject::boxDistance): no report.
  if (scene.target.shape == GraspObject::Shape::Box)
    return Error{"grasp: the target must be a sphere, a capsule or a mesh"};
  if (scene.target.id >= 128) return Error{"grasp: the target's ID must be < 128"};
  GraspSimulation sim;
  sim.m_description = scene;
  sim.m_targetMesh = scene.target.mesh();
  // The sphere-tree check of the final pose: a mesh target's own tree, else one filled
  // into the analytic target's (enclosing) mesh.
  if (scene.target.shape == GraspObject::Shape::Mesh) {
    sim.m_checkTree = std::shared_ptr<const SphereTree>(scene.target.meshShape, &scene.target.meshShape->tree);
    sim.m_checkPose = scene.target.meshShape->pose;
    sim.m_checkResolution = scene.target.meshShape->resolution;
  } else {
    auto tree = SphereTree::fromMesh(sim.m_targetMesh, kGraspCheckResolution, "grasp: the target's sphere tree");
    if (!tree) return tree.error();
    sim.m_checkTree = std::make_shared<const SphereTree>(std::move(tree).value());
    sim.m_checkResolution = kGraspCheckResolution;
  }
  if (Status s = sim.m_scene.add(scene.target.id, sim.m_targetMesh); !s) return s.error().prefixed("grasp: target: ");
  for (const GraspObject& d : scene.distractors) {
    if (d.id >= handObjectId(0)) return Error{"grasp: distractor IDs must be < " + std::to_string(handObjectId(0))};
    sim.m_distractorMeshes.push_back(d.mesh());
    if (Status s = sim.m_scene.add(d.id, sim.m_distractorMeshes.back()); !s)
      return s.error().prefixed("grasp: distractor: ");
  }
  for (std::size_t h = 0; h < scene.hands.size(); ++h) {
    const GraspHandPlacement& p = scene.hands[h];
    const HandSpec spec = HandSpec::standard().scaled(p.scale);
    if (Status s = spec.validate(); !s) return s.error().prefixed("grasp: hand " + std::to_string(h) + ": ");
    HandState state;
    state.model = HandModel(spec);
    // Palm frame: z = facing, y = fingers made orthogonal to it, x = y x z.
    const glm::vec3 z = glm::normalize(p.facing);
    const glm::vec3 y = glm::normalize(p.fingers - glm::dot(p.fingers, z) * z);
    const glm::vec3 x = glm::cross(y, z);
    HandPose pose;
    pose.rotation = glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
    pose.position = p.position;
    state.model.setPose(pose);
    const TriangleMesh handMesh = state.model.mesh();
    if (Status s = sim.m_scene.add(handObjectId(h), handMesh); !s) return s.error();
    for (int seg = 0; seg < kHandSegments; ++seg) {
      TriangleMesh collapsed = state.model.segmentMesh(seg);
      std::fill(collapsed.positions.begin(), collapsed.positions.end(), p.position);
      if (Status s = sim.m_scene.add(segmentObjectId(h, seg), collapsed); !s) return s.error();
    }
    sim.m_hands.push_back(std::move(state));
  }
  return sim;
}

Status GraspSimulation::syncScene(std::size_t h) {
  HandState& st = m_hands[h];
  const glm::vec3 point = st.model.palmCentre();
  if (st.segmentsLive) {
    const std::vector<glm::vec3> collapsed(m_scene.positionsOf(handObjectId(h)).size(), point);
    if (Status s = m_scene.setPositions(handObjectId(h), collapsed); !s) return s;
    for (int seg = 0; seg < kHandSegments; ++seg)
      if (Status s = m_scene.setPositions(segmentObjectId(h, seg), st.model.segmentPositions(seg)); !s) return s;
  } else {
    if (Status s = m_scene.setPositions(handObjectId(h), st.model.mesh().positions); !s) return s;
    const std::vector<glm::vec3> collapsed(st.model.segmentVertexCount(), point);
    for (int seg = 0; seg < kHandSegments; ++seg)
      if (Status s = m_scene.setPositions(segmentObjectId(h, seg), collapsed); !s) return s;
  }
  return Status::success();
}

RadarQuery GraspSimulation::sweepQuery(std::uint32_t id, std::span<const glm::vec3> points, glm::vec3 direction,
                                       float distance, glm::vec3 up) const {
  auto q = makeSweepQuery(id, points, direction * distance, up, 0.0f);
  if (!q) return RadarQuery{};  // unreachable for a hand segment; makeRadarFrames would report it
  // Volume = silhouette x wp / (wp - 1), a hair less: the outermost pixel centres fall just
  // inside the silhouette, so the sensor's edges are sampled (coverage is at pixel centres).
  const RadarImageSize size = m_description.settings.image;
  q->probe.width *= float(size.width) / float(size.width - 1) * (1.0f - 1e-4f);
  q->probe.height *= float(size.height) / float(size.height - 1) * (1.0f - 1e-4f);
  return *q;
}

Status GraspSimulation::step(RadarBackend& radar) {
  m_batch.clear();
  for (std::size_t h = 0; h < m_hands.size(); ++h) {
    HandState& st = m_hands[h];
    if (st.phase == GraspPhase::Detect) ++st.report.phaseFrames[0];
    if (st.phase == GraspPhase::Approach) ++st.report.phaseFrames[1];
    if (st.phase == GraspPhase::Close) ++st.report.phaseFrames[2];
    buildQueries(h);
    m_batch.insert(m_batch.end(), st.queries.begin(), st.queries.end());
  }
  // Every radar of every hand in one run.
  const auto t0 = std::chrono::steady_clock::now();
  auto hits = radar.run(m_scene, m_batch, m_description.settings.image);
  m_radarSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!hits) return hits.error().prefixed("grasp frame " + std::to_string(m_frame + 1) + ": ");
  if (hits->size() != m_batch.size()) return Error{"grasp: the radar backend returned the wrong number of hits"};
  ++m_frame;
  m_lastBatch = m_batch.size();
  m_radarsRun += m_batch.size();
  std::optional<Result<RadarImages>> images;
  auto getImages = [&]() -> const RadarImages* {
    if (!images) images.emplace(radar.images());
    return images->ok() ? &images->value() : nullptr;
  };
  // Hands close together (five hands grasp at once): an arrived hand waits while another
  // still detects or approaches, so no hand closes on one that is still moving in.
  const bool waiting =
      m_description.settings.closeTogether && std::any_of(m_hands.begin(), m_hands.end(), [](const HandState& st) {
        return st.phase == GraspPhase::Detect || st.phase == GraspPhase::Approach;
      });
  for (std::size_t h = 0; h < m_hands.size(); ++h) {
    HandState& st = m_hands[h];
    std::copy_n(hits->begin() + std::ptrdiff_t(h * kHandRadars), kHandRadars, st.hits.begin());
    switch (st.phase) {
      case GraspPhase::Detect:
        consumeDetect(h, getImages);
        break;
      case GraspPhase::Approach:
        consumeApproach(h);
        break;
      case GraspPhase::Close:
        if (waiting) {
          ++st.report.waitFrames;
          --st.report.phaseFrames[2];
        } else {
          consumeClose(h);
        }
        break;
      case GraspPhase::Done:
      case GraspPhase::Failed:
        break;
    }
    if (Status s = syncScene(h); !s) return s.error().prefixed("grasp: hand " + std::to_string(h) + ": ");
  }
  return Status::success();
}

bool GraspSimulation::finished() const {
  return std::all_of(m_hands.begin(), m_hands.end(), [](const HandState& st) {
    return st.phase == GraspPhase::Done || st.phase == GraspPhase::Failed;
  });
}

Status GraspSimulation::run(RadarBackend& radar, const std::function<void(const GraspSimulation&)>& onFrame) {
  while (!finished() && m_frame < m_description.settings.maxFrames) {
    if (Status s = step(radar); !s) return s;
    if (onFrame) onFrame(*this);
  }
  m_finishedBeforeLimit = finished();
  // One more frame measures the final pose (every hand's radars are monitors now).
  if (Status s = step(radar); !s) return s;
  if (onFrame) onFrame(*this);
  return Status::success();
}

TriangleMesh GraspSimulation::sceneMesh() const {
  TriangleMesh out;
  appendMesh(out, m_targetMesh);
  for (const TriangleMesh& d : m_distractorMeshes) appendMesh(out, d);
  for (const HandState& st : m_hands) appendMesh(out, st.model.mesh());
  computeVertexNormals(out);
  return out;
}

}  // namespace hg
