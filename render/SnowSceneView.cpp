#include "render/SnowSceneView.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/RenderShaders.h"

namespace hg {
namespace {

/// Stands for "no ground here" in the height texture (the shader tests < -1e37): NaN
/// would survive the central differences of the neighbours' normals.
constexpr float kNoGroundSentinel = -3.0e38f;

// Colours (linear RGB) and snow ramps (m): the ground turns white over the first 2 cm
// of snow; the objects' vertices are white from 2 mm of snow, fully from 8 mm.
const glm::vec3 kGroundColor{0.30f, 0.33f, 0.24f};
const glm::vec3 kObjectColor{0.46f, 0.32f, 0.22f};
constexpr float kGroundRamp[2] = {0.0f, 0.02f};
constexpr float kObjectRamp[2] = {0.002f, 0.008f};
// The sky: the clear colour (already display-encoded, as the shaders' output).
constexpr float kSky[3] = {0.66f, 0.77f, 0.90f};

}  // namespace

SnowCamera snowCameraLookingAt(glm::vec3 eye, glm::vec3 target, float fovY) {
  SnowCamera camera;
  camera.target = target;
  camera.fovY = fovY;
  const glm::vec3 offset = eye - target;
  camera.distance = std::max(glm::length(offset), 1e-3f);
  const glm::vec3 dir = offset / camera.distance;
  camera.elevation = std::asin(std::clamp(dir.y, -1.0f, 1.0f));
  camera.azimuth = std::atan2(dir.x, dir.z);
  return camera;
}

namespace {

/// The cover's bounds (m): the grid's horizontal extent, the ground's heights and the objects.
void coverBounds(const SnowCover& cover, glm::vec3& lo, glm::vec3& hi) {
  const SnowGrid& grid = cover.grid;
  float yLo = std::numeric_limits<float>::max(), yHi = std::numeric_limits<float>::lowest();
  for (std::size_t c = 0; c < cover.ground.size(); ++c)
    if (cover.hasGround(c)) {
      yLo = std::min(yLo, cover.ground[c]);
      yHi = std::max(yHi, cover.ground[c]);
    }
  lo = glm::vec3(grid.originX, yLo, grid.originZ);
  hi = glm::vec3(grid.originX + float(grid.nx) * grid.cell, yHi, grid.originZ + float(grid.nz) * grid.cell);
  for (const glm::vec3& p : cover.objects.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  if (lo.y > hi.y) lo.y = hi.y = 0.0f;  // no ground and no objects
}

/// Per object vertex, m: the height above which its surroundings count as snow (see
/// render/shaders/snow_object.vert): its own height where it holds snow (area > 0), else the
/// highest of its own and its holding neighbours' heights.
std::vector<float> objectSnowLine(const SnowCover& cover) {
  const std::vector<glm::vec3>& p = cover.objects.positions;
  std::vector<float> line(p.size());
  const bool adjacency = cover.objectNeighbourStart.size() == p.size() + 1;
  auto holds = [&](std::size_t v) { return v < cover.objectArea.size() && cover.objectArea[v] > 0.0f; };
  for (std::size_t v = 0; v < p.size(); ++v) {
    line[v] = p[v].y;
    if (holds(v) || !adjacency) continue;
    for (std::uint32_t e = cover.objectNeighbourStart[v]; e < cover.objectNeighbourStart[v + 1]; ++e) {
      const std::uint32_t w = cover.objectNeighbours[e];
      if (w < p.size() && holds(w)) line[v] = std::max(line[v], p[w].y);
    }
  }
  return line;
}

}  // namespace

SnowCamera defaultSnowCamera(const SnowCover& cover) {
  glm::vec3 lo, hi;
  coverBounds(cover, lo, hi);
  SnowCamera camera;
  camera.azimuth = 0.785398f;  // rad: from +x +z (south-east)
  camera.elevation = 0.62f;    // rad, about 35 degrees above the horizon
  // The closest eye, looking along the fixed direction, that has the bounds' 8 corners
  // within 90 % of a 4:3 view (a wide flat scene seen from above fills much less than
  // its bounding sphere, and its near corner reaches lower than its far one rises). In
  // the camera's frame (right r, up u, forward f) corner c fits the eye e when
  // |c_r - e_r| <= tanX (c_f - e_f) and |c_u - e_u| <= tanY (c_f - e_f); per image axis
  // the best e_r (e_u) maximizes min_c (c_f - |c_r - e_r| / tanX), a concave function.
  const float aspect = 4.0f / 3.0f, margin = 0.9f;
  const float tanY = std::tan(0.5f * camera.fovY) * margin, tanX = tanY * aspect;
  const glm::vec3 back(std::cos(camera.elevation) * std::sin(camera.azimuth), std::sin(camera.elevation),
                       std::cos(camera.elevation) * std::cos(camera.azimuth));
  const glm::vec3 forward = -back;
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  glm::vec3 corners[8];
  for (int k = 0; k < 8; ++k) {
    const glm::vec3 c((k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z);
    corners[k] = glm::vec3(glm::dot(c, right), glm::dot(c, up), glm::dot(c, forward));
  }
  // Per axis (0: right, 1: up): the best offset across and the furthest-forward eye depth.
  auto bestAlong = [&](int axis, float tangent, float& across) {
    auto depthFor = [&](float e) {
      float depth = std::numeric_limits<float>::max();
      for (const glm::vec3& c : corners) depth = std::min(depth, c.z - std::abs(c[axis] - e) / tangent);
      return depth;
    };
    float a = corners[0][axis], b = a;
    for (const glm::vec3& c : corners) {
      a = std::min(a, c[axis]);
      b = std::max(b, c[axis]);
    }
    for (int i = 0; i < 100; ++i) {
      const float m1 = a + (b - a) / 3.0f, m2 = b - (b - a) / 3.0f;
      (depthFor(m1) < depthFor(m2) ? a : b) = (depthFor(m1) < depthFor(m2) ? m1 : m2);
    }
    across = 0.5f * (a + b);
    return depthFor(across);
  };
  float eyeRight = 0.0f, eyeUp = 0.0f;
  const float eyeForward = std::min(bestAlong(0, tanX, eyeRight), bestAlong(1, tanY, eyeUp));
  const glm::vec3 eye = eyeRight * right + eyeUp * up + eyeForward * forward;
  // The target: on the view axis, level with the bounds' centre along it.
  const float distance = std::max(glm::dot(0.5f * (lo + hi), forward) - eyeForward, 0.05f);
  camera.target = eye + distance * forward;
  camera.distance = distance;
  return camera;
}

SnowSceneView::~SnowSceneView() {
  if (m_sampler != 0) glDeleteSamplers(1, &m_sampler);
}

Result<std::unique_ptr<SnowSceneView>> SnowSceneView::create(const SnowCover& cover) {
  const SnowGrid& grid = cover.grid;
  const std::size_t cells = grid.cellCount();
  if (grid.nx <= 0 || grid.nz <= 0 || !(grid.cell > 0.0f)) return Error{"snow view: the cover's grid is empty"};
  if (cover.ground.size() != cells || cover.groundSnow.size() != cells)
    return Error{"snow view: the cover's ground arrays do not match its grid of " + std::to_string(cells) + " cells"};
  const std::size_t vertices = cover.objects.positions.size();
  if (cover.objectSnow.size() != vertices)
    return Error{"snow view: the cover's object snow does not match its " + std::to_string(vertices) + " vertices"};
  for (std::uint32_t index : cover.objects.indices)
    if (index >= vertices) return Error{"snow view: an object index is out of range"};
  GLint maxTexture = 0, maxBufferTexels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTexture);
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &maxBufferTexels);
  if (grid.nx > maxTexture || grid.nz > maxTexture)
    return Error{"snow view: the grid of " + std::to_string(grid.nx) + " x " + std::to_string(grid.nz) +
                 " cells exceeds the driver's largest texture (" + std::to_string(maxTexture) + "); use larger cells"};
  if (vertices > std::size_t(maxBufferTexels))
    return Error{"snow view: " + std::to_string(vertices) + " object vertices exceed the driver's buffer texture size"};

