#pragma once
/// RAII owners for OpenGL objects (move-only). Create them with a current context
/// and destroy them before the context goes away.
#include <cstddef>
#include <span>
#include <utility>

#include "gl/Gl.h"

namespace hg::gl {

template <class Traits>
class Object {
 public:
  Object() = default;
  explicit Object(GLuint id) : m_id(id) {}
  Object(Object&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}
  Object& operator=(Object&& other) noexcept {
    if (this != &other) {
      reset();
      m_id = std::exchange(other.m_id, 0);
    }
    return *this;
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  ~Object() { reset(); }

  GLuint id() const { return m_id; }
  explicit operator bool() const { return m_id != 0; }
  void reset() {
    if (m_id != 0) Traits::destroy(m_id);
    m_id = 0;
  }

 private:
  GLuint m_id = 0;
};

struct BufferTraits {
  static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct TextureTraits {
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct FramebufferTraits {
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct VertexArrayTraits {
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct ProgramTraits {
  static void destroy(GLuint id) { glDeleteProgram(id); }
};

using Buffer = Object<BufferTraits>;
using Texture = Object<TextureTraits>;
using Framebuffer = Object<FramebufferTraits>;
using Renderbuffer = Object<RenderbufferTraits>;
using VertexArray = Object<VertexArrayTraits>;
using Program = Object<ProgramTraits>;

/// Immutable-storage buffer (glNamedBufferStorage) of `bytes`, optionally filled.
/// `flags`: GL_DYNAMIC_STORAGE_BIT so that glNamedBufferSubData can update it.
Buffer createBuffer(std::size_t bytes, const void* data = nullptr, GLbitfield flags = GL_DYNAMIC_STORAGE_BIT);

template <class T>
Buffer createBuffer(std::span<const T> data, GLbitfield flags = GL_DYNAMIC_STORAGE_BIT) {
  return createBuffer(data.size_bytes(), data.data(), flags);
}

/// Copies `bytes` from `buffer` at byte `offset` into `out` (synchronous readback: slow).
void readBuffer(const Buffer& buffer, std::size_t bytes, void* out, std::size_t offset = 0);

}  // namespace hg::gl
