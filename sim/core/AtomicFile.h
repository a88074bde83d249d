#pragma once
/// Output files are written atomically: to a temporary file in the same folder,
/// flushed, then renamed over the target. A crash or a failed write never leaves a
/// half-written file, and an existing file is only replaced by a complete one.
#include <filesystem>
#include <span>
#include <string_view>

#include "sim/core/Result.h"

namespace hg {

/// Writes `bytes` to `path` atomically, creating parent folders. Error names the path.
Status writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes);
Status writeFileAtomically(const std::filesystem::path& path, std::string_view text);

}  // namespace hg
