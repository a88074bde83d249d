// Particle skinning on the GPU (sim/gpu/GpuParticleSkinner.h, sim/gpu/shaders/particle_skin_*.comp)
// against the CPU reference backend (CpuParticleSkinner, sim/skinning/CpuParticleSkinner.cpp):
// the same kernels (sim/kernels/particle_skinning.glslh) compiled as GLSL by the driver
// and as C++. The neighbour search must agree exactly; the dynamics to rounding (float on
// both sides, FMA contraction left to the driver): per step with |gpu - cpu| <= atol +
// rtol |cpu|, over trajectories within a fraction of the displacement.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "sim/gpu/GpuParticleSkinner.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"
#include "tests/support/GlTest.h"
#include "tests/support/SkinningFixtures.h"

namespace hg {
namespace {

class ParticleSkinningGLTest : public test::GlTest {};

/// The filled two-bone cylinder (2 m x 0.25 m, joint at x = 1 m), two particle levels;
/// built once per process.
std::shared_ptr<const ParticleSkinModel> cylinderModel() {
  static const std::shared_ptr<const ParticleSkinModel> model = [] {
    ParticleSkinSettings settings;
    settings.fill.radius = 0.035f;
    settings.fill.levels = 2;
    auto built = buildParticleSkinModel(test::twoBoneCylinder(41, 32), settings);
    EXPECT_TRUE(built) << built.error().message;
    return built ? *built : nullptr;
  }();
  return model;
}

/// The cylinder model with other run-time settings (same particles, links and bindings).
std::shared_ptr<const ParticleSkinModel> withSettings(ParticleIntegrator integrator, int iterations,
                                                      SurfaceFrame frame = SurfaceFrame::Local,
                                                      BoneTarget target = BoneTarget::DualQuaternion) {
  if (!cylinderModel()) return nullptr;
  auto model = std::make_shared<ParticleSkinModel>(*cylinderModel());
  model->settings.integrator = integrator;
  model->settings.iterations = iterations;
  model->settings.surfaceFrame = frame;
  model->settings.boneTarget = target;
  return model;
}

Pose bentPose(const SkinnedMesh& body, float degrees) {
  Pose pose = restPose(body.skeleton);
  pose[1].rotation = glm::angleAxis(glm::radians(degrees), glm::vec3(0.0f, 0.0f, 1.0f));
  return pose;
}

/// max |gpu - cpu| (xyz) and the worst ratio to atol + rtol |cpu|; prints the worst
/// element of both when the ratio exceeds 1 (the failure dump).
struct Agreement {
  float maxDifference = 0.0f;
  float worstRatio = 0.0f;
};
Agreement compare(std::span<const glm::vec4> gpu, std::span<const glm::vec4> cpu, float atol, float rtol,
                  const std::string& what) {
  Agreement agreement;
  std::size_t worst = 0;
  EXPECT_EQ(gpu.size(), cpu.size()) << what;
  for (std::size_t i = 0; i < std::min(gpu.size(), cpu.size()); ++i) {
    const float difference = glm::length(glm::vec3(gpu[i]) - glm::vec3(cpu[i]));
    const float ratio = difference / (atol + rtol * glm::length(glm::vec3(cpu[i])));
    agreement.maxDifference = std::max(agreement.maxDifference, difference);
    if (!(ratio <= agreement.worstRatio)) {  // NaN counts as worst
      agreement.worstRatio = std::isnan(ratio) ? std::numeric_limits<float>::infinity() : ratio;
      worst = i;
    }
  }
  if (!(agreement.worstRatio <= 1.0f) && worst < std::min(gpu.size(), cpu.size()))
    ADD_FAILURE() << what << ": element " << worst << " of " << cpu.size() << ": gpu (" << gpu[worst].x << ", "
                  << gpu[worst].y << ", " << gpu[worst].z << ") cpu (" << cpu[worst].x << ", " << cpu[worst].y << ", "
                  << cpu[worst].z << "), |gpu - cpu| " << agreement.maxDifference << " > " << atol << " + " << rtol
                  << " |cpu|";
  return agreement;
}

struct Skinners {
  std::unique_ptr<ParticleSkinner> cpu, gpu;
};
Skinners makeSkinners(std::shared_ptr<const ParticleSkinModel> model) {
  Skinners s;
  auto cpu = createParticleSkinner(Backend::Cpu, model);
  auto gpu = createParticleSkinner(Backend::Gpu, model);
  EXPECT_TRUE(cpu) << cpu.error().message;
  EXPECT_TRUE(gpu) << gpu.error().message;
  if (cpu) s.cpu = std::move(cpu).value();
  if (gpu) s.gpu = std::move(gpu).value();
  return s;
}

// ---- Shaders ------------------------------------------------------------------------------

TEST_F(ParticleSkinningGLTest, ShadersCompileAndLink) {
  const gl::ShaderRegistry& registry = gpuShaders();
  int stages = 0;
  for (const std::string& name : registry.stageNames()) {
    if (name.rfind("particle_skin_", 0) != 0) continue;
    ++stages;
    auto program = registry.buildCompute(name);
    EXPECT_TRUE(program) << name << ": " << program.error().message;
  }
  EXPECT_EQ(stages, 10);
}

// The std430 layouts of the particle structs as the driver sees them equal the C++ ones
// (static_asserts in sim/kernels/Kernels.h), and the binding points fit the driver.
TEST_F(ParticleSkinningGLTest, LayoutsAndBindingsMatchTheDriver) {
  GLint maxBindings = 0;
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &maxBindings);
  EXPECT_GT(maxBindings, HG_BINDING_PARTICLE_JOINT_DUAL_QUATERNIONS);
  std::map<std::string, GLint> offsets, strides;
  for (const char* name : {"particle_skin_forces.comp", "particle_skin_surface.comp"}) {
    auto program = gpuShaders().buildCompute(name);
    ASSERT_TRUE(program) << program.error().message;
    GLint count = 0;
    glGetProgramInterfaceiv(program->id(), GL_BUFFER_VARIABLE, GL_ACTIVE_RESOURCES, &count);
    for (GLint i = 0; i < count; ++i) {
      char variable[256];
      glGetProgramResourceName(program->id(), GL_BUFFER_VARIABLE, GLuint(i), sizeof variable, nullptr, variable);
      const GLenum props[] = {GL_OFFSET, GL_TOP_LEVEL_ARRAY_STRIDE};
      GLint values[2] = {};
      glGetProgramResourceiv(program->id(), GL_BUFFER_VARIABLE, GLuint(i), 2, props, 2, nullptr, values);
      offsets[variable] = values[0];
      strides[variable] = values[1];
    }
    const auto binding = [&](const char* block) {
      const GLuint index = glGetProgramResourceIndex(program->id(), GL_SHADER_STORAGE_BLOCK, block);
      const GLenum prop = GL_BUFFER_BINDING;
      GLint value = -1;
      if (index != GL_INVALID_INDEX)
        glGetProgramResourceiv(program->id(), GL_SHADER_STORAGE_BLOCK, index, 1, &prop, 1, nullptr, &value);
      return value;
    };
    if (std::string(name) == "particle_skin_forces.comp") {
      EXPECT_EQ(binding("Rest"), HG_BINDING_PARTICLE_REST);
      EXPECT_EQ(binding("Links"), HG_BINDING_PARTICLE_LINKS);
      EXPECT_EQ(binding("Accelerations"), HG_BINDING_PARTICLE_ACCELERATIONS);
    } else {
      EXPECT_EQ(binding("Bindings"), HG_BINDING_PARTICLE_BINDINGS);
      EXPECT_EQ(binding("Surface"), HG_BINDING_PARTICLE_SURFACE);
    }
  }
  using kernels::ParticleLink;
  using kernels::ParticleRest;
  using kernels::VertexBinding;
  const std::pair<const char*, std::size_t> expected[] = {{"rest[0].position", offsetof(ParticleRest, position)},
                                                          {"rest[0].bone", offsetof(ParticleRest, bone)},
                                                          {"rest[0].mass", offsetof(ParticleRest, mass)},
                                                          {"links[0].neighbour", offsetof(ParticleLink, neighbour)},
                                                          {"links[0].restLength", offsetof(ParticleLink, restLength)},
                                                          {"links[0].stiffness", offsetof(ParticleLink, stiffness)},
                                                          {"links[0].damping", offsetof(ParticleLink, damping)},
                                                          {"bindings[0].particles", offsetof(VertexBinding, particles)},
                                                          {"bindings[0].weights", offsetof(VertexBinding, weights)},
                                                          {"bindings[0].offset0", offsetof(VertexBinding, offset0)},
                                                          {"bindings[0].offset1", offsetof(VertexBinding, offset1)},
                                                          {"bindings[0].offset2", offsetof(VertexBinding, offset2)},
                                                          {"bindings[0].offset3", offsetof(VertexBinding, offset3)}};
  for (const auto& [variable, offset] : expected) {
    ASSERT_TRUE(offsets.count(variable)) << "no buffer variable " << variable;
    EXPECT_EQ(offsets[variable], GLint(offset)) << variable;
  }
  EXPECT_EQ(strides["rest[0].position"], GLint(sizeof(ParticleRest)));
  EXPECT_EQ(strides["links[0].neighbour"], GLint(sizeof(ParticleLink)));
  EXPECT_EQ(strides["bindings[0].particles"], GLint(sizeof(VertexBinding)));
}

// ---- Neighbour search ---------------------------------------------------------------------

void expectSamePairs(std::span<const glm::vec4> particles, float gap) {
  std::vector<std::uint32_t> offsets, neighbours;
  findInteractingPairs(particles, gap, offsets, neighbours);
  auto gpu = findInteractingPairsGpu(particles, gap);
  ASSERT_TRUE(gpu) << gpu.error().message;
  ASSERT_EQ(gpu->offsets.size(), offsets.size());
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    ASSERT_EQ(gpu->offsets[i + 1], offsets[i + 1]) << "neighbour count of particle " << i << " differs";
  }
  EXPECT_EQ(gpu->neighbours, neighbours);
  std::printf("[ neighbours ] %zu particles, %zu links: GPU == CPU\n", particles.size(), neighbours.size());
}

