// hagoromo-viewer: interactive view of a drape scene (GLFW window, OpenGL 4.5 core).
//
//   hagoromo-viewer scenes/cloth_on_sphere.json
//   hagoromo-viewer scenes/cloth_on_sphere.json --frames 90 --screenshot shot.png   # batch capture
//
// Keys: Space play/pause, N one frame, R reset, C cloth on/off, B colliders on/off,
// P screenshot (viewer-N.png in the scene's output folder), Esc quit.
// Mouse: left drag orbits, wheel zooms.
#include "render/gl/Gl.h"  // before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "apps/common/ExitCodes.h"
#include "render/DrapeSceneView.h"
#include "render/Image.h"
#include "render/MeshRenderer.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/scene/DrapeScene.h"

namespace {

using namespace hg;
using namespace hg::app;

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "hagoromo-viewer: error: %s\n", message.c_str());
  return code;
}

struct ViewerState {
  OrbitCamera camera;
  bool playing = true;
  bool stepOnce = false;
  bool reset = false;
  bool showCloth = true;
  bool showColliders = true;
  bool screenshot = false;
  bool dragging = false;
  double lastX = 0.0, lastY = 0.0;
};

Image readFramebuffer(int width, int height) {
  Image image{width, height, std::vector<std::uint8_t>(std::size_t(width) * std::size_t(height) * 4)};
  std::vector<std::uint8_t> bottomUp(image.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  const std::size_t row = std::size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(bottomUp.data() + std::size_t(height - 1 - y) * row, row, image.rgba.data() + std::size_t(y) * row);
  return image;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hagoromo-viewer: interactive drape scene viewer"};
  std::string scenePath = "scenes/cloth_on_sphere.json";
  std::string backendOverride;
  std::string screenshotPath;
  int captureFrames = -1;
  int width = 1280, height = 960;
  app.add_option("scene", scenePath, "Scene JSON file");
  app.add_option("--backend", backendOverride, "cpu or gpu (default: the scene's)")->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--screenshot", screenshotPath, "Write a PNG after --frames frames and exit");
  app.add_option("--frames", captureFrames, "Frames to simulate before --screenshot")->check(CLI::NonNegativeNumber);
  app.add_option("--width", width, "Window width")->check(CLI::Range(64, 8192));
  app.add_option("--height", height, "Window height")->check(CLI::Range(64, 8192));
  app.footer("Keys: Space play/pause, N step, R reset, C cloth, B colliders, P screenshot, Esc quit.\n"
             "Exit codes: 0 ok, 1 bad command line, 2 invalid scene, 3 no window / OpenGL 4.5, 5 screenshot not written.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  auto loaded = loadDrapeScene(scenePath);
  if (!loaded) return fail(kExitInput, loaded.error().message);
  DrapeScene scene = std::move(loaded).value();
  if (!backendOverride.empty()) scene.backend = *parseBackend(backendOverride);
  auto model = buildSceneCloth(scene);
  if (!model) return fail(kExitInput, scenePath + ": " + model.error().message);
  auto sharedModel = std::make_shared<const ClothModel>(std::move(model).value());

  glfwSetErrorCallback([](int, const char* description) { std::fprintf(stderr, "GLFW: %s\n", description); });
  if (!glfwInit())
    return fail(kExitGraphics, "cannot open a window: GLFW found no display (set DISPLAY, or run under "
                               "xvfb-run -a; for headless batch work use `hagoromo drape`)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  GLFWwindow* window = glfwCreateWindow(width, height, ("hagoromo - " + scene.name).c_str(), nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    return fail(kExitGraphics, "cannot create an OpenGL 4.5 core window (driver too old? Mesa: libgl1-mesa-dri)");
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(screenshotPath.empty() ? 1 : 0);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    glfwTerminate();
    return fail(kExitGraphics, "cannot load OpenGL 4.5 entry points");
  }

  int exitCode = kExitOk;
  {
    auto solver = createClothSolver(scene.backend, sharedModel, scene.settings);
    auto renderer = MeshRenderer::create(gl::ShaderRegistry());
    if (!solver || !renderer) {
      glfwTerminate();
      return fail(kExitGraphics, !solver ? solver.error().message : renderer.error().message);
    }
    DrapeSceneView view(*sharedModel, scene.settings);
    ViewerState ui;
    ui.camera = view.defaultCamera();
    glfwSetWindowUserPointer(window, &ui);
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
      if (action != GLFW_PRESS) return;
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      switch (key) {
        case GLFW_KEY_SPACE: s.playing = !s.playing; break;
        case GLFW_KEY_N: s.stepOnce = true; break;
        case GLFW_KEY_R: s.reset = true; break;
        case GLFW_KEY_C: s.showCloth = !s.showCloth; break;
        case GLFW_KEY_B: s.showColliders = !s.showColliders; break;
        case GLFW_KEY_P: s.screenshot = true; break;
        case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
        default: break;
      }
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      if (button == GLFW_MOUSE_BUTTON_LEFT) {
        s.dragging = action == GLFW_PRESS;
        glfwGetCursorPos(w, &s.lastX, &s.lastY);
      }
    });
    glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      if (!s.dragging) return;
      s.camera.azimuth -= float(x - s.lastX) * 0.008f;
      s.camera.elevation = std::clamp(s.camera.elevation + float(y - s.lastY) * 0.008f, -1.5f, 1.5f);
      s.lastX = x;
      s.lastY = y;
    });
    glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      s.camera.distance *= float(std::pow(0.9, dy));
    });

    const bool batch = !screenshotPath.empty();
    const int batchFrames = captureFrames >= 0 ? captureFrames : scene.frames;
    int frame = 0, shots = 0;
    StepStatus lastStatus = StepStatus::Ok;
    while (!glfwWindowShouldClose(window)) {
      glfwPollEvents();
      if (ui.reset) {
        (*solver)->writeState(restState(*sharedModel));
        frame = 0;
        ui.reset = false;
      }
      if (batch) {
        for (; frame < batchFrames; ++frame) {
          scene.pinAnimation.apply(**solver, scene.pinned, float(frame + 1) * scene.settings.frameDt);
          lastStatus |= (*solver)->step();
        }
      } else if (ui.playing || ui.stepOnce) {
        scene.pinAnimation.apply(**solver, scene.pinned, float(frame + 1) * scene.settings.frameDt);
        lastStatus = (*solver)->step();
        ++frame;
        ui.stepOnce = false;
      }
      view.update((*solver)->readState());
      int fbWidth = 0, fbHeight = 0;
      glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      view.draw(*renderer, ui.camera, fbWidth, fbHeight, ui.showCloth, ui.showColliders);
      const std::string title = "hagoromo - " + scene.name + " - frame " + std::to_string(frame) + " (" +
                                std::string(backendName(scene.backend)) + ")" +
                                (any(lastStatus) ? " - " + describe(lastStatus) : std::string());
      glfwSetWindowTitle(window, title.c_str());
      if (batch || ui.screenshot) {
        const std::string path =
            batch ? screenshotPath : (scene.outputDirectory / ("viewer-" + std::to_string(++shots) + ".png")).string();
        if (Status s = writePng(readFramebuffer(fbWidth, fbHeight), path); !s) {
          std::fprintf(stderr, "hagoromo-viewer: error: %s\n", s.error().message.c_str());
          exitCode = kExitOutput;
        } else {
          std::printf("wrote %s\n", path.c_str());
        }
        ui.screenshot = false;
        if (batch) break;
      }
      glfwSwapBuffers(window);
    }
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return exitCode;
}
