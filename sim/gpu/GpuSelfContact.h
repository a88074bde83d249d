#pragma once
/// Self and cloth-cloth contact of the GPU backend (docs/methods.md section 8): the CPU
/// backend's pass (sim/cloth/SelfContact.h) as compute passes on the same per-pair math
/// (kernels/self_contact.glslh), after every substep:
///  1. the query radius from the histogram of the substep's moves, and the longest edge
///     (self_contact_prepare.comp);
///  2. a hashed uniform grid of triangle centroids and edge midpoints at the substep's
///     start, cell = query radius + longest edge, built by a counting sort
///     (self_contact_grid.comp, particle_skin_scan.comp);
///  3. vertex-triangle and edge-edge pairs from the 27 cells around each vertex and edge
///     midpoint: nearest distances (atomicMin) and the pairs to separate
///     (self_contact_pairs.comp);
///  4. the untangling push, the Jacobi separation passes, the displacement truncation and
///     the velocity update (self_contact_separate.comp), with fixed-point integer sums, so
///     the result does not depend on the order of the atomics.
/// The intersecting triangle pairs at the start of a frame are found on the CPU by the
/// same exact test as the CPU backend's (SelfContact::beginFrame, CGAL), from one readback
/// of the positions per frame. Requires a current OpenGL 4.5 context.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec4.hpp>

#include "gl/GlObjects.h"
#include "gl/PassTimer.h"
#include "sim/cloth/SelfContact.h"
#include "sim/core/Result.h"

namespace hg {

class GpuSelfContact {
 public:
  /// Builds the passes and the model's buffers; error: a shader's build log.
  static Result<std::unique_ptr<GpuSelfContact>> create(const ClothModel& model, const SelfContactSettings& settings);
  /// With HG_GPU_PASS_TIMES=1: prints the GPU time of each pass per substep (gl::PassTimer).
  ~GpuSelfContact();

  /// At the start of a frame, with the positions there (xyz m, w inverse mass; binds
  /// POSITIONS_IN and POSITIONS_OUT to them): finds the tangles and uploads them. The GPU
  /// keeps the edge-triangle pairs that may meet (self_contact_tangles.comp), and the CPU
  /// tests only the triangle pairs they name exactly (SelfContact::beginFrame with
  /// candidates; every pair, once, when they overflow their buffer, which then grows),
  /// reading the positions back only when there is a pair to test. Counts the pairs the
  /// last frame dropped and grows the pair buffer to the last frame's peak.
  void beginFrame(const gl::Buffer& positions);
  /// After a substep moved the vertices from `start` to `positions` (vec4 per vertex):
  /// corrects `positions` and `velocities` in place. Binds POSITIONS_IN, POSITIONS_OUT and
  /// VELOCITIES_OUT to these buffers and its own bindings; changes the current program.
  void apply(const gl::Buffer& start, const gl::Buffer& positions, const gl::Buffer& velocities, float dt);

  /// The untangling so far, with the pairs dropped past the pair buffer's capacity.
  SelfContactReport report() const;
  /// The edge-triangle pairs (edge, triangle) the last frame's tangle search kept, in the
  /// GPU's order; empty when they overflowed their buffer (the CPU then tested every pair).
  std::span<const glm::uvec2> tangleCandidates() const { return m_candidates; }

 private:
  struct Programs {
    gl::Program prepare, grid, scan, pairs, separate, tangles;
  };
  GpuSelfContact(const ClothModel& model, const SelfContactSettings& settings, Programs programs);
  /// The uniforms that stay for the model's life (counts, table size, thickness, friction;
  /// the pair capacity is set again when the pair buffer grows).
  void setConstantUniforms() const;
  void buildGrid();
  /// Clears the substep's fields of the control block (not droppedPairs) and its histogram.
  void clearSubstepControl() const;
  /// Pass 1 of a substep from `start` to `positions`: clears the control block, binds the
  /// buffers the passes share, starts the pass timer and finds the query radius, the longest
  /// edge and the cell size.
  void startPasses(const gl::Buffer& start, const gl::Buffer& positions);
  /// The frame's edge-triangle candidates at `positions` (mode 0 and 1 of
  /// self_contact_tangles.comp); false when they overflowed the buffer (then grown).
  bool findTangleCandidates(const gl::Buffer& positions, std::vector<glm::uvec2>& candidates);
  /// After the pair pass, where the frame checks every substep: the pair count read back
  /// and, past the room, the pair buffer grown (growPairBuffer) and the pair pass run again,
  /// so that no pair is dropped.
  void findPairsAgainIfTheyOverflowed();
  /// Pass 3: the pairs of the substep into the pair buffer (bound here), then a barrier.
  void runPairPass();
  /// Grows the pair buffer to twice `pairs` once they pass kPairHeadroom of its room.
  void growPairBuffer(std::uint32_t pairs);
  /// One invocation per element, the mode uniform at `modeLocation`, then a barrier.
  static void dispatch(const gl::Program& program, GLint modeLocation, std::size_t invocations, std::uint32_t mode);

  SelfContact m_frameAnalysis;  ///< the CPU pass, for its exact tangle analysis (beginFrame) only
  gl::PassTimer m_timer{gl::passTimesRequested()};
  std::uint64_t m_substeps = 0;
  Programs m_programs;
  std::uint32_t m_vertexCount = 0, m_triangleCount = 0, m_edgeCount = 0, m_tableSize = 0, m_pairCapacity = 0,
                m_candidateCapacity = 0;
  std::vector<glm::uvec2> m_candidates;  ///< the last frame's edge-triangle candidates (read back)
  std::vector<glm::vec4> m_frameStart;   ///< the frame's positions, read back for the exact test
  std::size_t m_tangleCount = 0;
  bool m_checkPairsEverySubstep = true;  ///< this frame reads the pair count after every pair pass
  bool m_anyTangled = false;             ///< the uploaded tangled flags hold a 1
  std::uint64_t m_droppedPairs = 0;      ///< over the run
  gl::Buffer m_control, m_triangles, m_edges, m_cells, m_scanBlocks, m_cellRanks, m_items, m_nearest, m_pairs,
      m_corrections, m_tangled, m_tangles, m_layers, m_before, m_tangleCandidates;
};

}  // namespace hg
