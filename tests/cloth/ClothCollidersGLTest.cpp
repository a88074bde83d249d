// The cloth's box and sphere-tree colliders on the GPU (sim/gpu/shaders/body_contact.glsl) against
// the CPU reference (CpuClothSolverBase::contactAt): same traversal (hg::nearestLeaf vs
// sphereTreeNearest over one concatenated node array), same box kernel.
#include <cmath>
#include <cstdio>
#include <memory>
#include <tuple>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/ClothFixtures.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

using test::worstExcess;

/// Where the sphere tree's icosphere sits: the analytic sphere's place in the other cloth tests.
const glm::vec3 kSphereCentre(0.0f, 0.6f, 0.0f);
constexpr float kSphereRadius = 0.5f;

/// Settings with a sphere tree of a 0.5 m icosphere at kSphereCentre (64
/// voxels across) and a tree of a torus, and two boxes (one turned) cutting the sheet.
ClothSettings collidersSettings() {
  ClothSettings settings;
  settings.colliders.spheres.clear();
  auto colliders = std::make_shared<SphereTreeColliders>();
  auto ball = SphereTree::fromMesh(makeIcosphere(glm::vec3(0.0f), kSphereRadius, 4), 64, "icosphere");
  EXPECT_TRUE(ball) << ball.error().message;
  auto torus = SphereTree::fromMesh(makeTorus(glm::vec3(0.0f), 0.2f, 0.06f, 48, 16), 48, "torus");
  EXPECT_TRUE(torus) << torus.error().message;
  colliders->add(*torus, RigidPose{glm::mat3(1.0f), glm::vec3(0.6f, 0.7f, 0.0f)}, 0.3f);
  colliders->add(*ball, RigidPose{glm::mat3(1.0f), kSphereCentre}, 0.5f);
  settings.colliders.sphereTrees = colliders;
  Obb box;
  box.centre = kSphereCentre + glm::vec3(0.0f, 0.45f, 0.0f);
  box.halfLengths = glm::vec3(0.1f, 0.06f, 0.3f);
  Obb turned = box;
  turned.centre = kSphereCentre + glm::vec3(-0.3f, 0.35f, 0.2f);
  const float c = std::cos(0.5f), s = std::sin(0.5f);
  turned.axes = {glm::vec3(c, s, 0.0f), glm::vec3(-s, c, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f)};
  settings.colliders.boxes = {BoxCollider{box, 0.2f}, BoxCollider{turned}};  // the second box takes the step's friction
  return settings;
}

std::pair<ClothState, ClothState> runBoth(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                                          const ClothState& start, int frames) {
  auto cpu = createClothSolver(Backend::Cpu, model, settings);
  auto gpu = createClothSolver(Backend::Gpu, model, settings);
  EXPECT_TRUE(cpu && gpu);
  if (!cpu || !gpu) return {};
  (*cpu)->writeState(start);
  (*gpu)->writeState(start);
  for (int f = 0; f < frames; ++f) EXPECT_EQ((*cpu)->step(), (*gpu)->step()) << "frame " << f;
  return {(*cpu)->readState(), (*gpu)->readState()};
}

class ClothCollidersGLTest : public test::GlTest {};

TEST_F(ClothCollidersGLTest, OneSubstepOnSphereTreesAndBoxesAgreesTightly) {
  // The wrapped sheet (2 mm inside to 6 mm outside a shell 2 mm out of the sphere, moderate
  // velocities): most vertices touch the sphere's tree, some the boxes. Frictionless, as
  // the body cross-check (Coulomb's static / kinetic switch is round-off sensitive).
  ClothSettings settings = collidersSettings();
  settings.substeps = 1;
  settings.frameDt = 1.0f / 2400.0f;
  settings.friction = 0.0f;
  for (BoxCollider& box : settings.colliders.boxes) box.friction = 0.0f;
  auto trees = std::make_shared<SphereTreeColliders>(*settings.colliders.sphereTrees);
  for (auto& instance : trees->instances) instance.translation.w = 0.0f;
  settings.colliders.sphereTrees = trees;
  ASSERT_TRUE(settings.validate()) << settings.validate().error().message;
  const auto [model, start] = test::wrappedSheet(kSphereCentre, kSphereRadius);
  int touching = 0, inBoxes = 0;
  for (const glm::vec4& p : start.positions) {
    const kernels::SphereTreeInstance& ball = trees->instances[1];
    const SpherePointHit hit = nearestLeaf(trees->nodes, ball, glm::vec3(p), settings.sphereTreeSearchRadius());
    touching += hit.found && hit.distance < settings.contactOffset;
    for (const BoxCollider& b : settings.colliders.boxes)
      inBoxes += b.box.signedContact(glm::vec3(p)).w < settings.contactOffset;
  }
  std::printf("[ cross-check ] %d of %zu vertices start touching the sphere tree, %d the boxes\n", touching,
              start.positions.size(), inBoxes);
  ASSERT_GT(touching, 300);
  ASSERT_GT(inBoxes, 20);
  const auto [a, b] = runBoth(model, settings, start, 1);
  const float positionExcess = worstExcess(a.positions, b.positions, 1e-6f, 1e-6f);
  const float velocityExcess = worstExcess(a.velocities, b.velocities, 1e-5f, 1e-5f);
  if (positionExcess > 0.0f || velocityExcess > 0.0f) test::dumpStates(a, b, "cloth_colliders_one_substep");
  EXPECT_LE(positionExcess, 0.0f);
  EXPECT_LE(velocityExcess, 0.0f);
}

