// Writes the JSON Schemas of the scene files (docs/schema/<kind>.schema.json, draft 2020-12)
// and the key reference of docs/user-guide.md ("Scene key reference", between the
// GENERATED KEY REFERENCE markers) from the readers' field tables (sim/io/FieldTable.h), so
// the documented keys, units, ranges and defaults are the ones the readers use; or checks
// that the committed files are current (the ctest scene_docs_current).
//
//   build/apps/hg_write_scene_docs --out-dir DIR      # DIR/<kind>.schema.json, DIR/scene-key-reference.md
//   build/apps/hg_write_scene_docs --check REPO_ROOT  # exit 1 naming every stale file
//   build/apps/hg_write_scene_docs --update REPO_ROOT # rewrite the stale files in place
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/cloth/FabricPresets.h"
#include "sim/io/FieldTable.h"
#include "sim/radar/GraspSceneRead.h"
#include "sim/scene/DrapeSceneRead.h"
#include "sim/skinning/SkinningRig.h"
#include "sim/snow/SnowSceneJson.h"

namespace {

namespace fs = std::filesystem;
using namespace hg;

/// One kind of scene file.
struct Kind {
  const char* name;     ///< docs/schema/<name>.schema.json
  const char* title;    ///< the schema's title
  const char* heading;  ///< the reference's section
  const char* files;    ///< which files are of this kind
  fields::ObjectDoc (*keys)();
};

const Kind kKinds[] = {
    {"drape", "hagoromo drape scene", "Drape scenes", "`scenes/*.json` but `fabrics.json` (`hagoromo drape`)",
     drapeSceneKeys},
    {"snow", "hagoromo snow scene", "Snow scenes", "`scenes/snow/*.json` (`hagoromo snow`)", snowSceneKeys},
    {"grasp", "hagoromo grasp scene", "Grasp scenes", "`scenes/grasp/*.json` (`hagoromo grasp`)", graspSceneKeys},
    {"skin-rig", "hagoromo skinning rig", "Skinning rigs", "`scenes/skin/*.json` (`hagoromo skin`)", skinRigKeys},
    {"fabrics", "hagoromo fabric presets", "Fabric presets", "`scenes/fabrics.json` (the `fabric` keys)",
     fabricPresetKeys},
};

const std::string kBegin = "<!-- BEGIN GENERATED KEY REFERENCE -->\n";
const std::string kEnd = "<!-- END GENERATED KEY REFERENCE -->";
const fs::path kGuide = fs::path("docs") / "user-guide.md";

fs::path schemaPath(const Kind& kind) {
  return fs::path("docs") / "schema" / (std::string(kind.name) + ".schema.json");
}

std::string schemaText(const Kind& kind) { return fields::fileSchema(kind.keys(), kind.title).dump(2) + "\n"; }

/// The text between the guide's markers: a section per kind, a table per object.
std::string referenceText() {
  std::string out;
  for (const Kind& kind : kKinds) {
    const std::string schema = std::string(kind.name) + ".schema.json";
    out += "\n### " + std::string(kind.heading) + "\n\n";
    out += "Files: " + std::string(kind.files) + ". Schema: [`docs/schema/" + schema + "`](schema/" + schema + ").\n\n";
    out += fields::keyReference(kind.keys());
  }
  return out;
}

bool read(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

bool write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out);
}

/// The guide with `reference` between its markers, or "" when the markers are missing.
std::string guideWith(const std::string& guide, const std::string& reference) {
  const std::size_t begin = guide.find(kBegin);
  const std::size_t end = guide.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin + kBegin.size()) return "";
  return guide.substr(0, begin + kBegin.size()) + reference + guide.substr(end);
}

/// --check (update false) or --update: the stale files, named (and rewritten).
int checkOrUpdate(const fs::path& root, bool update) {
  int stale = 0;
  const auto compare = [&](const fs::path& relative, const std::string& expected) {
    std::string current;
    if (read(root / relative, current) && current == expected) return;
    ++stale;
    if (!update) {
      std::fprintf(stderr, "stale: %s (regenerate: hg_write_scene_docs --update %s)\n", relative.string().c_str(),
                   root.string().c_str());
    } else if (write(root / relative, expected)) {
      std::printf("updated %s\n", relative.string().c_str());
    } else {
      std::fprintf(stderr, "cannot write %s\n", (root / relative).string().c_str());
    }
  };
  for (const Kind& kind : kKinds) compare(schemaPath(kind), schemaText(kind));
  std::string guide;
  if (!read(root / kGuide, guide)) {
    std::fprintf(stderr, "cannot read %s\n", (root / kGuide).string().c_str());
    return 1;
  }
  const std::string expected = guideWith(guide, referenceText());
  if (expected.empty()) {
    std::fprintf(stderr, "%s: no %s ... %s markers\n", kGuide.string().c_str(),
                 kBegin.substr(0, kBegin.size() - 1).c_str(), kEnd.c_str());
    return 1;
  }
  compare(kGuide, expected);
  return stale == 0 || update ? 0 : 1;
}

int writeTo(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  bool ok = true;
  for (const Kind& kind : kKinds) ok = write(dir / (std::string(kind.name) + ".schema.json"), schemaText(kind)) && ok;
  ok = write(dir / "scene-key-reference.md", referenceText()) && ok;
  if (!ok) std::fprintf(stderr, "cannot write into %s\n", dir.string().c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string option = argc == 3 ? argv[1] : "";
  if (option == "--out-dir") return writeTo(argv[2]);
  if (option == "--check") return checkOrUpdate(argv[2], false);
  if (option == "--update") return checkOrUpdate(argv[2], true);
  std::fprintf(stderr, "usage: %s --out-dir DIR | --check REPO_ROOT | --update REPO_ROOT\n", argv[0]);
  return 2;
}
