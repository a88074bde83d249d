#pragma once
/// Every shader the programs embed (sim/gpu/GpuShaders.h, render/RenderShaders.h) plus the
/// test shaders (tests/kernels/shaders/, as "test/NAME"), for the shader and kernel GL tests.
#include <span>

#include "gl/EmbeddedFiles.h"
#include "gl/ShaderRegistry.h"

namespace hg {
namespace embedded {
std::span<const EmbeddedFile> testShaderFiles();
}  // namespace embedded

namespace test {
/// A registry over all of them, built once.
const gl::ShaderRegistry& allShaders();
}  // namespace test

}  // namespace hg
