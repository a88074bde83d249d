#include "sim/spheretree/SphereTree.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace hg {
namespace {

/// Fewest inside voxels beyond each inside voxel along +-x, +-y, +-z (0 outside): the
/// largest cross arm that fits there (section 6's 3D run lengths).
std::vector<std::uint16_t> crossArms(const SolidVoxels& s) {
  const std::size_t n = s.inside.size();
  std::vector<std::uint16_t> arm(n, 0);
  for (std::size_t v = 0; v < n; ++v) arm[v] = s.inside[v] ? std::numeric_limits<std::uint16_t>::max() : 0;
  const std::array<int, 3> dims{s.nx, s.ny, s.nz};
  const std::array<std::size_t, 3> stride{1, std::size_t(s.nx), std::size_t(s.nx) * std::size_t(s.ny)};
  for (int axis = 0; axis < 3; ++axis) {
    const int length = dims[std::size_t(axis)];
    const std::size_t step = stride[std::size_t(axis)];
    // Rows along `axis`: every voxel whose coordinate on `axis` is 0.
    std::vector<std::size_t> starts;
    starts.reserve(n / std::size_t(length));
    for (int k = 0; k < s.nz; ++k)
      for (int j = 0; j < s.ny; ++j)
        for (int i = 0; i < s.nx; ++i) {
          const std::array<int, 3> c{i, j, k};
          if (c[std::size_t(axis)] == 0) starts.push_back(s.index(i, j, k));
        }
    const auto rows = std::int64_t(starts.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t row = 0; row < rows; ++row) {
      const std::size_t first = starts[std::size_t(row)];
      std::uint16_t run = 0;  // inside voxels before this one along -axis
      for (int t = 0; t < length; ++t) {
        const std::size_t v = first + std::size_t(t) * step;
        if (!s.inside[v]) {
          run = 0;
          continue;
        }
        arm[v] = std::min(arm[v], run);
        ++run;
      }
      run = 0;
      for (int t = length - 1; t >= 0; --t) {
        const std::size_t v = first + std::size_t(t) * step;
        if (!s.inside[v]) {
          run = 0;
          continue;
        }
        arm[v] = std::min(arm[v], run);
        ++run;
      }
    }
  }
  return arm;
}

/// Michener's midpoint circle of radius r: every pixel (x, y) of all eight octants.
template <class Plot>
void michenerCircle(int r, Plot&& plot) {
  if (r == 0) {
    plot(0, 0);
    return;
  }
  int x = 0, y = r, d = 3 - 2 * r;
  while (x <= y) {
    plot(x, y);
    plot(y, x);
    plot(-x, y);
    plot(-y, x);
    plot(x, -y);
    plot(y, -x);
    plot(-x, -y);
    plot(-y, -x);
    if (d < 0) {
      d += 4 * x + 6;
    } else {
      d += 4 * (x - y) + 10;
      --y;
    }
    ++x;
  }
}

std::uint64_t scramble(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct BuildNode {
  glm::vec4 sphere{0.0f};
  std::vector<std::uint32_t> children;  // BuildNode indices
  std::uint32_t leaf = HG_SPHERE_TREE_INNER;
};

/// Octree over `ids` in the cube `lo` + [0, size]^3 (section 6); returns the BuildNode.
std::uint32_t buildOctree(const std::vector<glm::vec4>& spheres, std::vector<std::uint32_t> ids, glm::vec3 lo,
                          float size, int level, std::vector<BuildNode>& out) {
  if (ids.size() == 1) {
    out.push_back(BuildNode{spheres[ids[0]], {}, ids[0]});
    return std::uint32_t(out.size() - 1);
  }
  std::vector<std::vector<std::uint32_t>> parts;
  std::vector<glm::vec3> partLo;
  if (level >= 48) {  // coincident centres (given spheres only): split the list in two
    const auto half = std::ptrdiff_t(ids.size() / 2);
    parts = {std::vector<std::uint32_t>(ids.begin(), ids.begin() + half),
             std::vector<std::uint32_t>(ids.begin() + half, ids.end())};
    partLo = {lo, lo};
  } else {
    const float h = 0.5f * size;
    const glm::vec3 mid = lo + glm::vec3(h);
    std::array<std::vector<std::uint32_t>, 8> octants;
    for (std::uint32_t id : ids) {
      const glm::vec3 c(spheres[id]);
      octants[std::size_t((c.x >= mid.x) | ((c.y >= mid.y) << 1) | ((c.z >= mid.z) << 2))].push_back(id);
    }
    for (int o = 0; o < 8; ++o) {
      if (octants[std::size_t(o)].empty()) continue;
      parts.push_back(std::move(octants[std::size_t(o)]));
      partLo.push_back(lo + h * glm::vec3(float(o & 1), float((o >> 1) & 1), float((o >> 2) & 1)));
    }
    // A cell whose centres all fall in one octant is that octant (same sphere set).
    if (parts.size() == 1) return buildOctree(spheres, std::move(parts[0]), partLo[0], h, level + 1, out);
  }
  const float childSize = level >= 48 ? size : 0.5f * size;
  std::vector<std::uint32_t> children;
  for (std::size_t p = 0; p < parts.size(); ++p)
    children.push_back(buildOctree(spheres, std::move(parts[p]), partLo[p], childSize, level + 1, out));
  // Bounding sphere: centre of the box of the children's centres, radius to the far
  // side of every child sphere.
  glm::vec3 cmin(std::numeric_limits<float>::max()), cmax(-std::numeric_limits<float>::max());
  for (std::uint32_t c : children) {
    cmin = glm::min(cmin, glm::vec3(out[c].sphere));
    cmax = glm::max(cmax, glm::vec3(out[c].sphere));
  }
  const glm::vec3 centre = 0.5f * (cmin + cmax);
  float radius = 0.0f;
  for (std::uint32_t c : children)
    radius = std::max(radius, glm::length(glm::vec3(out[c].sphere) - centre) + out[c].sphere.w);
  // Rounding: the leaves must lie inside (lower bounds of the traversals stay bounds).
  radius *= 1.0f + 4.0f * std::numeric_limits<float>::epsilon();
  out.push_back(BuildNode{glm::vec4(centre, radius), std::move(children), HG_SPHERE_TREE_INNER});
  return std::uint32_t(out.size() - 1);
}

}  // namespace

std::vector<glm::ivec3> michenerSphereSurface(int r) {
  std::vector<glm::ivec3> points;
  michenerCircle(
      r, [&](int x, int y) { michenerCircle(std::abs(y), [&](int yy, int zz) { points.emplace_back(x, yy, zz); }); });
  auto key = [](const glm::ivec3& p) {
    return (std::uint64_t(std::uint32_t(p.x + 1024)) << 42) | (std::uint64_t(std::uint32_t(p.y + 1024)) << 21) |
           std::uint64_t(std::uint32_t(p.z + 1024));
  };
  std::sort(points.begin(), points.end(), [&](const glm::ivec3& a, const glm::ivec3& b) { return key(a) < key(b); });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::sort(points.begin(), points.end(),
            [&](const glm::ivec3& a, const glm::ivec3& b) { return scramble(key(a)) < scramble(key(b)); });
  return points;
}

std::vector<glm::vec4> fillSpheres(const SolidVoxels& solid, SphereFillStats* stats) {
  SphereFillStats local;
  SphereFillStats& st = stats ? *stats : local;
  st = SphereFillStats{};
  std::vector<glm::vec4> spheres;
  const std::vector<std::uint16_t> arm = crossArms(solid);
  const std::size_t n = arm.size();
  // Voxels bucketed by arm (index order inside a bucket).
  int maxArm = -1;
  for (std::size_t v = 0; v < n; ++v)
    if (solid.inside[v]) {
      maxArm = std::max(maxArm, int(arm[v]));
      ++st.insideVoxels;
    }
  if (maxArm < 0) return spheres;
  std::vector<std::size_t> bucketStart(std::size_t(maxArm) + 2, 0);
  for (std::size_t v = 0; v < n; ++v)
    if (solid.inside[v]) ++bucketStart[std::size_t(arm[v]) + 1];
  for (std::size_t b = 1; b < bucketStart.size(); ++b) bucketStart[b] += bucketStart[b - 1];
  std::vector<std::uint32_t> byArm(bucketStart.back());
  {
    std::vector<std::size_t> fill(bucketStart.begin(), bucketStart.end() - 1);
    for (std::size_t v = 0; v < n; ++v)
      if (solid.inside[v]) byArm[fill[arm[v]]++] = std::uint32_t(v);
  }
  std::vector<std::uint8_t> covered(n, 0);
  std::vector<std::uint32_t> pending, merged;
  std::vector<std::uint8_t> fits;
  st.spheresPerRadius.assign(std::size_t(maxArm) + 1, 0);
  const auto nx = std::int64_t(solid.nx), ny = std::int64_t(solid.ny), nz = std::int64_t(solid.nz);
  for (int r = maxArm; r >= 0; --r) {
    // Candidates: the uncovered voxels whose cross of arm r fits, in voxel order.
    merged.clear();
    std::merge(pending.begin(), pending.end(), byArm.begin() + std::ptrdiff_t(bucketStart[std::size_t(r)]),
               byArm.begin() + std::ptrdiff_t(bucketStart[std::size_t(r) + 1]), std::back_inserter(merged));
    pending.swap(merged);
    if (pending.empty()) continue;
    const std::vector<glm::ivec3> surface = michenerSphereSurface(r);
    fits.assign(pending.size(), 0);
    const auto count = std::int64_t(pending.size());
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t c = 0; c < count; ++c) {
      const std::int64_t v = pending[std::size_t(c)];
      const std::int64_t i = v % nx, j = (v / nx) % ny, k = v / (nx * ny);
      bool ok = true;
      for (const glm::ivec3& o : surface) {
        const std::int64_t x = i + o.x, y = j + o.y, z = k + o.z;
        if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz ||
            !solid.inside[std::size_t((z * ny + y) * nx + x)]) {
          ok = false;
          break;
        }
      }
      fits[std::size_t(c)] = ok;
    }
    st.candidatesTested += pending.size();
    const std::int64_t rr = std::int64_t(r) * r + r;  // the digital ball: d^2 <= r^2 + r
    for (std::size_t c = 0; c < pending.size(); ++c) {
      const std::uint32_t v = pending[c];
      if (!fits[c] || covered[v]) continue;
      const std::int64_t i = v % nx, j = (v / nx) % ny, k = v / (nx * ny);
      spheres.push_back(glm::vec4(solid.centre(int(i), int(j), int(k)), (float(r) + 0.5f) * solid.voxel));
      ++st.spheresPerRadius[std::size_t(r)];
      for (std::int64_t dz = -r; dz <= r; ++dz)
        for (std::int64_t dy = -r; dy <= r; ++dy)
          for (std::int64_t dx = -r; dx <= r; ++dx) {
            if (dx * dx + dy * dy + dz * dz > rr) continue;
            const std::int64_t x = i + dx, y = j + dy, z = k + dz;
            if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
            covered[std::size_t((z * ny + y) * nx + x)] = 1;
          }
    }
    pending.erase(std::remove_if(pending.begin(), pending.end(), [&](std::uint32_t v) { return covered[v] != 0; }),
                  pending.end());
  }
  if (!spheres.empty()) st.largestRadius = int(std::lround(spheres.front().w / solid.voxel - 0.5f));
  return spheres;
}

