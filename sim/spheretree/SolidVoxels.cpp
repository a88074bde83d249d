#include "sim/spheretree/SolidVoxels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <glm/common.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/MeshTopology.h"
#include "sim/geometry/ProjectedParity.h"

namespace hg {

std::size_t SolidVoxels::insideCount() const {
  return std::size_t(std::count(inside.begin(), inside.end(), std::uint8_t(1)));
}

Result<SolidVoxels> voxelizeSolid(const TriangleMesh& mesh, int resolution) {
  if (resolution < 8 || resolution > 512)
    return Error{"voxelize: resolution must be in [8, 512] voxels (got " + std::to_string(resolution) + ")"};
  if (mesh.indices.empty()) return Error{"voxelize: the mesh has no triangles"};
  for (const glm::vec3& p : mesh.positions)
    if (!allFinite(p)) return Error{"voxelize: the mesh has a non-finite vertex"};
  if (Status s = checkWatertight(mesh); !s)
    return s.error().prefixed("voxelize: the mesh is not watertight (a solid needs a closed surface): ");
  glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
  for (std::uint32_t index : mesh.indices) {
    lo = glm::min(lo, mesh.positions[index]);
    hi = glm::max(hi, mesh.positions[index]);
  }
  const glm::vec3 extent = hi - lo;
  const float longest = std::max({extent.x, extent.y, extent.z});
  if (!(longest > 0.0f)) return Error{"voxelize: the mesh has no extent"};
  SolidVoxels v;
  v.voxel = longest / float(resolution);
  v.nx = int(std::ceil(extent.x / v.voxel)) + 2;
  v.ny = int(std::ceil(extent.y / v.voxel)) + 2;
  v.nz = int(std::ceil(extent.z / v.voxel)) + 2;
  // Centred on the mesh's box, one voxel of margin (at least) on every side.
  v.origin = 0.5f * (lo + hi) - 0.5f * v.voxel * glm::vec3(float(v.nx), float(v.ny), float(v.nz));
  const std::size_t count = std::size_t(v.nx) * std::size_t(v.ny) * std::size_t(v.nz);
  std::vector<glm::vec3> centres;
  centres.reserve(count);
  for (int k = 0; k < v.nz; ++k)
    for (int j = 0; j < v.ny; ++j)
      for (int i = 0; i < v.nx; ++i) centres.push_back(v.centre(i, j, k));
  auto parity = insideByProjectedParity(mesh, centres);
  if (!parity) return parity.error().prefixed("voxelize: ");
  v.inside.resize(count);
  for (std::size_t c = 0; c < count; ++c) v.inside[c] = (*parity)[c] ? 1 : 0;
  return v;
}

}  // namespace hg
