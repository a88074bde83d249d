// The CPU self contact's broad phase (sim/cloth/SelfContactCandidates.h) against brute
// force: on two crumpled sheets with triangles of varied size, the lists hold every
// vertex-triangle and edge-edge pair closer than the radius, at the build and after every
// small move that reuses them; they are rebuilt exactly when the skin is used up and after
// a large move, but kept when the whole cloth translates; they are the same for 1 and 2 threads; NaN vertices are left
// out.
#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/SelfContactCandidates.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

/// Two sheets 4 mm apart, every vertex jittered by up to 40 % of a cell (so edges and
/// triangles differ in size), with their contact topology.
struct Crumpled {
  ContactTopology mesh;
  std::vector<glm::vec4> x;
};

Crumpled crumpledSheets() {
  TriangleMesh sheets;
  for (int layer = 0; layer < 2; ++layer) {
    SquareClothSpec spec;
    spec.resolution = 14;
    spec.size = 0.13f;  // 10 mm cells
    spec.center = glm::vec3(0.0f, 1.0f + 0.004f * float(layer), 0.0f);
    appendMesh(sheets, makeSquareSheet(spec).value());
  }
  Crumpled c;
  c.mesh = ContactTopology::of(sheets.indices, sheets.vertexCount());
  std::mt19937 random(7);
  std::uniform_real_distribution<float> jitter(-0.004f, 0.004f);
  for (const glm::vec3& p : sheets.positions)
    c.x.push_back(glm::vec4(p + glm::vec3(jitter(random), 0.5f * jitter(random), jitter(random)), 1.0f));
  return c;
}

glm::vec3 at(const Crumpled& c, std::uint32_t v) { return glm::vec3(c.x[v]); }

float vertexTriangleDistance(const Crumpled& c, std::uint32_t v, std::uint32_t t) {
  const std::uint32_t* tri = c.mesh.triangles.data() + 3 * std::size_t(t);
  const glm::vec3 p = at(c, v), a = at(c, tri[0]), b = at(c, tri[1]), d = at(c, tri[2]);
  return glm::length(kernels::pairSeparation(kernels::vertexTriangleWeights(p, a, b, d), p, a, b, d));
}

float edgeEdgeDistance(const Crumpled& c, std::uint32_t e, std::uint32_t f) {
  const glm::vec3 p1 = at(c, c.mesh.edges[e].x), q1 = at(c, c.mesh.edges[e].y), p2 = at(c, c.mesh.edges[f].x),
                  q2 = at(c, c.mesh.edges[f].y);
  return glm::length(kernels::pairSeparation(kernels::edgeEdgeWeights(p1, q1, p2, q2), p1, q1, p2, q2));
}

using PairSet = std::set<std::pair<std::uint32_t, std::uint32_t>>;

/// Every pair that shares no vertex and is closer than `radius`, by trying them all.
std::pair<PairSet, PairSet> bruteForce(const Crumpled& c, float radius) {
  PairSet vertexTriangle, edgeEdge;
  for (std::uint32_t v = 0; v < c.x.size(); ++v)
    for (std::uint32_t t = 0; 3 * t < c.mesh.triangles.size(); ++t) {
      const std::uint32_t* tri = c.mesh.triangles.data() + 3 * std::size_t(t);
      if (tri[0] != v && tri[1] != v && tri[2] != v && vertexTriangleDistance(c, v, t) < radius)
        vertexTriangle.insert({v, t});
    }
  for (std::uint32_t e = 0; e < c.mesh.edges.size(); ++e)
    for (std::uint32_t f = 0; f < c.mesh.edges.size(); ++f) {
      const glm::uvec2 a = c.mesh.edges[e], b = c.mesh.edges[f];
      const bool share = a.x == b.x || a.x == b.y || a.y == b.x || a.y == b.y;
      if (c.mesh.ownerOfEdge[e] < c.mesh.ownerOfEdge[f] && !share && edgeEdgeDistance(c, e, f) < radius)
        edgeEdge.insert({e, f});
    }
  return {vertexTriangle, edgeEdge};
}

PairSet asSet(std::span<const glm::uvec2> list) {
  PairSet set;
  for (glm::uvec2 p : list) EXPECT_TRUE(set.insert({p.x, p.y}).second) << "listed twice: " << p.x << ", " << p.y;
  return set;
}

/// Every brute-force pair is in the lists.
void expectListsHoldEveryPairWithin(const SelfContactCandidates& candidates, const Crumpled& c, float radius) {
  const auto [vertexTriangle, edgeEdge] = bruteForce(c, radius);
  ASSERT_GT(vertexTriangle.size(), 100u);  // both layers and the sheets' own neighbours
  ASSERT_GT(edgeEdge.size(), 100u);
  const PairSet listedVertexTriangle = asSet(candidates.vertexTriangle()),
                listedEdgeEdge = asSet(candidates.edgeEdge());
  for (const auto& p : vertexTriangle)
    EXPECT_TRUE(listedVertexTriangle.contains(p)) << p.first << " vs triangle " << p.second;
  for (const auto& p : edgeEdge) EXPECT_TRUE(listedEdgeEdge.contains(p)) << p.first << " vs edge " << p.second;
}