Result<SphereTree> SphereTree::build(std::vector<glm::vec4> spheres, float voxel) {
  if (spheres.empty()) return Error{"sphere tree: no spheres"};
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const glm::vec4 s = spheres[i];
    if (!std::isfinite(s.x) || !std::isfinite(s.y) || !std::isfinite(s.z) || !std::isfinite(s.w) || s.w < 0.0f)
      return Error{"sphere tree: sphere " + std::to_string(i) + " has a non-finite centre or a negative radius"};
  }
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec4& s : spheres) {
    lo = glm::min(lo, glm::vec3(s));
    hi = glm::max(hi, glm::vec3(s));
  }
  const glm::vec3 extent = hi - lo;
  const float size = std::max({extent.x, extent.y, extent.z, 1e-6f}) * (1.0f + 1e-5f);
  std::vector<BuildNode> temp;
  temp.reserve(2 * spheres.size());
  std::vector<std::uint32_t> ids(spheres.size());
  std::iota(ids.begin(), ids.end(), 0u);
  const std::uint32_t rootTemp = buildOctree(spheres, std::move(ids), lo, size, 0, temp);
  // Flatten breadth first: children contiguous.
  SphereTree tree;
  tree.m_voxel = voxel;
  std::vector<std::uint32_t> order{rootTemp};
  std::vector<std::uint32_t> depthOf{0};
  tree.m_nodes.reserve(temp.size());
  for (std::size_t q = 0; q < order.size(); ++q) {
    const BuildNode& b = temp[order[q]];
    kernels::SphereTreeNode node;
    node.sphere = b.sphere;
    node.links = glm::uvec4(0u, std::uint32_t(b.children.size()), b.leaf, depthOf[q]);
    if (!b.children.empty()) {
      node.links.x = std::uint32_t(order.size());
      for (std::uint32_t c : b.children) {
        order.push_back(c);
        depthOf.push_back(depthOf[q] + 1);
      }
    }
    tree.m_depth = std::max(tree.m_depth, int(depthOf[q]));
    tree.m_nodes.push_back(node);
  }
  tree.m_spheres = std::move(spheres);
  return tree;
}

