// The snow display (render/SnowSceneView.h; docs/methods.md section 5): the ground grid and
// the objects displaced by vertex texture fetch land exactly where coveredSceneMesh puts
// them (depth images against the covered mesh drawn as an ordinary mesh), no snow draws
// the bare scene, snow changes the picture, and a caller's textures draw like uploaded snow.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "gl/ShaderRegistry.h"
#include "render/MeshRenderer.h"
#include "render/SnowSceneView.h"
#include "sim/snow/SnowCover.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

constexpr int kWidth = 240, kHeight = 180;

/// A bumpy 2 x 2 m ground (m) and a small flat roof on a post.
SnowScene roofScene() {
  SnowScene scene;
  const int n = 20;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const float x = -1.0f + 2.0f * float(i) / float(n), z = -1.0f + 2.0f * float(j) / float(n);
      scene.ground.positions.emplace_back(x, 0.08f * std::sin(2.0f * x) * std::cos(1.5f * z), z);
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = std::uint32_t(j * (n + 1) + i), b = a + 1, c = a + std::uint32_t(n + 1), d = c + 1;
      scene.ground.indices.insert(scene.ground.indices.end(), {a, c, b, b, c, d});
    }
  scene.objects = makeBox(glm::vec3(-0.45f, 0.50f, -0.35f), glm::vec3(0.35f, 0.56f, 0.30f), 0);
  appendMesh(scene.objects, makeBox(glm::vec3(-0.06f, 0.0f, -0.06f), glm::vec3(0.06f, 0.50f, 0.06f), 0));
  return scene;
}

SnowCover roofCover() {
  SnowSettings settings;
  settings.groundCell = 0.05f;
  auto cover = makeSnowCover(roofScene(), settings);
  EXPECT_TRUE(cover) << (cover ? "" : cover.error().message);
  return cover ? std::move(cover).value() : SnowCover{};
}

/// Uneven snow (m): deeper to the east on the ground, a ridge on the roof, none on walls.
void addSnow(SnowCover& cover) {
  for (int j = 0; j < cover.grid.nz; ++j)
    for (int i = 0; i < cover.grid.nx; ++i) {
      const glm::vec2 c = cover.grid.centre(i, j);
      cover.groundSnow[cover.grid.index(i, j)] =
          0.04f + 0.03f * std::sin(3.0f * c.x) * std::sin(2.0f * c.y) + 0.02f * c.x;
    }
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v)
    cover.objectSnow[v] =
        cover.objectArea[v] > 0.0f ? 0.06f - 0.08f * std::abs(cover.objects.positions[v].x + 0.05f) : 0.0f;
}

/// A single-sampled framebuffer whose depth can be read (window depth in [0, 1]).
class DepthTarget {
 public:
  DepthTarget() {
    GLuint ids[2] = {};
    glCreateRenderbuffers(2, ids);
    m_colour = gl::Renderbuffer(ids[0]);
    m_depth = gl::Renderbuffer(ids[1]);
    glNamedRenderbufferStorage(ids[0], GL_RGBA8, kWidth, kHeight);
    glNamedRenderbufferStorage(ids[1], GL_DEPTH_COMPONENT32F, kWidth, kHeight);
    GLuint fbo = 0;
    glCreateFramebuffers(1, &fbo);
    m_fbo = gl::Framebuffer(fbo);
    glNamedFramebufferRenderbuffer(fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ids[0]);
    glNamedFramebufferRenderbuffer(fbo, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ids[1]);
  }
  void bind() const { glBindFramebuffer(GL_FRAMEBUFFER, m_fbo.id()); }
  std::vector<float> depth() const {
    std::vector<float> d(std::size_t(kWidth) * std::size_t(kHeight));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, kWidth, kHeight, GL_DEPTH_COMPONENT, GL_FLOAT, d.data());
    return d;
  }

 private:
  gl::Renderbuffer m_colour, m_depth;
  gl::Framebuffer m_fbo;
};

