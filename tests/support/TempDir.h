#pragma once
// A fresh, empty folder under the system temp folder for one test, removed when the test
// passes (kept for inspection when it fails).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

namespace hg::test {

class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : m_path(std::filesystem::temp_directory_path() / ("hg_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(m_path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  operator const std::filesystem::path&() const { return m_path; }
  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

 private:
  std::filesystem::path m_path;
};

}  // namespace hg::test
