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
#include "gl/Gl.h"  // before GLFW
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui/backends/imgui_impl_glfw.h>
#include <imgui/backends/imgui_impl_opengl3.h>
#include <imgui/imgui.h>
#include <CLI/CLI.hpp>

#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "render/DrapeSceneView.h"
#include "render/Image.h"
#include "render/MeshRenderer.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricPresets.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace {

using namespace hg;
using namespace hg::app;

constexpr const char* kProgram = "hagoromo-viewer";

struct ViewerOptions {
  std::string scenePath = "scenes/outfit_on_mannequin.json";
  std::string backend;             ///< cpu or gpu (empty: the scene's)
  std::string screenshotPath;      ///< batch capture: a PNG after captureFrames frames, then exit
  bool panelInScreenshot = false;  ///< batch capture: with the control panel
  int captureFrames = -1;          ///< frames before the screenshot (< 0: the scene's)
  int width = 1280, height = 960;  ///< window, pixels
};

/// What the input callbacks change (the window's user pointer) and the panel shows.
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

/// The command line; a value when the program ends here (--help: 0; a bad option: 1).
std::optional<int> parseOptions(int argc, char** argv, ViewerOptions& options) {
  CLI::App app{"hagoromo-viewer: interactive drape scene viewer"};
  app.add_option("scene", options.scenePath, "Scene JSON file");
  app.add_option("--backend", options.backend, "cpu or gpu (default: the scene's)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--screenshot", options.screenshotPath, "Write a PNG after --frames frames and exit");
  app.add_flag("--panel", options.panelInScreenshot, "Batch capture: include the control panel in the screenshot");
  app.add_option("--frames", options.captureFrames, "Frames to simulate before --screenshot")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--width", options.width, "Window width")->check(CLI::Range(64, 8192));
  app.add_option("--height", options.height, "Window height")->check(CLI::Range(64, 8192));
  app.footer(
      "Keys: Space play/pause, N step, R reset, C cloth, B colliders, P screenshot, H panel, Esc quit.\n"
      "Exit codes: 0 ok, 1 bad command line, 2 invalid scene, 3 no window / OpenGL 4.5, 4 the scene's sewing\n"
      "failed, 5 screenshot not written, 70 internal error, 130 / 143 interrupted.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

/// The scene as read, with --backend (`backend`, when given) over its own.
Result<DrapeScene> loadViewerScene(const std::string& path, const std::string& backend) {
  auto scene = loadDrapeScene(path);
  if (scene && !backend.empty()) scene->backend = *parseBackend(backend);
  return scene;
}

/// `scene` with the fabric preset fabrics[choice] (0: the scene's own material). A preset
/// replaces the cloth block's material (explicit keys still win, as in the CLI).
DrapeScene withFabric(const DrapeScene& scene, const std::vector<std::string>& fabrics, int choice) {
  DrapeScene variant = scene;
  if (choice > 0) {
    variant.fabric = fabrics[std::size_t(choice)];
    variant.materialOverrides.clear();
  }
  return variant;
}

/// A window with a current OpenGL 4.5 core context; errors are ErrorKind::Graphics.
Result<GLFWwindow*> openWindow(const ViewerOptions& options, const std::string& title) {
  glfwSetErrorCallback([](int, const char* description) { std::fprintf(stderr, "GLFW: %s\n", description); });
  if (!glfwInit())
    return graphicsError(
        "cannot open a window: GLFW found no display (set DISPLAY, or run under "
        "xvfb-run -a; for headless batch work use `hagoromo drape`)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height, title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    return graphicsError("cannot create an OpenGL 4.5 core window (driver too old? Mesa: libgl1-mesa-dri)");
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(options.screenshotPath.empty() ? 1 : 0);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    glfwTerminate();
    return graphicsError("cannot load OpenGL 4.5 entry points");
  }
  return window;
}

// Input: the keys and the mouse, into the ViewerState at the window's user pointer.

ViewerState& stateOf(GLFWwindow* window) { return *static_cast<ViewerState*>(glfwGetWindowUserPointer(window)); }

void onKey(GLFWwindow* w, int key, int, int action, int) {
  if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
  ViewerState& s = stateOf(w);
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
}

void onMouseButton(GLFWwindow* w, int button, int action, int) {
  ViewerState& s = stateOf(w);
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    s.dragging = action == GLFW_PRESS && !ImGui::GetIO().WantCaptureMouse;
    glfwGetCursorPos(w, &s.lastX, &s.lastY);
  }
}

/// A left drag orbits the camera (rad per pixel: 0.008).
void onCursor(GLFWwindow* w, double x, double y) {
  ViewerState& s = stateOf(w);
  if (!s.dragging) return;
  s.camera.azimuth -= float(x - s.lastX) * 0.008f;
  s.camera.elevation = std::clamp(s.camera.elevation + float(y - s.lastY) * 0.008f, -1.5f, 1.5f);
  s.lastX = x;
  s.lastY = y;
}

/// The wheel zooms: 10 % nearer per step.
void onScroll(GLFWwindow* w, double, double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  stateOf(w).camera.distance *= float(std::pow(0.9, dy));
}

void installInput(GLFWwindow* window, ViewerState& state) {
  glfwSetWindowUserPointer(window, &state);
  glfwSetKeyCallback(window, onKey);
  glfwSetMouseButtonCallback(window, onMouseButton);
  glfwSetCursorPosCallback(window, onCursor);
  glfwSetScrollCallback(window, onScroll);
}

/// The drape on screen: the run, prepared and advanced as the CLI does it
/// (sim/scene/PreparedDrape.h), and its picture.
struct ViewerDrape {
  PreparedDrape run;
  DrapeSceneView view;
};

/// Prepares `scene` (the avatar, the cloth or the sewn garments, the solver) and its view;
/// errors are prefixed with `scenePath`.
Result<std::unique_ptr<ViewerDrape>> prepareViewerDrape(const DrapeScene& scene, const std::string& scenePath) {
  std::printf("preparing %s ...\n", scene.name.c_str());
  const Backend backend = scene.backend;
  const ClothSolverFactory makeSolver = [backend](std::shared_ptr<const ClothModel> m, const ClothSettings& s) {
    return createClothSolver(backend, std::move(m), s);
  };
  auto prepared = PreparedDrape::prepare(scene, makeSolver);
  if (!prepared) return prepared.error().prefixed(scenePath + ": ");
  if (Status s = prepared->createSolver(makeSolver); !s) return s.error().prefixed(scenePath + ": ");
  // A moving body's depth views: rendered by the GPU on a hardware driver (bound by
  // the GPU solver), by the CPU reference rasterizer on llvmpipe (faster there).
  const char* glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const bool software = glRenderer && std::string(glRenderer).find("llvmpipe") != std::string::npos;
  if (const SceneBody* body = prepared->body(); body && body->animator && body->views && !software)
    prepared->setBodyViewRenderer(makeGpuBodyViewRenderer());
  DrapeSceneView view(*prepared->model(), prepared->settings(), prepared->bodySurface());
  view.setPieces(prepared->pieceOfVertex());
  view.setSceneProps(prepared->props().meshes, scene.boxes.size());
  view.update(prepared->start());
  return std::make_unique<ViewerDrape>(ViewerDrape{std::move(prepared).value(), std::move(view)});
}

/// The interactive session: a scene (another one can be loaded, or a fabric preset
/// chosen: it is prepared again), its drape, the panel and the input.
class Viewer {
 public:
  Viewer(const ViewerOptions& options, DrapeScene scene, GLFWwindow* window, MeshRenderer& renderer)
      : m_options(options),
        m_scenePath(options.scenePath),
        m_scene(std::move(scene)),
        m_window(window),
        m_renderer(renderer),
        m_batch(!options.screenshotPath.empty()),
        m_batchFrames(options.captureFrames >= 0 ? options.captureFrames : m_scene.frames) {}

  /// Prepares the scene; the error names the scene.
  Status start();
  /// The window's loop until it closes or a batch capture is written; the exit code.
  int run();

 private:
  void initInterface();
  void shutdownInterface();
  void stepFrames();
  StepStatus advance();
  void renderScene(int& fbWidth, int& fbHeight);
  void buildInterface();
  void drawStatus();
  void drawSceneControls();
  bool presentFrame(int fbWidth, int fbHeight);
  bool takeScreenshotIfDue(int fbWidth, int fbHeight);
  void loadRequestedScene();
  void reloadFabric();

  const ViewerOptions& m_options;
  std::string m_scenePath;
  DrapeScene m_scene;  ///< as read (with --backend); a fabric preset applies to a copy
  GLFWwindow* m_window;
  MeshRenderer& m_renderer;
  std::unique_ptr<ViewerDrape> m_drape;
  std::vector<std::string> m_fabrics{"(scene)"};  ///< presets beside the scene that load
  int m_fabricChoice = 0;
  bool m_reload = false;  ///< a fabric was chosen this frame
  char m_scenePathEdit[512] = {};
  std::string m_loadPath, m_loadMessage;  ///< a scene to load (from the panel), why the last one failed
  ViewerState m_ui;
  bool m_batch;  ///< --screenshot: simulate, capture, exit
  int m_batchFrames;
  int m_shots = 0, m_uiFrames = 0;
  StepStatus m_lastStatus = StepStatus::Ok;
  int m_exitCode = kExitOk;
};

Status Viewer::start() {
  auto drape = prepareViewerDrape(m_scene, m_scenePath);
  if (!drape) return drape.error();
  m_drape = std::move(drape).value();
  // Fabric presets beside the scene that load (the others lack measured data).
  if (auto presets = loadFabricPresets(m_scene.directory / "fabrics.json"))
    for (const FabricPreset& p : *presets) m_fabrics.push_back(p.name);
  // Then the measured fabrics of the library (sim/cloth/FabricLibrary.h).
  if (auto library = loadFabricLibrary(fabricLibraryDirectory()))
    for (const LibraryFabric& f : *library) m_fabrics.push_back(f.name);
  std::snprintf(m_scenePathEdit, sizeof m_scenePathEdit, "%s", m_scenePath.c_str());
  m_ui.camera = m_drape->view.defaultCamera();
  m_ui.showPanel = !m_batch || m_options.panelInScreenshot;  // batch screenshots show the scene alone unless --panel
  return Status::success();
}

int Viewer::run() {
  initInterface();
  while (!glfwWindowShouldClose(m_window)) {
    ++m_uiFrames;
    glfwPollEvents();
    stepFrames();
    int fbWidth = 0, fbHeight = 0;
    renderScene(fbWidth, fbHeight);
    buildInterface();
    if (!presentFrame(fbWidth, fbHeight)) break;
    loadRequestedScene();
    reloadFabric();
  }
  shutdownInterface();
  return m_exitCode;
}

void Viewer::initInterface() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  installInput(m_window, m_ui);
  // After our callbacks: the backend chains to them.
  ImGui_ImplGlfw_InitForOpenGL(m_window, true);
  ImGui_ImplOpenGL3_Init("#version 450 core");
}

