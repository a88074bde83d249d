#include "sim/core/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace hg {

Status writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return outputError("cannot create folder " + path.parent_path().string() + ": " + ec.message());
  }
  std::string temp = path.string() + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) return outputError("cannot write " + path.string() + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      return outputError("cannot write " + path.string() + ": " + why);
    }
    written += std::size_t(n);
  }
  // mkstemp creates 0600; outputs are ordinary files.
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return outputError("cannot write " + path.string() + ": " + why);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return outputError("cannot write " + path.string() + ": " + why);
  }
  return Status::success();
}

Status writeFileAtomically(const std::filesystem::path& path, std::string_view text) {
  return writeFileAtomically(path, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

}  // namespace hg
