// Topology, mass, adjacency and anisotropy of the triangle-mesh cloth model.
#include <cmath>
#include <numeric>
#include <set>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

TEST(ClothModel, SpringsOnEdgesHingesOnInteriorEdges) {
  for (int r : {2, 3, 7, 35}) {
    auto model = test::sheet(r);
    const std::size_t cells = std::size_t(r - 1) * std::size_t(r - 1);
    const std::size_t edges = 2u * std::size_t(r) * std::size_t(r - 1) + cells;  // grid edges + one diagonal per cell
    const std::size_t boundary = 4u * std::size_t(r - 1);
    EXPECT_EQ(model->springs.size(), edges) << "resolution " << r;
    EXPECT_EQ(model->hinges.size(), edges - boundary) << "resolution " << r;
    EXPECT_EQ(model->vertexCount(), std::size_t(r * r));
    EXPECT_EQ(model->triangles.size(), 6u * cells);
  }
}

TEST(ClothModel, MassIsWOverPPerVertexOrAreaWeighted) {
  ClothMaterial material;
  material.arealDensity = 0.2f;
  auto even = test::sheet(10, {}, material, std::nullopt, 1.0f);
  double total = 0.0;
  for (const glm::vec4& p : even->restPositions) {
    total += 1.0 / p.w;
    EXPECT_FLOAT_EQ(p.w, even->restPositions[0].w);  // W / p: every vertex alike
  }
  EXPECT_NEAR(total, 0.2, 1e-5);
  material.areaWeightedMass = true;
  auto weighted = test::sheet(10, {}, material, std::nullopt, 1.0f);
  total = 0.0;
  for (const glm::vec4& p : weighted->restPositions) total += 1.0 / p.w;
  EXPECT_NEAR(total, 0.2, 1e-5);
  EXPECT_GT(weighted->restPositions[0].w, weighted->restPositions[55].w);  // corners are lighter
}

TEST(ClothModel, AdjacencyIsSortedAndCoversEveryElementOnce) {
  auto model = test::sheet(9);
  ASSERT_EQ(model->springOffsets.size(), model->vertexCount() + 1);
  EXPECT_EQ(model->springOffsets.back(), 2 * model->springs.size());
  EXPECT_EQ(model->hingeOffsets.back(), 4 * model->hinges.size());
  std::multiset<std::uint32_t> springUses, hingeUses;
  for (std::uint32_t i = 0; i < model->vertexCount(); ++i) {
    for (std::uint32_t k = model->springOffsets[i]; k < model->springOffsets[i + 1]; ++k) {
      const auto& e = model->springEntries[k];
      if (k > model->springOffsets[i]) {
        EXPECT_LT(model->springEntries[k - 1].neighbor, e.neighbor);
      }
      const auto& s = model->springs[e.spring];
      EXPECT_TRUE((s.a == i && s.b == e.neighbor) || (s.b == i && s.a == e.neighbor));
      springUses.insert(e.spring);
    }
    for (std::uint32_t k = model->hingeOffsets[i]; k < model->hingeOffsets[i + 1]; ++k) {
      const std::uint32_t entry = model->hingeEntries[k];
      EXPECT_EQ(model->hinges[entry / 4].vertices[int(entry % 4)], i);
      hingeUses.insert(entry);
    }
  }
  for (std::uint32_t s = 0; s < model->springs.size(); ++s) EXPECT_EQ(springUses.count(s), 2u);
  EXPECT_EQ(hingeUses.size(), 4 * model->hinges.size());
}

TEST(ClothModel, FlatSheetHasFlatRestAnglesAndGridRestLengths) {
  auto model = test::sheet(5, {}, {}, std::nullopt, 2.0f);
  std::set<int> lengthsInMillimetres;
  for (const auto& s : model->springs) lengthsInMillimetres.insert(int(std::lround(s.restLength * 1000.0f)));
  EXPECT_EQ(lengthsInMillimetres, (std::set<int>{500, 707}));
  for (const auto& h : model->hinges) EXPECT_NEAR(h.restAngle, 0.0f, 1e-6f);
}

