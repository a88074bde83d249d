#pragma once
/// A drape scene as read from JSON (scenes/*.json): the cloth, the colliders, the
/// solver settings and the outputs. Every key is optional and defaults to the value
/// below; unknown keys are errors (a typo must not silently fall back to a default).
///
///     {
///       "name": "cloth_on_sphere",
///       "cloth":  {"resolution": 48, "size": 1.6, "center": [0, 1.3, 0], "mass": 0.3,
///                  "stretch_stiffness": 150, "shear_stiffness": 50, "bend_stiffness": 10,
///                  "spring_damping": 0.01, "pinned": []},
///       "sphere": {"center": [0, 0.6, 0], "radius": 0.5},      // or null for none
///       "ground": {"height": 0.0},                            // or null for none
///       "solver": {"backend": "gpu", "frames": 180, "frame_dt": 0.016667, "substeps": 40,
///                  "velocity_damping": 0.2, "friction": 0.4, "contact_offset": 0.005,
///                  "gravity": [0, -9.81, 0], "max_speed": 50},
///       "output": {"directory": "out", "image_width": 1280, "image_height": 960}
///     }
#include <filesystem>
#include <string>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/core/Result.h"

namespace hg {

struct DrapeScene {
  std::string name = "scene";
  SquareClothSpec cloth;
  ClothSettings settings;
  Backend backend = Backend::Gpu;
  int frames = 180;
  std::filesystem::path outputDirectory = "out";
  int imageWidth = 1280;
  int imageHeight = 960;
};

/// Parses a scene; errors name the file, the key and what is wrong.
Result<DrapeScene> loadDrapeScene(const std::filesystem::path& path);
/// Parses scene text; `origin` names it in error messages.
Result<DrapeScene> parseDrapeScene(const std::string& text, const std::string& origin);

}  // namespace hg
