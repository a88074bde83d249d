// Cloth on a moving body seen through depth views, on both backends and both integrators.
// The body's colliders are built once per frame in the frame's end pose; a substep before
// the frame's end sees their surface moved back along its velocity
// (kernels/cloth_vertex.glslh contactBeforeFrameEnd), and the thin-feature pass of a
// moving body runs after the frame's last substep only (ClothSolver::thinFeaturesAfter).
// Without that, each frame the cloth was pushed onto the end-pose surface and also given
// the surface's velocity, ran a frame's motion ahead of the body and came back: a dressed
// avatar walking at 1.2 m/s blew its garments up within a second.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/contact/BodyVertexGrid.h"
#include "sim/contact/DepthViews.h"
#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/ClothFixtures.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

struct MovingBodyCase {
  Backend backend;
  ClothIntegrator integrator;
};

class MovingBodyContactGLTest : public test::GlTest, public ::testing::WithParamInterface<MovingBodyCase> {};

/// A 40 x 40 cm plate rising at 1 m/s carries a 30 cm sheet lying on it: at every frame's
/// end the sheet rests on the plate, the contact offset above it (not up to a frame's rise,
/// 17 mm, ahead of it), and it rises with the plate.
TEST_P(MovingBodyContactGLTest, ASheetOnARisingPlateStaysOnIt) {
  const float speed = 1.0f, frameDt = 1.0f / 60.0f, offset = 0.004f;
  const int frames = 24;
  const TriangleMesh plate = makeBox({-0.2f, -0.04f, -0.2f}, {0.2f, 0.0f, 0.2f}, 4);
  const auto platePose = [&](float seconds) {
    TriangleMesh moved = plate;
    for (glm::vec3& p : moved.positions) p.y += speed * seconds;
    return moved;
  };
  DepthViewOptions options;
  options.texelSize = 0.005f;
  auto setup = makeDepthViewSetup(glm::vec3(-0.2f, -0.04f, -0.2f),
                                  glm::vec3(0.2f, speed * frameDt * float(frames), 0.2f), options);
  ASSERT_TRUE(setup) << setup.error().message;
  ClothMaterial material;
  material.tensileStiffness = 1500.0f;
  auto model = buildClothModel(test::squareSheetMesh(13, 0.3f, {0.0f, offset, 0.0f}), material);
  ASSERT_TRUE(model) << model.error().message;
  ClothSettings settings;
  settings.frameDt = frameDt;
  settings.integrator = GetParam().integrator;
  settings.substeps = GetParam().integrator == ClothIntegrator::ProjectiveJacobi ? 8 : 0;
  settings.solverIterations = 20;
  settings.contactOffset = offset;
  settings.friction = 0.5f;
  settings.colliders = ClothColliders{};
  auto solver =
      createClothSolver(GetParam().backend, std::make_shared<const ClothModel>(std::move(model).value()), settings);
  ASSERT_TRUE(solver) << solver.error().message;
  const std::vector<glm::vec3> velocities(plate.positions.size(), glm::vec3(0.0f, speed, 0.0f));
  float worstLead = 0.0f, worstSink = 0.0f;
  for (int frame = 1; frame <= frames; ++frame) {
    const TriangleMesh body = platePose(float(frame) * frameDt);
    auto views = rasterizeDepthViews(body, velocities, *setup);
    ASSERT_TRUE(views) << views.error().message;
    auto vertices = buildBodyVertexGrid(body);
    ASSERT_TRUE(vertices) << vertices.error().message;
    ClothColliders colliders;
    colliders.depthViews = std::make_shared<const DepthViewImages>(std::move(views).value());
    colliders.bodyVertices = std::move(vertices).value();
    colliders.bodyMoves = true;
    (*solver)->setColliders(std::move(colliders));
    ASSERT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << frame;
    const float top = speed * float(frame) * frameDt;
    const ClothState state = (*solver)->readState();
    float lowest = 1e30f, highest = -1e30f;
    for (const glm::vec4& p : state.positions) {
      lowest = std::min(lowest, p.y - top);
      highest = std::max(highest, p.y - top);
    }
    if (frame < 4) continue;  // the sheet takes up the plate's speed
    worstLead = std::max(worstLead, highest - offset);
    worstSink = std::max(worstSink, offset - lowest);
  }
  EXPECT_LT(worstLead, 0.002f);  // 17 mm before the surface moved back by its velocity
  EXPECT_LT(worstSink, 0.002f);
  float rising = 0.0f;
  const ClothState state = (*solver)->readState();
  for (const glm::vec4& v : state.velocities) rising += v.y / float(state.velocities.size());
  EXPECT_NEAR(rising, speed, 0.05f);
}

std::string caseName(const ::testing::TestParamInfo<MovingBodyCase>& info) {
  return std::string(info.param.backend == Backend::Cpu ? "Cpu" : "Gpu") +
         (info.param.integrator == ClothIntegrator::ProjectiveJacobi ? "Projective" : "SymplecticEuler");
}

INSTANTIATE_TEST_SUITE_P(Backends, MovingBodyContactGLTest,
                         ::testing::Values(MovingBodyCase{Backend::Cpu, ClothIntegrator::SymplecticEuler},
                                           MovingBodyCase{Backend::Cpu, ClothIntegrator::ProjectiveJacobi},
                                           MovingBodyCase{Backend::Gpu, ClothIntegrator::SymplecticEuler},
                                           MovingBodyCase{Backend::Gpu, ClothIntegrator::ProjectiveJacobi}),
                         caseName);

}  // namespace
}  // namespace hg
