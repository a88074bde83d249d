#pragma once
/// From a measured membrane to this project's mass-spring cloth (docs/methods.md section 10):
/// the spring stiffness per anisotropy channel (warp, weft, bias) that gives a sheet the
/// measured uniaxial moduli along warp, weft and the 45-degree bias, and the hinge
/// rigidity that gives it the measured bending rigidity.
///
/// The spring of an edge of rest length L, direction phi from the warp and a third A of
/// its triangles' area has k = K(phi) E A / L^2 (docs/methods.md section 1). Stretched
/// affinely by a small strain eps (Cauchy-Born), the edges store sum_e k_e L_e^2
/// (n_e . eps n_e)^2 / 2, so the sheet's stiffness per unit area is
/// C_ijkl = sum_e (A_e / A) K(phi_e) E n_i n_j n_k n_l: independent of the edge length,
/// which is what makes the same fabric behave the same at any resolution. The panels of
/// garments are meshed with no preferred direction (CGAL's mesher), so the sum is the mean
/// over phi in [0, pi), evaluated here numerically with the channels' blend
/// (kernels/anisotropy.glslh). With one channel (K = 1) that gives C11 = 3E/8,
/// C12 = C66 = E/8, and the uniaxial modulus with free sides E/3.
#include <optional>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/MeasuredFabric.h"

