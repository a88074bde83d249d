#include "sim/skinning/ParticleSkinning.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_access.hpp>
#include <glm/mat3x3.hpp>

#include "sim/core/Finite.h"

namespace hg {

// ---- CPU backend ------------------------------------------------------------------------

namespace {

class CpuParticleSkinner final : public ParticleSkinner {
 public:
  CpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model, int threads)
      : ParticleSkinner(std::move(model)), m_threads(threads > 0 ? threads : omp_get_max_threads()) {
    reset();
  }

  Backend backend() const override { return Backend::Cpu; }

  void reset() override {
    const ParticleSkinModel& model = *m_model;
    const std::size_t n = model.particleCount();
    m_x.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_x[i] = glm::vec3(model.particles[i].position);
    m_v.assign(n, glm::vec3(0.0f));
    m_a.assign(n, glm::vec3(0.0f));
    m_halfVelocity.assign(n, glm::vec3(0.0f));
    m_vPrevious.assign(n, glm::vec3(0.0f));
    m_aPrevious.assign(n, glm::vec3(0.0f));
    m_rotations.assign(n, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    m_target = m_x;
    m_targetVelocity.assign(n, glm::vec3(0.0f));
    m_boneRotations.assign(model.body->skeleton.size(), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    m_started = false;
    m_haveHistory = false;
    m_accelerationValid = false;
    m_steps = 0;
  }

  Status advance(const Pose& pose, int steps) override {
    const ParticleSkinModel& model = *m_model;
    const Skeleton& skeleton = model.body->skeleton;
    if (pose.size() != skeleton.size())
      return Error{"particle skinning: pose has " + std::to_string(pose.size()) + " joints, the skeleton " +
                   std::to_string(skeleton.size())};
    if (steps < 0) return Error{"particle skinning: negative step count"};
    const std::vector<glm::mat4> matrices = skinningMatrices(skeleton, pose);
    for (std::size_t j = 0; j < matrices.size(); ++j)
      for (int c = 0; c < 4; ++c)
        if (!allFinite(matrices[j][c]))
          return Error{"particle skinning: pose gives a non-finite matrix for joint '" + skeleton.joints[j].name + "'"};
    ParticleTargets targets = particleTargets(model, matrices);
    const float frameTime = float(std::max(steps, 1)) * model.settings.timeStep;
    for (std::size_t i = 0; i < m_x.size(); ++i) {
      const glm::vec3 t(targets.positions[i]);
      m_targetVelocity[i] = (t - m_target[i]) / frameTime;
      m_target[i] = t;
    }
    m_boneRotations = std::move(targets.boneRotations);
    m_accelerationValid = false;  // the targets changed
    for (int s = 0; s < steps; ++s) step();
    m_steps += steps;
    // Divergence: a non-finite state or a particle far from its target.
    const float limit = 10.0f * diagonal();
    for (std::size_t i = 0; i < m_x.size(); ++i)
      if (!allFinite(m_x[i]) || !allFinite(m_v[i]) || glm::length(m_x[i] - m_target[i]) > limit)
        return simulationError("particle skinning diverged at step " + std::to_string(m_steps) + " (particle " +
                               std::to_string(i) + "): lower time_step (now " +
                               std::to_string(model.settings.timeStep) + " s) or the stiffnesses");
    // A new pose sets a new target velocity; a held pose then has none.
    std::fill(m_targetVelocity.begin(), m_targetVelocity.end(), glm::vec3(0.0f));
    return Status::success();
  }

  ParticleState readParticles() const override {
    ParticleState state;
    const std::size_t n = m_x.size();
    state.positions.resize(n);
    state.velocities.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      state.positions[i] = glm::vec4(m_x[i], m_model->particles[i].position.w);
      state.velocities[i] = glm::vec4(m_v[i], 0.0f);
    }
    state.rotations = m_rotations;
    return state;
  }

  Result<SkinnedSurface> surface() override {
    const ParticleSkinModel& model = *m_model;
    const std::size_t n = m_x.size();
    const bool local = model.settings.surfaceFrame == SurfaceFrame::Local;
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      if (!local) {
        m_rotations[i] = m_boneRotations[model.particles[i].bone.x];
        continue;
      }
      glm::mat3 a(0.0f);
      const glm::vec3 restI(model.particles[i].position);
      for (std::uint32_t k = model.linkOffsets[i]; k < model.linkOffsets[i + 1]; ++k) {
        const std::uint32_t j = model.links[k].neighbour;
        a += glm::outerProduct(m_x[j] - m_x[i], glm::vec3(model.particles[j].position) - restI);
      }
      m_rotations[i] = kernels::extractRotation(a, m_rotations[i], kRotationIterations);
    }
    const std::vector<kernels::VertexBinding>& bindings = model.bindings;
    SkinnedSurface out;
    out.positions.resize(bindings.size());
#pragma omp parallel for schedule(static) num_threads(m_threads) if (bindings.size() >= 2048)
    for (std::size_t v = 0; v < bindings.size(); ++v) {
      const kernels::VertexBinding& b = bindings[v];
      const glm::vec4 offsets[4] = {b.offset0, b.offset1, b.offset2, b.offset3};
      glm::vec3 p(0.0f);
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t i = b.particles[k];
        p += b.weights[k] * kernels::surfaceVote(m_x[i], m_rotations[i], glm::vec3(offsets[k]));
      }
      out.positions[v] = glm::vec4(p, 1.0f);
    }
    out.normals = surfaceNormals(out.positions, model.body->mesh.indices);
    return out;
  }

  /// Iterations of the rotation extraction per surface() (warm-started).
  static constexpr int kRotationIterations = 32;

