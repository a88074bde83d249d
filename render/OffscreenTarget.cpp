#include "render/OffscreenTarget.h"

#include <cstring>

namespace hg {

OffscreenTarget::OffscreenTarget(int width, int height, int samples) : m_width(width), m_height(height) {
  GLuint ids[3] = {};
  glCreateRenderbuffers(3, ids);
  m_msaaColor = gl::Renderbuffer(ids[0]);
  m_msaaDepth = gl::Renderbuffer(ids[1]);
  m_resolvedColor = gl::Renderbuffer(ids[2]);
  glNamedRenderbufferStorageMultisample(ids[0], samples, GL_RGBA8, width, height);
  glNamedRenderbufferStorageMultisample(ids[1], samples, GL_DEPTH_COMPONENT32F, width, height);
  glNamedRenderbufferStorage(ids[2], GL_RGBA8, width, height);
  GLuint fbos[2] = {};
  glCreateFramebuffers(2, fbos);
  m_msaa = gl::Framebuffer(fbos[0]);
  m_resolved = gl::Framebuffer(fbos[1]);
  glNamedFramebufferRenderbuffer(fbos[0], GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ids[0]);
  glNamedFramebufferRenderbuffer(fbos[0], GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ids[1]);
  glNamedFramebufferRenderbuffer(fbos[1], GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ids[2]);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, m_msaa.id()); }

Image OffscreenTarget::read() const {
  glBlitNamedFramebuffer(m_msaa.id(), m_resolved.id(), 0, 0, m_width, m_height, 0, 0, m_width, m_height,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
  Image image{m_width, m_height, std::vector<std::uint8_t>(std::size_t(m_width) * std::size_t(m_height) * 4)};
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m_resolved.id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  std::vector<std::uint8_t> bottomUp(image.rgba.size());
  glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  const std::size_t row = std::size_t(m_width) * 4;
  for (int y = 0; y < m_height; ++y)
    std::memcpy(image.rgba.data() + std::size_t(y) * row, bottomUp.data() + std::size_t(m_height - 1 - y) * row, row);
  return image;
}

}  // namespace hg
