#pragma once
/// The broad phase of the CPU self contact (sim/cloth/SelfContact.h): lists of the
/// vertex-triangle and edge-edge pairs that may be within a substep's query radius, kept
/// over substeps while they stay valid (Verlet neighbour lists, Verlet 1967, with a skin:
/// a list built for radius R at positions x_b holds every pair of primitives closer than
/// R there; at positions x, every vertex's displacement x - x_b within D of one common
/// vector c, two primitives' points have moved by no more than 2D relative to each other,
/// so a pair closer than r was closer than r + 2D at x_b and the list serves every radius
/// r <= R - 2D; c is the centre of the displacements' bounding box, so a cloth that
/// translates as a whole keeps its lists).
///
/// A list is built from uniform grids hashed into tables (Teschner et al. 2003, the hash of
/// the GPU pass: kernels/self_contact.glslh selfContactCell and selfContactCellHash): each
/// triangle is the sphere around its centroid through its furthest vertex, each edge the one
/// around its midpoint through its ends, entered by its centre; a vertex looks for triangle
/// spheres within R in the 27 cells around it (cells R + the largest triangle radius wide),
/// an edge for edge spheres within R of its own (cells R + the longest edge wide), and the
/// exact distance decides. It is written here rather than taken from a library because the
/// lists, not one query, are what is reused; CGAL's box_intersection_d (used before) reports
/// triangle pairs, all of them again every substep: with it the CPU backend took 1.6 times
/// as long for 20 frames of the demo outfit (bench/RESULTS.md, "Self contact").
///
/// Lists are in a fixed order for any thread count (vertex-major, edge-major).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace hg {

/// A cloth mesh's primitives for contact: its triangles, its unique edges (smaller vertex
/// first, numbered in that order), each triangle's three edges, and the lowest triangle
/// using each vertex and each edge (its owner).
struct ContactTopology {
  std::vector<std::uint32_t> triangles;      ///< 3 per triangle
  std::vector<glm::uvec2> edges;             ///< unique mesh edges
  std::vector<glm::uvec3> edgesOfTriangle;   ///< edge k from vertex k to vertex k + 1
  std::vector<std::uint32_t> ownerOfVertex;  ///< ~0u: the vertex is in no triangle
  std::vector<std::uint32_t> ownerOfEdge;
  /// The triangles holding edge e: edgeTriangles[edgeTriangleStart[e] .. edgeTriangleStart[e + 1]).
  std::vector<std::uint32_t> edgeTriangleStart;
  std::vector<std::uint32_t> edgeTriangles;

  static ContactTopology of(std::vector<std::uint32_t> triangles, std::size_t vertexCount);
};

class SelfContactCandidates {
 public:
  /// Loops over fewer vertices or pairs than this run on one thread (the result is the
  /// same for any number of threads).
  static constexpr std::int64_t kParallelThreshold = 2048;

  /// Makes the lists hold every pair that shares no vertex and is closer than `radius`
  /// (m) at `x` (xyz m). They are rebuilt only when the vertices moved too far since the
  /// last build, for the radius plus a skin (see skin()) sized by the speed of the
  /// fastest vertex over the last lists' life (at the first build, `largestMove`, m per
  /// substep). Vertices that are not finite take part in no pair. Returns whether the
  /// lists were rebuilt.
  /// An edge-edge pair is listed once, as (e, f) with mesh.ownerOfEdge[e] < ownerOfEdge[f].
  bool update(const ContactTopology& mesh, std::span<const glm::vec4> x, float radius, float largestMove, int threads);

  /// The frame's tangle search on the CPU, as the GPU's (self_contact_tangles.comp): the
  /// (edge, triangle) pairs that share no vertex, whose bounding spheres meet and that
  /// kernels::segmentMayCrossTriangle keeps, in (edge, triangle) order. Every intersecting
  /// triangle pair is named by one of them (SelfContact::beginFrame with candidates), except
  /// for triangles with a vertex further than 1,000 km from the origin (a run that blew up).
  static std::vector<glm::uvec2> tangleCandidates(const ContactTopology& mesh, std::span<const glm::vec4> x,
                                                  int threads);

  /// (vertex, triangle) pairs, vertex-major.
  std::span<const glm::uvec2> vertexTriangle() const { return m_vertexTriangle; }
  /// (edge, edge) pairs, first edge-major.
  std::span<const glm::uvec2> edgeEdge() const { return m_edgeEdge; }
  /// Builds so far.
  std::size_t builds() const { return m_builds; }

  /// The skin (how far a build's radius exceeds the requested one), m, for a fastest vertex
  /// moving `speed` m per substep: 2 x kReuseSubsteps x speed, so that the lists last about
  /// kReuseSubsteps substeps, if that is at most kMaxSkin times the radius; otherwise (the
  /// lists could not last) kMinSkin times it, as when nothing moves. The lists' length
  /// grows with the square of the radius, so a skin is paid at every substep.
  static float skin(float radius, float speed);
  static constexpr float kReuseSubsteps = 4.0f;
  static constexpr float kMinSkin = 0.05f;
  static constexpr float kMaxSkin = 1.0f;

 private:
  void build(const ContactTopology& mesh, std::span<const glm::vec4> x, float reach, int threads);
  /// D above: the largest distance of a vertex's displacement since the last build from
  /// the centre of the displacements' bounding box, m (infinite when one is not finite).
  float largestMoveSinceBuild(std::span<const glm::vec4> x, int threads) const;

  std::vector<glm::vec3> m_builtAt;  ///< per vertex, m
  float m_builtRadius = -1.0f;       ///< m; < 0: never built
  std::vector<glm::uvec2> m_vertexTriangle;
  std::vector<glm::uvec2> m_edgeEdge;
  std::size_t m_builds = 0;
  int m_substepsSinceBuild = 0;
};

}  // namespace hg