Result<SphereTree> SphereTree::fromMesh(const TriangleMesh& mesh, int resolution, const std::string& what,
                                        SphereFillStats* stats) {
  Result<SolidVoxels> solid = voxelizeSolid(mesh, resolution);
  if (!solid) return solid.error().prefixed(what + ": ");
  std::vector<glm::vec4> spheres = fillSpheres(*solid, stats);
  if (spheres.empty())
    return Error{what + ": no voxel centre lies inside the mesh at resolution " + std::to_string(resolution) +
                 " (too thin for it; raise the resolution)"};
  return build(std::move(spheres), solid->voxel);
}

SpherePointHit nearestLeaf(std::span<const kernels::SphereTreeNode> nodes, const kernels::SphereTreeInstance& instance,
                           glm::vec3 p, float searchRadius) {
  SpherePointHit hit;
  const glm::vec3 local = kernels::sphereTreeToLocal(instance, p);
  const std::uint32_t base = instance.base.x;
  float best = searchRadius;
  std::array<std::uint32_t, HG_SPHERE_TREE_STACK> stack;  // not zero-filled: per vertex and substep in the cloth
  std::size_t top = 0;
  stack[top++] = 0;
  std::vector<std::uint32_t> overflow;  // the CPU never drops work (the GPU pass flags it)
  while (top > 0 || !overflow.empty()) {
    std::uint32_t id;
    if (!overflow.empty()) {
      id = overflow.back();
      overflow.pop_back();
    } else {
      id = stack[--top];
    }
    const kernels::SphereTreeNode node = nodes[base + id];
    ++hit.nodesVisited;
    const float bound = kernels::sphereSignedDistance(node.sphere, local);
    if (!(bound < best)) continue;
    if (node.links.y == 0u) {
      best = bound;
      hit.found = true;
      hit.distance = bound;
      hit.leaf = node.links.z;
      hit.normal = kernels::sphereTreeDirectionToWorld(instance, kernels::sphereOutwardNormal(node.sphere, local));
      continue;
    }
    for (std::uint32_t c = node.links.y; c-- > 0;) {
      if (top < stack.size())
        stack[top++] = node.links.x + c;
      else
        overflow.push_back(node.links.x + c);
    }
  }
  return hit;
}

