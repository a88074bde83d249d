// Measured fabrics (sim/cloth/MeasuredFabric.h): the data files of Wang et al. 2011 read as
// ARCSim reads them, their moduli and bending rigidity, and their mapping onto the springs
// and hinges of the cloth model (sim/cloth/FabricMapping.h), checked analytically.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <utility>

#include <unistd.h>

#include <gtest/gtest.h>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/cloth/MeasuredFabric.h"
#include "sim/kernels/Kernels.h"
#include "sim/scene/DrapeFabric.h"

namespace hg {
namespace {

namespace fs = std::filesystem;
const fs::path kLibrary = fs::path(HG_SOURCE_DIR) / "data/fabrics";
constexpr double kPi = std::numbers::pi;

MeasuredFabric load(const char* file) {
  auto fabric = loadMeasuredFabric(kLibrary / "wang2011" / file);
  EXPECT_TRUE(fabric) << fabric.error().message;
  return fabric ? *fabric : MeasuredFabric{};
}

TEST(MeasuredFabric, ReadsAsArcSimDoesTwiceTheRowsWithNegativesZero) {
  const MeasuredFabric interlock = load("gray-interlock.json");
  EXPECT_DOUBLE_EQ(interlock.density, 0.187);
  // Row 0: (16.593832, -14.69599, 34.477123, 36.860302), doubled, the negative cross term 0.
  const auto k = membraneCoefficients(interlock, 0.0, 0.3);
  EXPECT_DOUBLE_EQ(k[0], 2 * 16.593832);
  EXPECT_DOUBLE_EQ(k[1], 0.0);
  EXPECT_DOUBLE_EQ(k[2], 2 * 34.477123);
  EXPECT_DOUBLE_EQ(k[3], 2 * 36.860302);
  // At 1/6 strain along 45 degrees: row 3 (123.98922, 105.18177, 365.966217, 44.217571), doubled.
  const auto bias = membraneCoefficients(interlock, 1.0 / 6.0, 0.25 * kPi);
  EXPECT_NEAR(bias[2], 2 * 365.966217, 1e-9);
  // Halfway in strain and between the 0 and 22.5 degree rows: the bilinear blend.
  const auto half = membraneCoefficients(interlock, 1.0 / 12.0, kPi / 16.0);
  EXPECT_NEAR(half[0], 2 * (0.5 * 16.593832 + 0.5 * (0.5 * 46.364765 + 0.5 * 49.28511)), 1e-9);
}

TEST(MeasuredFabric, UniaxialModulusIsTheComplianceAlongThePull) {
  const MeasuredFabric denim = load("11oz-black-denim.json");
  const auto k = membraneCoefficients(denim, 0.0, 0.0);
  // Along the warp with free sides: k0 - k1^2 / k2.
  EXPECT_NEAR(uniaxialModulus(denim, 0.0, 0.0), k[0] - k[1] * k[1] / k[2], 1e-9);
  EXPECT_NEAR(uniaxialModulus(denim, 0.5 * kPi, 0.0), k[2] - k[1] * k[1] / k[0], 1e-6);
  // On the bias the shear term k3 / 2 dominates: 1 / Y45 = (S11 + S22 + 2 S12 + S66) / 4.
  const double det = k[0] * k[2] - k[1] * k[1];
  const double bias = 4.0 / ((k[2] + k[0] - 2.0 * k[1]) / det + 2.0 / k[3]);
  EXPECT_NEAR(uniaxialModulus(denim, 0.25 * kPi, 0.0), bias, 1e-9 * bias);
  EXPECT_LT(bias, 0.5 * uniaxialModulus(denim, 0.0, 0.0));  // a woven fabric is soft on the bias
}

TEST(MeasuredFabric, BendingRigidityIsAQuarterOfTheFilesValue) {
  const MeasuredFabric denim = load("11oz-black-denim.json");
  EXPECT_DOUBLE_EQ(measuredBendingRigidity(denim, 0, 0.0), 0.25 * denim.bending[0][0]);
  EXPECT_DOUBLE_EQ(measuredBendingRigidity(denim, 2, 40.0), 0.25 * denim.bending[2][4]);
  EXPECT_NEAR(measuredBendingRigidity(denim, 1, 15.0), 0.125 * (denim.bending[1][1] + denim.bending[1][2]), 1e-15);
  EXPECT_DOUBLE_EQ(measuredBendingRigidity(denim, 1, 99.0), 0.25 * denim.bending[1][4]);  // clamped
}

TEST(MeasuredFabric, BadFilesNameTheFileAndTheKey) {
  const fs::path path = fs::temp_directory_path() / ("hg_measured_" + std::to_string(::getpid()) + ".json");
  const auto errorOf = [&](const char* text) {
    std::ofstream(path) << text;
    auto fabric = loadMeasuredFabric(path);
    EXPECT_FALSE(fabric);
    return fabric ? std::string() : fabric.error().message;
  };
  const std::string rows = R"("stretching": [[1,0,1,1],[1,0,1,1],[1,0,1,1],[1,0,1,1],[1,0,1,1],[1,0,1,1]])";
  const std::string bending = R"("bending": [[1,1,1,1,1],[1,1,1,1,1],[1,1,1,1,1]])";
  std::string message = errorOf(("{" + rows + ", " + bending + "}").c_str());
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("'density'"), std::string::npos) << message;
  message = errorOf(R"({"density": 0.2, "stretching": [[1,0,1]], "bending": []})");
  EXPECT_NE(message.find("'stretching'"), std::string::npos) << message;
  message =
      errorOf(("{\"density\": 0.2, " + rows + R"(, "bending": [[1,1,1,1,1],[1,1,"x",1,1],[1,1,1,1,1]]})").c_str());
  EXPECT_NE(message.find("'bending[1][2]'"), std::string::npos) << message;
  message = errorOf(("{\"density\": -1, " + rows + ", " + bending + "}").c_str());
  EXPECT_NE(message.find("'density' must be > 0"), std::string::npos) << message;
  EXPECT_NE(errorOf("not json").find("not JSON"), std::string::npos);
  fs::remove(path);
}

// A calibrated fabric in physical units loads with its source and band; a bad entry names
// the file and the key.
TEST(FabricLibrary, CalibratedFabricsAreReadInPhysicalUnitsAndCheckedKeyByKey) {
  const fs::path dir = fs::temp_directory_path() / ("hg_library_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto load = [&](const std::string& entry) {
    std::ofstream(dir / "library.json") << R"({"source": "S", "fabrics": {"x": )" << entry << "}}";
    return findLibraryFabric(dir, "x");
  };
  const std::string physical =
      R"("areal_density_g_m2": 70, "modulus_N_m": {"warp": 500, "weft": 400, "bias": 300},
         "bending_N_m": {"warp": 1e-6, "bias": 2e-6, "weft": 3e-6})";
  auto fabric = load(R"({"calibrated": {)" + physical + R"(}, "source": "T", "drape_coefficient_band": [20, 40]})");
  ASSERT_TRUE(fabric) << fabric.error().message;
  EXPECT_FALSE(fabric->measured);
  EXPECT_DOUBLE_EQ(fabric->physical.density, 0.07);
  EXPECT_DOUBLE_EQ(fabric->physical.moduli.weft, 400.0);
  EXPECT_DOUBLE_EQ(fabric->physical.bendingRigidity.z, 3e-6);
  EXPECT_FALSE(fabric->physical.strainedModuli);
  EXPECT_EQ(fabric->source, "T");
  EXPECT_EQ(*fabric->drapeBand, glm::dvec2(20.0, 40.0));
  const SpringFabric spring = springFabricOf(fabric->physical);
  EXPECT_EQ(spring.material.strainStiffening, glm::vec4(0.0f));  // linear without data at 1/6
  const auto errorOf = [&](const std::string& entry) {
    auto bad = load(entry);
    EXPECT_FALSE(bad);
    return bad ? std::string() : bad.error().message;
  };
  const std::string file = (dir / "library.json").string();
  std::string message = errorOf(R"({"calibrated": {)" + physical + "}}");
  EXPECT_NE(message.find(file + ": fabrics.x.source"), std::string::npos) << message;
  message =
      errorOf(R"({"source": "T", "calibrated": {"areal_density_g_m2": -3, "modulus_N_m": {}, "bending_N_m": {}}})");
  EXPECT_NE(message.find("fabrics.x.calibrated.areal_density_g_m2 = -3"), std::string::npos) << message;
  message = errorOf(R"({"source": "T", "calibrated": {"areal_density_g_m2": 70, "modulus_N_m": {"warp": 1, "weft": 1},
                        "bending_N_m": {}}})");
  EXPECT_NE(message.find("fabrics.x.calibrated.modulus_N_m.bias"), std::string::npos) << message;
  message = errorOf(R"({"source": "T", "calibrated": {)" + physical + R"(, "shear": 3}})");
  EXPECT_NE(message.find("unknown key 'shear'"), std::string::npos) << message;
  message = errorOf(R"({"source": "T", "file": "a.json", "calibrated": {)" + physical + "}}");
  EXPECT_NE(message.find("either 'file'"), std::string::npos) << message;
  message = errorOf(R"({"source": "T", "calibrated": {)" + physical + R"(}, "drape_coefficient_band": [40, 20]})");
  EXPECT_NE(message.find("drape_coefficient_band"), std::string::npos) << message;
  fs::remove_all(dir);
}

