#include "sim/cloth/FabricMapping.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <glm/vector_relational.hpp>

#include "sim/kernels/Kernels.h"

namespace hg {
namespace {

constexpr int kDirections = 720;  ///< samples of the edge direction over [0, pi)

/// Levenberg-Marquardt for the three unknowns of every fit here (one per anisotropy
/// channel; written out because a 3 x 3 system does not warrant Eigen's unsupported
/// NonLinearOptimization module): minimises |residual(x)|^2 from `x` with a forward-difference
/// Jacobian (step `step(x, j)` in unknown j), every candidate passed through `project`
/// (bounds), until the largest residual is below `tolerance` or after `iterations`.
template <class Residual, class Step, class Project>
glm::dvec3 levenbergMarquardt(const Residual& residual, glm::dvec3 x, const Step& step, const Project& project,
                              int iterations, double tolerance) {
  const auto largest = [](const glm::dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); };
  glm::dvec3 r = residual(x);
  double lambda = 1e-3;
  for (int iteration = 0; iteration < iterations && largest(r) > tolerance; ++iteration) {
    glm::dmat3 J;  // columns: d residual / d x_j
    for (int j = 0; j < 3; ++j) {
      glm::dvec3 moved = x;
      const double h = step(x, j);
      moved[j] += h;
      J[j] = (residual(moved) - r) / h;
    }
    const glm::dmat3 JtJ = glm::transpose(J) * J;
    glm::dmat3 A = JtJ;
    for (int j = 0; j < 3; ++j) A[j][j] += lambda * (JtJ[j][j] + 1e-9);
    const glm::dvec3 candidate = project(x - glm::inverse(A) * (glm::transpose(J) * r));
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
  return x;
}

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

/// `moduli` times `factors` direction by direction (warp, weft, bias).
MembraneModuli scaled(const MembraneModuli& moduli, const glm::dvec3& factors) {
  return {moduli.warp * factors.x, moduli.weft * factors.y, moduli.bias * factors.z};
}

}  // namespace

double springSheetModulus(const glm::dvec3& channels, double angle) {
  return modulusAlong(sheetCompliance(channels), angle);
}

MembraneModuli springSheetModuli(const glm::dvec3& channels) {
  const glm::dmat3 S = sheetCompliance(channels);  // inverted once for the three directions
  return {modulusAlong(S, 0.0), modulusAlong(S, 0.5 * std::numbers::pi), modulusAlong(S, 0.25 * std::numbers::pi)};
}

namespace {

constexpr int kStiffenedDirections = 180;  ///< edge directions sampled by stiffenedSheetModulus

/// Per sampled edge direction: its unit vector and the blend weights of the three channels.
struct EdgeDirection {
  glm::dvec2 n;
  glm::dvec3 weight;
};
const std::vector<EdgeDirection>& edgeDirections() {
  static const std::vector<EdgeDirection> directions = [] {
    std::vector<EdgeDirection> result;
    const glm::vec4 units[3] = {{1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};
    for (int i = 0; i < kStiffenedDirections; ++i) {
      const double phi = std::numbers::pi * (double(i) + 0.5) / double(kStiffenedDirections);
      EdgeDirection d{{std::cos(phi), std::sin(phi)}, {}};
      for (int k = 0; k < 3; ++k)
        d.weight[k] = double(kernels::anisotropyFactor(units[k], glm::vec2(float(d.n.x), float(d.n.y))));
      result.push_back(d);
    }
    return result;
  }();
  return directions;
}

/// The stress (N/m; xx, yy, xy) of the sheet at the strain (xx, yy, tensor xy).
glm::dvec3 stiffenedStress(const glm::dvec3& channels, const glm::dvec3& stiffening, const glm::dvec3& strain) {
  glm::dvec3 stress(0.0);
  for (const EdgeDirection& d : edgeDirections()) {
    const double e = d.n.x * d.n.x * strain.x + d.n.y * d.n.y * strain.y + 2.0 * d.n.x * d.n.y * strain.z;
    double k = glm::dot(d.weight, channels);
    if (e > 0.0) k *= 1.0 + glm::dot(d.weight, stiffening) * std::min(6.0 * e, 1.0);
    stress += k * e * glm::dvec3(d.n.x * d.n.x, d.n.y * d.n.y, d.n.x * d.n.y);
  }
  return stress / double(kStiffenedDirections);
}

}  // namespace

double stiffenedSheetModulus(const glm::dvec3& channels, const glm::dvec3& stiffening, double angle, double strain) {
  const glm::dvec2 a(std::cos(angle), std::sin(angle)), b(-std::sin(angle), std::cos(angle));
  // The strain strain a a + across b b + shear (a b + b a) / 2, as (xx, yy, tensor xy).
  const auto strainOf = [&](double across, double shear) {
    return glm::dvec3(strain * a.x * a.x + across * b.x * b.x + shear * a.x * b.x,
                      strain * a.y * a.y + across * b.y * b.y + shear * a.y * b.y,
                      strain * a.x * a.y + across * b.x * b.y + 0.5 * shear * (a.x * b.y + a.y * b.x));
  };
  const auto component = [](const glm::dvec3& s, glm::dvec2 u, glm::dvec2 v) {
    return s.x * u.x * v.x + s.y * u.y * v.y + s.z * (u.x * v.y + u.y * v.x);
  };
  // Free sides: no stress across (b b) and no shear (a b); Newton on (across, shear).
  glm::dvec2 x(-0.3 * strain, 0.0);
  const auto residual = [&](glm::dvec2 y) {
    const glm::dvec3 s = stiffenedStress(channels, stiffening, strainOf(y.x, y.y));
    return glm::dvec2(component(s, b, b), component(s, a, b));
  };
  for (int iteration = 0; iteration < 30; ++iteration) {
    const glm::dvec2 r = residual(x);
    const double h = 1e-7 * std::max(std::abs(strain), 1e-6);
    const glm::dvec2 cx = (residual(x + glm::dvec2(h, 0.0)) - r) / h, cy = (residual(x + glm::dvec2(0.0, h)) - r) / h;
    const double det = cx.x * cy.y - cy.x * cx.y;
    if (!(std::abs(det) > 0.0)) break;
    const glm::dvec2 step((r.x * cy.y - cy.x * r.y) / det, (cx.x * r.y - r.x * cx.y) / det);
    x -= step;
    if (glm::length(step) < 1e-12 * std::max(std::abs(strain), 1e-6)) break;
  }
  return component(stiffenedStress(channels, stiffening, strainOf(x.x, x.y)), a, a) / strain;
}

glm::dvec3 fitStrainStiffening(const glm::dvec3& channels, const MembraneModuli& target) {
  constexpr double kStrain = 1.0 / 6.0;
  const double angles[3] = {0.0, 0.5 * std::numbers::pi, 0.25 * std::numbers::pi};
  const glm::dvec3 wanted(std::log(target.warp), std::log(target.weft), std::log(target.bias));
  // Residuals: log of what the stiffened sheet reaches over the target, warp and weft
  // weighing 10 times the bias (as the zero-strain fit, a bias out of reach leaves them).
  const glm::dvec3 weight(10.0, 10.0, 1.0);
  const auto logShortfall = [&](const glm::dvec3& stiffening, int k) {  // log(reached / target) along k
    return std::log(stiffenedSheetModulus(channels, stiffening, angles[k], kStrain)) - wanted[k];
  };
  const auto residual = [&](const glm::dvec3& stiffening) {
    return weight * glm::dvec3(logShortfall(stiffening, 0), logShortfall(stiffening, 1), logShortfall(stiffening, 2));
  };
  // Start: each channel scaled by its own direction's shortfall (a fixed point of that
  // alone), then projected Levenberg-Marquardt on s >= 0 for the coupling between them
  // (a stiffened bias channel also stiffens a warp pull).
  glm::dvec3 s(0.0);
  for (int iteration = 0; iteration < 50; ++iteration)
    for (int k = 0; k < 3; ++k) s[k] = std::max(0.0, (1.0 + s[k]) * std::exp(-logShortfall(s, k)) - 1.0);
  return levenbergMarquardt(
      residual, s, [](const glm::dvec3& x, int j) { return 1e-6 * (1.0 + x[j]); },
      [](const glm::dvec3& x) { return glm::max(x, glm::dvec3(0.0)); }, 100, 1e-7);
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
  const glm::dvec3 x = levenbergMarquardt(
      residual, wanted + std::log(3.0), [](const glm::dvec3&, int) { return 1e-6; },
      [](const glm::dvec3& c) {
        return glm::max(c, glm::dvec3(std::max({c.x, c.y, c.z}) + std::log(1e-6)));
      },
      500, 1e-10);
  const glm::dvec3 r = residual(x);
  SpringChannelFit fit;
  fit.channels = glm::exp(x);
  fit.largestError = std::exp(largest(r / weight)) - 1.0;
  return fit;
}

double hingeRigidityFor(double rigidity) { return rigidity / 3.0; }

namespace {

/// mean over phi of the hinge factor of unit factor `channel` (0 warp, 1 bias, 2 weft)
/// times cos^4(phi - fold), over mean(cos^4) = 3/8.
double unitHingeRigidity(int channel, double foldAngle) {
  const glm::vec4 unit = channel == 0   ? glm::vec4(1.0f, 0.0f, 0.0f, 0.0f)
                         : channel == 1 ? glm::vec4(0.0f, 0.0f, 1.0f, 1.0f)
                                        : glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);
  double sum = 0.0;
  for (int i = 0; i < kDirections; ++i) {
    const double phi = std::numbers::pi * (double(i) + 0.5) / double(kDirections);
    const double c = std::cos(phi - foldAngle);
    sum +=
        double(kernels::anisotropyFactor(unit, glm::vec2(float(std::cos(phi)), float(std::sin(phi))))) * c * c * c * c;
  }
  return sum / double(kDirections) / 0.375;
}

}  // namespace

double hingeSheetRigidity(double D, const glm::dvec3& factors, double foldAngle) {
  double blend = 0.0;
  for (int j = 0; j < 3; ++j) blend += factors[j] * unitHingeRigidity(j, foldAngle);
  return 3.0 * D * blend;
}

glm::dvec3 fitBendingFactors(const glm::dvec3& rigidity) {
  const double D = hingeRigidityFor((rigidity.x + rigidity.y + rigidity.z) / 3.0);
  const double folds[3] = {0.0, 0.25 * std::numbers::pi, 0.5 * std::numbers::pi};
  glm::dmat3 M;  // M[j][k]: column j (factor), row k (fold)
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) M[j][k] = 3.0 * D * unitHingeRigidity(j, folds[k]);
  glm::dvec3 factors = glm::inverse(M) * rigidity;
  // Held factors: solve for the others in least squares (normal equations on the free columns).
  constexpr double kFloor = 0.05;
  for (int pass = 0; pass < 3 && glm::any(glm::lessThan(factors, glm::dvec3(kFloor))); ++pass) {
    glm::bvec3 held = glm::lessThan(factors, glm::dvec3(kFloor));
    glm::dvec3 rest = rigidity;
    for (int j = 0; j < 3; ++j)
      if (held[j]) rest -= M[j] * kFloor;
    glm::dmat3 A(0.0);
    glm::dvec3 b(0.0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        if (held[i] || held[j]) continue;
        A[j][i] = glm::dot(M[i], M[j]);
      }
    for (int i = 0; i < 3; ++i) {
      if (held[i]) {
        A[i][i] = 1.0;
        b[i] = kFloor;
      } else {
        b[i] = glm::dot(M[i], rest);
      }
    }
    factors = glm::inverse(A) * b;
  }
  return factors;
}

