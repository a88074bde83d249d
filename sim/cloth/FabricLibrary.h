#pragma once
/// The fabric library shipped with hagoromo (data/fabrics/library.json): named presets of
/// measured cloth (sim/cloth/MeasuredFabric.h), each a file beside the library, found
/// without a copy next to the scene.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/cloth/MeasuredFabric.h"
#include "sim/core/Result.h"

namespace hg {

struct LibraryFabric {
  std::string name, description;
  std::filesystem::path file;  ///< the measured data
  MeasuredFabric measured;
};

/// Where the library is: $HG_FABRICS_DIR when set; else share/hagoromo/fabrics beside the
/// running executable's bin/ (an installed hagoromo); else the source tree's data/fabrics
/// (a build that was not installed).
std::filesystem::path fabricLibraryDirectory();

/// Every fabric of `directory`/library.json with its data; errors name the file and the key.
Result<std::vector<LibraryFabric>> loadFabricLibrary(const std::filesystem::path& directory);

/// One fabric by name; the error lists the names there are.
Result<LibraryFabric> findLibraryFabric(const std::filesystem::path& directory, const std::string& name);

/// The library's source (its "source" text: the citation every preset uses).
Result<std::string> fabricLibrarySource(const std::filesystem::path& directory);

}  // namespace hg
