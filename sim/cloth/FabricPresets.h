#pragma once
/// Named fabric presets built only from published measurements (scenes/fabrics.json,
/// documented in scenes/fabrics.md). Every number in a preset is traced to a citation;
/// a quantity with no published value is listed under the fabric's "gaps" and is never
/// filled with a guess, so a fabric with a gap in a required quantity does not load.
///
/// Data file schema (all keys other than those listed are rejected):
///   { "fabrics": { "<name>": { "description": "...",
///                              "measured": { "<quantity>": <entry> | [<entry>, ...], ... },
///                              "gaps": ["..."], "notes": ["..."] }, ... },
///     "sources": { "<key>": "<full citation>", ... } }
///   <entry> = { "value": <number>, "unit": "<unit>", "direction": "warp|weft|bias|mean",
///               "source": "<key into sources>", "note": "...", "use": true|false }
/// An entry with "use": false is a published value kept for the record but not used
/// (e.g. a table cell that is implausible); "note" and "use" are optional.
/// For knits, "warp" means the wale (lengthwise) direction and "weft" the course direction.
///
/// Quantities and accepted units (KES-F = Kawabata Evaluation System for Fabrics):
///   weight            W, areal density: "mg/cm^2" (KES), "g/m^2", "kg/m^2"
///   thickness         T: "mm" (recorded, not used by the preset)
///   EMT               KES-FB1 extension at Fm = 500 gf/cm: "%"
///   LT, WT            KES tensile linearity "-" and energy "gf cm/cm^2" (recorded, not used)
///   G                 KES-FB1 shear stiffness: "gf/(cm deg)"
///   B                 KES-FB2 bending rigidity: "gf cm^2/cm"
///   tensile_stiffness model parameter in SI: "N/m" (force per width per unit strain)
///   shear_stiffness   model parameter in SI: "N/m" (per radian of shear angle)
///   bending_stiffness model parameter in SI: "N m" (moment per width per unit curvature)
///   friction          Coulomb coefficient (or KES MIU): "-"
/// A required quantity may come either from its KES form or from its SI form; the SI form
/// wins when both are given. bias-direction entries are accepted and recorded but unused.
///
/// Conversions (1 gf = 9.80665e-3 N, so 1 gf/cm = 0.980665 N/m):
///   arealDensity   = W[mg/cm^2] * 0.01 kg/m^2  (= W[g/m^2] * 1e-3)
///   stretch{Warp,Weft} = Fm / (EMT/100) * 0.980665 N/m, Fm = 500 gf/cm: the secant
///                    (linearised) stiffness of the KES load-extension curve from zero to the
///                    maximum load. (For reference, the standard KES relation between the
///                    tensile values is WT = LT * Fm * (EMT/100) / 2 in gf cm/cm^2, i.e. LT is
///                    the ratio of the measured energy to that of this straight line; LT and
///                    WT are therefore not needed for the secant stiffness.) A "mean" EMT is
///                    used for both directions when no direction-specific value is given.
///   shearStiffness = G[gf/(cm deg)] * 0.980665 * 180/pi N/m per rad, G = mean of the
///                    available warp/weft (or mean) values.
///   bendingRigidity = B[gf cm^2/cm] * 9.80665e-5 N m, B = mean of warp/weft (or mean).
///   stretchBias    : a linear orthotropic membrane with in-plane moduli Ewarp, Eweft (N/m),
///                    shear modulus Gs (N/m per rad, engineering shear strain) and Poisson
///                    ratio 0 has the compliance along the 45-degree bias
///                    1/E45 = (1/4) (1/Ewarp + 1/Eweft + 1/Gs - 2 nu/Ewarp), nu = 0, i.e.
///                    1/E45 = (1/4) (1/Ewarp + 1/Eweft + 1/Gs). Woven fabrics have Gs much
///                    smaller than E, so the bias stretch is dominated by shear. (Poisson's
///                    ratio is not in the KES data; 0 is the assumption, stated here.)
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/Result.h"

namespace hg {

namespace fields {
struct ObjectDoc;
}

/// One fabric in SI units, derived from the measured values in the data file.
struct FabricPreset {
  std::string name, description;
  float arealDensity = 0;            ///< kg/m^2
  float stretchWarp = 0;             ///< N/m: tensile force per unit width per unit strain along warp
  float stretchWeft = 0;             ///< N/m, along weft
  float stretchBias = 0;             ///< N/m, along the 45-degree bias (derived, see the file comment)
  float shearStiffness = 0;          ///< N/m per radian of shear angle
  float bendingRigidity = 0;         ///< N m (bending moment per unit width per unit curvature), mean of warp/weft
  float friction = -1;               ///< Coulomb mu if measured, else -1
  std::vector<std::string> sources;  ///< full citations of every number used
};

/// KES maximum tensile load Fm of the standard KES-FB1 test, gf/cm.
inline constexpr double kKesMaxTensileLoad = 500.0;
/// 1 gf/cm in N/m.
inline constexpr double kGramForcePerCm = 0.980665;
/// 1 gf cm^2/cm (KES bending rigidity) in N m.
inline constexpr double kGramForceCm2PerCm = 9.80665e-5;

/// Loads every preset; error names the file and the problem (missing quantity, bad unit, not JSON).
Result<std::vector<FabricPreset>> loadFabricPresets(const std::filesystem::path& file);

/// One preset by name ("cotton", "denim", "silk", "knit_jersey"); error lists the known names.
Result<FabricPreset> findFabricPreset(const std::filesystem::path& file, const std::string& name);

/// The preset `name` when `file` exists, is JSON and names it under "fabrics" (read once;
/// its error names the file when that preset or the file's keys are malformed); none when the
/// file is missing, is not JSON or does not name it.
std::optional<Result<FabricPreset>> findNamedFabricPreset(const std::filesystem::path& file, const std::string& name);

/// The keys of a fabric presets file, for docs/schema/fabrics.schema.json and the key
/// reference of docs/user-guide.md (apps/tools/write_scene_docs.cpp).
fields::ObjectDoc fabricPresetKeys();

}  // namespace hg
