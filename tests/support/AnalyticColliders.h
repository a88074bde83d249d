#pragma once
// Collider records of the analytic kinds (spheres, grounds) for the kernel tests: the storage
// the kernels' collider walk (kernels/cloth_contact.glslh contactAt) reads, with no grid,
// depth views or sphere trees behind it.
#include <cstdint>
#include <vector>

#include "sim/kernels/Kernels.h"

namespace hg::test {

struct AnalyticColliders {
  std::vector<kernels::ClothCollider> records;

  /// A sphere (xyz centre m, w radius m) with friction mu.
  void addSphere(glm::vec4 centreRadius, float mu) { add(HG_COLLIDER_SPHERE, centreRadius, mu); }
  /// The ground plane dot(n, x) = d (xyz unit normal n, w d m) with friction mu.
  void addGround(glm::vec4 plane, float mu) { add(HG_COLLIDER_GROUND, plane, mu); }
  /// The deepest contact at x.
  kernels::VertexContact at(glm::vec3 x) const { return kernels::contactAt(*this, x, std::uint32_t(records.size())); }

  // The collider walk's storage.
  kernels::ClothCollider clothCollider(std::uint32_t i) const { return records[i]; }
  float distanceGridValue(const kernels::ClothCollider&, glm::ivec3) const { return 0.0f; }
  kernels::VertexContact depthViewsContact(const kernels::ClothCollider&, glm::vec3) const {
    return kernels::noContact();
  }
  kernels::VertexContact sphereTreesContact(const kernels::ClothCollider&, glm::vec3) const {
    return kernels::noContact();
  }

 private:
  void add(std::uint32_t kind, glm::vec4 a, float mu) {
    kernels::ClothCollider r{};
    r.kind = glm::uvec4(kind, 0u, 0u, 0u);
    r.a = a;
    r.b = glm::vec4(mu, 0.0f, 0.0f, 0.0f);
    records.push_back(r);
  }
};

}  // namespace hg::test
