// Fabric presets: the shipped data file (scenes/fabrics.json), KES -> SI conversions, errors.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/cloth/FabricPresets.h"

namespace hg {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kShipped = fs::path(HG_SOURCE_DIR) / "scenes/fabrics.json";
const char* const kNames[] = {"cotton", "denim", "knit_jersey", "silk"};

json readShipped() {
  std::ifstream in(kShipped);
  return json::parse(in);
}

/// Writes `text` to a per-test temporary file and returns its path.
fs::path writeTemp(const std::string& text) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path path = fs::temp_directory_path() /
                        ("hg_fabric_" + std::string(info->name()) + "_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << text;
  return path;
}

void expectSane(const FabricPreset& p) {
  SCOPED_TRACE(p.name);
  EXPECT_FALSE(p.description.empty());
  for (float v : {p.arealDensity, p.stretchWarp, p.stretchWeft, p.stretchBias, p.shearStiffness, p.bendingRigidity}) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GT(v, 0.0f);
  }
  EXPECT_TRUE(p.friction == -1.0f || (std::isfinite(p.friction) && p.friction >= 0.0f)) << p.friction;
  EXPECT_FALSE(p.sources.empty());
  for (const std::string& s : p.sources) EXPECT_FALSE(s.empty());
  // Bias compliance is the mean of warp, weft and shear compliances: never stiffer than the stiffest.
  EXPECT_LE(p.stretchBias, std::max(p.stretchWarp, p.stretchWeft));
}

/// A complete inline fabric "x" with the given measured block.
std::string inlineFile(const std::string& measured) {
  return R"({"fabrics": {"x": {"description": "test", "measured": )" + measured +
         R"(}}, "sources": {"s": "Test citation."}})";
}

// ---------------------------------------------------------------------------------------------
// The shipped data file.

TEST(FabricPresets, ShippedFileHasFourFabricsWithTracedEntries) {
  const json root = readShipped();
  ASSERT_TRUE(root.contains("fabrics"));
  ASSERT_TRUE(root.contains("sources"));
  EXPECT_EQ(root["fabrics"].size(), 4u);
  for (const char* name : kNames) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(root["fabrics"].contains(name));
    const json& f = root["fabrics"][name];
    EXPECT_FALSE(f["description"].get<std::string>().empty());
    ASSERT_TRUE(f["gaps"].is_array());
    for (const auto& [quantity, value] : f["measured"].items()) {
      const json list = value.is_array() ? value : json::array({value});
      for (const json& e : list) {
        EXPECT_TRUE(e["value"].is_number()) << quantity;
        EXPECT_FALSE(e["unit"].get<std::string>().empty()) << quantity;
        EXPECT_TRUE(root["sources"].contains(e["source"].get<std::string>())) << quantity;
      }
    }
  }
}

// Every fabric either builds (all fields finite and positive, cited) or fails naming a missing
// quantity, and then the data file documents the gaps: no value is ever made up to fill one.
TEST(FabricPresets, ShippedFabricsBuildOrNameADocumentedGap) {
  const json root = readShipped();
  for (const char* name : kNames) {
    SCOPED_TRACE(name);
    auto preset = findFabricPreset(kShipped, name);
    if (preset) {
      EXPECT_EQ(preset->name, name);
      expectSane(*preset);
    } else {
      const std::string& message = preset.error().message;
      EXPECT_NE(message.find(kShipped.string()), std::string::npos) << message;
      EXPECT_NE(message.find("missing measured quantity"), std::string::npos) << message;
      EXPECT_NE(message.find(std::string("fabric '") + name + "'"), std::string::npos) << message;
      EXPECT_FALSE(root["fabrics"][name]["gaps"].empty()) << "an incomplete fabric must list its gaps";
    }
  }
}

