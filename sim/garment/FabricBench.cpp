#include "sim/garment/FabricBench.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <optional>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/cloth/ClothSolver.h"
#include "sim/cloth/StableStep.h"
#include "sim/cloth/StaticEquilibrium.h"
#include "sim/geometry/CgalGeometry.h"
#include "sim/kernels/Kernels.h"

namespace hg {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kGravity = 9.81;  // m/s^2
constexpr double kFrameDt = 1.0 / 60.0;

/// The points of a closed polygon with straight sides, each side cut into pieces of at
/// most `spacing` (m); counter-clockwise when the corners are.
std::vector<glm::dvec2> resampledPolygon(std::span<const glm::dvec2> corners, double spacing) {
  std::vector<glm::dvec2> points;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const glm::dvec2 a = corners[i], b = corners[(i + 1) % corners.size()];
    const int pieces = std::max(1, int(std::ceil(glm::distance(a, b) / spacing - 1e-9)));
    for (int k = 0; k < pieces; ++k) points.push_back(glm::mix(a, b, double(k) / pieces));
  }
  return points;
}

/// A circle of `radius` (m) as a counter-clockwise polygon with sides of at most `spacing`.
std::vector<glm::dvec2> circlePoints(double radius, double spacing) {
  const int count = std::max(12, int(std::ceil(2.0 * kPi * radius / spacing)));
  std::vector<glm::dvec2> points(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) {
    const double phi = 2.0 * kPi * k / count;
    points[std::size_t(k)] = radius * glm::dvec2(std::cos(phi), std::sin(phi));
  }
  return points;
}

/// The specimen as a horizontal mesh facing +y: planar point (x, y) at (x, 0, -y); UVs with
/// the planar x axis `angle` radians from the warp toward the weft (u warp, v weft).
TriangleMesh horizontalMesh(const cgal::PlanarMesh& planar, double angle) {
  TriangleMesh mesh;
  const glm::dvec2 axis(std::cos(angle), std::sin(angle)), across(-std::sin(angle), std::cos(angle));
  for (const glm::dvec2& p : planar.points) {
    mesh.positions.emplace_back(float(p.x), 0.0f, float(-p.y));
    mesh.uvs.emplace_back(glm::vec2(p.x * axis + p.y * across));
  }
  mesh.indices = planar.triangles;
  computeVertexNormals(mesh);
  return mesh;
}

AnisotropyTexture benchAnisotropy(glm::vec4 multipliers) {
  const float largest = std::max({multipliers.x, multipliers.y, multipliers.z, multipliers.w, 1.0f});
  return AnisotropyTexture::uniform(multipliers, largest);
}

/// The solver of a specimen: explicit substeps at the stable count, no colliders, gravity
/// as given.
Result<std::unique_ptr<ClothSolver>> specimenSolver(std::shared_ptr<const ClothModel> model, glm::vec3 gravity,
                                                    const FabricBenchSettings& settings) {
  if (!settings.solverFactory) return Error{"fabric bench: no solver backend"};
  ClothSettings cloth;
  cloth.gravity = gravity;
  cloth.frameDt = float(kFrameDt);
  cloth.substeps = 0;
  cloth.colliders = ClothColliders{};
  cloth.featureContacts = false;
  cloth.threads = settings.threads;
  return settings.solverFactory(std::move(model), cloth);
}

/// The error of an unstable step of `what`, naming the fastest vertex.
Error unstable(const ClothSolver& solver, const std::string& what) {
  const auto fastest = fastestVertex(solver.readState());
  return simulationError(what + ": the cloth went unstable (" +
                         (fastest ? describe(*fastest) : std::string("no vertex")) + ")");
}

/// Relaxes to rest; adds to `outcome`; an unstable step is an error naming `what`.
Status relax(ClothSolver& solver, const FabricBenchSettings& settings, const std::string& what, RelaxOutcome& outcome) {
  const int substepsPerFrame = std::max(1, solver.settings().substeps);
  const int cap = int(std::min(2e9, settings.maxSimulatedSeconds / kFrameDt * substepsPerFrame));
  // Rest is judged after a quarter second: a specimen let go from rest moves slowly in its
  // first frames however far it is from equilibrium.
  constexpr int kFirstFrames = 15;
  for (int frame = 0; frame < kFirstFrames; ++frame) {
    const StepStatus status = solver.step();
    outcome.substeps += solver.lastSubsteps();
    if (any(status)) return unstable(solver, what);
  }
  const RelaxReport report = solver.relaxToRest(float(settings.restSpeed), cap);
  outcome.substeps += report.iterations;
  outcome.largestSpeed = std::max(outcome.largestSpeed, double(report.maxSpeed));
  if (any(report.status)) return unstable(solver, what);
  outcome.converged = outcome.converged && report.converged;
  return {};
}

