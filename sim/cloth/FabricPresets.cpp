#include "sim/cloth/FabricPresets.h"

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "sim/io/FieldTable.h"

namespace hg {
namespace {

using namespace fields;

/// Thrown inside the loader only; converted to an Error (prefixed with the file) at the boundary.
struct FabricError {
  std::string message;
};

/// One published value of one quantity.
struct Entry {
  double value = 0;
  std::string unit, direction, source, note;
  bool use = true;
  std::string where;  ///< its name in errors ("fabric 'denim'.measured.EMT[0]")
};

/// A fabric as written (the measured entries are checked against their quantity and the
/// sources after the walk: checkEntry).
struct FabricBlock {
  std::string description;
  std::map<std::string, std::vector<Entry>> measured;  ///< quantity -> entries
  std::vector<std::string> gaps, notes;
};

/// The file as written: each fabric kept as JSON until it is built (one broken fabric does not
/// hide the others).
struct PresetFile {
  std::map<std::string, json> fabrics;
  std::map<std::string, std::string> sources;  ///< key -> full citation
};

/// Accepted unit spellings of each quantity and their factor to the SI unit the loader uses.
/// (thickness, LT and WT are recorded but not converted into a preset field.)
const std::map<std::string, std::map<std::string, double>>& knownUnits() {
  static const std::map<std::string, std::map<std::string, double>> units = {
      {"weight", {{"mg/cm^2", 0.01}, {"g/m^2", 1e-3}, {"kg/m^2", 1.0}}},  // -> kg/m^2
      {"thickness", {{"mm", 1.0}}},
      {"EMT", {{"%", 1.0}}},
      {"LT", {{"-", 1.0}}},
      {"WT", {{"gf cm/cm^2", 1.0}}},
      {"G", {{"gf/(cm deg)", kGramForcePerCm * 180.0 / std::numbers::pi}}},  // -> N/m per rad
      {"B", {{"gf cm^2/cm", kGramForceCm2PerCm}}},                           // -> N m
      {"tensile_stiffness", {{"N/m", 1.0}}},
      {"shear_stiffness", {{"N/m", 1.0}}},
      {"bending_stiffness", {{"N m", 1.0}}},
      {"friction", {{"-", 1.0}}},
  };
  return units;
}

template <class Map>
std::string joinMapKeys(const Map& map) {
  std::string list;
  for (const auto& [key, value] : map) list += (list.empty() ? "" : ", ") + key;
  return list;
}

Table<FabricBlock> fabricKeys() {
  Table<Entry> entry("A published value");
  entry.add("value", &Entry::value, real(), "", "The value, in `unit`").required();
  entry.add("unit", &Entry::unit, text(true), "", "One of the units accepted for the quantity").required();
  entry
      .add("direction", &Entry::direction,
           choice<std::string>({{"warp", "warp"}, {"weft", "weft"}, {"bias", "bias"}, {"mean", "mean"}},
                               [](std::string_view d) -> Result<std::string> {
                                 if (d == "warp" || d == "weft" || d == "bias" || d == "mean") return std::string(d);
                                 return Error{"bad direction '" + std::string(d) +
                                              "' (accepted: bias, mean, warp, weft)"};
                               }),
           "", "Along the warp (knits: wale), the weft (course), the bias, or a mean")
      .required();
  entry.add("source", &Entry::source, text(true), "", "A key of \"sources\"").required();
  entry.add("note", &Entry::note, text(), "", "A remark");
  entry.add("use", &Entry::use, boolean(), "", "false: kept for the record but not used");
  entry.check([](Entry& e, const json&, const std::string& where) { e.where = where; });
  std::vector<std::string> quantities;
  for (const auto& [quantity, units] : knownUnits()) quantities.push_back(quantity);
  Table<FabricBlock> t("A fabric: its published measurements, each traced to a source (scenes/fabrics.md)");
  t.add("description", &FabricBlock::description, text(true), "", "What the fabric is").required();
  t.add("measured", &FabricBlock::measured,
        map(oneOrList(object(entry)), {.keys = quantities, .noun = "quantity", .placeholder = "<quantity>"}), "",
        "Published values by quantity (sim/cloth/FabricPresets.h lists the units)")
      .required();
  t.add("gaps", &FabricBlock::gaps, list(text()), "", "Quantities with no published value (never filled by a guess)");
  t.add("notes", &FabricBlock::notes, list(text()), "", "Remarks on the sources");
  return t;
}

const Table<FabricBlock>& fabricTable() {
  static const Table<FabricBlock> table = fabricKeys();
  return table;
}

const Table<PresetFile>& fileTable() {
  static const Table<PresetFile> table = [] {
    Table<PresetFile> t("Fabric presets built only from published measurements (scenes/fabrics.json)");
    t.topLevel().schemaKey();
    t.add("fabrics", &PresetFile::fabrics, map(deferred(fabricKeys()), {.min = 1}), "", "The fabrics by name")
        .required(" must be a non-empty object");
    t.add("sources", &PresetFile::sources, map(text(true), {.placeholder = "<key>"}), "",
          "Full citations by the keys the entries use")
        .required(" must be an object of citation strings");
    return t;
  }();
  return table;
}

/// The checks of an entry that need its quantity and the file's sources.
void checkEntry(const Entry& entry, const std::string& quantity, const std::map<std::string, std::string>& sources) {
  const std::string& where = entry.where;
  const auto& units = knownUnits().at(quantity);
  if (!units.count(entry.unit))
    throw FabricError{where + ": bad unit '" + entry.unit + "' for " + quantity + " (accepted: " + joinMapKeys(units) +
                      ")"};
  if (!sources.count(entry.source))
    throw FabricError{where + ": source '" + entry.source +
                      "' is not a key of \"sources\" (known: " + joinMapKeys(sources) + ")"};
  const bool mayBeZero = quantity == "friction";
  if (entry.value < 0 || (!mayBeZero && entry.value == 0))
    throw FabricError{where + ".value must be " + (mayBeZero ? "non-negative" : "positive")};
}

/// The measured block of one fabric, parsed and validated.
class Measurements {
 public:
  /// The entries by quantity, each checked (checkEntry).
  Measurements(std::map<std::string, std::vector<Entry>> entries, const std::map<std::string, std::string>& sources)
      : m_entries(std::move(entries)) {
    for (const auto& [quantity, list] : m_entries)
      for (const Entry& e : list) checkEntry(e, quantity, sources);
  }

