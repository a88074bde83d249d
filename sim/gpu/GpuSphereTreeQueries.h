#pragma once
/// GPU backend of the sphere-tree batch queries (docs/methods.md section 6; the interface and
/// the CPU reference are in sim/spheretree/SphereTreeQueries.h): the scene's nodes and
/// instances live in two storage buffers (HG_BINDING_SPHERE_TREE_NODES, _INSTANCES), and
/// one compute pass per batch runs one invocation per query:
/// sim/gpu/shaders/sphere_tree_points.comp (sphereTreeNearest / sphereTreeNearestAll of
/// sim/gpu/shaders/sphere_tree_common.glsl) and sim/gpu/shaders/sphere_tree_pairs.comp (sphereTreeCollide).
/// The traversals are those of the CPU backend node for node, with the per-node math of
/// kernels/sphere_tree.glslh, so both find the same leaves and count the same leaf pairs
/// up to float rounding of the driver (llvmpipe, tests/spheretree/SphereTreeQueriesGLTest:
/// the same leaves and counts, distances within 1.2e-7 m).
///
/// llvmpipe caps the loop iterations of one invocation at 65535 over all loops
/// (LP_MAX_TGSI_LOOP_ITERATIONS): a pair traversal past 65535 node pairs stops and sets
/// HG_SPHERE_PAIR_INCOMPLETE; a point query is far below it per tree (hundreds of nodes),
/// but an all-instances query over very many instances could reach it unflagged
/// (sphereTreeNearest's child loop counts too).
///
/// Each invocation keeps a stack of HG_SPHERE_TREE_STACK entries (node indices; node pairs
/// as two uints); a query that would need more drops work and flags it
/// (SpherePointResult.leaf.w = 1, SpherePairResult.counts.y |= HG_SPHERE_PAIR_STACK_OVERFLOW)
/// and never writes out of bounds.
///
/// Requires a current OpenGL 4.5 context while created and used. Changes the program and
/// the storage-buffer bindings 72-77 (HG_BINDING_SPHERE_*). Units: metres.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gl/GlObjects.h"
#include "sim/core/Result.h"
#include "sim/spheretree/SphereTreeQueries.h"

namespace hg {

class GpuSphereTreeQueries final : public SphereTreeQueryBackend {
 public:
  /// Builds the two programs. Error: a shader that fails to build (the driver's log).
  static Result<std::unique_ptr<GpuSphereTreeQueries>> create();

  /// Uploads the nodes and instances (buffers grow as needed, never shrink).
  Status setScene(const SphereTreeSet& set) override;
  /// Uploads the instance records only (the poses of a new frame).
  Status setInstances(std::span<const kernels::SphereTreeInstance> instances) override;
  /// Uploads the points, runs the pass and reads the results back (synchronous).
  Result<std::vector<kernels::SpherePointResult>> queryPoints(std::span<const glm::vec4> points,
                                                              std::uint32_t target = kSphereQueryAllInstances) override;
  /// Uploads the pairs, runs the pass and reads the results back (synchronous).
  Result<std::vector<kernels::SpherePairResult>> queryPairs(std::span<const glm::uvec2> pairs) override;
  const char* name() const override { return "gpu"; }

  /// The point pass on GPU-resident buffers (e.g. a cloth solver's positions): `pointBuffer`
  /// holds `count` std430 vec4 (xyz m, w search radius m), `resultBuffer` room for `count`
  /// SpherePointResult. Nothing is uploaded, checked or read back (the caller vouches for
  /// finite points); returns without waiting after a storage and buffer-update barrier.
  /// Error: no scene, a target out of range, a GL error.
  Status dispatchPoints(GLuint pointBuffer, std::size_t count, std::uint32_t target, GLuint resultBuffer);
  /// The pair pass on GPU-resident buffers: `pairBuffer` holds `count` uvec2 instance
  /// pairs, each in range (not checked), `resultBuffer` room for `count` SpherePairResult.
  Status dispatchPairs(GLuint pairBuffer, std::size_t count, GLuint resultBuffer);

  /// The scene's buffers (std430 SphereTreeNode / SphereTreeInstance arrays), for passes
  /// that bind them themselves (the cloth's sphere-tree colliders).
  GLuint nodeBuffer() const { return m_nodes.id(); }
  GLuint instanceBuffer() const { return m_instances.id(); }
  std::size_t instanceCount() const { return m_set.instances.size(); }

 private:
  GpuSphereTreeQueries() = default;
  /// A buffer of at least `bytes` (at least 16), reallocated when smaller.
  static void ensure(gl::Buffer& buffer, std::size_t& capacity, std::size_t bytes);

  gl::Program m_pointProgram, m_pairProgram;
  gl::Buffer m_nodes, m_instances, m_queries, m_results;
  std::size_t m_nodeCapacity = 0, m_instanceCapacity = 0, m_queryCapacity = 0, m_resultCapacity = 0;
  SphereTreeSet m_set;  // the CPU copy (for checks and setInstances)
  bool m_hasScene = false;
};

}  // namespace hg
