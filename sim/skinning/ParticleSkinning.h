#pragma once
/// Adaptive-radius particle skinning (docs/methods.md section
/// 4): the mesh is filled with particles of several radii (ParticleFill.h), each
/// particle follows one bone through a spring to the bone-transformed rest position and
/// interacts with its neighbours of the initial packing through springs and dampers; the
/// equations of motion are integrated with improved Euler, Adams predictor-corrector or
/// the source's extended leapfrog; every surface vertex is rebuilt from its four nearest
/// particles. Unlike vertex blending (LBS, DQS: BodySkinner.h) the particles form an
/// elastic solid, so a bent joint keeps its volume and a twisted one its radius (no
/// "candy wrapper").
///
/// Split (house style): ParticleSkinModel is the immutable, shared setup (particles,
/// bones, links, vertex bindings, settings); a ParticleSkinner backend holds the run-time
/// state. Backends: CpuParticleSkinner (here; OpenMP, bitwise identical for any thread
/// count) and the GPU one (sim/gpu/GpuParticleSkinner.h), cross-checked by tests.
///
/// Limitations: one bone per particle (a particle between two bones follows the
/// nearest); the joint's elasticity is set by springStiffness / boneStiffness, so a soft
/// solid spreads a bend or twist over a longer zone than the skin weights would; the
/// surface is rebuilt from particle offsets, so features smaller than the finest
/// particle spacing move with their particles rigidly. Units: metres, seconds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec4.hpp>

#include "sim/body/Skeleton.h"
#include "sim/core/Backend.h"
#include "sim/core/Result.h"
#include "sim/kernels/Kernels.h"
#include "sim/skinning/BodySkinner.h"  // SkinnedSurface
#include "sim/skinning/ParticleFill.h"

