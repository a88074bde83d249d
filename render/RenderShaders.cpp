#include "render/RenderShaders.h"

namespace hg {

const gl::ShaderRegistry& renderShaders() {
  static const gl::ShaderRegistry registry(embedded::renderShaderFiles());
  return registry;
}

}  // namespace hg
