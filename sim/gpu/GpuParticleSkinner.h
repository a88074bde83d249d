#pragma once
/// GPU backend of adaptive-radius particle skinning (docs/methods.md section 4;
/// the model and the CPU reference are in sim/skinning/ParticleSkinning.h): GL 4.5 compute
/// passes (sim/gpu/shaders/particle_skin_*.comp), one invocation per particle or vertex, calling
/// the kernels of sim/kernels/particle_skinning.glslh that the CPU backend calls, in the
/// same order. Requires a current OpenGL 4.5 context (hg::gl::HeadlessContext or a window).
///
/// Setup (createGpuParticleSkinner, once): the interacting pairs are searched on the GPU
/// (findInteractingPairsGpu below) and turned into the links by a pass, so the backend
/// runs on its own links (equal to the model's where the GPU rounds sqrt and division
/// correctly, e.g. llvmpipe: the tests check that).
///
/// Per advance(pose, steps):
///  - upload: the joints' skinning matrices and their rotations (J mat4 + J vec4);
///  - 1 pass: targets and target velocities;
///  - per step, as CpuParticleSkinner::step (E = one forces pass, U = one update pass):
///      improved Euler: E U E U;
///      Adams: the Heun start, then [E, only in the first step after a new pose] U,
///             (E U) x (1 + iterations), E;
///      leapfrog: [E U, the Euler start, once], U (drift and velocity estimate),
///             (E U) x (1 + iterations), the kick folded into the last U;
///  - 1 pass: the divergence check (atomics into a status word); readback of 8 bytes;
///  - the target velocities are cleared (as the CPU's: a held pose then has none).
/// surface(): a rotation pass and a vertex pass, then the readback of the positions
/// (vertexCount vec4); normals on the CPU (hg::surfaceNormals). readParticles(): the
/// readback of positions, velocities and rotations (slow: a stall, for tests and output).
///
/// The state arrays live in three buffers of "slots" (particleCount vec4 each): positions
/// (x, the stage x_s, the targets), velocities (v, v_s, v_{n+1/2}, v_prev, the target
/// velocities), accelerations (a, a_s, a_prev); the passes are told their slots by
/// uniforms and Adams swaps x <-> x_s, v <-> v_s by swapping slot indices, not data.
///
/// Limitations: float math with FMA contraction left to the driver, so the trajectories
/// agree with the CPU's to rounding, not bitwise (the neighbour search, the links and the
/// targets are `precise`); the neighbour search reads back one word (the link count) to
/// size the link buffer.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

#include "gl/GlObjects.h"
#include "sim/skinning/ParticleSkinning.h"

namespace hg {

/// Interacting pairs as CSR, the layout of findInteractingPairs (ParticleSkinning.h).
struct ParticlePairs {
  std::vector<std::uint32_t> offsets;     ///< N + 1
  std::vector<std::uint32_t> neighbours;  ///< offsets[N] entries, ascending per particle
};

/// The GPU neighbour search of particle skinning, the same result as findInteractingPairs:
/// particles i != j interact when |X_j - X_i| - r_i - r_j < interactionGap min(r_i, r_j)
/// (particles: xyz centre m, w radius m). On a uniform grid of cell (2 + interactionGap)
/// x the largest radius (its origin and size from the particles' bounds, on the CPU):
/// a counting sort of the particles by cell (atomic counts, a GPU prefix sum of the cell
/// counts), then per particle a counting pass over the 27 cells around it, a GPU prefix
/// sum into the CSR offsets, and a filling pass that keeps each list sorted by index.
/// One word (the number of entries) is read back between the passes; the result is read
/// back at the end. Requires a current GL 4.5 context. Error if interactionGap or a
/// radius is not positive and finite, the grid would be too large (over 2^26 cells), or a
/// shader fails to build (the driver's log is in the message).
Result<ParticlePairs> findInteractingPairsGpu(std::span<const glm::vec4> particles, float interactionGap);

/// The GPU particle skinner (see the file comment). Create it with
/// createGpuParticleSkinner.
class GpuParticleSkinner final : public ParticleSkinner {
 public:
  Backend backend() const override { return Backend::Gpu; }
  /// As ParticleSkinner::advance; stalls once at the end to read the divergence status.
  Status advance(const Pose& pose, int steps) override;
  void reset() override;
  /// Synchronous readback (slow).
  ParticleState readParticles() const override;
  /// Rotation and vertex passes, then a synchronous readback of the positions.
  Result<SkinnedSurface> surface() override;

  /// The GPU-built links (synchronous readbacks, for tests): CSR offsets (N + 1) and the
  /// links, in the layout of ParticleSkinModel::linkOffsets / links.
  std::vector<std::uint32_t> readLinkOffsets() const;
  std::vector<kernels::ParticleLink> readLinks() const;

  /// Iterations of the rotation extraction per surface() (warm-started), as the CPU's.
  static constexpr int kRotationIterations = 32;

 private:
  friend Result<std::unique_ptr<ParticleSkinner>> createGpuParticleSkinner(std::shared_ptr<const ParticleSkinModel>);
  explicit GpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model);

  Status setup();
  void bindBuffers() const;
  void evaluate(std::uint32_t positionSlot, std::uint32_t velocitySlot, std::uint32_t accelerationSlot);
  void update(std::uint32_t op);
  void step();
  void heunStep();

  gl::Program m_targetsProgram, m_forcesProgram, m_updateProgram, m_checkProgram, m_rotationsProgram, m_surfaceProgram;
  gl::Buffer m_rest, m_linkOffsets, m_links, m_bindings, m_jointMatrices, m_boneRotations, m_jointDualQuaternions;
  gl::Buffer m_positions, m_velocities, m_accelerations, m_rotations, m_surface, m_status;
  std::uint32_t m_linkCount = 0;
  std::uint32_t m_x = 0, m_xs = 1, m_v = 0, m_vs = 1;  // slots of x, x_s, v, v_s
  bool m_started = false, m_haveHistory = false, m_accelerationValid = false;
  float m_divergenceLimit = 0.0f;  // m: 10 x the mesh's bounding-box diagonal
};

/// Factory of the GPU backend. Requires a current GL 4.5 context. Error if the model is
/// null or has no body, the neighbour search fails, or a shader fails to build (the
/// driver's log is in the message).
Result<std::unique_ptr<ParticleSkinner>> createGpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model);

/// Either backend (the CPU one with the OpenMP default thread count).
Result<std::unique_ptr<ParticleSkinner>> createParticleSkinner(Backend backend,
                                                               std::shared_ptr<const ParticleSkinModel> model);

}  // namespace hg
