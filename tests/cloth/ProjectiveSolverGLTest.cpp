// The ProjectiveJacobi integrator (projective dynamics with Jacobi + Chebyshev, see
// sim/cloth/CpuProjectiveClothSolver.h): one test body for both backends
// (value-parameterized), then determinism and CPU vs GPU cross-checks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/ClothFixtures.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using test::sheet;
using test::worstDifference;
using test::worstExcess;

/// The projective integrator, with the sphere (0.5 m at (0, 0.6, 0)) and the ground.
ClothSettings projective(int iterations = 30, float rho = 0.9f) {
  ClothSettings s;
  s.colliders.spheres = {SphereCollider{glm::vec3(0.0f, 0.6f, 0.0f), 0.5f}};
  s.integrator = ClothIntegrator::ProjectiveJacobi;
  s.solverIterations = iterations;
  s.chebyshevRho = rho;
  return s;
}

using test::withoutColliders;

ClothMaterial stiffMaterial() {
  ClothMaterial m;
  m.tensileStiffness = 2e4f;  // N/m
  return m;
}

std::unique_ptr<ClothSolver> makeSolver(Backend backend, std::shared_ptr<const ClothModel> model,
                                        const ClothSettings& settings) {
  auto solver = createClothSolver(backend, std::move(model), settings);
  EXPECT_TRUE(solver) << solver.error().message;
  return solver ? std::move(solver).value() : nullptr;
}

