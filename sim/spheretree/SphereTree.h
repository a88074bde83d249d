#pragma once
/// Sphere trees (docs/methods.md section 6; Fujii, Kobori & Nishikawa): a shape approximated by overlapping
/// spheres filled inside its solid voxels, arranged in an octree of bounding spheres, and
/// tested tree against tree.
///
/// Filling (fillSpheres): for every inside voxel the cross arm `arm` = the fewest inside
/// voxels beyond it along +-x, +-y, +-z (3D run lengths: a cross of arm r centred there
/// fits iff arm >= r). For r from the largest arm down to 0, every voxel not yet covered
/// whose cross of arm r fits is a candidate sphere of digital radius r; its surface is
/// drawn with Michener's circle algorithm extended to 3D (the xy circle of radius r, then
/// for each of its pixels (x, y) the circle of radius |y| in the plane of that x) and the
/// sphere is accepted iff every surface voxel is inside the shape. An accepted sphere
/// paints the voxels within its digital ball (centre distance^2 <= r^2 + r) as covered;
/// candidates are taken in voxel order, so one whose centre an earlier sphere of the same
/// pass covered is skipped. It ends when no inside voxel is left uncovered (at r = 0 every
/// remaining voxel is its own sphere). A sphere of digital radius r has the world radius
/// (r + 1/2) voxel, the ball of its painted voxels' cubes.
///
/// Octree (SphereTree::build): the cube around the sphere centres is split recursively
/// while a cell holds more than one centre; one sphere per leaf. A node's bounding sphere
/// is centred at the middle of its children's centres' box, with the radius reaching the
/// far side of every child sphere. Cells holding a single child cell are merged into it
/// (the same sphere).
///
/// Test (collide): root against root; where two nodes overlap, the inner one (of two
/// inner ones the larger) is opened and its children are tested against the other node,
/// down to the leaves; the shapes collide iff some pair of leaf spheres overlaps.
/// Units: metres. GL-free; the per-node math is kernels/sphere_tree.glslh.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/kernels/Kernels.h"
#include "sim/spheretree/SolidVoxels.h"

namespace hg {

/// Counters of one filling.
struct SphereFillStats {
  int largestRadius = 0;             ///< digital radius of the first sphere, voxels
  std::size_t candidatesTested = 0;  ///< Michener surface tests run
  std::size_t insideVoxels = 0;
  std::vector<std::size_t> spheresPerRadius;  ///< [r]: accepted spheres of digital radius r
};

/// The spheres filling the inside voxels (vec4 centre in metres, radius (r + 1/2) voxel),
/// largest first. Empty for an empty solid.
std::vector<glm::vec4> fillSpheres(const SolidVoxels& solid, SphereFillStats* stats = nullptr);

/// The voxel offsets (dx, dy, dz) of the digital sphere surface of radius r (Michener's
/// circle algorithm extended to 3D, see above), each once, in a fixed scrambled order
/// (the fill tests them in that order and stops at the first outside voxel).
std::vector<glm::ivec3> michenerSphereSurface(int r);

/// A rigid placement: world = rotation * local + translation (rotation orthonormal).
struct RigidPose {
  glm::mat3 rotation{1.0f};
  glm::vec3 translation{0.0f};
};

/// The nearest leaf sphere surface to a point.
struct SpherePointHit {
  bool found = false;                  ///< some leaf within the search radius
  float distance = 0.0f;               ///< signed distance to that leaf's surface, m (< 0 inside it)
  glm::vec3 normal{0.0f, 1.0f, 0.0f};  ///< outward unit normal there (world)
  std::uint32_t leaf = 0;              ///< the leaf's sphere index
  std::uint32_t nodesVisited = 0;
};

/// Result of a tree-vs-tree test.
struct SphereTreeContact {
  bool colliding = false;
  /// The colliding leaf pairs (sphere indices of a, of b); all of them unless the test
  /// was asked to stop at the first (then at most one).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> leafPairs;
  /// Penetration estimate: the largest overlap rA + rB - |cA - cB| of a colliding leaf
  /// pair, m (0 when apart).
  float penetration = 0.0f;
  std::size_t nodePairsVisited = 0;
};

class SphereTree {
 public:
  /// The octree over `spheres` (vec4 centre, radius; m). Error: none, or a non-finite or
  /// negative one (named by index).
  static Result<SphereTree> build(std::vector<glm::vec4> spheres, float voxel = 0.0f);
  /// Voxelize `mesh` at `resolution` voxels along its longest side (voxelizeSolid), fill
  /// and build. Errors: voxelizeSolid's, prefixed with `what` (e.g. the mesh's file).
  static Result<SphereTree> fromMesh(const TriangleMesh& mesh, int resolution, const std::string& what = "mesh",
                                     SphereFillStats* stats = nullptr);

  /// Nodes, root first; children of a node are contiguous (SphereTreeNode.links).
  const std::vector<kernels::SphereTreeNode>& nodes() const { return m_nodes; }
  /// The leaf spheres (vec4 centre, radius), as filled; SphereTreeNode.links.z indexes them.
  const std::vector<glm::vec4>& spheres() const { return m_spheres; }
  const kernels::SphereTreeNode& root() const { return m_nodes.front(); }
  /// The voxel edge of the filling (0 when built from given spheres), m.
  float voxel() const { return m_voxel; }
  /// Levels below the root (0: a single sphere).
  int depth() const { return m_depth; }

