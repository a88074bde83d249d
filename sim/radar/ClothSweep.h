#pragma once
/// Continuous collision of cloth against the body by radar sweeps (Cyber Radar,
/// docs/methods.md section 3, "collision detection of a moving sensor object"): the cloth's
/// triangles are cut into small connected patches; each step, every patch that moved
/// near the body gets one collision radar along its motion over the step, all of them in
/// one RadarBackend::run batch (plus a small second batch, below); a patch whose radar
/// finds the body within its travel is stopped at the time of impact (minus a clearance)
/// and loses the part of its velocity that goes into the body. Fast motion then cannot carry cloth through a thin body
/// part between two discrete contact checks (tunnelling).
///
/// Per patch p with vertices i at x0_i (start of the step) and x1_i (end), d_i = x1_i - x0_i:
/// - direction u = normalize(mean d_i); travel s = max_i (d_i . u) (m);
/// - sensor: the patch's points at x0 set the volume (makeSweepQuery: its cross-section
///   along u plus a pixel; depth s + its length along u); the sensor object is the whole
///   cloth at x0, so the mask M is the cloth inside the patch's volume and the range image
///   R holds the body only (no cloth-cloth hits);
/// - min L in [-clearance, s]: impact; t = max(0, min L - c / max(|u . n|, 0.2)) / s with
///   c the clearance (m) and n the obstacle normal at the contact; every vertex of the
///   patch moving into the body (d_i . n < 0) goes to x = x0_i + t d_i (a vertex of several
///   patches takes the smallest t) and its velocity becomes that of the motion it made,
///   (x - x0_i) / dt, less its part into the body (inelastic, no slip while held back);
/// - min L < -clearance: the patch's volume holds cloth beyond the body on some ray (the
///   mask sees the cloth nearest the far face: e.g. the two sides of a sheet draped over a
///   bar meet below it, behind the part resting on top). A second batch, for these patches
///   only, cuts the volume at the body's nearest point (depth min R + clearance) so that the
///   mask holds only the cloth in front of the body, and stops the patch as above; still
///   min L < -clearance (the cloth at x0 already inside the body): left to the discrete
///   contact.
///
/// Limitations: one time of impact per patch and one direction of motion per patch (the
/// whole patch stops, so patches of many triangles stop cloth beside the contact too, and
/// a vertex whose motion strays from the patch's is swept along the patch's); the body is
/// taken at its end-of-step pose (a body part moving fast into resting cloth is not swept:
/// its relative motion is not used); cloth ahead of a patch inside its volume (a fold below it) counts as the patch;
/// motion within the patch's plane (sliding) shows the radar an edge-on sensor and is not
/// swept. Patches whose swept bounding box misses the body's bounding box get no radar.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/cloth/ClothSolver.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/radar/Radar.h"

namespace hg {

/// Settings of the radar sweeps (scene key solver.continuous_collision).
struct ClothSweepSettings {
  int patchTriangles = 4;    ///< target triangles per patch (1..1024); 4 held best in tests/radar/ClothSweepTest.cpp
  int image = 16;            ///< wp = hp pixels of every radar (2..HG_RADAR_MAX_IMAGE)
  float clearance = 0.005f;  ///< m kept between the stopped cloth and the body (the solver's contact offset)
  /// Sweeps per frame (1..kMaxSweepsPerFrame; at most one per substep): each covers the
  /// motion of a part of the frame's substeps (ContinuousCollision::passesPerFrame).
  int sweepsPerFrame = 1;
  static constexpr int kMaxSweepsPerFrame = 64;

  /// Checks ranges; the error names the setting (scene key names).
  Status validate() const;
};

/// A partition of a mesh's triangles into connected patches (through shared edges),
/// each triangle in exactly one patch, in CSR form.
struct ClothPatches {
  std::vector<std::uint32_t> triangleOffsets{0};  ///< patch p: triangles[triangleOffsets[p] .. triangleOffsets[p + 1])
  std::vector<std::uint32_t> triangles;           ///< triangle numbers (into the mesh's 3 x T indices)
  std::vector<std::uint32_t> vertexOffsets{0};    ///< patch p: vertices[vertexOffsets[p] .. vertexOffsets[p + 1])
  std::vector<std::uint32_t> vertices;            ///< the patch's vertices, ascending