bool finite(const ClothState& s) {
  for (std::size_t i = 0; i < s.positions.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (!std::isfinite(s.positions[i][c]) || !std::isfinite(s.velocities[i][c])) return false;
  return true;
}

/// Largest |r - L| / L over the model's springs (original rest lengths).
float maxStrain(const ClothModel& model, const ClothState& s) {
  float worst = 0.0f;
  for (const kernels::ClothSpring& spring : model.springs) {
    const float r = glm::distance(glm::vec3(s.positions[spring.a]), glm::vec3(s.positions[spring.b]));
    worst = std::max(worst, std::abs(r - spring.restLength) / spring.restLength);
  }
  return worst;
}

/// A start with stretched and compressed springs and moving vertices (no contacts:
/// everything well above the ground, for scenes without a sphere).
ClothState wavyStart(const ClothModel& model) {
  ClothState start = restState(model);
  for (std::size_t i = 0; i < start.positions.size(); ++i) {
    if (start.positions[i].w == 0.0f) continue;  // pins stay at rest
    const float t = float(i);
    start.positions[i].x *= 0.97f + 0.02f * std::sin(t);
    start.positions[i].y += 0.03f * std::sin(0.3f * t);
    start.velocities[i] = glm::vec4(0.3f * std::cos(t), -0.5f, 0.2f * std::sin(2.0f * t), 0.0f);
  }
  return start;
}

/// Residual of the backward Euler step that ProjectiveJacobi solves, for one substep
/// from `start` to `end` without contacts: max over free vertices of
/// |m (x - y) / h^2 - f_springs(x)| (N), y = x0 + h v0 + h^2 (g + f_bending(x0) / m)
/// (backward Euler, Liu et al. 2013). Zero at the converged solution (Hookean springs).
double stepResidual(const ClothModel& model, const ClothSettings& settings, const ClothState& start,
                    const ClothState& end) {
  const kernels::ClothStepParams p = settings.stepParams(model, 1, settings.velocityDamping);
  const double h = p.dt;
  std::vector<glm::dvec3> force(model.vertexCount(), glm::dvec3(0.0));  // springs at end, N
  for (const kernels::ClothSpring& s : model.springs) {
    const glm::vec3 f = kernels::springForce(glm::vec3(end.positions[s.a]), glm::vec3(end.positions[s.b]),
                                             glm::vec3(0.0f), glm::vec3(0.0f), s, p);
    force[s.a] += glm::dvec3(f);
    force[s.b] -= glm::dvec3(f);
  }
  std::vector<glm::dvec3> bending(model.vertexCount(), glm::dvec3(0.0));  // hinges at start, N
  for (const kernels::ClothHinge& hinge : model.hinges) {
    auto x = [&](std::uint32_t v) { return glm::vec3(start.positions[v]); };
    const kernels::HingeForces f = kernels::bendingForces(x(hinge.vertices.x), x(hinge.vertices.y), x(hinge.vertices.z),
                                                          x(hinge.vertices.w), hinge);
    bending[hinge.vertices.x] += glm::dvec3(f.f0);
    bending[hinge.vertices.y] += glm::dvec3(f.f1);
    bending[hinge.vertices.z] += glm::dvec3(f.f2);
    bending[hinge.vertices.w] += glm::dvec3(f.f3);
  }
  double worst = 0.0;
  for (std::size_t i = 0; i < model.vertexCount(); ++i) {
    const double w = start.positions[i].w;
    if (w == 0.0) continue;
    const glm::dvec3 y = glm::dvec3(start.positions[i]) + h * glm::dvec3(start.velocities[i]) +
                         h * h * (glm::dvec3(p.gravity) + w * bending[i]);
    const glm::dvec3 r = (glm::dvec3(end.positions[i]) - y) / (w * h * h) - force[i];
    worst = std::max(worst, glm::length(r));
  }
  return worst;
}

class ProjectiveSolverGLTest : public test::GlTest, public ::testing::WithParamInterface<Backend> {
 protected:
  std::unique_ptr<ClothSolver> make(std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    return makeSolver(GetParam(), std::move(model), settings);
  }

  /// One substep of 1/60 s of the stiff hanging sheet from a wavy start; returns the end.
  ClothState oneStiffSubstep(const std::shared_ptr<const ClothModel>& model, const ClothState& start, int iterations,
                             float rho) {
    ClothSettings settings = withoutColliders(projective(iterations, rho));
    settings.substeps = 1;
    auto solver = make(model, settings);
    if (!solver) return start;
    solver->writeState(start);
    EXPECT_EQ(solver->step(), StepStatus::Ok);
    return solver->readState();
  }
};

/// Runs the stiff sheet hanging from two corners at one substep per 1/60 s frame for
/// 120 frames; returns the largest spring strain seen (checked every 10 frames).
float hangStiffSheet(Backend backend, int iterations, float rho) {
  auto model = sheet(20, {0, 19}, stiffMaterial());
  ClothSettings settings = withoutColliders(projective(iterations, rho));
  settings.substeps = 1;
  auto solver = makeSolver(backend, model, settings);
  if (!solver) return 1e30f;
  float worstStrain = 0.0f;
  for (int f = 0; f < 120; ++f) {
    EXPECT_EQ(solver->step(), StepStatus::Ok) << "frame " << f;
    if (f % 10 == 9) {
      const ClothState s = solver->readState();
      EXPECT_TRUE(finite(s)) << "frame " << f;
      worstStrain = std::max(worstStrain, maxStrain(*model, s));
    }
  }
  EXPECT_LT(solver->readState().positions[399].y, model->restPositions[399].y - 1.0f);  // it does hang
  std::printf("[ projective ] %s: stiff sheet, 1 substep/frame, K = %d, rho = %.3f: max strain %.4f\n",
              std::string(backendName(backend)).c_str(), iterations, rho, worstStrain);
  return worstStrain;
}

TEST_P(ProjectiveSolverGLTest, StaysStableAtOneSubstepPerFrameWhereExplicitBlowsUp) {
  auto model = sheet(20, {0, 19}, stiffMaterial());
  ClothSettings explicitSettings = withoutColliders(ClothSettings{});
  explicitSettings.substeps = 1;
  auto explicitSolver = make(model, explicitSettings);
  ASSERT_TRUE(explicitSolver);
  StepStatus explicitStatus = StepStatus::Ok;
  for (int f = 0; f < 120 && !any(explicitStatus); ++f) explicitStatus = explicitSolver->step();
  EXPECT_TRUE(any(explicitStatus)) << "the explicit integrator was expected to blow up at 1 substep/frame";

  // 30 iterations: stable (finite, no anomaly) but far from converged. Jacobi barely
  // reduces the smooth error modes of a stiff sheet held at two points, so the cloth
  // sags as if softer: measured max strain (every 10 frames) 1.04 at rho = 0.9, and
  // (every frame) 0.46 at rho = 0.99, 0.35 at rho = 0.995, divergence at rho = 0.998;
  // both backends alike. The 10% strain target needs more iterations (next test).
  hangStiffSheet(GetParam(), 30, 0.9f);
}

TEST_P(ProjectiveSolverGLTest, StiffSheetStrainStaysBelowTenPercentWhenConverged) {
  // Measured (every frame): K = 60, rho = 0.998: 0.117; K = 100, rho = 0.99: 0.160;
  // K = 200, rho = 0.99: 0.082 (every 10 frames, as checked here: 0.068).
  EXPECT_LT(hangStiffSheet(GetParam(), 200, 0.99f), 0.10f);
}

TEST_P(ProjectiveSolverGLTest, MoreIterationsConvergeMonotonically) {
  auto model = sheet(20, {0, 19}, stiffMaterial());
  const ClothState start = wavyStart(*model);
  const ClothSettings settings = withoutColliders(projective());
  const ClothState reference = oneStiffSubstep(model, start, 500, 0.9f);
  double previousResidual = 1e30, previousDistance = 1e30;
  for (int k : {5, 20, 80}) {
    const ClothState end = oneStiffSubstep(model, start, k, 0.9f);
    const double residual = stepResidual(*model, settings, start, end);
    double distance = 0.0;
    for (std::size_t i = 0; i < end.positions.size(); ++i)
      distance =
          std::max(distance, double(glm::distance(glm::vec3(end.positions[i]), glm::vec3(reference.positions[i]))));
    std::printf("[ projective ] %s: K = %3d rho = 0.9: residual %.4g N, max |x - x_500| %.4g m\n",
                std::string(backendName(GetParam())).c_str(), k, residual, distance);
    EXPECT_LT(residual, previousResidual) << "K = " << k;
    EXPECT_LT(distance, previousDistance) << "K = " << k;
    previousResidual = residual;
    previousDistance = distance;
  }
  std::printf("[ projective ] %s: K = 500 residual %.4g N\n", std::string(backendName(GetParam())).c_str(),
              stepResidual(*model, settings, start, reference));
}

TEST_P(ProjectiveSolverGLTest, ConvergesToTheStrainStiffenedLaw) {
  // Springs stiffened 3x at 1/6 strain (tensionMagnitude): the converged step solves
  // backward Euler with the stiffened forces (stepResidual evaluates springForce), not
  // with the linear ones it would reach if the projection ignored the stiffening.
  auto linear = sheet(20, {0, 19}, stiffMaterial());
  auto stiffened = std::make_shared<ClothModel>(*linear);
  for (kernels::ClothSpring& spring : stiffened->springs) spring.strainStiffening = 3.0f;
  ClothState start = wavyStart(*linear);
  for (glm::vec4& p : start.positions) p.x *= 1.05f;  // every spring along x stretched
  const ClothSettings settings = withoutColliders(projective());
  const double reached = stepResidual(*stiffened, settings, start, oneStiffSubstep(stiffened, start, 500, 0.9f));
  const double linearLaw = stepResidual(*stiffened, settings, start, oneStiffSubstep(linear, start, 500, 0.9f));
  std::printf("[ projective ] %s: stiffened springs, K = 500: residual %.4g N (the linear law's step: %.4g N)\n",
              std::string(backendName(GetParam())).c_str(), reached, linearLaw);
  EXPECT_LT(reached, 0.05 * linearLaw);
}

TEST_P(ProjectiveSolverGLTest, ChebyshevAcceleratesJacobi) {
  auto model = sheet(20, {0, 19}, stiffMaterial());
  const ClothState start = wavyStart(*model);
  const ClothSettings settings = withoutColliders(projective());
  for (int k : {20, 80}) {
    const double plain = stepResidual(*model, settings, start, oneStiffSubstep(model, start, k, 0.0f));
    const double chebyshev = stepResidual(*model, settings, start, oneStiffSubstep(model, start, k, 0.9f));
    std::printf("[ projective ] %s: K = %d residual rho = 0: %.4g N, rho = 0.9: %.4g N\n",
                std::string(backendName(GetParam())).c_str(), k, plain, chebyshev);
    EXPECT_LT(chebyshev, plain) << "K = " << k;
  }
}

TEST_P(ProjectiveSolverGLTest, FreeFallIsAnalytic) {
  ClothSettings settings = withoutColliders(projective(20));
  settings.velocityDamping = 0.0f;
  settings.substeps = 10;
  auto model = sheet(20, {}, stiffMaterial());
  auto solver = make(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 12; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  const double h = settings.frameDt / settings.substeps, n = 120.0;
  const double expected = 1.3 - 9.81 * h * h * n * (n + 1.0) / 2.0;
  const ClothState s = solver->readState();
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    EXPECT_NEAR(s.positions[i].y, expected, 2e-4) << "vertex " << i;
    EXPECT_NEAR(s.positions[i].x, model->restPositions[i].x, 1e-5) << "vertex " << i;
    EXPECT_NEAR(s.positions[i].z, model->restPositions[i].z, 1e-5) << "vertex " << i;
    EXPECT_NEAR(s.velocities[i].y, -9.81 * h * n, 2e-3) << "vertex " << i;
  }
}

TEST_P(ProjectiveSolverGLTest, PinnedStayPinnedAndNothingEndsInsideTheSphere) {
  auto model = sheet(20, {0, 19});
  ClothSettings settings = projective(20);
  settings.substeps = 4;
  const SphereCollider& sphere = settings.colliders.spheres.front();
  auto solver = make(model, settings);
  ASSERT_TRUE(solver);
  int touching = 0;
  for (int f = 0; f < 60; ++f) {
    ASSERT_EQ(solver->step(), StepStatus::Ok) << "frame " << f;
    if (f % 15 != 14) continue;
    const ClothState s = solver->readState();
    EXPECT_EQ(s.positions[0], model->restPositions[0]);
    EXPECT_EQ(s.positions[19], model->restPositions[19]);
    touching = 0;
    for (const glm::vec4& p : s.positions) {
      const float d = glm::distance(glm::vec3(p), sphere.centre);
      EXPECT_GE(d, sphere.radius + settings.contactOffset - 1e-4f) << "frame " << f;
      touching += d < sphere.radius + settings.contactOffset + 0.01f;
    }
  }
  EXPECT_GT(touching, 10);  // the sheet swings onto the sphere: contacts were exercised
}

TEST_P(ProjectiveSolverGLTest, PlasticityCreeps) {
  auto model = sheet(12, {0, 11});
  ClothSettings settings = withoutColliders(projective(20));
  settings.substeps = 2;
  settings.plasticRate = 5.0f;
  settings.yieldStrain = 0.001f;
  auto solver = make(model, settings);
  ASSERT_TRUE(solver);
  for (int f = 0; f < 20; ++f) ASSERT_EQ(solver->step(), StepStatus::Ok);
  const std::vector<kernels::ClothSpring> springs = solver->readSprings();
  float largest = 0.0f;
  for (const kernels::ClothSpring& s : springs) largest = std::max(largest, s.restLength / s.restLength0 - 1.0f);
  EXPECT_GT(largest, 0.001f);  // rest lengths crept toward the stretched shape
}

/// A 12 x 12 sheet (1.6 m) clamped along its first two rows (one would be a hinge), as
/// a cantilever, with the bending rigidity `rigidity` (N m).
std::shared_ptr<const ClothModel> cantilever(float rigidity) {
  PinSet clamped;
  for (std::uint32_t i = 0; i < 24; ++i) clamped.push_back(i);
  ClothMaterial material;
  material.tensileStiffness = 5e3f;
  material.bendingRigidity = rigidity;
  return sheet(12, clamped, material);
}

/// The lowest height (m) of a cantilever's free edge after `frames` frames, or NaN if a
/// step was not Ok.
float freeEdgeHeight(ClothSolver& solver, int frames) {
  for (int f = 0; f < frames; ++f)
    if (solver.step() != StepStatus::Ok) return std::nanf("");
  const ClothState s = solver.readState();
  float lowest = 1e30f;
  for (std::size_t i = s.positions.size() - 12; i < s.positions.size(); ++i)
    lowest = std::min(lowest, s.positions[i].y);
  return lowest;
}

TEST_P(ProjectiveSolverGLTest, ImplicitBendingHoldsAStiffCantileverWhereExplicitBendingBlowsUp) {
  // D = 10 N m at 10 substeps a frame: the explicit hinge force blows up; as constraints
  // of the solve the hinges hold the sheet out (measured: sag 0.08 m after 1 s, 0.04 m at
  // 40 substeps, where Jacobi gets closer to the solve; a limp sheet has fallen 0.6 m).
  ClothSettings settings = withoutColliders(projective(30));
  settings.substeps = 10;
  settings.velocityDamping = 4.0f;
  auto explicitBending = make(cantilever(10.0f), settings);
  ASSERT_TRUE(explicitBending);
  EXPECT_TRUE(std::isnan(freeEdgeHeight(*explicitBending, 60))) << "explicit bending was expected to blow up";
  settings.bending = BendingScheme::Implicit;
  auto implicitBending = make(cantilever(10.0f), settings);
  auto limp = make(cantilever(1e-5f), settings);
  ASSERT_TRUE(implicitBending && limp);
  const float stiffSag = 1.3f - freeEdgeHeight(*implicitBending, 60), limpSag = 1.3f - freeEdgeHeight(*limp, 60);
  std::printf("[ projective ] %s: cantilever sag after 1 s, implicit bending: D = 10 N m %.3f m, 1e-5 N m %.3f m\n",
              std::string(backendName(GetParam())).c_str(), stiffSag, limpSag);
  EXPECT_LT(stiffSag, 0.15f);
  EXPECT_GT(limpSag, 0.4f);
}

INSTANTIATE_TEST_SUITE_P(Backends, ProjectiveSolverGLTest, ::testing::Values(Backend::Cpu, Backend::Gpu),
                         [](const auto& param) { return std::string(backendName(param.param)); });

// ---- Determinism and CPU vs GPU ----------------------------------------------

TEST(ProjectiveSolverCpu, OneAndTwoThreadsAreBitwiseIdentical) {
  auto model = sheet(65, {0, 64});  // 4225 vertices: above the CPU parallel threshold
  ClothState states[2];
  std::vector<kernels::ClothSpring> springs[2];
  for (int t = 0; t < 2; ++t) {
    ClothSettings settings = projective(25);
    settings.substeps = 3;
    settings.threads = t + 1;
    settings.plasticRate = 1.0f;
    auto solver = makeSolver(Backend::Cpu, model, settings);
    ASSERT_TRUE(solver);
    for (int f = 0; f < 10; ++f) solver->step();
    states[t] = solver->readState();
    springs[t] = solver->readSprings();
  }
  EXPECT_EQ(states[0].positions, states[1].positions);
  EXPECT_EQ(states[0].velocities, states[1].velocities);
  EXPECT_EQ(stateHash(states[0]), stateHash(states[1]));
  for (std::size_t s = 0; s < springs[0].size(); ++s) ASSERT_EQ(springs[0][s].restLength, springs[1][s].restLength);
}

TEST(ProjectiveSolverCpu, ImplicitBendingNeedsTheProjectiveIntegrator) {
  ClothSettings settings;
  settings.bending = BendingScheme::Implicit;
  const Status status = settings.validate();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("projective_jacobi"), std::string::npos) << status.error().message;
  EXPECT_FALSE(createClothSolver(Backend::Cpu, sheet(4), settings));
  EXPECT_EQ(parseBendingScheme("implicit").value(), BendingScheme::Implicit);
  EXPECT_FALSE(parseBendingScheme("Implicit"));
}

