#pragma once
/// The grasp scene reader's keys (sim/radar/GraspSceneRead.cpp, a field table per block;
/// parseGraspScene and loadGraspScene are declared in sim/radar/Grasp.h): every key with its
/// unit, range, default and doc, for docs/schema/grasp.schema.json and the key reference of
/// docs/user-guide.md (apps/tools/write_scene_docs.cpp).
namespace hg {

namespace fields {
struct ObjectDoc;
}

/// The keys of a grasp scene file (scenes/grasp/*.json).
fields::ObjectDoc graspSceneKeys();

}  // namespace hg
