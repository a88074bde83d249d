#include "sim/gpu/GlPassState.h"

namespace hg::gpu {

std::string glErrorName(GLenum error) {
  switch (error) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error " + std::to_string(error);
  }
}

Status checkGl(std::string_view who, std::string_view what) {
  GLenum first = GL_NO_ERROR;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
    if (first == GL_NO_ERROR) first = e;
  if (first != GL_NO_ERROR)
    return graphicsError(std::string(who) + ": " + glErrorName(first) + " " + std::string(what));
  return Status::success();
}

SavedRasterState::SavedRasterState() {
  for (std::size_t i = 0; i < kCaps.size(); ++i) m_on[i] = glIsEnabled(kCaps[i]);
  glGetIntegerv(GL_VIEWPORT, m_viewport);
  glGetIntegerv(GL_SCISSOR_BOX, m_scissor);
}

SavedRasterState::~SavedRasterState() {
  for (std::size_t i = 0; i < kCaps.size(); ++i) (m_on[i] ? glEnable : glDisable)(kCaps[i]);
  glViewport(m_viewport[0], m_viewport[1], m_viewport[2], m_viewport[3]);
  glScissor(m_scissor[0], m_scissor[1], m_scissor[2], m_scissor[3]);
}

}  // namespace hg::gpu
