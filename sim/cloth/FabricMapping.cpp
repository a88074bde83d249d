#include "sim/cloth/FabricMapping.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

constexpr int kDirections = 720;  ///< samples of the edge direction over [0, pi)

/// The sheet's stiffness (Voigt, engineering shear) per unit channel: the mean over edge
/// directions of K(phi) n (x) n (x) n (x) n with K one channel alone (warp; weft; both
/// bias channels). The blend is linear in the channels, so a sheet's stiffness is the sum
/// of these scaled by its channels. The terms C16 and C26 cancel for a blend symmetric
/// about the warp, as here, and a central-force network has C66 = C12 (Cauchy's relation).
struct UnitStiffness {
  double c11 = 0.0, c22 = 0.0, c12 = 0.0;
};
const std::array<UnitStiffness, 3>& unitStiffnesses() {
  static const std::array<UnitStiffness, 3> units = [] {
    std::array<UnitStiffness, 3> result{};
    const glm::vec4 channels[3] = {{1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < kDirections; ++i) {
        const double phi = std::numbers::pi * (double(i) + 0.5) / double(kDirections);
        const double c = std::cos(phi), s = std::sin(phi);
        const double w = double(kernels::anisotropyFactor(channels[k], glm::vec2(float(c), float(s))));
        result[k].c11 += w * c * c * c * c / double(kDirections);
        result[k].c22 += w * s * s * s * s / double(kDirections);
        result[k].c12 += w * c * c * s * s / double(kDirections);
      }
    }
    return result;
  }();
  return units;
}

/// The sheet's compliance (the inverse of its Voigt stiffness).
glm::dmat3 sheetCompliance(const glm::dvec3& channels) {
  double c11 = 0.0, c22 = 0.0, c12 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const UnitStiffness& u = unitStiffnesses()[std::size_t(k)];
    c11 += channels[k] * u.c11;
    c22 += channels[k] * u.c22;
    c12 += channels[k] * u.c12;
  }
  return glm::inverse(glm::dmat3(c11, c12, 0.0, c12, c22, 0.0, 0.0, 0.0, c12));
}

}  // namespace

namespace {

/// The uniaxial modulus along `angle` of a sheet with compliance S (Voigt, orthotropic).
double modulusAlong(const glm::dmat3& S, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return 1.0 / (S[0][0] * c * c * c * c + (2.0 * S[0][1] + S[2][2]) * c * c * s * s + S[1][1] * s * s * s * s);
}

}  // namespace

double springSheetModulus(const glm::dvec3& channels, double angle) {
  return modulusAlong(sheetCompliance(channels), angle);
}

MembraneModuli springSheetModuli(const glm::dvec3& channels) {
  const glm::dmat3 S = sheetCompliance(channels);  // inverted once for the three directions
  return {modulusAlong(S, 0.0), modulusAlong(S, 0.5 * std::numbers::pi), modulusAlong(S, 0.25 * std::numbers::pi)};
}

MembraneModuli measuredModuli(const MeasuredFabric& fabric, double strain) {
  return {uniaxialModulus(fabric, 0.0, strain), uniaxialModulus(fabric, 0.5 * std::numbers::pi, strain),
          uniaxialModulus(fabric, 0.25 * std::numbers::pi, strain)};
}

SpringChannelFit fitSpringChannels(const MembraneModuli& target) {
  const glm::dvec3 wanted(std::log(target.warp), std::log(target.weft), std::log(target.bias));
  // Warp and weft weigh 100 times the bias: a bias out of reach leaves them exact.
  const glm::dvec3 weight(100.0, 100.0, 1.0);
  const auto residual = [&](const glm::dvec3& x) {
    const MembraneModuli m = springSheetModuli(glm::exp(x));
    return weight * (glm::dvec3(std::log(m.warp), std::log(m.weft), std::log(m.bias)) - wanted);
  };
  const auto largest = [](const glm::dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); };
  // Levenberg-Marquardt on the logarithms of the channels (they stay positive), from 3x the
  // targets (one channel alone gives a third of its stiffness along every direction). A
  // target out of reach ends at the weighted least-squares channels, a channel driven toward
  // 0 at 1e-6 of the largest.
  glm::dvec3 x = wanted + std::log(3.0);
  glm::dvec3 r = residual(x);
  double lambda = 1e-3;
  for (int iteration = 0; iteration < 500 && largest(r) > 1e-10; ++iteration) {
    glm::dmat3 J;  // columns: d residual / d x_j
    for (int j = 0; j < 3; ++j) {
      glm::dvec3 step = x;
      step[j] += 1e-6;
      J[j] = (residual(step) - r) / 1e-6;
    }
    const glm::dmat3 JtJ = glm::transpose(J) * J;
    const glm::dvec3 g = glm::transpose(J) * r;
    glm::dmat3 A = JtJ;
    for (int j = 0; j < 3; ++j) A[j][j] += lambda * (JtJ[j][j] + 1e-9);
    glm::dvec3 candidate = x - glm::inverse(A) * g;
    candidate = glm::max(candidate, glm::dvec3(std::max({candidate.x, candidate.y, candidate.z}) + std::log(1e-6)));
    const glm::dvec3 tried = residual(candidate);
    if (glm::dot(tried, tried) < glm::dot(r, r)) {
      x = candidate;
      r = tried;
      lambda = std::max(lambda * 0.3, 1e-12);
    } else {
      lambda *= 10.0;
      if (lambda > 1e12) break;
    }
  }
  SpringChannelFit fit;
  fit.channels = glm::exp(x);
  fit.largestError = std::exp(largest(r / weight)) - 1.0;
  return fit;
}

double hingeRigidityFor(double rigidity) { return rigidity / 3.0; }

SpringFabric springFabricOf(const MeasuredFabric& fabric) {
  SpringFabric result;
  result.moduli = measuredModuli(fabric, 0.0);
  const SpringChannelFit fit = fitSpringChannels(result.moduli);
  result.largestFitError = fit.largestError;
  const double E = std::max({fit.channels.x, fit.channels.y, fit.channels.z});
  result.material.arealDensity = float(fabric.density);
  result.material.tensileStiffness = float(E);
  result.anisotropy = glm::vec4(glm::dvec4(fit.channels.x, fit.channels.y, fit.channels.z, fit.channels.z) / E);
  for (int direction = 0; direction < 3; ++direction) {
    double sum = 0.0;
    for (int sample = 0; sample <= 4; ++sample)
      sum += measuredBendingRigidity(fabric, direction, 10.0 * double(sample));
    result.bendingRigidity[direction] = sum / 5.0;
  }
  const double mean = (result.bendingRigidity.x + result.bendingRigidity.y + result.bendingRigidity.z) / 3.0;
  result.material.bendingRigidity = float(hingeRigidityFor(mean));
  result.material.bendingAnisotropy = glm::vec3(result.bendingRigidity / mean);
  return result;
}

}  // namespace hg
