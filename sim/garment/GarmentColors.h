#pragma once
/// The colour each garment of an outfit is drawn with (render/DrapeSceneView.cpp) and
/// exported with (the OBJ's .mtl and the .glb's materials, apps/hagoromo/DrapeCommand.cpp),
/// so that a picture and a file show the same garment in the same colour.
#include <array>
#include <cstddef>

#include <glm/vec3.hpp>

namespace hg {

/// Linear RGB in [0, 1] of the outfit's garment `index` (in the scene's garment order):
/// blue, rust, green, plum, sand, then again.
inline glm::vec3 garmentColor(std::size_t index) {
  static constexpr std::array<glm::vec3, 5> kPalette = {glm::vec3{0.10f, 0.25f, 0.62f}, glm::vec3{0.62f, 0.20f, 0.08f},
                                                        glm::vec3{0.12f, 0.42f, 0.20f}, glm::vec3{0.40f, 0.14f, 0.40f},
                                                        glm::vec3{0.70f, 0.55f, 0.30f}};
  return kPalette[index % kPalette.size()];
}

}  // namespace hg
