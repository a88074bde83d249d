// The solid voxelizer (sim/spheretree/SolidVoxels.h; docs/methods.md section 6): exact counts on
// a box, volumes against the meshes' own, every voxel against CGAL's exact inside test on a
// convex and a non-convex mesh, and clear errors for meshes that bound no solid.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <glm/gtc/constants.hpp>

#include "sim/geometry/CgalGeometry.h"
#include "sim/geometry/MeshTopology.h"
#include "sim/spheretree/SolidVoxels.h"

namespace hg {
namespace {

using cgal::ClosedMeshQuery;

/// Voxels whose inside flag differs from CGAL's Side_of_triangle_mesh at their centre.
std::size_t disagreementsWithCgal(const TriangleMesh& mesh, const SolidVoxels& voxels) {
  auto query = ClosedMeshQuery::create(mesh);
  EXPECT_TRUE(query.ok());
  if (!query) return voxels.inside.size();
  std::size_t differ = 0;
  for (int k = 0; k < voxels.nz; ++k)
    for (int j = 0; j < voxels.ny; ++j)
      for (int i = 0; i < voxels.nx; ++i) differ += query->inside(voxels.centre(i, j, k)) != voxels.at(i, j, k);
  return differ;
}

TEST(SolidVoxels, BoxHasExactlyItsVoxels) {
  // 1 x 0.5 x 0.25 m at 64 voxels along x: 64 x 32 x 16 centres inside, none on a face.
  const TriangleMesh box = makeBox({0.0f, 0.0f, 0.0f}, {1.0f, 0.5f, 0.25f}, 2);
  auto voxels = voxelizeSolid(box, 64);
  ASSERT_TRUE(voxels.ok()) << voxels.error().message;
  EXPECT_FLOAT_EQ(voxels->voxel, 1.0f / 64.0f);
  EXPECT_EQ(voxels->nx, 66);
  EXPECT_EQ(voxels->ny, 34);
  EXPECT_EQ(voxels->nz, 18);
  EXPECT_EQ(voxels->insideCount(), std::size_t(64 * 32 * 16));
  // The margin stays empty.
  for (int k = 0; k < voxels->nz; ++k)
    for (int j = 0; j < voxels->ny; ++j) {
      EXPECT_FALSE(voxels->at(0, j, k));
      EXPECT_FALSE(voxels->at(voxels->nx - 1, j, k));
    }
}

TEST(SolidVoxels, SphereAndTorusMatchTheExactInsideTestAndTheirVolumes) {
  const TriangleMesh sphere = makeIcosphere({0.1f, -0.2f, 0.3f}, 0.5f, 4);
  const TriangleMesh torus = makeTorus({0.0f, 0.0f, 0.0f}, 0.4f, 0.15f, 48, 24);
  struct Case {
    const char* name;
    const TriangleMesh* mesh;
    int resolution;
  };
  for (const Case& c : {Case{"sphere", &sphere, 32}, Case{"sphere", &sphere, 64}, Case{"torus", &torus, 48}}) {
    SCOPED_TRACE(std::string(c.name) + " at " + std::to_string(c.resolution));
    auto voxels = voxelizeSolid(*c.mesh, c.resolution);
    ASSERT_TRUE(voxels.ok()) << voxels.error().message;
    EXPECT_EQ(disagreementsWithCgal(*c.mesh, *voxels), 0u);
    const double meshVolume = signedVolume(*c.mesh);
    const double relative = std::abs(voxels->insideVolume() - meshVolume) / meshVolume;
    std::printf("[ voxels ] %s at %d: %zu of %d x %d x %d inside, volume %.5f m^3 against the mesh's %.5f (%.2f %%)\n",
                c.name, c.resolution, voxels->insideCount(), voxels->nx, voxels->ny, voxels->nz, voxels->insideVolume(),
                meshVolume, 100.0 * relative);
    EXPECT_LT(relative, c.resolution >= 64 ? 0.02 : 0.05);
  }
}

TEST(SolidVoxels, MeshesThatBoundNoSolidAreErrors) {
  TriangleMesh open = makeBox({0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 0);
  open.indices.resize(open.indices.size() - 3);  // one triangle missing: a hole
  auto holed = voxelizeSolid(open, 32);
  ASSERT_FALSE(holed.ok());
  EXPECT_NE(holed.error().message.find("not watertight"), std::string::npos) << holed.error().message;

  auto empty = voxelizeSolid(TriangleMesh{}, 32);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("no triangles"), std::string::npos);

  TriangleMesh bad = makeBox({0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 0);
  bad.positions[0].y = std::nanf("");
  auto nan = voxelizeSolid(bad, 32);
  ASSERT_FALSE(nan.ok());
  EXPECT_NE(nan.error().message.find("non-finite"), std::string::npos);

  for (int resolution : {4, 1024}) {
    auto wrong = voxelizeSolid(makeBox({0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, 0), resolution);
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("resolution"), std::string::npos);
  }
}

}  // namespace
}  // namespace hg
