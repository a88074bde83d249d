#pragma once
/// Small helpers shared by the GPU raster passes (depth views, radar): GL error checks
/// that name the pass, and the fixed-function state a pass changes, saved and restored.
#include <array>
#include <string>
#include <string_view>

#include "gl/Gl.h"
#include "sim/core/Result.h"

namespace hg::gpu {

/// "GL_INVALID_OPERATION", ... for a glGetError code.
std::string glErrorName(GLenum error);

/// Drains the GL error queue; the first error as "`who`: NAME `what`".
Status checkGl(std::string_view who, std::string_view what);

/// Saves the enables a raster pass touches (depth test and clamp, scissor, culling,
/// blending), the viewport and the scissor box; restores them when destroyed.
class SavedRasterState {
 public:
  SavedRasterState();
  ~SavedRasterState();
  SavedRasterState(const SavedRasterState&) = delete;
  SavedRasterState& operator=(const SavedRasterState&) = delete;

 private:
  static constexpr std::array<GLenum, 5> kCaps{GL_DEPTH_TEST, GL_DEPTH_CLAMP, GL_SCISSOR_TEST, GL_CULL_FACE, GL_BLEND};
  std::array<GLboolean, 5> m_on{};
  GLint m_viewport[4] = {}, m_scissor[4] = {};
};

}  // namespace hg::gpu
