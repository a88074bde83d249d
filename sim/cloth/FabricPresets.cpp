#include "sim/cloth/FabricPresets.h"

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/io/SceneJson.h"

namespace hg {
namespace {

using nlohmann::json;

/// Thrown inside the loader only; converted to an Error (prefixed with the file) at the boundary.
struct FabricError {
  std::string message;
};

/// One published value of one quantity.
struct Entry {
  double value = 0;
  std::string unit, direction, source;
  bool use = true;
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

std::string joinKeys(const json& object) {
  std::string list;
  for (const auto& [key, value] : object.items()) list += (list.empty() ? "" : ", ") + key;
  return list;
}

template <class Map>
std::string joinMapKeys(const Map& map) {
  std::string list;
  for (const auto& [key, value] : map) list += (list.empty() ? "" : ", ") + key;
  return list;
}

void checkKeys(const json& object, const std::string& where, const std::set<std::string>& allowed) {
  if (!object.is_object()) throw FabricError{where + " must be an object"};
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw FabricError{"unknown key '" + where + "." + key + "' (allowed: " + list + ")"};
    }
}

std::string requiredString(const json& object, const std::string& where, const char* key) {
  if (!object.contains(key) || !object.at(key).is_string() || object.at(key).get<std::string>().empty())
    throw FabricError{where + "." + key + " must be a non-empty string"};
  return object.at(key).get<std::string>();
}

Entry parseEntry(const json& e, const std::string& where, const std::string& quantity, const json& sources) {
  checkKeys(e, where, {"value", "unit", "direction", "source", "note", "use"});
  Entry entry;
  if (!e.contains("value") || !e.at("value").is_number()) throw FabricError{where + ".value must be a number"};
  entry.value = e.at("value").get<double>();
  if (!std::isfinite(entry.value)) throw FabricError{where + ".value must be finite"};
  entry.unit = requiredString(e, where, "unit");
  entry.direction = requiredString(e, where, "direction");
  entry.source = requiredString(e, where, "source");
  if (e.contains("note") && !e.at("note").is_string()) throw FabricError{where + ".note must be a string"};
  if (e.contains("use")) {
    if (!e.at("use").is_boolean()) throw FabricError{where + ".use must be true or false"};
    entry.use = e.at("use").get<bool>();
  }
  const auto& units = knownUnits().at(quantity);
  if (!units.count(entry.unit))
    throw FabricError{where + ": bad unit '" + entry.unit + "' for " + quantity + " (accepted: " + joinMapKeys(units) +
                      ")"};
  static const std::set<std::string> directions = {"warp", "weft", "bias", "mean"};
  if (!directions.count(entry.direction))
    throw FabricError{where + ": bad direction '" + entry.direction + "' (accepted: bias, mean, warp, weft)"};
  if (!sources.contains(entry.source))
    throw FabricError{where + ": source '" + entry.source +
                      "' is not a key of \"sources\" (known: " + joinKeys(sources) + ")"};
  const bool mayBeZero = quantity == "friction";
  if (entry.value < 0 || (!mayBeZero && entry.value == 0))
    throw FabricError{where + ".value must be " + (mayBeZero ? "non-negative" : "positive")};
  return entry;
}

/// The measured block of one fabric, parsed and validated.
class Measurements {
 public:
  static Measurements parse(const json& measured, const std::string& where, const json& sources) {
    if (!measured.is_object()) throw FabricError{where + " must be an object"};
    Measurements m;
    for (const auto& [quantity, value] : measured.items()) {
      if (!knownUnits().count(quantity))
        throw FabricError{"unknown quantity '" + where + "." + quantity + "' (known: " + joinMapKeys(knownUnits()) +
                          ")"};
      const std::string at = where + "." + quantity;
      std::vector<Entry>& list = m.m_entries[quantity];
      if (value.is_array()) {
        if (value.empty()) throw FabricError{at + " must not be an empty array"};
        for (std::size_t i = 0; i < value.size(); ++i)
          list.push_back(parseEntry(value[i], at + "[" + std::to_string(i) + "]", quantity, sources));
      } else {
        list.push_back(parseEntry(value, at, quantity, sources));
      }
    }
    return m;
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
  Measurements() = default;

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

FabricPreset buildPreset(const std::string& name, const json& fabric, const json& sources) {
  const std::string where = "fabric '" + name + "'";
  checkKeys(fabric, where, {"description", "measured", "gaps", "notes"});
  FabricPreset preset;
  preset.name = name;
  preset.description = requiredString(fabric, where, "description");
  std::vector<std::string> gaps;
  for (const char* listKey : {"gaps", "notes"}) {
    if (!fabric.contains(listKey)) continue;
    const json& list = fabric.at(listKey);
    if (!list.is_array()) throw FabricError{where + "." + listKey + " must be an array of strings"};
    for (const json& g : list) {
      if (!g.is_string()) throw FabricError{where + "." + listKey + " must be an array of strings"};
      if (std::string(listKey) == "gaps") gaps.push_back(g.get<std::string>());
    }
  }
  if (!fabric.contains("measured")) throw FabricError{where + ": missing \"measured\""};
  Measurements m = Measurements::parse(fabric.at("measured"), where + ".measured", sources);

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

  for (const std::string& key : m.usedSources()) preset.sources.push_back(sources.at(key).get<std::string>());
  return preset;
}

/// Reads and checks the top level; returns {fabrics, sources}.
json readDocument(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw FabricError{"cannot open file"};
  std::stringstream text;
  text << in.rdbuf();
  json root;
  try {
    root = scenejson::parseDocument(text.str());
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    throw FabricError{std::string("not valid JSON: ") + e.what()};
  } catch (const scenejson::SceneError& e) {
    throw FabricError{e.message};
  }
  checkKeys(root, "root", {"fabrics", "sources"});
  if (!root.contains("fabrics") || !root.at("fabrics").is_object() || root.at("fabrics").empty())
    throw FabricError{"\"fabrics\" must be a non-empty object"};
  if (!root.contains("sources") || !root.at("sources").is_object())
    throw FabricError{"\"sources\" must be an object of citation strings"};
  for (const auto& [key, value] : root.at("sources").items())
    if (!value.is_string() || value.get<std::string>().empty())
      throw FabricError{"sources." + key + " must be a non-empty citation string"};
  return root;
}

Error fileError(const std::filesystem::path& file, const std::string& message) {
  return Error{"fabric presets " + file.string() + ": " + message};
}

}  // namespace

Result<std::vector<FabricPreset>> loadFabricPresets(const std::filesystem::path& file) {
  try {
    const json root = readDocument(file);
    std::vector<FabricPreset> presets;
    std::string problems;
    for (const auto& [name, fabric] : root.at("fabrics").items()) {
      try {
        presets.push_back(buildPreset(name, fabric, root.at("sources")));
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
    const json root = readDocument(file);
    const json& fabrics = root.at("fabrics");
    if (!fabrics.contains(name))
      return fileError(file, "no fabric named '" + name + "' (known: " + joinKeys(fabrics) + ")");
    return buildPreset(name, fabrics.at(name), root.at("sources"));
  } catch (const FabricError& e) {
    return fileError(file, e.message);
  } catch (const json::exception& e) {
    return fileError(file, e.what());
  }
}

}  // namespace hg
