// Offscreen rendering of a drape scene, PNG round trip, and the viewer's screenshot
// under xvfb-run (the same scene in a real GLFW window).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "render/DrapeSceneView.h"
#include "render/OffscreenTarget.h"
#include "sim/scene/DrapeFabric.h"
#include "sim/scene/DrapeScene.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

namespace fs = std::filesystem;

/// Fraction of pixels whose colour is "cloth blue" (front) or "cloth red" (back).
double clothFraction(const Image& image) {
  std::size_t cloth = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      const bool blue = p[2] > p[0] + 60 && p[2] > p[1] + 30;
      const bool red = p[0] > p[1] + 60 && p[0] > p[2] + 60;
      cloth += blue || red;
    }
  return double(cloth) / double(image.width * image.height);
}

class RenderGLTest : public test::GlTest {};

TEST_F(RenderGLTest, DrapeSceneShowsClothOverSphereOnGround) {
  auto scene = loadDrapeScene(fs::path(HG_SOURCE_DIR) / "scenes/cloth_on_sphere.json");
  ASSERT_TRUE(scene);
  auto model = buildSceneCloth(*scene).value();
  DrapeSceneView view(model, scene->settings);
  auto renderer = MeshRenderer::create(renderShaders());
  ASSERT_TRUE(renderer) << renderer.error().message;
  OffscreenTarget target(320, 240);
  target.bind();
  view.draw(*renderer, view.defaultCamera(), 320, 240);
  const Image withCloth = target.read();
  view.draw(*renderer, view.defaultCamera(), 320, 240, /*showCloth=*/false);
  const Image withoutCloth = target.read();
  EXPECT_GT(clothFraction(withCloth), 0.05);
  EXPECT_EQ(clothFraction(withoutCloth), 0.0);
  // The top-left corner is sky (clear colour), not geometry.
  const std::uint8_t* sky = withCloth.pixel(2, 2);
  EXPECT_NEAR(sky[0], 237, 2);
  EXPECT_NEAR(sky[2], 245, 2);
}

TEST(Png, RoundTripKeepsPixels) {
  Image image{7, 5, std::vector<std::uint8_t>(7 * 5 * 4)};
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = std::uint8_t(i * 37);
  const fs::path path = fs::temp_directory_path() / ("hg_png_" + std::to_string(::getpid()) + ".png");
  ASSERT_TRUE(writePng(image, path));
  auto back = readPng(path);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->width, 7);
  EXPECT_EQ(back->height, 5);
  EXPECT_EQ(back->rgba, image.rgba);
  fs::remove(path);
  auto missing = readPng(path);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find(path.string()), std::string::npos);
}

#ifdef HG_VIEWER_PATH
TEST(ViewerScreenshot, ShowsTheDrapedClothUnderXvfb) {
  const fs::path shot = fs::temp_directory_path() / ("hg_viewer_" + std::to_string(::getpid()) + ".png");
  // The shipped scene with its self contact off: twenty frames of its 54 substeps each with
  // the GPU self-contact passes take about 150 s on llvmpipe; this test is about the viewer.
  const fs::path scene = fs::temp_directory_path() / ("hg_viewer_" + std::to_string(::getpid()) + ".json");
  {
    nlohmann::json json = nlohmann::json::parse(std::ifstream(fs::path(HG_SOURCE_DIR) / "scenes/cloth_on_sphere.json"));
    json["solver"]["self_contact"] = false;
    std::ofstream(scene) << json.dump(2);
  }
  // Leak checking is off for the viewer process only: glfwTerminate unloads the GLX
  // driver, whose allocations then show up as leaks from "<unknown module>".
  const std::string command = std::string("ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ") +
                              "xvfb-run -a -s '-screen 0 800x600x24' '" + HG_VIEWER_PATH + "' '" + scene.string() +
                              "' --backend gpu --frames 20 --width 640 --height 480 --screenshot '" + shot.string() +
                              "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto image = readPng(shot);
  ASSERT_TRUE(image) << image.error().message;
  EXPECT_EQ(image->width, 640);
  EXPECT_EQ(image->height, 480);
  EXPECT_GT(clothFraction(*image), 0.05) << "no cloth visible in " << shot;
  fs::remove(shot);
  fs::remove(scene);
}

TEST(ViewerScreenshot, ShowsTheOutfitAndItsControlPanel) {
  // A small outfit scene (coarse mannequin and panels): the viewer prepares it as the CLI
  // does (avatar, sewing, welding), drapes a few frames and captures with its ImGui panel.
  const fs::path dir = fs::temp_directory_path() / ("hg_viewer_outfit_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path scene = dir / "outfit.json";
  std::ofstream(scene) << R"({"name": "outfit", "avatar": {"mannequin": {"cell_size": 0.02}, "contact_cell_size": 0.02},
    "garments": [{"type": "skirt"}], "dressing": {"edge_length": 0.045},
    "solver": {"backend": "cpu", "integrator": "projective_jacobi", "substeps": 4}})";
  const fs::path shot = dir / "shot.png";
  const std::string command = std::string("ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ") +
                              "xvfb-run -a -s '-screen 0 800x600x24' '" + HG_VIEWER_PATH + "' '" + scene.string() +
                              "' --frames 5 --width 640 --height 480 --panel --screenshot '" + shot.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto image = readPng(shot);
  ASSERT_TRUE(image) << image.error().message;
  EXPECT_GT(clothFraction(*image), 0.01) << "no garment visible in " << shot;
  // The panel: ImGui's dark window background in the top-left corner (the scene's
  // background there is a light grey).
  int dark = 0;
  for (int y = 20; y < 60; ++y)
    for (int x = 20; x < 120; ++x) {
      const std::uint8_t* p = &image->rgba[(std::size_t(y) * std::size_t(image->width) + std::size_t(x)) * 4];
      dark += p[0] < 60 && p[1] < 60 && p[2] < 60;
    }
  EXPECT_GT(dark, 40 * 100 / 2) << "no control panel in " << shot;
  fs::remove_all(dir);
}
#endif

}  // namespace
}  // namespace hg