struct DepthComparison {
  double covered = 0.0;   ///< fraction of pixels with geometry in the reference
  double matching = 0.0;  ///< fraction of pixels whose depths agree
};

/// The view's depth image against the covered mesh's (MeshRenderer, same camera).
DepthComparison compareWithCoveredMesh(const SnowSceneView& view, const SnowCover& cover, const SnowCamera& camera) {
  DepthTarget target;
  target.bind();
  view.draw(camera, kWidth, kHeight, /*withSnow=*/true);
  const std::vector<float> displaced = target.depth();
  TriangleMesh mesh = coveredSceneMesh(cover);
  computeVertexNormals(mesh);
  auto renderer = MeshRenderer::create(renderShaders());
  EXPECT_TRUE(renderer) << (renderer ? "" : renderer.error().message);
  if (!renderer) return {};
  const DrawItem item{&mesh, glm::vec3(0.5f), glm::vec3(0.5f), false};
  target.bind();
  renderer->draw(std::span<const DrawItem>(&item, 1), camera, kWidth, kHeight);
  const std::vector<float> reference = target.depth();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  std::size_t covered = 0, matching = 0;
  for (std::size_t p = 0; p < reference.size(); ++p) {
    covered += reference[p] < 1.0f;
    matching += std::abs(displaced[p] - reference[p]) <= 1e-5f;
  }
  return {double(covered) / double(reference.size()), double(matching) / double(reference.size())};
}

std::size_t differingPixels(const Image& a, const Image& b) {
  std::size_t count = 0;
  for (std::size_t p = 0; p + 3 < a.rgba.size(); p += 4)
    for (int k = 0; k < 3; ++k)
      if (std::abs(int(a.rgba[p + std::size_t(k)]) - int(b.rgba[p + std::size_t(k)])) > 2) {
        ++count;
        break;
      }
  return count;
}

std::size_t whitePixels(const Image& image) {
  std::size_t count = 0;
  for (std::size_t p = 0; p + 3 < image.rgba.size(); p += 4)
    count += image.rgba[p] > 200 && image.rgba[p + 1] > 200 && image.rgba[p + 2] > 200;
  return count;
}

class SnowRenderGLTest : public test::GlTest {};

TEST_F(SnowRenderGLTest, DisplacedGroundAndObjectsMatchTheCoveredMesh) {
  SnowCover cover = roofCover();
  ASSERT_GT(cover.grid.cellCount(), 0u);
  ASSERT_FALSE(cover.objects.positions.empty());
  addSnow(cover);
  auto view = SnowSceneView::create(cover);
  ASSERT_TRUE(view) << view.error().message;
  for (const SnowCamera& camera :
       {defaultSnowCamera(cover), snowCameraLookingAt(glm::vec3(-1.6f, 1.2f, 2.0f), glm::vec3(0.0f, 0.3f, 0.0f)),
        snowCameraLookingAt(glm::vec3(0.3f, 3.0f, 0.4f), glm::vec3(0.0f, 0.0f, 0.0f))}) {
    const DepthComparison c = compareWithCoveredMesh(**view, cover, camera);
    EXPECT_GT(c.covered, 0.2);
    EXPECT_GE(c.matching, 0.99);
  }
  // Without snow the bare scene: the cover's snow set to zero and drawn again.
  std::fill(cover.groundSnow.begin(), cover.groundSnow.end(), 0.0f);
  std::fill(cover.objectSnow.begin(), cover.objectSnow.end(), 0.0f);
  ASSERT_TRUE((*view)->setSnow(cover.groundSnow, cover.objectSnow));
  const DepthComparison bare = compareWithCoveredMesh(**view, cover, defaultSnowCamera(cover));
  EXPECT_GE(bare.matching, 0.99);
}

