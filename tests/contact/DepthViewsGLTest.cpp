// Depth views on the GPU (sim/gpu/GpuDepthViewRenderer, sim/gpu/shaders/depth_view.*) against
// the CPU reference rasterizer (sim/contact/DepthViews.cpp): coverage, depths, normals
// and velocities of every view and layer, texel by texel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/contact/DepthViews.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

class DepthViewsGLTest : public test::GlTest {};

const std::vector<DepthViewDirection> kAll{DepthViewDirection::Top,   DepthViewDirection::Front,
                                           DepthViewDirection::Back,  DepthViewDirection::Left,
                                           DepthViewDirection::Right, DepthViewDirection::Bottom};

constexpr float kGrazing = 0.2f;  // |n . forward| below this: a silhouette crossing

/// Rigid motion: translation plus rotation about `centre` (linear in position, so the
/// interpolated velocity is exact on the facets).
std::vector<glm::vec3> rigidVelocities(const TriangleMesh& mesh, glm::vec3 centre, glm::vec3 w, glm::vec3 omega) {
  std::vector<glm::vec3> v(mesh.vertexCount());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = w + glm::cross(omega, mesh.positions[i] - centre);
  return v;
}

struct Comparison {
  std::size_t coveredTexels = 0;     // texels (of layer 0) with a surface in either image
  std::size_t mismatchedTexels = 0;  // texels whose crossing counts differ
  std::size_t mismatchedNotGrazing = 0;
  std::size_t comparedCrossings = 0, grazingCrossings = 0;
  std::size_t depthFailures = 0, normalFailures = 0, velocityFailures = 0;
  double maxDepthRel = 0.0;         // |depth difference| / range, non-grazing crossings
  double maxDepthRelGrazing = 0.0;  // the same at grazing crossings (reported only)
  double maxNormal = 0.0, maxVelocityRel = 0.0;
  std::size_t deepestLayer = 0;  // layers with a surface somewhere

  void print(const char* name) const {
    std::printf(
        "[ %-8s ] covered %zu, count mismatches %zu (%.4f%%, %zu not grazing), crossings %zu (+%zu grazing), "
        "max |dd|/range %.3g (grazing %.3g), max |dn| %.3g, max |dv|/|v| %.3g, layers used %zu\n",
        name, coveredTexels, mismatchedTexels,
        coveredTexels ? 100.0 * double(mismatchedTexels) / double(coveredTexels) : 0.0, mismatchedNotGrazing,
        comparedCrossings, grazingCrossings, maxDepthRel, maxDepthRelGrazing, maxNormal, maxVelocityRel, deepestLayer);
  }
};

