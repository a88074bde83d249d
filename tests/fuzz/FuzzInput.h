#pragma once
// Helpers of the fuzz harnesses (tests/fuzz/README.md): loaders that take a path get the
// input as a file in a per-process scratch folder.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace hg::fuzz {

/// `data` written to a scratch file named `name` (the extension picks the format for
/// loaders that go by it); the same path every call of a process.
inline std::filesystem::path asFile(const std::uint8_t* data, std::size_t size, const std::string& name) {
  static const std::filesystem::path dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path d =
        std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / ("hg_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const std::filesystem::path path = dir / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

inline std::string asText(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace hg::fuzz
