#pragma once
/// Indexed triangle mesh used for output and drawing (positions in metres).
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace hg {

struct TriangleMesh {
  std::vector<glm::vec3> positions;    ///< N vertices, metres
  std::vector<glm::vec3> normals;      ///< N unit normals (may be empty)
  std::vector<glm::vec2> uvs;          ///< N texture coordinates (may be empty)
  std::vector<std::uint32_t> indices;  ///< 3 x T, counter-clockwise seen from the normal side

  std::size_t vertexCount() const { return positions.size(); }
  std::size_t triangleCount() const { return indices.size() / 3; }
};

/// Appends `part` to `mesh` (its indices shifted past mesh's vertices). Normals and UVs
/// stay only while every part so far has them for all its vertices, else they are dropped.
void appendMesh(TriangleMesh& mesh, const TriangleMesh& part);
/// The mesh with vertices that share a position (bitwise) merged, in order of first
/// occurrence, and the triangles that the merge collapses (two corners one vertex) left
/// out: an imported body is a triangle soup (assimp's OBJ and STL readers) or split at UV
/// seams, and is closed only once welded. Positions and indices only. The indices must be
/// in range (check before).
TriangleMesh weldedByPosition(const TriangleMesh& mesh);
/// The merge weldedByPosition does: per vertex its welded vertex (numbered in order of first
/// occurrence; the count is the largest entry + 1).
std::vector<std::uint32_t> positionWeldMap(const TriangleMesh& mesh);
/// Area-weighted vertex normals from the triangles (normalized; zero-area stays 0).
void computeVertexNormals(TriangleMesh& mesh);

/// Closed icosphere: an icosahedron whose triangles are split in four `subdivisions`
/// times, vertices projected to the sphere (20 * 4^s triangles, watertight, outward
/// counter-clockwise). No UVs.
TriangleMesh makeIcosphere(glm::vec3 center, float radius, int subdivisions);

/// Closed box [min, max]: every face an (s + 1) x (s + 1) grid of quads (s =
/// `subdivisions` >= 0), two triangles each; vertices welded along the box's edges
/// (watertight, outward counter-clockwise), so the vertex normals (area-weighted,
/// computeVertexNormals) are the face normals except on the grid lines at the box's
/// edges, where they blend. No UVs.
TriangleMesh makeBox(glm::vec3 min, glm::vec3 max, int subdivisions);

/// Closed capsule: the points within `radius` of segment ab (a != b). Two hemispheres
/// of `rings` (>= 1) latitude rings each, joined by one cylinder band, `segments` (>= 3)
/// around the axis; one vertex per pole, welded, no seams (watertight, outward
/// counter-clockwise). Analytic unit normals. No UVs.
TriangleMesh makeCapsule(glm::vec3 a, glm::vec3 b, float radius, int rings, int segments);

/// Closed torus around the axis through `center` along +Y: tube centre circle of
/// `majorRadius`, tube radius `minorRadius` (< majorRadius); `majorSegments` (>= 3)
/// around Y by `minorSegments` (>= 3) around the tube, welded (watertight, outward
/// counter-clockwise). Analytic unit normals. No UVs.
TriangleMesh makeTorus(glm::vec3 center, float majorRadius, float minorRadius, int majorSegments, int minorSegments);

/// Closed cylinder along +x from x = 0 to x = length (m) of `radius` (m): `rings` (>= 2)
/// rings of `segments` (>= 3) vertices (x_i = length i / (rings - 1)) plus one centre
/// vertex per cap, so rings * segments + 2 vertices; triangles counter-clockwise seen
/// from outside; area-weighted vertex normals.
TriangleMesh makeCylinder(float length, float radius, int rings, int segments);

/// UV sphere of `radius` around `center`, `rings` x `segments` quads (open along its
/// seam and at the poles: duplicated vertices, for texturing).
TriangleMesh makeUvSphere(glm::vec3 center, float radius, int rings, int segments);

/// Closed solid of revolution about the +Y axis through `base`: profile points
/// (radius, height) (m) from the bottom up, every radius > 0, `segments` (>= 3) around
/// the axis, and a centre vertex closing each end (watertight, outward
/// counter-clockwise): 2 segments (profile points - 1) + 2 segments triangles.
TriangleMesh makeLathe(glm::vec3 base, const std::vector<glm::vec2>& profile, int segments);

/// A closed wine bottle standing on `base` (+Y up), `height` m tall (body radius 0.123
/// height, neck 0.043 height): a lathe of 93 profile points and 65 segments, 12,090
/// triangles like the source's bottle (docs/methods.md section 6).
TriangleMesh makeBottle(glm::vec3 base, float height);

}  // namespace hg
