#include "gl/HeadlessContext.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

// glad's EGL header defines the EGL API; never mix it with the system EGL headers.
#include <glad/egl.h>

#include "gl/Gl.h"

namespace hg::gl {
namespace {

constexpr const char* kDriverHint =
    "Install a GL 4.5 driver with EGL: on Debian 12 without a GPU, Mesa's llvmpipe "
    "(packages libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1, all installed by "
    "scripts/install-deps.sh); with an NVIDIA GPU, the driver's EGL library "
    "(libnvidia-egl / 10_nvidia.json in /usr/share/glvnd/egl_vendor.d).";

const char* eglErrorName(EGLint code) {
  switch (code) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE:
      return "EGL_BAD_SURFACE";
    default:
      return "EGL error";
  }
}

std::string eglFailure(const char* call) { return std::string(call) + " failed (" + eglErrorName(eglGetError()) + ")"; }

struct Candidate {
  std::string name;
  EGLenum platform;
  void* nativeDisplay;
};

struct Library {
  void* handle = nullptr;
  PFNEGLGETPROCADDRESSPROC getProcAddress = nullptr;
};

GLADapiproc loadEglSymbol(void* userptr, const char* name) {
  auto* lib = static_cast<Library*>(userptr);
  if (void* symbol = dlsym(lib->handle, name)) return reinterpret_cast<GLADapiproc>(symbol);
  return lib->getProcAddress ? reinterpret_cast<GLADapiproc>(lib->getProcAddress(name)) : nullptr;
}

GLADapiproc loadGlSymbol(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }

bool hasExtension(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  std::string_view all(list);
  for (std::size_t pos = 0; pos < all.size();) {
    std::size_t end = all.find(' ', pos);
    if (end == std::string_view::npos) end = all.size();
    if (all.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

/// Records why `candidate` failed.
void addFailure(std::vector<std::string>& failures, const Candidate& candidate, const std::string& why) {
  failures.push_back(candidate.name + ": " + why);
}

/// Loads the EGL library once per process (drivers do not unload cleanly), then its
/// client entry points.
Status loadEglLibrary(const char* libraryName, Library& library) {
  if (library.handle == nullptr) {
    library.handle = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
    if (library.handle == nullptr)
      return graphicsError(std::string("No OpenGL context: cannot load the EGL library '") + libraryName + "' (" +
                           dlerror() + "). " + kDriverHint);
    library.getProcAddress = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(library.handle, "eglGetProcAddress"));
  }
  if (gladLoadEGLUserPtr(EGL_NO_DISPLAY, loadEglSymbol, &library) == 0)
    return graphicsError(std::string("No OpenGL context: '") + libraryName + "' is not a usable EGL 1.4+ library. " +
                         kDriverHint);
  return Status::success();
}

/// Candidate displays in order of preference: hardware EGL devices, Mesa's surfaceless
/// platform, software EGL devices (`platformChoice` "device" or "surfaceless" keeps one
/// platform). Platforms that are missing add a line to `failures`.
std::vector<Candidate> candidateDisplays(const std::string& platformChoice, std::vector<std::string>& failures) {
  std::vector<Candidate> hardware, software, surfaceless;
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (platformChoice != "surfaceless") {
    if (GLAD_EGL_EXT_device_enumeration && GLAD_EGL_EXT_platform_device) {
      EGLint count = 0;
      eglQueryDevicesEXT(0, nullptr, &count);
      std::vector<EGLDeviceEXT> devices(std::size_t(count > 0 ? count : 0));
      if (count > 0) eglQueryDevicesEXT(count, devices.data(), &count);
      for (std::size_t i = 0; i < devices.size(); ++i) {
        const char* deviceExtensions =
            GLAD_EGL_EXT_device_query ? eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS) : nullptr;
        const bool isSoft = hasExtension(deviceExtensions, "EGL_MESA_device_software");
        Candidate c{"EGL device " + std::to_string(i) + (isSoft ? " (software)" : ""), EGL_PLATFORM_DEVICE_EXT,
                    devices[i]};
        (isSoft ? software : hardware).push_back(c);
      }
      if (devices.empty()) failures.push_back("EGL device platform: no devices");
    } else {
      failures.push_back("EGL device platform: EGL_EXT_device_enumeration/platform_device missing");
    }
  }
  if (platformChoice != "device") {
    if (hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless"))
      surfaceless.push_back(
          {"EGL surfaceless (Mesa)", EGL_PLATFORM_SURFACELESS_MESA, reinterpret_cast<void*>(EGL_DEFAULT_DISPLAY)});
    else
      failures.push_back("EGL surfaceless: EGL_MESA_platform_surfaceless missing (not Mesa)");
  }
  std::vector<Candidate> candidates = hardware;
  candidates.insert(candidates.end(), surfaceless.begin(), surfaceless.end());
  candidates.insert(candidates.end(), software.begin(), software.end());
  return candidates;
}

/// The candidate's display, initialized, with the OpenGL API bound; EGL_NO_DISPLAY (and a
/// line in `failures`) when that fails.
EGLDisplay initializeDisplay(const Candidate& candidate, Library& library, std::vector<std::string>& failures) {
  EGLDisplay display = eglGetPlatformDisplayEXT(candidate.platform, candidate.nativeDisplay, nullptr);
  if (display == EGL_NO_DISPLAY) {
    addFailure(failures, candidate, eglFailure("eglGetPlatformDisplayEXT"));
    return EGL_NO_DISPLAY;
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    addFailure(failures, candidate, eglFailure("eglInitialize"));
    return EGL_NO_DISPLAY;
  }
  // Reload with the display to see its extensions (surfaceless_context, ...).
  gladLoadEGLUserPtr(display, loadEglSymbol, &library);
  if (!eglBindAPI(EGL_OPENGL_API)) {
    addFailure(failures, candidate, eglFailure("eglBindAPI(EGL_OPENGL_API)"));
    eglTerminate(display);
    return EGL_NO_DISPLAY;
  }
  return display;
}

/// An OpenGL 4.5 core context on `display`, current without a surface; EGL_NO_CONTEXT
/// (the display terminated, a line in `failures`) when that fails.
EGLContext createCoreContext(const Candidate& candidate, EGLDisplay display, std::vector<std::string>& failures) {
  const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configCount = 0;
  if (!eglChooseConfig(display, configAttribs, &config, 1, &configCount) || configCount == 0) {
    addFailure(failures, candidate, "no EGL config with EGL_OPENGL_BIT and EGL_PBUFFER_BIT");
    eglTerminate(display);
    return EGL_NO_CONTEXT;
  }
  const EGLint contextAttribs[] = {
      EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttribs);
  if (context == EGL_NO_CONTEXT) {
    addFailure(failures, candidate, eglFailure("eglCreateContext(OpenGL 4.5 core)"));
    eglTerminate(display);
    return EGL_NO_CONTEXT;
  }
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    addFailure(failures, candidate, eglFailure("eglMakeCurrent without a surface"));
    eglDestroyContext(display, context);
    eglTerminate(display);
    return EGL_NO_CONTEXT;
  }
  return context;
}

/// Loads the GL entry points of the current context; false (the context destroyed, the
/// display terminated, a line in `failures`) when it reports less than OpenGL 4.5.
bool loadGl45(const Candidate& candidate, EGLDisplay display, EGLContext context, std::vector<std::string>& failures) {
  const int glVersion = gladLoadGL(loadGlSymbol);
  if (GLAD_VERSION_MAJOR(glVersion) * 10 + GLAD_VERSION_MINOR(glVersion) < 45) {
    addFailure(failures, candidate,
               "the context reports OpenGL " + std::to_string(GLAD_VERSION_MAJOR(glVersion)) + "." +
                   std::to_string(GLAD_VERSION_MINOR(glVersion)) + ", 4.5 needed");
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
    eglTerminate(display);
    return false;
  }
  return true;
}

}  // namespace

bool HeadlessContext::isSoftware() const {
  for (const char* soft : {"llvmpipe", "softpipe", "swrast", "SwiftShader"})
    if (m_renderer.find(soft) != std::string::npos) return true;
  return false;
}

Result<std::unique_ptr<HeadlessContext>> HeadlessContext::create() {
  const char* libraryName = std::getenv("HG_EGL_LIBRARY");
  if (libraryName == nullptr || *libraryName == '\0') libraryName = "libEGL.so.1";
  const char* platformEnv = std::getenv("HG_EGL_PLATFORM");
  const std::string platformChoice = platformEnv && *platformEnv ? platformEnv : "auto";
  if (platformChoice != "auto" && platformChoice != "device" && platformChoice != "surfaceless")
    return graphicsError("HG_EGL_PLATFORM='" + platformChoice + "' is not one of auto, device, surfaceless");

  static Library library;  // EGL stays loaded for the process (drivers do not unload cleanly).
  if (Status s = loadEglLibrary(libraryName, library); !s) return s.error();

  std::vector<std::string> failures;
  for (const Candidate& candidate : candidateDisplays(platformChoice, failures)) {
    const EGLDisplay display = initializeDisplay(candidate, library, failures);
    if (display == EGL_NO_DISPLAY) continue;
    const EGLContext context = createCoreContext(candidate, display, failures);
    if (context == EGL_NO_CONTEXT) continue;
    if (!loadGl45(candidate, display, context, failures)) continue;
    auto result = std::unique_ptr<HeadlessContext>(new HeadlessContext());
    result->m_display = display;
    result->m_context = context;
    result->m_library = library.handle;
    result->m_renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    result->m_description =
        candidate.name + ", " + result->m_renderer + ", " + reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return result;
  }

  std::string message = "No usable OpenGL 4.5 core context through headless EGL (" + std::string(libraryName) +
                        ", HG_EGL_PLATFORM=" + platformChoice + "). Tried:";
  if (failures.empty()) failures.push_back("no EGL platform available");
  for (const std::string& f : failures) message += "\n  - " + f;
  message += std::string("\n") + kDriverHint;
  return graphicsError(message);
}

HeadlessContext::~HeadlessContext() {
  auto display = static_cast<EGLDisplay>(m_display);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, static_cast<EGLContext>(m_context));
  // No eglTerminate: EGL displays are process-wide (another context may share this
  // one), and Mesa unloads its driver on terminate, which is slow and leaves its
  // allocations to leak checkers as "unknown module".
}

}  // namespace hg::gl
