// Box (OBB) and sphere-tree colliders of the cloth (docs/methods.md sections 6 and 7):
// resting heights against analytic references, and the scene keys that create them.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/scene/DrapeProps.h"
#include "sim/scene/DrapeScene.h"
#include "tests/support/ClothFixtures.h"

namespace hg {
namespace {

/// A small square sheet (resolution^2 vertices, `size` m wide) centred at `centre`.
std::shared_ptr<const ClothModel> smallSheet(int resolution, float size, glm::vec3 centre) {
  auto model = buildClothModel(test::squareSheetMesh(resolution, size, centre), ClothMaterial{});
  EXPECT_TRUE(model) << model.error().message;
  return std::make_shared<const ClothModel>(std::move(model).value());
}

ClothState run(std::shared_ptr<const ClothModel> model, const ClothSettings& settings, int frames) {
  auto solver = createCpuClothSolver(std::move(model), settings);
  EXPECT_TRUE(solver) << solver.error().message;
  if (!solver) return {};
  for (int f = 0; f < frames; ++f) EXPECT_EQ((*solver)->step(), StepStatus::Ok) << "frame " << f;
  return (*solver)->readState();
}

/// Distance of the sheet's centre vertex from `centre` and the smallest over all vertices.
std::pair<float, float> distances(const ClothState& state, int resolution, glm::vec3 centre) {
  const std::size_t middle = std::size_t(resolution / 2) * std::size_t(resolution) + std::size_t(resolution / 2);
  float smallest = 1e30f;
  for (const glm::vec4& p : state.positions) smallest = std::min(smallest, glm::distance(glm::vec3(p), centre));
  return {glm::distance(glm::vec3(state.positions[middle]), centre), smallest};
}

TEST(ClothCollidersTest, SheetRestsOnASphereTreeWhereItRestsOnTheAnalyticSphere) {
  // A 0.18 m sheet on top of a 0.3 m sphere: once filled into a sphere tree (64 voxels
  // across) and once as the analytic sphere collider. The tree's surface is the union of
  // its leaf spheres, within about a voxel of the true sphere.
  const glm::vec3 centre(0.0f, 0.5f, 0.0f);
  const float radius = 0.3f;
  const int resolution = 7;
  auto model = smallSheet(resolution, 0.18f, centre + glm::vec3(0.0f, radius + 0.05f, 0.0f));
  ClothSettings analytic = test::withoutColliders();
  analytic.substeps = 40;
  analytic.colliders.spheres = {SphereCollider{centre, radius}};
  ClothSettings tree = test::withoutColliders(analytic);
  tree.colliders.spheres.clear();
  auto built = SphereTree::fromMesh(makeIcosphere(glm::vec3(0.0f), radius, 5), 64, "icosphere");
  ASSERT_TRUE(built) << built.error().message;
  const float voxel = built->voxel();
  auto colliders = std::make_shared<SphereTreeColliders>();
  colliders->add(*built, RigidPose{glm::mat3(1.0f), centre}, analytic.friction);
  tree.colliders.sphereTrees = colliders;
  ASSERT_TRUE(tree.validate()) << tree.validate().error().message;

  const auto [analyticTop, analyticLowest] = distances(run(model, analytic, 60), resolution, centre);
  const auto [treeTop, treeLowest] = distances(run(model, tree, 60), resolution, centre);
  std::printf(
      "[ sphere tree ] voxel %.2f mm, %zu leaves: top vertex at %.2f mm from the centre (analytic %.2f mm), "
      "lowest %.2f mm (analytic %.2f mm)\n",
      1e3 * double(voxel), built->spheres().size(), 1e3 * double(treeTop), 1e3 * double(analyticTop),
      1e3 * double(treeLowest), 1e3 * double(analyticLowest));
  EXPECT_NEAR(analyticTop, radius + analytic.contactOffset, 1e-4f);  // the analytic collider is exact
  EXPECT_NEAR(treeTop, analyticTop, voxel);
  EXPECT_GT(treeLowest, radius + analytic.contactOffset - voxel);  // nowhere deeper than a voxel
  EXPECT_LT(treeTop, radius + 0.05f - 0.01f);                      // it did fall onto the tree
}

/// Gap of every vertex to `box` (signed distance to the solid box).
std::pair<float, float> gapRange(const ClothState& state, const Obb& box) {
  float lo = 1e30f, hi = -1e30f;
  for (const glm::vec4& p : state.positions) {
    const float gap = box.signedContact(glm::vec3(p)).w;
    lo = std::min(lo, gap);
    hi = std::max(hi, gap);
  }
  return {lo, hi};
}

TEST(ClothCollidersTest, SheetRestsOnABoxTopAtTheContactOffset) {
  // A 0.3 m sheet on a 1 m box whose top is at y = 0.6: every vertex ends exactly
  // contactOffset above the top (the contact projects to gap = offset each substep).
  Obb box;
  box.centre = glm::vec3(0.0f, 0.5f, 0.0f);
  box.halfLengths = glm::vec3(0.5f, 0.1f, 0.5f);
  ClothSettings settings = test::withoutColliders();
  settings.substeps = 40;
  settings.colliders.boxes = {BoxCollider{box}};
  auto state = run(smallSheet(11, 0.3f, glm::vec3(0.0f, 0.65f, 0.0f)), settings, 40);
  for (const glm::vec4& p : state.positions) EXPECT_NEAR(p.y, 0.6f + settings.contactOffset, 2e-5f);
}

TEST(ClothCollidersTest, SheetRestsOnARotatedBoxTopAtTheContactOffset) {
  // The same box turned 35 degrees about y and tilted 12 degrees about x (below the
  // friction angle atan(0.4) = 21.8 degrees, so static friction holds the sheet): every
  // vertex ends contactOffset above the tilted top face.
  Obb box;
  box.centre = glm::vec3(0.1f, 0.5f, -0.05f);
  box.halfLengths = glm::vec3(0.5f, 0.1f, 0.5f);
  const glm::mat3 r = sceneRotation(glm::vec3(12.0f, 35.0f, 0.0f));
  box.axes = {r[0], r[1], r[2]};
  ClothSettings settings = test::withoutColliders();
  settings.substeps = 40;
  settings.friction = 0.4f;
  settings.colliders.boxes = {BoxCollider{box, -1.0f}};  // the step's friction
  ASSERT_TRUE(settings.validate()) << settings.validate().error().message;
  const glm::vec3 top = box.centre + 0.1f * r[1];
  auto state = run(smallSheet(11, 0.3f, top + glm::vec3(0.0f, 0.08f, 0.0f)), settings, 80);
  const auto [lo, hi] = gapRange(state, box);
  EXPECT_NEAR(lo, settings.contactOffset, 2e-5f);
  EXPECT_NEAR(hi, settings.contactOffset, 2e-5f);
  // Held by static friction: the sheet stays over the top face.
  for (const glm::vec4& p : state.positions) EXPECT_LT(std::abs(glm::dot(glm::vec3(p) - box.centre, r[0])), 0.5f);
}

TEST(ClothCollidersTest, BoxFrictionPerBoxOverridesTheStepFriction) {
  // On a box tilted 20 degrees, mu = 0.6 holds the sheet, mu = 0 lets it slide.
  Obb box;
  box.centre = glm::vec3(0.0f, 0.5f, 0.0f);
  box.halfLengths = glm::vec3(0.5f, 0.1f, 0.5f);
  const glm::mat3 r = sceneRotation(glm::vec3(0.0f, 0.0f, 20.0f));
  box.axes = {r[0], r[1], r[2]};
  ClothSettings settings = test::withoutColliders();
  settings.substeps = 40;
  settings.friction = 0.0f;
  auto model = smallSheet(9, 0.2f, box.centre + 0.1f * r[1] + glm::vec3(0.0f, 0.08f, 0.0f));
  settings.colliders.boxes = {BoxCollider{box, 0.6f}};
  auto solver = createCpuClothSolver(model, settings);
  ASSERT_TRUE(solver);
  // From rest 8 cm above the top the sheet falls 0.07 m onto it in ~0.12 s; then it
  // either stays or slides for the remaining ~0.5 s (g sin 20 deg: ~0.4 m).
  const double held = test::centroidTravel(**solver, restState(*model), 40);
  {
    ClothColliders c = (*solver)->settings().colliders;
    c.boxes = {BoxCollider{box, 0.0f}};
    (*solver)->setColliders(std::move(c));
  }
  const double slid = test::centroidTravel(**solver, restState(*model), 40);
  EXPECT_LT(held, 0.1);
  EXPECT_GT(slid, held + 0.1);
}

TEST(ClothCollidersTest, SettingsRejectBadBoxesAndTrees) {
  ClothSettings settings;
  Obb box;
  box.halfLengths = glm::vec3(0.1f);
  box.axes[0] = glm::vec3(2.0f, 0.0f, 0.0f);  // not unit
  settings.colliders.boxes = {BoxCollider{box}};
  auto status = settings.validate();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("boxes[0]"), std::string::npos) << status.error().message;
  settings.colliders.boxes.clear();
  auto trees = std::make_shared<SphereTreeColliders>();
  trees->instances.push_back(kernels::SphereTreeInstance{});
  trees->instances.back().base = glm::uvec4(0u, 5u, 1u, 0u);  // 5 nodes, none stored
  settings.colliders.sphereTrees = trees;
  status = settings.validate();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("sphere tree collider 0"), std::string::npos) << status.error().message;
}