namespace hg {

/// The integrators compared by the source (section 4, "Integration").
enum class ParticleIntegrator {
  ImprovedEuler,  ///< Heun: Euler predictor, trapezoidal corrector; 2 evaluations a step
  Adams,          ///< Adams-Bashforth 2 predictor, Adams-Moulton 2 corrector (PECE), Heun start; 1 + 1 a step
  Leapfrog,       ///< leapfrog (kick-drift-kick) extended with an Euler half-step start; 1 a step
};
std::string_view particleIntegratorName(ParticleIntegrator integrator);  ///< "improved_euler", "adams", "leapfrog"
Result<ParticleIntegrator> parseParticleIntegrator(std::string_view name);

/// How a particle is given its bone.
enum class BoneAssignment {
  Segment,  ///< the nearest bone segment (joint to child joint; a leaf to its skin's far end)
  Obb,  ///< the nearest bone proxy: an OBB in the joint's frame around the vertices it dominates (section 7's distance)
};
std::string_view boneAssignmentName(BoneAssignment assignment);  ///< "segment", "obb"
Result<BoneAssignment> parseBoneAssignment(std::string_view name);

/// How strongly each particle is pulled toward its bone (the forces c, d).
enum class BoneAttachment {
  Uniform,      ///< every particle fully (the source)
  SkinWeights,  ///< by the skin weight of its bone near it: loose where the skin blends bones
};
std::string_view boneAttachmentName(BoneAttachment attachment);  ///< "uniform", "skin_weights"
Result<BoneAttachment> parseBoneAttachment(std::string_view name);

/// Where the bone force (section 4 c) pulls a particle.
enum class BoneTarget {
  Bone,            ///< its rest position moved rigidly with its one bone, S_bone X (the source)
  DualQuaternion,  ///< its rest position skinned by dual quaternions with the skin weights at
                   ///< the particle (averaged over its four nearest surface vertices): rigid
                   ///< away from joints, a smooth volume-keeping blend across them
};
std::string_view boneTargetName(BoneTarget target);  ///< "bone", "dual_quaternion"
Result<BoneTarget> parseBoneTarget(std::string_view name);

/// The rotation that turns a particle's rest offset to a surface vertex.
enum class SurfaceFrame {
  Bone,   ///< the particle's bone rotation (the source)
  Local,  ///< its neighbourhood's rotation (extractRotation in particle_skinning.glslh): follows twists inside a joint
          ///< zone
};
std::string_view surfaceFrameName(SurfaceFrame frame);  ///< "bone", "local"
Result<SurfaceFrame> parseSurfaceFrame(std::string_view name);

/// How the four particle votes of a vertex are averaged.
enum class SurfaceWeights {
  Average,          ///< 1/4 each (the source)
  InverseDistance,  ///< proportional to 1 / (rest distance + 0.1 radius)
};
std::string_view surfaceWeightsName(SurfaceWeights weights);  ///< "average", "inverse_distance"
Result<SurfaceWeights> parseSurfaceWeights(std::string_view name);

struct ParticleSkinSettings {
  ParticleFillSettings fill;
  BoneAssignment boneAssignment = BoneAssignment::Segment;
  /// Interaction range: particles i, j interact when their rest gap |X_j - X_i| - r_i - r_j
  /// is below interactionGap * min(r_i, r_j) (2: no third particle fits between them,
  /// the source's rule; in closest packing the first three neighbour shells, 42 links).
  float interactionGap = 2.0f;
  /// Distance spring of two finest particles, 1/s^2 (per unit of their mass); a pair's
  /// k_ij scales with its mean radius over the finest (a continuum's stiffness).
  float springStiffness = 500.0f;
  /// Relative-velocity damper of two finest particles, 1/s; c_ij scales as sqrt(k_ij mu_ij)
  /// (mu: the pair's reduced mass), a constant damping ratio (particleLinkCoefficients).
  float springDamping = 4.0f;
  /// Pull toward the bone target (boneTarget), 1/s^2 (per unit mass). The bones must win
  /// over the springs: with the defaults (bone 4000 against springs of 500 on about 42
  /// links) the limbs follow their bones within millimetres while the solid evens out
  /// the joint; springs 640 times the pull (the old 16000 / 25) left a 2 m limb bent
  /// 90 degrees by its skeleton far straighter, its rigid part up to 0.39 m off its bone.
  float boneStiffness = 4000.0f;
  /// Damping of the velocity relative to that point, 1/s.
  float boneDamping = 20.0f;
  /// Attachment of each particle to its bone (scales boneStiffness and boneDamping):
  /// Uniform pulls every particle fully (the source). SkinWeights gives a = clamp((w - t)
  /// / (1 - t), 0, 1), w = the weight of the particle's bone at its four nearest surface
  /// vertices, t = attachmentThreshold in [0, 1): particles where the skin is blended
  /// (w near 1/2) only follow their neighbours; the loose joint then bends as an arc that
  /// cuts the corner, shorter than the limb, and loses volume (0.90 at a 90-degree bend).
  BoneAttachment attachment = BoneAttachment::Uniform;
  float attachmentThreshold = 0.5f;
  /// Where the bone force pulls (see BoneTarget). DualQuaternion by default: with one
  /// rigid bone per particle (the source) the particles of two bones are pulled apart
  /// across the border between them, and a 180-degree twist wrings the joint to 0.35 of
  /// its radius (measured on the twist_cylinder rig).
  BoneTarget boneTarget = BoneTarget::DualQuaternion;
  ParticleIntegrator integrator = ParticleIntegrator::Leapfrog;
  /// Extra corrector passes per step (Adams, leapfrog; 0..100, the source's cap).
  int iterations = 0;
  /// Integration step (s).
  float timeStep = 1.0f / 480.0f;
  SurfaceFrame surfaceFrame = SurfaceFrame::Local;
  SurfaceWeights surfaceWeights = SurfaceWeights::Average;
  /// Error naming the setting if one is out of range.
  Status validate() const;
};

/// The immutable setup shared by the backends.
struct ParticleSkinModel {
  std::shared_ptr<const SkinnedMesh> body;
  ParticleSkinSettings settings;
  ParticleFill fill;
  std::vector<kernels::ParticleRest> particles;  ///< N
  std::vector<std::uint32_t> linkOffsets;        ///< N + 1, CSR into links
  std::vector<kernels::ParticleLink> links;      ///< neighbours of each particle, ascending index
  std::vector<kernels::VertexBinding> bindings;  ///< one per mesh vertex
  float finestRadius = 0.0f;                     ///< m
  std::size_t particleCount() const { return particles.size(); }
};

/// Fills the body's mesh, assigns bones, finds the interacting pairs (uniform grid) and
/// binds every vertex to its four nearest particles. Error naming the problem (invalid
/// body or settings, fill failure, fewer than four particles).
Result<std::shared_ptr<const ParticleSkinModel>> buildParticleSkinModel(std::shared_ptr<const SkinnedMesh> body,
                                                                        const ParticleSkinSettings& settings);

/// The pairs of particles (i < j) whose rest gap is below the interaction range (see
/// ParticleSkinSettings::interactionGap), by a uniform grid of cell = the largest range;
/// as CSR (offsets N + 1, neighbours ascending). Shared by the model and the GPU
/// cross-check.
void findInteractingPairs(std::span<const glm::vec4> particles, float interactionGap,
                          std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& neighbours);

/// The targets of every particle for a pose: its rest position moved with its bone
/// (S_bone X), and its bones' rotations (unit quaternions, x y z w).
struct ParticleTargets {
  std::vector<glm::vec4> positions;      ///< N: xyz m, w 1
  std::vector<glm::vec4> boneRotations;  ///< per joint
};
ParticleTargets particleTargets(const ParticleSkinModel& model, std::span<const glm::mat4> skinningMatrices);

/// Run-time state readback.
struct ParticleState {
  std::vector<glm::vec4> positions;   ///< N: xyz m, w radius
  std::vector<glm::vec4> velocities;  ///< N: xyz m/s (at the whole step), w 0
  std::vector<glm::vec4> rotations;   ///< N: local rotation (unit quaternion) of the last surface update
};

/// A particle skinning backend. advance() moves the particles toward a pose; surface()
/// rebuilds the mesh. The initial state is the rest pose, at rest.
class ParticleSkinner {
 public:
  virtual ~ParticleSkinner() = default;
  virtual Backend backend() const = 0;
  const ParticleSkinModel& model() const { return *m_model; }