TEST(ProjectiveSolverCpu, ImplicitAndExplicitBendingSettleToTheSameCantilever) {
  // Where explicit bending is stable (D = 2 N m needs 40 substeps), both schemes minimise
  // the same energy for isometric folds from a flat rest (projective_bending.glslh).
  // Measured: free edge 1.0955 m explicit, 1.0957 m implicit after 1 s.
  ClothSettings settings = withoutColliders(projective(30));
  settings.substeps = 40;
  settings.velocityDamping = 4.0f;
  auto explicitBending = makeSolver(Backend::Cpu, cantilever(2.0f), settings);
  settings.bending = BendingScheme::Implicit;
  auto implicitBending = makeSolver(Backend::Cpu, cantilever(2.0f), settings);
  ASSERT_TRUE(explicitBending && implicitBending);
  const float a = freeEdgeHeight(*explicitBending, 60), b = freeEdgeHeight(*implicitBending, 60);
  const float sag = 1.3f - a;
  ASSERT_GT(sag, 0.1f);
  EXPECT_NEAR(b, a, 0.02f * sag);
}

TEST(ProjectiveSolverCpu, FactoryPicksTheIntegrator) {
  // The two integrators differ after one step of a stiff sheet at one substep.
  auto model = sheet(10, {0, 9}, stiffMaterial());
  ClothSettings explicitSettings = withoutColliders(ClothSettings{});
  explicitSettings.substeps = 1;
  ClothSettings projectiveSettings = withoutColliders(projective());
  projectiveSettings.substeps = 1;
  auto a = makeSolver(Backend::Cpu, model, explicitSettings);
  auto b = makeSolver(Backend::Cpu, model, projectiveSettings);
  ASSERT_TRUE(a && b);
  a->writeState(wavyStart(*model));
  b->writeState(wavyStart(*model));
  a->step();
  b->step();
  EXPECT_NE(a->readState().positions, b->readState().positions);
}

