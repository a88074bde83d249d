#include "sim/cloth/FabricLibrary.h"

#include <cstdlib>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace hg {
namespace {

using json = nlohmann::json;

Result<json> readLibrary(const std::filesystem::path& directory) {
  const std::filesystem::path file = directory / "library.json";
  std::ifstream in(file);
  if (!in) return Error{file.string() + ": cannot be read (the fabric library; set HG_FABRICS_DIR to its folder)"};
  try {
    json root = json::parse(in);
    if (!root.is_object() || !root.contains("fabrics") || !root["fabrics"].is_object())
      return Error{file.string() + ": 'fabrics' must be an object of named presets"};
    return root;
  } catch (const json::exception& e) {
    return Error{file.string() + ": not JSON (" + e.what() + ")"};
  }
}

Result<LibraryFabric> libraryEntry(const std::filesystem::path& directory, const std::string& name, const json& entry) {
  const std::string where = (directory / "library.json").string() + ": fabrics." + name;
  if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string())
    return Error{where + ".file must name the measured data"};
  for (const auto& [key, value] : entry.items())
    if (key != "file" && key != "description") return Error{where + ": unknown key '" + key + "'"};
  LibraryFabric fabric;
  fabric.name = name;
  fabric.file = directory / entry["file"].get<std::string>();
  if (entry.contains("description")) {
    if (!entry["description"].is_string()) return Error{where + ".description must be text"};
    fabric.description = entry["description"].get<std::string>();
  }
  auto measured = loadMeasuredFabric(fabric.file);
  if (!measured) return measured.error().prefixed(where + ": ");
  fabric.measured = std::move(measured).value();
  return fabric;
}

}  // namespace

std::filesystem::path fabricLibraryDirectory() {
  if (const char* dir = std::getenv("HG_FABRICS_DIR"); dir && *dir) return dir;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = executable.parent_path().parent_path() / "share/hagoromo/fabrics";
    if (std::filesystem::exists(installed / "library.json", error)) return installed;
  }
  return HG_FABRIC_LIBRARY_DIR;
}

Result<std::vector<LibraryFabric>> loadFabricLibrary(const std::filesystem::path& directory) {
  auto root = readLibrary(directory);
  if (!root) return root.error();
  std::vector<LibraryFabric> fabrics;
  for (const auto& [name, entry] : (*root)["fabrics"].items()) {
    auto fabric = libraryEntry(directory, name, entry);
    if (!fabric) return fabric.error();
    fabrics.push_back(std::move(fabric).value());
  }
  return fabrics;
}

Result<LibraryFabric> findLibraryFabric(const std::filesystem::path& directory, const std::string& name) {
  auto root = readLibrary(directory);
  if (!root) return root.error();
  const json& fabrics = (*root)["fabrics"];
  if (!fabrics.contains(name)) {
    std::string known;
    for (const auto& [key, value] : fabrics.items()) known += (known.empty() ? "" : ", ") + key;
    return Error{"no fabric '" + name + "' in " + (directory / "library.json").string() + " (it has " + known + ")"};
  }
  return libraryEntry(directory, name, fabrics[name]);
}

Result<std::string> fabricLibrarySource(const std::filesystem::path& directory) {
  auto root = readLibrary(directory);
  if (!root) return root.error();
  return root->value("source", std::string());
}

}  // namespace hg
