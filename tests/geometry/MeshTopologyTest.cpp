// Mesh topology checks (sim/geometry/MeshTopology.h) and marching-tetrahedra iso-surfaces
// (sim/geometry/IsoSurface.h) on meshes whose answers are known.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/geometry/IsoSurface.h"
#include "sim/geometry/MeshTopology.h"

namespace hg {
namespace {

/// Unit cube [0,1]^3, 8 vertices, 12 triangles counter-clockwise seen from outside.
TriangleMesh unitCube() {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i) m.positions.emplace_back(float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1));
  m.indices = {0, 2, 1, 1, 2, 3,   // z = 0, normal -z
               4, 5, 6, 5, 7, 6,   // z = 1, normal +z
               0, 1, 4, 1, 5, 4,   // y = 0, normal -y
               2, 6, 3, 3, 6, 7,   // y = 1, normal +y
               0, 4, 2, 2, 4, 6,   // x = 0, normal -x
               1, 3, 5, 3, 7, 5};  // x = 1, normal +x
  return m;
}

/// Closed tetrahedron with the given four corners (positively oriented), outward faces.
void appendTetrahedron(TriangleMesh& m, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  const std::uint32_t base = std::uint32_t(m.positions.size());
  m.positions.insert(m.positions.end(), {a, b, c, d});
  // Faces opposite each corner, oriented away from it (det(b-a, c-a, d-a) > 0).
  const std::uint32_t faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  for (const auto& f : faces) m.indices.insert(m.indices.end(), {base + f[0], base + f[1], base + f[2]});
}

TEST(MeshTopology, CubeIsClosedManifoldGenusZeroWithUnitVolume) {
  const TriangleMesh cube = unitCube();
  EXPECT_TRUE(checkWatertight(cube)) << checkWatertight(cube).error().message;
  EXPECT_TRUE(checkVertexManifold(cube)) << checkVertexManifold(cube).error().message;
  EXPECT_EQ(eulerCharacteristic(cube), 2);
  EXPECT_NEAR(signedVolume(cube), 1.0, 1e-12);
  EXPECT_EQ(connectedComponents(cube).count, 1u);
}

TEST(MeshTopology, CubeWithAFaceRemovedIsOpenButManifold) {
  TriangleMesh cube = unitCube();
  cube.indices.resize(cube.indices.size() - 6);  // drop the x = 1 face
  const Status closed = checkWatertight(cube);
  ASSERT_FALSE(closed);
  EXPECT_NE(closed.error().message.find("opposite direction"), std::string::npos) << closed.error().message;
  EXPECT_TRUE(isVertexManifold(cube));      // boundary vertices have one open fan: still a disk
  EXPECT_EQ(eulerCharacteristic(cube), 1);  // a disk
}

TEST(MeshTopology, FlippedTriangleIsNotWatertight) {
  TriangleMesh cube = unitCube();
  std::swap(cube.indices[0], cube.indices[1]);
  EXPECT_FALSE(isWatertight(cube));
}

TEST(MeshTopology, TwoTetrahedraSharingAVertexAreNotVertexManifold) {
  TriangleMesh m;
  appendTetrahedron(m, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1});
  appendTetrahedron(m, {0, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1});
  EXPECT_TRUE(isVertexManifold(m));  // separate vertices: two disjoint closed surfaces
  EXPECT_EQ(connectedComponents(m).count, 2u);
  EXPECT_EQ(eulerCharacteristic(m), 4);
  // Weld the two corners at the origin into one vertex.
  for (std::uint32_t& i : m.indices)
    if (i == 4) i = 0;
  EXPECT_TRUE(isWatertight(m));  // every edge still has two opposite triangles
  const Status manifold = checkVertexManifold(m);
  ASSERT_FALSE(manifold);
  EXPECT_NE(manifold.error().message.find("vertex 0"), std::string::npos) << manifold.error().message;
  EXPECT_EQ(connectedComponents(m).count, 1u);
  EXPECT_GT(signedVolume(m), 0.0);
  EXPECT_NEAR(signedVolume(m), 2.0 / 6.0, 1e-9);
}

TEST(MeshTopology, EdgeWithThreeTrianglesIsNeitherWatertightNorManifold) {
  TriangleMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}};
  m.indices = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  EXPECT_FALSE(isWatertight(m));
  EXPECT_FALSE(isVertexManifold(m));
}

TEST(IsoSurface, SphereIsClosedManifoldWithTheAnalyticVolume) {
  constexpr float kRadius = 0.3f;
  const glm::vec3 center(0.05f, -0.02f, 0.11f);
  const ScalarField sphere = [&](const glm::vec3& p) { return glm::length(p - center) - kRadius; };
  const Box3 box{center - glm::vec3(0.4f), center + glm::vec3(0.4f)};
  Result<TriangleMesh> mesh = extractIsoSurface(sphere, box, IsoSurfaceSettings{0.02f});
  ASSERT_TRUE(mesh) << mesh.error().message;
  EXPECT_TRUE(checkWatertight(*mesh)) << checkWatertight(*mesh).error().message;
  EXPECT_TRUE(checkVertexManifold(*mesh)) << checkVertexManifold(*mesh).error().message;
  EXPECT_EQ(eulerCharacteristic(*mesh), 2);
  EXPECT_EQ(connectedComponents(*mesh).count, 1u);
  const double analytic = 4.0 / 3.0 * std::numbers::pi * std::pow(double(kRadius), 3.0);
  EXPECT_NEAR(signedVolume(*mesh), analytic, 0.02 * analytic);
  // Vertices lie on the sphere to within the interpolation error of a cell.
  for (const glm::vec3& p : mesh->positions) EXPECT_NEAR(glm::length(p - center), kRadius, 0.002f);
}

