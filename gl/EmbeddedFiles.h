#pragma once
/// Files embedded into the binary at build time (cmake/EmbedShaders.cmake). Each library
/// embeds the shaders it runs and declares its own accessor (sim/gpu/GpuShaders.h,
/// render/RenderShaders.h).
#include <span>
#include <string_view>

namespace hg::embedded {

struct EmbeddedFile {
  std::string_view name;    ///< e.g. "cloth_step.comp", "kernels/spring.glslh"
  std::string_view source;  ///< file contents
};

}  // namespace hg::embedded