/// Texel-by-texel comparison of two image sets of the same setup.
Comparison compare(const DepthViewImages& gpu, const DepthViewImages& cpu, float velocityScale) {
  Comparison c;
  const DepthViewSetup& setup = cpu.setup;
  for (const kernels::DepthView& v : setup.views) {
    const int width = int(v.right.w), height = int(v.up.w), layers = int(v.texels.y);
    const glm::vec3 f(v.forward);
    const double range = v.forward.w;
    auto at = [&](int k, int i, int j) {
      return std::size_t(v.texels.x) + (std::size_t(k) * std::size_t(height) + std::size_t(j)) * std::size_t(width) +
             std::size_t(i);
    };
    for (int j = 0; j < height; ++j)
      for (int i = 0; i < width; ++i) {
        int countGpu = 0, countCpu = 0;
        bool anyGrazing = false;
        for (int k = 0; k < layers; ++k) {
          const glm::vec4 g = gpu.normalDepth[at(k, i, j)], r = cpu.normalDepth[at(k, i, j)];
          if (g.w < HG_NO_SURFACE_DEPTH) {
            ++countGpu;
            anyGrazing = anyGrazing || std::abs(glm::dot(glm::vec3(g), f)) < kGrazing;
            c.deepestLayer = std::max(c.deepestLayer, std::size_t(k) + 1);
          } else {
            EXPECT_EQ(g, glm::vec4(0.0f, 0.0f, 0.0f, HG_NO_SURFACE_DEPTH));
            EXPECT_EQ(gpu.velocity[at(k, i, j)], glm::vec4(0.0f));
          }
          if (r.w < HG_NO_SURFACE_DEPTH) {
            ++countCpu;
            anyGrazing = anyGrazing || std::abs(glm::dot(glm::vec3(r), f)) < kGrazing;
          }
        }
        if (countGpu > 0 || countCpu > 0) ++c.coveredTexels;
        if (countGpu != countCpu) {
          ++c.mismatchedTexels;
          if (!anyGrazing) ++c.mismatchedNotGrazing;
          continue;
        }
        for (int k = 0; k < countCpu; ++k) {
          const glm::vec4 g = gpu.normalDepth[at(k, i, j)], r = cpu.normalDepth[at(k, i, j)];
          const double dd = std::abs(double(g.w) - double(r.w)) / range;
          if (std::abs(glm::dot(glm::vec3(r), f)) < kGrazing) {
            ++c.grazingCrossings;
            c.maxDepthRelGrazing = std::max(c.maxDepthRelGrazing, dd);
            continue;
          }
          ++c.comparedCrossings;
          c.maxDepthRel = std::max(c.maxDepthRel, dd);
          if (dd > 1e-6) ++c.depthFailures;
          const double dn = glm::length(glm::vec3(g) - glm::vec3(r));
          c.maxNormal = std::max(c.maxNormal, dn);
          if (dn > 1e-3) ++c.normalFailures;
          const double dv =
              glm::length(glm::vec3(gpu.velocity[at(k, i, j)]) - glm::vec3(cpu.velocity[at(k, i, j)])) / velocityScale;
          c.maxVelocityRel = std::max(c.maxVelocityRel, dv);
          // Velocities are interpolated by the rasterizer, not in the kernel: NVIDIA's
          // attribute interpolation (H100) differs from llvmpipe's by up to 5.7e-5 |v|.
          if (dv > 1e-4) ++c.velocityFailures;
        }
      }
  }
  return c;
}

void expectAgreement(const Comparison& c, std::size_t minLayers) {
  EXPECT_GT(c.coveredTexels, 1000u);
  EXPECT_LT(double(c.mismatchedTexels), 0.005 * double(c.coveredTexels));
  EXPECT_EQ(c.mismatchedNotGrazing, 0u);
  EXPECT_EQ(c.depthFailures, 0u) << "max |depth difference| / range " << c.maxDepthRel;
  EXPECT_EQ(c.normalFailures, 0u) << "max |normal difference| " << c.maxNormal;
  EXPECT_EQ(c.velocityFailures, 0u) << "max |velocity difference| / |v| " << c.maxVelocityRel;
  EXPECT_GE(c.deepestLayer, minLayers);
}

struct Body {
  const char* name;
  TriangleMesh mesh;
  glm::vec3 centre;
  float texelSize;
  std::size_t layersUsed;  // crossings the deepest ray has
};

std::vector<Body> bodies() {
  return {
      {"sphere", makeIcosphere({0.05f, 1.1f, -0.02f}, 0.3f, 5), {0.05f, 1.1f, -0.02f}, 0.004f, 2},
      {"capsule",
       makeCapsule({0.0f, 0.9f, 0.0f}, {0.12f, 1.35f, -0.07f}, 0.12f, 12, 48),
       {0.06f, 1.12f, -0.035f},
       0.004f,
       2},
      {"box", makeBox({-0.21f, 0.83f, -0.17f}, {0.19f, 1.29f, 0.26f}, 3), {-0.01f, 1.06f, 0.045f}, 0.004f, 2},
      {"torus", makeTorus({0.02f, 1.0f, 0.03f}, 0.3f, 0.1f, 128, 64), {0.02f, 1.0f, 0.03f}, 0.005f, 4},
  };
}