/// Moves `positions` to the static equilibrium of `model` under `gravity` (pinned vertices
/// held); adds to `outcome`; a failed or unconverged solve is an error naming `what`.
Status solveStatics(const ClothModel& model, glm::vec3 gravity, std::vector<glm::vec4>& positions,
                    const std::string& what, RelaxOutcome& outcome) {
  StaticSolveSettings statics;
  statics.gravity = gravity;
  auto report = solveStaticEquilibrium(model, statics, positions);
  if (!report) return report.error().prefixed("fabric bench: " + what + ": ");
  outcome.newtonSteps += report->iterations;
  outcome.largestForce = std::max(outcome.largestForce, report->largestForce);
  outcome.converged = outcome.converged && report->converged;
  return {};
}

Result<cgal::PlanarMesh> meshRectangle(double x0, double x1, double halfWidth, double edge) {
  const glm::dvec2 corners[4] = {{x0, -halfWidth}, {x1, -halfWidth}, {x1, halfWidth}, {x0, halfWidth}};
  auto planar = cgal::meshPolygon(resampledPolygon(corners, edge), edge, 0.125, 10);
  if (!planar) return planar.error().prefixed("fabric bench: meshing the strip: ");
  return planar;
}

Result<ClothModel> specimenModel(const TriangleMesh& mesh, const BenchFabric& fabric, const PinSet& pinned) {
  // Every vertex weighs a third of its triangles, as the fabric does: with equal masses the
  // rim of a coarse mesh (few vertices inside, many on the edge) would be heavier than the
  // fabric and drape lower.
  ClothMaterial material = fabric.material;
  material.areaWeightedMass = true;
  auto model = buildClothModel(mesh, material, pinned, benchAnisotropy(fabric.anisotropy));
  if (!model) return model.error().prefixed("fabric bench: ");
  applyAnisotropy(*model);
  return model;
}

constexpr double kStripLength = 0.20;  // m, gauge length (ISO 13934-1)
constexpr double kStripWidth = 0.05;   // m

/// The least-squares slope of y against x.
double slope(std::span<const double> x, std::span<const double> y) {
  const double n = double(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n, my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxy / sxx;
}

}  // namespace

const char* benchDirectionName(BenchDirection direction) {
  switch (direction) {
    case BenchDirection::Warp:
      return "warp";
    case BenchDirection::Weft:
      return "weft";
    case BenchDirection::Bias:
      return "bias";
  }
  return "?";
}

double benchDirectionAngle(BenchDirection direction) {
  switch (direction) {
    case BenchDirection::Warp:
      return 0.0;
    case BenchDirection::Weft:
      return 0.5 * kPi;
    case BenchDirection::Bias:
      return 0.25 * kPi;
  }
  return 0.0;
}