  const gl::ShaderRegistry& registry = renderShaders();
  auto groundProgram = registry.buildGraphics("snow_ground.vert", "snow_surface.frag");
  if (!groundProgram) return groundProgram.error();
  auto objectProgram = registry.buildGraphics("snow_object.vert", "snow_surface.frag");
  if (!objectProgram) return objectProgram.error();

  std::unique_ptr<SnowSceneView> view(new SnowSceneView());
  view->m_grid = grid;
  view->m_objectVertices = vertices;
  coverBounds(cover, view->m_lo, view->m_hi);
  view->m_groundProgram = std::move(groundProgram).value();
  view->m_objectProgram = std::move(objectProgram).value();

  // The ground grid: the cell centres (exactly SnowGrid::centre, as coveredSceneMesh) and
  // its triangles, two per 2 x 2 block of cells with ground, in coveredSceneMesh's order.
  std::vector<glm::vec2> centres(cells);
  for (int j = 0; j < grid.nz; ++j)
    for (int i = 0; i < grid.nx; ++i) centres[grid.index(i, j)] = grid.centre(i, j);
  std::vector<std::uint32_t> groundIndices;
  for (int j = 0; j + 1 < grid.nz; ++j)
    for (int i = 0; i + 1 < grid.nx; ++i) {
      const std::size_t a = grid.index(i, j), b = grid.index(i + 1, j), c = grid.index(i + 1, j + 1),
                        d = grid.index(i, j + 1);
      if (!cover.hasGround(a) || !cover.hasGround(b) || !cover.hasGround(c) || !cover.hasGround(d)) continue;
      groundIndices.insert(groundIndices.end(), {std::uint32_t(a), std::uint32_t(c), std::uint32_t(b), std::uint32_t(a),
                                                 std::uint32_t(d), std::uint32_t(c)});
    }
  view->m_groundIndexCount = GLsizei(groundIndices.size());
  view->m_groundCentres = gl::createBuffer(std::span<const glm::vec2>(centres), 0);
  if (!groundIndices.empty())
    view->m_groundIndices = gl::createBuffer(std::span<const std::uint32_t>(groundIndices), 0);

