#pragma once
/// Perspective orbit camera (y up), shared by offscreen renders and the viewer.
#include <glm/glm.hpp>

namespace hg {

struct OrbitCamera {
  glm::vec3 target{0.0f, 0.6f, 0.0f};  ///< m, the point orbited
  float distance = 3.5f;               ///< m from target
  float azimuth = 0.6f;                ///< rad around +y, 0 looks along -z (from +z)
  float elevation = 0.45f;             ///< rad above the horizon
  float fovY = 0.6f;                   ///< rad, vertical field of view

  glm::vec3 eye() const;
  /// Projection * view for a viewport of the given aspect (width / height).
  glm::mat4 viewProjection(float aspect) const;
  /// Places target and distance so a sphere of `radius` around `center` fills the view.
  void frame(glm::vec3 center, float radius);
};

}  // namespace hg