Result<TensileCurve> runTensileTest(const BenchFabric& fabric, BenchDirection direction,
                                    std::span<const double> gripStrains, const FabricBenchSettings& settings) {
  const double half = 0.5 * kStripLength;
  auto planar = meshRectangle(-half, half, 0.5 * kStripWidth, settings.edgeLength);
  if (!planar) return planar.error();
  const TriangleMesh mesh = horizontalMesh(*planar, benchDirectionAngle(direction));
  // The jaws: every vertex on either end.
  PinSet jaws;
  std::vector<std::uint32_t> movingJaw;
  for (std::size_t i = 0; i < planar->points.size(); ++i) {
    const double x = planar->points[i].x;
    if (std::abs(std::abs(x) - half) < 1e-9) jaws.push_back(std::uint32_t(i));
    if (std::abs(x - half) < 1e-9) movingJaw.push_back(std::uint32_t(i));
  }
  auto model = specimenModel(mesh, fabric, jaws);
  if (!model) return model.error();
  auto shared = std::make_shared<const ClothModel>(std::move(model).value());
  // The dynamic path relaxes the backend's solver; the static one solves for the
  // equilibrium of these positions.
  std::unique_ptr<ClothSolver> solver;
  if (!settings.staticSolve) {
    auto made = specimenSolver(shared, glm::vec3(0.0f), settings);
    if (!made) return made.error();
    solver = std::move(made).value();
  }
  ClothState state = restState(*shared);
  const kernels::ClothStepParams params = ClothSettings{}.stepParams(*shared, 1, 0.0f);  // the specimens' tension law

  TensileCurve curve;
  curve.direction = direction;
  curve.vertices = shared->vertexCount();
  // The springs crossing the middle (x = 0 at rest), read once: no plasticity here, so their
  // rest lengths and stiffness stay (on the GPU every read is a transfer).
  std::vector<kernels::ClothSpring> crossing;
  for (const kernels::ClothSpring& s : solver ? solver->readSprings() : shared->springs)
    if ((planar->points[s.a].x < 0.0) != (planar->points[s.b].x < 0.0)) crossing.push_back(s);
  const std::string what = std::string("tensile test (") + benchDirectionName(direction) + ")";
  double previousStrain = 0.0;
  for (const double gripStrain : gripStrains) {
    // Every vertex stretched affinely about the fixed jaw to the new separation first: the
    // strip starts near its new equilibrium (a jaw jumping alone would whip its neighbours
    // past the speed limit) and comes to rest sooner.
    const double ratio = (1.0 + gripStrain) / (1.0 + previousStrain);
    for (glm::vec4& p : state.positions) p.x = float(-half + (double(p.x) + half) * ratio);
    for (glm::vec4& v : state.velocities) v = glm::vec4(0.0f);
    previousStrain = gripStrain;
    std::vector<glm::vec3> targets;
    for (const std::uint32_t v : movingJaw) {
      glm::vec3 p = mesh.positions[v];
      p.x = float(half + gripStrain * kStripLength);
      targets.push_back(p);
    }
    if (solver) {
      solver->writeState(state);
      solver->setPinTargets(movingJaw, targets);
      if (auto status = relax(*solver, settings, what, curve.relax); !status) return status.error();
      state = solver->readState();
    } else {
      for (std::size_t k = 0; k < movingJaw.size(); ++k)
        state.positions[movingJaw[k]] = glm::vec4(targets[k], state.positions[movingJaw[k]].w);
      if (auto status = solveStatics(*shared, glm::vec3(0.0f), state.positions, what, curve.relax); !status)
        return status.error();
    }
    // Extensometer: the middle half of the gauge length.
    std::vector<double> restX, nowX;
    for (std::size_t i = 0; i < planar->points.size(); ++i)
      if (std::abs(planar->points[i].x) <= 0.25 * kStripLength) {
        restX.push_back(planar->points[i].x);
        nowX.push_back(state.positions[i].x);
      }
    // The force across the middle: the springs whose ends lie on either side of x = 0.
    double force = 0.0;
    for (const kernels::ClothSpring& s : crossing) {
      const double xa = planar->points[s.a].x, xb = planar->points[s.b].x;
      const glm::vec3 d = glm::vec3(state.positions[s.b]) - glm::vec3(state.positions[s.a]);
      const float length = glm::length(d);
      const double along = d.x / length * (xb > xa ? 1.0 : -1.0);
      force += double(kernels::tensionMagnitude(length, s.restLength, s.stiffness, s.strainStiffening, params)) * along;
    }
    curve.gripStrain.push_back(gripStrain);
    curve.strain.push_back(slope(restX, nowX) - 1.0);
    curve.tension.push_back(force / kStripWidth);
  }
  return curve;
}