/// parseDrapeScene's error for `text`, which must fail.
std::string parseError(const std::string& text) {
  auto scene = parseDrapeScene(text, "test.json");
  EXPECT_FALSE(scene) << text;
  return scene ? std::string() : scene.error().message;
}

TEST(ClothCollidersTest, SceneKeyErrorsNameTheKey) {
  auto expectMentions = [](const std::string& message, const char* key) {
    EXPECT_NE(message.find(key), std::string::npos) << message;
    EXPECT_NE(message.find("test.json"), std::string::npos) << message;
  };
  expectMentions(parseError(R"({"props": [{"shape": "teapot"}]})"), "props[0].shape");
  expectMentions(parseError(R"({"props": [{"shape": "bottle", "resolution": 4}]})"), "props[0].resolution");
  expectMentions(parseError(R"({"props": [{"shape": "bottle", "collider": "mesh"}]})"), "props[0].collider");
  expectMentions(parseError(R"({"props": [{"shape": "bottle", "mesh": "a.obj"}]})"), "props[0]");
  expectMentions(parseError(R"({"props": [{"shape": "box", "scale": -1}]})"), "props[0].scale");
  expectMentions(parseError(R"({"props": [{"shape": "box", "colour": 1}]})"), "props[0].colour");
  expectMentions(parseError(R"({"props": [{"shape": "box", "friction": -0.1}]})"), "props[0].friction");
  expectMentions(parseError(R"({"boxes": [{"center": [0, 0, 0]}]})"), "boxes[0].half_extents");
  expectMentions(parseError(R"({"boxes": [{"half_extents": [0.1, 0, 0.1]}]})"), "boxes[0].half_extents");
  expectMentions(parseError(R"({"boxes": [{"half_extents": [0.1, 0.1, 0.1], "rotation_deg": [0, 1]}]})"),
                 "rotation_deg");
  expectMentions(parseError(R"({"avatar": {"contact": {"method": "spheres"}}})"), "avatar.contact.method");
  expectMentions(parseError(R"({"avatar": {"contact": {"method": "sphere_tree", "sphere_tree_resolution": 600}}})"),
                 "avatar.contact.sphere_tree_resolution");
}

