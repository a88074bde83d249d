#pragma once
/// Body skinning: the posed body surface (positions and normals) every frame, for
/// contact and drawing. Two methods, both per vertex with up to four influences, the
/// math written once in sim/kernels/skinning.glslh:
///  - Linear blend skinning (LBS): blends the skinning matrices. Handles scale; loses
///    volume at twisted or strongly bent joints ("candy wrapper": a 180-degree twist
///    collapses the blend region to the bone axis).
///  - Dual quaternion skinning (DQS; Kavan, Collins, Zara, O'Sullivan 2008, "Geometric
///    skinning with approximate dual quaternion blending"): blends unit dual quaternions
///    of the rigid part of the skinning matrices. Keeps volume under twist; ignores the
///    scale and shear of the matrices (see rigidDualQuaternion in skinning.glslh).
/// Backends: the CPU reference here (OpenMP, bitwise identical for any thread count) and
/// the GPU backend (sim/gpu/GpuBodySkinner.h), behind one interface, cross-checked by
/// tests/skinning/SkinningGLTest.cpp. Units: metres. GL-free.
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "sim/body/Skeleton.h"
#include "sim/core/Backend.h"
#include "sim/core/Result.h"
#include "sim/kernels/Kernels.h"

namespace hg {

enum class SkinningMethod {
  Linear,          ///< linear blend skinning (LBS)
  DualQuaternion,  ///< dual quaternion skinning (DQS), Kavan et al. 2008
};

/// "linear" or "dual_quaternion".
std::string_view skinningMethodName(SkinningMethod method);
/// "linear" / "lbs" or "dual_quaternion" / "dqs"; error otherwise.
Result<SkinningMethod> parseSkinningMethod(std::string_view name);

/// The skinned surface in the GPU buffers' layout (transfers are memcpy).
struct SkinnedSurface {
  std::vector<glm::vec4> positions;  ///< N: xyz m, w 1
  std::vector<glm::vec4> normals;    ///< N: xyz unit normal, w 0
};

/// The per-vertex skinning input of a mesh: rest positions (w 1), rest normals (w 0:
/// the mesh's, or area-weighted ones computed from the triangles when it has none),
/// joint indices and weights with the largest weight moved to the first slot (the DQS
/// antipodality reference). Error if the mesh is invalid (SkinnedMesh::validate) or
/// has a normal count other than 0 or the vertex count.
Result<std::vector<kernels::SkinVertex>> skinVertices(const SkinnedMesh& mesh);

/// Poses a SkinnedMesh. update() skins the whole mesh into a pose; the result stays until
/// the next update (the rest pose before the first).
class BodySkinner {
 public:
  virtual ~BodySkinner() = default;
  virtual Backend backend() const = 0;
  SkinningMethod method() const { return m_method; }
  const SkinnedMesh& mesh() const { return *m_mesh; }
  std::size_t vertexCount() const { return m_vertices.size(); }

  /// Skins the mesh into `pose` (one local transform per joint): skinning matrices
  /// (skinningMatrices()) once per joint, for DQS their dual quaternions once per joint,
  /// then every vertex. Error (nothing changes) if the pose has the wrong size or gives a
  /// non-finite skinning matrix.
  virtual Status update(const Pose& pose) = 0;
  /// A copy of the current surface. CPU: a copy of its arrays. GPU: a synchronous
  /// readback that stalls the pipeline (slow: for tests and output; a contact pass binds
  /// the GPU buffers instead, see GpuBodySkinner).
  virtual SkinnedSurface readSurface() const = 0;

  /// Skinning matrices of the last update (the factories skin the rest pose first).
  const std::vector<glm::mat4>& jointMatrices() const { return m_matrices; }
  /// Dual quaternions of the last update (DualQuaternion method only; else empty).
  const std::vector<kernels::DualQuaternion>& jointDualQuaternions() const { return m_dualQuaternions; }

 protected:
  BodySkinner(std::shared_ptr<const SkinnedMesh> mesh, SkinningMethod method, std::vector<kernels::SkinVertex> vertices)
      : m_mesh(std::move(mesh)), m_method(method), m_vertices(std::move(vertices)) {}
  /// Computes m_matrices (and m_dualQuaternions for DQS) for `pose`; error as update().
  Status prepareJoints(const Pose& pose);

  std::shared_ptr<const SkinnedMesh> m_mesh;
  SkinningMethod m_method;
  std::vector<kernels::SkinVertex> m_vertices;
  std::vector<glm::mat4> m_matrices;
  std::vector<kernels::DualQuaternion> m_dualQuaternions;
};

/// CPU reference backend: OpenMP over vertices (schedule(static), one thread per run
/// of vertices, each vertex written once by one pure kernel call), so the result is
/// bitwise identical for any thread count. Below kParallelThreshold vertices it runs
/// serially (OpenMP start-up costs more than it saves, and spins when oversubscribed).
class CpuBodySkinner final : public BodySkinner {
 public:
  static constexpr std::size_t kParallelThreshold = 2048;

  Backend backend() const override { return Backend::Cpu; }
  Status update(const Pose& pose) override;
  SkinnedSurface readSurface() const override { return m_surface; }
  /// The current surface without a copy (valid until the next update).
  std::span<const glm::vec4> positions() const { return m_surface.positions; }
  std::span<const glm::vec4> normals() const { return m_surface.normals; }
  /// OpenMP threads used (the `threads` of the factory, or the OpenMP default).
  int threads() const;

 private:
  friend Result<std::unique_ptr<CpuBodySkinner>> createCpuBodySkinner(std::shared_ptr<const SkinnedMesh>,
                                                                      SkinningMethod, int);
  CpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh, SkinningMethod method,
                 std::vector<kernels::SkinVertex> vertices, int threads);
  int m_threads = 0;
  SkinnedSurface m_surface;
};

/// Factory of the CPU backend; `threads` = OpenMP threads (0: the OpenMP default).
/// Error if the mesh is null or invalid (see skinVertices()) or threads < 0.
Result<std::unique_ptr<CpuBodySkinner>> createCpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh,
                                                             SkinningMethod method, int threads = 0);

}  // namespace hg
