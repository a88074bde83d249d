#pragma once
/// The cloth solver interface shared by the CPU reference backend (sim/cpu) and the
/// GPU backend (sim/gpu). Both run the same per-element kernels (sim/kernels) in the
/// same order; tests cross-check them with tolerances.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/ClothColliders.h"
#include "sim/cloth/ClothModel.h"
#include "sim/cloth/SelfContact.h"
#include "sim/core/Backend.h"
#include "sim/core/Result.h"
#include "sim/core/StepStatus.h"

namespace hg {

struct ClothState;

/// Continuous collision between the start and the end of a step() (e.g. radar sweeps of
/// cloth patches against the body, sim/radar/ClothSweep.h; docs/methods.md section 3): the
/// discrete contacts of the substeps only see where a vertex is, so a vertex travelling
/// farther than an obstacle's thickness within one substep passes through it (tunnels).
/// An implementation sees the state before and after the step and pulls motion that
/// crossed an obstacle back to the time of impact. Works with any backend: the solver
/// hands it states through readState/writeState (a readback on the GPU).
class ContinuousCollision {
 public:
  virtual ~ContinuousCollision() = default;
  /// `before`: the state at the start of the step; `after`: at its end, `dt` seconds
  /// later (positions m, velocities m/s), changed in place. Sets `changed` when it moved
  /// or slowed a vertex. Error: the detection itself failed (e.g. a GL error).
  virtual Status resolve(const ClothState& before, ClothState& after, float dt, bool& changed) = 0;
  /// How many times per frame resolve() runs: the frame's substeps are split into this many
  /// runs (as even as the substep count allows), each followed by a pass over its motion.
  /// More passes see shorter motion (a vertex passing beside an obstacle is held back with
  /// its neighbour that hits it, instead of falling a whole frame past it) at a readback
  /// and a pass each.
  virtual int passesPerFrame() const { return 1; }
};

/// The time integrator of a cloth solver.
enum class ClothIntegrator {
  /// Explicit symplectic Euler with substeps (sim/cloth/CpuClothSolver.cpp): exact for
  /// every force, needs substeps below ~2/omega of the stiffest spring.
  SymplecticEuler,
  /// Projective dynamics / fast mass-spring (Liu et al. 2013, Bouaziz et al. 2014),
  /// local/global iterations solved by Jacobi with Chebyshev acceleration (Wang 2015):
  /// stays stable at large steps for stiff cloth; runs on the GPU.
  ProjectiveJacobi,
};

/// Where a projective solver takes the bending hinges (ClothSettings::bending).
enum class BendingScheme {
  /// A force evaluated once at the start of each substep (kernels/bending.glslh): stiff
  /// bending, or a triangle squashed flat, needs small substeps.
  Explicit,
  /// A constraint of the global solve (kernels/projective_bending.glslh: the quadratic
  /// hinge of Bergou et al. 2006): stable at any stiffness and step. ProjectiveJacobi only.
  Implicit,
};

std::string_view integratorName(ClothIntegrator integrator);
/// "symplectic_euler" or "projective_jacobi"; error otherwise.
Result<ClothIntegrator> parseIntegrator(std::string_view name);
/// "explicit" or "implicit"; error otherwise.
Result<BendingScheme> parseBendingScheme(std::string_view name);

std::string_view backendName(Backend backend);
/// "cpu" or "gpu" (case-sensitive); error otherwise.
Result<Backend> parseBackend(std::string_view name);

/// ClothSettings::substeps = 0 asks for the count to be chosen (sim/cloth/StableStep.h):
/// the explicit integrator's stable count, or this many for the projective one.
inline constexpr int kProjectiveAutoSubsteps = 40;

/// Run-time settings of a cloth simulation (SI units).
struct ClothSettings {
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
  float frameDt = 1.0f / 60.0f;           ///< s advanced by one step() call
  /// Substeps per step(); substep = frameDt / substeps. 0: chosen when the solver is made
  /// (the explicit integrator's stable count, sim/cloth/StableStep.h).
  int substeps = 40;
  float velocityDamping = 0.2f;  ///< 1/s, dv/dt = -c v (air drag stand-in)
  float friction = 0.4f;         ///< Coulomb mu at colliders
  float contactOffset = 0.005f;  ///< m kept between cloth and colliders
  /// Spheres, ground planes, the body (distance grid, depth views), boxes and sphere
  /// trees (sim/cloth/ClothColliders.h); a ground plane at y = 0 unless changed.
  ClothColliders colliders = ClothColliders::groundOnly();
  /// With body depth views: after every step() also sample the colliders (contactAt,
  /// boxes and sphere trees included) at the midpoints of
  /// the cloth's edges and the centroids of its triangles, and move the vertices of an
  /// element a collider pokes through out of it (kernels/cloth_vertex.glslh).
  bool featureContacts = true;
  /// Self and cloth-cloth contact after every substep (sim/cloth/SelfContact.h); off by
  /// default; the CPU backend only so far.
  SelfContactSettings selfContact;
  /// Continuous collision after every step() (before the feature pass), or none (the
  /// default): see ContinuousCollision. Shared, not copied, by the solvers given these
  /// settings.
  std::shared_ptr<ContinuousCollision> continuousCollision;
  float maxSpeed = 50.0f;  ///< m/s; faster flags StepStatus::SpeedLimitExceeded
  int threads = 0;         ///< CPU backend: OpenMP threads (0 = default)
  ClothIntegrator integrator = ClothIntegrator::SymplecticEuler;
  int solverIterations = 20;                        ///< ProjectiveJacobi: Jacobi iterations per substep
  float chebyshevRho = 0.9f;                        ///< ProjectiveJacobi: spectral radius estimate (0: no acceleration)
  BendingScheme bending = BendingScheme::Explicit;  ///< Implicit needs ProjectiveJacobi

