#include "sim/cloth/FabricLibrary.h"

#include <cmath>
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

/// A positive finite number at `key` of `object`; the error names `where`.key.
Result<double> positiveNumber(const json& object, const std::string& key, const std::string& where) {
  if (!object.contains(key) || !object[key].is_number()) return Error{where + "." + key + " must be a number"};
  const double value = object[key].get<double>();
  if (!(value > 0.0) || !std::isfinite(value) || value > 1e9)
    return Error{where + "." + key + " = " + object[key].dump() + " must be a positive number"};
  return value;
}

/// {"warp": w, "weft": f, "bias": b} of positive numbers, no other key.
Result<glm::dvec3> directions(const json& object, const std::string& key, const std::string& where, const char* first,
                              const char* second, const char* third) {
  if (!object.contains(key) || !object[key].is_object())
    return Error{where + "." + key + " must be an object {\"" + first + "\", \"" + second + "\", \"" + third + "\"}"};
  const json& value = object[key];
  for (const auto& [name, item] : value.items())
    if (name != first && name != second && name != third)
      return Error{where + "." + key + ": unknown key '" + name + "'"};
  glm::dvec3 result(0.0);
  const char* names[3] = {first, second, third};
  for (int k = 0; k < 3; ++k) {
    auto number = positiveNumber(value, names[k], where + "." + key);
    if (!number) return number.error();
    result[k] = *number;
  }
  return result;
}

/// A library entry's "mesh_correction" (MeshCorrection): {"edge_length_mm": 10,
/// "modulus": {"warp", "weft", "bias"}, "modulus_at_one_sixth_strain": {...}, "how": "..."},
/// the factors within [kMeshCorrectionMin, kMeshCorrectionMax].
Result<MeshCorrection> meshCorrection(const json& object, const std::string& where) {
  if (!object.is_object()) return Error{where + " must be an object"};
  for (const auto& [key, value] : object.items())
    if (key != "edge_length_mm" && key != "modulus" && key != "modulus_at_one_sixth_strain" && key != "how")
      return Error{where + ": unknown key '" + key + "' (edge_length_mm, modulus, modulus_at_one_sixth_strain, how)"};
  if (object.contains("how") && !object["how"].is_string()) return Error{where + ".how must be text"};
  MeshCorrection correction;
  auto edge = positiveNumber(object, "edge_length_mm", where);
  if (!edge) return edge.error();
  correction.edgeLength = *edge * 1e-3;
  const auto factorsAt = [&](const char* key) -> Result<glm::dvec3> {
    auto factors = directions(object, key, where, "warp", "weft", "bias");
    if (!factors) return factors.error();
    for (int k = 0; k < 3; ++k)
      if (!((*factors)[k] >= kMeshCorrectionMin && (*factors)[k] <= kMeshCorrectionMax))
        return Error{where + "." + key + ": the factors must lie within [" + std::to_string(kMeshCorrectionMin) + ", " +
                     std::to_string(kMeshCorrectionMax) + "]"};
    return *factors;
  };
  auto modulus = factorsAt("modulus");
  if (!modulus) return modulus.error();
  correction.modulus = *modulus;
  auto strained = factorsAt("modulus_at_one_sixth_strain");
  if (!strained) return strained.error();
  correction.strainedModulus = *strained;
  return correction;
}

/// The object's "mesh_correction", if it has one, into `fabric`.
Status readMeshCorrection(const json& object, const std::string& where, PhysicalFabric& fabric) {
  if (!object.contains("mesh_correction")) return {};
  auto correction = meshCorrection(object["mesh_correction"], where + ".mesh_correction");
  if (!correction) return correction.error();
  fabric.meshCorrection = *correction;
  return {};
}

/// A fabric in physical units (a library entry's "calibrated" object, or a fabric file, which
/// may also say what it is: `withText` allows "description" and "source" text).
Result<PhysicalFabric> calibratedFabric(const json& calibrated, const std::string& where, bool withText = false) {
  if (!calibrated.is_object()) return Error{where + " must be an object"};
  for (const auto& [key, value] : calibrated.items()) {
    if (withText && (key == "description" || key == "source")) {
      if (!value.is_string()) return Error{where + "." + key + " must be text"};
      continue;
    }
    if (withText && key == "mesh_correction") continue;  // a fabric file's own (below)
    if (key != "areal_density_g_m2" && key != "modulus_N_m" && key != "modulus_at_one_sixth_strain_N_m" &&
        key != "bending_N_m")
      return Error{where + ": unknown key '" + key +
                   "' (areal_density_g_m2, modulus_N_m, modulus_at_one_sixth_strain_N_m, bending_N_m" +
                   (withText ? ", description, source, mesh_correction)" : ")")};
  }
  PhysicalFabric fabric;
  auto density = positiveNumber(calibrated, "areal_density_g_m2", where);
  if (!density) return density.error();
  fabric.density = *density * 1e-3;
  auto moduli = directions(calibrated, "modulus_N_m", where, "warp", "weft", "bias");
  if (!moduli) return moduli.error();
  fabric.moduli = {moduli->x, moduli->y, moduli->z};
  if (calibrated.contains("modulus_at_one_sixth_strain_N_m")) {
    auto strained = directions(calibrated, "modulus_at_one_sixth_strain_N_m", where, "warp", "weft", "bias");
    if (!strained) return strained.error();
    fabric.strainedModuli = MembraneModuli{strained->x, strained->y, strained->z};
  }
  auto bending = directions(calibrated, "bending_N_m", where, "warp", "bias", "weft");
  if (!bending) return bending.error();
  fabric.bendingRigidity = *bending;
  if (withText)
    if (Status s = readMeshCorrection(calibrated, where, fabric); !s) return s.error();
  return fabric;
}