// The filled cylinder: a closest packing whose fourth neighbour shell lies exactly at the
// interaction range (gap 2r), so borderline pairs are decided by rounding on both sides.
TEST_F(ParticleSkinningGLTest, NeighbourListsMatchTheCpuOnAFilledCylinder) {
  auto model = cylinderModel();
  ASSERT_TRUE(model);
  std::vector<glm::vec4> centres;
  for (const kernels::ParticleRest& p : model->particles) centres.push_back(p.position);
  expectSamePairs(centres, model->settings.interactionGap);

  // The skinner's own links equal the model's (neighbours exactly, the rest to rounding).
  auto created = createGpuParticleSkinner(model);
  ASSERT_TRUE(created) << created.error().message;
  const auto* gpu = dynamic_cast<const GpuParticleSkinner*>(created->get());
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->readLinkOffsets(), model->linkOffsets);
  const std::vector<kernels::ParticleLink> links = gpu->readLinks();
  ASSERT_EQ(links.size(), model->links.size());
  float worst = 0.0f;
  for (std::size_t k = 0; k < links.size(); ++k) {
    const kernels::ParticleLink& a = links[k];
    const kernels::ParticleLink& b = model->links[k];
    ASSERT_EQ(a.neighbour, b.neighbour) << "link " << k;
    for (const auto& [x, y] : {std::pair{a.restLength, b.restLength}, std::pair{a.stiffness, b.stiffness},
                               std::pair{a.damping, b.damping}}) {
      worst = std::max(worst, std::abs(x - y) / std::abs(y));
      ASSERT_LE(std::abs(x - y), 1e-6f * std::abs(y)) << "link " << k;
    }
  }
  std::printf("[ links ] %zu links, worst relative difference %.3g\n", links.size(), double(worst));
}