namespace hg {

/// Uniaxial moduli (N/m, sides free) along the warp, the weft and the 45-degree bias.
struct MembraneModuli {
  double warp = 0.0, weft = 0.0, bias = 0.0;
};

/// The uniaxial modulus (N/m) along `angle` radians from the warp of a sheet whose edges,
/// in every direction alike, have spring stiffness E K(phi) with the channels
/// `channels` = (E Ka, E Kb, E Kc = E Kd) in N/m (warp, weft, bias).
double springSheetModulus(const glm::dvec3& channels, double angle);

/// The moduli of springSheetModulus along warp, weft and bias.
MembraneModuli springSheetModuli(const glm::dvec3& channels);

/// A measured fabric's uniaxial moduli (uniaxialModulus) along warp, weft and bias at
/// principal strain `strain`.
MembraneModuli measuredModuli(const MeasuredFabric& fabric, double strain);

/// The secant modulus (N/m, tension per width over strain) along `angle` radians from the
/// warp, at uniaxial strain `strain`, of a sheet of springs with the channels `channels`
/// (N/m, as springSheetModulus) and the strain stiffening `stiffening` per channel (warp,
/// weft, bias; ClothMaterial::strainStiffening): Cauchy-Born with each edge direction n at
/// its own strain n . eps n, stiffened in extension as the kernels do (tensionMagnitude),
/// the strain across and the shear solved (Newton) for free sides. Without stiffening it is
/// springSheetModulus at any strain.
double stiffenedSheetModulus(const glm::dvec3& channels, const glm::dvec3& stiffening, double angle, double strain);

/// The strain stiffening per channel (>= 0) whose sheet (stiffenedSheetModulus with
/// `channels`) has the moduli `target` at strain 1/6 along warp, weft and bias: projected
/// Levenberg-Marquardt on the logarithms of the moduli, warp and weft weighing 10 times the
/// bias. A target below what the sheet reaches without stiffening, or one that the others'
/// stiffening overshoots, is left as near as the channels allow (stiffenedSheetModulus says
/// how near).
glm::dvec3 fitStrainStiffening(const glm::dvec3& channels, const MembraneModuli& target);

struct SpringChannelFit {
  glm::dvec3 channels{0.0};   ///< E Ka, E Kb, E Kc (N/m): warp, weft, bias springs
  double largestError = 0.0;  ///< largest relative error of the three moduli reached
};

/// The channels whose sheet has the moduli `target` (Levenberg-Marquardt on their
/// logarithms, so they stay positive). A bias softer than the warp and weft allow (their
/// channels blend into the springs up to 45 degrees away, so a sheet whose bias channel is
/// 0 still has 0.6 of their modulus on the bias) is out of reach: the fit then keeps the
/// warp and weft exact and the bias as soft as it goes, and largestError says how far
/// it is; the caller reports it.
SpringChannelFit fitSpringChannels(const MembraneModuli& target);

/// The hinge parameter D (N m, ClothMaterial::bendingRigidity) of a sheet whose continuum
/// bending rigidity is `rigidity` (N m). A hinge stores (3 D |e|^2 / (A1 + A2)) (1 - cos
/// theta) (docs/methods.md section 1); on a sheet bent to curvature kappa that sums to
/// 3 D kappa^2 / 2 per unit area on regular meshes (the dihedral of an edge is kappa times
/// its triangles' span across it), so the continuum rigidity is 3 D: D = rigidity / 3.
double hingeRigidityFor(double rigidity);

/// The continuum bending rigidity (N m) of a sheet of hinges with parameter D (N m) and
/// the per-direction factors `factors` (ClothMaterial::bendingAnisotropy: hinge edge along
/// the warp, the bias, the weft) for a fold whose line lies `foldAngle` radians from the
/// warp. A hinge edge at phi from the warp sees the normal curvature kappa cos^2(phi - fold)
/// across it, so it stores f(phi) cos^4(phi - fold) of what it stores across a fold along
/// it; over isotropically oriented edges that gives 3 D mean(f cos^4) / mean(cos^4): the
/// factors blend (a fold along the warp also bends hinges near the bias), and with f = 1 it
/// is 3 D (hingeRigidityFor).
double hingeSheetRigidity(double D, const glm::dvec3& factors, double foldAngle);

/// The factors (warp, bias, weft hinge edges) whose sheet has, for folds along the warp, the
/// bias and the weft, the rigidities `rigidity` (N m, > 0) with hinge parameter
/// D = hingeRigidityFor(mean of them): the linear system of hingeSheetRigidity at the
/// three angles, solved exactly; a factor it would make below 0.05 is held there (a
/// fabric far more anisotropic than the blend allows) and the others solved again.
glm::dvec3 fitBendingFactors(const glm::dvec3& rigidity);

/// Per-direction factors on the moduli a fabric's springs are fitted to (fitSpringChannels,
/// fitStrainStiffening), so that a meshed strip reads the fabric's moduli where the
/// Cauchy-Born fit alone does not: pulled along a soft channel, the irregular network gives
/// way by turning its stiff springs instead of stretching evenly, and reads up to 30 % soft
/// (docs/methods.md section 10, "The meshed network's correction"). Measured on the fabric
/// bench's strips at one edge length (fitMeshCorrection in sim/garment/FabricBench.h,
/// `hagoromo fabric-test PRESET --calibrate-mesh`); 1 everywhere: none.
struct MeshCorrection {
  glm::dvec3 modulus{1.0};          ///< warp, weft, bias at zero strain
  glm::dvec3 strainedModulus{1.0};  ///< warp, weft, bias at 1/6 strain
  double edgeLength = 0.0;          ///< m, the strips' edge length it was measured at (0: none)
  bool none() const { return modulus == glm::dvec3(1.0) && strainedModulus == glm::dvec3(1.0); }
};
/// The range a correction factor may take (library files outside it are refused).
inline constexpr double kMeshCorrectionMin = 0.2, kMeshCorrectionMax = 5.0;

/// A fabric in physical units: what the cloth model is fitted to. A measured fabric gives all
/// of it (physicalFabricOf); a calibrated or custom one (sim/cloth/FabricLibrary.h) its
/// density, moduli and bending, with or without the moduli at 1/6 strain.
struct PhysicalFabric {
  double density = 0.0;                          ///< kg/m^2
  MembraneModuli moduli;                         ///< N/m at zero strain (warp, weft, bias)
  std::optional<MembraneModuli> strainedModuli;  ///< N/m at 1/6 strain; none: linear
  glm::dvec3 bendingRigidity{0.0};               ///< N m, folds along the warp, the bias, the weft
  MeshCorrection meshCorrection;                 ///< on the moduli the springs are fitted to
};

/// A measured fabric's density, moduli at 0 and 1/6 strain, and each direction's bending
/// rigidity averaged over the curvatures 0 to 40 1/m (the folds of a drape).
PhysicalFabric physicalFabricOf(const MeasuredFabric& fabric);

/// A measured fabric as this cloth model's material: its density (every vertex weighing its
/// share of the area); E the stiffest channel of the springs fitted to its moduli at zero
/// strain, the anisotropy K = channels / E (warp, weft, bias, bias); the strain stiffening
/// per channel, the channels fitted to its moduli at 1/6 strain over those at zero, minus 1
/// (ClothMaterial::strainStiffening, at least 0); the hinge rigidity of its bending rigidity averaged over the
/// three directions and the curvatures 0 to 40 1/m, and the per-direction factors whose
/// blend gives each direction's measured rigidity (fitBendingFactors). The fabric's mesh
/// correction multiplies the moduli (at 0 and at 1/6 strain) the springs are fitted to.
struct SpringFabric {
  ClothMaterial material;
  glm::vec4 anisotropy{1.0f};
  MembraneModuli moduli;            ///< the measured moduli at zero strain (N/m)
  MembraneModuli strainedModuli;    ///< the measured moduli at 1/6 strain (N/m; linear: as at zero)
  double largestFitError = 0.0;     ///< of the springs' moduli (SpringChannelFit)
  glm::dvec3 bendingRigidity{0.0};  ///< measured, N m: hinges along warp, 45 degrees, weft
};
SpringFabric springFabricOf(const PhysicalFabric& fabric);
SpringFabric springFabricOf(const MeasuredFabric& fabric);

}  // namespace hg