PhysicalFabric physicalFabricOf(const MeasuredFabric& fabric) {
  PhysicalFabric result;
  result.density = fabric.density;
  result.moduli = measuredModuli(fabric, 0.0);
  result.strainedModuli = measuredModuli(fabric, 1.0 / 6.0);
  for (int direction = 0; direction < 3; ++direction) {
    double sum = 0.0;
    for (int sample = 0; sample <= 4; ++sample)
      sum += measuredBendingRigidity(fabric, direction, 10.0 * double(sample));
    result.bendingRigidity[direction] = sum / 5.0;
  }
  return result;
}

SpringFabric springFabricOf(const PhysicalFabric& fabric) {
  SpringFabric result;
  result.moduli = fabric.moduli;
  const MeshCorrection& correction = fabric.meshCorrection;
  const SpringChannelFit fit = fitSpringChannels(scaled(result.moduli, correction.modulus));
  result.largestFitError = fit.largestError;
  const double E = std::max({fit.channels.x, fit.channels.y, fit.channels.z});
  result.material.arealDensity = float(fabric.density);
  result.material.areaWeightedMass = true;
  result.strainedModuli = fabric.strainedModuli.value_or(fabric.moduli);
  if (fabric.strainedModuli) {
    const glm::dvec3 stiffening =
        fitStrainStiffening(fit.channels, scaled(*fabric.strainedModuli, correction.strainedModulus));
    result.material.strainStiffening = glm::vec4(glm::dvec4(stiffening.x, stiffening.y, stiffening.z, stiffening.z));
  }
  result.material.tensileStiffness = float(E);
  result.anisotropy = glm::vec4(glm::dvec4(fit.channels.x, fit.channels.y, fit.channels.z, fit.channels.z) / E);
  result.bendingRigidity = fabric.bendingRigidity;
  const double mean = (result.bendingRigidity.x + result.bendingRigidity.y + result.bendingRigidity.z) / 3.0;
  result.material.bendingRigidity = float(hingeRigidityFor(mean));
  result.material.bendingAnisotropy = glm::vec3(fitBendingFactors(result.bendingRigidity));
  return result;
}

SpringFabric springFabricOf(const MeasuredFabric& fabric) { return springFabricOf(physicalFabricOf(fabric)); }

}  // namespace hg