Result<LibraryFabric> libraryEntry(const std::filesystem::path& directory, const std::string& name, const json& entry) {
  const std::string where = (directory / "library.json").string() + ": fabrics." + name;
  if (!entry.is_object()) return Error{where + " must be an object"};
  const bool measured = entry.contains("file"), calibrated = entry.contains("calibrated");
  if (measured == calibrated)
    return Error{where + " needs either 'file' (measured data) or 'calibrated' (physical units), not both"};
  for (const auto& [key, value] : entry.items())
    if (key != "file" && key != "description" && key != "calibrated" && key != "source" &&
        key != "drape_coefficient_band" && key != "mesh_correction")
      return Error{where + ": unknown key '" + key + "'"};
  LibraryFabric fabric;
  fabric.name = name;
  for (const char* key : {"description", "source"})
    if (entry.contains(key) && !entry[key].is_string()) return Error{where + "." + key + " must be text"};
  fabric.description = entry.value("description", std::string());
  fabric.source = entry.value("source", std::string());
  if (entry.contains("drape_coefficient_band")) {
    const json& band = entry["drape_coefficient_band"];
    if (!band.is_array() || band.size() != 2 || !band[0].is_number() || !band[1].is_number() ||
        !(band[0].get<double>() >= 0.0 && band[0].get<double>() < band[1].get<double>() &&
          band[1].get<double>() <= 100.0))
      return Error{where + ".drape_coefficient_band must be [low, high] percent, 0 <= low < high <= 100"};
    fabric.drapeBand = glm::dvec2(band[0].get<double>(), band[1].get<double>());
  }
  if (calibrated) {
    auto physical = calibratedFabric(entry["calibrated"], where + ".calibrated");
    if (!physical) return physical.error();
    if (fabric.source.empty()) return Error{where + ".source must cite what the calibration follows"};
    fabric.physical = *physical;
    if (Status s = readMeshCorrection(entry, where, fabric.physical); !s) return s.error();
    return fabric;
  }
  if (!entry["file"].is_string()) return Error{where + ".file must name the measured data"};
  fabric.file = directory / entry["file"].get<std::string>();
  auto data = loadMeasuredFabric(fabric.file);
  if (!data) return data.error().prefixed(where + ": ");
  fabric.measured = std::move(data).value();
  fabric.physical = physicalFabricOf(*fabric.measured);
  if (Status s = readMeshCorrection(entry, where, fabric.physical); !s) return s.error();
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
    if (fabric->source.empty()) fabric->source = root->value("source", std::string());
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
  auto fabric = libraryEntry(directory, name, fabrics[name]);
  if (fabric && fabric->source.empty()) fabric->source = root->value("source", std::string());
  return fabric;
}

Result<PhysicalFabric> loadPhysicalFabric(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Error{file.string() + ": cannot open the fabric file"};
  json root;
  try {
    root = json::parse(in);
  } catch (const json::exception& e) {
    return Error{file.string() + ": not JSON (" + e.what() + ")"};
  }
  return calibratedFabric(root, file.string() + ": fabric", true);
}

nlohmann::json meshCorrectionJson(const MeshCorrection& correction) {
  const auto factors = [](const glm::dvec3& f) {
    const auto round3 = [](double x) { return std::round(x * 1000.0) / 1000.0; };
    return json{{"warp", round3(f.x)}, {"weft", round3(f.y)}, {"bias", round3(f.z)}};
  };
  return {{"edge_length_mm", std::round(1e6 * correction.edgeLength) / 1e3},
          {"modulus", factors(correction.modulus)},
          {"modulus_at_one_sixth_strain", factors(correction.strainedModulus)}};
}

Result<std::string> fabricLibrarySource(const std::filesystem::path& directory) {
  auto root = readLibrary(directory);
  if (!root) return root.error();
  return root->value("source", std::string());
}

}  // namespace hg