// 1234 particles (not a multiple of the workgroup size) at random in a box, three radii.
TEST_F(ParticleSkinningGLTest, NeighbourListsMatchTheCpuOnRandomParticles) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float radii[] = {0.01f, 0.02f, 0.04f};
  std::vector<glm::vec4> particles;
  for (int i = 0; i < 1234; ++i)
    particles.emplace_back(0.6f * u(rng), 0.4f * u(rng) - 0.2f, 0.3f * u(rng) + 1.0f, radii[rng() % 3]);
  expectSamePairs(particles, 2.0f);
  expectSamePairs(particles, 0.75f);
  expectSamePairs(std::span(particles).first(1), 2.0f);  // a single particle: no pairs
}

// 5000 small particles over a larger box: over 4096 grid cells and CSR offsets, so both
// prefix sums take several rounds over their block totals.
TEST_F(ParticleSkinningGLTest, NeighbourListsMatchTheCpuOnManySmallParticles) {
  std::mt19937 rng(5000);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<glm::vec4> particles;
  for (int i = 0; i < 5000; ++i)
    particles.emplace_back(u(rng), 0.5f * u(rng), 0.5f * u(rng), rng() % 2 == 0 ? 0.005f : 0.01f);
  expectSamePairs(particles, 2.0f);
}