TEST(IsoSurface, ExactZerosAndSurfacesTouchingTheBoxStayClosed) {
  // A cube field whose faces lie exactly on grid planes (many exact zero samples) and that
  // extends past the box (the box boundary closes it).
  const ScalarField slab = [](const glm::vec3& p) {
    return std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) - 0.5f;
  };
  // Grid planes at +-0.5 exactly: samples there are exactly 0.
  const Box3 exactZeros{glm::vec3(-0.75f), glm::vec3(0.75f)};
  // The cube sticks out of this box on every side.
  const Box3 cutting{glm::vec3(-0.4f), glm::vec3(0.4f)};
  for (const Box3& box : {exactZeros, cutting}) {
    Result<TriangleMesh> mesh = extractIsoSurface(slab, box, IsoSurfaceSettings{0.125f});
    ASSERT_TRUE(mesh) << mesh.error().message;
    EXPECT_GT(mesh->triangleCount(), 0u);
    EXPECT_TRUE(checkWatertight(*mesh)) << checkWatertight(*mesh).error().message;
    EXPECT_TRUE(checkVertexManifold(*mesh)) << checkVertexManifold(*mesh).error().message;
    EXPECT_EQ(eulerCharacteristic(*mesh), 2);
    EXPECT_GT(signedVolume(*mesh), 0.0);
    // No two vertices coincide (edge crossings are kept off the grid points).
    for (std::size_t t = 0; t < mesh->triangleCount(); ++t)
      for (int c = 0; c < 3; ++c)
        EXPECT_GT(glm::length(mesh->positions[mesh->indices[3 * t + std::size_t(c)]] -
                              mesh->positions[mesh->indices[3 * t + std::size_t((c + 1) % 3)]]),
                  0.0f);
  }
}

TEST(IsoSurface, TorusHasGenusOne) {
  const ScalarField torus = [](const glm::vec3& p) {
    const float ring = std::sqrt(p.x * p.x + p.z * p.z) - 0.3f;
    return std::sqrt(ring * ring + p.y * p.y) - 0.1f;
  };
  Result<TriangleMesh> mesh =
      extractIsoSurface(torus, Box3{glm::vec3(-0.5f), glm::vec3(0.5f)}, IsoSurfaceSettings{0.02f});
  ASSERT_TRUE(mesh) << mesh.error().message;
  EXPECT_TRUE(isWatertight(*mesh));
  EXPECT_TRUE(isVertexManifold(*mesh));
  EXPECT_EQ(eulerCharacteristic(*mesh), 0);
  const double analytic = 2.0 * std::numbers::pi * std::numbers::pi * 0.3 * 0.1 * 0.1;
  EXPECT_NEAR(signedVolume(*mesh), analytic, 0.03 * analytic);
}

TEST(IsoSurface, EdgeCollapseKeepsTopologyAndVolumeWithFewerTriangles) {
  const ScalarField torus = [](const glm::vec3& p) {
    const float ring = std::sqrt(p.x * p.x + p.z * p.z) - 0.3f;
    return std::sqrt(ring * ring + p.y * p.y) - 0.1f;
  };
  const Box3 box{glm::vec3(-0.5f), glm::vec3(0.5f)};
  Result<TriangleMesh> raw = extractIsoSurface(torus, box, IsoSurfaceSettings{0.02f});
  Result<TriangleMesh> collapsed = extractIsoSurface(torus, box, IsoSurfaceSettings{0.02f, 64u << 20, 0.5f});
  ASSERT_TRUE(raw && collapsed);
  EXPECT_LT(collapsed->triangleCount(), raw->triangleCount() / 2);
  EXPECT_TRUE(checkWatertight(*collapsed)) << checkWatertight(*collapsed).error().message;
  EXPECT_TRUE(checkVertexManifold(*collapsed)) << checkVertexManifold(*collapsed).error().message;
  EXPECT_EQ(eulerCharacteristic(*collapsed), 0);
  EXPECT_EQ(connectedComponents(*collapsed).count, 1u);
  const double analytic = 2.0 * std::numbers::pi * std::numbers::pi * 0.3 * 0.1 * 0.1;
  EXPECT_NEAR(signedVolume(*collapsed), analytic, 0.03 * analytic);
  // Merged vertices are projected back onto the surface.
  for (const glm::vec3& p : collapsed->positions) EXPECT_NEAR(torus(p), 0.0f, 0.003f);
}

TEST(IsoSurface, BadInputsAreErrors) {
  const ScalarField sphere = [](const glm::vec3& p) { return glm::length(p) - 0.3f; };
  const Box3 box{glm::vec3(-0.4f), glm::vec3(0.4f)};
  Result<TriangleMesh> zeroCell = extractIsoSurface(sphere, box, IsoSurfaceSettings{0.0f});
  ASSERT_FALSE(zeroCell);
  EXPECT_NE(zeroCell.error().message.find("cell size"), std::string::npos) << zeroCell.error().message;
  Result<TriangleMesh> huge = extractIsoSurface(sphere, box, IsoSurfaceSettings{1e-4f, 1000});
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("sample points"), std::string::npos) << huge.error().message;
  const ScalarField broken = [](const glm::vec3& p) { return p.x > 0.1f ? std::nanf("") : glm::length(p) - 0.3f; };
  Result<TriangleMesh> nan = extractIsoSurface(broken, box, IsoSurfaceSettings{0.05f});
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().message.find("not finite"), std::string::npos) << nan.error().message;
}

}  // namespace
}  // namespace hg