void Viewer::shutdownInterface() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

/// A reset, then the frames due: in a batch capture every frame up to --frames at once,
/// else one while playing or on a step.
void Viewer::stepFrames() {
  if (m_ui.reset) {
    m_drape->run.restart();  // the body back in its first pose too
    if (const TriangleMesh* body = m_drape->run.bodySurface()) m_drape->view.setBody(*body);
    m_lastStatus = StepStatus::Ok;
    m_ui.reset = false;
  }
  if (m_batch) {
    while (m_drape->run.frame() < m_batchFrames) m_lastStatus |= advance();
  } else if (m_ui.playing || m_ui.stepOnce) {
    m_lastStatus = advance();
    m_ui.stepOnce = false;
  }
}

/// One frame as the CLI runs it: pins, the moving body (avatar.motion.animate), step. An
/// error is printed and stops playing.
StepStatus Viewer::advance() {
  const Result<StepStatus> advanced = m_drape->run.advance();
  if (!advanced) {
    std::fprintf(stderr, "hagoromo-viewer: %s\n", advanced.error().message.c_str());
    m_ui.playing = false;
    return StepStatus::NonFinite;
  }
  if (m_drape->run.bodyMoves()) m_drape->view.setBody(*m_drape->run.bodySurface());
  return *advanced;
}