TEST_F(ParticleSkinningGLTest, NeighbourSearchRejectsBadInput) {
  const std::vector<glm::vec4> particles = {{0.0f, 0.0f, 0.0f, 0.1f}, {0.1f, 0.0f, 0.0f, 0.0f}};
  EXPECT_FALSE(findInteractingPairsGpu(particles, 2.0f));  // a zero radius
  EXPECT_FALSE(findInteractingPairsGpu(std::span(particles).first(1), 0.0f));
  auto empty = findInteractingPairsGpu({}, 2.0f);
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_EQ(empty->offsets, std::vector<std::uint32_t>{0u});
}

// ---- One step -----------------------------------------------------------------------------

struct StepCase {
  ParticleIntegrator integrator;
  int iterations;
};

class ParticleSkinningStepGLTest : public test::GlTest, public ::testing::WithParamInterface<StepCase> {};

INSTANTIATE_TEST_SUITE_P(Integrators, ParticleSkinningStepGLTest,
                         ::testing::Values(StepCase{ParticleIntegrator::ImprovedEuler, 0},
                                           StepCase{ParticleIntegrator::Adams, 0},
                                           StepCase{ParticleIntegrator::Leapfrog, 0},
                                           StepCase{ParticleIntegrator::Adams, 2},
                                           StepCase{ParticleIntegrator::Leapfrog, 2}),
                         [](const auto& param) {
                           return std::string(particleIntegratorName(param.param.integrator)) + "_iterations" +
                                  std::to_string(param.param.iterations);
                         });

// From the rest state, a bent pose, advance(pose, 1) three times: the first step (Adams:
// its Heun start), the first step of the integrator proper (Adams: PECE with a new
// evaluation; leapfrog: after its Euler start) and one more with the pose held.
TEST_P(ParticleSkinningStepGLTest, OneStepAgreesWithTheCpu) {
  auto model = withSettings(GetParam().integrator, GetParam().iterations);
  ASSERT_TRUE(model);
  Skinners s = makeSkinners(model);
  ASSERT_TRUE(s.cpu && s.gpu);
  const Pose pose = bentPose(*model->body, 30.0f);
  for (int k = 0; k < 3; ++k) {
    ASSERT_TRUE(s.cpu->advance(pose, 1));
    const Status advanced = s.gpu->advance(pose, 1);
    ASSERT_TRUE(advanced) << advanced.error().message;
    const ParticleState a = s.gpu->readParticles(), b = s.cpu->readParticles();
    const std::string step = "step " + std::to_string(k + 1);
    const Agreement x = compare(a.positions, b.positions, 1e-5f, 1e-4f, step + " positions");
    const Agreement v = compare(a.velocities, b.velocities, 1e-5f, 1e-4f, step + " velocities");
    float moved = 0.0f;
    for (std::size_t i = 0; i < b.positions.size(); ++i)
      moved = std::max(moved, glm::length(glm::vec3(b.positions[i] - model->particles[i].position)));
    EXPECT_GT(moved, 1e-4f);  // the step did something
    std::printf("[ one step ] %s: max |dx| %.3g m (%.3g of the tolerance, moved %.3g m), max |dv| %.3g m/s (%.3g)\n",
                step.c_str(), double(x.maxDifference), double(x.worstRatio), double(moved), double(v.maxDifference),
                double(v.worstRatio));
  }
  EXPECT_EQ(s.gpu->stepsTaken(), 3);
}