namespace {

/// The tensile strips' moduli at zero and at 1/6 strain (warp, weft, bias), and the
/// reference's at the strains the extensometer read.
struct StripReadings {
  glm::dvec3 atZero{0.0}, atOneSixth{0.0}, referenceAtZero{0.0}, referenceAtOneSixth{0.0};
};

Result<StripReadings> readStrips(const PhysicalFabric& fabric, const ReferenceModulus& reference,
                                 const FabricBenchSettings& settings) {
  const SpringFabric spring = springFabricOf(fabric);
  const BenchFabric bench{spring.material, spring.anisotropy};
  static constexpr double kStrains[] = {0.005, 0.01, 1.0 / 6.0};
  constexpr BenchDirection kOrder[3] = {BenchDirection::Warp, BenchDirection::Weft, BenchDirection::Bias};
  StripReadings readings;
  for (int d = 0; d < 3; ++d) {
    auto curve = runTensileTest(bench, kOrder[d], kStrains, settings);
    if (!curve) return curve.error();
    const double angle = benchDirectionAngle(kOrder[d]);
    readings.atZero[d] = curve->modulusAtZeroStrain();
    readings.atOneSixth[d] = curve->secantModulus(2);
    if (!(readings.atZero[d] > 0.0 && readings.atOneSixth[d] > 0.0 && std::isfinite(readings.atZero[d]) &&
          std::isfinite(readings.atOneSixth[d])))
      return Error{std::string("the ") + benchDirectionName(kOrder[d]) + " strip read no positive modulus (" +
                   std::to_string(readings.atZero[d]) + " N/m at 0, " + std::to_string(readings.atOneSixth[d]) +
                   " N/m at 1/6 strain)"};
    readings.referenceAtZero[d] = reference(angle, 0.0);
    readings.referenceAtOneSixth[d] = reference(angle, curve->strain[2]);
  }
  return readings;
}

/// `correction` with each factor whose corrected target the affine fit does not reach (its
/// sheet's modulus more than 2 % from it: a woven bias softer than the blend allows, a
/// modulus that softens with strain) put back to `before`'s unless it moved toward what the
/// fit reaches, and every factor clamped to the allowed range: such a target would
/// otherwise drift every round without effect.
glm::dvec3 asVector(const MembraneModuli& m) { return {m.warp, m.weft, m.bias}; }
MembraneModuli asModuli(const glm::dvec3& v) { return {v.x, v.y, v.z}; }

void keepReachable(const PhysicalFabric& fabric, const MeshCorrection& before, MeshCorrection& correction) {
  // Each factor whose target the fit misses by more than 2 % keeps `previous`, unless it
  // moved toward what the fit reaches; all clamped.
  const auto settle = [](glm::dvec3& factors, const glm::dvec3& previous, const glm::dvec3& reached,
                         const glm::dvec3& target) {
    for (int d = 0; d < 3; ++d) {
      const bool outOfReach = std::abs(reached[d] / target[d] - 1.0) > 0.02;
      const bool towardReach = (factors[d] - previous[d]) * (reached[d] - target[d]) > 0.0;
      if (outOfReach && !towardReach) factors[d] = previous[d];
      factors[d] = std::clamp(factors[d], kMeshCorrectionMin, kMeshCorrectionMax);
    }
  };
  const glm::dvec3 target = asVector(fabric.moduli) * correction.modulus;
  settle(correction.modulus, before.modulus, asVector(springSheetModuli(fitSpringChannels(asModuli(target)).channels)),
         target);
  if (!fabric.strainedModuli) return;
  const glm::dvec3 channels = fitSpringChannels(asModuli(asVector(fabric.moduli) * correction.modulus)).channels;
  const glm::dvec3 strainedTarget = asVector(*fabric.strainedModuli) * correction.strainedModulus;
  const glm::dvec3 stiffening = fitStrainStiffening(channels, asModuli(strainedTarget));
  glm::dvec3 reached;
  const double angles[3] = {0.0, 0.5 * kPi, 0.25 * kPi};
  for (int d = 0; d < 3; ++d) reached[d] = stiffenedSheetModulus(channels, stiffening, angles[d], 1.0 / 6.0);
  settle(correction.strainedModulus, before.strainedModulus, reached, strainedTarget);
}

/// How good a round is: the number of the six errors within 10 % (the bound), then
/// the smaller sum of squares, each error counted up to 50 %.
struct RoundScore {
  int within = 0;
  double squares = 0.0;
  bool betterThan(const RoundScore& other) const {
    return within != other.within ? within > other.within : squares < other.squares;
  }
};

RoundScore scoreOf(const glm::dvec3& atZero, const glm::dvec3& atOneSixth) {
  RoundScore score;
  for (int d = 0; d < 3; ++d)
    for (const double e : {atZero[d], atOneSixth[d]}) {
      score.within += std::abs(e) <= 0.10 ? 1 : 0;
      score.squares += std::min(e * e, 0.25);  // beyond 50 % a direction is out of reach: no weight
    }
  return score;
}

/// The factors and the strips' moduli of the previous round, per direction.
struct SecantPoint {
  glm::dvec3 factor, modulus;
};

/// The next factors: per direction, the secant on log(modulus) against log(factor) through
/// this round and the previous one (the strip's modulus grows faster than its factor where
/// the network gives way, so a plain ratio overshoots and oscillates), its slope held to
/// [1/4, 4], each step at most a factor 1.5 either way; the ratio (slope 1) in the first
/// round. `previous` becomes this round.
glm::dvec3 secantStep(const glm::dvec3& factor, const glm::dvec3& modulus, const glm::dvec3& reference,
                      std::optional<SecantPoint>& previous) {
  glm::dvec3 next = factor;
  for (int d = 0; d < 3; ++d) {
    double slope = 1.0;
    if (previous) {
      const double run = std::log(factor[d] / previous->factor[d]);
      if (std::abs(run) > 1e-9) slope = std::clamp(std::log(modulus[d] / previous->modulus[d]) / run, 0.25, 4.0);
    }
    next[d] = factor[d] * std::clamp(std::exp(std::log(reference[d] / modulus[d]) / slope), 2.0 / 3.0, 1.5);
  }
  previous = SecantPoint{factor, modulus};
  return next;
}

double largestMagnitude(const glm::dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

}  // namespace

Result<MeshCorrectionFit> fitMeshCorrection(const PhysicalFabric& fabric, const ReferenceModulus& reference,
                                            const FabricBenchSettings& settings, int maxRounds, double tolerance) {
  MeshCorrectionFit fit;
  PhysicalFabric corrected = fabric;
  corrected.meshCorrection = MeshCorrection{};
  corrected.meshCorrection.edgeLength = settings.edgeLength;
  std::optional<SecantPoint> previousAtZero, previousAtOneSixth;
  std::optional<RoundScore> best;
  for (int round = 0;; ++round) {
    auto strips = readStrips(corrected, reference, settings);
    if (!strips) return strips.error().prefixed("mesh correction: ");
    const glm::dvec3 atZero = (strips->atZero - strips->referenceAtZero) / strips->referenceAtZero;
    const glm::dvec3 atOneSixth = (strips->atOneSixth - strips->referenceAtOneSixth) / strips->referenceAtOneSixth;
    if (round == 0) {
      fit.initialErrorAtZero = atZero;
      fit.initialErrorAtOneSixth = atOneSixth;
    }
    const RoundScore score = scoreOf(atZero, fabric.strainedModuli ? atOneSixth : atZero);
    if (!best || score.betterThan(*best)) {
      best = score;
      fit.correction = corrected.meshCorrection;
      fit.errorAtZero = atZero;
      fit.errorAtOneSixth = atOneSixth;
    }
    fit.rounds = round;
    const double largest =
        std::max(largestMagnitude(atZero), fabric.strainedModuli ? largestMagnitude(atOneSixth) : 0.0);
    if (largest < tolerance || round >= maxRounds) break;
    MeshCorrection& c = corrected.meshCorrection;
    const MeshCorrection before = c;
    c.modulus = secantStep(c.modulus, strips->atZero, strips->referenceAtZero, previousAtZero);
    if (fabric.strainedModuli)
      c.strainedModulus =
          secantStep(c.strainedModulus, strips->atOneSixth, strips->referenceAtOneSixth, previousAtOneSixth);
    keepReachable(corrected, before, c);
    if (c.modulus == before.modulus && c.strainedModulus == before.strainedModulus) break;  // nothing left in reach
  }
  return fit;
}

double peirceBendingLength(double overhang, double chordAngle) {
  return overhang * std::cbrt(std::cos(0.5 * chordAngle) / (8.0 * std::tan(chordAngle)));
}

Result<CantileverResult> runCantileverTest(const BenchFabric& fabric, BenchDirection direction, double expectedRigidity,
                                           const FabricBenchSettings& settings) {
  if (!(expectedRigidity > 0.0)) return Error{"fabric bench: the cantilever needs a positive expected rigidity"};
  constexpr double kWidth = 0.025;                                        // m, BS 3356
  const double weight = double(fabric.material.arealDensity) * kGravity;  // N/m^2
  const double overhang = 2.0 * std::cbrt(expectedRigidity / weight);
  const double clamp = 0.25 * overhang;  // m of strip held on the bench
  const double edge = std::min(settings.edgeLength, overhang / 16.0);
  auto planar = meshRectangle(-clamp, overhang, 0.5 * kWidth, edge);
  if (!planar) return planar.error();
  const TriangleMesh mesh = horizontalMesh(*planar, benchDirectionAngle(direction));
  PinSet clamped;
  std::vector<std::uint32_t> tip;
  for (std::size_t i = 0; i < planar->points.size(); ++i) {
    if (planar->points[i].x <= 1e-9) clamped.push_back(std::uint32_t(i));
    if (std::abs(planar->points[i].x - overhang) < 1e-9) tip.push_back(std::uint32_t(i));
  }
  auto model = specimenModel(mesh, fabric, clamped);
  if (!model) return model.error();
  auto shared = std::make_shared<const ClothModel>(std::move(model).value());
  const glm::vec3 gravity(0.0f, float(-kGravity), 0.0f);
  CantileverResult result;
  result.direction = direction;
  result.overhang = overhang;
  result.vertices = planar->points.size();
  const std::string what = std::string("cantilever (") + benchDirectionName(direction) + ")";
  ClothState state = restState(*shared);
  if (settings.staticSolve) {
    if (auto status = solveStatics(*shared, gravity, state.positions, what, result.relax); !status)
      return status.error();
  } else {
    auto solver = specimenSolver(shared, gravity, settings);
    if (!solver) return solver.error();
    if (auto status = relax(**solver, settings, what, result.relax); !status) return status.error();
    state = (*solver)->readState();
  }
  glm::dvec3 tipPoint(0.0);
  for (const std::uint32_t v : tip) tipPoint += glm::dvec3(state.positions[v]);
  tipPoint /= double(tip.size());
  result.chordAngle = std::atan2(-tipPoint.y, tipPoint.x);
  result.bendingLength = peirceBendingLength(overhang, result.chordAngle);
  result.flexuralRigidity = weight * std::pow(result.bendingLength, 3.0);
  return result;
}

double drapeCoefficientOf(double shadowArea) {
  const double disc = 0.25 * kPi * kCusickDiscDiameter * kCusickDiscDiameter;
  const double support = 0.25 * kPi * kCusickSupportDiameter * kCusickSupportDiameter;
  return 100.0 * (shadowArea - support) / (disc - support);
}

DrapeShadow projectShadow(const TriangleMesh& mesh, double extent, int size) {
  DrapeShadow shadow;
  shadow.size = size;
  shadow.extent = extent;
  shadow.covered.assign(std::size_t(size) * std::size_t(size), 0);
  const double pixel = extent / size;
  // Pixel (i, j) has its centre at x = -extent / 2 + (i + 1/2) pixel, z likewise with j.
  auto toGrid = [&](glm::vec3 p) { return glm::dvec2((p.x + 0.5 * extent) / pixel, (p.z + 0.5 * extent) / pixel); };
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const glm::dvec2 a = toGrid(mesh.positions[mesh.indices[t]]), b = toGrid(mesh.positions[mesh.indices[t + 1]]),
                     c = toGrid(mesh.positions[mesh.indices[t + 2]]);
    const double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    if (area == 0.0) continue;  // seen edge-on: no shadow
    const int i0 = std::max(0, int(std::floor(std::min({a.x, b.x, c.x}) - 0.5)));
    const int i1 = std::min(size - 1, int(std::ceil(std::max({a.x, b.x, c.x}) - 0.5)));
    const int j0 = std::max(0, int(std::floor(std::min({a.y, b.y, c.y}) - 0.5)));
    const int j1 = std::min(size - 1, int(std::ceil(std::max({a.y, b.y, c.y}) - 0.5)));
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const glm::dvec2 p(i + 0.5, j + 0.5);
        auto edge = [&](glm::dvec2 u, glm::dvec2 v) {
          return ((v.x - u.x) * (p.y - u.y) - (v.y - u.y) * (p.x - u.x)) * area;
        };
        if (edge(a, b) >= 0.0 && edge(b, c) >= 0.0 && edge(c, a) >= 0.0)
          shadow.covered[std::size_t(j) * std::size_t(size) + std::size_t(i)] = 1;
      }
  }
  return shadow;
}