class ProjectiveCrossCheckGLTest : public test::GlTest {
 protected:
  static void dump(const ClothState& cpu, const ClothState& gpu, const std::string& name) {
    test::dumpStates(cpu, gpu, "projective_crosscheck_" + name);
  }

  /// One step of both backends from `start`: equal statuses, positions within 1e-5 m and
  /// velocities within 1e-5 m / h (the projective velocity is (x_new - x_old) / h, so a
  /// position difference of atol is a velocity difference of atol / h). Returns the CPU's.
  static ClothState expectOneStepAgrees(const std::shared_ptr<const ClothModel>& model, const ClothSettings& settings,
                                        const ClothState& start, const std::string& name) {
    auto cpu = makeSolver(Backend::Cpu, model, settings);
    auto gpu = makeSolver(Backend::Gpu, model, settings);
    if (!cpu || !gpu) return start;
    cpu->writeState(start);
    gpu->writeState(start);
    EXPECT_EQ(cpu->step(), gpu->step());
    const ClothState a = cpu->readState(), b = gpu->readState();
    const float h = settings.frameDt / float(settings.substeps);
    const float positionExcess = worstExcess(a.positions, b.positions, 1e-5f, 1e-5f);
    const float velocityExcess = worstExcess(a.velocities, b.velocities, 1e-5f / h, 1e-5f);
    std::printf("[ cross-check ] projective %s: max |cpu-gpu| position %.3g m, velocity %.3g m/s\n", name.c_str(),
                worstDifference(a.positions, b.positions), worstDifference(a.velocities, b.velocities));
    if (positionExcess > 0.0f || velocityExcess > 0.0f) dump(a, b, name);
    EXPECT_LE(positionExcess, 0.0f);
    EXPECT_LE(velocityExcess, 0.0f);
    return a;
  }
};

