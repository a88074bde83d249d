#pragma once
/// Solid voxelization of a watertight mesh (docs/methods.md section 6, the first step of the
/// sphere tree: the source fills the voxelized solid with spheres). A cubic grid of
/// `resolution` voxels along the mesh's longest side (64^3 to 256^3 in the source), one
/// voxel of margin on every side; a voxel is inside iff its centre is inside the mesh,
/// decided exactly by ray parity (insideByProjectedParity, sim/geometry/ProjectedParity.h:
/// exact predicates, symbolic perturbation for rays through edges and vertices; a centre
/// on the surface counts as inside). The voxels of one x-row share their ray's triangles.
/// Units: metres. GL-free.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

struct SolidVoxels {
  glm::vec3 origin{0.0f};  ///< m, the corner of voxel (0, 0, 0)
  float voxel = 0.0f;      ///< m, the voxels' edge
  int nx = 0, ny = 0, nz = 0;
  std::vector<std::uint8_t> inside;  ///< 1 inside; index (k * ny + j) * nx + i

  std::size_t index(int i, int j, int k) const {
    return (std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i);
  }
  bool at(int i, int j, int k) const { return inside[index(i, j, k)] != 0; }
  glm::vec3 centre(int i, int j, int k) const {
    return origin + voxel * glm::vec3(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
  }
  std::size_t insideCount() const;
  double insideVolume() const { return double(insideCount()) * double(voxel) * double(voxel) * double(voxel); }
};

/// The solid voxels of `mesh`. Error (naming the problem): a mesh that is not watertight
/// (checkWatertight's message: an open or non-manifold edge, a degenerate triangle), a
/// non-finite vertex, an empty mesh, a resolution outside [8, 512], or a flat mesh.
Result<SolidVoxels> voxelizeSolid(const TriangleMesh& mesh, int resolution);

}  // namespace hg