std::vector<double> rimProfile(const DrapeShadow& shadow, int bins) {
  std::vector<double> radius(std::size_t(bins), 0.0);
  const double pixel = shadow.extent / shadow.size;
  for (int j = 0; j < shadow.size; ++j)
    for (int i = 0; i < shadow.size; ++i) {
      if (!shadow.covered[std::size_t(j) * std::size_t(shadow.size) + std::size_t(i)]) continue;
      const double x = -0.5 * shadow.extent + (i + 0.5) * pixel, z = -0.5 * shadow.extent + (j + 0.5) * pixel;
      const double phi = std::atan2(z, x) + kPi;  // 0 .. 2 pi
      const int bin = std::min(bins - 1, int(phi / (2.0 * kPi) * bins));
      radius[std::size_t(bin)] = std::max(radius[std::size_t(bin)], std::hypot(x, z) + 0.5 * pixel);
    }
  return radius;
}

int countNodes(std::span<const double> rimRadius, double hysteresis) {
  if (rimRadius.empty()) return 0;
  const double mean = std::accumulate(rimRadius.begin(), rimRadius.end(), 0.0) / double(rimRadius.size());
  // Start from the deepest trough so that no wave is split at the array's ends.
  const std::size_t start = std::size_t(std::min_element(rimRadius.begin(), rimRadius.end()) - rimRadius.begin());
  int nodes = 0;
  bool high = false;
  for (std::size_t k = 0; k < rimRadius.size(); ++k) {
    const double r = rimRadius[(start + k) % rimRadius.size()];
    if (!high && r > mean + hysteresis) {
      high = true;
      ++nodes;
    } else if (high && r < mean - hysteresis) {
      high = false;
    }
  }
  return nodes;
}