TEST_F(ProjectiveCrossCheckGLTest, OneSubstepAgreesTightly) {
  // 1225 vertices (not a multiple of the workgroup size); springs stretched and
  // compressed, bending, the sphere, the ground and friction all act.
  auto model = sheet(35, {0, 34});
  ClothSettings settings = projective(30);
  settings.substeps = 1;
  ClothState start = wavyStart(*model);
  for (std::size_t i = 0; i < start.positions.size(); ++i)
    if (i % 7 == 0 && start.positions[i].w != 0.0f) start.positions[i].y = 0.002f;  // on the ground
  expectOneStepAgrees(model, settings, start, "one_substep");
}

TEST_F(ProjectiveCrossCheckGLTest, ImplicitBendingAgreesOverOneSubstep) {
  // Stiff implicit hinges, half of them with a rest angle (the projection along the wing
  // normals' bisector), the sphere and the ground.
  auto built = std::make_shared<ClothModel>(*sheet(35, {0, 34}));
  for (std::size_t h = 0; h < built->hinges.size(); ++h) {
    built->hinges[h].stiffness *= 1e4f;
    if (h % 2 == 0) built->hinges[h] = kernels::withRestAngle(built->hinges[h], 0.3f - 0.01f * float(h % 60));
  }
  std::shared_ptr<const ClothModel> model = built;
  ClothSettings settings = projective(30);
  settings.substeps = 1;
  settings.bending = BendingScheme::Implicit;
  const ClothState start = wavyStart(*model);
  const ClothState implicitStep = expectOneStepAgrees(model, settings, start, "implicit_bending");
  // The hinges moved the sheet: the step differs from explicit bending's.
  settings.bending = BendingScheme::Explicit;
  auto explicitBending = makeSolver(Backend::Cpu, model, settings);
  ASSERT_TRUE(explicitBending);
  explicitBending->writeState(start);
  explicitBending->step();
  EXPECT_GT(worstDifference(implicitStep.positions, explicitBending->readState().positions), 1e-4f);
}