TEST(FabricPresets, ShippedLoadAllReturnsFourPresetsOrNamesEveryIncompleteFabric) {
  auto all = loadFabricPresets(kShipped);
  if (all) {
    ASSERT_EQ(all->size(), 4u);
    for (const FabricPreset& p : *all) expectSane(p);
    return;
  }
  const std::string& message = all.error().message;
  EXPECT_NE(message.find(kShipped.string()), std::string::npos) << message;
  for (const char* name : kNames) {
    const bool builds = bool(findFabricPreset(kShipped, name));
    EXPECT_EQ(message.find(std::string("fabric '") + name + "'") == std::string::npos, builds)
        << name << ": " << message;
  }
}

// Denim is the one fabric with a complete (if mixed-source) record; its SI values are the
// hand-converted Table 5 numbers (see scenes/fabrics.md).
TEST(FabricPresets, ShippedDenimIsTheHandConvertedTable) {
  auto denim = findFabricPreset(kShipped, "denim");
  ASSERT_TRUE(denim) << denim.error().message;
  expectSane(*denim);
  EXPECT_NEAR(denim->arealDensity, 0.324, 1e-6);             // Wang et al. 2011, kg/m^2
  EXPECT_NEAR(denim->stretchWarp, 8890.888, 1e-2);           // 500 gf/cm / 5.515 % -> N/m
  EXPECT_NEAR(denim->stretchWeft, 8890.888, 1e-2);           // one (mean) EMT value
  EXPECT_NEAR(denim->shearStiffness, 122.48977, 1e-3);       // G 2.180 gf/(cm deg)
  EXPECT_NEAR(denim->bendingRigidity, 1.6867438e-5, 1e-10);  // B 0.172 gf cm^2/cm
  EXPECT_NEAR(denim->stretchBias, 476.82074, 1e-2);          // 4 / (2/E + 1/G)
  EXPECT_EQ(denim->friction, -1.0f);                         // published MIU flagged "use": false
  ASSERT_EQ(denim->sources.size(), 2u);
  const std::string all = denim->sources[0] + denim->sources[1];
  EXPECT_NE(all.find("Kumari"), std::string::npos);
  EXPECT_NE(all.find("Wang"), std::string::npos);
}

// Orderings are checked only where the data hold measurements of both fabrics. The only such
// pair found is areal density of denim vs the knit (both Wang et al. 2011). Bending rigidity of
// cotton and silk was not found, so denim > cotton > silk is not asserted.
TEST(FabricPresets, ShippedDataDenimIsHeavierThanTheKnit) {
  const json root = readShipped();
  const json& denim = root["fabrics"]["denim"]["measured"]["weight"];
  const json& knit = root["fabrics"]["knit_jersey"]["measured"]["weight"];
  ASSERT_EQ(denim["unit"], knit["unit"]);
  EXPECT_GT(denim["value"].get<double>(), knit["value"].get<double>());
}

// Every shipped number is traceable: a direction, a cited source and a note saying where in the
// source it sits (table / row / sample). Every citation in "sources" backs at least one entry.
TEST(FabricPresets, ShippedEntriesCarryDirectionSourceAndNote) {
  const json root = readShipped();
  std::set<std::string> used;
  for (const auto& [fabric, f] : root["fabrics"].items()) {
    for (const auto& [quantity, value] : f["measured"].items()) {
      SCOPED_TRACE(fabric + "." + quantity);
      const json list = value.is_array() ? value : json::array({value});
      for (const json& e : list) {
        ASSERT_TRUE(e.contains("direction"));
        ASSERT_TRUE(e.contains("source"));
        ASSERT_TRUE(e.contains("note"));
        EXPECT_FALSE(e["direction"].get<std::string>().empty());
        EXPECT_FALSE(e["note"].get<std::string>().empty());
        used.insert(e["source"].get<std::string>());
      }
    }
  }
  for (const auto& [key, citation] : root["sources"].items()) {
    EXPECT_TRUE(used.count(key)) << "source '" << key << "' is cited by no entry";
    EXPECT_FALSE(citation.get<std::string>().empty()) << key;
  }
}

