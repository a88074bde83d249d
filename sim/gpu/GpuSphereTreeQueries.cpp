#include "sim/gpu/GpuSphereTreeQueries.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>

#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

constexpr std::string_view kWho = "sphere-tree queries (GPU)";
// Uniform locations (sim/gpu/shaders/sphere_tree_points.comp, sphere_tree_pairs.comp).
constexpr GLint kQueryCountLocation = 0;
constexpr GLint kTargetLocation = 1;
constexpr GLint kInstanceCountLocation = 2;
// Most workgroups per dispatch (GL's guaranteed minimum); the passes stride over the rest.
constexpr std::size_t kMaxWorkGroups = 65535;

Error gpuError(std::string message) { return Error{std::string(kWho) + ": " + std::move(message)}; }
Status checkGl(std::string_view what) { return gpu::checkGl(kWho, what); }

GLuint workGroups(std::size_t count) {
  return GLuint(
      std::min(kMaxWorkGroups, (count + std::size_t(HG_WORKGROUP_SIZE) - 1) / std::size_t(HG_WORKGROUP_SIZE)));
}

}  // namespace

Result<std::unique_ptr<GpuSphereTreeQueries>> GpuSphereTreeQueries::create() {
  std::unique_ptr<GpuSphereTreeQueries> q(new GpuSphereTreeQueries());
  auto points = gpuShaders().buildCompute("sphere_tree_points.comp");
  if (!points) return points.error().prefixed(std::string(kWho) + ": ");
  q->m_pointProgram = std::move(points).value();
  auto pairs = gpuShaders().buildCompute("sphere_tree_pairs.comp");
  if (!pairs) return pairs.error().prefixed(std::string(kWho) + ": ");
  q->m_pairProgram = std::move(pairs).value();
  return q;
}

void GpuSphereTreeQueries::ensure(gl::Buffer& buffer, std::size_t& capacity, std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 16);  // GL has no empty storage
  if (buffer && capacity >= bytes) return;
  buffer = gl::createBuffer(bytes, nullptr);
  capacity = bytes;
}

Status GpuSphereTreeQueries::setScene(const SphereTreeSet& set) {
  if (Status s = set.validate(); !s) return s.error().prefixed(std::string(kWho) + ": ");
  (void)checkGl("before setScene");  // errors of earlier, unrelated calls are not ours
  const std::size_t nodeBytes = set.nodes.size() * sizeof(kernels::SphereTreeNode);
  const std::size_t instanceBytes = set.instances.size() * sizeof(kernels::SphereTreeInstance);
  ensure(m_nodes, m_nodeCapacity, nodeBytes);
  ensure(m_instances, m_instanceCapacity, instanceBytes);
  if (nodeBytes > 0) glNamedBufferSubData(m_nodes.id(), 0, GLsizeiptr(nodeBytes), set.nodes.data());
  if (instanceBytes > 0) glNamedBufferSubData(m_instances.id(), 0, GLsizeiptr(instanceBytes), set.instances.data());
  // The CPU copy keeps what the checks need (trees and instances), not the nodes.
  m_set.nodes.clear();
  m_set.nodes.shrink_to_fit();
  m_set.trees = set.trees;
  m_set.instances = set.instances;
  m_hasScene = true;
  return checkGl("uploading the scene");
}

Status GpuSphereTreeQueries::setInstances(std::span<const kernels::SphereTreeInstance> instances) {
  if (!m_hasScene) return gpuError("setInstances before setScene");
  if (Status s = replaceSphereTreeInstances(m_set, instances, std::string(kWho)); !s) return s;
  (void)checkGl("before setInstances");
  if (!instances.empty())
    glNamedBufferSubData(m_instances.id(), 0, GLsizeiptr(instances.size_bytes()), instances.data());
  return checkGl("uploading the instances");
}