  /// Sets the pose (skinning matrices once per joint, then every particle's target and
  /// target velocity = target displacement / (steps timeStep)) and integrates `steps`
  /// steps. Error if the pose has the wrong size or is not finite, or if the particles
  /// diverge (a non-finite state: lower timeStep or the stiffnesses); the state is then
  /// unusable until reset().
  virtual Status advance(const Pose& pose, int steps) = 0;
  /// Holds `pose` and integrates until the fastest particle is slower than
  /// `speedTolerance` (m/s), checking every `checkEvery` steps, at most maxSteps. Returns
  /// the steps taken (maxSteps + 1 when it did not settle). Error as advance().
  Result<int> settle(const Pose& pose, float speedTolerance, int maxSteps, int checkEvery = 16);
  /// Back to the rest pose, at rest.
  virtual void reset() = 0;
  /// The particles (slow on the GPU: a readback).
  virtual ParticleState readParticles() const = 0;
  /// Rebuilds the surface from the particles (section 4, "Back to the surface") and
  /// returns it; normals are area-weighted over the mesh triangles.
  virtual Result<SkinnedSurface> surface() = 0;
  /// Steps integrated since creation or reset(); acceleration evaluations per step.
  std::int64_t stepsTaken() const { return m_steps; }

 protected:
  explicit ParticleSkinner(std::shared_ptr<const ParticleSkinModel> model) : m_model(std::move(model)) {}
  std::shared_ptr<const ParticleSkinModel> m_model;
  std::int64_t m_steps = 0;
};

/// Factories. CPU: `threads` OpenMP threads (0: the default). Error if the model is null.
Result<std::unique_ptr<ParticleSkinner>> createCpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model,
                                                                  int threads = 0);

/// Area-weighted vertex normals of a posed surface (xyz unit, w 0), shared by backends.
std::vector<glm::vec4> surfaceNormals(std::span<const glm::vec4> positions, std::span<const std::uint32_t> indices);

}  // namespace hg
