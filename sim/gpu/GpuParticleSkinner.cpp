#include "sim/gpu/GpuParticleSkinner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/core/Finite.h"
#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuScan.h"
#include "sim/gpu/GpuShaders.h"

namespace hg {
namespace {

// Uniform locations, as declared in sim/gpu/shaders/particle_skin_*.comp.
namespace grid {  // particle_skin_grid.comp, particle_skin_neighbours.comp (+ particle_skin_grid.glsl)
constexpr GLint kCount = 0, kMode = 1, kOrigin = 2, kDims = 3, kInteractionGap = 4;
}
namespace links {  // particle_skin_links.comp
constexpr GLint kCount = 0, kFinestRadius = 1, kSpringStiffness = 2, kSpringDamping = 3;
}
namespace targets {  // particle_skin_targets.comp
constexpr GLint kCount = 0, kSlots = 1, kFrameTime = 2, kDualQuaternion = 3;
}
namespace forces {  // particle_skin_forces.comp
constexpr GLint kCount = 0, kSlots = 1, kTargetVelocitySlot = 2, kBoneStiffness = 3, kBoneDamping = 4;
}
namespace update {  // particle_skin_update.comp
constexpr GLint kCount = 0, kOp = 1, kDt = 2, kPositionSlots = 3, kVelocitySlots = 4, kAccelerationSlots = 5;
}
namespace check {  // particle_skin_check.comp
constexpr GLint kCount = 0, kSlots = 1, kLimit = 2;
}
namespace rotations {  // particle_skin_rotations.comp
constexpr GLint kCount = 0, kPositionSlot = 1, kFrame = 2, kIterations = 3;
}
namespace surface {  // particle_skin_surface.comp
constexpr GLint kVertexCount = 0, kParticleCount = 1, kPositionSlot = 2;
}

// Fixed slots of the state buffers (x, x_s, v, v_s move: see GpuParticleSkinner).
constexpr std::uint32_t kPositionSlots = 3, kTargetSlot = 2;
constexpr std::uint32_t kVelocitySlots = 5, kHalfVelocitySlot = 2, kPreviousVelocitySlot = 3, kTargetVelocitySlot = 4;
constexpr std::uint32_t kAccelerationSlots = 3, kAccelerationSlot = 0, kStageAccelerationSlot = 1,
                        kPreviousAccelerationSlot = 2;

/// Most cells of the neighbour grid (its cell counts are a uint each).
constexpr std::size_t kMaxGridCells = std::size_t(1) << 26;

GLuint workgroups(std::size_t count) { return GLuint((count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE); }

/// One invocation per element, then a barrier so later passes see the writes.
void dispatch(std::size_t count) {
  if (count == 0) return;
  glDispatchCompute(workgroups(count), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/// A buffer of `bytes` (at least 16: GL has no empty buffers), optionally filled.
gl::Buffer makeBuffer(std::size_t bytes, const void* data = nullptr) {
  if (bytes == 0) return gl::createBuffer(16);
  return gl::createBuffer(bytes, data);
}

void clearToZero(const gl::Buffer& buffer) {
  glClearNamedBufferData(buffer.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
}

void bind(GLuint binding, const gl::Buffer& buffer) {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer.id());
}

Result<gl::Program> buildProgram(const gl::ShaderRegistry& registry, const char* name) {
  auto program = registry.buildCompute(name);
  if (!program) return program.error().prefixed("particle skinning (GPU): ");
  return program;
}

/// The programs of the neighbour search.
struct SearchPrograms {
  gl::Program grid, scan, neighbours;
};

Result<SearchPrograms> buildSearchPrograms(const gl::ShaderRegistry& registry) {
  SearchPrograms programs;
  for (auto [program, name] :
       {std::pair{&programs.grid, "particle_skin_grid.comp"}, std::pair{&programs.scan, "particle_skin_scan.comp"},
        std::pair{&programs.neighbours, "particle_skin_neighbours.comp"}}) {
    auto built = buildProgram(registry, name);
    if (!built) return built.error();
    *program = std::move(built).value();
  }
  return programs;
}

/// Exclusive prefix sum of `count` uints of `data` in place (sim/gpu/GpuScan.h).
void exclusiveScan(const gl::Program& program, const gl::Buffer& data, std::size_t count) {
  const gl::Buffer blockSums = makeBuffer(workgroups(count) * sizeof(std::uint32_t));
  exclusiveScanInPlace(program, data, blockSums, count);
}

/// The CSR of interacting pairs, on the GPU.
struct GpuPairs {
  gl::Buffer offsets;     ///< N + 1 uint
  gl::Buffer neighbours;  ///< total uint
  std::uint32_t total = 0;
};

/// The neighbour search (findInteractingPairsGpu) on `points` (a buffer of the particles,
/// vec4 each), leaving the CSR in GPU buffers.
Result<GpuPairs> searchPairs(const SearchPrograms& programs, const gl::Buffer& points,
                             std::span<const glm::vec4> particles, float interactionGap) {
  const std::size_t n = particles.size();
  const auto bad = [](const std::string& what) { return Error{"particle neighbour search (GPU): " + what}; };
  if (!std::isfinite(interactionGap) || !(interactionGap > 0.0f)) return bad("interactionGap must be > 0");
  GpuPairs pairs;
  pairs.offsets = makeBuffer((n + 1) * sizeof(std::uint32_t));
  clearToZero(pairs.offsets);
  if (n == 0) {
    pairs.neighbours = makeBuffer(0);
    return pairs;
  }
  // The grid of the CPU's PointGrid (sim/skinning/ParticleSkinModel.cpp): bounds here.
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  float largestRadius = 0.0f;
  for (const glm::vec4& p : particles) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(p.w) || !(p.w > 0.0f))
      return bad("every particle needs a finite centre and a radius > 0");
    lo = glm::min(lo, glm::vec3(p));
    hi = glm::max(hi, glm::vec3(p));
    largestRadius = std::max(largestRadius, p.w);
  }
  const float cell = (2.0f + interactionGap) * largestRadius;
  const glm::vec3 extent = (hi - lo) / cell;
  if (!std::isfinite(cell) || glm::max(extent.x, glm::max(extent.y, extent.z)) > float(kMaxGridCells))
    return bad("the particles span too many grid cells");
  const glm::ivec3 dims = glm::max(glm::ivec3(glm::floor(extent)) + 1, glm::ivec3(1));
  const std::size_t cells = std::size_t(dims.x) * std::size_t(dims.y) * std::size_t(dims.z);
  if (cells > kMaxGridCells)
    return bad(std::to_string(cells) + " grid cells (at most " + std::to_string(kMaxGridCells) +
               "): the particles' radii differ too much for a uniform grid");

  const gl::Buffer cellCounts = makeBuffer((cells + 1) * sizeof(std::uint32_t));
  clearToZero(cellCounts);
  const gl::Buffer cellRanks = makeBuffer(n * 2 * sizeof(std::uint32_t));
  const gl::Buffer items = makeBuffer(n * sizeof(std::uint32_t));

  // Counting sort by cell: counts and ranks, cell starts, scatter.
  const GLuint count = GLuint(n);
  for (const gl::Program* program : {&programs.grid, &programs.neighbours}) {
    glProgramUniform1ui(program->id(), grid::kCount, count);
    glProgramUniform4f(program->id(), grid::kOrigin, lo.x, lo.y, lo.z, cell);
    glProgramUniform4i(program->id(), grid::kDims, dims.x, dims.y, dims.z, 0);
  }
  glProgramUniform1f(programs.neighbours.id(), grid::kInteractionGap, interactionGap);
  const auto bindSearch = [&] {
    bind(HG_BINDING_PARTICLE_POSITIONS, points);
    bind(HG_BINDING_PARTICLE_GRID, cellCounts);
    bind(HG_BINDING_PARTICLE_SCRATCH, cellRanks);
    bind(HG_BINDING_PARTICLE_GRID_ITEMS, items);
    bind(HG_BINDING_PARTICLE_LINK_OFFSETS, pairs.offsets);
    bind(HG_BINDING_PARTICLE_NEIGHBOURS, pairs.neighbours ? pairs.neighbours : pairs.offsets);  // unread in mode 0
  };
  bindSearch();
  glUseProgram(programs.grid.id());
  glUniform1ui(grid::kMode, 0u);
  dispatch(n);
  exclusiveScan(programs.scan, cellCounts, cells + 1);
  bindSearch();
  glUseProgram(programs.grid.id());
  glUniform1ui(grid::kMode, 1u);
  dispatch(n);

  // Neighbour counts, CSR offsets, the count read back, the lists.
  glUseProgram(programs.neighbours.id());
  glUniform1ui(grid::kMode, 0u);
  dispatch(n);
  exclusiveScan(programs.scan, pairs.offsets, n + 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(pairs.offsets, sizeof(std::uint32_t), &pairs.total, n * sizeof(std::uint32_t));
  pairs.neighbours = makeBuffer(std::size_t(pairs.total) * sizeof(std::uint32_t));
  bindSearch();
  glUseProgram(programs.neighbours.id());
  glUniform1ui(grid::kMode, 1u);
  dispatch(n);
  return pairs;
}

template <class T>
std::vector<T> readVector(const gl::Buffer& buffer, std::size_t count, std::size_t offsetBytes = 0) {
  std::vector<T> out(count);
  if (count > 0) gl::readBuffer(buffer, count * sizeof(T), out.data(), offsetBytes);
  return out;
}

}  // namespace

Result<ParticlePairs> findInteractingPairsGpu(std::span<const glm::vec4> particles, float interactionGap) {
  auto programs = buildSearchPrograms(gpuShaders());
  if (!programs) return programs.error();
  const gl::Buffer points = makeBuffer(particles.size_bytes(), particles.data());
  auto pairs = searchPairs(*programs, points, particles, interactionGap);
  if (!pairs) return pairs.error();
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  ParticlePairs out;
  out.offsets = readVector<std::uint32_t>(pairs->offsets, particles.size() + 1);
  out.neighbours = readVector<std::uint32_t>(pairs->neighbours, pairs->total);
  if (Status s = gpu::checkGl("particle neighbour search (GPU)", "after the passes"); !s) return s.error();
  return out;
}

GpuParticleSkinner::GpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model)
    : ParticleSkinner(std::move(model)) {}

Status GpuParticleSkinner::setup() {
  const ParticleSkinModel& model = *m_model;
  const std::size_t n = model.particleCount();
  const std::size_t joints = model.body->skeleton.size();
  const gl::ShaderRegistry& registry = gpuShaders();
  auto search = buildSearchPrograms(registry);
  if (!search) return search.error();
  auto linksProgram = buildProgram(registry, "particle_skin_links.comp");
  if (!linksProgram) return linksProgram.error();
  for (auto [program, name] : {std::pair{&m_targetsProgram, "particle_skin_targets.comp"},
                               std::pair{&m_forcesProgram, "particle_skin_forces.comp"},
                               std::pair{&m_updateProgram, "particle_skin_update.comp"},
                               std::pair{&m_checkProgram, "particle_skin_check.comp"},
                               std::pair{&m_rotationsProgram, "particle_skin_rotations.comp"},
                               std::pair{&m_surfaceProgram, "particle_skin_surface.comp"}}) {
    auto built = buildProgram(registry, name);
    if (!built) return built.error();
    *program = std::move(built).value();
  }

  // The links: the GPU neighbour search on the rest particles, then the link records.
  std::vector<glm::vec4> centres(n);
  for (std::size_t i = 0; i < n; ++i) centres[i] = model.particles[i].position;
  const gl::Buffer points = makeBuffer(centres.size() * sizeof(glm::vec4), centres.data());
  auto pairs = searchPairs(*search, points, centres, model.settings.interactionGap);
  if (!pairs) return pairs.error();
  m_linkOffsets = std::move(pairs->offsets);
  m_linkCount = pairs->total;
  m_links = makeBuffer(std::size_t(m_linkCount) * sizeof(kernels::ParticleLink));
  glUseProgram(linksProgram->id());
  glUniform1ui(links::kCount, GLuint(n));
  glUniform1f(links::kFinestRadius, model.finestRadius);
  glUniform1f(links::kSpringStiffness, model.settings.springStiffness);
  glUniform1f(links::kSpringDamping, model.settings.springDamping);
  bind(HG_BINDING_PARTICLE_POSITIONS, points);
  bind(HG_BINDING_PARTICLE_LINK_OFFSETS, m_linkOffsets);
  bind(HG_BINDING_PARTICLE_NEIGHBOURS, pairs->neighbours);
  bind(HG_BINDING_PARTICLE_LINKS, m_links);
  dispatch(n);

  // Constant data and state.
  m_rest = makeBuffer(n * sizeof(kernels::ParticleRest), model.particles.data());
  m_bindings = makeBuffer(model.bindings.size() * sizeof(kernels::VertexBinding), model.bindings.data());
  m_jointMatrices = makeBuffer(joints * sizeof(glm::mat4));
  m_boneRotations = makeBuffer(joints * sizeof(glm::vec4));
  m_jointDualQuaternions = makeBuffer(joints * sizeof(kernels::DualQuaternion));
  m_positions = makeBuffer(kPositionSlots * n * sizeof(glm::vec4));
  m_velocities = makeBuffer(kVelocitySlots * n * sizeof(glm::vec4));
  m_accelerations = makeBuffer(kAccelerationSlots * n * sizeof(glm::vec4));
  m_rotations = makeBuffer(n * sizeof(glm::vec4));
  m_surface = makeBuffer(model.bindings.size() * sizeof(glm::vec4));
  m_status = makeBuffer(2 * sizeof(std::uint32_t));

  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec3& x : model.body->mesh.positions) {
    lo = glm::min(lo, x);
    hi = glm::max(hi, x);
  }
  m_divergenceLimit = 10.0f * glm::length(hi - lo);
  reset();
  return gpu::checkGl("createGpuParticleSkinner", "after the setup passes");
}

void GpuParticleSkinner::bindBuffers() const {
  bind(HG_BINDING_PARTICLE_REST, m_rest);
  bind(HG_BINDING_PARTICLE_LINK_OFFSETS, m_linkOffsets);
  bind(HG_BINDING_PARTICLE_LINKS, m_links);
  bind(HG_BINDING_PARTICLE_POSITIONS, m_positions);
  bind(HG_BINDING_PARTICLE_VELOCITIES, m_velocities);
  bind(HG_BINDING_PARTICLE_ACCELERATIONS, m_accelerations);
  bind(HG_BINDING_PARTICLE_ROTATIONS, m_rotations);
  bind(HG_BINDING_PARTICLE_BINDINGS, m_bindings);
  bind(HG_BINDING_PARTICLE_JOINT_MATRICES, m_jointMatrices);
  bind(HG_BINDING_PARTICLE_BONE_ROTATIONS, m_boneRotations);
  bind(HG_BINDING_PARTICLE_JOINT_DUAL_QUATERNIONS, m_jointDualQuaternions);
  bind(HG_BINDING_PARTICLE_SURFACE, m_surface);
  bind(HG_BINDING_PARTICLE_STATUS, m_status);
}

void GpuParticleSkinner::reset() {
  const ParticleSkinModel& model = *m_model;
  const std::size_t n = model.particleCount();
  // x = the rest positions, the targets too (slot kTargetSlot, w 1); all else 0.
  std::vector<glm::vec4> positions(kPositionSlots * n, glm::vec4(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 rest(model.particles[i].position);
    positions[i] = glm::vec4(rest, 0.0f);
    positions[kTargetSlot * n + i] = glm::vec4(rest, 1.0f);
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after any pass that wrote these buffers
  if (n > 0)
    glNamedBufferSubData(m_positions.id(), 0, GLsizeiptr(positions.size() * sizeof(glm::vec4)), positions.data());
  clearToZero(m_velocities);
  clearToZero(m_accelerations);
  const std::vector<glm::vec4> identity(std::max(n, model.body->skeleton.size()), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  if (n > 0) glNamedBufferSubData(m_rotations.id(), 0, GLsizeiptr(n * sizeof(glm::vec4)), identity.data());
  if (!model.body->skeleton.joints.empty())
    glNamedBufferSubData(m_boneRotations.id(), 0, GLsizeiptr(model.body->skeleton.size() * sizeof(glm::vec4)),
                         identity.data());
  m_x = 0;
  m_xs = 1;
  m_v = 0;
  m_vs = 1;
  m_started = false;
  m_haveHistory = false;
  m_accelerationValid = false;
  m_steps = 0;
}

void GpuParticleSkinner::evaluate(std::uint32_t positionSlot, std::uint32_t velocitySlot,
                                  std::uint32_t accelerationSlot) {
  const ParticleSkinSettings& settings = m_model->settings;
  const GLuint program = m_forcesProgram.id();
  glUseProgram(program);
  glUniform1ui(forces::kCount, GLuint(m_model->particleCount()));
  glUniform4ui(forces::kSlots, positionSlot, velocitySlot, accelerationSlot, kTargetSlot);
  glUniform1ui(forces::kTargetVelocitySlot, kTargetVelocitySlot);
  glUniform1f(forces::kBoneStiffness, settings.boneStiffness);
  glUniform1f(forces::kBoneDamping, settings.boneDamping);
  dispatch(m_model->particleCount());
}

void GpuParticleSkinner::update(std::uint32_t op) {
  glUseProgram(m_updateProgram.id());
  glUniform1ui(update::kCount, GLuint(m_model->particleCount()));
  glUniform1ui(update::kOp, op);
  glUniform1f(update::kDt, m_model->settings.timeStep);
  glUniform4ui(update::kPositionSlots, m_x, m_xs, 0u, 0u);
  glUniform4ui(update::kVelocitySlots, m_v, m_vs, kHalfVelocitySlot, kPreviousVelocitySlot);
  glUniform4ui(update::kAccelerationSlots, kAccelerationSlot, kStageAccelerationSlot, kPreviousAccelerationSlot, 0u);
  dispatch(m_model->particleCount());
}

void GpuParticleSkinner::heunStep() {
  evaluate(m_x, m_v, kAccelerationSlot);
  update(HG_PARTICLE_UPDATE_HEUN_PREDICT);
  evaluate(m_xs, m_vs, kStageAccelerationSlot);
  update(HG_PARTICLE_UPDATE_HEUN_CORRECT);
  m_accelerationValid = false;
}

void GpuParticleSkinner::step() {
  const ParticleSkinSettings& settings = m_model->settings;
  switch (settings.integrator) {
    case ParticleIntegrator::ImprovedEuler:
      heunStep();
      break;
    case ParticleIntegrator::Adams: {
      if (!m_haveHistory) {  // the start: one Heun step, keeping (v0, a0) as history
        heunStep();
        m_haveHistory = true;
        break;
      }
      if (!m_accelerationValid) evaluate(m_x, m_v, kAccelerationSlot);
      update(HG_PARTICLE_UPDATE_ADAMS_PREDICT);
      for (int pass = 0; pass <= settings.iterations; ++pass) {
        evaluate(m_xs, m_vs, kStageAccelerationSlot);
        update(pass == settings.iterations ? HG_PARTICLE_UPDATE_ADAMS_CORRECT_LAST : HG_PARTICLE_UPDATE_ADAMS_CORRECT);
      }
      std::swap(m_x, m_xs);
      std::swap(m_v, m_vs);
      evaluate(m_x, m_v, kAccelerationSlot);  // the final E of PECE, reused by the next step
      m_accelerationValid = true;
      break;
    }
    case ParticleIntegrator::Leapfrog: {
      if (!m_started) {  // the Euler start: v_{1/2} = v_0 + dt/2 a_0
        evaluate(m_x, m_v, kAccelerationSlot);
        update(HG_PARTICLE_UPDATE_LEAPFROG_START);
        m_started = true;
      }
      update(HG_PARTICLE_UPDATE_LEAPFROG_DRIFT);
      for (int pass = 0; pass <= settings.iterations; ++pass) {
        evaluate(m_x, m_v, kAccelerationSlot);
        update(pass == settings.iterations ? HG_PARTICLE_UPDATE_LEAPFROG_VELOCITY_KICK
                                           : HG_PARTICLE_UPDATE_LEAPFROG_VELOCITY);
      }
      break;
    }
  }
}

Status GpuParticleSkinner::advance(const Pose& pose, int steps) {
  const ParticleSkinModel& model = *m_model;
  const Skeleton& skeleton = model.body->skeleton;
  if (pose.size() != skeleton.size())
    return Error{"particle skinning: pose has " + std::to_string(pose.size()) + " joints, the skeleton " +
                 std::to_string(skeleton.size())};
  if (steps < 0) return Error{"particle skinning: negative step count"};
  const std::vector<glm::mat4> matrices = skinningMatrices(skeleton, pose);
  std::vector<glm::vec4> boneRotations(matrices.size());
  std::vector<kernels::DualQuaternion> dualQuaternions(matrices.size());
  for (std::size_t j = 0; j < matrices.size(); ++j) {
    if (!allFinite(matrices[j]))
      return Error{"particle skinning: pose gives a non-finite matrix for joint '" + skeleton.joints[j].name + "'"};
    dualQuaternions[j] = kernels::rigidDualQuaternion(matrices[j]);
    boneRotations[j] = dualQuaternions[j].real;
  }
  const std::size_t n = model.particleCount();
  if (!matrices.empty()) {
    glNamedBufferSubData(m_jointMatrices.id(), 0, GLsizeiptr(matrices.size() * sizeof(glm::mat4)), matrices.data());
    glNamedBufferSubData(m_boneRotations.id(), 0, GLsizeiptr(boneRotations.size() * sizeof(glm::vec4)),
                         boneRotations.data());
    glNamedBufferSubData(m_jointDualQuaternions.id(), 0,
                         GLsizeiptr(dualQuaternions.size() * sizeof(kernels::DualQuaternion)), dualQuaternions.data());
  }
  bindBuffers();
  glUseProgram(m_targetsProgram.id());
  glUniform1ui(targets::kCount, GLuint(n));
  glUniform4ui(targets::kSlots, kTargetSlot, kTargetVelocitySlot, 0u, 0u);
  glUniform1f(targets::kFrameTime, float(std::max(steps, 1)) * model.settings.timeStep);
  glUniform1ui(targets::kDualQuaternion, model.settings.boneTarget == BoneTarget::DualQuaternion ? 1u : 0u);
  dispatch(n);
  m_accelerationValid = false;  // the targets changed
  for (int s = 0; s < steps; ++s) step();
  m_steps += steps;

  // Divergence: a non-finite state or a particle far from its target (two words back).
  const std::uint32_t cleared[2] = {0u, std::numeric_limits<std::uint32_t>::max()};
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glNamedBufferSubData(m_status.id(), 0, sizeof(cleared), cleared);
  glUseProgram(m_checkProgram.id());
  glUniform1ui(check::kCount, GLuint(n));
  glUniform4ui(check::kSlots, m_x, m_v, kTargetSlot, 0u);
  glUniform1f(check::kLimit, m_divergenceLimit);
  dispatch(n);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::uint32_t status[2] = {0u, 0u};
  gl::readBuffer(m_status, sizeof(status), status);
  if (status[0] != 0u)
    return simulationError("particle skinning diverged at step " + std::to_string(m_steps) + " (particle " +
                           std::to_string(status[1]) + "): lower time_step (now " +
                           std::to_string(model.settings.timeStep) + " s) or the stiffnesses");
  // A new pose sets a new target velocity; a held pose then has none.
  if (n > 0)
    glClearNamedBufferSubData(m_velocities.id(), GL_RGBA32F, GLintptr(kTargetVelocitySlot * n * sizeof(glm::vec4)),
                              GLsizeiptr(n * sizeof(glm::vec4)), GL_RGBA, GL_FLOAT, nullptr);
  return gpu::checkGl("particle skinning (GPU)", "in advance()");
}

ParticleState GpuParticleSkinner::readParticles() const {
  const ParticleSkinModel& model = *m_model;
  const std::size_t n = model.particleCount();
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  ParticleState state;
  state.positions = readVector<glm::vec4>(m_positions, n, m_x * n * sizeof(glm::vec4));
  state.velocities = readVector<glm::vec4>(m_velocities, n, m_v * n * sizeof(glm::vec4));
  state.rotations = readVector<glm::vec4>(m_rotations, n);
  for (std::size_t i = 0; i < n; ++i) {
    state.positions[i].w = model.particles[i].position.w;
    state.velocities[i].w = 0.0f;
  }
  return state;
}

Result<SkinnedSurface> GpuParticleSkinner::surface() {
  const ParticleSkinModel& model = *m_model;
  const std::size_t n = model.particleCount();
  const std::size_t vertices = model.bindings.size();
  bindBuffers();
  glUseProgram(m_rotationsProgram.id());
  glUniform1ui(rotations::kCount, GLuint(n));
  glUniform1ui(rotations::kPositionSlot, m_x);
  glUniform1ui(rotations::kFrame, model.settings.surfaceFrame == SurfaceFrame::Local ? 1u : 0u);
  glUniform1i(rotations::kIterations, kRotationIterations);
  dispatch(n);
  glUseProgram(m_surfaceProgram.id());
  glUniform1ui(surface::kVertexCount, GLuint(vertices));
  glUniform1ui(surface::kParticleCount, GLuint(n));
  glUniform1ui(surface::kPositionSlot, m_x);
  dispatch(vertices);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  SkinnedSurface out;
  out.positions = readVector<glm::vec4>(m_surface, vertices);
  out.normals = surfaceNormals(out.positions, model.body->mesh.indices);
  if (Status s = gpu::checkGl("particle skinning (GPU)", "in surface()"); !s) return s.error();
  return out;
}

std::vector<std::uint32_t> GpuParticleSkinner::readLinkOffsets() const {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  return readVector<std::uint32_t>(m_linkOffsets, m_model->particleCount() + 1);
}

std::vector<kernels::ParticleLink> GpuParticleSkinner::readLinks() const {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  return readVector<kernels::ParticleLink>(m_links, m_linkCount);
}

Result<std::unique_ptr<ParticleSkinner>> createGpuParticleSkinner(std::shared_ptr<const ParticleSkinModel> model) {
  if (!model) return Error{"particle skinning: no model"};
  if (!model->body) return Error{"particle skinning: the model has no body"};
  std::unique_ptr<GpuParticleSkinner> skinner(new GpuParticleSkinner(std::move(model)));
  if (Status s = skinner->setup(); !s) return s.error();
  return std::unique_ptr<ParticleSkinner>(std::move(skinner));
}

Result<std::unique_ptr<ParticleSkinner>> createParticleSkinner(Backend backend,
                                                               std::shared_ptr<const ParticleSkinModel> model) {
  if (backend == Backend::Cpu) return createCpuParticleSkinner(std::move(model));
  return createGpuParticleSkinner(std::move(model));
}

}  // namespace hg
