#pragma once
/// The drape scene reader's keys (sim/scene/DrapeSceneRead.cpp, a field table per block;
/// parseDrapeScene and loadDrapeScene are declared in sim/scene/DrapeScene.h): every key
/// with its unit, range, default and doc, for docs/schema/drape.schema.json and the key
/// reference of docs/user-guide.md (apps/tools/write_scene_docs.cpp).
namespace hg {

namespace fields {
struct ObjectDoc;
}

/// The keys of a drape scene file (scenes/*.json).
fields::ObjectDoc drapeSceneKeys();

}  // namespace hg