Status GpuSphereTreeQueries::dispatchPoints(GLuint pointBuffer, std::size_t count, std::uint32_t target,
                                            GLuint resultBuffer) {
  if (!m_hasScene) return gpuError("queryPoints before setScene");
  if (target != kSphereQueryAllInstances && target >= m_set.instances.size())
    return gpuError("point-query target instance " + std::to_string(target) + " is out of range (" +
                    std::to_string(m_set.instances.size()) + " instances)");
  if (count > std::size_t(std::numeric_limits<std::uint32_t>::max()))
    return gpuError(std::to_string(count) + " point queries are more than a uint index reaches");
  if (count == 0) return Status::success();
  glUseProgram(m_pointProgram.id());
  glUniform1ui(kQueryCountLocation, GLuint(count));
  glUniform1ui(kTargetLocation, target);
  glUniform1ui(kInstanceCountLocation, GLuint(m_set.instances.size()));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_NODES, m_nodes.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_INSTANCES, m_instances.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_QUERY_POINTS, pointBuffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_QUERY_RESULTS, resultBuffer);
  glDispatchCompute(workGroups(count), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  glUseProgram(0);
  return checkGl("running the point pass");
}

Status GpuSphereTreeQueries::dispatchPairs(GLuint pairBuffer, std::size_t count, GLuint resultBuffer) {
  if (!m_hasScene) return gpuError("queryPairs before setScene");
  if (count > std::size_t(std::numeric_limits<std::uint32_t>::max()))
    return gpuError(std::to_string(count) + " pair queries are more than a uint index reaches");
  if (count == 0) return Status::success();
  glUseProgram(m_pairProgram.id());
  glUniform1ui(kQueryCountLocation, GLuint(count));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_NODES, m_nodes.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_INSTANCES, m_instances.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_QUERY_PAIRS, pairBuffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_PAIR_RESULTS, resultBuffer);
  glDispatchCompute(workGroups(count), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  glUseProgram(0);
  return checkGl("running the pair pass");
}

Result<std::vector<kernels::SpherePointResult>> GpuSphereTreeQueries::queryPoints(std::span<const glm::vec4> points,
                                                                                  std::uint32_t target) {
  if (!m_hasScene) return gpuError("queryPoints before setScene");
  if (Status s = checkSpherePointQueries(m_set, points, target, std::string(kWho)); !s) return s.error();
  std::vector<kernels::SpherePointResult> results(points.size());
  if (points.empty()) return results;
  (void)checkGl("before queryPoints");
  ensure(m_queries, m_queryCapacity, points.size_bytes());
  ensure(m_results, m_resultCapacity, results.size() * sizeof(kernels::SpherePointResult));
  glNamedBufferSubData(m_queries.id(), 0, GLsizeiptr(points.size_bytes()), points.data());
  if (Status s = dispatchPoints(m_queries.id(), points.size(), target, m_results.id()); !s) return s.error();
  gl::readBuffer(m_results, results.size() * sizeof(kernels::SpherePointResult), results.data());
  if (Status s = checkGl("reading the point results back"); !s) return s.error();
  return results;
}

Result<std::vector<kernels::SpherePairResult>> GpuSphereTreeQueries::queryPairs(std::span<const glm::uvec2> pairs) {
  if (!m_hasScene) return gpuError("queryPairs before setScene");
  if (Status s = checkSpherePairQueries(m_set, pairs, std::string(kWho)); !s) return s.error();
  std::vector<kernels::SpherePairResult> results(pairs.size());
  if (pairs.empty()) return results;
  (void)checkGl("before queryPairs");
  ensure(m_queries, m_queryCapacity, pairs.size_bytes());
  ensure(m_results, m_resultCapacity, results.size() * sizeof(kernels::SpherePairResult));
  glNamedBufferSubData(m_queries.id(), 0, GLsizeiptr(pairs.size_bytes()), pairs.data());
  if (Status s = dispatchPairs(m_queries.id(), pairs.size(), m_results.id()); !s) return s.error();
  gl::readBuffer(m_results, results.size() * sizeof(kernels::SpherePairResult), results.data());
  if (Status s = checkGl("reading the pair results back"); !s) return s.error();
  return results;
}

}  // namespace hg
