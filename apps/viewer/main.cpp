// hagoromo-viewer: interactive view of a drape scene (GLFW window, OpenGL 4.5 core,
// Dear ImGui panel).
//
//   hagoromo-viewer scenes/outfit_on_mannequin.json
//   hagoromo-viewer scenes/cloth_on_sphere.json --frames 90 --screenshot shot.png   # batch capture
//
// Panel: play / pause / step / reset, show or hide cloth, body and colliders, the body
// collider's grid, fabric preset, screenshot. Keys: Space play/pause, N one frame,
// R reset, C cloth, B colliders, P screenshot (viewer-N.png in the scene's output
// folder), H panel, Esc quit. Mouse: left drag orbits, wheel zooms.
#include "render/gl/Gl.h"  // before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <imgui/backends/imgui_impl_glfw.h>
#include <imgui/backends/imgui_impl_opengl3.h>
#include <imgui/imgui.h>
#include <CLI/CLI.hpp>

#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "render/DrapeSceneView.h"
#include "render/Image.h"
#include "render/MeshRenderer.h"
#include "sim/cloth/FabricPresets.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace {

using namespace hg;
using namespace hg::app;

struct ViewerState {
  OrbitCamera camera;
  bool playing = true;
  bool stepOnce = false;
  bool reset = false;
  bool showCloth = true;
  bool showColliders = true;
  bool screenshot = false;
  bool showPanel = true;
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

static int runViewer(int argc, char** argv) {
  CLI::App app{"hagoromo-viewer: interactive drape scene viewer"};
  std::string scenePath = "scenes/outfit_on_mannequin.json";
  std::string backendOverride;
  std::string screenshotPath;
  int captureFrames = -1;
  int width = 1280, height = 960;
  app.add_option("scene", scenePath, "Scene JSON file");
  app.add_option("--backend", backendOverride, "cpu or gpu (default: the scene's)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--screenshot", screenshotPath, "Write a PNG after --frames frames and exit");
  bool panelInScreenshot = false;
  app.add_flag("--panel", panelInScreenshot, "Batch capture: include the control panel in the screenshot");
  app.add_option("--frames", captureFrames, "Frames to simulate before --screenshot")->check(CLI::NonNegativeNumber);
  app.add_option("--width", width, "Window width")->check(CLI::Range(64, 8192));
  app.add_option("--height", height, "Window height")->check(CLI::Range(64, 8192));
  app.footer(
      "Keys: Space play/pause, N step, R reset, C cloth, B colliders, P screenshot, H panel, Esc quit.\n"
      "Exit codes: 0 ok, 1 bad command line, 2 invalid scene, 3 no window / OpenGL 4.5, 4 the scene's sewing\n"
      "failed, 5 screenshot not written, 70 internal error, 130 / 143 interrupted.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  auto loaded = loadDrapeScene(scenePath);
  if (!loaded) return fail(loaded.error(), "hagoromo-viewer");
  DrapeScene scene = std::move(loaded).value();
  if (!backendOverride.empty()) scene.backend = *parseBackend(backendOverride);
  DrapeScene original = scene;

  glfwSetErrorCallback([](int, const char* description) { std::fprintf(stderr, "GLFW: %s\n", description); });
  if (!glfwInit())
    return fail(graphicsError("cannot open a window: GLFW found no display (set DISPLAY, or run under "
                              "xvfb-run -a; for headless batch work use `hagoromo drape`)"),
                "hagoromo-viewer");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  GLFWwindow* window = glfwCreateWindow(width, height, ("hagoromo - " + scene.name).c_str(), nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    return fail(graphicsError("cannot create an OpenGL 4.5 core window (driver too old? Mesa: libgl1-mesa-dri)"),
                "hagoromo-viewer");
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(screenshotPath.empty() ? 1 : 0);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    glfwTerminate();
    return fail(graphicsError("cannot load OpenGL 4.5 entry points"), "hagoromo-viewer");
  }

  int exitCode = kExitOk;
  {
    auto renderer = MeshRenderer::create(gl::ShaderRegistry());
    if (!renderer) {
      glfwTerminate();
      return fail(renderer.error(), "hagoromo-viewer");
    }
    // The drape (avatar, cloth or sewn garments, solver, view); rebuilt when the fabric changes.
    struct Drape {
      PreparedDrape prepared;
      std::unique_ptr<DrapeSceneView> view;
    };
    std::unique_ptr<Drape> drape;
    Error loadError;
    auto load = [&]() -> bool {
      std::printf("preparing %s ...\n", scene.name.c_str());
      const ClothSolverFactory makeSolver = [&](std::shared_ptr<const ClothModel> m, const ClothSettings& s) {
        return createClothSolver(scene.backend, std::move(m), s);
      };
      auto prepared = PreparedDrape::prepare(scene, makeSolver);
      if (!prepared) {
        loadError = prepared.error().prefixed(scenePath + ": ");
        return false;
      }
      if (Status s = prepared->createSolver(makeSolver); !s) {
        loadError = s.error().prefixed(scenePath + ": ");
        return false;
      }
      auto next = std::make_unique<Drape>(Drape{std::move(prepared).value(), nullptr});
      // A moving body's depth views: rendered by the GPU on a hardware driver (bound by
      // the GPU solver), by the CPU reference rasterizer on llvmpipe (faster there).
      const char* glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      const bool software = glRenderer && std::string(glRenderer).find("llvmpipe") != std::string::npos;
      if (!software) next->prepared.setBodyViewRenderer(makeGpuBodyViewRenderer());
      next->view = std::make_unique<DrapeSceneView>(*next->prepared.model(), next->prepared.settings(),
                                                    next->prepared.bodySurface());
      next->view->setPieces(next->prepared.pieceOfVertex());
      next->view->setSceneProps(next->prepared.props().meshes, scene.boxes.size());
      next->view->update(next->prepared.start());
      drape = std::move(next);
      return true;
    };
    if (!load()) {
      glfwTerminate();
      return fail(loadError, "hagoromo-viewer");
    }

    // Fabric presets beside the scene that load (the others lack measured data).
    std::vector<std::string> fabrics = {"(scene)"};
    if (auto presets = loadFabricPresets(scene.directory / "fabrics.json"))
      for (const FabricPreset& p : *presets) fabrics.push_back(p.name);
    int fabricChoice = 0;
    char scenePathEdit[512] = {};
    std::snprintf(scenePathEdit, sizeof scenePathEdit, "%s", scenePath.c_str());
    std::string loadPath, loadMessage;

    ViewerState ui;
    ui.camera = drape->view->defaultCamera();
    const bool batch = !screenshotPath.empty();
    ui.showPanel = !batch || panelInScreenshot;  // batch screenshots show the scene alone unless --panel
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
    ImGui::StyleColorsDark();
    glfwSetWindowUserPointer(window, &ui);
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
      if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      switch (key) {
        case GLFW_KEY_SPACE:
          s.playing = !s.playing;
          break;
        case GLFW_KEY_N:
          s.stepOnce = true;
          break;
        case GLFW_KEY_R:
          s.reset = true;
          break;
        case GLFW_KEY_C:
          s.showCloth = !s.showCloth;
          break;
        case GLFW_KEY_B:
          s.showColliders = !s.showColliders;
          break;
        case GLFW_KEY_P:
          s.screenshot = true;
          break;
        case GLFW_KEY_H:
          s.showPanel = !s.showPanel;
          break;
        case GLFW_KEY_ESCAPE:
          glfwSetWindowShouldClose(w, GLFW_TRUE);
          break;
        default:
          break;
      }
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      if (button == GLFW_MOUSE_BUTTON_LEFT) {
        s.dragging = action == GLFW_PRESS && !ImGui::GetIO().WantCaptureMouse;
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
      if (ImGui::GetIO().WantCaptureMouse) return;
      auto& s = *static_cast<ViewerState*>(glfwGetWindowUserPointer(w));
      s.camera.distance *= float(std::pow(0.9, dy));
    });
    // After our callbacks: the backend chains to them.
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 450 core");

    const int batchFrames = captureFrames >= 0 ? captureFrames : scene.frames;
    int frame = 0, shots = 0, uiFrames = 0;
    StepStatus lastStatus = StepStatus::Ok;
    while (!glfwWindowShouldClose(window)) {
      ++uiFrames;
      glfwPollEvents();
      if (ui.reset) {
        drape->prepared.restart();  // the body back in its first pose too
        if (const TriangleMesh* body = drape->prepared.bodySurface()) drape->view->setBody(*body);
        frame = 0;
        lastStatus = StepStatus::Ok;
        ui.reset = false;
      }
      ClothSolver& solver = drape->prepared.solver();
      // One frame as the CLI runs it: pins, the moving body (avatar.motion.animate), step.
      auto advance = [&]() -> StepStatus {
        ++frame;
        const Result<StepStatus> advanced = drape->prepared.advance();
        if (!advanced) {
          std::fprintf(stderr, "hagoromo-viewer: %s\n", advanced.error().message.c_str());
          ui.playing = false;
          return StepStatus::NonFinite;
        }
        if (drape->prepared.bodyMoves()) drape->view->setBody(*drape->prepared.bodySurface());
        return *advanced;
      };
      if (batch) {
        while (frame < batchFrames) lastStatus |= advance();
      } else if (ui.playing || ui.stepOnce) {
        lastStatus = advance();
        ui.stepOnce = false;
      }
      drape->view->update(solver.readState());
      int fbWidth = 0, fbHeight = 0;
      glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      drape->view->draw(*renderer, ui.camera, fbWidth, fbHeight, ui.showCloth, ui.showColliders);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      bool reload = false;
      if (ui.showPanel) {
        ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
        ImGui::Begin("hagoromo", &ui.showPanel, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::Text("%s  (%s backend)", scene.name.c_str(), std::string(backendName(scene.backend)).c_str());
        ImGui::Text("frame %d, t = %.2f s, %zu cloth vertices", frame, double(frame) * double(scene.settings.frameDt),
                    drape->prepared.model()->vertexCount());
        if (any(lastStatus)) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", describe(lastStatus).c_str());
        if (ImGui::Button(ui.playing ? "Pause" : "Play")) ui.playing = !ui.playing;
        ImGui::SameLine();
        if (ImGui::Button("Step")) ui.stepOnce = true;
        ImGui::SameLine();
        if (ImGui::Button("Reset")) ui.reset = true;
        ImGui::Checkbox("cloth", &ui.showCloth);
        ImGui::SameLine();
        ImGui::Checkbox("body and colliders", &ui.showColliders);
        if (const SceneBody* body = drape->prepared.body()) {
          if (const SignedDistanceGrid* grid = body->collider.get())
            ImGui::Text("body collider: %d x %d x %d grid, %.0f mm cells", grid->dims.x, grid->dims.y, grid->dims.z,
                        1e3 * double(grid->cellSize));
          if (const DepthViewImages* views = body->views.get())
            ImGui::Text("body collider: %zu depth views x %d layers, %.1f mm texels", views->setup.views.size(),
                        views->setup.layers, 1e3 * double(views->setup.texelSize()));
        }
        if (const DressedAvatar* sewn = drape->prepared.dressing())
          ImGui::Text("sewn in %d frames, %zu vertices welded", sewn->sewingFrames, sewn->weldedVertices);
        std::vector<const char*> names;
        for (const std::string& n : fabrics) names.push_back(n.c_str());
        if (ImGui::Combo("fabric", &fabricChoice, names.data(), int(names.size()))) reload = true;
        if (ImGui::Button("Screenshot")) ui.screenshot = true;
        // Load another scene (a JSON path); on an error the current one stays.
        ImGui::InputText("##scene", scenePathEdit, sizeof scenePathEdit);
        ImGui::SameLine();
        if (ImGui::Button("Load scene")) loadPath = scenePathEdit;
        if (!loadMessage.empty()) ImGui::TextWrapped("%s", loadMessage.c_str());
        ImGui::Text("drag: orbit, wheel: zoom, H: hide this panel");
        ImGui::End();
      }
      ImGui::Render();
      // Screenshots show the scene without the panel (read before drawing it), except a
      // batch capture with --panel.
      if (batch && panelInScreenshot) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      // An auto-sized ImGui window appears from its second frame: a batch capture with the
      // panel waits a few frames (the simulation is already done).
      const bool batchCapture = batch && uiFrames >= (panelInScreenshot ? 3 : 1);
      if (batchCapture || ui.screenshot) {
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
      if (!(batch && panelInScreenshot)) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      const std::string title = "hagoromo - " + scene.name + " - frame " + std::to_string(frame);
      glfwSetWindowTitle(window, title.c_str());
      glfwSwapBuffers(window);

      if (!loadPath.empty()) {
        auto next = loadDrapeScene(loadPath);
        if (!next) {
          loadMessage = next.error().message;
        } else {
          const DrapeScene previous = scene;
          scene = std::move(next).value();
          if (!backendOverride.empty()) scene.backend = *parseBackend(backendOverride);
          if (load()) {
            original = scene;
            scenePath = loadPath;
            fabricChoice = 0;
            frame = 0;
            lastStatus = StepStatus::Ok;
            loadMessage.clear();
            ui.camera = drape->view->defaultCamera();
            glfwSetWindowTitle(window, ("hagoromo - " + scene.name).c_str());
          } else {
            scene = previous;
            loadMessage = loadError.message;
          }
        }
        loadPath.clear();
      }
      if (reload) {
        // A preset replaces the cloth block's material (explicit keys still win, as in the CLI).
        scene = original;
        if (fabricChoice > 0) {
          scene.fabric = fabrics[std::size_t(fabricChoice)];
          scene.materialOverrides.clear();
        }
        if (load()) {
          frame = 0;
          lastStatus = StepStatus::Ok;
        } else {
          std::fprintf(stderr, "hagoromo-viewer: %s\n", loadError.message.c_str());
        }
      }
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  return exitCode;
}

int main(int argc, char** argv) {
  ensureSleepingOpenMpThreads(argv);  // first: may re-execute the program
  installInterruptCleanup();
  try {
    return runViewer(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hagoromo-viewer: error: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hagoromo-viewer: error: internal error: %s (please report it)\n", e.what());
  }
  return kExitInternal;
}
