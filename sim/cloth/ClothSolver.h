#pragma once
/// The cloth solver interface shared by the CPU reference backend (sim/cpu) and the
/// GPU backend (sim/gpu). Both run the same per-element kernels (sim/kernels) in the
/// same order; tests cross-check them with tolerances.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/core/Result.h"
#include "sim/core/StepStatus.h"

namespace hg {

enum class Backend { Cpu, Gpu };

std::string_view backendName(Backend backend);
/// "cpu" or "gpu" (case-sensitive); error otherwise.
Result<Backend> parseBackend(std::string_view name);

/// Run-time settings of a cloth simulation (SI units).
struct ClothSettings {
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
  float frameDt = 1.0f / 60.0f;           ///< s advanced by one step() call
  int substeps = 40;                      ///< substeps per step(); substep = frameDt / substeps
  float velocityDamping = 0.2f;           ///< 1/s, dv/dt = -c v (air drag stand-in)
  float friction = 0.4f;                  ///< Coulomb mu at colliders
  float contactOffset = 0.005f;           ///< m kept between cloth and colliders
  bool hasSphere = true;
  glm::vec3 sphereCenter{0.0f, 0.6f, 0.0f};  ///< m
  float sphereRadius = 0.5f;                 ///< m
  bool hasGround = true;
  float groundHeight = 0.0f;                 ///< m, plane y = groundHeight
  float maxSpeed = 50.0f;                    ///< m/s; faster flags StepStatus::SpeedLimitExceeded
  int threads = 0;                           ///< CPU backend: OpenMP threads (0 = default)

  /// Checks ranges; the error names the offending setting.
  Status validate() const;
  /// The kernel parameters of one substep.
  kernels::ClothStepParams stepParams(std::size_t vertexCount) const;
};

/// Positions (xyz m, w inverse mass) and velocities (xyz m/s) of every vertex;
/// the layout of the GPU buffers, so transfers are memcpy.
struct ClothState {
  std::vector<glm::vec4> positions;
  std::vector<glm::vec4> velocities;
};

/// The rest state of a model (zero velocities).
ClothState restState(const ClothModel& model);

class ClothSolver {
public:
  virtual ~ClothSolver() = default;
  virtual Backend backend() const = 0;
  const ClothModel& model() const { return *m_model; }
  const ClothSettings& settings() const { return m_settings; }

  /// Advances by settings().frameDt in settings().substeps substeps. Returns the
  /// anomalies seen (the state is advanced regardless; the caller decides).
  virtual StepStatus step() = 0;
  /// Copies the current state out. On the GPU this is a synchronous readback (slow:
  /// call it per frame for output, not per substep).
  virtual ClothState readState() const = 0;
  /// Replaces the current state (sizes must match the model).
  virtual void writeState(const ClothState& state) = 0;

protected:
  ClothSolver(std::shared_ptr<const ClothModel> model, const ClothSettings& settings)
      : m_model(std::move(model)), m_settings(settings) {}
  std::shared_ptr<const ClothModel> m_model;
  ClothSettings m_settings;
};

/// 64-bit FNV-1a hash of the state's bytes: pinned per scene for the CPU backend
/// (printed by `hagoromo drape`), so behaviour changes are noticed on purpose.
std::uint64_t stateHash(const ClothState& state);

}  // namespace hg
