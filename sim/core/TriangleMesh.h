#pragma once
/// Indexed triangle mesh used for output and drawing (positions in metres).
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace hg {

struct TriangleMesh {
  std::vector<glm::vec3> positions;      ///< N vertices, metres
  std::vector<glm::vec3> normals;        ///< N unit normals (may be empty)
  std::vector<glm::vec2> uvs;            ///< N texture coordinates (may be empty)
  std::vector<std::uint32_t> indices;    ///< 3 x T, counter-clockwise seen from the normal side

  std::size_t vertexCount() const { return positions.size(); }
  std::size_t triangleCount() const { return indices.size() / 3; }
};

/// Area-weighted vertex normals from the triangles (normalized; zero-area stays 0).
void computeVertexNormals(TriangleMesh& mesh);

/// Closed icosphere: an icosahedron whose triangles are split in four `subdivisions`
/// times, vertices projected to the sphere (20 * 4^s triangles, watertight, outward
/// counter-clockwise). No UVs.
TriangleMesh makeIcosphere(glm::vec3 center, float radius, int subdivisions);

/// UV sphere of `radius` around `center`, `rings` x `segments` quads (open along its
/// seam and at the poles: duplicated vertices, for texturing).
TriangleMesh makeUvSphere(glm::vec3 center, float radius, int rings, int segments);

}  // namespace hg