SpherePointHit SphereTree::nearest(const RigidPose& pose, glm::vec3 p, float searchRadius) const {
  return nearestLeaf(m_nodes, sphereTreeInstance(*this, pose, 0u), p, searchRadius);
}

bool SphereTree::contains(const RigidPose& pose, glm::vec3 p) const { return nearest(pose, p, 0.0f).found; }

SphereTreeContact collide(const SphereTree& a, const RigidPose& poseA, const SphereTree& b, const RigidPose& poseB,
                          bool firstOnly) {
  SphereTreeContact out;
  const kernels::SphereTreeRelativePose rel =
      kernels::sphereTreeRelativePose(sphereTreeInstance(a, poseA, 0u), sphereTreeInstance(b, poseB, 0u));
  std::vector<glm::uvec2> stack;
  stack.reserve(256);
  out.nodePairsVisited =
      traverseCollidingLeaves(a.nodes().data(), b.nodes().data(), rel, stack,
                              [&](const kernels::SphereTreeNode& x, const kernels::SphereTreeNode& y, glm::vec4 ys) {
                                out.colliding = true;
                                out.leafPairs.emplace_back(x.links.z, y.links.z);
                                out.penetration = std::max(out.penetration, -kernels::sphereGap(x.sphere, ys));
                                return !firstOnly;
                              });
  return out;
}

