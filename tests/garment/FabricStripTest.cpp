// A strip of measured fabric, meshed as garment panels are (CGAL, sim/garment/PanelMesher.h)
// with the springs its preset maps to (sim/cloth/FabricMapping.h), pulled along the warp,
// the weft and the bias to 1 % strain and solved for static equilibrium: the tension per
// width per strain must be the measured modulus (docs/methods.md section 10), at any edge
// length. The equilibrium is found by Newton's method on the springs' energy (Eigen's sparse
// Cholesky), not by the dynamic solvers: it isolates the mapping from damping and time
// steps.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <glm/geometric.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/garment/PanelMesher.h"

namespace hg {
namespace {

constexpr double kPi = std::numbers::pi;

/// The panel of a strip `length` x `width` (m) whose long axis lies `angle` radians from the
/// warp (panel +y) toward the weft (panel -x); counter-clockwise corners.
Pattern stripPattern(double angle, double length, double width) {
  const glm::dvec2 axis(-std::sin(angle), std::cos(angle)), across(std::cos(angle), std::sin(angle));
  const glm::dvec2 corners[4] = {-0.5 * length * axis - 0.5 * width * across,
                                 0.5 * length * axis - 0.5 * width * across, 0.5 * length * axis + 0.5 * width * across,
                                 -0.5 * length * axis + 0.5 * width * across};
  Panel panel;
  panel.name = "strip";
  for (int k = 0; k < 4; ++k)
    panel.edges.push_back({std::string(1, 'e').append(std::to_string(k)),  // not "e" + ...: GCC 12's -Wrestrict
                           {glm::vec2(corners[k]), glm::vec2(corners[(k + 1) % 4])}});
  // Counter-clockwise seen from +z: flip if the corners run the other way.
  if (panel.area() < 0.0) {
    std::vector<PanelEdge> reversed;
    for (int k = 3; k >= 0; --k)
      reversed.push_back({panel.edges[std::size_t(k)].name,
                          {panel.edges[std::size_t(k)].points[1], panel.edges[std::size_t(k)].points[0]}});
    panel.edges = reversed;
  }
  Pattern pattern;
  pattern.name = "strip";
  pattern.panels.push_back(panel);
  return pattern;
}

/// The static tension (N per m of width per unit strain) of the strip pulled by `strain`
/// along its axis: grips at both ends hold the axial coordinate of their vertices (free to
/// contract across), the springs of `model` (its stiffness with the anisotropy) in the plane.
double stripModulus(const ClothModel& model, double angle, double length, double width, double strain) {
  const glm::dvec2 axis(-std::sin(angle), std::cos(angle)), across(std::cos(angle), std::sin(angle));
  const std::size_t n = model.vertexCount();
  std::vector<glm::dvec2> rest(n);
  for (std::size_t i = 0; i < n; ++i) rest[i] = glm::dvec2(model.restPositions[i].x, model.restPositions[i].y);
  // Grip vertices and the coordinates held: axial at both ends, one across (no drift).
  std::vector<int> grip(n, 0);  // -1 fixed end, +1 pulled end
  for (std::size_t i = 0; i < n; ++i) {
    const double s = glm::dot(rest[i], axis);
    if (s < -0.5 * length + 1e-6) grip[i] = -1;
    if (s > 0.5 * length - 1e-6) grip[i] = 1;
  }
  // Unknowns: (axial, across) per vertex in the strip's frame; start from the affine
  // stretch, Poisson 1/3.
  std::vector<glm::dvec2> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double s = glm::dot(rest[i], axis), t = glm::dot(rest[i], across);
    x[i] = glm::dvec2(s * (1.0 + strain), t * (1.0 - strain / 3.0));
  }
  std::size_t anchor = n;
  for (std::size_t i = 0; i < n && anchor == n; ++i)
    if (grip[i] == -1) anchor = i;
  const auto held = [&](std::size_t i, int c) { return (c == 0 && grip[i] != 0) || (c == 1 && i == anchor); };
  const auto energy = [&](const std::vector<glm::dvec2>& p) {
    double e = 0.0;
    for (const auto& s : model.springs) {
      const double r = glm::distance(p[s.a], p[s.b]);
      e += 0.5 * double(s.stiffness) * (r - double(s.restLength)) * (r - double(s.restLength));
    }
    return e;
  };
  for (int iteration = 0; iteration < 30; ++iteration) {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(Eigen::Index(2 * n));
    std::vector<Eigen::Triplet<double>> h;
    for (const auto& s : model.springs) {
      const glm::dvec2 d = x[s.b] - x[s.a];
      const double r = glm::length(d), L = double(s.restLength), k = double(s.stiffness);
      const glm::dvec2 u = d / r;
      const glm::dvec2 f = k * (r - L) * u;               // dE/dx_b
      const double lateral = std::max(1.0 - L / r, 0.0);  // projected: positive semi-definite
      const double block[2][2] = {{k * (lateral + (L / r) * u.x * u.x), k * (L / r) * u.x * u.y},
                                  {k * (L / r) * u.x * u.y, k * (lateral + (L / r) * u.y * u.y)}};
      const std::uint32_t ends[2] = {s.a, s.b};
      for (int a = 0; a < 2; ++a) {
        g(Eigen::Index(2 * ends[a])) += (a == 0 ? -f.x : f.x);
        g(Eigen::Index(2 * ends[a] + 1)) += (a == 0 ? -f.y : f.y);
        for (int b = 0; b < 2; ++b)
          for (int r0 = 0; r0 < 2; ++r0)
            for (int c0 = 0; c0 < 2; ++c0)
              if (!held(ends[a], r0) && !held(ends[b], c0))  // held coordinates: decoupled
                h.emplace_back(Eigen::Index(2 * ends[a] + std::uint32_t(r0)),
                               Eigen::Index(2 * ends[b] + std::uint32_t(c0)), (a == b ? 1.0 : -1.0) * block[r0][c0]);
      }
    }
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 2; ++c)
        if (held(i, c)) {
          g(Eigen::Index(2 * i + std::size_t(c))) = 0.0;
          h.emplace_back(Eigen::Index(2 * i + std::size_t(c)), Eigen::Index(2 * i + std::size_t(c)), 1.0);
        }
    Eigen::SparseMatrix<double> H(Eigen::Index(2 * n), Eigen::Index(2 * n));
    H.setFromTriplets(h.begin(), h.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(H);
    if (solver.info() != Eigen::Success) return -1.0;
    const Eigen::VectorXd step = solver.solve(-g);
    if (step.lpNorm<Eigen::Infinity>() < 1e-13) break;
    double t = 1.0;  // backtracking on the energy
    const double e0 = energy(x);
    std::vector<glm::dvec2> trial(n);
    for (int k = 0; k < 20; ++k, t *= 0.5) {
      for (std::size_t i = 0; i < n; ++i)
        trial[i] = x[i] + t * glm::dvec2(step(Eigen::Index(2 * i)), step(Eigen::Index(2 * i + 1)));
      if (energy(trial) <= e0) break;
    }
    x = trial;
  }
  // The pulled grip's reaction: the springs' axial force on its vertices.
  double force = 0.0;
  for (const auto& s : model.springs) {
    const glm::dvec2 d = x[s.b] - x[s.a];
    const double r = glm::length(d);
    const glm::dvec2 f = double(s.stiffness) * (r - double(s.restLength)) * d / r;  // pulls a toward b
    if (grip[s.a] == 1) force += f.x;
    if (grip[s.b] == 1) force -= f.x;
  }
  return -force / (width * strain);
}

/// The strip of `fabric` at edge length `edge` pulled along `angle`: its modulus (N/m).
double measuredStripModulus(const SpringFabric& fabric, double angle, float edge) {
  const double length = 0.30, width = 0.10;
  MeshingOptions options;
  options.targetEdgeLength = edge;
  auto meshed = meshPattern(stripPattern(angle, length, width), options);
  EXPECT_TRUE(meshed) << meshed.error().message;
  if (!meshed) return 0.0;
  auto model =
      buildClothModel(meshed->panels[0].mesh, fabric.material, {}, AnisotropyTexture::uniform(fabric.anisotropy, 1.0f));
  EXPECT_TRUE(model) << model.error().message;
  if (!model) return 0.0;
  return stripModulus(*model, angle, length, width, 0.01);
}

TEST(FabricStrip, AKnitStripHasItsMeasuredModuliAtEveryEdgeLength) {
  // The t-shirt interlock: weft 69 N/m, bias 56, warp 33. Without its mesh correction the
  // warp read 20-35 % soft (21.8, 23.9, 26.4 N/m at 2 cm, 1 cm, 5 mm): pulled along its soft
  // channel, the irregular network gives way by turning its stiff springs rather than
  // stretching them evenly, which the Cauchy-Born fit does not see. The library's
  // correction (measured on the bench's strips at 1 cm, fitMeshCorrection) raises the warp
  // channel from 0.08 to 0.24 of the weft's; this strip, of another size, then reads all
  // three within 3 % at 2 and 1 cm (and within 10 % at 5 mm, bench/RESULTS.md).
  auto fabric = findLibraryFabric(fabricLibraryDirectory(), "tshirt_interlock");
  ASSERT_TRUE(fabric) << fabric.error().message;
  ASSERT_FALSE(fabric->physical.meshCorrection.none());
  const SpringFabric spring = springFabricOf(fabric->physical);
  for (const float edge : {0.02f, 0.01f}) {
    const double warp = measuredStripModulus(spring, 0.0, edge);
    const double weft = measuredStripModulus(spring, 0.5 * kPi, edge);
    const double bias = measuredStripModulus(spring, 0.25 * kPi, edge);
    std::printf("[ strip ] edge %.3f m: warp %.1f (measured %.1f), weft %.1f (%.1f), bias %.1f (%.1f) N/m\n",
                double(edge), warp, spring.moduli.warp, weft, spring.moduli.weft, bias, spring.moduli.bias);
    EXPECT_NEAR(warp / spring.moduli.warp, 1.0, 0.10) << edge;
    EXPECT_NEAR(weft / spring.moduli.weft, 1.0, 0.10) << edge;
    EXPECT_NEAR(bias / spring.moduli.bias, 1.0, 0.10) << edge;
  }
  // Without the correction the warp is soft by more than the bound.
  PhysicalFabric uncorrected = fabric->physical;
  uncorrected.meshCorrection = MeshCorrection{};
  EXPECT_LT(measuredStripModulus(springFabricOf(uncorrected), 0.0, 0.01f) / spring.moduli.warp, 0.85);
}

}  // namespace
}  // namespace hg