TEST(ClothCollidersTest, MissingPropMeshIsNamedWithItsKeyAndFile) {
  auto scene = parseDrapeScene(R"({"props": [{"shape": "sphere"}, {"mesh": "no_such_prop.obj"}]})", "test.json");
  ASSERT_TRUE(scene) << scene.error().message;
  scene->directory = std::filesystem::temp_directory_path();
  auto props = buildSceneProps(*scene);
  ASSERT_FALSE(props);
  EXPECT_NE(props.error().message.find("props[1].mesh"), std::string::npos) << props.error().message;
  EXPECT_NE(props.error().message.find("no_such_prop.obj"), std::string::npos) << props.error().message;
}

TEST(ClothCollidersTest, TableclothSceneBuildsItsBoxesAndTrees) {
  auto scene = loadDrapeScene(std::filesystem::path(HG_SOURCE_DIR) / "scenes" / "tablecloth_on_props.json");
  ASSERT_TRUE(scene) << scene.error().message;
  auto props = buildSceneProps(*scene);
  ASSERT_TRUE(props) << props.error().message;
  EXPECT_EQ(props->meshes.size(), scene->boxes.size() + scene->props.size());
  std::size_t obbProps = 0;
  for (const ScenePropSpec& p : scene->props) obbProps += p.collider == PropCollider::Obb;
  EXPECT_EQ(props->boxes.size(), scene->boxes.size() + obbProps);
  EXPECT_EQ(props->trees.instances.size(), scene->props.size() - obbProps);
  // The bottle lies on the table top (0.75 m): its lowest leaf sphere reaches down to it,
  // within a voxel of the tree (0.3 m / 128), and the centre of its base is on its surface.
  const ScenePropSpec& bottle = scene->props[0];
  ASSERT_EQ(bottle.shape, "bottle");
  const kernels::SphereTreeInstance& instance = props->trees.instances[0];
  const SpherePointHit base = nearestLeaf(props->trees.nodes, instance, bottle.position, 0.05f);
  ASSERT_TRUE(base.found);
  EXPECT_LT(std::abs(base.distance), 0.01f);
  float lowest = 1e30f;
  for (std::uint32_t n = 0; n < instance.base.y; ++n) {
    const kernels::SphereTreeNode& node = props->trees.nodes[instance.base.x + n];
    if (node.links.y != 0u) continue;
    const glm::vec4 world = kernels::sphereTreeSphereToWorld(instance, node.sphere);
    lowest = std::min(lowest, world.y - world.w);
  }
  EXPECT_NEAR(lowest, 0.75f, 0.3f / 128.0f);
  // Every prop's PCA box contains its mesh.
  for (std::size_t i = 0, box = scene->boxes.size(); i < scene->props.size(); ++i) {
    if (scene->props[i].collider != PropCollider::Obb) continue;
    for (const glm::vec3& p : props->meshes[scene->boxes.size() + i].positions)
      EXPECT_LT(props->boxes[box].signedContact(p).w, 1e-4f);
    ++box;
  }
}

}  // namespace
}  // namespace hg
