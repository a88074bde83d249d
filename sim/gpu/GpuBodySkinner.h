#pragma once
/// GPU backend of body skinning: one GL 4.5 compute dispatch per update running
/// sim/gpu/shaders/skinning.comp, one invocation per vertex calling the same kernels as the CPU
/// backend (sim/kernels/skinning.glslh). Per update only the joints' skinning matrices
/// (LBS) or dual quaternions (DQS) are uploaded; the skinned surface stays in shader
/// storage buffers that a later pass (body contact) binds directly, without readback.
/// Requires a current OpenGL 4.5 context (hg::gl::HeadlessContext or a window).
#include <memory>

#include "gl/GlObjects.h"
#include "sim/skinning/BodySkinner.h"

namespace hg {

class GpuBodySkinner final : public BodySkinner {
 public:
  Backend backend() const override { return Backend::Gpu; }
  /// Uploads the joints of `pose` and dispatches the skinning pass; returns without
  /// waiting. A shader-storage memory barrier is issued after the dispatch, so later
  /// compute passes that bind positionsBuffer() / normalsBuffer() see the result.
  Status update(const Pose& pose) override;
  /// Synchronous readback of both buffers (slow: stalls until the pass has run; for
  /// tests and output, not per substep).
  SkinnedSurface readSurface() const override;

  /// Shader storage buffer of the skinned positions: vertexCount() vec4 (xyz m, w 1),
  /// by convention bound at HG_BINDING_SKIN_POSITIONS. Owned by the skinner.
  GLuint positionsBuffer() const { return m_positions.id(); }
  /// Shader storage buffer of the skinned unit normals: vertexCount() vec4 (xyz, w 0),
  /// by convention bound at HG_BINDING_SKIN_NORMALS. Owned by the skinner.
  GLuint normalsBuffer() const { return m_normals.id(); }

 private:
  friend Result<std::unique_ptr<GpuBodySkinner>> createGpuBodySkinner(std::shared_ptr<const SkinnedMesh>,
                                                                      SkinningMethod);
  GpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh, SkinningMethod method,
                 std::vector<kernels::SkinVertex> vertices, gl::Program program);

  gl::Program m_program;  // sim/gpu/shaders/skinning.comp
  gl::Buffer m_vertexBuffer, m_jointBuffer, m_positions, m_normals;
};

/// Factory of the GPU backend; error if the mesh is null or invalid (skinVertices()) or
/// the shader fails to build (the driver's log is in the message).
Result<std::unique_ptr<GpuBodySkinner>> createGpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh,
                                                             SkinningMethod method);

/// Either backend (the CPU one with the OpenMP default thread count).
Result<std::unique_ptr<BodySkinner>> createBodySkinner(Backend backend, std::shared_ptr<const SkinnedMesh> mesh,
                                                       SkinningMethod method);

}  // namespace hg