// ---- Trajectories -------------------------------------------------------------------------

class ParticleSkinningTrajectoryGLTest : public test::GlTest,
                                         public ::testing::WithParamInterface<ParticleIntegrator> {};

INSTANTIATE_TEST_SUITE_P(Integrators, ParticleSkinningTrajectoryGLTest,
                         ::testing::Values(ParticleIntegrator::Leapfrog, ParticleIntegrator::ImprovedEuler,
                                           ParticleIntegrator::Adams),
                         [](const auto& param) { return std::string(particleIntegratorName(param.param)); });

// 20 frames of a bend from 0 to 90 degrees, 8 steps a frame: the particles agree within
// 1e-3 of the largest displacement, and so does the surface (local frame with the dual
// quaternion target, bone frame with the source's one-bone target: both target paths).
TEST_P(ParticleSkinningTrajectoryGLTest, BendAgreesWithTheCpu) {
  for (SurfaceFrame frame : {SurfaceFrame::Local, SurfaceFrame::Bone}) {
    auto model =
        withSettings(GetParam(), 0, frame, frame == SurfaceFrame::Bone ? BoneTarget::Bone : BoneTarget::DualQuaternion);
    ASSERT_TRUE(model);
    Skinners s = makeSkinners(model);
    ASSERT_TRUE(s.cpu && s.gpu);
    const std::string name =
        std::string(particleIntegratorName(GetParam())) + "/" + std::string(surfaceFrameName(frame));
    double cpuSeconds = 0.0, gpuSeconds = 0.0;
    float worstParticles = 0.0f, worstSurface = 0.0f;
    for (int f = 1; f <= 20; ++f) {
      const Pose pose = bentPose(*model->body, 90.0f * float(f) / 20.0f);
      const auto t0 = std::chrono::steady_clock::now();
      ASSERT_TRUE(s.cpu->advance(pose, 8));
      const auto cpuSurface = s.cpu->surface();
      const auto t1 = std::chrono::steady_clock::now();
      const Status advanced = s.gpu->advance(pose, 8);
      ASSERT_TRUE(advanced) << advanced.error().message;
      const auto gpuSurface = s.gpu->surface();
      const auto t2 = std::chrono::steady_clock::now();
      cpuSeconds += std::chrono::duration<double>(t1 - t0).count();
      gpuSeconds += std::chrono::duration<double>(t2 - t1).count();
      ASSERT_TRUE(cpuSurface && gpuSurface);

      const ParticleState a = s.gpu->readParticles(), b = s.cpu->readParticles();
      float displacement = 0.0f;
      for (std::size_t i = 0; i < b.positions.size(); ++i)
        displacement = std::max(displacement, glm::length(glm::vec3(b.positions[i] - model->particles[i].position)));
      float surfaceDisplacement = 0.0f;
      for (std::size_t v = 0; v < cpuSurface->positions.size(); ++v)
        surfaceDisplacement = std::max(
            surfaceDisplacement, glm::length(glm::vec3(cpuSurface->positions[v]) - model->body->mesh.positions[v]));
      const std::string frameName = name + " frame " + std::to_string(f);
      const Agreement x = compare(a.positions, b.positions, 1e-3f * displacement, 0.0f, frameName + " particles");
      const Agreement p = compare(gpuSurface->positions, cpuSurface->positions, 1e-3f * surfaceDisplacement, 0.0f,
                                  frameName + " surface");
      const Agreement n = compare(gpuSurface->normals, cpuSurface->normals, 1e-3f, 0.0f, frameName + " normals");
      worstParticles = std::max(worstParticles, x.maxDifference / displacement);
      worstSurface = std::max(worstSurface, p.maxDifference / surfaceDisplacement);
      if (f == 20) {
        EXPECT_GT(displacement, 0.5f);  // the bend moved the far end
        std::printf(
            "[ trajectory ] %s: %zu particles, %zu vertices; final max |dx| %.3g m of %.3g m, surface %.3g m, "
            "normals %.3g\n",
            name.c_str(), b.positions.size(), cpuSurface->positions.size(), double(x.maxDifference),
            double(displacement), double(p.maxDifference), double(n.maxDifference));
      }
      if (HasFailure()) return;
    }
    std::printf(
        "[ trajectory ] %s: worst |dx| / max displacement %.3g (particles), %.3g (surface); "
        "20 frames x 8 steps + surface: CPU %.3f s, GPU %.3f s\n",
        name.c_str(), double(worstParticles), double(worstSurface), cpuSeconds, gpuSeconds);
  }
}

