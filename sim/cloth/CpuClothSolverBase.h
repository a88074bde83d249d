#pragma once
/// The plumbing shared by the CPU cloth solvers (CpuClothSolver.cpp: symplectic Euler;
/// CpuProjectiveClothSolver.cpp: projective Jacobi): the current state, the springs and
/// hinges as plasticity changes them, state and pin transfers, the OpenMP thread count
/// and the plastic creep pass. Derived solvers implement advance() and own their
/// scratch buffers.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/cloth/ClothSolver.h"

namespace hg {

class CpuClothSolverBase : public ClothSolver {
 public:
  Backend backend() const override { return Backend::Cpu; }

  ClothState readState() const override { return m_state; }
  void writeState(const ClothState& state) override;
  void setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) override;

  std::vector<kernels::ClothSpring> readSprings() const override { return m_springs; }
  std::vector<kernels::ClothHinge> readHinges() const override { return m_hinges; }

 protected:
  /// Starts at the model's rest state with the model's springs and hinges.
  CpuClothSolverBase(std::shared_ptr<const ClothModel> model, const ClothSettings& settings);

  /// OpenMP threads of a parallel loop: settings().threads, or the OpenMP default if 0.
  int threads() const;
  /// Loops shorter than this run on one thread: a parallel region costs more than
  /// it saves there, and spinning threads crawl when the cores are oversubscribed.
  /// The result does not depend on it (per-element work, fixed gather order).
  static constexpr std::int64_t kParallelThreshold = 2048;

  /// Plastic creep of rest lengths and angles toward the current state's shape
  /// (sim/gpu/shaders/cloth_plasticity.comp on the GPU); run after each substep when
  /// params.plasticRate > 0.
  void creep(const kernels::ClothStepParams& params);

  /// The bending forces of `hinge` at positions x, written to out[0..3] (one per role),
  /// the hinge part of sim/gpu/shaders/cloth_forces.comp.
  static void storeHingeForces(const glm::vec4* x, const kernels::ClothHinge& hinge, glm::vec4* out) {
    const kernels::HingeForces f =
        kernels::bendingForces(glm::vec3(x[hinge.vertices.x]), glm::vec3(x[hinge.vertices.y]),
                               glm::vec3(x[hinge.vertices.z]), glm::vec3(x[hinge.vertices.w]), hinge);
    out[0] = glm::vec4(f.f0, 0.0f);
    out[1] = glm::vec4(f.f1, 0.0f);
    out[2] = glm::vec4(f.f2, 0.0f);
    out[3] = glm::vec4(f.f3, 0.0f);
  }

  /// The per-frame feature pass (sim/gpu/shaders/cloth_features_*.comp on the GPU).
  void resolveBodyFeatures() override;

  /// The deepest contact at x over the colliders (kernels/cloth_contact.glslh contactAt
  /// with the host's storage; sim/gpu/shaders/body_contact.glsl gives the GPU's).
  kernels::VertexContact contactAt(glm::vec3 x, const kernels::ClothStepParams& params) const;

  /// Whether the substeps run the thin-feature pass: settings().featureContacts and a
  /// body-vertex grid among the colliders.
  bool thinFeaturesEnabled() const {
    return m_settings.featureContacts && m_settings.colliders.bodyVertices != nullptr;
  }
  /// The thin-feature pass after a substep (docs/methods.md section 2, "Thin features";
  /// kernels/thin_features.glslh, sim/gpu/shaders/cloth_thin_features_*.comp on the GPU):
  /// each triangle's displacement out of the body features through it, then each free
  /// vertex moves by its triangles' deepest and loses its velocity into the body.
  void applyThinFeatures(ClothState& state, const kernels::ClothStepParams& params);

  /// With settings().selfContact.enabled: self contact (sim/cloth/SelfContact.h) of the
  /// substep that moved the vertices from `start` to `state`.
  void applySelfContact(std::span<const glm::vec4> start, ClothState& state, const kernels::ClothStepParams& params);
  /// With self contact: its untangling pass at the start of a frame (SelfContact::beginFrame).
  void beginSelfContactFrame() {
    if (m_selfContact) m_selfContact->beginFrame(m_state.positions, threads());
  }

 public:
  std::optional<SelfContactReport> selfContactReport() const override {
    return m_selfContact ? std::optional(m_selfContact->report()) : std::nullopt;
  }

 protected:
  bool selfContactEnabled() const { return m_selfContact.has_value(); }

  ClothState m_state;                              ///< the current state (positions m, velocities m/s)
  std::vector<kernels::ClothSpring> m_springs;     ///< rest lengths change under plasticity
  std::vector<kernels::ClothHinge> m_hinges;       ///< rest angles change under plasticity
  std::vector<glm::vec4> m_featureDisplacements;   ///< scratch of resolveBodyFeatures()
  std::vector<glm::vec4> m_triangleDisplacements;  ///< scratch of applyThinFeatures()
  std::vector<std::uint32_t> m_vertexTriangles;    ///< vertexTriangleLists(model)
  std::vector<float> m_bodyOffsets;                ///< m per vertex, ClothSettings::bodyContactOffsets
  std::optional<SelfContact> m_selfContact;        ///< with settings().selfContact.enabled
};

}  // namespace hg
