// The fabric bench's tensile test (sim/garment/FabricBench.h) on the GPU backend against the
// CPU reference: a measured knit, with its strain stiffening (kernels tensionMagnitude run
// by sim/gpu/shaders/cloth_forces.comp), pulled along the warp to 2 % and to 1/6 strain.
#include <gtest/gtest.h>

#include "sim/cloth/CpuClothSolver.h"
#include "sim/cloth/FabricLibrary.h"
#include "sim/cloth/FabricMapping.h"
#include "sim/garment/FabricBench.h"
#include "sim/gpu/GpuClothSolver.h"
#include "tests/support/GlTest.h"

namespace hg {
namespace {

class FabricBenchGLTest : public test::GlTest {};

TEST_F(FabricBenchGLTest, TensileCurveAgreesWithTheCpuBackend) {
  auto library = findLibraryFabric(fabricLibraryDirectory(), "tshirt_interlock");
  ASSERT_TRUE(library) << library.error().message;
  const SpringFabric spring = springFabricOf(library->physical);
  ASSERT_GT(spring.material.strainStiffening.x, 0.5f) << "the knit stiffens along the warp";
  const BenchFabric fabric{spring.material, spring.anisotropy};
  const double strains[] = {0.02, 1.0 / 6.0};
  TensileCurve curves[2];
  for (int k = 0; k < 2; ++k) {
    FabricBenchSettings settings;
    settings.edgeLength = 0.02;
    const Backend backend = k == 0 ? Backend::Cpu : Backend::Gpu;
    settings.solverFactory = [backend](std::shared_ptr<const ClothModel> model, const ClothSettings& s) {
      return createClothSolver(backend, std::move(model), s);
    };
    auto curve = runTensileTest(fabric, BenchDirection::Warp, strains, settings);
    ASSERT_TRUE(curve) << curve.error().message;
    EXPECT_TRUE(curve->relax.converged);
    curves[k] = *curve;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(curves[1].strain[i], curves[0].strain[i], 0.01 * curves[0].strain[i]);
    EXPECT_NEAR(curves[1].secantModulus(i), curves[0].secantModulus(i), 0.02 * curves[0].secantModulus(i));
  }
  // Stiffening: the modulus at 1/6 strain is well above the one at 2 %.
  EXPECT_GT(curves[1].secantModulus(1), 1.5 * curves[1].secantModulus(0));
}

}  // namespace
}  // namespace hg
