#include "sim/gpu/GpuSnowSolver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <glm/trigonometric.hpp>

#include "sim/gpu/GlPassState.h"
#include "sim/gpu/GpuShaders.h"
#include "sim/gpu/GpuSnowExposure.h"
#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

constexpr std::string_view kWho = "snow (GPU)";
// Uniform locations of sim/gpu/shaders/snow_common.glsl.
constexpr GLint kGridSizeLocation = 0, kGridGeometryLocation = 1, kPassValuesLocation = 2;
// GL guarantees 65535 workgroups per dispatch dimension.
constexpr std::size_t kMaxGroupsPerRow = 65535;

Error gpuError(const std::string& message) { return Error{std::string(kWho) + ": " + message}; }
Status checkGl(std::string_view what) { return gpu::checkGl(kWho, what); }

/// Dispatches one invocation per item (2D when one row of workgroups is not enough; the
/// shaders index with snowItem()).
void dispatchItems(std::size_t items) {
  if (items == 0) return;
  const std::size_t groups = (items + HG_WORKGROUP_SIZE - 1) / HG_WORKGROUP_SIZE;
  const std::size_t x = std::min(groups, kMaxGroupsPerRow), y = (groups + x - 1) / x;
  glDispatchCompute(GLuint(x), GLuint(y), 1);
}