  /// The nearest leaf surface to `p` among leaves whose signed distance is below
  /// `searchRadius` (branch and bound: a node is skipped when its bounding sphere's
  /// signed distance is not below the best so far). Without a hit, found = false.
  SpherePointHit nearest(const RigidPose& pose, glm::vec3 p, float searchRadius) const;
  /// Whether `p` lies inside some leaf sphere.
  bool contains(const RigidPose& pose, glm::vec3 p) const;

 private:
  std::vector<kernels::SphereTreeNode> m_nodes;
  std::vector<glm::vec4> m_spheres;
  float m_voxel = 0.0f;
  int m_depth = 0;
};

/// SphereTree::nearest over a node array holding several trees (the layout of the GPU
/// passes and the cloth colliders): the instance's root sits at instance.base.x. The
/// same traversal, in the same order, as sim/gpu/shaders/sphere_tree_common.glsl.
SpherePointHit nearestLeaf(std::span<const kernels::SphereTreeNode> nodes, const kernels::SphereTreeInstance& instance,
                           glm::vec3 p, float searchRadius);

/// Section 6's test over two node arrays (each starting at its tree's root), b placed in
/// a's frame by `rel` (kernels::sphereTreeRelativePose): root against root; where two nodes
/// overlap, the inner one (of two inner ones the larger) is opened and its children that
/// overlap the other node are pushed, last child first; for every overlapping leaf pair,
/// `visit(leafA, leafB, leafB's sphere in a's frame)` is called, and a false return ends the
/// test. `stack` is scratch space. Returns the node pairs visited. The traversal of
/// hg::collide, sphereTreeQueryPair and sim/gpu/shaders/sphere_tree_common.glsl sphereTreeCollide.
template <class Visit>
std::size_t traverseCollidingLeaves(const kernels::SphereTreeNode* na, const kernels::SphereTreeNode* nb,
                                    const kernels::SphereTreeRelativePose& rel, std::vector<glm::uvec2>& stack,
                                    Visit&& visit) {
  std::size_t visited = 0;
  stack.clear();
  if (kernels::spheresOverlap(na[0].sphere, kernels::sphereTreeRelativeSphere(rel, nb[0].sphere)))
    stack.emplace_back(0u, 0u);
  while (!stack.empty()) {
    const glm::uvec2 top = stack.back();
    stack.pop_back();
    ++visited;
    const kernels::SphereTreeNode& x = na[top.x];
    const kernels::SphereTreeNode& y = nb[top.y];
    const glm::vec4 ys = kernels::sphereTreeRelativeSphere(rel, y.sphere);
    if (x.links.y == 0u && y.links.y == 0u) {
      if (!visit(x, y, ys)) break;
      continue;
    }
    if (kernels::sphereTreeOpenFirst(x, y)) {
      for (std::uint32_t c = x.links.y; c-- > 0;)
        if (kernels::spheresOverlap(na[x.links.x + c].sphere, ys)) stack.emplace_back(x.links.x + c, top.y);
    } else {
      for (std::uint32_t c = y.links.y; c-- > 0;)
        if (kernels::spheresOverlap(x.sphere, kernels::sphereTreeRelativeSphere(rel, nb[y.links.x + c].sphere)))
          stack.emplace_back(top.x, y.links.x + c);
    }
  }
  return visited;
}

/// Section 6's test of `a` at `poseA` against `b` at `poseB`. firstOnly: stop at the
/// first colliding leaf pair (the yes/no question, fastest).
SphereTreeContact collide(const SphereTree& a, const RigidPose& poseA, const SphereTree& b, const RigidPose& poseB,
                          bool firstOnly = false);

/// Smallest gap between a leaf sphere of `a` and one of `b` (branch and bound over node
/// pairs), m; negative when some pair overlaps (then minus the deepest such overlap).
float distance(const SphereTree& a, const RigidPose& poseA, const SphereTree& b, const RigidPose& poseB,
               std::size_t* nodePairsVisited = nullptr);

/// Volume of the union of spheres, m^3, by counting the centres of a regular grid of
/// `cellsPerSide` cells along the spheres' longest extent (exact as that grows: on the
/// bottle, 3 and 6 cells per filling voxel differ by 0.5 / 0.3 / 0.1 % at 64 / 128 / 256
/// voxels). Works one z slab at a time: memory of one slab of cells plus the spheres.
double sphereUnionVolume(std::span<const glm::vec4> spheres, int cellsPerSide = 256);

/// The instance record of a placement: pose, `base` (root index in a concatenated node
/// array, node count, leaf count, 0) and the surface friction.
kernels::SphereTreeInstance sphereTreeInstance(const RigidPose& pose, glm::uvec4 base, float friction);

/// The instance record of a tree placed at `pose` whose nodes start at `rootIndex` of a
/// concatenated node array (GPU passes and cloth colliders).
kernels::SphereTreeInstance sphereTreeInstance(const SphereTree& tree, const RigidPose& pose, std::uint32_t rootIndex,
                                               float friction = 0.0f);

}  // namespace hg