namespace {

/// The Cusick specimen: the flat disc (its mesh, the support's rim and everything inside it
/// pinned) and its cloth model.
struct DrapeSpecimen {
  TriangleMesh flat;
  ClothModel model;
};

Result<DrapeSpecimen> drapeSpecimen(const BenchFabric& fabric, const FabricBenchSettings& settings) {
  const double discRadius = 0.5 * kCusickDiscDiameter, supportRadius = 0.5 * kCusickSupportDiameter;
  const double edge = settings.edgeLength;
  const std::vector<glm::dvec2> rim = circlePoints(discRadius, edge), support = circlePoints(supportRadius, edge);
  auto planar = cgal::meshPolygon(rim, edge, 0.125, 10, support);
  if (!planar) return planar.error().prefixed("fabric bench: meshing the drape disc: ");
  DrapeSpecimen specimen;
  specimen.flat = horizontalMesh(*planar, 0.0);
  PinSet clamped;
  for (std::size_t i = 0; i < planar->points.size(); ++i)
    if (glm::length(planar->points[i]) <= supportRadius + 1e-9) clamped.push_back(std::uint32_t(i));
  auto model = specimenModel(specimen.flat, fabric, clamped);
  if (!model) return model.error();
  specimen.model = std::move(model).value();
  return specimen;
}

}  // namespace

