// Garments draped on the mannequin against its depth views: the penetration of
// the cloth into the body after the drape, measured against the exact reference (CGAL
// distances to the body mesh), for the source's method (top, front and back views, one
// layer) and the full method (five views, four depth-peeled layers, the feature pass),
// in the A-pose and with the arms lowered further (a narrower armpit).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/contact/DepthViews.h"
#include "sim/contact/Penetration.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace hg {
namespace {

struct Method {
  const char* name;
  std::vector<DepthViewDirection> directions;
  int layers;
  bool features;
};

/// Penetration of the draped garments' vertices, all of them and those near the armpits
/// (within 8 cm of a point below each shoulder joint, toward the chest).
struct DrapeResult {
  PenetrationStats all, armpits;
};

ClothSolverFactory cpuFactory() {
  return [](std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    return createCpuClothSolver(std::move(model), settings);
  };
}

class ContactDrapeTest : public ::testing::TestWithParam<float> {};

TEST_P(ContactDrapeTest, FullMethodKeepsGarmentsOutOfTheBody) {
  const float armAngle = GetParam();
  const std::string text = R"({"avatar": {"mannequin": {"height": 1.70, "pose": "a_pose", "a_pose_arm_angle": )" +
                           std::to_string(armAngle) + R"(, "cell_size": 0.015},
        "contact": {"method": "depth_views", "texel": 0.0025, "layers": 4,
                    "views": ["top", "front", "back", "left", "right"]}},
      "garments": [{"type": "tshirt", "hem_below_waist": 0.13, "chest_ease": 0.10},
                   {"type": "trousers"}],
      "cloth": {"areal_density": 0.15, "tensile_stiffness": 1500.0, "bending_rigidity": 2e-5},
      "ground": {"height": 0.0},
      "dressing": {"edge_length": 0.03},
      "solver": {"backend": "cpu", "integrator": "projective_jacobi", "substeps": 8, "iterations": 30,
                 "velocity_damping": 0.5, "friction": 0.5, "contact_offset": 0.004}})";
  auto scene = parseDrapeScene(text, "inline");
  ASSERT_TRUE(scene) << scene.error().message;
  auto prepared = PreparedDrape::prepare(*scene, cpuFactory());  // sewn against the full method's views
  ASSERT_TRUE(prepared) << prepared.error().message;
  const TriangleMesh& body = prepared->body()->avatar.mesh;
  const BodyMeasurements& m = prepared->body()->measurements;
  const float texel = 0.0025f, offset = prepared->settings().contactOffset;

  const std::vector<DepthViewDirection> three{DepthViewDirection::Top, DepthViewDirection::Front,
                                              DepthViewDirection::Back};
  const std::vector<DepthViewDirection> five{DepthViewDirection::Top, DepthViewDirection::Front,
                                             DepthViewDirection::Back, DepthViewDirection::Left,
                                             DepthViewDirection::Right};
  // The source's method (asserted to yank the cloth, as the user guide says) and the full
  // method (asserted to keep the garments out). What layers and side views add on their
  // own was measured once and is in bench/RESULTS.md; it is not rerun here (CI budget).
  const Method methods[] = {{"3 views, 1 layer (source)", three, 1, false},
                            {"5 views, 4 layers + features", five, 4, true}};
  for (const Method& method : methods) {
    // The source's method yanks the cloth in any pose: checked once, in the A-pose (CI budget).
    if (!method.features && armAngle != 45.0f) continue;
    DepthViewOptions options;
    options.directions = method.directions;
    options.layers = method.layers;
    options.texelSize = texel;
    auto setup = makeDepthViewSetup(body, options);
    ASSERT_TRUE(setup) << setup.error().message;
    auto views = rasterizeDepthViews(body, {}, *setup);
    ASSERT_TRUE(views) << views.error().message;
    ClothSettings settings = prepared->settings();
    settings.colliders.depthViews = std::make_shared<const DepthViewImages>(std::move(views).value());
    settings.featureContacts = method.features;
    auto solver = createCpuClothSolver(prepared->model(), settings);
    ASSERT_TRUE(solver) << solver.error().message;
    (*solver)->writeState(prepared->start());
    // Frames with a speed-limit or non-finite flag: where the views take a point hidden
    // from all of them (beside the hip behind the hanging arm, under the arm) for inside,
    // they push it to a far surface at once and the cloth is yanked (> max_speed).
    // The source's method: 20 frames show it (CI budget); the full method: 40.
    const int frames = method.features ? 40 : 20;
    int anomalies = 0;
    for (int f = 0; f < frames; ++f) {
      const StepStatus status = (*solver)->step();
      anomalies += any(status);
    }
    const ClothState state = (*solver)->readState();
    std::vector<glm::vec3> points;
    for (const glm::vec4& p : state.positions) points.push_back(glm::vec3(p));
    auto exact = exactSignedDistances(body, points);
    ASSERT_TRUE(exact) << exact.error().message;
    std::vector<float> armpits;
    for (const char* shoulder : {"upper_arm_l", "upper_arm_r"}) {
      const glm::vec3 joint = m.joint(shoulder), chest = m.joint("chest");
      const glm::vec3 centre(glm::mix(joint.x, chest.x, 0.35f), joint.y - 0.06f, joint.z);
      for (std::size_t i = 0; i < points.size(); ++i)
        if (glm::distance(points[i], centre) < 0.08f) armpits.push_back((*exact)[i]);
    }
    const PenetrationStats all = penetrationStats(*exact), pits = penetrationStats(armpits);
    std::printf(
        "[ drape penetration ] arms %.0f deg, %s: %s; armpits %s; "
        "%d of %d frames flagged unstable\n",
        double(armAngle), method.name, describe(all).c_str(), describe(pits).c_str(), anomalies, frames);
    if (!method.features) {  // the source's method: hidden points taken for inside are yanked out
      EXPECT_GE(anomalies, 15) << "the source's method no longer yanks the cloth: update docs/user-guide.md";
      continue;
    }
    EXPECT_GT(pits.points, 10u);  // the garments do reach the armpits
    EXPECT_EQ(anomalies, 0);
    EXPECT_LE(all.p999, texel + offset);
    EXPECT_LE(all.max, 3.0f * texel);
    EXPECT_LE(pits.max, 3.0f * texel);
  }
}

std::string angleLabel(const ::testing::TestParamInfo<float>& param) {
  return "arms_" + std::to_string(int(param.param)) + "_degrees";
}

INSTANTIATE_TEST_SUITE_P(Poses, ContactDrapeTest, ::testing::Values(45.0f, 60.0f), angleLabel);

}  // namespace
}  // namespace hg
