#include "sim/gpu/GpuShaders.h"

namespace hg {

const gl::ShaderRegistry& gpuShaders() {
  static const gl::ShaderRegistry registry(embedded::gpuShaderFiles());
  return registry;
}

}  // namespace hg
