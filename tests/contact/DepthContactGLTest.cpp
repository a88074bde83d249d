// Body contact through depth views in the cloth solvers: the CPU and GPU backends run
// the same contact kernel (kernels/depth_contact.glslh) and must agree; the GPU solver
// can collide with views the GPU renderer left in its buffers, with the same result as
// with the CPU reference's images uploaded; a sheet lands on a sphere seen through the
// views and stays outside it (exact reference: CGAL distances to the mesh).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "sim/contact/DepthViews.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/gpu/GpuClothSolverBase.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "tests/support/ClothFixtures.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using test::sheet;
using test::worstExcess;

class DepthContactGLTest : public test::GlTest {};

constexpr glm::vec3 kCentre(0.0f, 0.6f, 0.0f);
constexpr float kRadius = 0.5f;

TriangleMesh sphereMesh() { return makeIcosphere(kCentre, kRadius, 5); }

std::shared_ptr<const DepthViewImages> sphereViews(int layers, float texel = 0.004f) {
  DepthViewOptions options;
  options.directions = {DepthViewDirection::Top, DepthViewDirection::Front, DepthViewDirection::Back,
                        DepthViewDirection::Left, DepthViewDirection::Right};
  options.layers = layers;
  options.texelSize = texel;
  const TriangleMesh mesh = sphereMesh();
  auto setup = makeDepthViewSetup(mesh, options);
  EXPECT_TRUE(setup) << setup.error().message;
  auto images = rasterizeDepthViews(mesh, {}, *setup);
  EXPECT_TRUE(images) << images.error().message;
  return std::make_shared<const DepthViewImages>(std::move(images).value());
}

ClothSettings viewSettings(std::shared_ptr<const DepthViewImages> views) {
  ClothSettings settings = test::withoutColliders();
  settings.substeps = 1;
  settings.frameDt = 1.0f / 2400.0f;
  settings.colliders.depthViews = std::move(views);
  // Frictionless: at the static/kinetic switch round-off would make single vertices
  // differ by up to mu dvn (the friction kernel is cross-checked in KernelGLTest).
  settings.friction = 0.0f;
  return settings;
}

ClothState stepOnce(Backend backend, std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                    const ClothState& start) {
  auto solver = createClothSolver(backend, std::move(model), settings);
  EXPECT_TRUE(solver) << solver.error().message;
  (*solver)->writeState(start);
  EXPECT_EQ((*solver)->step(), StepStatus::Ok);
  return (*solver)->readState();
}

TEST_F(DepthContactGLTest, OneSubstepAgreesBetweenCpuAndGpu) {
  for (int layers : {1, 4}) {
    const ClothSettings settings = viewSettings(sphereViews(layers));
    auto [model, start] = test::wrappedSheet(kCentre, kRadius);
    int inContact = 0;
    for (const glm::vec4& p : start.positions)
      inContact +=
          depthViewContact(*settings.colliders.depthViews, glm::vec3(p), 0.0f).normalGap.w < settings.contactOffset;
    std::printf("[ depth cross-check ] %d layer(s): %d of %zu vertices start in contact\n", layers, inContact,
                start.positions.size());
    ASSERT_GT(inContact, 600);
    const ClothState cpu = stepOnce(Backend::Cpu, model, settings, start);
    const ClothState gpu = stepOnce(Backend::Gpu, model, settings, start);
    const float positionExcess = worstExcess(cpu.positions, gpu.positions, 1e-6f, 1e-6f);
    const float velocityExcess = worstExcess(cpu.velocities, gpu.velocities, 1e-5f, 1e-5f);
    if (positionExcess > 0.0f || velocityExcess > 0.0f) test::dumpStates(cpu, gpu, "depth_crosscheck");
    EXPECT_LE(positionExcess, 0.0f) << layers << " layer(s)";
    EXPECT_LE(velocityExcess, 0.0f) << layers << " layer(s)";
  }
}

// The GPU path without readback: GpuDepthViewRenderer's buffers bound by the solver.
TEST_F(DepthContactGLTest, GpuRenderedViewsGiveTheSameStepAsUploadedOnes) {
  const std::shared_ptr<const DepthViewImages> uploaded = sphereViews(4);
  auto renderer = GpuDepthViewRenderer::create(uploaded->setup);
  ASSERT_TRUE(renderer) << renderer.error().message;
  ASSERT_TRUE((*renderer)->render(sphereMesh(), {}));
  auto [model, start] = test::wrappedSheet(kCentre, kRadius);
  const ClothState reference = stepOnce(Backend::Gpu, model, viewSettings(uploaded), start);
  auto solver = createClothSolver(Backend::Gpu, model, viewSettings(nullptr));
  ASSERT_TRUE(solver) << solver.error().message;
  auto* gpu = dynamic_cast<GpuClothSolverBase*>(solver->get());
  ASSERT_NE(gpu, nullptr);
  {
    ClothColliders c = gpu->settings().colliders;
    c.depthViews = nullptr;
    c.residentDepthViews = {(*renderer)->viewsBuffer(), (*renderer)->normalDepthBuffer(), (*renderer)->velocityBuffer(),
                            std::uint32_t(uploaded->setup.views.size())};
    gpu->setColliders(std::move(c));
  }
  gpu->writeState(start);
  ASSERT_EQ(gpu->step(), StepStatus::Ok);
  const ClothState rendered = gpu->readState();
  EXPECT_LE(worstExcess(rendered.positions, reference.positions, 1e-7f, 1e-7f), 0.0f);
  EXPECT_LE(worstExcess(rendered.velocities, reference.velocities, 1e-6f, 1e-6f), 0.0f);
  // And without views the sheet passes into the sphere: the views did the work.
  const ClothState free = stepOnce(Backend::Gpu, model, viewSettings(nullptr), start);
  EXPECT_GT(test::worstDifference(free.positions, reference.positions), 1e-4f);
}

