// Panel meshing: seam edges get equal vertex counts in order, triangles keep their
// orientation in UV, quality (smallest angle) and area are preserved.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/garment/PanelMesher.h"
#include "sim/garment/Patterns.h"

namespace hg {
namespace {

double signedArea(glm::dvec2 a, glm::dvec2 b, glm::dvec2 c) {
  return 0.5 * ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

void checkPattern(const Pattern& pattern, const MeshingOptions& options) {
  auto meshed = meshPattern(pattern, options);
  ASSERT_TRUE(meshed.ok()) << meshed.error().message;
  ASSERT_EQ(meshed->panels.size(), pattern.panels.size());
  std::size_t vertices = 0, triangles = 0;
  double worst = 180.0;
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    const PanelMesh& pm = meshed->panels[p];
    const TriangleMesh& m = pm.mesh;
    vertices += m.positions.size();
    triangles += m.triangleCount();
    double area = 0.0;
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
      const glm::dvec2 a = m.uvs[m.indices[t]], b = m.uvs[m.indices[t + 1]], c = m.uvs[m.indices[t + 2]];
      EXPECT_GT(signedArea(a, b, c), 0.0)
          << pattern.panels[p].name << " triangle " << t / 3 << " is not positive in UV";
      area += signedArea(glm::dvec2(m.positions[m.indices[t]]), glm::dvec2(m.positions[m.indices[t + 1]]),
                         glm::dvec2(m.positions[m.indices[t + 2]]));
    }
    EXPECT_NEAR(area, pattern.panels[p].area(), 0.005 * pattern.panels[p].area()) << pattern.panels[p].name;
    const double angle = minTriangleAngleDegrees(m);
    worst = std::min(worst, angle);
    EXPECT_GT(angle, 20.0) << pattern.panels[p].name;  // stated bound: CGAL's shape criterion 20.7 deg, boundary kept
    // Edge vertices lie on the outline, in order of arc length.
    for (std::size_t e = 0; e < pm.edgeVertices.size(); ++e) {
      const auto& ids = pm.edgeVertices[e];
      const auto& pts = pattern.panels[p].edges[e].points;
      EXPECT_NEAR(glm::distance(glm::vec2(m.positions[ids.front()]), pts.front()), 0.0f, 1e-5f);
      EXPECT_NEAR(glm::distance(glm::vec2(m.positions[ids.back()]), pts.back()), 0.0f, 1e-5f);
      for (std::size_t k = 1; k < ids.size(); ++k)
        EXPECT_LE(glm::distance(glm::vec2(m.positions[ids[k - 1]]), glm::vec2(m.positions[ids[k]])),
                  options.targetEdgeLength + 1e-4f);
    }
  }
  for (const Seam& s : pattern.seams) {
    const auto& a = meshed->panels[std::size_t(s.panelA)].edgeVertices[std::size_t(s.edgeA)];
    const auto& b = meshed->panels[std::size_t(s.panelB)].edgeVertices[std::size_t(s.edgeB)];
    EXPECT_EQ(a.size(), b.size()) << s.name;
    // Paired points sit at the same arc-length fraction of the drafted edges (measured here
    // along the chords, which differ from the arc by < 0.5%, about 1 mm, on these curves).
    const auto fraction = [&](int panel, const std::vector<std::uint32_t>& ids, std::size_t k) {
      const TriangleMesh& m = meshed->panels[std::size_t(panel)].mesh;
      double before = 0.0, total = 0.0;
      for (std::size_t i = 1; i < ids.size(); ++i) {
        const double d = glm::distance(m.positions[ids[i - 1]], m.positions[ids[i]]);
        total += d;
        if (i <= k) before += d;
      }
      return before / total;
    };
    for (std::size_t k = 0; k < a.size() && a.size() == b.size(); ++k)
      EXPECT_NEAR(fraction(s.panelA, a, k), 1.0 - fraction(s.panelB, b, a.size() - 1 - k), 5e-3)
          << s.name;  // chords vs arc length of a curve
  }
  std::printf("[ mesher ] %-8s h = %.3f m: %zu vertices, %zu triangles, smallest angle %.1f deg\n",
              pattern.name.c_str(), double(options.targetEdgeLength), vertices, triangles, worst);
}

TEST(PanelMesher, EveryGarmentMeshesWithMatchingSeamsGoodTrianglesAndItsArea) {
  const GarmentSizing s;
  MeshingOptions options;
  options.targetEdgeLength = 0.02f;
  for (auto pattern : {tShirt(s), skirt(s), trousers(s), dress(s)}) {
    ASSERT_TRUE(pattern.ok()) << pattern.error().message;
    checkPattern(*pattern, options);
  }
  options.targetEdgeLength = 0.015f;
  auto shirt = tShirt(s.scaled(1.15f));
  ASSERT_TRUE(shirt.ok());
  checkPattern(*shirt, options);
}

/// The same pattern gives the same mesh, to the bit, whatever the heap held before: blocks
/// of many sizes are left allocated (and every other one freed) between two meshings, which
/// moved CGAL's vertex blocks relative to each other while they came from malloc (Lloyd
/// smoothing visits vertices in handle-address order) and gave other triangles.
TEST(PanelMesher, TheSameMeshWhateverTheHeapHeld) {
  const GarmentSizing s;
  MeshingOptions options;
  options.targetEdgeLength = 0.02f;
  auto pattern = tShirt(s);
  ASSERT_TRUE(pattern.ok());
  auto first = meshPattern(*pattern, options);
  ASSERT_TRUE(first.ok()) << first.error().message;
  std::vector<std::vector<char>> clutter;
  for (std::size_t i = 0; i < 4000; ++i) clutter.emplace_back(64 + (i * 7919) % 9000);
  for (std::size_t i = 0; i < clutter.size(); i += 2) clutter[i] = {};
  auto second = meshPattern(*pattern, options);
  ASSERT_TRUE(second.ok()) << second.error().message;
  ASSERT_EQ(first->panels.size(), second->panels.size());
  for (std::size_t p = 0; p < first->panels.size(); ++p) {
    EXPECT_EQ(first->panels[p].mesh.positions, second->panels[p].mesh.positions) << pattern->panels[p].name;
    EXPECT_EQ(first->panels[p].mesh.indices, second->panels[p].mesh.indices) << pattern->panels[p].name;
  }
}

TEST(PanelMesher, UvFollowsTheGrainAtTheTextureScale) {
  EXPECT_EQ(panelUv({0.2f, 0.5f}, 0.5f), glm::vec2(1.0f, -0.4f));  // u = y / s (warp), v = -x / s
}

TEST(PanelMesher, RejectsAnInvalidPattern) {
  auto p = skirt(GarmentSizing{});
  ASSERT_TRUE(p.ok());
  Pattern broken = *p;
  broken.panels[0].edges[0].points.back().x += 0.01f;
  const auto r = meshPattern(broken);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("panel 'front'"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace hg