TEST_F(DepthViewsGLTest, MatchesTheCpuReference) {
  for (const Body& body : bodies()) {
    SCOPED_TRACE(body.name);
    DepthViewOptions o;
    o.directions = kAll;
    o.texelSize = body.texelSize;
    o.layers = 4;
    auto setup = makeDepthViewSetup(body.mesh, o);
    ASSERT_TRUE(setup) << setup.error().message;
    const glm::vec3 w(0.4f, -0.9f, 0.25f), omega(1.5f, -0.7f, 2.0f);
    const auto velocities = rigidVelocities(body.mesh, body.centre, w, omega);
    float velocityScale = 0.0f;
    for (const glm::vec3& v : velocities) velocityScale = std::max(velocityScale, glm::length(v));
    auto cpu = rasterizeDepthViews(body.mesh, velocities, *setup);
    ASSERT_TRUE(cpu) << cpu.error().message;
    auto renderer = GpuDepthViewRenderer::create(*setup);
    ASSERT_TRUE(renderer) << renderer.error().message;
    const Status status = (*renderer)->render(body.mesh, velocities);
    ASSERT_TRUE(status) << status.error().message;
    const DepthViewImages gpu = (*renderer)->read();
    ASSERT_EQ(gpu.normalDepth.size(), cpu->normalDepth.size());
    ASSERT_EQ(gpu.velocity.size(), cpu->velocity.size());
    const Comparison c = compare(gpu, *cpu, velocityScale);
    c.print(body.name);
    expectAgreement(c, body.layersUsed);
  }
}

// Box faces and grid lines on texel centres (texel size 2^-6 m, coordinates multiples of
// it): every tie goes through the rasterization rule, and GPU and CPU cover the same texels.
TEST_F(DepthViewsGLTest, TieRuleMatchesTheCpu) {
  const float h = 1.0f / 64.0f;
  const glm::vec3 lo(-10 * h, 20 * h, -6 * h), hi(14 * h, 36 * h, 10 * h);
  const TriangleMesh mesh = makeBox(lo, hi, 3);  // grid lines every 6, 4, 4 texels
  DepthViewOptions o;
  o.directions = kAll;
  o.texelSize = h;
  o.layers = 2;
  o.margin = 0.0f;
  // The views' image planes start half a texel plus 3 texels off the box: edges at centres.
  auto setup = makeDepthViewSetup(lo - glm::vec3(3.5f * h), hi + glm::vec3(3.5f * h), o);
  ASSERT_TRUE(setup) << setup.error().message;
  auto cpu = rasterizeDepthViews(mesh, {}, *setup);
  ASSERT_TRUE(cpu) << cpu.error().message;
  auto renderer = GpuDepthViewRenderer::create(*setup);
  ASSERT_TRUE(renderer) << renderer.error().message;
  ASSERT_TRUE((*renderer)->render(mesh, {}));
  const DepthViewImages gpu = (*renderer)->read();
  std::size_t differ = 0, covered = 0;
  for (std::size_t t = 0; t < gpu.normalDepth.size(); ++t) {
    const bool g = gpu.normalDepth[t].w < HG_NO_SURFACE_DEPTH, r = cpu->normalDepth[t].w < HG_NO_SURFACE_DEPTH;
    covered += r ? 1 : 0;
    differ += g != r ? 1 : 0;
    if (g && r) {
      EXPECT_EQ(gpu.normalDepth[t].w, cpu->normalDepth[t].w);
    }
  }
  std::printf("[ ties     ] %zu covered texel layers, %zu differ\n", covered, differ);
  EXPECT_GT(covered, 1000u);
  EXPECT_EQ(differ, 0u);
}