// A library entry's mesh correction multiplies the moduli the springs are fitted to (at
// zero strain and at 1/6); bad corrections name the file and the key.
TEST(FabricLibrary, AMeshCorrectionScalesTheFittedModuliAndIsCheckedKeyByKey) {
  const fs::path dir = fs::temp_directory_path() / ("hg_library_mc_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto load =
      [&](const std::string& correction) {
        std::ofstream(dir / "library.json")
            << R"({"source": "S", "fabrics": {"x": {"source": "T", "calibrated": {"areal_density_g_m2": 70,
              "modulus_N_m": {"warp": 500, "weft": 400, "bias": 300},
              "modulus_at_one_sixth_strain_N_m": {"warp": 800, "weft": 600, "bias": 400},
              "bending_N_m": {"warp": 1e-6, "bias": 1e-6, "weft": 1e-6}})"
            << (correction.empty() ? "" : ", \"mesh_correction\": " + correction) << "}}}";
        return findLibraryFabric(dir, "x");
      };
  auto plain = load("");
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_TRUE(plain->physical.meshCorrection.none());
  auto corrected = load(R"({"edge_length_mm": 10, "modulus": {"warp": 1.2, "weft": 1, "bias": 1},
                             "modulus_at_one_sixth_strain": {"warp": 1, "weft": 1.1, "bias": 1}, "how": "by hand"})");
  ASSERT_TRUE(corrected) << corrected.error().message;
  EXPECT_DOUBLE_EQ(corrected->physical.meshCorrection.edgeLength, 0.01);
  // The springs of the corrected fabric are those of one whose warp modulus is 1.2 times.
  PhysicalFabric scaled = plain->physical;
  scaled.moduli.warp *= 1.2;
  scaled.strainedModuli->weft *= 1.1;
  const SpringFabric a = springFabricOf(corrected->physical), b = springFabricOf(scaled);
  EXPECT_EQ(a.anisotropy, b.anisotropy);
  EXPECT_EQ(a.material.tensileStiffness, b.material.tensileStiffness);
  EXPECT_EQ(a.material.strainStiffening, b.material.strainStiffening);
  EXPECT_NE(a.anisotropy, springFabricOf(plain->physical).anisotropy);
  EXPECT_DOUBLE_EQ(a.moduli.warp, 500.0);  // the fabric's own moduli are still reported
  const auto errorOf = [&](const std::string& correction) {
    auto bad = load(correction);
    EXPECT_FALSE(bad);
    return bad ? std::string() : bad.error().message;
  };
  const std::string file = (dir / "library.json").string();
  std::string message = errorOf(R"({"edge_length_mm": 10, "modulus": {"warp": 9, "weft": 1, "bias": 1},
                                    "modulus_at_one_sixth_strain": {"warp": 1, "weft": 1, "bias": 1}})");
  EXPECT_NE(message.find(file + ": fabrics.x.mesh_correction.modulus: the factors must lie within"), std::string::npos)
      << message;
  message = errorOf(R"({"modulus": {"warp": 1, "weft": 1, "bias": 1},
                        "modulus_at_one_sixth_strain": {"warp": 1, "weft": 1, "bias": 1}})");
  EXPECT_NE(message.find("fabrics.x.mesh_correction.edge_length_mm"), std::string::npos) << message;
  message = errorOf(R"({"edge_length_mm": 10, "modulus": {"warp": 1, "weft": 1, "bias": 1}})");
  EXPECT_NE(message.find("fabrics.x.mesh_correction.modulus_at_one_sixth_strain"), std::string::npos) << message;
  message = errorOf(R"({"edge_length_mm": 10, "shear": 2})");
  EXPECT_NE(message.find("unknown key 'shear'"), std::string::npos) << message;
  fs::remove_all(dir);
}

