#pragma once
/// The virtual fabric bench (docs/methods.md section 10): the three tests textile labs run on
/// a fabric, run on this project's cloth solvers (either backend, through a
/// ClothSolverFactory) with specimens meshed as garment panels are (CGAL, no preferred
/// direction):
///
/// - Uniaxial tensile test (strip test after ISO 13934-1): a 50 x 200 mm strip along the
///   warp, the weft or the 45-degree bias, held by two jaws that clamp its ends; one jaw
///   moves out step by step and the strip is relaxed to rest at every step. The tension is
///   the force across the strip's middle per unit width (the springs crossing it); the
///   strain is read by an extensometer on the middle half (the slope of the vertices'
///   displacement along the strip), away from the jaws, as on a real machine.
/// - Peirce's cantilever (BS 3356 / ASTM D1388): a 25 mm wide strip clamped at one end
///   overhangs the bench edge by l and bends under its weight; the chord from the bench
///   edge to the tip drops by theta, and Peirce's relation gives the bending length
///   c = l (cos(theta / 2) / (8 tan theta))^(1/3) and the flexural rigidity G = w c^3
///   (w the weight per area, N/m^2). The overhang is chosen so that theta is near the
///   standard's 41.5 degrees (where c = l / 2) for the rigidity the material should have.
/// - Cusick drape test (ISO 9073-9, BS 5058): a 30 cm disc clamped concentrically on an
///   18 cm support disc drapes under gravity; its shadow seen from straight above gives
///   the drape coefficient DC = (shadow - support) / (disc - support) (percent) and the
///   number of nodes (folds) around the rim.
///
/// Every vertex weighs a third of its triangles' area (ClothMaterial::areaWeightedMass), so
/// that the specimen weighs as the fabric does at any edge length. Every test starts from
/// the flat specimen and relaxes it to rest by dynamic relaxation
/// with kinetic damping (ClothSolver::relaxToRest); no colliders (the jaws and the clamp
/// are pinned vertices), no self contact.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec4.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/garment/Dressing.h"

