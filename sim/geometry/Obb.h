#pragma once
/// Oriented bounding boxes (docs/methods.md section 7): the box record, fits to a
/// point set, and the section's queries (point distance, OBB-sphere test) on top of the
/// shared kernels in sim/kernels/obb.glslh. Used as bone proxies by particle skinning
/// (fitted to the vertices a bone dominates, in the bone's frame) and as analytic box
/// colliders of the cloth (ClothSettings::boxes). Units: metres. GL-free.
#include <array>
#include <span>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace hg {

struct Obb {
  glm::vec3 centre{0.0f};  ///< G, m
  std::array<glm::vec3, 3> axes{glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f),
                                glm::vec3(0.0f, 0.0f, 1.0f)};  ///< v_i, orthonormal, right-handed
  glm::vec3 halfLengths{0.0f};                                 ///< L_i >= 0, m

  /// Section 7's distance from p (0 inside).
  float distance(glm::vec3 p) const;
  /// Section 7's OBB-sphere test: distance(c) < r.
  bool overlapsSphere(glm::vec3 c, float r) const;
  /// vec4(outward normal of the nearest surface point, signed distance < 0 inside).
  glm::vec4 signedContact(glm::vec3 p) const;
  /// Whether p is inside or on the box.
  bool contains(glm::vec3 p) const { return signedContact(p).w <= 0.0f; }
  float volume() const { return 8.0f * halfLengths.x * halfLengths.y * halfLengths.z; }
  /// The 8 corners (bit k of the index: + or - along axis k).
  std::array<glm::vec3, 8> corners() const;
};

/// The tightest box with the given orthonormal axes around `points` (e.g. a bone's joint
/// frame: the box then moves with the bone). An empty set gives a zero box at `origin`.
Obb fitObbInFrame(std::span<const glm::vec3> points, const std::array<glm::vec3, 3>& axes,
                  glm::vec3 origin = glm::vec3(0.0f));

/// A box around `points` with axes from principal component analysis (the eigenvectors
/// of the points' covariance, Eigen's self-adjoint solver), then the tightest box with
/// those axes. For nearly isotropic sets, where PCA axes are ill-defined, the result is
/// the smaller of that box and the axis-aligned one. Empty set: a zero box at the origin.
Obb fitObb(std::span<const glm::vec3> points);

}  // namespace hg
