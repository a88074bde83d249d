#pragma once
/// GPU backend of the Cyber Radar (sim/radar/Radar.h; docs/methods.md section 3): every radar
/// of a batch is rendered in one instanced draw into layered framebuffers (one texture
/// array layer per radar, gl_Layer from the vertex shader), R with the object IDs in one
/// pass and M of the collision radars in a second; a compute pass (one workgroup per
/// radar, sim/gpu/shaders/radar_analyze.comp) forms L = R + M - d, reduces min R and min L, finds
/// the contact pixels, their centre and the plane-fit normal; only the RadarResult
/// records (96 bytes per radar) are read back. Coverage and depth follow the CPU
/// reference's rules (depth recomputed per fragment in double from the triangle, as the
/// depth views), so the two agree pixel for pixel on llvmpipe.
///
/// Requires a current OpenGL 4.5 context with GL_ARB_shader_viewport_layer_array (or
/// GL_AMD_vertex_shader_layer) while created and run; changes the draw framebuffer,
/// program, vertex array and storage-buffer bindings; restores the viewport and the
/// enables it touches.
#include <memory>

#include "sim/core/Result.h"
#include "sim/radar/Radar.h"

namespace hg {

/// Error: no extension for gl_Layer in the vertex shader, a shader that fails to build
/// (the driver's log in the message).
Result<std::unique_ptr<RadarBackend>> makeGpuRadar();

}  // namespace hg