// The same renderer, used again: a moved body, then other meshes (smaller and larger
// vertex buffers); every render gives that mesh's images, no stale layers.
TEST_F(DepthViewsGLTest, RenderingAgainReplacesTheImages) {
  DepthViewOptions o;
  o.directions = {DepthViewDirection::Top, DepthViewDirection::Front, DepthViewDirection::Back};
  o.texelSize = 0.005f;
  o.layers = 4;
  auto setup = makeDepthViewSetup(glm::vec3(-0.45f, 0.5f, -0.45f), glm::vec3(0.45f, 1.5f, 0.45f), o);
  ASSERT_TRUE(setup) << setup.error().message;
  auto renderer = GpuDepthViewRenderer::create(*setup);
  ASSERT_TRUE(renderer) << renderer.error().message;
  // Before any render: no surface anywhere.
  for (const glm::vec4& nd : (*renderer)->read().normalDepth) ASSERT_EQ(nd.w, HG_NO_SURFACE_DEPTH);

  const TriangleMesh torus = makeTorus({0.0f, 1.0f, 0.0f}, 0.3f, 0.1f, 96, 48);  // 4608 vertices
  TriangleMesh sphere = makeIcosphere({0.0f, 1.0f, 0.0f}, 0.3f, 5);              // 10242 vertices
  TriangleMesh moved = sphere;
  for (glm::vec3& p : moved.positions) p += glm::vec3(0.07f, -0.05f, 0.03f);
  const TriangleMesh box = makeBox({-0.2f, 0.8f, -0.1f}, {0.1f, 1.2f, 0.3f}, 1);  // 56 vertices
  const std::vector<glm::vec3> sphereVelocity(sphere.vertexCount(), glm::vec3(0.0f, 0.0f, 1.0f));
  const std::vector<glm::vec3> movedVelocity(sphere.vertexCount(), glm::vec3(2.0f, 0.0f, 0.0f));
  struct Step {
    const char* name;
    const TriangleMesh* mesh;
    std::span<const glm::vec3> velocities;
  };
  const Step steps[] = {{"torus", &torus, {}},
                        {"sphere", &sphere, sphereVelocity},
                        {"moved", &moved, movedVelocity},
                        {"box", &box, {}},
                        {"torus2", &torus, {}}};
  for (const Step& step : steps) {
    SCOPED_TRACE(step.name);
    ASSERT_TRUE((*renderer)->render(*step.mesh, step.velocities));
    auto cpu = rasterizeDepthViews(*step.mesh, step.velocities, *setup);
    ASSERT_TRUE(cpu) << cpu.error().message;
    const Comparison c = compare((*renderer)->read(), *cpu, 2.0f);
    c.print(step.name);
    expectAgreement(c, 2);
  }
}

TEST_F(DepthViewsGLTest, BadInputsAreErrors) {
  EXPECT_FALSE(GpuDepthViewRenderer::create(DepthViewSetup{}));
  TriangleMesh mesh = makeIcosphere({0.0f, 0.0f, 0.0f}, 0.2f, 2);
  auto setup = makeDepthViewSetup(mesh, DepthViewOptions{});
  ASSERT_TRUE(setup);
  auto renderer = GpuDepthViewRenderer::create(*setup);
  ASSERT_TRUE(renderer) << renderer.error().message;
  EXPECT_EQ((*renderer)->setup().views.size(), DepthViewOptions{}.directions.size());
  EXPECT_NE((*renderer)->viewsBuffer(), 0u);
  EXPECT_NE((*renderer)->normalDepthBuffer(), 0u);
  EXPECT_NE((*renderer)->velocityBuffer(), 0u);
  const std::vector<glm::vec3> tooFew(3, glm::vec3(0.0f));
  const Status mismatch = (*renderer)->render(mesh, tooFew);
  ASSERT_FALSE(mismatch);
  EXPECT_NE(mismatch.error().message.find("velocities"), std::string::npos);
  mesh.positions[3].x = std::nanf("");
  const Status nan = (*renderer)->render(mesh, {});
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().message.find("vertex 3"), std::string::npos);
  // The views buffer holds the setup's records.
  std::vector<kernels::DepthView> views(setup->views.size());
  glGetNamedBufferSubData((*renderer)->viewsBuffer(), 0, GLsizeiptr(views.size() * sizeof(kernels::DepthView)),
                          views.data());
  for (std::size_t v = 0; v < views.size(); ++v) {
    EXPECT_EQ(views[v].origin, setup->views[v].origin);
    EXPECT_EQ(views[v].texels, setup->views[v].texels);
  }
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

}  // namespace
}  // namespace hg