// A user's fabric file in physical units: read by cloth.fabric / a garment's fabric when the
// name ends in .json (relative to the scene), stiffening when it gives the moduli at 1/6
// strain; a bad file names itself and the key.
TEST(FabricLibrary, AFabricFileInPhysicalUnitsIsACustomFabric) {
  const fs::path dir = fs::temp_directory_path() / ("hg_fabric_file_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "mine.json") << R"({"areal_density_g_m2": 120, "description": "a test weave", "source": "me",
      "modulus_N_m": {"warp": 800, "weft": 600, "bias": 500},
      "modulus_at_one_sixth_strain_N_m": {"warp": 1600, "weft": 900, "bias": 600},
      "bending_N_m": {"warp": 5e-6, "bias": 4e-6, "weft": 3e-6}})";
  auto fabric = fabricMaterial(dir, "mine.json");
  ASSERT_TRUE(fabric) << fabric.error().message;
  EXPECT_FLOAT_EQ(fabric->material.arealDensity, 0.12f);
  EXPECT_TRUE(fabric->material.areaWeightedMass);
  EXPECT_GT(fabric->material.strainStiffening.x, fabric->material.strainStiffening.y);
  EXPECT_NEAR(fabric->material.bendingRigidity, hingeRigidityFor(4e-6), 1e-12);
  std::ofstream(dir / "bad.json") << R"({"areal_density_g_m2": 120, "modulus_N_m": {"warp": 800, "weft": "x",
      "bias": 500}, "bending_N_m": {"warp": 5e-6, "bias": 4e-6, "weft": 3e-6}})";
  auto bad = fabricMaterial(dir, "bad.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find((dir / "bad.json").string() + ": fabric.modulus_N_m.weft"), std::string::npos)
      << bad.error().message;
  auto missing = fabricMaterial(dir, "none.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("none.json: cannot open"), std::string::npos) << missing.error().message;
  fs::remove_all(dir);
}

TEST(FabricMapping, OneChannelGivesAThirdOfItsStiffnessInEveryDirection) {
  // Isotropic edges with k = E A / L^2: C11 = 3E/8, C12 = C66 = E/8, so Y = E/3 (Poisson 1/3).
  for (const double angle : {0.0, 0.3, 0.25 * kPi, 0.5 * kPi})
    EXPECT_NEAR(springSheetModulus({900.0, 900.0, 900.0}, angle), 300.0, 1e-3) << angle;
}

TEST(FabricMapping, TheFitRecoversTheChannelsOfAnySheet) {
  for (const glm::dvec3 channels : {glm::dvec3(400.0, 2000.0, 150.0), glm::dvec3(80.0, 60.0, 120.0)}) {
    const MembraneModuli moduli = springSheetModuli(channels);
    const SpringChannelFit fit = fitSpringChannels(moduli);
    EXPECT_LT(fit.largestError, 1e-6);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(fit.channels[k], channels[k], 1e-4 * channels[k]) << k;
  }
}

// Without stiffening the sheet's secant modulus is its linear modulus at any strain; with
// it, a pull along a channel alone at 1/6 strain stiffens by about 1 + s (the springs near
// the pull are stretched by nearly the full strain, those across it not at all).
TEST(FabricMapping, StiffenedSheetIsLinearWithoutStiffeningAndStiffensWithIt) {
  const glm::dvec3 channels(300.0, 120.0, 80.0);
  for (double angle : {0.0, 0.25 * kPi, 0.5 * kPi, 0.1}) {
    const double linear = springSheetModulus(channels, angle);
    for (double strain : {1e-3, 0.1, 0.3})
      EXPECT_NEAR(stiffenedSheetModulus(channels, glm::dvec3(0.0), angle, strain) / linear, 1.0, 0.005)
          << angle << " " << strain;
  }
  const double stiffened = stiffenedSheetModulus(channels, glm::dvec3(2.0, 0.0, 0.0), 0.0, 1.0 / 6.0);
  const double linear = springSheetModulus(channels, 0.0);
  EXPECT_GT(stiffened, 1.5 * linear);
  EXPECT_LT(stiffened, 3.0 * linear);
  // The fit inverts it.
  const MembraneModuli target{2.0 * linear, 1.5 * springSheetModulus(channels, 0.5 * kPi),
                              1.8 * springSheetModulus(channels, 0.25 * kPi)};
  const glm::dvec3 s = fitStrainStiffening(channels, target);
  EXPECT_NEAR(stiffenedSheetModulus(channels, s, 0.0, 1.0 / 6.0) / target.warp, 1.0, 1e-3);
  EXPECT_NEAR(stiffenedSheetModulus(channels, s, 0.5 * kPi, 1.0 / 6.0) / target.weft, 1.0, 1e-3);
  EXPECT_NEAR(stiffenedSheetModulus(channels, s, 0.25 * kPi, 1.0 / 6.0) / target.bias, 1.0, 1e-3);
}

// The bending factors reproduce each fold direction's rigidity through the blend.
TEST(FabricMapping, BendingFactorsGiveEachFoldItsRigidity) {
  const glm::dvec3 rigidity(4e-6, 5e-6, 8e-6);
  const glm::dvec3 f = fitBendingFactors(rigidity);
  const double D = hingeRigidityFor((rigidity.x + rigidity.y + rigidity.z) / 3.0);
  EXPECT_NEAR(hingeSheetRigidity(D, f, 0.0) / rigidity.x, 1.0, 1e-6);
  EXPECT_NEAR(hingeSheetRigidity(D, f, 0.25 * kPi) / rigidity.y, 1.0, 1e-6);
  EXPECT_NEAR(hingeSheetRigidity(D, f, 0.5 * kPi) / rigidity.z, 1.0, 1e-6);
  // Equal factors are isotropic: 3 D for every fold.
  EXPECT_NEAR(hingeSheetRigidity(D, glm::dvec3(1.0), 0.3) / (3.0 * D), 1.0, 1e-3);
}

TEST(FabricMapping, HingesGiveThreeTimesTheirRigidityOnABentSheet) {
  // A sheet of the cloth model rolled onto a cylinder of curvature kappa about either grid
  // axis: the hinges store (3 D |e|^2 / (A1 + A2)) (1 - cos theta), which sums to
  // 1/2 (3 D) kappa^2 per unit area, the continuum energy of rigidity 3 D.
  SquareClothSpec spec;
  spec.resolution = 41;
  spec.size = 0.4f;
  auto mesh = makeSquareSheet(spec);
  ASSERT_TRUE(mesh) << mesh.error().message;
  ClothMaterial material;
  material.bendingRigidity = 1e-5f;
  auto model = buildClothModel(*mesh, material);
  ASSERT_TRUE(model) << model.error().message;
  const double kappa = 10.0;  // 1/m
  for (int axis = 0; axis < 2; ++axis) {
    std::vector<glm::vec3> bent(mesh->positions.size());
    for (std::size_t i = 0; i < bent.size(); ++i) {
      const glm::vec3 p = mesh->positions[i] - spec.center;  // the sheet lies in xz
      const double along = axis == 0 ? p.x : p.z, across = axis == 0 ? p.z : p.x;
      const double phi = along * kappa;
      const glm::vec3 q(float(std::sin(phi) / kappa), float((1.0 - std::cos(phi)) / kappa), float(across));
      bent[i] = axis == 0 ? q : glm::vec3(q.z, q.y, q.x);
    }
    double energy = 0.0, area = 0.0;
    for (const kernels::ClothHinge& h : model->hinges) {
      const float theta =
          kernels::hingeAngle(bent[h.vertices.x], bent[h.vertices.y], bent[h.vertices.z], bent[h.vertices.w]);
      energy += double(h.stiffness) * (1.0 - std::cos(double(theta - h.restAngle)));
    }
    for (std::size_t t = 0; t < model->triangles.size(); t += 3) {
      const glm::vec3 a = mesh->positions[model->triangles[t]], b = mesh->positions[model->triangles[t + 1]],
                      c = mesh->positions[model->triangles[t + 2]];
      area += 0.5 * double(glm::length(glm::cross(b - a, c - a)));
    }
    const double rigidity = 2.0 * energy / (area * kappa * kappa);
    // The rows of hinges on the sheet's border bend too: within 5 % of 3 D.
    EXPECT_NEAR(rigidity / double(material.bendingRigidity), 3.0, 0.15) << "axis " << axis;
    EXPECT_NEAR(hingeRigidityFor(rigidity), double(material.bendingRigidity), 0.05 * material.bendingRigidity);
  }
}

TEST(FabricLibrary, EveryShippedFabricLoadsAndMapsOntoTheSprings) {
  auto library = loadFabricLibrary(kLibrary);
  ASSERT_TRUE(library) << library.error().message;
  ASSERT_EQ(library->size(), 13u);
  for (const LibraryFabric& fabric : *library) {
    SCOPED_TRACE(fabric.name);
    if (!fabric.measured) continue;  // calibrated: FabricLibrary.CalibratedFabrics*
    const SpringFabric spring = springFabricOf(fabric.physical);
    EXPECT_FLOAT_EQ(spring.material.arealDensity, float(fabric.measured->density));
    EXPECT_GT(spring.material.tensileStiffness, 0.0f);
    EXPECT_GT(spring.material.bendingRigidity, 0.0f);
    // The fitted springs reproduce the measured warp and weft moduli times the preset's mesh
    // correction (in the sheet model above); the bias exactly for the knits and the two
    // polyesters whose correction brings it within reach, and for the woven fabrics as
    // soft as the springs go, off by the error the fit reports.
    const glm::dvec3 channels = glm::dvec3(spring.anisotropy.x, spring.anisotropy.y, spring.anisotropy.z) *
                                double(spring.material.tensileStiffness);
    const MembraneModuli reached = springSheetModuli(channels);
    const glm::dvec3& correction = fabric.physical.meshCorrection.modulus;
    EXPECT_NEAR(reached.warp / (correction.x * spring.moduli.warp), 1.0, 0.01);
    EXPECT_NEAR(reached.weft / (correction.y * spring.moduli.weft), 1.0, 0.01);
    EXPECT_NEAR(std::abs(std::log(reached.bias / (correction.z * spring.moduli.bias))),
                std::log1p(spring.largestFitError), 0.01);
    const bool woven =
        fabric.name == "denim_11oz" || fabric.name == "twill_cotton_poly" || fabric.name == "polyester_tablecloth";
    if (woven) {
      EXPECT_GT(spring.largestFitError, 0.2);  // soft on the bias
      EXPECT_EQ(correction.z, 1.0) << "a bias out of the springs' reach gets no correction";
    } else {
      EXPECT_LT(spring.largestFitError, 0.01);
    }
    // Strain stiffening: the stiffened sheet reaches the warp and weft moduli at 1/6 strain
    // (corrected as above; the bias where the channels allow it), and every vertex weighs
    // its area.
    const glm::dvec3 stiffening(spring.material.strainStiffening);
    EXPECT_TRUE(spring.material.areaWeightedMass);
    EXPECT_GE(glm::min(stiffening.x, glm::min(stiffening.y, stiffening.z)), 0.0);
    const glm::dvec3& strainedCorrection = fabric.physical.meshCorrection.strainedModulus;
    for (const auto& [angle, target] : {std::pair{0.0, strainedCorrection.x * spring.strainedModuli.warp},
                                        std::pair{0.5 * kPi, strainedCorrection.y * spring.strainedModuli.weft}}) {
      const double stiffened = stiffenedSheetModulus(channels, stiffening, angle, 1.0 / 6.0);
      if (stiffenedSheetModulus(channels, glm::dvec3(0.0), angle, 1.0 / 6.0) < target) {
        EXPECT_NEAR(stiffened / target, 1.0, 0.05) << "angle " << angle;
      }
    }
  }
  auto missing = findLibraryFabric(kLibrary, "tweed");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("denim_11oz"), std::string::npos) << missing.error().message;
}

}  // namespace
}  // namespace hg
