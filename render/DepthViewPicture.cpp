#include "render/DepthViewPicture.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace hg {
namespace {

constexpr int kGap = 8;  // pixels between tiles
constexpr std::uint8_t kPaper[3] = {236, 239, 244};
constexpr std::uint8_t kEmpty[3] = {38, 40, 48};

}  // namespace

Image depthViewsPicture(const DepthViewImages& images, int tileHeight) {
  const std::vector<kernels::DepthView>& views = images.setup.views;
  Image picture;
  if (views.empty()) return picture;
  float tallest = 1.0f;
  for (const kernels::DepthView& v : views) tallest = std::max(tallest, v.up.w);
  const float scale = float(std::max(tileHeight, 8)) / tallest;  // pixels per texel
  std::vector<int> widths, heights, columns;
  int width = kGap, height = kGap;
  for (const kernels::DepthView& v : views) {
    columns.push_back(width);
    widths.push_back(std::max(1, int(std::ceil(v.right.w * scale))));
    heights.push_back(std::max(1, int(std::ceil(v.up.w * scale))));
    width += widths.back() + kGap;
  }
  const int rowHeight = *std::max_element(heights.begin(), heights.end()) + kGap;
  const int layers = std::max(images.setup.layers, 1);
  height += layers * rowHeight;
  picture.width = width;
  picture.height = height;
  picture.rgba.assign(std::size_t(width) * std::size_t(height) * 4, 255);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) std::copy(kPaper, kPaper + 3, picture.pixel(x, y));
  const glm::vec3 nearColour(1.0f, 0.72f, 0.42f), farColour(0.30f, 0.52f, 1.0f);
  for (std::size_t v = 0; v < views.size(); ++v) {
    const kernels::DepthView& view = views[v];
    const int w = int(view.right.w), h = int(view.up.w);
    const glm::vec3 forward(view.forward);
    for (int k = 0; k < layers; ++k) {
      const int top = kGap + k * rowHeight;
      for (int py = 0; py < heights[v]; ++py)
        for (int px = 0; px < widths[v]; ++px) {
          const int i = std::min(w - 1, int(float(px) / scale));
          const int j = std::min(h - 1, int(float(heights[v] - 1 - py) / scale));  // image v points up
          const std::size_t texel = view.texels.x + std::size_t(k) * std::size_t(w) * std::size_t(h) +
                                    std::size_t(j) * std::size_t(w) + std::size_t(i);
          std::uint8_t* out = picture.pixel(columns[v] + px, top + py);
          const glm::vec4 nd = images.normalDepth[texel];
          if (nd.w >= HG_NO_SURFACE_DEPTH) {
            std::copy(kEmpty, kEmpty + 3, out);
            continue;
          }
          const float t = glm::clamp(nd.w / std::max(view.forward.w, 1e-6f), 0.0f, 1.0f);
          const float facing = std::abs(glm::dot(glm::vec3(nd), forward));
          const glm::vec3 c = glm::mix(nearColour, farColour, t) * (0.35f + 0.65f * facing);
          for (int ch = 0; ch < 3; ++ch) out[ch] = std::uint8_t(std::lround(255.0f * glm::clamp(c[ch], 0.0f, 1.0f)));
        }
    }
  }
  return picture;
}

}  // namespace hg
