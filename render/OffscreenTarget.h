#pragma once
/// An offscreen framebuffer (4x multisampled colour + 32-bit float depth) whose
/// contents can be read back as an Image. Needs a current GL 4.5 context.
#include "gl/GlObjects.h"
#include "render/Image.h"

namespace hg {

class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height, int samples = 4);
  /// Binds the multisampled framebuffer for drawing.
  void bind() const;
  /// Resolves the samples and reads the pixels (top row first).
  Image read() const;
  int width() const { return m_width; }
  int height() const { return m_height; }

 private:
  int m_width, m_height;
  gl::Framebuffer m_msaa, m_resolved;
  gl::Renderbuffer m_msaaColor, m_msaaDepth, m_resolvedColor;
};

}  // namespace hg
