#include "tests/support/TestShaders.h"

#include "render/RenderShaders.h"
#include "sim/gpu/GpuShaders.h"

namespace hg::test {

const gl::ShaderRegistry& allShaders() {
  static const gl::ShaderRegistry registry(
      {embedded::gpuShaderFiles(), embedded::renderShaderFiles(), embedded::testShaderFiles()});
  return registry;
}

}  // namespace hg::test
