#pragma once
/// Snow scene files (docs/methods.md section 5): a JSON file naming the ground (a plane, a
/// procedural terrain or a mesh file), the objects the snow falls on (boxes, vertical
/// cylinders and cones, trees, gable-roofed houses, mesh files), the snowfall and snow
/// settings and an optional camera. The format is documented in scenes/snow/README.md;
/// every key, with its unit, range and default, in docs/user-guide.md ("Scene key
/// reference", generated from the reader's field tables, sim/io/FieldTable.h). Every key
/// but "ground" is optional, an unknown key is an error naming its path, every error reads
/// "PATH: key: problem". Units: metres, degrees, hours. GL-free.
#include <filesystem>
#include <string>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/io/SceneOverrides.h"
#include "sim/snow/SnowCover.h"

namespace hg {

namespace fields {
struct ObjectDoc;
}

struct SnowSceneFile {
  std::string name;       ///< "name", else the file's stem
  SnowScene scene;        ///< ground and objects, metres, y up
  SnowSettings settings;  ///< "snowfall" and "snow", validated
  struct Camera {
    glm::vec3 eye{0.0f}, target{0.0f};  ///< m
    bool set = false;                   ///< whether the file gives a camera
  } camera;
  std::filesystem::path path;  ///< the scene file (mesh files are relative to its folder)
};

/// Parses a snow scene from `text`; `path` names the file in errors and anchors relative
/// mesh paths (its parent folder).
Result<SnowSceneFile> parseSnowScene(const std::string& text, const std::filesystem::path& path);

/// Reads and parses the snow scene file at `path`.
Result<SnowSceneFile> loadSnowScene(const std::filesystem::path& path, const SceneOverrides& overrides = {});

/// The keys of a snow scene file (scenes/snow/*.json), for docs/schema/snow.schema.json and
/// the key reference of docs/user-guide.md (apps/tools/write_scene_docs.cpp).
fields::ObjectDoc snowSceneKeys();

}  // namespace hg
