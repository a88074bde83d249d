#include "sim/gpu/GpuSelfContact.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <vector>

#include "sim/cloth/ClothModel.h"
#include "sim/gpu/GpuScan.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

// Uniform locations, as declared in sim/gpu/shaders/self_contact_*.comp.
namespace prepare {
constexpr GLint kVertexCount = 0, kEdgeCount = 1, kMode = 2, kThickness = 3;
}
namespace grid {
constexpr GLint kTriangleCount = 0, kEdgeCount = 1, kTableSize = 2, kMode = 3;
}
namespace pairs {
constexpr GLint kVertexCount = 0, kTriangleCount = 1, kEdgeCount = 2, kTableSize = 3, kThickness = 4, kPairCapacity = 5;
}
namespace tangles {
constexpr GLint kEdgeCount = 0, kTableSize = 1, kMode = 2, kCapacity = 3;
}
namespace separate {
constexpr GLint kCount = 0, kMode = 1, kThickness = 2, kFriction = 3, kDt = 4;
constexpr std::uint32_t kPairs = 0, kApplyPairs = 1, kTangles = 2, kApplyTangles = 3, kTruncate = 4, kDispatch = 5;
}  // namespace separate

/// The most entries of each of the hashed grid's two tables (triangles, edges): the prefix
/// sum's block totals then stay within one dispatch's workgroups (2^21 / 64 = 32768).
constexpr std::uint32_t kMaxTableSize = 1u << 20;
/// Pairs the pair buffer holds per vertex at first (a cloth pressed onto another layer has
/// a few; a sheet piled in folds on the ground had 18.7 at its peak); a frame whose
/// substeps came within kPairHeadroom of the capacity grows it to twice their peak for the
/// frames after. The first frame and a frame after one that dropped pairs also check
/// every pair pass (findPairsAgainIfTheyOverflowed); elsewhere the separation skips the pairs
/// past the capacity (counted as dropped in the metrics).
constexpr std::uint32_t kPairsPerVertex = 16, kPairsAtLeast = 4096;
constexpr double kPairHeadroom = 0.75;
/// Edge-triangle candidates of the tangle search the buffer holds at first (a frame with
/// more tests every triangle pair on the CPU once and doubles it past the count).
constexpr std::uint32_t kTangleCandidatesAtLeast = 4096;

GLuint workgroups(std::size_t count) { return GLuint((count + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE); }

void bind(GLuint binding, const gl::Buffer& buffer) {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer.id());
}

/// A buffer of at least 16 bytes (a zero-length storage buffer cannot be bound).
gl::Buffer buffer(std::size_t bytes, const void* data = nullptr) {
  if (bytes == 0) {
    const glm::uvec4 none(0u);
    return gl::createBuffer(sizeof(none), &none);
  }
  return gl::createBuffer(bytes, data);
}

}  // namespace

Result<std::unique_ptr<GpuSelfContact>> GpuSelfContact::create(const ClothModel& model,
                                                               const SelfContactSettings& settings) {
  Programs programs;
  const gl::ShaderRegistry& registry = gpuShaders();
  for (auto [program, name] :
       {std::pair{&programs.prepare, "self_contact_prepare.comp"}, std::pair{&programs.grid, "self_contact_grid.comp"},
        std::pair{&programs.scan, "particle_skin_scan.comp"}, std::pair{&programs.pairs, "self_contact_pairs.comp"},
        std::pair{&programs.separate, "self_contact_separate.comp"},
        std::pair{&programs.tangles, "self_contact_tangles.comp"}}) {
    auto built = registry.buildCompute(name);
    if (!built) return built.error();
    *program = std::move(built).value();
  }
  return std::unique_ptr<GpuSelfContact>(new GpuSelfContact(model, settings, std::move(programs)));
}

