#include "sim/skinning/BodySkinner.h"

#include <omp.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace hg {

std::string_view skinningMethodName(SkinningMethod method) {
  return method == SkinningMethod::Linear ? "linear" : "dual_quaternion";
}

Result<SkinningMethod> parseSkinningMethod(std::string_view name) {
  if (name == "linear" || name == "lbs") return SkinningMethod::Linear;
  if (name == "dual_quaternion" || name == "dqs") return SkinningMethod::DualQuaternion;
  return Error{"unknown skinning method '" + std::string(name) + "' (expected linear or dual_quaternion)"};
}

Result<std::vector<kernels::SkinVertex>> skinVertices(const SkinnedMesh& mesh) {
  if (Status s = mesh.validate(); !s) return s.error().prefixed("skinning: invalid skinned mesh: ");
  const std::size_t n = mesh.mesh.vertexCount();
  TriangleMesh withNormals;
  const std::vector<glm::vec3>* normals = &mesh.mesh.normals;
  if (normals->empty()) {
    withNormals.positions = mesh.mesh.positions;
    withNormals.indices = mesh.mesh.indices;
    computeVertexNormals(withNormals);
    normals = &withNormals.normals;
  } else if (normals->size() != n) {
    return Error{"skinning: mesh has " + std::to_string(normals->size()) + " normals for " + std::to_string(n) +
                 " vertices"};
  }
  std::vector<kernels::SkinVertex> vertices(n);
  for (std::size_t i = 0; i < n; ++i) {
    vertices[i].position = glm::vec4(mesh.mesh.positions[i], 1.0f);
    vertices[i].normal = glm::vec4((*normals)[i], 0.0f);
    glm::uvec4 joints = mesh.skin.joints[i];
    glm::vec4 weights = mesh.skin.weights[i];
    // The largest influence first: DQS checks antipodality against slot 0 and needs its
    // weight > 0 (appendInfluences already orders them; imported weights may not).
    int largest = 0;
    for (int k = 1; k < 4; ++k)
      if (weights[k] > weights[largest]) largest = k;
    std::swap(joints[0], joints[largest]);
    std::swap(weights[0], weights[largest]);
    vertices[i].joints = joints;
    vertices[i].weights = weights;
  }
  return vertices;
}

Status BodySkinner::prepareJoints(const Pose& pose) {
  const Skeleton& skeleton = m_mesh->skeleton;
  if (pose.size() != skeleton.size())
    return Error{"skinning: pose has " + std::to_string(pose.size()) + " joint transforms for a skeleton of " +
                 std::to_string(skeleton.size()) + " joints"};
  std::vector<glm::mat4> matrices = skinningMatrices(skeleton, pose);
  for (std::size_t j = 0; j < matrices.size(); ++j)
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r)
        if (!std::isfinite(matrices[j][c][r]))
          return Error{"skinning: non-finite skinning matrix of joint '" + skeleton.joints[j].name + "'"};
  m_matrices = std::move(matrices);
  if (m_method == SkinningMethod::DualQuaternion) {
    m_dualQuaternions.resize(m_matrices.size());
    for (std::size_t j = 0; j < m_matrices.size(); ++j)
      m_dualQuaternions[j] = kernels::rigidDualQuaternion(m_matrices[j]);
  } else {
    m_dualQuaternions.clear();
  }
  return Status::success();
}

CpuBodySkinner::CpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh, SkinningMethod method,
                               std::vector<kernels::SkinVertex> vertices, int threads)
    : BodySkinner(std::move(mesh), method, std::move(vertices)), m_threads(threads) {
  m_surface.positions.resize(m_vertices.size());
  m_surface.normals.resize(m_vertices.size());
}

int CpuBodySkinner::threads() const { return m_threads > 0 ? m_threads : omp_get_max_threads(); }

Status CpuBodySkinner::update(const Pose& pose) {
  if (Status s = prepareJoints(pose); !s) return s;
  const kernels::SkinVertex* in = m_vertices.data();
  glm::vec4* positions = m_surface.positions.data();
  glm::vec4* normals = m_surface.normals.data();
  const auto n = std::int64_t(m_vertices.size());
  const bool parallel = m_vertices.size() >= kParallelThreshold;
  if (m_method == SkinningMethod::Linear) {
    const glm::mat4* m = m_matrices.data();
#pragma omp parallel for schedule(static) num_threads(threads()) if (parallel)
    for (std::int64_t i = 0; i < n; ++i) {
      const kernels::SkinVertex& v = in[i];
      const kernels::SkinnedVertex s =
          kernels::linearBlendSkin(glm::vec3(v.position), glm::vec3(v.normal), m[v.joints.x], m[v.joints.y],
                                   m[v.joints.z], m[v.joints.w], v.weights);
      positions[i] = glm::vec4(s.position, 1.0f);
      normals[i] = glm::vec4(s.normal, 0.0f);
    }
  } else {
    const kernels::DualQuaternion* q = m_dualQuaternions.data();
#pragma omp parallel for schedule(static) num_threads(threads()) if (parallel)
    for (std::int64_t i = 0; i < n; ++i) {
      const kernels::SkinVertex& v = in[i];
      const kernels::SkinnedVertex s =
          kernels::dualQuaternionSkin(glm::vec3(v.position), glm::vec3(v.normal), q[v.joints.x], q[v.joints.y],
                                      q[v.joints.z], q[v.joints.w], v.weights);
      positions[i] = glm::vec4(s.position, 1.0f);
      normals[i] = glm::vec4(s.normal, 0.0f);
    }
  }
  return Status::success();
}

Result<std::unique_ptr<CpuBodySkinner>> createCpuBodySkinner(std::shared_ptr<const SkinnedMesh> mesh,
                                                             SkinningMethod method, int threads) {
  if (!mesh) return Error{"createCpuBodySkinner: no skinned mesh"};
  if (threads < 0) return Error{"createCpuBodySkinner: threads must be >= 0, got " + std::to_string(threads)};
  auto vertices = skinVertices(*mesh);
  if (!vertices) return vertices.error();
  std::unique_ptr<CpuBodySkinner> skinner(new CpuBodySkinner(mesh, method, std::move(vertices).value(), threads));
  if (Status s = skinner->update(restPose(mesh->skeleton)); !s) return s.error();
  return skinner;
}

}  // namespace hg