/// The cloth's current shape and the colliders into the window's framebuffer.
void Viewer::renderScene(int& fbWidth, int& fbHeight) {
  m_drape->view.update(m_drape->run.solver().readState());
  glfwGetFramebufferSize(m_window, &fbWidth, &fbHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  m_drape->view.draw(m_renderer, m_ui.camera, fbWidth, fbHeight, m_ui.showCloth, m_ui.showColliders);
}

/// The panel of this frame (ImGui), not drawn yet.
void Viewer::buildInterface() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  m_reload = false;
  if (m_ui.showPanel) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::Begin("hagoromo", &m_ui.showPanel, ImGuiWindowFlags_AlwaysAutoResize);
    drawStatus();
    drawSceneControls();
    ImGui::End();
  }
  ImGui::Render();
}

/// The scene, the frame and the colliders; play / pause / step / reset, what to show.
void Viewer::drawStatus() {
  const PreparedDrape& run = m_drape->run;
  ImGui::Text("%s  (%s backend)", m_scene.name.c_str(), std::string(backendName(m_scene.backend)).c_str());
  ImGui::Text("frame %d, t = %.2f s, %zu cloth vertices", run.frame(),
              double(run.frame()) * double(m_scene.settings.frameDt), run.model()->vertexCount());
  if (any(m_lastStatus)) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", describe(m_lastStatus).c_str());
  if (ImGui::Button(m_ui.playing ? "Pause" : "Play")) m_ui.playing = !m_ui.playing;
  ImGui::SameLine();
  if (ImGui::Button("Step")) m_ui.stepOnce = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset")) m_ui.reset = true;
  ImGui::Checkbox("cloth", &m_ui.showCloth);
  ImGui::SameLine();
  ImGui::Checkbox("body and colliders", &m_ui.showColliders);
  if (const SceneBody* body = run.body()) {
    if (const SignedDistanceGrid* grid = body->collider.get())
      ImGui::Text("body collider: %d x %d x %d grid, %.0f mm cells", grid->dims.x, grid->dims.y, grid->dims.z,
                  1e3 * double(grid->cellSize));
    if (const DepthViewImages* views = body->views.get())
      ImGui::Text("body collider: %zu depth views x %d layers, %.1f mm texels", views->setup.views.size(),
                  views->setup.layers, 1e3 * double(views->setup.texelSize()));
  }
  if (const DressedAvatar* sewn = run.dressing())
    ImGui::Text("sewn in %d frames, %zu vertices welded", sewn->sewingFrames, sewn->weldedVertices);
}