namespace hg {

/// The fabric under test: the cloth model's material and its uniform anisotropy
/// (warp, weft, bias, bias multipliers of the springs).
struct BenchFabric {
  ClothMaterial material;
  glm::vec4 anisotropy{1.0f};
};

/// Settings shared by the bench's tests.
struct FabricBenchSettings {
  double edgeLength = 0.01;           ///< m, the target edge length of the specimens' meshes
  ClothSolverFactory solverFactory;   ///< the backend (required)
  int threads = 0;                    ///< CPU backend: OpenMP threads (0 = default)
  double restSpeed = 2e-3;            ///< m/s: a specimen is at rest below this vertex speed
  double maxSimulatedSeconds = 20.0;  ///< per relaxation; past it the test reports "not converged"
  /// The tensile strips and cantilevers go straight to their static equilibrium by Newton's
  /// method (sim/cloth/StaticEquilibrium.h, on the CPU whatever the backend) instead of
  /// relaxing the backend's dynamics to rest. The drape test always relaxes dynamics: its
  /// folds (nodes) come from the way the disc falls.
  bool staticSolve = false;
};

/// The direction a strip's long axis takes in the cloth.
enum class BenchDirection { Warp, Weft, Bias };
const char* benchDirectionName(BenchDirection direction);  ///< "warp", "weft", "bias"
/// The angle (rad) from the warp toward the weft.
double benchDirectionAngle(BenchDirection direction);

/// How one relaxation to rest went.
struct RelaxOutcome {
  bool converged = true;      ///< every relaxation came to rest within the time allowed
  long substeps = 0;          ///< substeps taken in all
  double largestSpeed = 0.0;  ///< m/s, the largest remaining speed of any relaxation
  long newtonSteps = 0;       ///< with FabricBenchSettings::staticSolve: Newton steps in all
  double largestForce = 0.0;  ///< N, with staticSolve: the largest net force left on a free vertex
};

struct TensileCurve {
  BenchDirection direction = BenchDirection::Warp;
  std::vector<double> gripStrain;  ///< the jaws' separation over the gauge length, minus 1
  std::vector<double> strain;      ///< the extensometer's strain at each step
  std::vector<double> tension;     ///< N/m: force across the middle per unit width
  RelaxOutcome relax;
  std::size_t vertices = 0;
  /// tension / strain at step `i` (N/m): the secant modulus.
  double secantModulus(std::size_t i) const { return tension[i] / strain[i]; }
  /// The modulus at zero strain (N/m): the secant of the first two steps extrapolated to 0.
  double modulusAtZeroStrain() const {
    return secantModulus(0) - (secantModulus(1) - secantModulus(0)) * strain[0] / (strain[1] - strain[0]);
  }
};

/// The tensile test at the jaw strains `gripStrains` (increasing, > 0). Errors: meshing, the
/// solver (its factory's error), an unstable step (the message names the step).
Result<TensileCurve> runTensileTest(const BenchFabric& fabric, BenchDirection direction,
                                    std::span<const double> gripStrains, const FabricBenchSettings& settings);

struct CantileverResult {
  BenchDirection direction = BenchDirection::Warp;
  double overhang = 0.0;          ///< l, m
  double chordAngle = 0.0;        ///< theta, rad below the horizontal
  double bendingLength = 0.0;     ///< c, m
  double flexuralRigidity = 0.0;  ///< G = w c^3, N m
  RelaxOutcome relax;
  std::size_t vertices = 0;
};

/// Peirce's cantilever along `direction` (the strip's long axis). `expectedRigidity` (N m, >
/// 0): the flexural rigidity the fabric should have, which sets the overhang to twice its
/// bending length (theta near 41.5 degrees). The specimen's edge is at most l / 16 (coarser hinges bend up to 20 %
/// softer).
Result<CantileverResult> runCantileverTest(const BenchFabric& fabric, BenchDirection direction, double expectedRigidity,
                                           const FabricBenchSettings& settings);

/// The drape's shadow seen from above: a square grid centred on the disc's axis.
struct DrapeShadow {
  int size = 0;                       ///< pixels per side
  double extent = 0.0;                ///< m, the side of the square
  std::vector<std::uint8_t> covered;  ///< size * size, row 0 at -z (far), 1 where cloth is above
  double pixelArea() const { return (extent / size) * (extent / size); }
};

struct DrapeTestResult {
  double drapeCoefficient = 0.0;  ///< percent
  int nodes = 0;                  ///< folds around the rim
  double shadowArea = 0.0;        ///< m^2
  /// The shadow's outer radius (m) at 360 equally spaced angles, the profile the nodes are
  /// counted on.
  std::vector<double> rimRadius;
  DrapeShadow shadow;
  TriangleMesh draped;  ///< the specimen at rest (positions m, the support's top at y = 0)
  RelaxOutcome relax;
  std::size_t vertices = 0;
};

inline constexpr double kCusickDiscDiameter = 0.30;     ///< m, ISO 9073-9
inline constexpr double kCusickSupportDiameter = 0.18;  ///< m

/// An estimate of the drape test's work (vertex substeps per frame of the explicit
/// integrator on the specimen): what `fabric-test --jobs` orders its queue by, the costliest
/// first. Errors: meshing.
Result<double> drapeTestCost(const BenchFabric& fabric, const FabricBenchSettings& settings);

/// The Cusick drape test. Errors as runTensileTest.
Result<DrapeTestResult> runDrapeTest(const BenchFabric& fabric, const FabricBenchSettings& settings);

/// The drape coefficient (percent) of a shadow area (m^2) with the standard's discs.
double drapeCoefficientOf(double shadowArea);
/// The shadow of a mesh's triangles projected onto the xz plane, rasterised at pixel centres.
DrapeShadow projectShadow(const TriangleMesh& mesh, double extent, int size);
/// The outer radius of the shadow (m) at `bins` equally spaced angles.
std::vector<double> rimProfile(const DrapeShadow& shadow, int bins);
/// The nodes of a rim profile: its rises above the mean radius, counted with a hysteresis of
/// `hysteresis` m (a wave must cross mean + h, then mean - h, to count).
int countNodes(std::span<const double> rimRadius, double hysteresis);

/// The modulus (N/m, secant) a fabric should read along `angle` rad from the warp at uniaxial
/// strain `strain`: its measured data, or its calibrated moduli.
using ReferenceModulus = std::function<double(double angle, double strain)>;

/// How a mesh correction came out: the strips' relative errors with it, and the rounds taken.
struct MeshCorrectionFit {
  MeshCorrection correction;
  glm::dvec3 errorAtZero{0.0};      ///< warp, weft, bias: (strip - reference) / reference
  glm::dvec3 errorAtOneSixth{0.0};  ///< the same at 1/6 strain
  glm::dvec3 initialErrorAtZero{0.0}, initialErrorAtOneSixth{0.0};  ///< without a correction
  int rounds = 0;
};

/// The mesh correction (sim/cloth/FabricMapping.h) of `fabric` at settings.edgeLength: the
/// tensile strips (warp, weft, bias to 1/6 strain; runTensileTest with `settings`, whose
/// staticSolve is the quick choice) are pulled with the springs fitted to the corrected
/// targets, and each direction's factor follows the secant of log(strip modulus) against
/// log(factor) toward the reference, until every error is below `tolerance` or after
/// `maxRounds` rounds; the round with the most errors within 10 % (then the least squares)
/// is the result. A direction the affine fit cannot reach (a woven bias softer than the
/// blend allows, a modulus that softens with strain) keeps its factor. Errors: the bench's.
Result<MeshCorrectionFit> fitMeshCorrection(const PhysicalFabric& fabric, const ReferenceModulus& reference,
                                            const FabricBenchSettings& settings, int maxRounds = 12,
                                            double tolerance = 0.01);

/// Peirce's bending length (m) of an overhang l (m) whose chord drops by theta (rad).
double peirceBendingLength(double overhang, double chordAngle);

}  // namespace hg
