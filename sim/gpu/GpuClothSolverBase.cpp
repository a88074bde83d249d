#include "sim/gpu/GpuClothSolverBase.h"

#include <algorithm>
#include <cassert>
#include <cstddef>

namespace hg {

Status buildGpuClothPrograms(const gl::ShaderRegistry& registry, GpuClothSharedPrograms& shared,
                             std::initializer_list<std::pair<gl::Program*, const char*>> own) {
  auto build = [&registry](gl::Program& program, const char* name) -> Status {
    auto built = registry.buildCompute(name);
    if (!built) return built.error();
    program = std::move(built).value();
    return Status::success();
  };
  if (Status s = build(shared.forces, "cloth_forces.comp"); !s) return s;
  for (auto [program, name] : own)
    if (Status s = build(*program, name); !s) return s;
  if (Status s = build(shared.setup, "cloth_setup.comp"); !s) return s;
  if (Status s = build(shared.featuresGather, "cloth_features_gather.comp"); !s) return s;
  if (Status s = build(shared.featuresApply, "cloth_features_apply.comp"); !s) return s;
  if (Status s = build(shared.thinTriangles, "cloth_thin_features_triangles.comp"); !s) return s;
  if (Status s = build(shared.thinGather, "cloth_thin_features_gather.comp"); !s) return s;
  return build(shared.plasticity, "cloth_plasticity.comp");
}

GpuClothSolverBase::GpuClothSolverBase(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                                       GpuClothSharedPrograms programs)
    : ClothSolver(std::move(model), settings), m_sharedPrograms(std::move(programs)) {
  const ClothModel& m = *m_model;
  m_params = gl::createBuffer(sizeof(kernels::ClothStepParams));
  m_springOffsets = gl::createBuffer(std::span<const std::uint32_t>(m.springOffsets));
  m_springEntries = gl::createBuffer(std::span<const kernels::SpringEntry>(m.springEntries));
  m_springs = gl::createBuffer(std::span<const kernels::ClothSpring>(m.springs));
  m_hingeOffsets = gl::createBuffer(std::span<const std::uint32_t>(m.hingeOffsets));
  m_hingeEntries = gl::createBuffer(std::span<const std::uint32_t>(m.hingeEntries));
  m_hinges = gl::createBuffer(std::span<const kernels::ClothHinge>(m.hinges));
  m_elementForces = gl::createBuffer((m.springs.size() + 4 * m.hinges.size()) * sizeof(glm::vec4));
  const std::uint32_t zero = 0;
  m_status = gl::createBuffer(sizeof(zero), &zero);
  uploadBody();
  uploadBodyViews();
  uploadColliderRecords();
  uploadSphereTrees();
  uploadBodyVertices();
  m_featureDisplacements = gl::createBuffer(std::max<std::size_t>(m.vertexCount(), 1) * sizeof(glm::vec4));
  std::vector<float> bodyOffsets = settings.bodyContactOffsets(m.vertexCount());
  if (bodyOffsets.empty()) bodyOffsets.push_back(0.0f);  // a buffer is never empty
  m_bodyOffsets = gl::createBuffer(std::span<const float>(bodyOffsets));
  const std::uint32_t noTriangle[3] = {0u, 0u, 0u};
  m_thinTriangles = m.triangles.empty() ? gl::createBuffer(sizeof(noTriangle), noTriangle)
                                        : gl::createBuffer(std::span<const std::uint32_t>(m.triangles));
  m_vertexTriangles = gl::createBuffer(std::span<const std::uint32_t>(vertexTriangleLists(m)));
  m_triangleDisplacements = gl::createBuffer(std::max<std::size_t>(m.triangles.size() / 3, 1) * sizeof(glm::vec4));
}

Status GpuClothSolverBase::enableSelfContact() {
  if (!m_settings.selfContact.enabled) return Status::success();
  auto built = GpuSelfContact::create(*m_model, m_settings.selfContact);
  if (!built) return built.error();
  m_selfContact = std::move(built).value();
  return Status::success();
}

void GpuClothSolverBase::beginSelfContactFrame() {
  if (!m_selfContact) return;
  m_selfContact->beginFrame(positionsBuffer());
}

void GpuClothSolverBase::resolveBodyFeatures() {
  const GLuint vertexGroups = groupsFor(m_model->vertexCount());
  if (vertexGroups == 0) return;
  kernels::ClothStepParams params =
      m_settings.stepParams(*m_model, std::max(m_lastSubsteps, 1), m_settings.velocityDamping);
  beginAdvance(params);  // parameters and bindings
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_FEATURE_DISPLACEMENTS, m_featureDisplacements.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, positionsBuffer().id());
  glUseProgram(m_sharedPrograms.featuresGather.id());
  glDispatchCompute(vertexGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_OUT, positionsBuffer().id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_VELOCITIES_OUT, velocitiesBuffer().id());
  glUseProgram(m_sharedPrograms.featuresApply.id());
  glDispatchCompute(vertexGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuClothSolverBase::applyThinFeatures(const gl::Buffer& positions, const gl::Buffer& velocities) {
  if (!m_settings.featureContacts || !m_settings.colliders.bodyVertices) return;
  std::uint32_t grid = 0;
  while (grid < m_colliderRecords.size() && m_colliderRecords[grid].kind.x != HG_COLLIDER_BODY_VERTICES) ++grid;
  const auto triangleCount = std::uint32_t(m_model->triangles.size() / 3);
  if (grid == m_colliderRecords.size() || triangleCount == 0) return;
  auto bind = [](GLuint binding, const gl::Buffer& buffer) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer.id());
  };
  // Shared binding points (bindings.glslh): bound for this pass only.
  bind(HG_BINDING_POSITIONS_IN, positions);
  bind(HG_BINDING_THIN_TRIANGLES, m_thinTriangles);
  bind(HG_BINDING_BODY_VERTEX_CELLS, m_bodyVertexCells);
  bind(HG_BINDING_BODY_VERTICES, m_bodyVertices);
  bind(HG_BINDING_THIN_TRIANGLE_DISPLACEMENTS, m_triangleDisplacements);
  bind(HG_BINDING_THIN_VERTEX_TRIANGLES, m_vertexTriangles);
  bind(HG_BINDING_FEATURE_DISPLACEMENTS, m_featureDisplacements);
  glUseProgram(m_sharedPrograms.thinTriangles.id());
  glUniform1ui(0, triangleCount);
  glUniform1ui(1, grid);
  glDispatchCompute(groupsFor(triangleCount), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  const GLuint vertexGroups = groupsFor(m_model->vertexCount());
  glUseProgram(m_sharedPrograms.thinGather.id());
  glDispatchCompute(vertexGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  bind(HG_BINDING_POSITIONS_OUT, positions);
  bind(HG_BINDING_VELOCITIES_OUT, velocities);
  glUseProgram(m_sharedPrograms.featuresApply.id());
  glDispatchCompute(vertexGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuClothSolverBase::uploadBody() {
  const SignedDistanceGrid* body = m_settings.colliders.distanceGrid.get();
  const float noBody = 0.0f;
  const glm::ivec3 dims = body ? body->dims : glm::ivec3(1);
  GLuint id = 0;
  glCreateTextures(GL_TEXTURE_3D, 1, &id);
  m_bodySdf = gl::Texture(id);
  glTextureStorage3D(id, 1, GL_R32F, dims.x, dims.y, dims.z);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage3D(id, 0, 0, 0, 0, dims.x, dims.y, dims.z, GL_RED, GL_FLOAT, body ? body->values.data() : &noBody);
}

void GpuClothSolverBase::uploadBodyViews() {
  const glm::vec4 none(0.0f);
  const DepthViewImages* images = m_settings.colliders.depthViews.get();
  if (images && !images->setup.views.empty()) {
    m_depthViews = gl::createBuffer(std::span<const kernels::DepthView>(images->setup.views));
    m_depthNormalDepth = gl::createBuffer(std::span<const glm::vec4>(images->normalDepth));
    m_depthVelocity = gl::createBuffer(std::span<const glm::vec4>(images->velocity));
  } else {
    const kernels::DepthView noView{};
    m_depthViews = gl::createBuffer(sizeof(noView), &noView);
    m_depthNormalDepth = gl::createBuffer(sizeof(none), &none);
    m_depthVelocity = gl::createBuffer(sizeof(none), &none);
  }
}

void GpuClothSolverBase::uploadColliderRecords() {
  // The uniform block's full size (HG_MAX_CLOTH_COLLIDERS records); validate() keeps the count below it.
  std::vector<kernels::ClothCollider> records(HG_MAX_CLOTH_COLLIDERS, kernels::ClothCollider{});
  std::copy_n(m_colliderRecords.begin(), std::min<std::size_t>(m_colliderRecords.size(), HG_MAX_CLOTH_COLLIDERS),
              records.begin());
  m_colliders = gl::createBuffer(std::span<const kernels::ClothCollider>(records));
}

void GpuClothSolverBase::uploadSphereTrees() {
  const SphereTreeColliders* trees = m_settings.colliders.sphereTrees.get();
  if (trees && !trees->empty()) {
    m_sphereTreeNodes = gl::createBuffer(std::span<const kernels::SphereTreeNode>(trees->nodes));
    m_sphereTreeInstances = gl::createBuffer(std::span<const kernels::SphereTreeInstance>(trees->instances));
  } else {
    const kernels::SphereTreeNode node{};
    const kernels::SphereTreeInstance instance{};
    m_sphereTreeNodes = gl::createBuffer(sizeof(node), &node);
    m_sphereTreeInstances = gl::createBuffer(sizeof(instance), &instance);
  }
}

void GpuClothSolverBase::uploadBodyVertices() {
  const BodyVertexGrid* grid = m_settings.colliders.bodyVertices.get();
  if (grid && !grid->entries.empty()) {
    m_bodyVertexCells = gl::createBuffer(std::span<const std::uint32_t>(grid->cellStart));
    m_bodyVertices = gl::createBuffer(std::span<const glm::vec4>(grid->entries));
  } else {
    const std::uint32_t noCell[2] = {0u, 0u};
    const glm::vec4 none[2] = {glm::vec4(0.0f), glm::vec4(0.0f)};
    m_bodyVertexCells = gl::createBuffer(sizeof(noCell), noCell);
    m_bodyVertices = gl::createBuffer(sizeof(none), none);
  }
}

void GpuClothSolverBase::setColliders(ClothColliders colliders) {
  // Only the bulk data whose pointer changed is uploaded again (it is immutable once shared).
  const ClothColliders& now = m_settings.colliders;
  const bool grid = colliders.distanceGrid != now.distanceGrid, views = colliders.depthViews != now.depthViews,
             trees = colliders.sphereTrees != now.sphereTrees, vertices = colliders.bodyVertices != now.bodyVertices;
  ClothSolver::setColliders(std::move(colliders));
  if (vertices) uploadBodyVertices();
  if (grid) uploadBody();
  if (views) uploadBodyViews();
  if (trees) uploadSphereTrees();
  uploadColliderRecords();
}

GLuint GpuClothSolverBase::groupsFor(std::size_t count) {
  return GLuint((count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE);
}

ClothState GpuClothSolverBase::readState() const {
  ClothState state;
  state.positions.resize(m_model->vertexCount());
  state.velocities.resize(m_model->vertexCount());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(positionsBuffer(), state.positions.size() * sizeof(glm::vec4), state.positions.data());
  gl::readBuffer(velocitiesBuffer(), state.velocities.size() * sizeof(glm::vec4), state.velocities.data());
  return state;
}

void GpuClothSolverBase::writeState(const ClothState& state) {
  assert(state.positions.size() == m_model->vertexCount());
  assert(state.velocities.size() == m_model->vertexCount());
  const std::size_t bytes = state.positions.size() * sizeof(glm::vec4);
  if (bytes == 0) return;
  glNamedBufferSubData(positionsBuffer().id(), 0, GLsizeiptr(bytes), state.positions.data());
  glNamedBufferSubData(velocitiesBuffer().id(), 0, GLsizeiptr(bytes), state.velocities.data());
}

void GpuClothSolverBase::setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) {
  assert(vertices.size() == positions.size());
  if (vertices.empty()) return;
  // One readback of the range the pins span (not one synchronous read per pin): the
  // current positions give the pins' velocities for the spring damping.
  const auto [lo, hi] = std::minmax_element(vertices.begin(), vertices.end());
  std::vector<glm::vec4> current(std::size_t(*hi - *lo) + 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(positionsBuffer(), current.size() * sizeof(glm::vec4), current.data(), *lo * sizeof(glm::vec4));
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    const std::uint32_t v = vertices[k];
    if (m_model->restPositions[v].w != 0.0f) continue;  // only pinned vertices are kinematic
    const glm::vec4 velocity((positions[k] - glm::vec3(current[v - *lo])) / m_settings.frameDt, 0.0f);
    const glm::vec4 target(positions[k], 0.0f);
    glNamedBufferSubData(positionsBuffer().id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &target);
    glNamedBufferSubData(velocitiesBuffer().id(), GLintptr(v * sizeof(glm::vec4)), sizeof(glm::vec4), &velocity);
  }
}

std::vector<kernels::ClothSpring> GpuClothSolverBase::readSprings() const {
  std::vector<kernels::ClothSpring> springs(m_model->springs.size());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(m_springs, springs.size() * sizeof(kernels::ClothSpring), springs.data());
  return springs;
}

std::vector<kernels::ClothHinge> GpuClothSolverBase::readHinges() const {
  std::vector<kernels::ClothHinge> hinges(m_model->hinges.size());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(m_hinges, hinges.size() * sizeof(kernels::ClothHinge), hinges.data());
  return hinges;
}

void GpuClothSolverBase::initializeState() {
  writeState(restState(*m_model));
  runSetup();
}

void GpuClothSolverBase::bindModel() const {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_CLOTH_PARAMS, m_params.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRING_OFFSETS, m_springOffsets.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRING_ENTRIES, m_springEntries.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPRINGS, m_springs.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGE_OFFSETS, m_hingeOffsets.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGE_ENTRIES, m_hingeEntries.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_HINGES, m_hinges.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_STEP_STATUS, m_status.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_ELEMENT_FORCES, m_elementForces.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_BODY_OFFSETS, m_bodyOffsets.id());
  glBindTextureUnit(HG_TEXTURE_UNIT_BODY_SDF, m_bodySdf.id());
  glBindBufferBase(GL_UNIFORM_BUFFER, HG_BINDING_CLOTH_COLLIDERS, m_colliders.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_NODES, m_sphereTreeNodes.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_SPHERE_TREE_INSTANCES, m_sphereTreeInstances.id());
  const ResidentDepthViews& resident = m_settings.colliders.residentDepthViews;
  const bool external = resident.count > 0;
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_DEPTH_VIEWS, external ? resident.views : m_depthViews.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_DEPTH_NORMAL_DEPTH,
                   external ? resident.normalDepth : m_depthNormalDepth.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_DEPTH_VELOCITY,
                   external ? resident.velocity : m_depthVelocity.id());
}

void GpuClothSolverBase::runSetup() {
  const kernels::ClothStepParams params =
      m_settings.stepParams(*m_model, m_settings.substeps, m_settings.velocityDamping);
  glNamedBufferSubData(m_params.id(), 0, sizeof(params), &params);
  gl::Texture texture;
  const bool hasTexture = m_model->anisotropy.has_value();
  if (hasTexture) {
    const AnisotropyTexture& t = *m_model->anisotropy;
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &id);
    texture = gl::Texture(id);
    glTextureStorage2D(id, 1, GL_RGBA8, t.width, t.height);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(id, 0, 0, 0, t.width, t.height, GL_RGBA, GL_UNSIGNED_BYTE, t.rgba.data());
    glBindTextureUnit(HG_TEXTURE_UNIT_ANISOTROPY, id);
  }
  glUseProgram(m_sharedPrograms.setup.id());
  glUniform1i(0, hasTexture ? 1 : 0);
  glUniform1f(1, hasTexture ? m_model->anisotropy->scale : 1.0f);
  bindModel();
  if (const GLuint groups = groupsFor(m_model->springs.size()); groups > 0) glDispatchCompute(groups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  if (hasTexture) glBindTextureUnit(HG_TEXTURE_UNIT_ANISOTROPY, 0);
}

void GpuClothSolverBase::beginAdvance(const kernels::ClothStepParams& stepParams) {
  glNamedBufferSubData(m_params.id(), 0, sizeof(stepParams), &stepParams);
  const std::uint32_t zero = 0;
  glNamedBufferSubData(m_status.id(), 0, sizeof(zero), &zero);
  bindModel();
}

void GpuClothSolverBase::setBodyLag(float lag) const {
  glNamedBufferSubData(m_params.id(), offsetof(kernels::ClothStepParams, bodyLag), sizeof(lag), &lag);
}

void GpuClothSolverBase::dispatchForces(GLuint elementGroups) const {
  if (elementGroups == 0) return;
  glUseProgram(m_sharedPrograms.forces.id());
  glDispatchCompute(elementGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuClothSolverBase::dispatchPlasticity(const kernels::ClothStepParams& params, const gl::Buffer& positions,
                                            GLuint elementGroups) const {
  if (!(params.plasticRate > 0.0f && elementGroups > 0)) return;
  glUseProgram(m_sharedPrograms.plasticity.id());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HG_BINDING_POSITIONS_IN, positions.id());
  glDispatchCompute(elementGroups, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

GpuClothSolverBase::~GpuClothSolverBase() {
  m_stepTimer.report("cloth step (GPU passes; self contact reports its own)", double(m_timedSubsteps));
}

StepStatus GpuClothSolverBase::readStatus() const {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::uint32_t status = 0;
  gl::readBuffer(m_status, sizeof(status), &status);  // one word per frame
  return StepStatus(status);
}

}  // namespace hg
