#pragma once
/// 8-bit RGBA images (row 0 at the top) and PNG output.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "sim/core/Result.h"

namespace hg {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  ///< width * height * 4, top row first

  std::uint8_t* pixel(int x, int y) { return &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4]; }
  const std::uint8_t* pixel(int x, int y) const {
    return &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4];
  }
};

/// Encodes and writes a PNG atomically (temporary file + rename).
Status writePng(const Image& image, const std::filesystem::path& path);
/// Reads a PNG (any channel count, converted to RGBA); error names the file.
Result<Image> readPng(const std::filesystem::path& path);

}  // namespace hg