/// The inverse of orderedBits in sim/gpu/shaders/snow_cover_points.comp.
float fromOrderedBits(std::uint32_t bits) {
  const std::uint32_t b = (bits & 0x80000000u) != 0u ? bits & 0x7fffffffu : ~bits;
  float f = 0.0f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

class GpuSnowSolver final : public SnowSolver {
 public:
  const char* name() const override { return "gpu"; }

  static Result<std::unique_ptr<GpuSnowSolver>> create(SnowCover initial, const SnowExposureSettings& settings) {
    std::unique_ptr<GpuSnowSolver> s(new GpuSnowSolver());
    auto exposure = GpuSnowExposure::create(settings);
    if (!exposure) return exposure.error();
    s->m_exposure = std::move(exposure).value();
    const char* programs[] = {"snow_cover_points.comp", "snow_accumulate.comp", "snow_repose_out.comp",
                              "snow_repose_gather.comp", "snow_repose_ratio.comp"};
    for (int p = 0; p < 5; ++p) {
      auto program = gpuShaders().buildCompute(programs[p]);
      if (!program) return program.error().prefixed(std::string(kWho) + ": ");
      s->m_programs[p] = std::move(program).value();
    }
    if (Status st = s->upload(std::move(initial)); !st) return st.error();
    return s;
  }

  Status accumulate(std::span<const glm::vec3> directions, float depthOnOpenGround) override {
    if (!std::isfinite(depthOnOpenGround) || depthOnOpenGround < 0.0f)
      return gpuError("the snow depth of a pass must be finite and >= 0");
    if (directions.empty()) return gpuError("no snowfall directions");
    (void)checkGl("before accumulate");  // earlier, unrelated errors are not ours
    const std::size_t vertices = m_groundVertexCount + m_cover.objects.positions.size();
    // 1. The covered scene's vertices and their box.
    const std::uint32_t emptyBounds[6] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0u, 0u, 0u};
    glNamedBufferSubData(m_bounds.id(), 0, sizeof emptyBounds, emptyBounds);
    bindState();
    glUseProgram(m_programs[kCoverPoints].id());
    setUniforms(depthOnOpenGround, float(directions.size()));
    dispatchItems(vertices);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
                    GL_ELEMENT_ARRAY_BARRIER_BIT);
    // 2. The frames, fitted to the box as snowMapFrame fits the CPU's to its mesh.
    std::uint32_t bits[6] = {};
    glGetNamedBufferSubData(m_bounds.id(), 0, sizeof bits, bits);
    TriangleMesh corners;
    const glm::vec3 lo(fromOrderedBits(bits[0]), fromOrderedBits(bits[1]), fromOrderedBits(bits[2]));
    const glm::vec3 hi(fromOrderedBits(bits[3]), fromOrderedBits(bits[4]), fromOrderedBits(bits[5]));
    for (int c = 0; c < 8; ++c)
      corners.positions.emplace_back(c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z);
    std::vector<SnowMapFrame> frames;
    for (const glm::vec3& direction : directions) {
      auto frame = snowMapFrame(direction, corners, {}, m_exposure->settings());
      if (!frame) return frame.error().prefixed(std::string(kWho) + ": ");
      frames.push_back(*frame);
    }
    // 3. Hits per vertex.
    glClearNamedBufferData(m_hits.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
    if (Status s = m_exposure->countHitsOnGpu(m_points.id(), vertices, m_indices.id(), m_indexCount, m_points.id(),
                                              vertices, frames, m_hits.id());
        !s)
      return s;
    // 4. Accumulate.
    bindState();
    glUseProgram(m_programs[kAccumulate].id());
    setUniforms(depthOnOpenGround, float(directions.size()) * float(rays()));
    dispatchItems(vertices);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    m_directionCount = directions.size();
    return checkGl("accumulating");
  }

  Result<SnowRelaxation> relax(const SnowReposeSettings& settings) override {
    if (Status s = settings.validate(); !s) return s.error();
    m_tanRepose = float(std::tan(glm::radians(double(settings.degrees))));
    SnowRelaxation result;
    result.maxRatio = maxRatio();
    result.converged = result.maxRatio <= 1.0 + double(settings.tolerance);
    const std::size_t items = m_cover.grid.cellCount() + m_cover.objects.positions.size();
    while (!result.converged && result.iterations < settings.maxIterations) {
      const int sweeps = std::min(settings.checkEvery, settings.maxIterations - result.iterations);
      bindState();
      for (int s = 0; s < sweeps; ++s) {
        glUseProgram(m_programs[kReposeOut].id());
        setUniforms(0.0f, 1.0f);
        dispatchItems(items);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        glUseProgram(m_programs[kReposeGather].id());
        setUniforms(0.0f, 1.0f);
        dispatchItems(items);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      }
      result.iterations += sweeps;
      result.maxRatio = maxRatio();
      result.converged = result.maxRatio <= 1.0 + double(settings.tolerance);
    }
    if (Status s = checkGl("relaxing"); !s) return s.error();
    return result;
  }

  Result<SnowCover> cover() override {
    if (Status s = readSnow(); !s) return s.error();
    return m_cover;
  }

  Result<double> totalVolume() override {
    if (Status s = readSnow(); !s) return s.error();
    return m_cover.totalVolume();
  }

  Result<std::vector<float>> lastExposure() override {
    const SnowReceivers receivers = snowReceivers(m_cover);  // the order; positions unused
    std::vector<float> exposure(receivers.points.size(), 0.0f);
    if (m_directionCount == 0) return exposure;
    const std::size_t vertices = m_groundVertexCount + m_cover.objects.positions.size();
    std::vector<std::uint32_t> hits(vertices);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(m_hits.id(), 0, GLsizeiptr(vertices * sizeof(std::uint32_t)), hits.data());
    // Ground vertices are the cells with ground in grid order, as receivers.cells.
    for (std::size_t r = 0; r < receivers.cells.size(); ++r)
      exposure[r] = float(hits[r]) / (float(m_directionCount) * float(rays()));
    for (std::size_t r = 0; r < receivers.vertices.size(); ++r)
      exposure[receivers.cells.size() + r] =
          float(hits[m_groundVertexCount + receivers.vertices[r]]) / (float(m_directionCount) * float(rays()));
    if (Status s = checkGl("reading the exposure back"); !s) return s.error();
    return exposure;
  }

  GpuSnowTextures textures() const { return {m_groundSnow.id(), m_objectSnow.id()}; }

 private:
  enum Program { kCoverPoints, kAccumulate, kReposeOut, kReposeGather, kReposeRatio };

  GpuSnowSolver() = default;

  /// Reads the snow (ground texture, objects' and spilled buffers) back into m_cover.
  Status readSnow() {
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    const std::size_t cells = m_cover.grid.cellCount();
    glGetTextureImage(m_groundSnow.id(), 0, GL_RED, GL_FLOAT, GLsizei(cells * sizeof(float)),
                      m_cover.groundSnow.data());
    const std::size_t n = m_cover.objects.positions.size();
    if (n > 0) {
      glGetNamedBufferSubData(m_objectSnow.id(), 0, GLsizeiptr(n * sizeof(float)), m_cover.objectSnow.data());
      glGetNamedBufferSubData(m_spilledOutside.id(), 0, GLsizeiptr(n * sizeof(float)),
                              m_cover.objectSpilledOutside.data());
    }
    return checkGl("reading the cover back");
  }
  int rays() const { return std::max(m_exposure->settings().raysPerDirection, 1); }

  Status upload(SnowCover initial) {
    m_cover = std::move(initial);
    const SnowGrid& grid = m_cover.grid;
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (grid.nx > maxSize || grid.nz > maxSize)
      return gpuError("a ground grid of " + std::to_string(grid.nx) + " x " + std::to_string(grid.nz) +
                      " cells exceeds GL_MAX_TEXTURE_SIZE = " + std::to_string(maxSize) + " (raise ground_cell)");
    (void)checkGl("before upload");
    const std::size_t cells = grid.cellCount();
    std::vector<float> ground(cells), snow(cells, 0.0f);
    std::vector<std::uint32_t> groundVertexCells;
    for (std::size_t c = 0; c < cells; ++c) {
      ground[c] = m_cover.hasGround(c) ? m_cover.ground[c] : HG_SNOW_NO_GROUND;
      if (m_cover.hasGround(c)) {
        snow[c] = m_cover.groundSnow[c];
        groundVertexCells.push_back(std::uint32_t(c));
      }
    }
    m_groundVertexCount = groundVertexCells.size();
    const auto texture = [&](const std::vector<float>& values) {
      GLuint id = 0;
      glCreateTextures(GL_TEXTURE_2D, 1, &id);
      glTextureStorage2D(id, 1, GL_R32F, grid.nx, grid.nz);
      glTextureSubImage2D(id, 0, 0, 0, grid.nx, grid.nz, GL_RED, GL_FLOAT, values.data());
      glTextureParameteri(id, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTextureParameteri(id, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      return gl::Texture(id);
    };
    m_groundHeight = texture(ground);
    m_groundSnow = texture(snow);
    // Objects: base positions with their areas, snow, adjacency, spill.
    const std::size_t n = m_cover.objects.positions.size();
    std::vector<glm::vec4> base(std::max<std::size_t>(n, 1));
    for (std::size_t v = 0; v < n; ++v) base[v] = glm::vec4(m_cover.objects.positions[v], m_cover.objectArea[v]);
    const auto atLeastOne = [](auto values) {
      if (values.empty()) values.resize(1);
      return values;
    };
    m_objectBase = gl::createBuffer(std::span<const glm::vec4>(base));
    m_objectSnow = gl::createBuffer(std::span<const float>(atLeastOne(m_cover.objectSnow)));
    m_spilledOutside = gl::createBuffer(std::span<const float>(atLeastOne(m_cover.objectSpilledOutside)));
    m_neighbourStart = gl::createBuffer(std::span<const std::uint32_t>(atLeastOne(m_cover.objectNeighbourStart)));
    std::vector<kernels::SnowEdge> edges(std::max<std::size_t>(m_cover.objectNeighbours.size(), 1));
    for (std::size_t e = 0; e < m_cover.objectNeighbours.size(); ++e)
      edges[e] = {m_cover.objectNeighbours[e], m_cover.objectReverseEntry[e], m_cover.objectNeighbourDistance[e], 0u};
    m_edges = gl::createBuffer(std::span<const kernels::SnowEdge>(edges));
    m_spillCell = gl::createBuffer(std::span<const std::uint32_t>(atLeastOne(m_cover.objectSpillCell)));
    const SnowSpillLists spill = snowSpillLists(m_cover);
    m_spillStart = gl::createBuffer(std::span<const std::uint32_t>(spill.start));
    m_spillEntries = gl::createBuffer(std::span<const std::uint32_t>(atLeastOne(spill.entries)));
    m_groundOut = gl::createBuffer(std::max<std::size_t>(cells * 8, 1) * sizeof(float), nullptr, 0);
    m_objectOut =
        gl::createBuffer(std::max<std::size_t>(m_cover.objectNeighbours.size(), 1) * sizeof(float), nullptr, 0);
    m_groundVertexCells = gl::createBuffer(std::span<const std::uint32_t>(atLeastOne(groundVertexCells)));
    // The covered mesh: its vertices are written on the GPU, its triangles are fixed.
    const std::size_t vertices = m_groundVertexCount + n;
    m_points = gl::createBuffer(std::max<std::size_t>(vertices, 1) * sizeof(glm::vec4), nullptr, 0);
    m_hits = gl::createBuffer(std::max<std::size_t>(vertices, 1) * sizeof(std::uint32_t), nullptr, 0);
    const TriangleMesh covered = coveredSceneMesh(m_cover);
    m_indexCount = covered.indices.size();
    m_indices = gl::createBuffer(std::span<const std::uint32_t>(atLeastOne(covered.indices)));
    m_bounds = gl::createBuffer(6 * sizeof(std::uint32_t), nullptr, GL_DYNAMIC_STORAGE_BIT);
    m_ratio = gl::createBuffer(sizeof(std::uint32_t), nullptr, GL_DYNAMIC_STORAGE_BIT);
    return checkGl("uploading the cover");
  }

  void bindState() const {
    glBindImageTexture(0, m_groundHeight.id(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32F);
    glBindImageTexture(1, m_groundSnow.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32F);
    const std::pair<GLuint, GLuint> buffers[] = {
        {HG_BINDING_SNOW_OBJECT_BASE, m_objectBase.id()},
        {HG_BINDING_SNOW_OBJECT_SNOW, m_objectSnow.id()},
        {HG_BINDING_SNOW_NEIGHBOUR_START, m_neighbourStart.id()},
        {HG_BINDING_SNOW_EDGES, m_edges.id()},
        {HG_BINDING_SNOW_GROUND_OUT, m_groundOut.id()},
        {HG_BINDING_SNOW_OBJECT_OUT, m_objectOut.id()},
        {HG_BINDING_SNOW_SPILL_START, m_spillStart.id()},
        {HG_BINDING_SNOW_SPILL_ENTRIES, m_spillEntries.id()},
        {HG_BINDING_SNOW_SPILLED_OUTSIDE, m_spilledOutside.id()},
        {HG_BINDING_SNOW_OBJECT_SPILL_CELL, m_spillCell.id()},
        {HG_BINDING_SNOW_GROUND_VERTEX_CELLS, m_groundVertexCells.id()},
        {HG_BINDING_SNOW_POINTS, m_points.id()},
        {HG_BINDING_SNOW_HITS, m_hits.id()},
        {HG_BINDING_SNOW_RATIO, m_ratio.id()},
        {HG_BINDING_SNOW_BOUNDS, m_bounds.id()},
    };
    for (const auto& [binding, buffer] : buffers) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
  }

  void setUniforms(float depthOnOpenGround, float directionCount) const {
    const SnowGrid& grid = m_cover.grid;
    glUniform4i(kGridSizeLocation, grid.nx, grid.nz, GLint(m_groundVertexCount),
                GLint(m_cover.objects.positions.size()));
    glUniform4f(kGridGeometryLocation, grid.originX, grid.originZ, grid.cell, m_tanRepose);
    glUniform4f(kPassValuesLocation, depthOnOpenGround, directionCount, grid.cell * grid.cell, 0.0f);
  }

  double maxRatio() {
    const std::uint32_t zero = 0;
    glNamedBufferSubData(m_ratio.id(), 0, sizeof zero, &zero);
    bindState();
    glUseProgram(m_programs[kReposeRatio].id());
    setUniforms(0.0f, 1.0f);
    dispatchItems(m_cover.grid.cellCount() + m_cover.objects.positions.size());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::uint32_t bits = 0;
    glGetNamedBufferSubData(m_ratio.id(), 0, sizeof bits, &bits);
    float ratio = 0.0f;
    std::memcpy(&ratio, &bits, sizeof ratio);
    return ratio >= 3.0e38f ? std::numeric_limits<double>::infinity() : double(ratio);
  }

  SnowCover m_cover;  // the static data; its snow fields are a copy of the GPU's, refreshed by readSnow()
  std::size_t m_groundVertexCount = 0, m_indexCount = 0, m_directionCount = 0;
  float m_tanRepose = 1.0f;
  std::unique_ptr<GpuSnowExposure> m_exposure;
  gl::Program m_programs[5];
  gl::Texture m_groundHeight, m_groundSnow;
  gl::Buffer m_objectBase, m_objectSnow, m_spilledOutside, m_neighbourStart, m_edges, m_spillCell, m_spillStart,
      m_spillEntries, m_groundOut, m_objectOut, m_groundVertexCells, m_points, m_hits, m_indices, m_bounds, m_ratio;
};

}  // namespace

Result<std::unique_ptr<SnowSolver>> makeGpuSnowSolver(SnowCover initial, const SnowExposureSettings& exposure) {
  auto solver = GpuSnowSolver::create(std::move(initial), exposure);
  if (!solver) return solver.error();
  return std::unique_ptr<SnowSolver>(std::move(solver).value());
}

GpuSnowTextures gpuSnowTextures(const SnowSolver& solver) {
  if (const auto* gpu = dynamic_cast<const GpuSnowSolver*>(&solver)) return gpu->textures();
  return {};
}

}  // namespace hg
