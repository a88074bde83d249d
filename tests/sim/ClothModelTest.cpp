// Topology, mass and CSR adjacency of the square cloth.
#include <numeric>
#include <set>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"

namespace hg {
namespace {

TEST(ClothModel, SpringCountsOfAGrid) {
  for (int r : {2, 3, 7, 35}) {
    SquareClothSpec spec;
    spec.resolution = r;
    auto model = makeSquareCloth(spec);
    ASSERT_TRUE(model) << model.error().message;
    const std::size_t structural = 2u * r * (r - 1), shear = 2u * (r - 1) * (r - 1),
                      bend = r > 2 ? 2u * r * (r - 2) : 0u;
    EXPECT_EQ(model->springs.size(), structural + shear + bend) << "resolution " << r;
    EXPECT_EQ(model->vertexCount(), std::size_t(r * r));
    EXPECT_EQ(model->triangles.size(), 6u * (r - 1) * (r - 1));
  }
}

TEST(ClothModel, MassIsWOverPPerVertex) {
  SquareClothSpec spec;
  spec.resolution = 10;
  spec.mass = 0.5f;
  auto model = makeSquareCloth(spec);
  ASSERT_TRUE(model);
  double total = 0.0;
  for (const glm::vec4& p : model->restPositions) total += 1.0 / p.w;
  EXPECT_NEAR(total, 0.5, 1e-5);
}

TEST(ClothModel, AdjacencyIsSymmetricSortedAndComplete) {
  SquareClothSpec spec;
  spec.resolution = 9;
  auto model = makeSquareCloth(spec);
  ASSERT_TRUE(model);
  const auto& offsets = model->springOffsets;
  ASSERT_EQ(offsets.size(), model->vertexCount() + 1);
  EXPECT_EQ(offsets.back(), 2 * model->springs.size());
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (std::uint32_t i = 0; i < model->vertexCount(); ++i) {
    for (std::uint32_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      const auto& e = model->springEntries[k];
      if (k > offsets[i]) {
        EXPECT_LT(model->springEntries[k - 1].neighbor, e.neighbor);
      }
      seen.insert({i, e.neighbor});
      EXPECT_GT(e.restLength, 0.0f);
    }
  }
  for (const auto& [i, j] : seen) EXPECT_TRUE(seen.count({j, i})) << i << "-" << j;
}

TEST(ClothModel, RestLengthsMatchGridSpacing) {
  SquareClothSpec spec;
  spec.resolution = 5;
  spec.size = 2.0f;
  auto model = makeSquareCloth(spec);
  ASSERT_TRUE(model);
  std::set<int> lengthsInMillimetres;
  for (const Spring& s : model->springs) lengthsInMillimetres.insert(int(std::lround(s.restLength * 1000.0f)));
  EXPECT_EQ(lengthsInMillimetres, (std::set<int>{500, 707, 1000}));
}

TEST(ClothModel, PinnedVerticesHaveZeroInverseMass) {
  SquareClothSpec spec;
  spec.resolution = 4;
  spec.pinned = {0, 3};
  auto model = makeSquareCloth(spec);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->restPositions[0].w, 0.0f);
  EXPECT_EQ(model->restPositions[3].w, 0.0f);
  EXPECT_GT(model->restPositions[1].w, 0.0f);
}

TEST(ClothModel, InvalidSpecsAreErrorsThatSayWhy) {
  SquareClothSpec spec;
  spec.resolution = 1;
  auto tooSmall = makeSquareCloth(spec);
  ASSERT_FALSE(tooSmall);
  EXPECT_NE(tooSmall.error().message.find("resolution"), std::string::npos);
  spec.resolution = 4;
  spec.pinned = {16};
  auto badPin = makeSquareCloth(spec);
  ASSERT_FALSE(badPin);
  EXPECT_NE(badPin.error().message.find("pinned vertex 16"), std::string::npos);
  spec.pinned = {};
  spec.mass = -1.0f;
  EXPECT_FALSE(makeSquareCloth(spec));
}

TEST(ClothModel, RestMeshNormalsFaceUp) {
  SquareClothSpec spec;
  spec.resolution = 6;
  auto model = makeSquareCloth(spec);
  ASSERT_TRUE(model);
  const TriangleMesh mesh = model->restMesh();
  for (const glm::vec3& n : mesh.normals) EXPECT_NEAR(n.y, 1.0f, 1e-6f);
}

}  // namespace
}  // namespace hg