TEST(ClothModel, PinnedVerticesHaveZeroInverseMass) {
  auto model = test::sheet(4, {0, 3});
  EXPECT_EQ(model->restPositions[0].w, 0.0f);
  EXPECT_EQ(model->restPositions[3].w, 0.0f);
  EXPECT_GT(model->restPositions[1].w, 0.0f);
}

TEST(ClothModel, InvalidInputIsAnErrorThatSaysWhy) {
  SquareClothSpec spec;
  spec.resolution = 1;
  auto tooSmall = makeSquareSheet(spec);
  ASSERT_FALSE(tooSmall);
  EXPECT_NE(tooSmall.error().message.find("resolution"), std::string::npos);
  spec.resolution = 4;
  const TriangleMesh mesh = makeSquareSheet(spec).value();
  auto badPin = buildClothModel(mesh, {}, {16});
  ASSERT_FALSE(badPin);
  EXPECT_NE(badPin.error().message.find("pinned vertex 16"), std::string::npos);
  TriangleMesh noUvs = mesh;
  noUvs.uvs.clear();
  EXPECT_NE(buildClothModel(noUvs, {}).error().message.find("UVs"), std::string::npos);
  TriangleMesh flipped = mesh;
  std::swap(flipped.indices[1], flipped.indices[2]);  // one triangle wound the other way
  EXPECT_NE(buildClothModel(flipped, {}).error().message.find("inconsistent winding"), std::string::npos);
  TriangleMesh nonManifold = mesh;
  nonManifold.positions.push_back(glm::vec3(0.0f, 5.0f, 0.0f));
  nonManifold.uvs.push_back(glm::vec2(0.0f));
  nonManifold.indices.insert(nonManifold.indices.end(), {0, 1, 16, 1, 0, 16});  // edge 0-1 in three triangles
  EXPECT_NE(buildClothModel(nonManifold, {}).error().message.find("non-manifold"), std::string::npos);
  TriangleMesh degenerate = mesh;
  degenerate.indices[2] = degenerate.indices[1];
  EXPECT_NE(buildClothModel(degenerate, {}).error().message.find("degenerate"), std::string::npos);
}

TEST(ClothModel, RestMeshNormalsFaceUp) {
  const TriangleMesh mesh = test::sheet(6)->restMesh();
  for (const glm::vec3& n : mesh.normals) EXPECT_NEAR(n.y, 1.0f, 1e-6f);
}

TEST(ClothModel, AnisotropyMultipliesStiffnessByUvDirection) {
  // Uniform texture: warp 1.6, weft 0.4, bias +u+v 1.0, bias -u+v 0.2 (scale 2).
  auto plain = test::sheet(6);
  auto textured = test::sheet(6, {}, {}, AnisotropyTexture::uniform(glm::vec4(1.6f, 0.4f, 1.0f, 0.2f), 2.0f));
  ASSERT_EQ(plain->springs.size(), textured->springs.size());
  for (std::size_t s = 0; s < plain->springs.size(); ++s) {
    const auto& spring = textured->springs[s];
    const glm::vec2 d(spring.uv.z, spring.uv.w);
    float expected = 0.0f;
    if (std::abs(d.y) < 1e-6f)
      expected = 1.6f;  // along u: warp (R)
    else if (std::abs(d.x) < 1e-6f)
      expected = 0.4f;  // along v: weft (G)
    else if (d.x * d.y > 0.0f)
      expected = 1.0f;  // +u+v: bias (B)
    else
      expected = 0.2f;  // -u+v: bias (A)
    // 8-bit channels: K = round(K / 2 * 255) / 255 * 2.
    EXPECT_NEAR(spring.stiffness / spring.baseStiffness, expected, 2.0f / 255.0f) << "spring " << s;
    EXPECT_FLOAT_EQ(plain->springs[s].stiffness, plain->springs[s].baseStiffness);
  }
}

}  // namespace
}  // namespace hg