// A fabric that does not load must say why in its own data: every required quantity it has no
// usable measurement for (in either its KES or its SI form) starts an entry of its "gaps" list,
// and the loader's error names the first of them.
TEST(FabricPresets, ShippedIncompleteFabricsListEveryMissingRequiredQuantityAsAGap) {
  const json root = readShipped();
  // {KES name, SI name}; weight has only one form.
  const std::pair<std::string, std::string> required[] = {
      {"weight", "weight"}, {"EMT", "tensile_stiffness"}, {"G", "shear_stiffness"}, {"B", "bending_stiffness"}};
  for (const char* name : kNames) {
    SCOPED_TRACE(name);
    const json& f = root["fabrics"][name];
    auto hasUsable = [&](const std::string& quantity) {
      if (!f["measured"].contains(quantity)) return false;
      const json& value = f["measured"][quantity];
      const json list = value.is_array() ? value : json::array({value});
      for (const json& e : list)
        if (e.value("use", true)) return true;
      return false;
    };
    std::vector<std::string> missing;
    for (const auto& [kes, si] : required)
      if (!hasUsable(kes) && !hasUsable(si)) missing.push_back(kes);
    auto preset = findFabricPreset(kShipped, name);
    EXPECT_EQ(bool(preset), missing.empty());
    if (missing.empty()) continue;
    for (const std::string& quantity : missing) {
      bool listed = false;
      for (const json& gap : f["gaps"]) listed = listed || gap.get<std::string>().rfind(quantity, 0) == 0;
      EXPECT_TRUE(listed) << "missing '" << quantity << "' is not listed under gaps";
    }
    ASSERT_FALSE(preset);
    const std::string& message = preset.error().message;
    EXPECT_NE(message.find("missing measured quantity '" + missing.front() + "'"), std::string::npos) << message;
  }
}

// ---------------------------------------------------------------------------------------------
// Conversions on small inline files (expected values computed by hand, see the header).

TEST(FabricPresets, KesValuesConvertToSi) {
  const fs::path file = writeTemp(inlineFile(R"J({
      "weight": {"value": 15, "unit": "mg/cm^2", "direction": "mean", "source": "s"},
      "EMT": [{"value": 5, "unit": "%", "direction": "warp", "source": "s"},
              {"value": 10, "unit": "%", "direction": "weft", "source": "s"},
              {"value": 40, "unit": "%", "direction": "bias", "source": "s"}],
      "G": [{"value": 1.0, "unit": "gf/(cm deg)", "direction": "warp", "source": "s"},
            {"value": 2.0, "unit": "gf/(cm deg)", "direction": "weft", "source": "s"}],
      "B": [{"value": 0.1, "unit": "gf cm^2/cm", "direction": "warp", "source": "s"},
            {"value": 0.3, "unit": "gf cm^2/cm", "direction": "weft", "source": "s"}],
      "LT": {"value": 0.7, "unit": "-", "direction": "mean", "source": "s"},
      "WT": {"value": 8.0, "unit": "gf cm/cm^2", "direction": "mean", "source": "s"},
      "thickness": {"value": 0.3, "unit": "mm", "direction": "mean", "source": "s"},
      "friction": {"value": 0.2, "unit": "-", "direction": "mean", "source": "s"}})J"));
  auto p = findFabricPreset(file, "x");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_NEAR(p->arealDensity, 0.15, 1e-7);            // 15 mg/cm^2 * 0.01
  EXPECT_NEAR(p->stretchWarp, 9806.65, 1e-2);          // 500 gf/cm / 0.05 = 1e4 gf/cm
  EXPECT_NEAR(p->stretchWeft, 4903.325, 1e-2);         // 500 gf/cm / 0.10
  EXPECT_NEAR(p->shearStiffness, 84.281948, 1e-4);     // 1.5 * 0.980665 * 180/pi
  EXPECT_NEAR(p->bendingRigidity, 1.96133e-5, 1e-11);  // 0.2 * 9.80665e-5
  EXPECT_NEAR(p->stretchBias, 328.65407, 1e-2);        // 1/(0.25 (1/9806.65 + 1/4903.325 + 1/84.28195))
  EXPECT_NEAR(p->friction, 0.2, 1e-7);
  ASSERT_EQ(p->sources.size(), 1u);
  EXPECT_EQ(p->sources[0], "Test citation.");
  fs::remove(file);
}

