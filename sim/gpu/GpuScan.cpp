#include "sim/gpu/GpuScan.h"

#include <utility>

#include "sim/kernels/Kernels.h"

namespace hg {

void exclusiveScanInPlace(const gl::Program& program, const gl::Buffer& data, const gl::Buffer& blockSums,
                          std::size_t count) {
  constexpr GLint kCount = 0, kMode = 1;  // uniform locations of particle_skin_scan.comp
  const std::size_t blocks = (count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE;
  glUseProgram(program.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_PARTICLE_SCAN, data.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_PARTICLE_SCAN_BLOCKS, blockSums.id());
  const std::pair<std::size_t, GLuint> passes[] = {{count, 0u}, {blocks, 1u}, {count, 2u}};
  for (const auto& [elements, mode] : passes) {
    glUniform1ui(kCount, GLuint(elements));
    glUniform1ui(kMode, mode);
    glDispatchCompute(mode == 1u ? 1u : GLuint(blocks), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
}

}  // namespace hg