/// The fabric preset, the screenshot button and another scene to load.
void Viewer::drawSceneControls() {
  std::vector<const char*> names;
  for (const std::string& n : m_fabrics) names.push_back(n.c_str());
  if (ImGui::Combo("fabric", &m_fabricChoice, names.data(), int(names.size()))) m_reload = true;
  if (ImGui::Button("Screenshot")) m_ui.screenshot = true;
  // Load another scene (a JSON path); on an error the current one stays.
  ImGui::InputText("##scene", m_scenePathEdit, sizeof m_scenePathEdit);
  ImGui::SameLine();
  if (ImGui::Button("Load scene")) m_loadPath = m_scenePathEdit;
  if (!m_loadMessage.empty()) ImGui::TextWrapped("%s", m_loadMessage.c_str());
  ImGui::Text("drag: orbit, wheel: zoom, H: hide this panel");
}

/// Draws the panel and shows the frame. Screenshots show the scene without the panel
/// (read before drawing it), except a batch capture with --panel. False: the batch
/// capture is written and the loop ends.
bool Viewer::presentFrame(int fbWidth, int fbHeight) {
  const bool panelInShot = m_batch && m_options.panelInScreenshot;
  if (panelInShot) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (takeScreenshotIfDue(fbWidth, fbHeight) && m_batch) return false;
  if (!panelInShot) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  const std::string title = "hagoromo - " + m_scene.name + " - frame " + std::to_string(m_drape->run.frame());
  glfwSetWindowTitle(m_window, title.c_str());
  glfwSwapBuffers(m_window);
  return true;
}

