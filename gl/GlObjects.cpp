#include "gl/GlObjects.h"

namespace hg::gl {

Buffer createBuffer(std::size_t bytes, const void* data, GLbitfield flags) {
  GLuint id = 0;
  glCreateBuffers(1, &id);
  // Zero-sized storage is an error in GL; keep one word so empty sets still bind.
  glNamedBufferStorage(id, GLsizeiptr(bytes > 0 ? bytes : 4), bytes > 0 ? data : nullptr, flags);
  return Buffer(id);
}

void readBuffer(const Buffer& buffer, std::size_t bytes, void* out, std::size_t offset) {
  if (bytes == 0) return;
  glGetNamedBufferSubData(buffer.id(), GLintptr(offset), GLsizeiptr(bytes), out);
}

}  // namespace hg::gl
