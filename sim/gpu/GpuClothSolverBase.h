#pragma once
/// The plumbing shared by the GPU cloth solvers (GpuClothSolver.cpp: symplectic Euler;
/// GpuProjectiveClothSolver.cpp: projective Jacobi): the model's shader storage
/// buffers (step parameters, spring / hinge CSR offsets and entries, springs, hinges,
/// element forces, status word), the programs both run (cloth_forces, cloth_setup,
/// cloth_plasticity), the anisotropy setup pass, state / spring / hinge transfers and
/// pin updates. Derived solvers own their state buffers (positionsBuffer(),
/// velocitiesBuffer()), their own programs and buffers, and implement advance().
/// Requires a current OpenGL 4.5 context.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "gl/GlObjects.h"
#include "gl/PassTimer.h"
#include "gl/ShaderRegistry.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/gpu/GpuSelfContact.h"

namespace hg {

/// The compute programs both GPU integrators run.
struct GpuClothSharedPrograms {
  gl::Program forces;          ///< sim/gpu/shaders/cloth_forces.comp: spring and hinge forces per element
  gl::Program setup;           ///< sim/gpu/shaders/cloth_setup.comp: anisotropy texture into spring stiffness
  gl::Program plasticity;      ///< sim/gpu/shaders/cloth_plasticity.comp: plastic creep of rest lengths / angles
  gl::Program featuresGather;  ///< sim/gpu/shaders/cloth_features_gather.comp: body features between vertices
  gl::Program featuresApply;   ///< sim/gpu/shaders/cloth_features_apply.comp
  gl::Program thinTriangles;   ///< sim/gpu/shaders/cloth_thin_features_triangles.comp
  gl::Program thinGather;      ///< sim/gpu/shaders/cloth_thin_features_gather.comp
};

/// Builds cloth_forces.comp, then each of `own` (program, shader name) in order, then
/// cloth_setup.comp and cloth_plasticity.comp; error (the driver's log) from the first
/// shader that fails.
Status buildGpuClothPrograms(const gl::ShaderRegistry& registry, GpuClothSharedPrograms& shared,
                             std::initializer_list<std::pair<gl::Program*, const char*>> own);

class GpuClothSolverBase : public ClothSolver {
 public:
  /// With HG_GPU_PASS_TIMES=1: prints the GPU time of each step pass per substep.
  ~GpuClothSolverBase() override;
  Backend backend() const override { return Backend::Gpu; }

  ClothState readState() const override;
  void writeState(const ClothState& state) override;
  void setPinTargets(std::span<const std::uint32_t> vertices, std::span<const glm::vec3> positions) override;
  std::vector<kernels::ClothSpring> readSprings() const override;
  /// Also uploads what changed: the grid, the host depth views, the sphere trees (by
  /// pointer) and the records. ClothColliders::residentDepthViews are bound as they are
  /// (GpuDepthViewRenderer's buffers, which must outlive their use).
  void setColliders(ClothColliders colliders) override;

 protected:
  /// The per-frame feature pass: sim/gpu/shaders/cloth_features_gather.comp, then _apply.comp.
  void resolveBodyFeatures() override;

 public:
  std::vector<kernels::ClothHinge> readHinges() const override;
  std::optional<SelfContactReport> selfContactReport() const override {
    return m_selfContact ? std::optional(m_selfContact->report()) : std::nullopt;
  }
  /// With settings().selfContact.enabled: builds the self-contact passes
  /// (sim/gpu/GpuSelfContact.h), which then run after every substep; error: a shader's log.
  Status enableSelfContact();

 protected:
  /// Creates and fills the model's buffers; the derived constructor creates its state
  /// buffers and then calls initializeState().
  GpuClothSolverBase(std::shared_ptr<const ClothModel> model, const ClothSettings& settings,
                     GpuClothSharedPrograms programs);

  /// Workgroups of HG_WORKGROUP_SIZE covering `count` invocations.
  static GLuint groupsFor(std::size_t count);

  /// The buffers holding the current state: positions (xyz m, w inverse mass) and
  /// velocities (xyz m/s), one vec4 per vertex.
  virtual const gl::Buffer& positionsBuffer() const = 0;
  virtual const gl::Buffer& velocitiesBuffer() const = 0;

  /// Uploads the rest state and runs the anisotropy setup pass (runSetup()).
  void initializeState();
  /// Binds the model's buffers to their HG_BINDING_* points.
  void bindModel() const;
  /// Samples the anisotropy texture on the GPU into every spring's stiffness
  /// (sim/gpu/shaders/cloth_setup.comp).
  void runSetup();

