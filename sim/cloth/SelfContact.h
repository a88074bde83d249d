#pragma once
/// Self and cloth-cloth contact of the CPU backend (docs/methods.md section 8; the
/// per-pair math is kernels/self_contact.glslh). Run after each substep, it
///  1. finds every vertex-triangle and edge-edge pair of primitives that share no vertex
///     and lie within the query radius at the substep's start (broad phase: the pair lists
///     of sim/cloth/SelfContactCandidates.h, kept over substeps);
///  2. separates the pairs closer than the thickness after the substep (Jacobi passes of
///     a position constraint along the pair's start normal, with Coulomb friction);
///  3. truncates every free vertex's displacement over the substep to its bound, 0.45
///     times its start distance to the nearest primitive it is not part of (at most the
///     query radius): no two primitives can meet during the substep, so a substep that
///     starts without intersections ends without them.
/// The query radius grows with the 99th percentile of the substep's displacements (up to
/// kMaxQueryRadius), so free-flying cloth is not slowed while a few fast vertices are.
/// Intersections present at the start of a frame are untangled (beginFrame), without the
/// guarantee. Limits: pinned (kinematic) vertices are not truncated; the body-contact push
/// of the substep can be shortened by the truncation next to other cloth. The search runs
/// on the solver's threads; the result does not depend on their number (nearest distances
/// are minima, the pairs are sorted into one order).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/SelfContactCandidates.h"
#include "sim/kernels/Kernels.h"

namespace hg {

struct ClothModel;

/// Scene-level settings of self contact (ClothSettings::selfContact).
struct SelfContactSettings {
  bool enabled = false;
  float thickness = 0.003f;  ///< m kept between parts of the cloth that share no vertex
  float friction = 0.3f;     ///< Coulomb mu between cloth layers
  int iterations = 4;        ///< Jacobi passes of the separation per substep
  /// The layer of each vertex, inner first (garments: their order in the outfit); empty:
  /// one layer. Where two layers are tangled the outer one is pushed outward.
  std::vector<std::uint32_t> layerOfVertex;
  /// m the distance kept from the colliders grows by per layer above the innermost
  /// (ClothSettings::bodyContactOffsets); unset: thickness + 1 mm, so that an outer layer
  /// lying on an inner one does not press it into the body.
  std::optional<float> layerOffset;
  float layerOffsetOrDefault() const { return layerOffset.value_or(thickness + 0.001f); }
};

/// The untangling over a run: intersecting triangle pairs found at the start of frames.
struct SelfContactReport {
  std::size_t firstFramePairs = 0;  ///< at the start of the first frame
  std::size_t lastFramePairs = 0;   ///< at the start of the last frame
  int untangledAtFrame = -1;        ///< the first frame that started with none (-1: never)
  int frames = 0;                   ///< frames begun
  /// GPU backend: pairs found past its pair buffer's capacity, never separated (the
  /// displacement bound still held for them); 0 on the CPU backend.
  std::uint64_t droppedPairs = 0;
};

/// What one substep's pass found and did.
struct SelfContactStep {
  std::size_t pairs = 0;      ///< pairs within the query radius
  std::size_t separated = 0;  ///< pairs that were closer than the thickness after the substep
  std::size_t truncated = 0;  ///< vertices whose displacement was truncated
  float queryRadius = 0.0f;   ///< m
};

class SelfContact {
 public:
  /// The largest query radius, m: a vertex far from other cloth moves at most 0.45 times
  /// this per substep (22.5 mm; 10.8 m/s at 480 substeps per second).
  static constexpr float kMaxQueryRadius = HG_SELF_CONTACT_MAX_QUERY_RADIUS;

  SelfContact(const ClothModel& model, const SelfContactSettings& settings);

  /// At the start of a frame: finds the triangle pairs that intersect (exact, as the
  /// metrics count them). Their vertices are exempt from the separation and the
  /// truncation for the frame, so that the cloth's own forces can pull them back through
  /// (in the manner of the global intersection analysis of Baraff et al. 2003); a vertex
  /// whose pairs are all within its layer is exempt within that layer only (against the
  /// other layers it keeps its contacts and its bound while one is within the query
  /// radius: untangling a garment does not push it through another). They
  /// are pushed apart by the thickness every substep: on different layers the outer
  /// triangle along the inner one's normal (garment panels are wound counter-clockwise
  /// seen from outside); on one layer each triangle to the side of the other where its
  /// centroid is.
  /// The triangle pairs tested exactly are those that SelfContactCandidates::tangleCandidates
  /// names (`threads` OpenMP threads; the result is the same for any): the same pairs as
  /// testing every pair.
  void beginFrame(std::span<const glm::vec4> x, int threads = 1);
  /// The same, with the exact test run only on the triangle pairs that edge-triangle
  /// candidates (edge index, triangle) name: each triangle holding the edge against the
  /// triangle. The candidates must include every edge-triangle pair that meets, as
  /// kernels segmentMayCrossTriangle keeps them (the GPU backend's tangle search); the
  /// tangles are then those of beginFrame(x).
  void beginFrame(std::span<const glm::vec4> x, std::span<const glm::uvec2> edgeTriangleCandidates);