class DepthContactBackendGLTest : public test::GlTest, public ::testing::WithParamInterface<Backend> {};

// A sheet dropped on the sphere seen through depth views settles outside it: the
// exact distance of every vertex to the sphere mesh stays above the skin offset less
// half a texel.
TEST_P(DepthContactBackendGLTest, SheetLandsOnASphereSeenThroughDepthViews) {
  const float texel = 0.004f;
  ClothSettings settings = test::withoutColliders();
  settings.colliders.depthViews = sphereViews(2, texel);
  settings.substeps = 20;
  auto solver = createClothSolver(GetParam(), sheet(30), settings);
  ASSERT_TRUE(solver) << solver.error().message;
  float smallest = 1e9f;
  std::vector<glm::vec3> points;
  for (int f = 1; f <= 60; ++f) {
    ASSERT_EQ((*solver)->step(), StepStatus::Ok);
    if (f % 15 != 0) continue;
    const ClothState state = (*solver)->readState();
    points.clear();
    for (const glm::vec4& p : state.positions) points.push_back(glm::vec3(p));
    const std::vector<float> exact = exactSignedDistances(sphereMesh(), points).value();
    smallest = std::min(smallest, *std::min_element(exact.begin(), exact.end()));
  }
  int touching = 0;
  const std::vector<float> last = exactSignedDistances(sphereMesh(), points).value();
  for (float d : last) touching += d < settings.contactOffset + 0.003f;
  std::printf("[ depth views ] %s: smallest exact distance %.2f mm (offset %.1f mm, texel %.1f mm), %d touching\n",
              backendName(GetParam()).data(), 1e3 * double(smallest), 1e3 * double(settings.contactOffset),
              1e3 * double(texel), touching);
  EXPECT_GE(smallest, settings.contactOffset - 0.5f * texel);
  EXPECT_GT(touching, 30);
}

/// Worst (most negative) exact signed distance of the cloth's triangle centroids and edge
/// midpoints to `body`, m.
float deepestElementSample(const ClothModel& model, const ClothState& state, const TriangleMesh& body) {
  std::vector<glm::vec3> samples;
  auto x = [&](std::uint32_t i) { return glm::vec3(state.positions[i]); };
  for (std::size_t t = 0; t < model.triangles.size(); t += 3)
    samples.push_back((x(model.triangles[t]) + x(model.triangles[t + 1]) + x(model.triangles[t + 2])) / 3.0f);
  for (const kernels::ClothSpring& s : model.springs) samples.push_back(0.5f * (x(s.a) + x(s.b)));
  const std::vector<float> d = exactSignedDistances(body, samples).value();
  return *std::min_element(d.begin(), d.end());
}

// A thin post pokes up through a coarse sheet between its vertices: the vertices alone
// never touch it, so without the feature pass the post stays through the cloth; with
// it, every triangle centroid and edge midpoint ends outside the post.
TEST_P(DepthContactBackendGLTest, BodyFeaturesBetweenVerticesArePushedOut) {
  auto model = sheet(5, {}, {}, std::nullopt, 0.4f);  // 10 cm edges at y = 1.3
  const std::uint32_t* t = model->triangles.data();
  const glm::vec3 centroid = (glm::vec3(model->restPositions[t[0]]) + glm::vec3(model->restPositions[t[1]]) +
                              glm::vec3(model->restPositions[t[2]])) /
                             3.0f;
  // A post of radius 12 mm whose rounded tip is 25 mm above the sheet, under the centroid.
  const TriangleMesh post =
      makeCapsule(centroid - glm::vec3(0.0f, 0.4f, 0.0f), centroid + glm::vec3(0.0f, 0.013f, 0.0f), 0.012f, 16, 32);
  DepthViewOptions options;
  options.layers = 2;
  options.texelSize = 0.002f;
  auto setup = makeDepthViewSetup(post, options);
  ASSERT_TRUE(setup);
  auto views = rasterizeDepthViews(post, {}, *setup);
  ASSERT_TRUE(views);
  ClothSettings settings = test::withoutColliders();
  settings.gravity = glm::vec3(0.0f);
  settings.colliders.depthViews = std::make_shared<const DepthViewImages>(std::move(views).value());
  settings.contactOffset = 0.0f;
  settings.substeps = 4;
  float deepest[2] = {};
  for (int feature = 0; feature < 2; ++feature) {
    settings.featureContacts = feature == 1;
    auto solver = createClothSolver(GetParam(), model, settings);
    ASSERT_TRUE(solver) << solver.error().message;
    ASSERT_EQ((*solver)->step(), StepStatus::Ok);
    deepest[feature] = deepestElementSample(*model, (*solver)->readState(), post);
  }
  std::printf(
      "[ depth features ] %s: deepest element sample inside the post %.2f mm without the feature pass, "
      "%.2f mm with it\n",
      backendName(GetParam()).data(), -1e3 * double(deepest[0]), std::max(0.0, -1e3 * double(deepest[1])));
  EXPECT_LT(deepest[0], -0.005f);         // pierced: the vertices alone miss the post
  EXPECT_GE(deepest[1], -0.5f * 0.002f);  // pushed out to within half a texel
}

std::string backendLabel(const ::testing::TestParamInfo<Backend>& param) {
  return std::string(backendName(param.param));
}

INSTANTIATE_TEST_SUITE_P(Backends, DepthContactBackendGLTest, ::testing::Values(Backend::Cpu, Backend::Gpu),
                         backendLabel);

}  // namespace
}  // namespace hg
