#pragma once
/// Exclusive prefix sum of uints on the GPU (sim/gpu/shaders/particle_skin_scan.comp), shared
/// by the particle neighbour search (GpuParticleSkinner.cpp) and the self-contact grid
/// (GpuSelfContact.cpp). Requires a current OpenGL 4.5 context.
#include <cstddef>

#include "gl/GlObjects.h"

namespace hg {

/// Replaces `count` uints of `data` by their exclusive prefix sum, in three dispatches of
/// `program` (particle_skin_scan.comp): per-workgroup scans, one workgroup over the block
/// totals, the block offsets added. `blockSums` holds at least one uint per workgroup of
/// HG_WORKGROUP_SIZE elements. Binds PARTICLE_SCAN and PARTICLE_SCAN_BLOCKS; changes the
/// current program. At most 65535 workgroups (4,194,240 elements).
void exclusiveScanInPlace(const gl::Program& program, const gl::Buffer& data, const gl::Buffer& blockSums,
                          std::size_t count);

}  // namespace hg
