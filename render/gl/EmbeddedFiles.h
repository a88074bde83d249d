#pragma once
/// Files embedded into the binary at build time (cmake/EmbedShaders.cmake).
#include <span>
#include <string_view>

namespace hg::embedded {

struct EmbeddedFile {
  std::string_view name;    ///< e.g. "cloth_step.comp", "kernels/spring.glslh"
  std::string_view source;  ///< file contents
};

/// shaders/* and sim/kernels/*.glslh (under "kernels/").
std::span<const EmbeddedFile> shaders();

}  // namespace hg::embedded
