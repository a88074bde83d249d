#include "sim/cloth/ClothSolver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include <glm/geometric.hpp>

#include "sim/core/Limits.h"

namespace hg {

static_assert(std::uint32_t(StepStatus::NonFinite) == HG_STATUS_NON_FINITE);
static_assert(std::uint32_t(StepStatus::SpeedLimitExceeded) == HG_STATUS_SPEED_LIMIT);

std::string_view backendName(Backend backend) { return backend == Backend::Cpu ? "cpu" : "gpu"; }

std::string_view integratorName(ClothIntegrator integrator) {
  return integrator == ClothIntegrator::SymplecticEuler ? "symplectic_euler" : "projective_jacobi";
}

Result<ClothIntegrator> parseIntegrator(std::string_view name) {
  if (name == "symplectic_euler") return ClothIntegrator::SymplecticEuler;
  if (name == "projective_jacobi") return ClothIntegrator::ProjectiveJacobi;
  return Error{"unknown integrator '" + std::string(name) + "' (use symplectic_euler or projective_jacobi)"};
}

Result<BendingScheme> parseBendingScheme(std::string_view name) {
  if (name == "explicit") return BendingScheme::Explicit;
  if (name == "implicit") return BendingScheme::Implicit;
  return Error{"unknown bending '" + std::string(name) + "' (use explicit or implicit)"};
}

Result<Backend> parseBackend(std::string_view name) {
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  return Error{"unknown backend '" + std::string(name) + "' (use cpu or gpu)"};
}

Status ClothSettings::validate() const {
  auto finite = [](glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
  if (!(frameDt > 0.0f) || !std::isfinite(frameDt)) return Error{"frame_dt must be > 0 seconds"};
  if (substeps < 0 || substeps > limits::kMaxSubsteps)
    return Error{"substeps must be in 1.." + std::to_string(limits::kMaxSubsteps) + " (0: chosen automatically)"};
  if (!(velocityDamping >= 0.0f) || !std::isfinite(velocityDamping))
    return Error{"velocity_damping must be >= 0 (1/s)"};
  if (!(friction >= 0.0f) || !std::isfinite(friction)) return Error{"friction must be >= 0"};
  if (!(contactOffset >= 0.0f) || !std::isfinite(contactOffset)) return Error{"contact_offset must be >= 0 m"};
  if (!finite(gravity)) return Error{"gravity must be finite"};
  if (!(maxSpeed > 0.0f)) return Error{"max_speed must be > 0 m/s"};
  if (threads < 0) return Error{"threads must be >= 0"};
  if (!(compressionScale >= 0.0f) || !(extensionScale >= 0.0f) || !std::isfinite(compressionScale) ||
      !std::isfinite(extensionScale))
    return Error{"compression_scale and extension_scale must be >= 0"};
  if (!(tensionExponent >= 1.0f && tensionExponent <= 3.0f)) return Error{"tension_exponent must be in 1..3"};
  if (!(plasticRate >= 0.0f) || !(yieldStrain >= 0.0f) || !(yieldAngle >= 0.0f))
    return Error{"plastic_rate, yield_strain and yield_angle must be >= 0"};
  if (maxSubstepHalvings < 0 || maxSubstepHalvings > 10) return Error{"max_substep_halvings must be in 0..10"};
  if (solverIterations < 1 || solverIterations > 10000) return Error{"iterations must be in 1..10000"};
  if (!(chebyshevRho >= 0.0f && chebyshevRho < 1.0f)) return Error{"chebyshev_rho must be in [0, 1)"};
  if (bending == BendingScheme::Implicit && integrator != ClothIntegrator::ProjectiveJacobi)
    return Error{"bending \"implicit\" needs integrator \"projective_jacobi\""};
  if (selfContact.enabled) {
    if (!(selfContact.thickness > 0.0f && selfContact.thickness <= 0.05f))
      return Error{"self_contact.thickness must be in (0, 0.05] m"};
    if (!(selfContact.friction >= 0.0f && selfContact.friction <= 2.0f))
      return Error{"self_contact.friction must be in 0..2"};
    if (selfContact.iterations < 1 || selfContact.iterations > 100)
      return Error{"self_contact.iterations must be in 1..100"};
    if (const float layer = selfContact.layerOffsetOrDefault(); !(layer >= 0.0f && layer <= 0.05f))
      return Error{"self_contact.layer_offset must be in [0, 0.05] m"};
  }
  return colliders.validate();
}

namespace {

/// The layers present, innermost first: a vertex's rank is its layer's place in the list.
/// One pass without copying the vertices' layers (stepParams reaches it every step through
/// sphereTreeSearchRadius; outfits have a few layers).
std::vector<std::uint32_t> distinctLayers(const std::vector<std::uint32_t>& layerOfVertex) {
  std::vector<std::uint32_t> layers;
  for (std::uint32_t layer : layerOfVertex)
    if (auto at = std::lower_bound(layers.begin(), layers.end(), layer); at == layers.end() || *at != layer)
      layers.insert(at, layer);
  return layers;
}

}  // namespace

std::vector<float> ClothSettings::bodyContactOffsets(std::size_t vertexCount) const {
  std::vector<float> offsets(vertexCount, contactOffset);
  if (!selfContact.enabled || selfContact.layerOfVertex.size() != vertexCount) return offsets;
  const std::vector<std::uint32_t> layers = distinctLayers(selfContact.layerOfVertex);
  const float perLayer = selfContact.layerOffsetOrDefault();
  for (std::size_t v = 0; v < vertexCount; ++v) {
    const auto rank = std::lower_bound(layers.begin(), layers.end(), selfContact.layerOfVertex[v]) - layers.begin();
    offsets[v] += float(rank) * perLayer;
  }
  return offsets;
}

float ClothSettings::largestContactOffset() const {
  if (!selfContact.enabled || selfContact.layerOfVertex.empty()) return contactOffset;
  const std::size_t layers = distinctLayers(selfContact.layerOfVertex).size();
  return contactOffset + float(layers - 1) * selfContact.layerOffsetOrDefault();
}

kernels::ClothStepParams ClothSettings::stepParams(const ClothModel& model, int substepCount, float damping) const {
  kernels::ClothStepParams p{};
  p.gravity = glm::vec4(gravity, 0.0f);
  p.dt = frameDt / float(substepCount);
  p.velocityDamping = damping;
  p.friction = friction;
  p.contactOffset = contactOffset;
  p.vertexCount = std::uint32_t(model.vertexCount());
  p.maxSpeed = maxSpeed;
  p.springCount = std::uint32_t(model.springs.size());
  p.hingeCount = std::uint32_t(model.hinges.size());
  p.compressionScale = compressionScale;
  p.extensionScale = extensionScale;
  p.tensionExponent = tensionExponent;
  p.yieldStrain = yieldStrain;
  p.yieldAngle = yieldAngle;
  p.plasticRate = plasticRate;
  p.useContacts = 0u;
  p.colliderCount = std::uint32_t(colliderRecords().size());
  return p;
}

std::vector<kernels::ClothCollider> ClothSettings::colliderRecords() const {
  return colliders.records(friction, sphereTreeSearchRadius());
}

StepStatus ClothSolver::advanceFrame(int substeps, float velocityDamping) {
  m_continuousStatus = Status::success();
  ContinuousCollision* continuous = m_settings.continuousCollision.get();
  StepStatus status = StepStatus::Ok;
  if (!continuous) {
    status = advance(substeps, velocityDamping, 0, substeps);
  } else {
    // Continuous collision after each of passesPerFrame() runs of substeps (not after
    // every substep by default): it needs the state on the host, a readback on the GPU,
    // and a batch of radars per pass.
    const int passes = std::clamp(continuous->passesPerFrame(), 1, substeps);
    const float substepDt = m_settings.frameDt / float(substeps);
    ClothState before = readState();  // then each pass's end, as resolved: one readback per pass
    for (int pass = 0, done = 0; pass < passes; ++pass) {
      const int count = substeps * (pass + 1) / passes - done;
      done += count;
      status = advance(substeps, velocityDamping, done - count, count);
      if (any(status)) break;
      ClothState after = readState();
      bool changed = false;
      m_continuousStatus = continuous->resolve(before, after, substepDt * float(count), changed);
      if (!m_continuousStatus) break;
      if (changed) writeState(after);
      before = std::move(after);
    }
  }
  // Only with depth views: tried with boxes and sphere trees too (a table's edges poke
  // between cloth vertices), the per-frame push made tablecloth_on_props.json unstable.
  if (!any(status) && m_settings.featureContacts && hasBodyViews()) resolveBodyFeatures();
  return status;
}

StepStatus ClothSolver::step() {
  // After a retry the finer substep stays: a step that only just passed at the
  // coarser one usually leaves high-frequency energy that fails the next frame.
  int substeps = std::max(m_settings.substeps, m_lastSubsteps);
  if (m_settings.maxSubstepHalvings == 0) {
    m_lastSubsteps = substeps;
    return advanceFrame(substeps, m_settings.velocityDamping);
  }
  const ClothState before = readState();
  StepStatus status = StepStatus::Ok;
  const int finest = m_settings.substeps << m_settings.maxSubstepHalvings;
  for (bool first = true; substeps <= finest; substeps *= 2, first = false) {
    if (!first) writeState(before);
    m_lastSubsteps = substeps;
    status = advanceFrame(substeps, m_settings.velocityDamping);
    if (!any(status)) break;
  }
  return status;
}

RelaxReport ClothSolver::relaxToRest(float speedThreshold, int maxIterations) {
  RelaxReport report;
  ClothState previous = readState();
  double previousKinetic = 0.0;
  while (report.iterations < maxIterations) {
    report.status = step();
    report.iterations += m_lastSubsteps;
    if (any(report.status)) break;
    ClothState current = readState();
    double kinetic = 0.0;
    float largest = 0.0f;
    for (std::size_t i = 0; i < current.positions.size(); ++i) {
      const float w = current.positions[i].w;
      if (w > 0.0f)
        kinetic +=
            0.5 / double(w) * double(glm::dot(glm::vec3(current.velocities[i]), glm::vec3(current.velocities[i])));
      largest = std::max(largest, glm::distance(glm::vec3(current.positions[i]), glm::vec3(previous.positions[i])));
    }
    report.maxSpeed = largest / m_settings.frameDt;
    if (report.maxSpeed < speedThreshold) {
      report.converged = true;
      break;
    }
    if (kinetic < previousKinetic) {  // past a kinetic-energy peak: take the energy out
      for (std::size_t i = 0; i < current.velocities.size(); ++i)
        if (current.positions[i].w > 0.0f) current.velocities[i] = glm::vec4(0.0f);
      writeState(current);
      kinetic = 0.0;
    }
    previousKinetic = kinetic;
    previous = std::move(current);
  }
  return report;
}

std::optional<FastestVertex> fastestVertex(const ClothState& state) {
  std::optional<FastestVertex> fastest;
  for (std::size_t i = 0; i < state.positions.size() && i < state.velocities.size(); ++i) {
    const glm::vec3 x(state.positions[i]), v(state.velocities[i]);
    const bool finite = std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z) && std::isfinite(v.x) &&
                        std::isfinite(v.y) && std::isfinite(v.z);
    const float speed = glm::length(v);
    if (!finite) return FastestVertex{i, false, x, speed};
    if (!fastest || speed > fastest->speed) fastest = FastestVertex{i, true, x, speed};
  }
  return fastest;
}

std::string describe(const FastestVertex& vertex, const std::string& piece) {
  std::string name = "vertex " + std::to_string(vertex.index);
  if (!piece.empty()) name += " (" + piece + ")";
  if (!vertex.finite) return name + " is not finite";
  char text[128];
  std::snprintf(text, sizeof text, " at (%.3f, %.3f, %.3f) m, %.1f m/s", double(vertex.position.x),
                double(vertex.position.y), double(vertex.position.z), double(vertex.speed));
  return name + text;
}

ClothState restState(const ClothModel& model) {
  return {model.restPositions, std::vector<glm::vec4>(model.vertexCount(), glm::vec4(0.0f))};
}

std::uint64_t stateHash(const ClothState& state) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&](const std::vector<glm::vec4>& values) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
    for (std::size_t i = 0; i < values.size() * sizeof(glm::vec4); ++i) {
      hash ^= bytes[i];
      hash *= 1099511628211ull;
    }
  };
  mix(state.positions);
  mix(state.velocities);
  return hash;
}

}  // namespace hg