TEST(FabricPresets, SiParametersWinOverKesAndOtherWeightUnits) {
  const fs::path file = writeTemp(inlineFile(R"J({
      "weight": {"value": 200, "unit": "g/m^2", "direction": "mean", "source": "s"},
      "EMT": {"value": 5, "unit": "%", "direction": "mean", "source": "s"},
      "tensile_stiffness": [{"value": 3000, "unit": "N/m", "direction": "warp", "source": "s"},
                            {"value": 1000, "unit": "N/m", "direction": "weft", "source": "s"}],
      "shear_stiffness": {"value": 50, "unit": "N/m", "direction": "mean", "source": "s"},
      "G": {"value": 99, "unit": "gf/(cm deg)", "direction": "mean", "source": "s"},
      "bending_stiffness": {"value": 2e-6, "unit": "N m", "direction": "mean", "source": "s"}})J"));
  auto p = findFabricPreset(file, "x");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_NEAR(p->arealDensity, 0.2, 1e-7);
  EXPECT_NEAR(p->stretchWarp, 3000.0, 1e-3);
  EXPECT_NEAR(p->stretchWeft, 1000.0, 1e-3);
  EXPECT_NEAR(p->shearStiffness, 50.0, 1e-5);
  EXPECT_NEAR(p->bendingRigidity, 2e-6, 1e-12);
  EXPECT_NEAR(p->stretchBias, 1.0 / (0.25 * (1.0 / 3000 + 1.0 / 1000 + 1.0 / 50)), 1e-3);  // 171.43 N/m
  EXPECT_EQ(p->friction, -1.0f);
  fs::remove(file);
}

// ---------------------------------------------------------------------------------------------
// Errors name the file and the problem.

const char* const kCompleteMeasured = R"J({
    "weight": {"value": 0.2, "unit": "kg/m^2", "direction": "mean", "source": "s"},
    "EMT": {"value": 5, "unit": "%", "direction": "mean", "source": "s"},
    "G": {"value": 1, "unit": "gf/(cm deg)", "direction": "mean", "source": "s"},
    "B": {"value": 0.1, "unit": "gf cm^2/cm", "direction": "mean", "source": "s"}})J";

void expectError(const fs::path& file, const std::string& fragment, const std::string& name = "x") {
  auto one = findFabricPreset(file, name);
  ASSERT_FALSE(one) << fragment;
  EXPECT_NE(one.error().message.find(file.string()), std::string::npos) << one.error().message;
  EXPECT_NE(one.error().message.find(fragment), std::string::npos) << one.error().message;
  auto all = loadFabricPresets(file);
  ASSERT_FALSE(all) << fragment;
  EXPECT_NE(all.error().message.find(file.string()), std::string::npos) << all.error().message;
}

TEST(FabricPresets, CompleteInlineFileLoads) {
  const fs::path file = writeTemp(inlineFile(kCompleteMeasured));
  auto all = loadFabricPresets(file);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u);
  expectSane(all->front());
  fs::remove(file);
}

// A scene's lookup beside it (sim/scene/DrapeFabric.cpp): a file that is missing, not JSON or
// silent about the name names nothing (the library is asked next); one that names it gives
// the preset, or its error naming the file.
TEST(FabricPresets, NamedLookupReadsTheFileOnceAndTellsNamingFromErrors) {
  EXPECT_FALSE(findNamedFabricPreset(fs::temp_directory_path() / "hg_fabric_does_not_exist.json", "x"));
  const fs::path garbage = writeTemp(R"({"fabrics": {"x": )");
  EXPECT_FALSE(findNamedFabricPreset(garbage, "x"));
  fs::remove(garbage);
  const fs::path complete = writeTemp(inlineFile(kCompleteMeasured));
  EXPECT_FALSE(findNamedFabricPreset(complete, "y"));
  const auto named = findNamedFabricPreset(complete, "x");
  ASSERT_TRUE(named);
  ASSERT_TRUE(*named) << named->error().message;
  expectSane(**named);
  fs::remove(complete);
  std::string measured = kCompleteMeasured;
  measured.replace(measured.find("gf cm^2/cm"), 10, "gf cm/cm");
  const fs::path bad = writeTemp(inlineFile(measured));
  const auto broken = findNamedFabricPreset(bad, "x");
  ASSERT_TRUE(broken);
  ASSERT_FALSE(*broken);
  EXPECT_NE(broken->error().message.find(bad.string()), std::string::npos) << broken->error().message;
  EXPECT_NE(broken->error().message.find("bad unit"), std::string::npos) << broken->error().message;
  fs::remove(bad);
}