  // Tension law (docs/methods.md section 1): compression f = k a L |e|^n, extension f = k b L e^n.
  float compressionScale = 1.0f;  ///< a
  float extensionScale = 1.0f;    ///< b
  float tensionExponent = 1.0f;   ///< n: 1 Hookean (default), 2 the source's form

  // Plasticity (off by default): rest lengths / angles creep toward the current shape
  // at plasticRate (1/s) where strain exceeds yieldStrain or bend exceeds yieldAngle.
  float plasticRate = 0.0f;
  float yieldStrain = 0.02f;
  float yieldAngle = 0.2f;  ///< rad

  /// On an unstable step (NaN, speed limit), restore the state and retry with twice
  /// the substeps, at most this many times (0: report only). Plastic rest lengths
  /// changed during the failed attempt are not restored.
  int maxSubstepHalvings = 0;

  /// Checks ranges; the error names the offending setting.
  Status validate() const;
  /// The search radius of the sphere-tree contacts, m: 2 contactOffset + 1 mm. A contact
  /// acts only where the gap is below contactOffset (kernels resolveContact), so every
  /// leaf that matters lies within it; the margin keeps the gap of near misses for the
  /// deepest-contact choice. Smaller radii prune more nodes.
  float sphereTreeSearchRadius() const { return 2.0f * largestContactOffset() + 1e-3f; }
  /// m kept between each vertex and the colliders: contactOffset, and with self contact
  /// and several layers (selfContact.layerOfVertex) selfContact.layerOffset more per layer
  /// below the vertex's (the k-th layer from the inside, k = 0, 1, ...: contactOffset +
  /// k layerOffset), so that the layers stack on the body a cloth thickness apart instead
  /// of an outer layer pressing an inner one into the body's contact.
  std::vector<float> bodyContactOffsets(std::size_t vertexCount) const;
  /// The largest of bodyContactOffsets (m).
  float largestContactOffset() const;
  /// The colliders' records with this friction and search radius (ClothColliders::records).
  std::vector<kernels::ClothCollider> colliderRecords() const;
  /// The kernel parameters of one substep for a model.
  kernels::ClothStepParams stepParams(const ClothModel& model, int substepCount, float damping) const;
};

/// Positions (xyz m, w inverse mass) and velocities (xyz m/s) of every vertex;
/// the layout of the GPU buffers, so transfers are memcpy.
struct ClothState {
  std::vector<glm::vec4> positions;
  std::vector<glm::vec4> velocities;
};

/// The rest state of a model (zero velocities).
ClothState restState(const ClothModel& model);

/// Where a state went wrong, for the message of an unstable step: the first vertex whose
/// position or velocity is not finite, else the fastest one.
struct FastestVertex {
  std::size_t index = 0;
  bool finite = true;
  glm::vec3 position{0.0f};  ///< m
  float speed = 0.0f;        ///< m/s
};
/// None when the state has no vertex.
std::optional<FastestVertex> fastestVertex(const ClothState& state);
/// "vertex 12 at (x, y, z) m, 63.2 m/s" or "vertex 12 is not finite"; `piece` (a garment's
/// name), when given, follows the index in parentheses.
std::string describe(const FastestVertex& vertex, const std::string& piece = {});

/// Result of a drape-to-rest relaxation.
struct RelaxReport {
  int iterations = 0;      ///< substeps taken
  float maxSpeed = 0.0f;   ///< m/s, largest vertex speed (frame displacement / frameDt) at the end
  bool converged = false;  ///< maxSpeed fell below the threshold
  StepStatus status = StepStatus::Ok;
};

class ClothSolver {
 public:
  virtual ~ClothSolver() = default;
  virtual Backend backend() const = 0;
  const ClothModel& model() const { return *m_model; }
  const ClothSettings& settings() const { return m_settings; }