 private:
  float diagonal() const {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec3& x : m_model->body->mesh.positions) {
      lo = glm::min(lo, x);
      hi = glm::max(hi, x);
    }
    return glm::length(hi - lo);
  }

  /// a = f(x, v) for every particle: the link forces (a, b) over the mass plus the
  /// bone terms (c, d). Gathers over the CSR links in a fixed order.
  void evaluate(const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& v, std::vector<glm::vec3>& a) const {
    const ParticleSkinModel& model = *m_model;
    const ParticleSkinSettings& settings = model.settings;
    const std::size_t n = x.size();
    a.resize(n);
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) {
      glm::vec3 force(0.0f);
      for (std::uint32_t k = model.linkOffsets[i]; k < model.linkOffsets[i + 1]; ++k) {
        const kernels::ParticleLink& link = model.links[k];
        force += kernels::particlePairForce(x[i], v[i], x[link.neighbour], v[link.neighbour], link);
      }
      a[i] = force * model.particles[i].mass.y +
             kernels::particleBoneAcceleration(x[i], v[i], m_target[i], m_targetVelocity[i], settings.boneStiffness,
                                               settings.boneDamping, model.particles[i].mass.z);
    }
  }

  template <class F>
  void forEachParticle(F&& f) {
    const std::size_t n = m_x.size();
#pragma omp parallel for schedule(static) num_threads(m_threads) if (n >= 2048)
    for (std::size_t i = 0; i < n; ++i) f(i);
  }

  void step() {
    const ParticleSkinSettings& settings = m_model->settings;
    const float dt = settings.timeStep;
    switch (settings.integrator) {
      case ParticleIntegrator::ImprovedEuler:
        heunStep(dt);
        break;
      case ParticleIntegrator::Adams: {
        if (!m_haveHistory) {  // the start: one Heun step, keeping (v0, a0) as history
          heunStep(dt);
          m_haveHistory = true;
          break;
        }
        if (!m_accelerationValid) evaluate(m_x, m_v, m_a);
        m_x0 = m_x;
        m_v0 = m_v;
        m_xs = m_x;
        m_vs = m_v;
        forEachParticle([&](std::size_t i) {
          kernels::adamsPredict(m_xs[i], m_vs[i], m_v0[i], m_a[i], m_vPrevious[i], m_aPrevious[i], dt);
        });
        for (int pass = 0; pass <= settings.iterations; ++pass) {
          evaluate(m_xs, m_vs, m_as);
          forEachParticle(
              [&](std::size_t i) { kernels::adamsCorrect(m_xs[i], m_vs[i], m_x0[i], m_v0[i], m_a[i], m_as[i], dt); });
        }
        m_vPrevious = m_v0;
        m_aPrevious = m_a;
        m_x.swap(m_xs);
        m_v.swap(m_vs);
        evaluate(m_x, m_v, m_a);  // the final E of PECE, reused by the next step
        m_accelerationValid = true;
        break;
      }
      case ParticleIntegrator::Leapfrog: {
        if (!m_started) {  // the Euler start: v_{1/2} = v_0 + dt/2 a_0
          evaluate(m_x, m_v, m_a);
          forEachParticle([&](std::size_t i) { m_halfVelocity[i] = kernels::leapfrogVelocity(m_v[i], m_a[i], dt); });
          m_started = true;
        }
        forEachParticle([&](std::size_t i) {
          m_x[i] = kernels::leapfrogDrift(m_x[i], m_halfVelocity[i], dt);
          m_v[i] = kernels::leapfrogVelocity(m_halfVelocity[i], m_a[i], dt);  // estimate from the last a
        });
        for (int pass = 0; pass <= settings.iterations; ++pass) {
          evaluate(m_x, m_v, m_a);
          forEachParticle([&](std::size_t i) { m_v[i] = kernels::leapfrogVelocity(m_halfVelocity[i], m_a[i], dt); });
        }
        forEachParticle(
            [&](std::size_t i) { m_halfVelocity[i] = kernels::leapfrogKick(m_halfVelocity[i], m_a[i], dt); });
        break;
      }
    }
  }

  void heunStep(float dt) {
    evaluate(m_x, m_v, m_a);
    m_x0 = m_x;
    m_v0 = m_v;
    m_xs = m_x;
    m_vs = m_v;
    forEachParticle([&](std::size_t i) { kernels::heunPredict(m_xs[i], m_vs[i], m_a[i], dt); });
    evaluate(m_xs, m_vs, m_as);
    forEachParticle(
        [&](std::size_t i) { kernels::heunCorrect(m_x[i], m_v[i], m_x0[i], m_v0[i], m_a[i], m_vs[i], m_as[i], dt); });
    m_vPrevious = m_v0;
    m_aPrevious = m_a;
    m_accelerationValid = false;
  }

  int m_threads;
  std::vector<glm::vec3> m_x, m_v, m_a;                 // state and its acceleration
  std::vector<glm::vec3> m_x0, m_v0, m_xs, m_vs, m_as;  // step start, stage state and acceleration
  std::vector<glm::vec3> m_halfVelocity;                // leapfrog v_{n+1/2}
  std::vector<glm::vec3> m_vPrevious, m_aPrevious;      // Adams history
  std::vector<glm::vec3> m_target, m_targetVelocity;
  std::vector<glm::vec4> m_rotations, m_boneRotations;
  bool m_started = false, m_haveHistory = false, m_accelerationValid = false;
};

}  // namespace

Result<std::unique_ptr<ParticleSkinner>> createCpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model,
                                                                  int threads) {
  if (!model) return Error{"particle skinning: no model"};
  if (threads < 0) return Error{"particle skinning: negative thread count"};
  return std::unique_ptr<ParticleSkinner>(std::make_unique<CpuParticleSkinner>(std::move(model), threads));
}

}  // namespace hg
