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

/// A measured fabric as this cloth model's material: its density; E the stiffest channel of
/// the springs fitted to its moduli at zero strain, the anisotropy K = channels / E
/// (warp, weft, bias, bias); the hinge rigidity of its bending rigidity averaged over the
/// three directions and the curvatures 0 to 40 1/m, and each direction's ratio to it.
struct SpringFabric {
  ClothMaterial material;
  glm::vec4 anisotropy{1.0f};
  MembraneModuli moduli;            ///< the measured moduli at zero strain (N/m)
  double largestFitError = 0.0;     ///< of the springs' moduli (SpringChannelFit)
  glm::dvec3 bendingRigidity{0.0};  ///< measured, N m: hinges along warp, 45 degrees, weft
};
SpringFabric springFabricOf(const MeasuredFabric& fabric);

}  // namespace hg