  /// Advances by settings().frameDt in settings().substeps substeps. Returns the
  /// anomalies seen. With maxSubstepHalvings > 0 an unstable step is retried from
  /// the same state with 2x, 4x ... substeps; otherwise the state is advanced
  /// regardless and the caller decides.
  StepStatus step();
  /// Substeps used by the last step() (more than settings().substeps after a retry).
  int lastSubsteps() const { return m_lastSubsteps; }

  /// Drape-to-rest: the quasi-static shape (the KAKENHI report's relaxed "force into displacement")
  /// by dynamic relaxation with kinetic damping (Day 1965; Barnes 1999): frames of the
  /// dynamic solver, and whenever the kinetic energy passes a peak all velocities are
  /// zeroed, until the largest vertex speed over a frame falls below `speedThreshold`
  /// (m/s) or `maxIterations` substeps. Contacts and friction act as in step().
  RelaxReport relaxToRest(float speedThreshold = 1e-3f, int maxIterations = 2000000);

  /// Moves pinned vertices (inverse mass 0) to new positions, e.g. along an animation;
  /// their velocity becomes (target - current) / frameDt for the spring damping.
  virtual void setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) = 0;
  /// Replaces the colliders (e.g. the body's next pose along an animation). The next
  /// step() collides with them; the GPU backend uploads what changed.
  virtual void setColliders(ClothColliders colliders) {
    m_settings.colliders = std::move(colliders);
    m_colliderRecords = m_settings.colliderRecords();
  }
  /// Replaces the continuous collision pass (null: none); the next step() uses it.
  void setContinuousCollision(std::shared_ptr<ContinuousCollision> pass) {
    m_settings.continuousCollision = std::move(pass);
  }
  /// The error of the last step()'s continuous collision pass (success when it ran well
  /// or there is none); that step's state is then left as the substeps made it.
  const Status& continuousCollisionStatus() const { return m_continuousStatus; }
  /// Copies the current state out. On the GPU this is a synchronous readback (slow:
  /// call it per frame for output, not per substep).
  virtual ClothState readState() const = 0;
  /// Replaces the current state (sizes must match the model).
  virtual void writeState(const ClothState& state) = 0;
  /// The springs as the solver holds them: stiffness after the anisotropy texture
  /// (sampled on the GPU by the GPU backend) and rest lengths after plastic creep.
  virtual std::vector<kernels::ClothSpring> readSprings() const = 0;
  /// The hinges as the solver holds them (rest angles after plastic creep).
  virtual std::vector<kernels::ClothHinge> readHinges() const = 0;
  /// With self contact (settings().selfContact): how the untangling went; else none.
  virtual std::optional<SelfContactReport> selfContactReport() const { return std::nullopt; }

 protected:
  ClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : m_model(std::move(model)), m_settings(settings), m_colliderRecords(settings.colliderRecords()) {}
  /// Runs substeps first .. first + count - 1 of a frame of `substeps` substeps of
  /// frameDt / substeps with the given velocity damping (all of a frame when first == 0
  /// and count == substeps; a part of it between two continuous collision passes).
  virtual StepStatus advance(int substeps, float velocityDamping, int first, int count) = 0;
  /// ClothStepParams::bodyLag of substep `index` (0-based) of a frame of `substeps`: the
  /// time from its end to the frame's end, where the body's colliders stand.
  static float bodyLagOf(const kernels::ClothStepParams& params, int substeps, int index) {
    return float(substeps - 1 - index) * params.dt;
  }
  /// Whether the thin-feature pass runs after a substep `bodyLag` s before the frame's
  /// end: always for a still body; for a moving one after the frame's last substep only,
  /// where its body-vertex grid stands (earlier, the end pose's vertices sit up to a
  /// frame's motion ahead of the body and pushed the cloth they had not reached: a
  /// kick every frame that a walking avatar's skirt rang up to 10 m/s).
  bool thinFeaturesAfter(float bodyLag) const { return !m_settings.colliders.bodyMoves || bodyLag == 0.0f; }
  /// The per-frame feature pass (settings().featureContacts) when the body is seen
  /// through depth views: edge midpoints and triangle centroids inside the body move
  /// their vertices out.
  virtual void resolveBodyFeatures() = 0;
  /// Whether resolveBodyFeatures() has work: featureContacts and depth views.
  virtual bool hasBodyViews() const { return m_settings.colliders.depthViewCount() > 0; }

  std::shared_ptr<const ClothModel> m_model;
  ClothSettings m_settings;
  std::vector<kernels::ClothCollider> m_colliderRecords;  ///< m_settings.colliderRecords()
  int m_lastSubsteps = 0;

 private:
  /// advance(), the continuous collision pass and the feature pass when the step went well.
  StepStatus advanceFrame(int substeps, float velocityDamping);
  Status m_continuousStatus;
};

/// 64-bit FNV-1a hash of the state's bytes: pinned per scene for the CPU backend
/// (printed by `hagoromo drape`), so behaviour changes are noticed on purpose.
std::uint64_t stateHash(const ClothState& state);

}  // namespace hg