  std::vector<float> heights(cover.ground);
  for (float& h : heights)
    if (std::isnan(h)) h = kNoGroundSentinel;
  GLuint textures[4] = {};
  glCreateTextures(GL_TEXTURE_2D, 2, textures);
  glCreateTextures(GL_TEXTURE_BUFFER, 2, textures + 2);
  view->m_groundHeight = gl::Texture(textures[0]);
  view->m_groundSnow = gl::Texture(textures[1]);
  view->m_objectSnowTexture = gl::Texture(textures[2]);
  view->m_externalObjectSnowTexture = gl::Texture(textures[3]);
  for (int t = 0; t < 2; ++t) glTextureStorage2D(textures[t], 1, GL_R32F, grid.nx, grid.nz);
  glTextureSubImage2D(textures[0], 0, 0, 0, grid.nx, grid.nz, GL_RED, GL_FLOAT, heights.data());

  GLuint vaos[2] = {};
  glCreateVertexArrays(2, vaos);
  view->m_groundVao = gl::VertexArray(vaos[0]);
  view->m_objectVao = gl::VertexArray(vaos[1]);
  glEnableVertexArrayAttrib(vaos[0], 0);
  glVertexArrayAttribFormat(vaos[0], 0, 2, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vaos[0], 0, 0);
  glVertexArrayVertexBuffer(vaos[0], 0, view->m_groundCentres.id(), 0, sizeof(glm::vec2));
  if (view->m_groundIndices) glVertexArrayElementBuffer(vaos[0], view->m_groundIndices.id());

  // The objects: positions, normals (the bare mesh's; recomputed when missing), indices.
  TriangleMesh objects = cover.objects;
  if (objects.normals.size() != objects.positions.size()) computeVertexNormals(objects);
  view->m_objectIndexCount = GLsizei(objects.indices.size());
  if (vertices > 0 && !objects.indices.empty()) {
    view->m_objectPositions = gl::createBuffer(std::span<const glm::vec3>(objects.positions), 0);
    view->m_objectNormals = gl::createBuffer(std::span<const glm::vec3>(objects.normals), 0);
    view->m_objectIndices = gl::createBuffer(std::span<const std::uint32_t>(objects.indices), 0);
    const std::vector<float> snowLine = objectSnowLine(cover);
    view->m_objectSnowLine = gl::createBuffer(std::span<const float>(snowLine), 0);
    for (GLuint a = 0; a < 3; ++a) {
      glEnableVertexArrayAttrib(vaos[1], a);
      glVertexArrayAttribFormat(vaos[1], a, a < 2 ? 3 : 1, GL_FLOAT, GL_FALSE, 0);
      glVertexArrayAttribBinding(vaos[1], a, a);
    }
    glVertexArrayVertexBuffer(vaos[1], 0, view->m_objectPositions.id(), 0, sizeof(glm::vec3));
    glVertexArrayVertexBuffer(vaos[1], 1, view->m_objectNormals.id(), 0, sizeof(glm::vec3));
    glVertexArrayVertexBuffer(vaos[1], 2, view->m_objectSnowLine.id(), 0, sizeof(float));
    glVertexArrayElementBuffer(vaos[1], view->m_objectIndices.id());
  } else {
    view->m_objectIndexCount = 0;
  }
  // The snow per object vertex (at least one float: an empty buffer cannot back a texture).
  view->m_objectSnow = gl::createBuffer(std::max<std::size_t>(vertices, 1) * sizeof(float));
  glTextureBuffer(textures[2], GL_R32F, view->m_objectSnow.id());