  std::size_t size() const { return triangleOffsets.size() - 1; }
  std::span<const std::uint32_t> trianglesOf(std::size_t p) const {
    return {triangles.data() + triangleOffsets[p], triangleOffsets[p + 1] - triangleOffsets[p]};
  }
  std::span<const std::uint32_t> verticesOf(std::size_t p) const {
    return {vertices.data() + vertexOffsets[p], vertexOffsets[p + 1] - vertexOffsets[p]};
  }
};

/// Greedy breadth-first growth over edge adjacency: from the first unassigned triangle
/// (in index order), take unassigned neighbours until `targetTriangles`; then every patch
/// under half the target joins its smallest neighbouring patch (so few tiny patches are
/// left; patches then hold up to about 1.5x the target). Components smaller than the target stay
/// whole. Error: indices not a multiple of 3 or out of range, a target below 1.
Result<ClothPatches> partitionClothPatches(std::span<const std::uint32_t> triangles, std::size_t vertexCount,
                                           int targetTriangles);

/// What the last ClothSweep::resolve did.
struct ClothSweepReport {
  std::size_t patches = 0;          ///< patches of the cloth
  std::size_t swept = 0;            ///< radars run: moving patches whose swept box meets the body's box
  std::size_t hits = 0;             ///< patches stopped at a time of impact
  std::size_t retried = 0;          ///< radars of the second pass (cloth beyond the body: the volume cut at it)
  std::size_t overlapping = 0;      ///< patches overlapping the body in both passes: not stopped
  std::size_t clampedVertices = 0;  ///< vertices moved back
  float earliestImpact = 1.0f;      ///< smallest time of impact of the stopped patches (fraction of the step)
  double seconds = 0.0;             ///< wall time of the pass (s)
};

/// Radar sweeps of cloth patches against a body (see the file comment). One per cloth
/// model and body topology; plug it into a solver with ClothSettings::continuousCollision
/// or ClothSolver::setContinuousCollision.
class ClothSweep final : public ContinuousCollision {
 public:
  /// `clothTriangles`: the cloth's 3 x T vertex indices (ClothModel::triangles);
  /// `body`: the obstacle (closed or not; its pose at the end of each step, see
  /// setBodyPositions); `radar`: the backend (null: the CPU reference, makeCpuRadar; the
  /// GPU one is sim/gpu/GpuRadar.h). Error: invalid settings, mesh or partition.
  static Result<std::shared_ptr<ClothSweep>> create(std::span<const std::uint32_t> clothTriangles,
                                                    std::size_t clothVertexCount, const TriangleMesh& body,
                                                    const ClothSweepSettings& settings,
                                                    std::unique_ptr<RadarBackend> radar = nullptr);

  /// The body's new pose (same vertex count), e.g. per frame of an animation: the next
  /// resolve() sweeps against it. Error: a count mismatch, a non-finite position.
  Status setBodyPositions(std::span<const glm::vec3> positions);
  /// Replaces the radar backend (e.g. the GPU one once a context exists).
  void setRadar(std::unique_ptr<RadarBackend> radar);

  Status resolve(const ClothState& before, ClothState& after, float dt, bool& changed) override;
  int passesPerFrame() const override { return m_settings.sweepsPerFrame; }

  const ClothPatches& patches() const { return m_patches; }
  const ClothSweepSettings& settings() const { return m_settings; }
  const ClothSweepReport& lastReport() const { return m_report; }
  /// Sums over every resolve() so far (seconds, radars, hits; earliestImpact: the minimum).
  const ClothSweepReport& totals() const { return m_totals; }
  const RadarBackend& radar() const { return *m_radar; }

  /// Object IDs in the radar scene.
  static constexpr std::uint32_t kBodyObject = 0, kClothObject = 1;

 private:
  ClothSweep() = default;
  /// resolve()'s steps. The sweep radars of the moving patches near the body (m_queries).
  void buildSweepQueries(const ClothState& after);
  /// Runs m_queries, then the retries with volumes cut at the body; stops the patches hit.
  Status sweepPatches();
  /// Stops the hit patches whose volume holds no cloth beyond the body and queues the
  /// others (m_retries) with their volume cut at the body's nearest point.
  void queueRetries(std::span<const RadarHit> hits);
  /// Stops patch `p` at the impact of `hit` (a radar along `query`'s direction; s: the
  /// patch's travel over the step, m), keeping the clearance along the contact normal.
  void stopPatch(std::uint32_t p, const RadarHit& hit, const RadarQuery& query, float s);
  /// Moves the stopped vertices back to their impact and removes their velocity into the body.
  void clampVertices(ClothState& after, float dt);
  void addReportToTotals();

  ClothSweepSettings m_settings;
  ClothPatches m_patches;
  std::size_t m_clothVertexCount = 0;
  RadarScene m_scene;
  std::unique_ptr<RadarBackend> m_radar;
  glm::vec3 m_bodyMin{0.0f}, m_bodyMax{0.0f};  ///< bounding box of the body's current pose, m
  ClothSweepReport m_report, m_totals;
  // Scratch of resolve(), kept between calls.
  std::vector<glm::vec3> m_start;
  std::vector<RadarQuery> m_queries;
  std::vector<std::uint32_t> m_queryPatch;
  std::vector<RadarQuery> m_retries;
  std::vector<std::uint32_t> m_retryPatch;
  std::vector<float> m_retryTravel;
  std::vector<float> m_vertexT;
  std::vector<glm::vec3> m_vertexNormal;
};

}  // namespace hg