TEST_F(SnowRenderGLTest, NoSnowDrawsTheBareSceneAndSnowChangesIt) {
  SnowCover cover = roofCover();
  auto view = SnowSceneView::create(cover);
  ASSERT_TRUE(view) << view.error().message;
  const SnowCamera camera = defaultSnowCamera(cover);
  auto before = (*view)->render(camera, kWidth, kHeight, /*withSnow=*/false);
  ASSERT_TRUE(before) << before.error().message;
  auto afterNone = (*view)->render(camera, kWidth, kHeight, /*withSnow=*/true);
  ASSERT_TRUE(afterNone) << afterNone.error().message;
  EXPECT_EQ(before->rgba, afterNone->rgba);  // snow = 0 everywhere: identical pictures
  EXPECT_EQ(whitePixels(*before), 0u);
  // The sky's colour in the top-left corner, the scene in the middle.
  EXPECT_NEAR(before->pixel(1, 1)[2], 230, 3);
  EXPECT_LT(before->pixel(kWidth / 2, kHeight / 2)[2], 150);

  addSnow(cover);
  ASSERT_TRUE((*view)->setSnow(cover.groundSnow, cover.objectSnow));
  auto after = (*view)->render(camera, kWidth, kHeight, /*withSnow=*/true);
  ASSERT_TRUE(after) << after.error().message;
  const double pixels = double(kWidth * kHeight);
  EXPECT_GT(double(differingPixels(*before, *after)) / pixels, 0.2);
  EXPECT_GT(double(whitePixels(*after)) / pixels, 0.15);
  // withSnow = false still draws the bare scene, whatever snow is loaded.
  auto bareAgain = (*view)->render(camera, kWidth, kHeight, /*withSnow=*/false);
  ASSERT_TRUE(bareAgain);
  EXPECT_EQ(before->rgba, bareAgain->rgba);
}

TEST_F(SnowRenderGLTest, CallersTexturesDrawLikeUploadedSnow) {
  SnowCover cover = roofCover();
  addSnow(cover);
  auto view = SnowSceneView::create(cover);
  ASSERT_TRUE(view) << view.error().message;
  const SnowCamera camera = defaultSnowCamera(cover);
  auto uploaded = (*view)->render(camera, kWidth, kHeight, true);
  ASSERT_TRUE(uploaded);
  // A GPU solver's state: an R32F texture (mipmapped filter left at its default) and a buffer.
  GLuint texture = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &texture);
  const gl::Texture groundSnow(texture);
  glTextureStorage2D(texture, 1, GL_R32F, cover.grid.nx, cover.grid.nz);
  glTextureSubImage2D(texture, 0, 0, 0, cover.grid.nx, cover.grid.nz, GL_RED, GL_FLOAT, cover.groundSnow.data());
  const gl::Buffer objectSnow = gl::createBuffer(std::span<const float>(cover.objectSnow));
  // The view's own snow cleared first, so that only the caller's can draw the snow.
  ASSERT_TRUE((*view)->setSnow(std::vector<float>(cover.groundSnow.size(), 0.0f),
                               std::vector<float>(cover.objectSnow.size(), 0.0f)));
  (*view)->setSnowTextures(groundSnow.id(), objectSnow.id());
  auto external = (*view)->render(camera, kWidth, kHeight, true);
  ASSERT_TRUE(external) << external.error().message;
  EXPECT_EQ(uploaded->rgba, external->rgba);
}

TEST_F(SnowRenderGLTest, MismatchedSnowIsAnError) {
  SnowCover cover = roofCover();
  auto view = SnowSceneView::create(cover);
  ASSERT_TRUE(view) << view.error().message;
  const Status s = (*view)->setSnow(std::vector<float>(3, 0.0f), cover.objectSnow);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("cells"), std::string::npos);
  SnowCover broken = cover;
  broken.objectSnow.pop_back();
  EXPECT_FALSE(SnowSceneView::create(broken));
}

}  // namespace
}  // namespace hg