TEST(FabricPresets, MissingFileIsAnError) {
  const fs::path file = fs::temp_directory_path() / "hg_fabric_does_not_exist.json";
  auto p = loadFabricPresets(file);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find(file.string()), std::string::npos);
  EXPECT_NE(p.error().message.find("cannot open"), std::string::npos);
}

TEST(FabricPresets, MalformedJsonIsAnError) {
  const fs::path file = writeTemp(R"({"fabrics": {"x": )");
  expectError(file, "not valid JSON");
  fs::remove(file);
}

TEST(FabricPresets, MissingQuantityNamesFabricAndQuantity) {
  std::string measured = kCompleteMeasured;
  measured.erase(measured.find(",\n    \"B\""), std::string::npos);
  const fs::path file = writeTemp(inlineFile(measured + "}"));
  expectError(file, "fabric 'x': missing measured quantity 'B' (or 'bending_stiffness')");
  fs::remove(file);
}

TEST(FabricPresets, UnusedEntriesDoNotCount) {
  std::string measured = kCompleteMeasured;
  const std::string emt = R"("direction": "mean", "source": "s"},
    "G")";
  measured.replace(measured.find(emt), emt.size(), R"("direction": "mean", "source": "s", "use": false},
    "G")");
  const fs::path file = writeTemp(inlineFile(measured));
  expectError(file, "missing measured quantity 'EMT'");
  fs::remove(file);
}

TEST(FabricPresets, BadUnitIsAnError) {
  std::string measured = kCompleteMeasured;
  measured.replace(measured.find("gf cm^2/cm"), 10, "gf cm/cm");
  const fs::path file = writeTemp(inlineFile(measured));
  expectError(file, "bad unit 'gf cm/cm' for B");
  fs::remove(file);
}

TEST(FabricPresets, UnknownQuantityDirectionOrSourceIsAnError) {
  {
    std::string measured = kCompleteMeasured;
    measured.replace(measured.find("\"EMT\""), 5, "\"emt\"");
    const fs::path file = writeTemp(inlineFile(measured));
    expectError(file, "unknown quantity");
    fs::remove(file);
  }
  {
    std::string measured = kCompleteMeasured;
    measured.replace(measured.find("\"mean\""), 6, "\"diagonal\"");
    const fs::path file = writeTemp(inlineFile(measured));
    expectError(file, "bad direction 'diagonal'");
    fs::remove(file);
  }
  {
    std::string measured = kCompleteMeasured;
    measured.replace(measured.find("\"s\""), 3, "\"nope\"");
    const fs::path file = writeTemp(inlineFile(measured));
    expectError(file, "source 'nope'");
    fs::remove(file);
  }
}

TEST(FabricPresets, HalfAWarpWeftPairIsAnError) {
  std::string measured = kCompleteMeasured;
  const std::string b = R"("unit": "gf cm^2/cm", "direction": "mean")";
  measured.replace(measured.find(b), b.size(), R"("unit": "gf cm^2/cm", "direction": "warp")");
  const fs::path file = writeTemp(inlineFile(measured));
  expectError(file, "B has only a warp value");
  fs::remove(file);
}

TEST(FabricPresets, UnknownNameListsTheKnownNames) {
  auto p = findFabricPreset(kShipped, "tweed");
  ASSERT_FALSE(p);
  const std::string& message = p.error().message;
  EXPECT_NE(message.find(kShipped.string()), std::string::npos) << message;
  EXPECT_NE(message.find("'tweed'"), std::string::npos) << message;
  for (const char* name : kNames) EXPECT_NE(message.find(name), std::string::npos) << message;
}

}  // namespace
}  // namespace hg