/// The batch capture, or a screenshot asked for (viewer-N.png in the scene's output
/// folder); true when one was taken. A failed write makes the exit code 5.
bool Viewer::takeScreenshotIfDue(int fbWidth, int fbHeight) {
  // An auto-sized ImGui window appears from its second frame: a batch capture with the
  // panel waits a few frames (the simulation is already done).
  const bool batchCapture = m_batch && m_uiFrames >= (m_options.panelInScreenshot ? 3 : 1);
  if (!batchCapture && !m_ui.screenshot) return false;
  const std::string path = m_batch
                               ? m_options.screenshotPath
                               : (m_scene.outputDirectory / ("viewer-" + std::to_string(++m_shots) + ".png")).string();
  if (Status s = writePng(readFramebuffer(fbWidth, fbHeight), path); !s) {
    std::fprintf(stderr, "hagoromo-viewer: error: %s\n", s.error().message.c_str());
    m_exitCode = kExitOutput;
  } else {
    std::printf("wrote %s\n", path.c_str());
  }
  m_ui.screenshot = false;
  return true;
}

/// The scene asked for in the panel, prepared; on an error the current one stays and the
/// panel shows why.
void Viewer::loadRequestedScene() {
  if (m_loadPath.empty()) return;
  auto next = loadViewerScene(m_loadPath, m_options.backend);
  if (!next) {
    m_loadMessage = next.error().message;
  } else if (auto drape = prepareViewerDrape(*next, m_scenePath)) {
    m_drape = std::move(drape).value();
    m_scene = std::move(next).value();
    m_scenePath = m_loadPath;
    m_fabricChoice = 0;
    m_lastStatus = StepStatus::Ok;
    m_loadMessage.clear();
    m_ui.camera = m_drape->view.defaultCamera();
    glfwSetWindowTitle(m_window, ("hagoromo - " + m_scene.name).c_str());
  } else {
    m_loadMessage = drape.error().message;
  }
  m_loadPath.clear();
}

/// With a fabric chosen in the panel: the scene prepared again with that preset.
void Viewer::reloadFabric() {
  if (!m_reload) return;
  auto drape = prepareViewerDrape(withFabric(m_scene, m_fabrics, m_fabricChoice), m_scenePath);
  if (!drape) {
    std::fprintf(stderr, "hagoromo-viewer: %s\n", drape.error().message.c_str());
    return;
  }
  m_drape = std::move(drape).value();
  m_lastStatus = StepStatus::Ok;
}

}  // namespace

static int runViewer(int argc, char** argv) {
  ViewerOptions options;
  if (const std::optional<int> code = parseOptions(argc, argv, options)) return *code;
  auto scene = loadViewerScene(options.scenePath, options.backend);
  if (!scene) return fail(scene.error(), kProgram);
  auto window = openWindow(options, "hagoromo - " + scene->name);
  if (!window) return fail(window.error(), kProgram);
  int exitCode = kExitOk;
  {
    auto renderer = MeshRenderer::create(renderShaders());
    if (!renderer) {
      glfwTerminate();
      return fail(renderer.error(), kProgram);
    }
    Viewer viewer(options, std::move(scene).value(), *window, *renderer);
    if (Status s = viewer.start(); !s) {
      glfwTerminate();
      return fail(s.error(), kProgram);
    }
    exitCode = viewer.run();
  }
  glfwDestroyWindow(*window);
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
