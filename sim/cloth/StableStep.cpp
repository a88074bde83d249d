#include "sim/cloth/StableStep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/core/Limits.h"

namespace hg {
namespace {

/// Height (m) of the triangle (a, b, w) over its edge a-b; 0 when degenerate.
double wingHeight(glm::vec3 a, glm::vec3 b, glm::vec3 w) {
  const double edge = glm::length(b - a);
  return edge > 0.0 ? double(glm::length(glm::cross(b - a, w - a))) / edge : 0.0;
}

/// The largest eigenvalue of M^-1/2 K_s M^-1/2 for the springs' stiffness K_s at the rest
/// shape (k u u^T per spring, u its rest direction), by power iteration from a fixed
/// pseudo-random start: a lower estimate that converges from below (Rayleigh quotient).
double springModeEstimate(const ClothModel& model, double law, int iterations) {
  const std::size_t n = model.vertexCount();
  std::vector<glm::dvec3> v(n), y(n);
  std::vector<double> root(n);  // sqrt(w): M^-1/2
  std::uint32_t state = 0x9e3779b9u;
  for (std::size_t i = 0; i < n; ++i) {
    root[i] = std::sqrt(double(model.restPositions[i].w));
    for (int c = 0; c < 3; ++c) {
      state = state * 1664525u + 1013904223u;  // a fixed sequence: the same estimate every run
      v[i][c] = root[i] > 0.0 ? double(state >> 8) / double(1u << 24) - 0.5 : 0.0;
    }
  }
  double lambda = 0.0;
  for (int it = 0; it < iterations; ++it) {
    double norm = 0.0;
    for (const glm::dvec3& x : v) norm += glm::dot(x, x);
    if (!(norm > 0.0)) return 0.0;
    for (glm::dvec3& x : v) x /= std::sqrt(norm);
    std::fill(y.begin(), y.end(), glm::dvec3(0.0));
    for (const kernels::ClothSpring& s : model.springs) {
      const glm::dvec3 d = glm::dvec3(model.restPositions[s.b]) - glm::dvec3(model.restPositions[s.a]);
      const double length = glm::length(d);
      if (!(length > 0.0)) continue;
      const glm::dvec3 u = d / length;
      const double f = double(s.stiffness) * law * (1.0 + 2.0 * double(s.strainStiffening)) *
                       glm::dot(u, root[s.b] * v[s.b] - root[s.a] * v[s.a]);
      y[s.a] -= f * u;
      y[s.b] += f * u;
    }
    lambda = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] *= root[i];
      lambda += glm::dot(v[i], y[i]);
    }
    std::swap(v, y);
  }
  return lambda;
}

}  // namespace

