#pragma once
/// Measured cloth of Wang, Ramamoorthi and O'Brien, "Data-Driven Elastic Models for Cloth:
/// Modeling and Measurement" (SIGGRAPH 2011, [R26] in docs/methods.md), in the files the
/// authors distributed with the ARCSim simulator (data/fabrics/wang2011/), and what they
/// mean as a continuum: membrane moduli along any direction at zero and at 1/6 strain, and
/// bending rigidity per direction. Read as ARCSim reads them (conf.cpp, dde.cpp,
/// physics.cpp of ARCSim 0.3; docs/methods.md section 10):
///
/// - `density`: kg/m^2.
/// - `stretching`: 6 rows (k0, k1, k2, k3). The membrane energy per unit rest area is
///   W = 1/2 k0 G00^2 + k1 G00 G11 + 1/2 k2 G11^2 + k3 G01^2 (G the Green strain in the
///   warp (0), weft (1) frame), with k = 2 x a row, each negative entry clamped to 0 first.
///   Row 0 holds at zero strain; rows 1-5 at a largest principal stretch of 7/6, its
///   direction 0, 22.5, 45, 67.5 and 90 degrees from the warp. In between, k is linear in
///   the principal strain (0 to 1/6, constant beyond) and in the angle.
/// - `bending`: 3 rows (a hinge edge at 0, 45, 90 degrees from the warp) of 5 values at
///   curvatures 0, 10, 20, 30, 40 1/m. ARCSim's hinge energy ke l^2 (theta - theta0)^2 /
///   (8 (A0 + A1)) makes the continuum bending rigidity D = ke / 4 (N m) on any regular mesh.
#include <array>
#include <filesystem>
#include <string>

#include "sim/core/Result.h"

namespace hg {

struct MeasuredFabric {
  std::string name, garment, fibre;  ///< as in the file
  double density = 0.0;              ///< kg/m^2
  /// The file's stretching rows (N/m, before ARCSim's factor 2): [0] at zero strain, [1..5]
  /// at 1/6 strain along 0, 22.5, 45, 67.5, 90 degrees from the warp.
  std::array<std::array<double, 4>, 6> stretching{};
  /// The file's bending values (N m, ARCSim's ke): [direction 0, 45, 90 deg][curvature 0..40 1/m].
  std::array<std::array<double, 5>, 3> bending{};
};

/// Reads one ARCSim material file; errors name the file and the key (a missing or non-numeric
/// entry, a row of the wrong length, a non-positive density, a negative bending value).
Result<MeasuredFabric> loadMeasuredFabric(const std::filesystem::path& file);

/// The membrane coefficients (k0, k1, k2, k3), N/m, at principal strain `strain` (clamped to
/// [0, 1/6]) whose direction lies `angle` radians from the warp (folded into [0, pi/2]).
std::array<double, 4> membraneCoefficients(const MeasuredFabric& fabric, double strain, double angle);

/// The uniaxial modulus (N/m, tension per unit width per unit strain) of a strip pulled
/// along `angle` radians from the warp with its sides free, at principal strain `strain`:
/// 1 / (S11 c^4 + (2 S12 + S66) c^2 s^2 + S22 s^4) with S the compliance of
/// [[k0, k1, 0], [k1, k2, 0], [0, 0, k3 / 2]] (engineering shear strain).
double uniaxialModulus(const MeasuredFabric& fabric, double angle, double strain);

/// The continuum bending rigidity D (N m) of a fold whose hinge lies along `direction`
/// (0: warp, 1: 45 degrees, 2: weft) at curvature `curvature` (1/m, clamped to [0, 40]):
/// the file's value interpolated, over 4.
double measuredBendingRigidity(const MeasuredFabric& fabric, int direction, double curvature);

}  // namespace hg