float distance(const SphereTree& a, const RigidPose& poseA, const SphereTree& b, const RigidPose& poseB,
               std::size_t* nodePairsVisited) {
  const kernels::SphereTreeRelativePose rel =
      kernels::sphereTreeRelativePose(sphereTreeInstance(a, poseA, 0u), sphereTreeInstance(b, poseB, 0u));
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  float best = std::numeric_limits<float>::infinity();
  std::size_t visited = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0u, 0u}};
  std::vector<std::pair<float, std::uint32_t>> children;
  while (!stack.empty()) {
    const auto [ia, ib] = stack.back();
    stack.pop_back();
    ++visited;
    const kernels::SphereTreeNode& x = na[ia];
    const kernels::SphereTreeNode& y = nb[ib];
    const glm::vec4 ys = kernels::sphereTreeRelativeSphere(rel, y.sphere);
    const float bound = kernels::sphereGap(x.sphere, ys);
    if (!(bound < best)) continue;
    if (x.links.y == 0u && y.links.y == 0u) {
      best = bound;
      continue;
    }
    // Open one node; push its children farthest first so the nearest is searched first.
    const bool openA = kernels::sphereTreeOpenFirst(x, y);
    const kernels::SphereTreeNode& open = openA ? x : y;
    children.clear();
    for (std::uint32_t c = 0; c < open.links.y; ++c) {
      const std::uint32_t child = open.links.x + c;
      const float g = openA ? kernels::sphereGap(na[child].sphere, ys)
                            : kernels::sphereGap(x.sphere, kernels::sphereTreeRelativeSphere(rel, nb[child].sphere));
      if (g < best) children.emplace_back(g, child);
    }
    std::sort(children.begin(), children.end(), [](const auto& p, const auto& q) { return p.first > q.first; });
    for (const auto& [g, child] : children) stack.emplace_back(openA ? child : ia, openA ? ib : child);
  }
  if (nodePairsVisited) *nodePairsVisited = visited;
  return best;
}