  /// Mean of the used entries of `quantity` in `direction`, converted to SI; NaN when there are none.
  double mean(const std::string& quantity, const std::string& direction) {
    double sum = 0;
    int count = 0;
    auto it = m_entries.find(quantity);
    if (it == m_entries.end()) return std::nan("");
    for (const Entry& e : it->second)
      if (e.use && e.direction == direction) {
        sum += e.value * knownUnits().at(quantity).at(e.unit);
        ++count;
        addSource(e.source);
      }
    return count ? sum / count : std::nan("");
  }

  /// Direction-specific value if any, else the "mean" value; NaN when neither exists.
  double along(const std::string& quantity, const std::string& direction) {
    const double v = mean(quantity, direction);
    return std::isnan(v) ? mean(quantity, "mean") : v;
  }

  /// Mean of warp and weft when both exist, else the "mean" value; NaN when neither.
  /// Throws when only one of warp / weft is given (half a measurement is not a mean).
  double warpWeftMean(const std::string& quantity, const std::string& where) {
    const double warp = peek(quantity, "warp"), weft = peek(quantity, "weft");
    if (!std::isnan(warp) && !std::isnan(weft)) return 0.5 * (mean(quantity, "warp") + mean(quantity, "weft"));
    const double both = mean(quantity, "mean");
    if (std::isnan(both) && (!std::isnan(warp) || !std::isnan(weft)))
      throw FabricError{where + ": " + quantity + " has only a " + (std::isnan(warp) ? "weft" : "warp") +
                        " value; the preset needs both warp and weft or a mean"};
    return both;
  }

  /// Sources of every value read so far, in first-use order.
  const std::vector<std::string>& usedSources() const { return m_used; }

 private:
  double peek(const std::string& quantity, const std::string& direction) const {
    auto it = m_entries.find(quantity);
    if (it == m_entries.end()) return std::nan("");
    for (const Entry& e : it->second)
      if (e.use && e.direction == direction) return e.value;
    return std::nan("");
  }

  void addSource(const std::string& key) {
    for (const auto& s : m_used)
      if (s == key) return;
    m_used.push_back(key);
  }