  /// After a substep moved the vertices from `start` to `positions` (xyz m, w inverse
  /// mass): untangles, separates, truncates and changes `velocities` by the position
  /// change / dt. `threads`: OpenMP threads to use (the result is the same for any).
  SelfContactStep apply(std::span<const glm::vec4> start, std::span<glm::vec4> positions,
                        std::span<glm::vec4> velocities, float dt, int threads = 1);

  const SelfContactSettings& settings() const { return m_settings; }
  const SelfContactReport& report() const { return m_report; }
  /// The mesh's triangles (3 vertices each) and unique edges (smaller vertex first).
  std::span<const std::uint32_t> triangles() const { return m_topology.triangles; }
  std::span<const glm::uvec2> edges() const { return m_topology.edges; }
  /// The intersecting triangle pairs found by the last beginFrame, and per vertex its
  /// tangle flag (kernels/self_contact.glslh): 0, HG_TANGLED_WITHIN_LAYER (all its pairs
  /// within its layer) or HG_TANGLED_ACROSS_LAYERS.
  std::span<const std::array<std::uint32_t, 2>> tangles() const { return m_tangles; }
  std::span<const std::uint8_t> tangledVertices() const { return m_tangled; }

 private:
  /// A pair: its four vertices, weights, its separation vector and unit normal at the start.
  struct Pair {
    glm::uvec4 vertices;
    glm::vec4 weights;
    glm::vec3 startSeparation;  ///< m
    glm::vec3 normal;
  };
  /// Where a pair goes in m_pairs: the order in which a search over the pairs of nearby
  /// triangles (a < b) meets it, rank 2k (+1) for vertex k of a (of b) against the other
  /// triangle, 6 + 3i + j for edge i of a against edge j of b.
  struct PairOrder {
    std::uint64_t trianglePair;  ///< a << 32 | b
    std::uint32_t rank;
  };
  struct OrderedPair {
    PairOrder order;
    Pair pair;
  };
  void findPairs(std::span<const glm::vec4> start, float queryRadius, int threads);
  /// Whether a candidate is within the query radius (then lowering `nearest` of its
  /// vertices) and close enough to be separated (then written to `pair`).
  bool testVertexTriangle(std::span<const glm::vec4> x, std::uint32_t v, std::uint32_t triangle, float queryRadius,
                          std::span<float> nearest, Pair& pair) const;
  bool testEdgeEdge(std::span<const glm::vec4> x, std::uint32_t e, std::uint32_t f, float queryRadius,
                    std::span<float> nearest, Pair& pair) const;
  bool testPair(std::span<const glm::vec4> x, glm::uvec4 vertices, glm::vec4 weights, float queryRadius,
                std::span<float> nearest, Pair& pair) const;
  PairOrder vertexTriangleOrder(std::uint32_t v, std::uint32_t triangle) const;
  PairOrder edgeEdgeOrder(std::uint32_t e, std::uint32_t f) const;
  /// The substep's query radius from m_moves (see the class comment).
  float queryRadius();
  std::size_t separate(std::span<glm::vec4> positions);
  /// The bookkeeping of beginFrame once m_tangles holds the frame's intersecting pairs.
  void markTangles();
  /// The triangles of tangled pairs pushed apart (see beginFrame), positions only.
  void pushTangledApart(std::span<const glm::vec4> start, std::span<glm::vec4> positions);
  std::uint32_t layerOfVertex(std::uint32_t v) const;  ///< 0 with one layer
  std::uint32_t layerOf(std::uint32_t triangle) const;
  glm::vec3 triangleNormal(std::span<const glm::vec4> x, std::uint32_t triangle) const;  ///< unnormalized
  glm::vec3 centroid(std::span<const glm::vec4> x, std::uint32_t triangle) const;

  SelfContactSettings m_settings;
  ContactTopology m_topology;
  SelfContactCandidates m_candidates;                                ///< the broad phase's pair lists
  std::vector<Pair> m_pairs;                                         ///< scratch of one substep
  std::vector<std::vector<float>> m_threadNearest;                   ///< scratch of findPairs, per thread
  std::vector<std::vector<OrderedPair>> m_threadPairs;               ///< scratch of findPairs, per thread
  std::vector<std::pair<std::uint64_t, std::uint64_t>> m_orderKeys;  ///< scratch of findPairs
  std::vector<float> m_nearest;                                      ///< per vertex, m
  std::vector<float> m_moves;                                        ///< per vertex: the substep's displacement, m
  float m_largestMove = 0.0f;                           ///< the largest of m_moves (infinite: one is not finite)
  std::vector<float> m_sortedMoves;                     ///< scratch of queryRadius()
  std::vector<glm::vec4> m_corrections;                 ///< per vertex: sum (xyz) and count (w)
  std::vector<glm::vec4> m_before;                      ///< scratch of apply(): positions before the separation
  std::vector<std::array<std::uint32_t, 2>> m_tangles;  ///< intersecting triangle pairs of this frame
  std::vector<std::uint8_t> m_tangled;                  ///< per vertex: part of a tangle
  SelfContactReport m_report;
};

}  // namespace hg