  /// Start of advance(): uploads the substep parameters, clears the status word and
  /// binds the model.
  void beginAdvance(const kernels::ClothStepParams& params);
  /// Writes ClothStepParams::bodyLag of the next substep into the parameter buffer.
  void setBodyLag(float lag) const;
  /// Element pass (spring and hinge forces at the bound POSITIONS_IN / VELOCITIES_IN)
  /// into the element forces buffer, if there are elements.
  void dispatchForces(GLuint elementGroups) const;
  /// Plastic creep of rest lengths and angles at `positions`, if params.plasticRate > 0
  /// and there are elements.
  void dispatchPlasticity(const kernels::ClothStepParams& params, const gl::Buffer& positions,
                          GLuint elementGroups) const;
  /// Start of advance() with self contact: the tangle analysis of the frame's start (one
  /// readback of the positions).
  void beginSelfContactFrame();
  /// After a substep, with settings().featureContacts and a body-vertex grid: the
  /// thin-feature pass (docs/methods.md section 2; sim/gpu/shaders/cloth_thin_features_*.comp,
  /// then cloth_features_apply.comp) on the state, in place. Binds POSITIONS_IN,
  /// POSITIONS_OUT and VELOCITIES_OUT to it.
  void applyThinFeatures(const gl::Buffer& positions, const gl::Buffer& velocities);
  /// With self contact: after a substep moved the state from `start` to `positions`.
  void applySelfContact(const gl::Buffer& start, const gl::Buffer& positions, const gl::Buffer& velocities, float dt) {
    if (m_selfContact) m_selfContact->apply(start, positions, velocities, dt);
  }
  /// End of advance(): the anomaly bits of the step (one word read back).
  StepStatus readStatus() const;

  GpuClothSharedPrograms m_sharedPrograms;
  /// HG_GPU_PASS_TIMES=1: the step's passes (advance() marks them; self contact has its own).
  gl::PassTimer m_stepTimer{gl::passTimesRequested()};
  std::uint64_t m_timedSubsteps = 0;              ///< the substeps m_stepTimer measured
  std::unique_ptr<GpuSelfContact> m_selfContact;  ///< with settings().selfContact.enabled
  gl::Buffer m_params, m_springOffsets, m_springEntries, m_springs, m_hingeOffsets, m_hingeEntries, m_hinges, m_status,
      m_elementForces;
  /// The body's signed distance values (settings().colliders.distanceGrid) as an R32F 3D texture (one
  /// texel per grid point), or a 1x1x1 one when there is no body, so the unit is always
  /// valid (the shaders then never read it).
  gl::Texture m_bodySdf;
  /// (Re)creates m_bodySdf from the distance grid.
  void uploadBody();
  /// The body's depth views (settings().colliders.depthViews) in three buffers (a
  /// placeholder each when there are none); resident views are bound instead when set.
  gl::Buffer m_depthViews, m_depthNormalDepth, m_depthVelocity;
  gl::Buffer m_featureDisplacements;  ///< vec4 per vertex, resolveBodyFeatures()
  gl::Buffer m_bodyOffsets;           ///< float per vertex, ClothSettings::bodyContactOffsets
  /// The body-vertex grid of the thin-feature samples (ClothColliders::bodyVertices): cell
  /// starts and entries (HG_BINDING_BODY_VERTEX_CELLS, HG_BINDING_BODY_VERTICES).
  gl::Buffer m_bodyVertexCells, m_bodyVertices;
  /// The thin-feature pass's triangles, vertex triangle lists and per-triangle displacements.
  gl::Buffer m_thinTriangles, m_vertexTriangles, m_triangleDisplacements;
  /// (Re)creates the depth view buffers from the host depth views.
  void uploadBodyViews();
  /// The collider records (HG_MAX_CLOTH_COLLIDERS ClothCollider records, a uniform buffer)
  /// and the sphere trees (nodes, instances; a placeholder each when there are none).
  gl::Buffer m_colliders, m_sphereTreeNodes, m_sphereTreeInstances;
  void uploadBodyVertices();
  /// (Re)creates m_colliders from the records.
  void uploadColliderRecords();
  /// (Re)creates the sphere-tree buffers from the colliders' sphere trees.
  void uploadSphereTrees();
};

}  // namespace hg