  std::map<std::string, std::vector<Entry>> m_entries;
  std::vector<std::string> m_used;
};

/// Returns the SI value of the first quantity that is present; throws naming both when neither is.
double require(double si, double kes, const std::string& where, const std::string& siName, const std::string& kesName,
               const std::vector<std::string>& gaps) {
  if (!std::isnan(si)) return si;
  if (!std::isnan(kes)) return kes;
  std::string message = where + ": missing measured quantity '" + kesName + "'";
  if (!siName.empty()) message += " (or '" + siName + "')";
  if (!gaps.empty()) {
    message += "; the data file lists as gaps: ";
    for (std::size_t i = 0; i < gaps.size(); ++i) message += (i ? " | " : "") + gaps[i];
  }
  throw FabricError{message};
}

FabricPreset buildPreset(const std::string& name, const json& fabric,
                         const std::map<std::string, std::string>& sources) {
  const std::string where = "fabric '" + name + "'";
  FabricBlock block;
  try {
    fabricTable().read(fabric, where, block);
  } catch (const SceneError& e) {
    throw FabricError{e.message};
  }
  FabricPreset preset;
  preset.name = name;
  preset.description = block.description;
  const std::vector<std::string>& gaps = block.gaps;
  Measurements m(std::move(block.measured), sources);

  // Areal density has no direction: the used entries labelled mean, else warp, weft or bias.
  double weight = std::nan("");
  for (const char* dir : {"mean", "warp", "weft", "bias"})
    if (std::isnan(weight)) weight = m.mean("weight", dir);
  preset.arealDensity = float(require(std::nan(""), weight, where, "", "weight", gaps));

  // Stretch: SI tensile stiffness if given, else the KES secant Fm / (EMT/100).
  auto stretch = [&](const std::string& dir) {
    const double si = m.along("tensile_stiffness", dir);
    if (!std::isnan(si)) return si;
    const double emt = m.along("EMT", dir);  // %
    const double kes = std::isnan(emt) ? emt : kKesMaxTensileLoad * kGramForcePerCm / (emt / 100.0);
    return require(si, kes, where + " (" + dir + ")", "tensile_stiffness", "EMT", gaps);
  };
  preset.stretchWarp = float(stretch("warp"));
  preset.stretchWeft = float(stretch("weft"));

  const double shearSi = m.warpWeftMean("shear_stiffness", where);
  preset.shearStiffness = float(require(shearSi, std::isnan(shearSi) ? m.warpWeftMean("G", where) : shearSi, where,
                                        "shear_stiffness", "G", gaps));
  const double bendSi = m.warpWeftMean("bending_stiffness", where);
  preset.bendingRigidity = float(
      require(bendSi, std::isnan(bendSi) ? m.warpWeftMean("B", where) : bendSi, where, "bending_stiffness", "B", gaps));

  // Orthotropic membrane, Poisson ratio 0, compliance along 45 degrees (see the header).
  const double ew = preset.stretchWarp, ef = preset.stretchWeft, gs = preset.shearStiffness;
  preset.stretchBias = float(1.0 / (0.25 * (1.0 / ew + 1.0 / ef + 1.0 / gs)));

  const double mu = m.along("friction", "mean");
  if (!std::isnan(mu)) preset.friction = float(mu);

  for (const std::string& key : m.usedSources()) preset.sources.push_back(sources.at(key));
  return preset;
}

/// The file's text; throws FabricError when it cannot be opened.
std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FabricError{"cannot open file"};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The file's JSON; throws FabricError when it is not valid JSON.
json parseText(const std::string& text) {
  try {
    return scenejson::parseDocument(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    throw FabricError{std::string("not valid JSON: ") + e.what()};
  } catch (const SceneError& e) {
    throw FabricError{e.message};
  }
}

/// Checks the top level of a parsed file: the fabrics (each read when built) and the sources.
PresetFile readParsed(const json& document) {
  PresetFile parsed;
  try {
    fileTable().read(document, "root", parsed);
  } catch (const SceneError& e) {
    throw FabricError{e.message};
  }
  return parsed;
}

PresetFile readDocument(const std::filesystem::path& file) { return readParsed(parseText(readText(file))); }

Error fileError(const std::filesystem::path& file, const std::string& message) {
  return Error{"fabric presets " + file.string() + ": " + message};
}

}  // namespace

Result<std::vector<FabricPreset>> loadFabricPresets(const std::filesystem::path& file) {
  try {
    const PresetFile parsed = readDocument(file);
    std::vector<FabricPreset> presets;
    std::string problems;
    for (const auto& [name, fabric] : parsed.fabrics) {
      try {
        presets.push_back(buildPreset(name, fabric, parsed.sources));
      } catch (const FabricError& e) {
        problems += (problems.empty() ? "" : "; ") + e.message;
      }
    }
    if (!problems.empty()) return fileError(file, problems);
    return presets;
  } catch (const FabricError& e) {
    return fileError(file, e.message);
  } catch (const json::exception& e) {
    return fileError(file, e.what());
  }
}

Result<FabricPreset> findFabricPreset(const std::filesystem::path& file, const std::string& name) {
  try {
    const PresetFile parsed = readDocument(file);
    const auto fabric = parsed.fabrics.find(name);
    if (fabric == parsed.fabrics.end())
      return fileError(file, "no fabric named '" + name + "' (known: " + joinMapKeys(parsed.fabrics) + ")");
    return buildPreset(name, fabric->second, parsed.sources);
  } catch (const FabricError& e) {
    return fileError(file, e.message);
  } catch (const json::exception& e) {
    return fileError(file, e.what());
  }
}

std::optional<Result<FabricPreset>> findNamedFabricPreset(const std::filesystem::path& file, const std::string& name) {
  json document;
  try {
    document = parseText(readText(file));
  } catch (const FabricError&) {
    return std::nullopt;  // no file, or not JSON: it names nothing
  }
  if (!document.is_object() || !document.contains("fabrics") || !document["fabrics"].is_object() ||
      !document["fabrics"].contains(name))
    return std::nullopt;
  try {
    const PresetFile parsed = readParsed(document);
    return buildPreset(name, parsed.fabrics.at(name), parsed.sources);
  } catch (const FabricError& e) {
    return Result<FabricPreset>(fileError(file, e.message));
  } catch (const json::exception& e) {
    return Result<FabricPreset>(fileError(file, e.what()));
  }
}

fields::ObjectDoc fabricPresetKeys() { return fileTable().describe(PresetFile{}); }

}  // namespace hg
