#pragma once
/// Headless OpenGL 4.5 core context through EGL, with no window system:
/// the EGL device platform (EGL_EXT_platform_device: NVIDIA and other GPUs) and
/// Mesa's surfaceless platform (llvmpipe on machines without a GPU).
///
/// Environment:
///  - HG_EGL_PLATFORM = auto (default) | device | surfaceless : which platform to use.
///    auto tries hardware EGL devices, then Mesa surfaceless, then software devices.
///  - HG_EGL_LIBRARY = path or soname of libEGL (default libEGL.so.1).
#include <memory>
#include <string>

#include "sim/core/Result.h"

namespace hg::gl {

class HeadlessContext {
 public:
  /// Creates the context and makes it current on the calling thread.
  /// On failure the error lists every platform tried, why it failed, and the
  /// Debian packages that provide a working driver.
  static Result<std::unique_ptr<HeadlessContext>> create();

  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  /// e.g. "EGL surfaceless (Mesa), llvmpipe (LLVM 15.0.6, 256 bits), 4.5 (Core Profile) Mesa 22.3.6"
  const std::string& description() const { return m_description; }
  /// GL_RENDERER string.
  const std::string& renderer() const { return m_renderer; }
  /// True on a software rasterizer (llvmpipe, softpipe, swrast).
  bool isSoftware() const;

 private:
  HeadlessContext() = default;
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_library = nullptr;
  std::string m_description;
  std::string m_renderer;
};

}  // namespace hg::gl
