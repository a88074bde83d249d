#include "render/Image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include "sim/core/AtomicFile.h"

namespace hg {

Status writePng(const Image& image, const std::filesystem::path& path) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != std::size_t(image.width) * std::size_t(image.height) * 4)
    return outputError("cannot write " + path.string() + ": image has no pixels or a wrong size");
  std::vector<std::byte> bytes;
  auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::byte>*>(context);
    const auto* begin = static_cast<const std::byte*>(data);
    out->insert(out->end(), begin, begin + size);
  };
  if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 4, image.rgba.data(), image.width * 4))
    return outputError("cannot encode " + path.string() + " as PNG");
  return writeFileAtomically(path, bytes);
}

Result<Image> readPng(const std::filesystem::path& path) {
  int width = 0, height = 0, channels = 0;
  stbi_uc* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
  if (data == nullptr) return Error{path.string() + ": cannot read PNG (" + stbi_failure_reason() + ")"};
  Image image{width, height, std::vector<std::uint8_t>(data, data + std::size_t(width) * std::size_t(height) * 4)};
  stbi_image_free(data);
  return image;
}

}  // namespace hg