TEST_F(ProjectiveCrossCheckGLTest, HangingTrajectoriesAgreeOver100Frames) {
  // As HangingTrajectoriesAgreeOver200Frames: the top edge pinned, gravity in the
  // sheet's plane, no contacts; differences stay at round-off relative to the motion.
  std::vector<std::uint32_t> topEdge(35);
  for (std::uint32_t i = 0; i < 35; ++i) topEdge[i] = i;
  auto model = sheet(35, topEdge);
  ClothSettings settings = withoutColliders(projective(20));
  settings.gravity = glm::vec3(0.0f, 0.0f, -9.81f);
  settings.substeps = 2;
  auto cpu = makeSolver(Backend::Cpu, model, settings);
  auto gpu = makeSolver(Backend::Gpu, model, settings);
  ASSERT_TRUE(cpu && gpu);
  double worstRelative = 0.0, worstDisplacement = 0.0;
  for (int f = 1; f <= 100; ++f) {
    ASSERT_EQ(cpu->step(), StepStatus::Ok);
    ASSERT_EQ(gpu->step(), StepStatus::Ok);
    if (f % 20 != 0) continue;
    const ClothState a = cpu->readState(), b = gpu->readState();
    double displacement = 0.0, difference = 0.0;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
      displacement =
          std::max(displacement, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(model->restPositions[i]))));
      difference = std::max(difference, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i]))));
    }
    ASSERT_GT(displacement, 1e-3) << "frame " << f;  // the sheet moves
    worstRelative = std::max(worstRelative, difference / displacement);
    worstDisplacement = std::max(worstDisplacement, displacement);
    if (difference > 1e-3 * displacement) dump(a, b, "hanging_frame_" + std::to_string(f));
    EXPECT_LE(difference, 1e-3 * displacement)
        << "frame " << f << ": max |cpu - gpu| = " << difference << " m, displacement " << displacement << " m";
  }
  std::printf(
      "[ cross-check ] projective hanging: worst max|cpu-gpu| / displacement over 100 frames: %.3g "
      "(max displacement %.3g m)\n",
      worstRelative, worstDisplacement);
}

TEST_F(ProjectiveCrossCheckGLTest, PlasticRestLengthsAgree) {
  auto model = sheet(12, {0, 11});
  ClothSettings settings = withoutColliders(projective(20));
  settings.substeps = 2;
  settings.plasticRate = 5.0f;
  settings.yieldStrain = 0.001f;
  auto cpu = makeSolver(Backend::Cpu, model, settings);
  auto gpu = makeSolver(Backend::Gpu, model, settings);
  ASSERT_TRUE(cpu && gpu);
  for (int f = 0; f < 10; ++f) EXPECT_EQ(cpu->step(), gpu->step());
  const auto a = cpu->readSprings(), b = gpu->readSprings();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t s = 0; s < a.size(); ++s)
    EXPECT_NEAR(a[s].restLength, b[s].restLength, 1e-5f + 1e-4f * b[s].restLength) << "spring " << s;
}

}  // namespace
}  // namespace hg