TEST(SelfContactCandidates, ListsHoldEveryPairWithinTheRadiusAndNoFarOne) {
  Crumpled c = crumpledSheets();
  SelfContactCandidates candidates;
  const float radius = 0.006f;
  ASSERT_TRUE(candidates.update(c.mesh, c.x, radius, 0.0f, 1));
  expectListsHoldEveryPairWithin(candidates, c, radius);
  // Nothing listed is further than the build's radius (the radius and its skin).
  const float built = radius + SelfContactCandidates::skin(radius, 0.0f);
  for (glm::uvec2 p : candidates.vertexTriangle()) EXPECT_LT(vertexTriangleDistance(c, p.x, p.y), built);
  for (glm::uvec2 p : candidates.edgeEdge()) EXPECT_LT(edgeEdgeDistance(c, p.x, p.y), built);
}

TEST(SelfContactCandidates, SmallMovesReuseTheListsUntilTheSkinIsUsedUp) {
  Crumpled c = crumpledSheets();
  SelfContactCandidates candidates;
  const float radius = 0.006f, move = 0.0002f;  // 0.2 mm per substep: a skin of 1.6 mm
  ASSERT_FLOAT_EQ(SelfContactCandidates::skin(radius, move), 0.0016f);
  ASSERT_TRUE(candidates.update(c.mesh, c.x, radius, move, 1));
  // Each vertex moves 0.19 mm per substep along its own direction: after 4 substeps the
  // vertices are 0.76 mm from where the lists were built (6 + 2 x 0.76 = 7.52 mm, within
  // the skin), after 5 they are 0.95 mm away and the lists are rebuilt (with a skin of
  // 8 x 0.19 mm), which last the 3 substeps after.
  std::mt19937 random(11);
  std::normal_distribution<float> gauss;
  std::vector<glm::vec3> directions;
  for (std::size_t v = 0; v < c.x.size(); ++v)
    directions.push_back(glm::normalize(glm::vec3(gauss(random), gauss(random), gauss(random))));
  for (int substep = 1; substep <= 8; ++substep) {
    for (std::size_t v = 0; v < c.x.size(); ++v) c.x[v] += glm::vec4(0.00019f * directions[v], 0.0f);
    EXPECT_EQ(candidates.update(c.mesh, c.x, radius, move, 1), substep == 5) << "substep " << substep;
    expectListsHoldEveryPairWithin(candidates, c, radius);
  }
  EXPECT_EQ(candidates.builds(), 2u);
  // The upper sheet slides 5 mm: the lists are rebuilt and hold the new pairs.
  for (std::size_t v = c.x.size() / 2; v < c.x.size(); ++v) c.x[v].x += 0.005f;
  EXPECT_TRUE(candidates.update(c.mesh, c.x, radius, move, 1));
  expectListsHoldEveryPairWithin(candidates, c, radius);
}

TEST(SelfContactCandidates, TheWholeClothTranslatedKeepsItsLists) {
  Crumpled c = crumpledSheets();
  SelfContactCandidates candidates;
  ASSERT_TRUE(candidates.update(c.mesh, c.x, 0.006f, 0.0f, 1));
  for (glm::vec4& p : c.x) p += glm::vec4(0.03f, -0.05f, 0.02f, 0.0f);  // 6 cm, ten times the radius
  EXPECT_FALSE(candidates.update(c.mesh, c.x, 0.006f, 0.0f, 1));
  expectListsHoldEveryPairWithin(candidates, c, 0.006f);
}

TEST(SelfContactCandidates, ListsAreTheSameForOneAndTwoThreads) {
  const Crumpled c = crumpledSheets();
  SelfContactCandidates one, two;
  one.update(c.mesh, c.x, 0.006f, 0.0f, 1);
  two.update(c.mesh, c.x, 0.006f, 0.0f, 2);
  ASSERT_EQ(one.vertexTriangle().size(), two.vertexTriangle().size());
  ASSERT_EQ(one.edgeEdge().size(), two.edgeEdge().size());
  EXPECT_TRUE(std::equal(one.vertexTriangle().begin(), one.vertexTriangle().end(), two.vertexTriangle().begin()));
  EXPECT_TRUE(std::equal(one.edgeEdge().begin(), one.edgeEdge().end(), two.edgeEdge().begin()));
}

TEST(SelfContactCandidates, NonFiniteVerticesTakePartInNoPair) {
  Crumpled c = crumpledSheets();
  c.x[5].y = NAN;
  SelfContactCandidates candidates;
  candidates.update(c.mesh, c.x, 0.006f, 0.0f, 1);
  for (glm::uvec2 p : candidates.vertexTriangle()) {
    EXPECT_NE(p.x, 5u);
    for (int k = 0; k < 3; ++k) EXPECT_NE(c.mesh.triangles[3 * std::size_t(p.y) + std::size_t(k)], 5u);
  }
  for (glm::uvec2 p : candidates.edgeEdge())
    for (std::uint32_t e : {p.x, p.y}) EXPECT_TRUE(c.mesh.edges[e].x != 5u && c.mesh.edges[e].y != 5u);
  EXPECT_GT(candidates.vertexTriangle().size(), 0u);
  // A NaN vertex never lets the lists be reused.
  EXPECT_TRUE(candidates.update(c.mesh, c.x, 0.006f, 0.0f, 1));
}

}  // namespace
}  // namespace hg
