#include "sim/cloth/MeasuredFabric.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include <nlohmann/json.hpp>

namespace hg {
namespace {

using json = nlohmann::json;

/// Thrown inside the reader only; converted to an Error naming the file at the boundary.
struct ReadError {
  std::string message;
};

double numberAt(const json& value, const std::string& key) {
  if (!value.is_number()) throw ReadError{"'" + key + "' must be a number"};
  const double v = value.get<double>();
  if (!std::isfinite(v)) throw ReadError{"'" + key + "' must be finite"};
  return v;
}

template <std::size_t Rows, std::size_t Columns>
std::array<std::array<double, Columns>, Rows> tableAt(const json& root, const std::string& key) {
  if (!root.contains(key)) throw ReadError{"'" + key + "' is missing"};
  const json& rows = root[key];
  if (!rows.is_array() || rows.size() != Rows)
    throw ReadError{"'" + key + "' must be " + std::to_string(Rows) + " rows of " + std::to_string(Columns) +
                    " numbers"};
  std::array<std::array<double, Columns>, Rows> table{};
  for (std::size_t r = 0; r < Rows; ++r) {
    const std::string rowKey = key + "[" + std::to_string(r) + "]";
    if (!rows[r].is_array() || rows[r].size() != Columns)
      throw ReadError{"'" + rowKey + "' must be " + std::to_string(Columns) + " numbers"};
    for (std::size_t c = 0; c < Columns; ++c)
      table[r][c] = numberAt(rows[r][c], rowKey + "[" + std::to_string(c) + "]");
  }
  return table;
}

std::string textAt(const json& root, const char* key) {
  return root.contains(key) && root[key].is_string() ? root[key].get<std::string>() : std::string();
}

MeasuredFabric readFabric(const json& root) {
  if (!root.is_object()) throw ReadError{"not a JSON object"};
  MeasuredFabric fabric;
  fabric.name = textAt(root, "name");
  fabric.garment = textAt(root, "garment");
  fabric.fibre = textAt(root, "fibre");
  if (!root.contains("density")) throw ReadError{"'density' is missing"};
  fabric.density = numberAt(root["density"], "density");
  if (fabric.density <= 0.0) throw ReadError{"'density' must be > 0 kg/m^2"};
  fabric.stretching = tableAt<6, 4>(root, "stretching");
  fabric.bending = tableAt<3, 5>(root, "bending");
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 5; ++c)
      if (fabric.bending[r][c] < 0.0)
        throw ReadError{"'bending[" + std::to_string(r) + "][" + std::to_string(c) + "]' must be >= 0 N m"};
  return fabric;
}

}  // namespace

Result<MeasuredFabric> loadMeasuredFabric(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Error{file.string() + ": cannot be read"};
  try {
    return readFabric(json::parse(in));
  } catch (const json::exception& e) {
    return Error{file.string() + ": not JSON (" + e.what() + ")"};
  } catch (const ReadError& e) {
    return Error{file.string() + ": " + e.message};
  }
}

std::array<double, 4> membraneCoefficients(const MeasuredFabric& fabric, double strain, double angle) {
  // The angle folded into [0, pi/2] (the data are symmetric about warp and weft).
  double a = std::fmod(std::abs(angle), std::numbers::pi);
  if (a > 0.5 * std::numbers::pi) a = std::numbers::pi - a;
  const double slot = std::min(a / (0.125 * std::numbers::pi), 4.0);  // rows 1..5 every 22.5 degrees
  const int lower = std::min(int(slot), 3);
  const double w = slot - double(lower);
  const auto& zero = fabric.stretching[0];
  const auto& below = fabric.stretching[std::size_t(lower) + 1];
  const auto& above = fabric.stretching[std::size_t(lower) + 2];
  const double s = std::clamp(strain * 6.0, 0.0, 1.0);  // 0 at zero strain, 1 at 1/6
  // Interpolated, then each negative entry set to 0 and doubled, as dde.cpp does.
  std::array<double, 4> k{};
  for (std::size_t i = 0; i < 4; ++i)
    k[i] = 2.0 * std::max(0.0, (1.0 - s) * zero[i] + s * ((1.0 - w) * below[i] + w * above[i]));
  return k;
}

double uniaxialModulus(const MeasuredFabric& fabric, double angle, double strain) {
  const std::array<double, 4> k = membraneCoefficients(fabric, strain, angle);
  // Compliance of [[k0, k1, 0], [k1, k2, 0], [0, 0, k3 / 2]] (engineering shear).
  const double det = k[0] * k[2] - k[1] * k[1];
  if (det <= 0.0) return 0.0;  // no stiffness against some stretch: the strip gives way
  const double c = std::cos(angle), s = std::sin(angle);
  const double mixed = c * c * s * s;
  const double shear = 0.5 * k[3];
  if (mixed > 1e-12 && shear <= 0.0) return 0.0;  // pulled off the axes with no shear stiffness
  const double s11 = k[2] / det, s22 = k[0] / det, s12 = -k[1] / det;
  const double s66 = mixed > 1e-12 ? 1.0 / shear : 0.0;
  return 1.0 / (s11 * c * c * c * c + (2.0 * s12 + s66) * mixed + s22 * s * s * s * s);
}

double measuredBendingRigidity(const MeasuredFabric& fabric, int direction, double curvature) {
  const auto& row = fabric.bending[std::size_t(std::clamp(direction, 0, 2))];
  const double slot = std::clamp(curvature / 10.0, 0.0, 4.0);  // samples every 10 1/m
  const int lower = std::min(int(slot), 3);
  const double w = slot - double(lower);
  return 0.25 * ((1.0 - w) * row[std::size_t(lower)] + w * row[std::size_t(lower) + 1]);
}

}  // namespace hg