  // texelFetch ignores filtering, but a texture is complete only with a non-mipmap
  // minification filter (or all its levels): a sampler settles that for the caller's too.
  glCreateSamplers(1, &view->m_sampler);
  glSamplerParameteri(view->m_sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glSamplerParameteri(view->m_sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glSamplerParameteri(view->m_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glSamplerParameteri(view->m_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

  if (Status s = view->setSnow(cover.groundSnow, cover.objectSnow); !s) return s.error();
  if (const GLenum error = glGetError(); error != GL_NO_ERROR)
    return graphicsError("snow view: OpenGL error " + std::to_string(error) + " while uploading the scene");
  return view;
}

Status SnowSceneView::setSnow(std::span<const float> groundSnow, std::span<const float> objectSnow) {
  if (groundSnow.size() != m_grid.cellCount())
    return Error{"snow view: " + std::to_string(groundSnow.size()) + " ground snow depths for " +
                 std::to_string(m_grid.cellCount()) + " cells"};
  if (objectSnow.size() != m_objectVertices)
    return Error{"snow view: " + std::to_string(objectSnow.size()) + " object snow depths for " +
                 std::to_string(m_objectVertices) + " vertices"};
  glTextureSubImage2D(m_groundSnow.id(), 0, 0, 0, m_grid.nx, m_grid.nz, GL_RED, GL_FLOAT, groundSnow.data());
  if (!objectSnow.empty())
    glNamedBufferSubData(m_objectSnow.id(), 0, GLsizeiptr(objectSnow.size_bytes()), objectSnow.data());
  m_externalGroundSnow = 0;
  m_useExternalObjectSnow = false;
  return Status::success();
}

void SnowSceneView::setSnowTextures(GLuint groundSnowTexture, GLuint objectSnowBuffer) {
  m_externalGroundSnow = groundSnowTexture;
  m_useExternalObjectSnow = objectSnowBuffer != 0 && m_objectVertices > 0;
  if (m_useExternalObjectSnow) glTextureBuffer(m_externalObjectSnowTexture.id(), GL_R32F, objectSnowBuffer);
}

void SnowSceneView::draw(const SnowCamera& camera, int width, int height, bool withSnow) const {
  // The caller's textures may have been written by compute shaders (image stores, SSBOs).
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  glViewport(0, 0, width, height);
  glClearColor(kSky[0], kSky[1], kSky[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  const glm::mat4 viewProjection = camera.viewProjection(float(width) / float(std::max(height, 1)));
  const glm::vec3 eye = camera.eye();
  const GLuint units[3] = {0, 1, 2};
  glBindTextureUnit(0, m_groundHeight.id());
  glBindTextureUnit(1, m_externalGroundSnow != 0 ? m_externalGroundSnow : m_groundSnow.id());
  glBindTextureUnit(2, m_useExternalObjectSnow ? m_externalObjectSnowTexture.id() : m_objectSnowTexture.id());
  for (GLuint unit : units) glBindSampler(unit, unit < 2 ? m_sampler : 0);

  // The uniforms both surface programs share (render/shaders/snow_surface.frag and the two vertex shaders).
  const auto useSurfaceProgram = [&](const gl::Program& program, const glm::vec3& colour, const float* ramp,
                                     int isObject) {
    glUseProgram(program.id());
    glUniformMatrix4fv(0, 1, GL_FALSE, glm::value_ptr(viewProjection));
    glUniform3fv(1, 1, glm::value_ptr(colour));
    glUniform3fv(3, 1, glm::value_ptr(eye));
    glUniform2f(4, ramp[0], ramp[1]);
    glUniform1i(5, withSnow ? 1 : 0);
    glUniform1i(8, isObject);
  };
  if (m_groundIndexCount > 0) {
    useSurfaceProgram(m_groundProgram, kGroundColor, kGroundRamp, 0);
    glUniform2i(6, m_grid.nx, m_grid.nz);
    glUniform1f(7, m_grid.cell);
    glBindVertexArray(m_groundVao.id());
    glDrawElements(GL_TRIANGLES, m_groundIndexCount, GL_UNSIGNED_INT, nullptr);
  }
  if (m_objectIndexCount > 0) {
    useSurfaceProgram(m_objectProgram, kObjectColor, kObjectRamp, 1);
    glBindVertexArray(m_objectVao.id());
    glDrawElements(GL_TRIANGLES, m_objectIndexCount, GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
  for (GLuint unit : units) {
    glBindSampler(unit, 0);
    glBindTextureUnit(unit, 0);
  }
}

Result<Image> SnowSceneView::render(const SnowCamera& camera, int width, int height, bool withSnow) {
  if (width <= 0 || height <= 0) return Error{"snow view: the image size must be positive"};
  while (glGetError() != GL_NO_ERROR) {
  }
  if (!m_target || m_target->width() != width || m_target->height() != height) m_target.emplace(width, height);
  m_target->bind();
  draw(camera, width, height, withSnow);
  Image image = m_target->read();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (const GLenum error = glGetError(); error != GL_NO_ERROR)
    return graphicsError("snow view: OpenGL error " + std::to_string(error) + " while rendering");
  return image;
}

}  // namespace hg