double sphereUnionVolume(std::span<const glm::vec4> spheres, int cellsPerSide) {
  if (spheres.empty() || cellsPerSide < 1) return 0.0;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec4& s : spheres) {
    lo = glm::min(lo, glm::vec3(s) - glm::vec3(s.w));
    hi = glm::max(hi, glm::vec3(s) + glm::vec3(s.w));
  }
  const glm::vec3 extent = hi - lo;
  const double h = double(std::max({extent.x, extent.y, extent.z})) / double(cellsPerSide);
  if (!(h > 0.0)) return 0.0;
  const int nx = std::max(1, int(std::ceil(extent.x / h))), ny = std::max(1, int(std::ceil(extent.y / h))),
            nz = std::max(1, int(std::ceil(extent.z / h)));
  // One z slab of cells at a time (memory nx ny, not nx ny nz): the spheres crossing
  // each slab, bucketed by slab first.
  struct Ball {
    double cx, cy, cz, r;
    int i0, i1, j0, j1;
  };
  std::vector<Ball> balls;
  balls.reserve(spheres.size());
  std::vector<std::size_t> slabStart(std::size_t(nz) + 1, 0);
  std::vector<std::pair<int, int>> slabRange;
  slabRange.reserve(spheres.size());
  for (const glm::vec4& s : spheres) {
    Ball b;
    b.cx = (double(s.x) - lo.x) / h - 0.5;
    b.cy = (double(s.y) - lo.y) / h - 0.5;
    b.cz = (double(s.z) - lo.z) / h - 0.5;
    b.r = double(s.w) / h;
    b.i0 = std::max(0, int(std::ceil(b.cx - b.r)));
    b.i1 = std::min(nx - 1, int(std::floor(b.cx + b.r)));
    b.j0 = std::max(0, int(std::ceil(b.cy - b.r)));
    b.j1 = std::min(ny - 1, int(std::floor(b.cy + b.r)));
    const int k0 = std::max(0, int(std::ceil(b.cz - b.r))), k1 = std::min(nz - 1, int(std::floor(b.cz + b.r)));
    balls.push_back(b);
    slabRange.emplace_back(k0, k1);
    for (int k = k0; k <= k1; ++k) ++slabStart[std::size_t(k) + 1];
  }
  for (std::size_t k = 1; k < slabStart.size(); ++k) slabStart[k] += slabStart[k - 1];
  std::vector<std::uint32_t> inSlab(slabStart.back());
  {
    std::vector<std::size_t> fill(slabStart.begin(), slabStart.end() - 1);
    for (std::size_t i = 0; i < balls.size(); ++i)
      for (int k = slabRange[i].first; k <= slabRange[i].second; ++k) inSlab[fill[std::size_t(k)]++] = std::uint32_t(i);
  }
  std::size_t count = 0;
#pragma omp parallel reduction(+ : count)
  {
    std::vector<std::uint8_t> slab(std::size_t(nx) * std::size_t(ny));
#pragma omp for schedule(dynamic, 4)
    for (int k = 0; k < nz; ++k) {
      std::fill(slab.begin(), slab.end(), std::uint8_t(0));
      for (std::size_t e = slabStart[std::size_t(k)]; e < slabStart[std::size_t(k) + 1]; ++e) {
        const Ball& b = balls[inSlab[e]];
        const double dz = k - b.cz;
        for (int j = b.j0; j <= b.j1; ++j) {
          const double dy = j - b.cy, rest = b.r * b.r - dy * dy - dz * dz;
          if (rest < 0.0) continue;
          const double w = std::sqrt(rest);
          const int first = std::max(b.i0, int(std::ceil(b.cx - w))), last = std::min(b.i1, int(std::floor(b.cx + w)));
          std::uint8_t* row = slab.data() + std::size_t(j) * std::size_t(nx);
          for (int i = first; i <= last; ++i) row[i] = 1;
        }
      }
      count += std::size_t(std::count(slab.begin(), slab.end(), std::uint8_t(1)));
    }
  }
  return double(count) * h * h * h;
}

kernels::SphereTreeInstance sphereTreeInstance(const RigidPose& pose, glm::uvec4 base, float friction) {
  kernels::SphereTreeInstance inst;
  inst.axis0 = glm::vec4(pose.rotation[0], 0.0f);
  inst.axis1 = glm::vec4(pose.rotation[1], 0.0f);
  inst.axis2 = glm::vec4(pose.rotation[2], 0.0f);
  inst.translation = glm::vec4(pose.translation, friction);
  inst.base = base;
  return inst;
}

kernels::SphereTreeInstance sphereTreeInstance(const SphereTree& tree, const RigidPose& pose, std::uint32_t rootIndex,
                                               float friction) {
  return sphereTreeInstance(
      pose, glm::uvec4(rootIndex, std::uint32_t(tree.nodes().size()), std::uint32_t(tree.spheres().size()), 0u),
      friction);
}

}  // namespace hg