// ---- Errors and lifecycle -----------------------------------------------------------------

TEST_F(ParticleSkinningGLTest, DivergenceIsAnError) {
  ASSERT_TRUE(cylinderModel());
  auto model = std::make_shared<ParticleSkinModel>(*cylinderModel());
  model->settings.timeStep = 0.05f;  // 24 x the default: far beyond the stable step
  Skinners s = makeSkinners(model);
  ASSERT_TRUE(s.cpu && s.gpu);
  const Pose pose = bentPose(*model->body, 60.0f);
  const Status cpu = s.cpu->advance(pose, 50);
  const Status gpu = s.gpu->advance(pose, 50);
  EXPECT_FALSE(cpu);
  ASSERT_FALSE(gpu);
  EXPECT_NE(gpu.error().message.find("diverged"), std::string::npos) << gpu.error().message;
  // reset() makes it usable again: the initial state exactly, and a step at rest from it
  // succeeds. (Only one: at 24 x the stable step, float noise in the rest forces grows
  // about a thousandfold a step, so a few steps diverge even at rest.)
  s.gpu->reset();
  const ParticleState state = s.gpu->readParticles();
  ASSERT_EQ(state.positions.size(), model->particleCount());
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    ASSERT_EQ(state.positions[i], model->particles[i].position) << i;
    ASSERT_EQ(state.velocities[i], glm::vec4(0.0f)) << i;
  }
  const Status rest = s.gpu->advance(restPose(model->body->skeleton), 1);
  EXPECT_TRUE(rest) << rest.error().message;
}

TEST_F(ParticleSkinningGLTest, FactoryAndPoseErrors) {
  EXPECT_FALSE(createGpuParticleSkinner(nullptr));
  auto model = cylinderModel();
  ASSERT_TRUE(model);
  auto gpu = createParticleSkinner(Backend::Gpu, model);
  auto cpu = createParticleSkinner(Backend::Cpu, model);
  ASSERT_TRUE(gpu) << gpu.error().message;
  ASSERT_TRUE(cpu) << cpu.error().message;
  EXPECT_EQ((*gpu)->backend(), Backend::Gpu);
  EXPECT_EQ((*cpu)->backend(), Backend::Cpu);
  EXPECT_FALSE((*gpu)->advance(Pose{}, 1));                            // wrong size
  EXPECT_FALSE((*gpu)->advance(restPose(model->body->skeleton), -1));  // negative steps
  Pose broken = restPose(model->body->skeleton);
  broken[1].translation.x = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE((*gpu)->advance(broken, 1));
  // The initial state is the rest pose at rest, and its surface the rest mesh.
  const ParticleState state = (*gpu)->readParticles();
  ASSERT_EQ(state.positions.size(), model->particleCount());
  for (std::size_t i = 0; i < state.positions.size(); ++i) {
    ASSERT_EQ(state.positions[i], model->particles[i].position) << i;
    ASSERT_EQ(state.velocities[i], glm::vec4(0.0f)) << i;
  }
  auto surface = (*gpu)->surface();
  ASSERT_TRUE(surface) << surface.error().message;
  ASSERT_EQ(surface->positions.size(), model->body->mesh.vertexCount());
  float worst = 0.0f;
  for (std::size_t v = 0; v < surface->positions.size(); ++v)
    worst = std::max(worst, glm::length(glm::vec3(surface->positions[v]) - model->body->mesh.positions[v]));
  EXPECT_LT(worst, 1e-5f);
}

}  // namespace
}  // namespace hg