Result<double> drapeTestCost(const BenchFabric& fabric, const FabricBenchSettings& settings) {
  auto specimen = drapeSpecimen(fabric, settings);
  if (!specimen) return specimen.error();
  ClothSettings cloth;
  cloth.frameDt = float(kFrameDt);
  const StableStep stable = explicitStableStep(specimen->model, cloth);
  return double(stable.substepsPerFrame) * double(specimen->model.vertexCount());
}

Result<DrapeTestResult> runDrapeTest(const BenchFabric& fabric, const FabricBenchSettings& settings) {
  auto specimen = drapeSpecimen(fabric, settings);
  if (!specimen) return specimen.error();
  const TriangleMesh flat = std::move(specimen->flat);
  auto solver = specimenSolver(std::make_shared<const ClothModel>(std::move(specimen->model)),
                               glm::vec3(0.0f, float(-kGravity), 0.0f), settings);
  if (!solver) return solver.error();
  DrapeTestResult result;
  result.vertices = flat.positions.size();
  if (auto status = relax(**solver, settings, "drape test", result.relax); !status) return status.error();
  const ClothState state = (*solver)->readState();
  result.draped = flat;
  for (std::size_t i = 0; i < state.positions.size(); ++i) result.draped.positions[i] = glm::vec3(state.positions[i]);
  computeVertexNormals(result.draped);
  // 0.5 mm pixels over the disc's 30 cm (and a margin).
  constexpr int kPixels = 680;
  result.shadow = projectShadow(result.draped, 0.34, kPixels);
  const double covered = double(std::count(result.shadow.covered.begin(), result.shadow.covered.end(), 1));
  result.shadowArea = covered * result.shadow.pixelArea();
  result.drapeCoefficient = drapeCoefficientOf(result.shadowArea);
  result.rimRadius = rimProfile(result.shadow, 360);
  result.nodes = countNodes(result.rimRadius, 0.002);
  return result;
}

}  // namespace hg