GpuSelfContact::GpuSelfContact(const ClothModel& model, const SelfContactSettings& settings, Programs programs)
    : m_frameAnalysis(model, settings), m_programs(std::move(programs)) {
  const std::span<const std::uint32_t> triangles = m_frameAnalysis.triangles();
  const std::span<const glm::uvec2> edges = m_frameAnalysis.edges();
  m_vertexCount = std::uint32_t(model.vertexCount());
  m_triangleCount = std::uint32_t(triangles.size() / 3);
  m_edgeCount = std::uint32_t(edges.size());
  const std::uint32_t items = m_triangleCount + m_edgeCount;
  m_tableSize = std::min(kMaxTableSize, std::bit_ceil(std::max(std::max(m_triangleCount, m_edgeCount), 64u)));
  m_pairCapacity = std::max(kPairsAtLeast, kPairsPerVertex * m_vertexCount);

  m_control = buffer(sizeof(kernels::SelfContactControl));
  glClearNamedBufferData(m_control.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  m_triangles = buffer(triangles.size_bytes(), triangles.data());
  m_edges = buffer(edges.size_bytes(), edges.data());
  m_cells = buffer((2 * std::size_t(m_tableSize) + 1) * sizeof(std::uint32_t));
  m_scanBlocks = buffer(workgroups(2 * std::size_t(m_tableSize) + 1) * sizeof(std::uint32_t));
  m_cellRanks = buffer(std::size_t(items) * sizeof(glm::uvec2));
  m_items = buffer(std::size_t(items) * sizeof(std::uint32_t));
  m_nearest = buffer(std::size_t(m_vertexCount) * sizeof(std::uint32_t));
  m_pairs = buffer(std::size_t(m_pairCapacity) * sizeof(kernels::SelfContactPair));
  m_candidateCapacity = std::max(kTangleCandidatesAtLeast, m_edgeCount / 16);
  m_tangleCandidates = buffer(std::size_t(m_candidateCapacity) * sizeof(glm::uvec2));
  m_corrections = buffer(std::size_t(m_vertexCount) * sizeof(glm::ivec4));
  glClearNamedBufferData(m_corrections.id(), GL_R32I, GL_RED_INTEGER, GL_INT, nullptr);
  m_tangled = buffer(std::size_t(m_vertexCount) * sizeof(std::uint32_t));
  glClearNamedBufferData(m_tangled.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  m_tangles = buffer(0);
  std::vector<std::uint32_t> layers = m_frameAnalysis.settings().layerOfVertex;
  layers.resize(m_vertexCount, 0u);  // empty: one layer
  m_layers = buffer(layers.size() * sizeof(std::uint32_t), layers.data());
  m_before = buffer(std::size_t(m_vertexCount) * sizeof(glm::vec4));
  setConstantUniforms();
}

void GpuSelfContact::setConstantUniforms() const {
  const SelfContactSettings& settings = m_frameAnalysis.settings();
  const GLuint prepareProgram = m_programs.prepare.id(), gridProgram = m_programs.grid.id(),
               pairsProgram = m_programs.pairs.id(), separateProgram = m_programs.separate.id();
  glProgramUniform1ui(prepareProgram, prepare::kVertexCount, m_vertexCount);
  glProgramUniform1ui(prepareProgram, prepare::kEdgeCount, m_edgeCount);
  glProgramUniform1f(prepareProgram, prepare::kThickness, settings.thickness);
  glProgramUniform1ui(gridProgram, grid::kTriangleCount, m_triangleCount);
  glProgramUniform1ui(gridProgram, grid::kEdgeCount, m_edgeCount);
  glProgramUniform1ui(gridProgram, grid::kTableSize, m_tableSize);
  glProgramUniform1ui(pairsProgram, pairs::kVertexCount, m_vertexCount);
  glProgramUniform1ui(pairsProgram, pairs::kTriangleCount, m_triangleCount);
  glProgramUniform1ui(pairsProgram, pairs::kEdgeCount, m_edgeCount);
  glProgramUniform1ui(pairsProgram, pairs::kTableSize, m_tableSize);
  glProgramUniform1f(pairsProgram, pairs::kThickness, settings.thickness);
  glProgramUniform1ui(pairsProgram, pairs::kPairCapacity, m_pairCapacity);
  glProgramUniform1f(separateProgram, separate::kThickness, settings.thickness);
  const GLuint tanglesProgram = m_programs.tangles.id();
  glProgramUniform1ui(tanglesProgram, tangles::kEdgeCount, m_edgeCount);
  glProgramUniform1ui(tanglesProgram, tangles::kTableSize, m_tableSize);
  glProgramUniform1ui(tanglesProgram, tangles::kCapacity, m_candidateCapacity);
  glProgramUniform1f(separateProgram, separate::kFriction, settings.friction);
}

GpuSelfContact::~GpuSelfContact() {
  m_timer.report("self contact (GPU passes; the frame's CPU tangle test)", double(m_substeps));
}

void GpuSelfContact::clearSubstepControl() const {
  glClearNamedBufferSubData(m_control.id(), GL_R32UI, 0, offsetof(kernels::SelfContactControl, droppedPairs),
                            GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  glClearNamedBufferSubData(m_control.id(), GL_R32UI, offsetof(kernels::SelfContactControl, moveHistogram),
                            sizeof(kernels::SelfContactControl::moveHistogram), GL_RED_INTEGER, GL_UNSIGNED_INT,
                            nullptr);
}

void GpuSelfContact::startPasses(const gl::Buffer& start, const gl::Buffer& positions) {
  clearSubstepControl();
  bind(HG_BINDING_POSITIONS_IN, start);
  bind(HG_BINDING_POSITIONS_OUT, positions);
  bind(HG_BINDING_SELF_CONTACT_CONTROL, m_control);
  bind(HG_BINDING_SELF_CONTACT_TRIANGLES, m_triangles);
  bind(HG_BINDING_SELF_CONTACT_EDGES, m_edges);
  bind(HG_BINDING_SELF_CONTACT_NEAREST, m_nearest);
  m_timer.begin();
  dispatch(m_programs.prepare, prepare::kMode, std::max(m_vertexCount, m_edgeCount), 0u);
  dispatch(m_programs.prepare, prepare::kMode, 1, 1u);
}

bool GpuSelfContact::findTangleCandidates(const gl::Buffer& positions, std::vector<glm::uvec2>& candidates) {
  startPasses(positions, positions);  // no moves: the longest edge and the cell size
  dispatch(m_programs.tangles, tangles::kMode, 1, 0u);
  buildGrid();
  bind(HG_BINDING_SELF_CONTACT_TANGLE_CANDIDATES, m_tangleCandidates);
  dispatch(m_programs.tangles, tangles::kMode, m_edgeCount, 1u);
  m_timer.mark("frame: tangle search (GPU)");
  m_timer.resolve();
  std::uint32_t count = 0;
  gl::readBuffer(m_control, sizeof(count), &count, offsetof(kernels::SelfContactControl, tangleCandidates));
  if (count > m_candidateCapacity) {
    m_candidateCapacity = std::bit_ceil(2 * count);
    m_tangleCandidates = buffer(std::size_t(m_candidateCapacity) * sizeof(glm::uvec2));
    glProgramUniform1ui(m_programs.tangles.id(), tangles::kCapacity, m_candidateCapacity);
    candidates.clear();
    return false;
  }
  candidates.resize(count);
  if (count > 0) gl::readBuffer(m_tangleCandidates, count * sizeof(glm::uvec2), candidates.data());
  return true;
}

void GpuSelfContact::beginFrame(const gl::Buffer& positions) {
  const bool filtered = findTangleCandidates(positions, m_candidates);
  const auto analysisStart = std::chrono::steady_clock::now();
  // The positions come back only for an exact test to run (none: no tangle is possible).
  std::span<const glm::vec4> frameStart;
  if (!filtered || !m_candidates.empty()) {
    m_frameStart.resize(m_vertexCount);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl::readBuffer(positions, m_frameStart.size() * sizeof(glm::vec4), m_frameStart.data());
    frameStart = m_frameStart;
  }
  if (filtered) {
    m_frameAnalysis.beginFrame(frameStart, m_candidates);
  } else {
    m_frameAnalysis.beginFrame(frameStart);
  }
  m_timer.add("frame: exact tangle test (CPU)", std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                                  std::chrono::steady_clock::now() - analysisStart)
                                                                  .count()));
  const auto tangles = m_frameAnalysis.tangles();
  m_tangleCount = tangles.size();
  if (!tangles.empty()) m_tangles = buffer(tangles.size_bytes(), tangles.data());
  const bool anyTangled = !tangles.empty();  // a vertex is flagged only as part of a tangle
  if (anyTangled || m_anyTangled) {
    const auto flags = m_frameAnalysis.tangledVertices();
    const std::vector<std::uint32_t> words(flags.begin(), flags.end());
    glNamedBufferSubData(m_tangled.id(), 0, GLsizeiptr(words.size() * sizeof(std::uint32_t)), words.data());
  }
  m_anyTangled = anyTangled;
  // The pairs dropped since the last frame began and the most pairs of a substep (the
  // readback waits for the passes); a pair buffer that came near its capacity grows to
  // twice the peak.
  std::uint32_t counts[2] = {};  // droppedPairs, peakPairs
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(m_control, sizeof(counts), counts, offsetof(kernels::SelfContactControl, droppedPairs));
  m_droppedPairs += counts[0];
  const std::uint32_t zeros[2] = {};
  glNamedBufferSubData(m_control.id(), offsetof(kernels::SelfContactControl, droppedPairs), sizeof(zeros), zeros);
  growPairBuffer(counts[1]);
  // The first frame (a cloth that starts pressed onto another layer, an outfit just sewn
  // and untangling, may have several times the pairs of the frames after) and a frame after
  // one that dropped pairs check the pair count after every pair pass.
  m_checkPairsEverySubstep = m_substeps == 0 || counts[0] > 0;
}

void GpuSelfContact::growPairBuffer(std::uint32_t pairs) {
  if (!(double(pairs) > kPairHeadroom * double(m_pairCapacity))) return;
  m_pairCapacity = std::bit_ceil(2 * pairs);
  m_pairs = buffer(std::size_t(m_pairCapacity) * sizeof(kernels::SelfContactPair));
  glProgramUniform1ui(m_programs.pairs.id(), pairs::kPairCapacity, m_pairCapacity);
}

void GpuSelfContact::findPairsAgainIfTheyOverflowed() {
  kernels::SelfContactControl control;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl::readBuffer(m_control, offsetof(kernels::SelfContactControl, moveHistogram), &control);
  if (control.pairCount <= m_pairCapacity) return;
  const std::uint32_t droppedByThisPass = control.pairCount - m_pairCapacity;
  growPairBuffer(control.pairCount);
  const std::uint32_t pairCount = 0, dropped = control.droppedPairs - droppedByThisPass;
  glNamedBufferSubData(m_control.id(), offsetof(kernels::SelfContactControl, pairCount), sizeof(pairCount), &pairCount);
  glNamedBufferSubData(m_control.id(), offsetof(kernels::SelfContactControl, droppedPairs), sizeof(dropped), &dropped);
  runPairPass();
}

void GpuSelfContact::runPairPass() {
  bind(HG_BINDING_SELF_CONTACT_PAIRS, m_pairs);
  glUseProgram(m_programs.pairs.id());
  glDispatchCompute(workgroups(std::size_t(m_vertexCount) + m_edgeCount), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

SelfContactReport GpuSelfContact::report() const {
  SelfContactReport report = m_frameAnalysis.report();
  report.droppedPairs = m_droppedPairs;
  return report;
}

void GpuSelfContact::dispatch(const gl::Program& program, GLint modeLocation, std::size_t invocations,
                              std::uint32_t mode) {
  glUseProgram(program.id());
  glUniform1ui(modeLocation, mode);
  if (invocations > 0) glDispatchCompute(workgroups(invocations), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void GpuSelfContact::buildGrid() {
  const std::size_t items = std::size_t(m_triangleCount) + m_edgeCount;
  glClearNamedBufferData(m_cells.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  bind(HG_BINDING_SELF_CONTACT_CELLS, m_cells);
  bind(HG_BINDING_SELF_CONTACT_CELL_RANKS, m_cellRanks);
  bind(HG_BINDING_SELF_CONTACT_ITEMS, m_items);
  dispatch(m_programs.grid, grid::kMode, items, 0u);
  exclusiveScanInPlace(m_programs.scan, m_cells, m_scanBlocks, 2 * std::size_t(m_tableSize) + 1);
  dispatch(m_programs.grid, grid::kMode, items, 1u);
}

void GpuSelfContact::apply(const gl::Buffer& start, const gl::Buffer& positions, const gl::Buffer& velocities,
                           float dt) {
  if (m_vertexCount == 0) return;
  // 1. Query radius and cell size.
  startPasses(start, positions);
  bind(HG_BINDING_VELOCITIES_OUT, velocities);
  m_timer.mark("1 prepare");

  // 2. The grid; 3. the pairs.
  buildGrid();
  m_timer.mark("2 grid");
  bind(HG_BINDING_SELF_CONTACT_TANGLED, m_tangled);
  runPairPass();
  if (m_checkPairsEverySubstep) findPairsAgainIfTheyOverflowed();
  m_timer.mark("3 pairs");

  // 4. Untangling push, separation, truncation.
  const GLuint separateProgram = m_programs.separate.id();
  glProgramUniform1f(separateProgram, separate::kDt, dt);
  bind(HG_BINDING_SELF_CONTACT_CORRECTIONS, m_corrections);
  bind(HG_BINDING_SELF_CONTACT_TANGLES, m_tangles);
  bind(HG_BINDING_SELF_CONTACT_LAYERS, m_layers);
  bind(HG_BINDING_SELF_CONTACT_BEFORE, m_before);
  auto run = [&](std::uint32_t mode, std::size_t invocations, std::uint32_t count) {
    glProgramUniform1ui(separateProgram, separate::kCount, count);
    dispatch(m_programs.separate, separate::kMode, invocations, mode);
  };
  if (m_tangleCount > 0) {
    run(separate::kTangles, m_tangleCount, std::uint32_t(m_tangleCount));
    run(separate::kApplyTangles, m_vertexCount, m_vertexCount);
  }
  m_timer.mark("4a tangles");
  glCopyNamedBufferSubData(positions.id(), m_before.id(), 0, 0, GLsizeiptr(m_vertexCount * sizeof(glm::vec4)));
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  run(separate::kDispatch, 1, m_pairCapacity);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, m_control.id());
  for (int pass = 0; pass < m_frameAnalysis.settings().iterations; ++pass) {
    glProgramUniform1ui(separateProgram, separate::kCount, m_pairCapacity);  // mode 0: the pairs' capacity
    glUseProgram(separateProgram);
    glUniform1ui(separate::kMode, separate::kPairs);
    glDispatchComputeIndirect(GLintptr(offsetof(kernels::SelfContactControl, pairDispatch)));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    run(separate::kApplyPairs, m_vertexCount, m_vertexCount);
  }
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
  m_timer.mark("4b separation");
  run(separate::kTruncate, m_vertexCount, m_vertexCount);
  m_timer.mark("4c truncation");
  m_timer.resolve();
  ++m_substeps;
}

}  // namespace hg
