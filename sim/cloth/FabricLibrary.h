#pragma once
/// The fabric library shipped with hagoromo (data/fabrics/library.json): named presets of
/// measured cloth (sim/cloth/MeasuredFabric.h), each a file beside the library, and of cloth
/// calibrated, not measured, to a published drape-coefficient band, given in physical units;
/// found without a copy next to the scene.
///
/// An entry is either {"file": "wang2011/x.json", "description": "..."} (measured) or
///   {"calibrated": {"areal_density_g_m2": 70,
///                   "modulus_N_m": {"warp": 500, "weft": 400, "bias": 150},
///                   "bending_N_m": {"warp": 2e-6, "bias": 2e-6, "weft": 2e-6}},
///                   (and optionally "modulus_at_one_sixth_strain_N_m", for strain stiffening)
///    "drape_coefficient_band": [20, 40], "source": "...", "description": "..."}
/// with the moduli those of a strip pulled along warp, weft and bias with its sides free
/// (tension per width per unit strain, N/m) and the bending rigidities those of folds along
/// them (moment per width per curvature, N m). Either may carry a "mesh_correction"
///   {"edge_length_mm": 10, "modulus": {"warp": 1.3, "weft": 1.0, "bias": 1.0},
///    "modulus_at_one_sixth_strain": {...}, "how": "..."}
/// (MeshCorrection, sim/cloth/FabricMapping.h: written by `hagoromo fabric-test PRESET
/// --calibrate-mesh`).
#include <filesystem>
#include <string>
#include <vector>

#include <optional>

#include <glm/vec2.hpp>
#include <nlohmann/json_fwd.hpp>

#include "sim/cloth/FabricMapping.h"
#include "sim/cloth/MeasuredFabric.h"
#include "sim/core/Result.h"

namespace hg {

struct LibraryFabric {
  std::string name, description;
  std::filesystem::path file;              ///< the measured data (empty when calibrated)
  std::optional<MeasuredFabric> measured;  ///< none: calibrated, not measured
  PhysicalFabric physical;                 ///< what the cloth model is fitted to
  std::string source;                      ///< a calibrated fabric's sources (else the library's)
  std::optional<glm::dvec2> drapeBand;     ///< percent: the band a calibrated fabric was set to
};

/// Where the library is: $HG_FABRICS_DIR when set; else share/hagoromo/fabrics beside the
/// running executable's bin/ (an installed hagoromo); else the source tree's data/fabrics
/// (a build that was not installed).
std::filesystem::path fabricLibraryDirectory();

/// Every fabric of `directory`/library.json with its data; errors name the file and the key.
Result<std::vector<LibraryFabric>> loadFabricLibrary(const std::filesystem::path& directory);

/// One fabric by name; the error lists the names there are.
Result<LibraryFabric> findLibraryFabric(const std::filesystem::path& directory, const std::string& name);

/// A fabric of the user's in physical units, one per file (what `cloth.fabric` or a
/// garment's `fabric` names when it ends in `.json`):
///   {"areal_density_g_m2": 120, "modulus_N_m": {"warp": 800, "weft": 600, "bias": 300},
///    "modulus_at_one_sixth_strain_N_m": {"warp": 1200, ...},      (optional: stiffening)
///    "bending_N_m": {"warp": 5e-6, "bias": 4e-6, "weft": 3e-6},
///    "description": "...", "source": "...",                       (optional)
///    "mesh_correction": {...}}                                    (optional, as a library entry's)
/// the keys as a library's "calibrated" entry. Errors name the file and the key.
Result<PhysicalFabric> loadPhysicalFabric(const std::filesystem::path& file);
/// Whether a fabric name names such a file (it ends in .json) rather than a preset.
inline bool namesFabricFile(const std::string& name) { return name.size() > 5 && name.ends_with(".json"); }

/// A mesh correction as a library entry or a fabric file holds it (what "mesh_correction"
/// is read from): {"edge_length_mm", "modulus", "modulus_at_one_sixth_strain"}, the factors
/// to 3 decimals.
nlohmann::json meshCorrectionJson(const MeshCorrection& correction);

/// The library's source (its "source" text: the citation every preset uses).
Result<std::string> fabricLibrarySource(const std::filesystem::path& directory);

}  // namespace hg
