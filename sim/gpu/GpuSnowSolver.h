#pragma once
/// GPU backend of the snow cover (sim/snow/SnowCover.h; docs/methods.md section 5), keeping the
/// data on the GPU as the method asks (host-GPU transfers were the CPU version's
/// bottleneck): the ground's height and snow are two R32F textures (image load/store), the
/// objects' snow a float per vertex in a buffer. One accumulation pass:
///   1. sim/gpu/shaders/snow_cover_points.comp writes the covered scene's vertices (ground cells
///      and object vertices raised by their snow: snow on snow) and their bounding box;
///   2. the host reads the box back (24 bytes) and fits one frame per direction to it, as
///      the CPU reference fits them to its mesh (snowMapFrame), so both use the same maps;
///   3. GpuSnowExposure renders each direction's depth map from those vertices (the
///      topology is fixed, uploaded once) and counts, per vertex, the directions from
///      which it is the first surface hit;
///   4. sim/gpu/shaders/snow_accumulate.comp adds depth x hits / directions to every receiver.
/// Relaxation: sweeps of sim/gpu/shaders/snow_repose_out.comp then snow_repose_gather.comp (the
/// CPU reference's two steps, the same kernel functions of kernels/snow_repose.glslh and
/// the same order of summation), and every checkEvery sweeps snow_repose_ratio.comp with
/// a one-uint readback. cover() and lastExposure() read back (for output and tests).
///
/// Requires a current OpenGL 4.5 context while created and used. Changes the program,
/// image units 0 and 1 and storage-buffer bindings (and what GpuSnowExposure changes).
#include <memory>

#include "gl/GlObjects.h"
#include "sim/core/Result.h"
#include "sim/snow/SnowCover.h"

namespace hg {

/// Error: a shader that fails to build, a grid larger than GL_MAX_TEXTURE_SIZE, invalid
/// exposure settings.
Result<std::unique_ptr<SnowSolver>> makeGpuSnowSolver(SnowCover initial, const SnowExposureSettings& exposure);

/// The GL names of a GPU snow solver's state, for drawing it without a readback
/// (render/SnowSceneView): the R32F ground snow texture (nx x nz, m) and the objects' snow
/// buffer (a float per vertex, m). Zero when `solver` is not a GPU snow solver.
struct GpuSnowTextures {
  GLuint groundSnowTexture = 0;
  GLuint objectSnowBuffer = 0;
};
GpuSnowTextures gpuSnowTextures(const SnowSolver& solver);

}  // namespace hg