TEST_F(ClothCollidersGLTest, SheetFallingOntoTreesAndBoxesAgreesOverFrames) {
  // A 35 x 35 sheet (not a multiple of the workgroup size) dropped from 1.3 m onto the
  // boxes, the torus and the sphere's tree, with friction. The first frames (free fall,
  // first contacts) agree per vertex to 1e-3 of the displacement; after 60 frames the
  // sheet has buckled into folds, which fall either way chaotically (as in the solver
  // cross-check's DrapedShapesAgreeAfter200Frames), so the draped shapes must agree:
  // centroid, bounding box and the fraction of vertices resting on a collider.
  ClothSettings settings = collidersSettings();
  auto model = test::sheet(35);
  const ClothState start = restState(*model);
  {
    const auto [a, b] = runBoth(model, settings, start, 12);
    double displacement = 0.0, difference = 0.0;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
      displacement =
          std::max(displacement, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(start.positions[i]))));
      difference = std::max(difference, double(glm::distance(glm::vec3(a.positions[i]), glm::vec3(b.positions[i]))));
    }
    std::printf("[ cross-check ] 12 frames: displacement %.3f m, max |cpu - gpu| %.2e m\n", displacement, difference);
    if (difference > 1e-3 * displacement) test::dumpStates(a, b, "cloth_colliders_12_frames");
    EXPECT_GT(displacement, 0.1);
    EXPECT_LE(difference, 1e-3 * displacement);
  }
  const auto [a, b] = runBoth(model, settings, start, 60);
  const SphereTreeColliders& trees = *settings.colliders.sphereTrees;
  auto summary = [&](const ClothState& s) {
    glm::dvec3 centroid(0.0), lo(1e9), hi(-1e9);
    int resting = 0;
    for (const glm::vec4& p4 : s.positions) {
      const glm::vec3 p(p4);
      centroid += glm::dvec3(p);
      lo = glm::min(lo, glm::dvec3(p));
      hi = glm::max(hi, glm::dvec3(p));
      bool touching = false;
      for (const BoxCollider& box : settings.colliders.boxes)
        touching |= box.box.signedContact(p).w < settings.contactOffset + 0.005f;
      for (const auto& instance : trees.instances) {
        const SpherePointHit hit = nearestLeaf(trees.nodes, instance, p, settings.contactOffset + 0.005f);
        touching |= hit.found;
      }
      resting += touching;
    }
    centroid /= double(s.positions.size());
    return std::tuple{centroid, lo, hi, double(resting) / double(s.positions.size())};
  };
  const auto [ca, loA, hiA, fa] = summary(a);
  const auto [cb, loB, hiB, fb] = summary(b);
  std::printf("[ cross-check ] 60 frames: centroid distance %.4f m, resting fraction cpu %.3f gpu %.3f\n",
              glm::distance(ca, cb), fa, fb);
  EXPECT_LT(glm::distance(ca, cb), 0.01);
  EXPECT_LT(glm::distance(loA, loB), 0.08);
  EXPECT_LT(glm::distance(hiA, hiB), 0.08);
  EXPECT_NEAR(fa, fb, 0.05);
  EXPECT_GT(fa, 0.2);
}

TEST_F(ClothCollidersGLTest, ReplacedCollidersAreUploaded) {
  // setColliders after creation: with them removed, the GPU sheet falls
  // through where the CPU one (also without them) does, and with a box put back both rest on it.
  ClothSettings settings = collidersSettings();
  auto model = test::sheet(12, {}, {}, std::nullopt, 0.3f);
  auto cpu = createClothSolver(Backend::Cpu, model, settings);
  auto gpu = createClothSolver(Backend::Gpu, model, settings);
  ASSERT_TRUE(cpu && gpu);
  Obb floor;
  floor.centre = glm::vec3(0.0f, 0.9f, 0.0f);
  floor.halfLengths = glm::vec3(1.0f, 0.1f, 1.0f);
  for (auto* solver : {cpu->get(), gpu->get()}) {
    ClothColliders c = solver->settings().colliders;
    c.sphereTrees = nullptr;
    c.boxes = {BoxCollider{floor, 0.5f}};
    solver->setColliders(std::move(c));
    for (int f = 0; f < 40; ++f) EXPECT_EQ(solver->step(), StepStatus::Ok);
  }
  const ClothState a = (*cpu)->readState(), b = (*gpu)->readState();
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    EXPECT_NEAR(a.positions[i].y, 1.0f + settings.contactOffset, 1e-5f);
    EXPECT_NEAR(b.positions[i].y, 1.0f + settings.contactOffset, 1e-5f);
  }
}

}  // namespace
}  // namespace hg