StableStep explicitStableStep(const ClothModel& model, const ClothSettings& settings) {
  const std::size_t n = model.vertexCount();
  // Gershgorin row sums of M^-1/2 K M^-1/2 (springs, hinges) and M^-1/2 C M^-1/2 (spring damping).
  std::vector<double> springRows(n, 0.0), hingeRows(n, 0.0), damping(n, 0.0);
  const auto w = [&](std::uint32_t v) { return double(model.restPositions[v].w); };
  // The tension law's largest slope per unit k: max(a, b) n e^(n - 1) for strains e up to 1.
  const double law = double(std::max(settings.compressionScale, settings.extensionScale)) *
                     double(std::max(1.0f, settings.tensionExponent));
  for (const kernels::ClothSpring& s : model.springs) {
    const double wa = w(s.a), wb = w(s.b), cross = std::sqrt(wa * wb);
    // Strain stiffening: the slope k (1 + 12 s e) is largest, k (1 + 2 s), at strain 1/6.
    const double k = double(s.stiffness) * law * (1.0 + 2.0 * double(s.strainStiffening)), c = double(s.damping);
    springRows[s.a] += k * (wa + cross);
    springRows[s.b] += k * (wb + cross);
    damping[s.a] += c * (wa + cross);
    damping[s.b] += c * (wb + cross);
  }
  for (const kernels::ClothHinge& h : model.hinges) {
    const glm::vec3 a(model.restPositions[h.vertices.x]), b(model.restPositions[h.vertices.y]);
    const double h1 = wingHeight(a, b, glm::vec3(model.restPositions[h.vertices.z]));
    const double h2 = wingHeight(a, b, glm::vec3(model.restPositions[h.vertices.w]));
    if (!(h1 > 0.0 && h2 > 0.0)) continue;  // degenerate wings are refused when the model is built
    const double g[4] = {1.0 / h1 + 1.0 / h2, 1.0 / h1 + 1.0 / h2, 1.0 / h1, 1.0 / h2};
    const double sum = g[0] + g[1] + g[2] + g[3];
    const std::uint32_t v[4] = {h.vertices.x, h.vertices.y, h.vertices.z, h.vertices.w};
    for (int k = 0; k < 4; ++k) hingeRows[v[k]] += w(v[k]) * double(h.stiffness) * g[k] * sum;
  }
  const auto largest = [&](const std::vector<double>& rows) {
    return n ? *std::max_element(rows.begin(), rows.end()) : 0.0;
  };
  // Springs: the power-iteration estimate with 10 % headroom, never above Gershgorin's
  // bound; hinges: Gershgorin's bound, added (Weyl: the largest eigenvalue of a sum is at
  // most the sum of the largest).
  const double springs = std::min(largest(springRows), 1.1 * springModeEstimate(model, law, 64));
  StableStep result;
  result.omegaSquared = springs + largest(hingeRows);
  result.damping = largest(damping) + double(settings.velocityDamping);
  const double o2 = result.omegaSquared, g = result.damping;
  // The positive root of o2 dt^2 + 2 g dt = 4.
  const double dt = o2 > 0.0  ? (-g + std::sqrt(g * g + 4.0 * o2)) / o2
                    : g > 0.0 ? 2.0 / g
                              : std::numeric_limits<double>::infinity();
  result.maxSubstep = 0.9 * dt;
  const double count = std::ceil(double(settings.frameDt) / result.maxSubstep - 1e-9);
  result.substepsPerFrame = int(std::clamp(count, 1.0, double(limits::kMaxSubsteps) + 1.0));
  return result;
}

namespace {

/// settings with auto substeps resolved; `checkFixed`: an explicit count below the stable one is an error.
Result<ClothSettings> substepsFor(const ClothModel& model, ClothSettings settings, bool checkFixed) {
  if (settings.integrator == ClothIntegrator::ProjectiveJacobi) {
    if (settings.substeps == 0) settings.substeps = kProjectiveAutoSubsteps;
    return settings;
  }
  if (settings.substeps != 0 && !checkFixed) return settings;
  const StableStep stable = explicitStableStep(model, settings);
  char why[160];
  std::snprintf(why, sizeof why,
                " (the explicit integrator's stable substep here is %.3g us: omega %.4g rad/s, the stiffest "
                "spring with the mass it moves)",
                stable.maxSubstep * 1e6, std::sqrt(stable.omegaSquared));
  if (stable.substepsPerFrame > limits::kMaxSubsteps)
    return Error{"the cloth needs more than " + std::to_string(limits::kMaxSubsteps) + " substeps per frame" +
                 std::string(why) +
                 "; lower the stiffness, coarsen the mesh, or use solver.integrator projective_jacobi"};
  if (settings.substeps == 0) {
    settings.substeps = stable.substepsPerFrame;
  } else if (settings.substeps < stable.substepsPerFrame) {
    return Error{"solver.substeps = " + std::to_string(settings.substeps) + " is too few: this cloth needs at least " +
                 std::to_string(stable.substepsPerFrame) + " per frame" + std::string(why) +
                 "; raise it, or remove solver.substeps to choose it automatically"};
  }
  return settings;
}

}  // namespace

Result<ClothSettings> withAutoSubsteps(const ClothModel& model, ClothSettings settings) {
  return substepsFor(model, std::move(settings), false);
}

Result<ClothSettings> resolveSubsteps(const ClothModel& model, ClothSettings settings) {
  return substepsFor(model, std::move(settings), true);
}

}  // namespace hg
