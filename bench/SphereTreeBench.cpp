// Sphere-tree benchmarks (docs/methods.md section 6), the bottle of the source
// (makeBottle, 0.3 m, 12,090 faces).
//
// 1. Build time per level (64^3, 128^3, 256^3): voxelizeSolid, fillSpheres and the octree
//    (SphereTree::build) each alone, and all three (SphereTree::fromMesh). Counters:
//    spheres, nodes, depth, inside voxels.
// 2. Query time over 1,000 seeded random placements of two bottles: uniform random
//    rotations, B on a random direction at the touching translation t0 (bisection on FCL's
//    collide) plus a uniform offset in [-10, +10] mm (about two voxels of the 64^3 tree
//    either side), so about half collide. Side by side, every query over the same
//    placements, single-threaded:
//      tree collide(firstOnly = true), tree collide (all leaf pairs), tree distance(), at
//      each level; FCL 0.7 collide on BVHModel<OBBRSSd> and BVHModel<AABBd> (FCL's mesh-mesh
//      path for AABB copies both models and refits them in world coordinates on every
//      call: that is its cost); FCL distance on OBBRSSd and RSSd; the source's
//      triangle-based test: the boxes of the whole objects, then the triangles whose boxes
//      overlap the other object's box, every pair of them whose boxes overlap, then
//      Moller's triangle-triangle interval test (stopping at the first intersecting pair),
//      on every 10th placement (100 queries); and its literal brute force (the boxes of
//      all 12,090 x 12,090 triangle pairs, no culling against the object boxes) on every
//      100th (10 queries). FCL's AABB collide also runs on every 10th placement.
//    Counters: us_per_query, hits (collisions reported), agree (answers equal to FCL's
//    OBBRSS collide, for the yes/no tests; trees also misses and false_hits against it,
//    distance() counting as colliding when negative), node_pairs (mean node pairs visited, trees),
//    box_pairs and tri_tests (mean per query, triangle test).
// At the end a summary prints microseconds per query and the ratios to FCL and to the
// triangle test. Timing: the queries are single-threaded and timed in CPU time (the
// figures stay fair on a shared machine); the builds run the fill on OpenMP threads and
// are timed in real time.
//
// Usage: hg_spheretree_bench [--benchmark_filter=...]; results in
// bench/results/spheretree_<host>.json.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fcl/fcl.h>
#include <glm/geometric.hpp>

#include "bench/BenchOutput.h"
#include "sim/core/TriangleMesh.h"
#include "sim/spheretree/SolidVoxels.h"
#include "sim/spheretree/SphereTree.h"
#include "tests/support/FclFixtures.h"

namespace hg {
namespace {

using test::toPose;
using test::toTransform;

constexpr int kPlacements = 1000;
constexpr int kTriangleStride = 10;  // the triangle test runs on every 10th placement
constexpr double kOffset = 0.010;    // m, the uniform offset about the touching translation

/// The bottle with its reference point (on the axis at mid-height) at the origin.
const TriangleMesh& bottleMesh() {
  static const TriangleMesh mesh = [] {
    TriangleMesh m = makeBottle({0.0f, 0.0f, 0.0f}, 0.3f);
    for (glm::vec3& p : m.positions) p -= glm::vec3(0.0f, 0.15f, 0.0f);
    return m;
  }();
  return mesh;
}

const SphereTree& bottleTree(int resolution) {
  static std::map<int, SphereTree> trees;
  auto it = trees.find(resolution);
  if (it == trees.end()) {
    auto tree = SphereTree::fromMesh(bottleMesh(), resolution, "bottle");
    if (!tree) {
      std::fprintf(stderr, "%s\n", tree.error().message.c_str());
      std::abort();
    }
    it = trees.emplace(resolution, std::move(tree).value()).first;
  }
  return it->second;
}

template <class BV>
const fcl::BVHModel<BV>& bottleFcl() {
  static const std::shared_ptr<fcl::BVHModel<BV>> model = test::fclModelOf<BV>(bottleMesh());
  return *model;
}

template <class BV>
bool fclCollide(const fcl::Transform3d& ta, const fcl::Transform3d& tb) {
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  fcl::collide(&bottleFcl<BV>(), ta, &bottleFcl<BV>(), tb, request, result);
  return result.isCollision();
}

/// One placement of the two bottles: A at (ra, 0), B at (rb, tb); FCL's verdict.
struct Placement {
  Eigen::Matrix3d ra, rb;
  Eigen::Vector3d tb;
  fcl::Transform3d fa, fb;
  RigidPose pa, pb;
  bool colliding = false;
};

const std::vector<Placement>& placements() {
  static const std::vector<Placement> all = [] {
    std::vector<Placement> out;
    std::mt19937_64 rng(9);
    std::normal_distribution<double> gauss;
    std::uniform_real_distribution<double> offset(-kOffset, kOffset);
    auto rotation = [&] {
      const double w = gauss(rng), x = gauss(rng), y = gauss(rng), z = gauss(rng);
      return Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
    };
    double radius = 0.0;
    for (const glm::vec3& p : bottleMesh().positions) radius = std::max(radius, double(glm::length(p)));
    for (int i = 0; i < kPlacements; ++i) {
      Placement p;
      p.ra = rotation();
      p.rb = rotation();
      const double x = gauss(rng), y = gauss(rng), z = gauss(rng);
      const Eigen::Vector3d dir = Eigen::Vector3d(x, y, z).normalized();
      const fcl::Transform3d fa = toTransform(p.ra, Eigen::Vector3d::Zero());
      double lo = 0.0, hi = 2.0 * radius + 0.01;  // lo overlaps (the reference points coincide), hi is apart
      while (hi - lo > 1e-6) {
        const double mid = 0.5 * (lo + hi);
        (fclCollide<fcl::OBBRSSd>(fa, toTransform(p.rb, mid * dir)) ? lo : hi) = mid;
      }
      p.tb = (hi + offset(rng)) * dir;
      p.fa = fa;
      p.fb = toTransform(p.rb, p.tb);
      p.pa = toPose(p.ra, Eigen::Vector3d::Zero());
      p.pb = toPose(p.rb, p.tb);
      p.colliding = fclCollide<fcl::OBBRSSd>(p.fa, p.fb);
      out.push_back(p);
    }
    return out;
  }();
  return all;
}

void setQueryCounters(benchmark::State& state, std::size_t queries, int hits, int agree, double work = -1.0,
                      const char* workName = "node_pairs") {
  state.counters["us_per_query"] = benchmark::Counter(
      1e-6 * double(queries), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["queries"] = double(queries);
  state.counters["hits"] = hits;
  if (agree >= 0) state.counters["agree"] = agree;
  if (work >= 0.0) state.counters[workName] = work / double(queries);
}

/// misses: FCL collides, the tree does not; false_hits: the other way round.
void setVerdictCounters(benchmark::State& state, int agree, int misses, std::size_t queries) {
  state.counters["misses"] = misses;
  state.counters["false_hits"] = double(queries) - double(agree) - double(misses);
}

// ---- build ----

void BM_Voxelize(benchmark::State& state) {
  const int resolution = int(state.range(0));
  std::size_t inside = 0;
  for (auto _ : state) {
    auto solid = voxelizeSolid(bottleMesh(), resolution);
    if (!solid) {
      state.SkipWithError(solid.error().message.c_str());
      return;
    }
    inside = solid->insideCount();
    benchmark::DoNotOptimize(solid->inside.data());
  }
  state.counters["inside_voxels"] = double(inside);
}

void BM_Fill(benchmark::State& state) {
  const int resolution = int(state.range(0));
  auto solid = voxelizeSolid(bottleMesh(), resolution);
  if (!solid) {
    state.SkipWithError(solid.error().message.c_str());
    return;
  }
  std::size_t spheres = 0;
  for (auto _ : state) {
    const std::vector<glm::vec4> filled = fillSpheres(*solid);
    spheres = filled.size();
    benchmark::DoNotOptimize(filled.data());
  }
  state.counters["spheres"] = double(spheres);
}

void BM_Octree(benchmark::State& state) {
  const int resolution = int(state.range(0));
  const SphereTree& reference = bottleTree(resolution);
  std::size_t nodes = 0;
  int depth = 0;
  for (auto _ : state) {
    auto tree = SphereTree::build(reference.spheres(), reference.voxel());
    if (!tree) {
      state.SkipWithError(tree.error().message.c_str());
      return;
    }
    nodes = tree->nodes().size();
    depth = tree->depth();
    benchmark::DoNotOptimize(tree->nodes().data());
  }
  state.counters["spheres"] = double(reference.spheres().size());
  state.counters["nodes"] = double(nodes);
  state.counters["depth"] = depth;
}

void BM_FromMesh(benchmark::State& state) {
  const int resolution = int(state.range(0));
  std::size_t spheres = 0, nodes = 0;
  for (auto _ : state) {
    auto tree = SphereTree::fromMesh(bottleMesh(), resolution, "bottle");
    if (!tree) {
      state.SkipWithError(tree.error().message.c_str());
      return;
    }
    spheres = tree->spheres().size();
    nodes = tree->nodes().size();
    benchmark::DoNotOptimize(tree->nodes().data());
  }
  state.counters["spheres"] = double(spheres);
  state.counters["nodes"] = double(nodes);
  state.counters["faces"] = double(bottleMesh().triangleCount());
}

BENCHMARK(BM_Voxelize)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Fill)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Octree)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FromMesh)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- queries: sphere trees ----

void BM_TreeCollideFirst(benchmark::State& state) {
  const SphereTree& tree = bottleTree(int(state.range(0)));
  const auto& all = placements();
  int hits = 0, agree = 0, misses = 0;
  double pairs = 0.0;
  for (auto _ : state) {
    hits = agree = misses = 0;
    pairs = 0.0;
    for (const Placement& p : all) {
      const SphereTreeContact c = collide(tree, p.pa, tree, p.pb, true);
      hits += c.colliding;
      agree += c.colliding == p.colliding;
      misses += p.colliding && !c.colliding;
      pairs += double(c.nodePairsVisited);
    }
  }
  setQueryCounters(state, all.size(), hits, agree, pairs);
  setVerdictCounters(state, agree, misses, all.size());
  state.counters["spheres"] = double(tree.spheres().size());
}

void BM_TreeCollideAll(benchmark::State& state) {
  const SphereTree& tree = bottleTree(int(state.range(0)));
  const auto& all = placements();
  int hits = 0, agree = 0, misses = 0;
  double pairs = 0.0, leafPairs = 0.0;
  for (auto _ : state) {
    hits = agree = misses = 0;
    pairs = leafPairs = 0.0;
    for (const Placement& p : all) {
      const SphereTreeContact c = collide(tree, p.pa, tree, p.pb, false);
      hits += c.colliding;
      agree += c.colliding == p.colliding;
      misses += p.colliding && !c.colliding;
      pairs += double(c.nodePairsVisited);
      leafPairs += double(c.leafPairs.size());
    }
  }
  setQueryCounters(state, all.size(), hits, agree, pairs);
  setVerdictCounters(state, agree, misses, all.size());
  state.counters["leaf_pairs"] = leafPairs / double(all.size());
  state.counters["spheres"] = double(tree.spheres().size());
}

void BM_TreeDistance(benchmark::State& state) {
  const SphereTree& tree = bottleTree(int(state.range(0)));
  const auto& all = placements();
  int hits = 0, agree = 0, misses = 0;
  std::size_t pairs = 0;
  for (auto _ : state) {
    hits = agree = misses = 0;
    pairs = 0;
    for (const Placement& p : all) {
      std::size_t visited = 0;
      const float d = distance(tree, p.pa, tree, p.pb, &visited);
      hits += d < 0.0f;
      agree += (d < 0.0f) == p.colliding;
      misses += p.colliding && !(d < 0.0f);
      pairs += visited;
    }
  }
  setQueryCounters(state, all.size(), hits, agree, double(pairs));
  setVerdictCounters(state, agree, misses, all.size());
  state.counters["spheres"] = double(tree.spheres().size());
}

BENCHMARK(BM_TreeCollideFirst)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TreeCollideAll)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TreeDistance)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

// ---- queries: FCL ----

/// Arg: stride through the placements (AABB: every 10th, each query costs milliseconds).
template <class BV>
void BM_FclCollide(benchmark::State& state) {
  const auto& all = placements();
  const auto stride = std::size_t(state.range(0));
  (void)bottleFcl<BV>();
  std::size_t queries = 0;
  int hits = 0, agree = 0;
  for (auto _ : state) {
    queries = 0;
    hits = agree = 0;
    for (std::size_t i = 0; i < all.size(); i += stride) {
      const Placement& p = all[i];
      const bool c = fclCollide<BV>(p.fa, p.fb);
      ++queries;
      hits += c;
      agree += c == p.colliding;
    }
  }
  setQueryCounters(state, queries, hits, agree);
}

template <class BV>
void BM_FclDistance(benchmark::State& state) {
  const auto& all = placements();
  const fcl::BVHModel<BV>& model = bottleFcl<BV>();
  int hits = 0;
  for (auto _ : state) {
    hits = 0;
    for (const Placement& p : all) {
      fcl::DistanceRequestd request;
      fcl::DistanceResultd result;
      fcl::distance(&model, p.fa, &model, p.fb, request, result);
      hits += result.min_distance <= 0.0;
      benchmark::DoNotOptimize(result.min_distance);
    }
  }
  setQueryCounters(state, all.size(), hits, -1);
}

BENCHMARK_TEMPLATE(BM_FclCollide, fcl::OBBRSSd)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FclCollide, fcl::AABBd)->Arg(kTriangleStride)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_TEMPLATE(BM_FclDistance, fcl::OBBRSSd)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FclDistance, fcl::RSSd)->Unit(benchmark::kMillisecond);

// ---- queries: the source's triangle-based test ----

using V3 = Eigen::Vector3d;

struct Box {
  V3 lo, hi;
  bool overlaps(const Box& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y() && lo.z() <= o.hi.z() &&
           o.lo.z() <= hi.z();
  }
};

Box triangleBox(const V3& a, const V3& b, const V3& c) {
  return {a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)};
}

/// 2D (projected) closed-triangle overlap for Moller's coplanar case: an edge of one
/// crosses an edge of the other, or a vertex of one lies in the other.
bool coplanarOverlap(const V3& n, const std::array<V3, 3>& v, const std::array<V3, 3>& u) {
  int i0 = 0, i1 = 1;  // the projection plane drops n's largest component
  const V3 a = n.cwiseAbs();
  if (a.x() > a.y()) {
    if (a.x() > a.z())
      i0 = 1, i1 = 2;
    else
      i0 = 0, i1 = 1;
  } else {
    if (a.z() > a.y())
      i0 = 0, i1 = 1;
    else
      i0 = 0, i1 = 2;
  }
  auto p = [&](const V3& q) { return Eigen::Vector2d(q[i0], q[i1]); };
  auto cross = [](const Eigen::Vector2d& x, const Eigen::Vector2d& y) { return x.x() * y.y() - x.y() * y.x(); };
  auto segments = [&](Eigen::Vector2d p0, Eigen::Vector2d p1, Eigen::Vector2d q0, Eigen::Vector2d q1) {
    const double d1 = cross(p1 - p0, q0 - p0), d2 = cross(p1 - p0, q1 - p0);
    const double d3 = cross(q1 - q0, p0 - q0), d4 = cross(q1 - q0, p1 - q0);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
    auto on = [](Eigen::Vector2d s0, Eigen::Vector2d s1, Eigen::Vector2d q) {
      return q.x() >= std::min(s0.x(), s1.x()) && q.x() <= std::max(s0.x(), s1.x()) &&
             q.y() >= std::min(s0.y(), s1.y()) && q.y() <= std::max(s0.y(), s1.y());
    };
    return (d1 == 0 && on(p0, p1, q0)) || (d2 == 0 && on(p0, p1, q1)) || (d3 == 0 && on(q0, q1, p0)) ||
           (d4 == 0 && on(q0, q1, p1));
  };
  auto inside = [&](const Eigen::Vector2d& q, const std::array<V3, 3>& t) {
    const double s0 = cross(p(t[1]) - p(t[0]), q - p(t[0])), s1 = cross(p(t[2]) - p(t[1]), q - p(t[1]));
    const double s2 = cross(p(t[0]) - p(t[2]), q - p(t[2]));
    return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
  };
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments(p(v[i]), p(v[(i + 1) % 3]), p(u[j]), p(u[(j + 1) % 3]))) return true;
  return inside(p(v[0]), u) || inside(p(u[0]), v);
}

/// Moller's triangle-triangle test (1997, the interval version without divisions), closed
/// triangles, doubles.
bool triangleTriangle(const std::array<V3, 3>& v, const std::array<V3, 3>& u) {
  const V3 n1 = (v[1] - v[0]).cross(v[2] - v[0]);
  const double d1 = -n1.dot(v[0]);
  const double du0 = n1.dot(u[0]) + d1, du1 = n1.dot(u[1]) + d1, du2 = n1.dot(u[2]) + d1;
  if (du0 * du1 > 0.0 && du0 * du2 > 0.0) return false;
  const V3 n2 = (u[1] - u[0]).cross(u[2] - u[0]);
  const double d2 = -n2.dot(u[0]);
  const double dv0 = n2.dot(v[0]) + d2, dv1 = n2.dot(v[1]) + d2, dv2 = n2.dot(v[2]) + d2;
  if (dv0 * dv1 > 0.0 && dv0 * dv2 > 0.0) return false;
  const V3 dir = n1.cross(n2).cwiseAbs();
  int index = 0;
  if (dir.y() > dir.x()) index = 1;
  if (dir.z() > dir[index]) index = 2;
  // Interval of one triangle on the line: the vertex alone on its side is (a), the other
  // two's crossings are a + b / x0 and a + c / x1 (kept as fractions).
  struct Interval {
    double a, b, c, x0, x1;
  };
  auto interval = [](double p0, double p1, double p2, double e0, double e1, double e2, Interval& out) {
    if (e0 * e1 > 0.0)
      out = {p2, (p0 - p2) * e2, (p1 - p2) * e2, e2 - e0, e2 - e1};
    else if (e0 * e2 > 0.0)
      out = {p1, (p0 - p1) * e1, (p2 - p1) * e1, e1 - e0, e1 - e2};
    else if (e1 * e2 > 0.0 || e0 != 0.0)
      out = {p0, (p1 - p0) * e0, (p2 - p0) * e0, e0 - e1, e0 - e2};
    else if (e1 != 0.0)
      out = {p1, (p0 - p1) * e1, (p2 - p1) * e1, e1 - e0, e1 - e2};
    else if (e2 != 0.0)
      out = {p2, (p0 - p2) * e2, (p1 - p2) * e2, e2 - e0, e2 - e1};
    else
      return false;  // coplanar
    return true;
  };
  Interval iv{}, iu{};
  if (!interval(v[0][index], v[1][index], v[2][index], dv0, dv1, dv2, iv) ||
      !interval(u[0][index], u[1][index], u[2][index], du0, du1, du2, iu))
    return coplanarOverlap(n1, v, u);
  const double xx = iv.x0 * iv.x1, yy = iu.x0 * iu.x1, xxyy = xx * yy;
  double s1[2] = {iv.a * xxyy + iv.b * iv.x1 * yy, iv.a * xxyy + iv.c * iv.x0 * yy};
  double s2[2] = {iu.a * xxyy + iu.b * xx * iu.x1, iu.a * xxyy + iu.c * xx * iu.x0};
  if (s1[0] > s1[1]) std::swap(s1[0], s1[1]);
  if (s2[0] > s2[1]) std::swap(s2[0], s2[1]);
  return !(s1[1] < s2[0] || s2[1] < s1[0]);
}

/// The bottle's triangles (local frame) with their boxes and the object's box.
struct Soup {
  std::vector<std::array<V3, 3>> triangles;
  std::vector<Box> boxes;
  Box box;
};

const Soup& bottleSoup() {
  static const Soup soup = [] {
    Soup s;
    const TriangleMesh& mesh = bottleMesh();
    s.box = {V3::Constant(1e30), V3::Constant(-1e30)};
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      std::array<V3, 3> tri;
      for (int k = 0; k < 3; ++k) {
        const glm::vec3& p = mesh.positions[mesh.indices[t + std::size_t(k)]];
        tri[std::size_t(k)] = V3(p.x, p.y, p.z);
      }
      s.triangles.push_back(tri);
      s.boxes.push_back(triangleBox(tri[0], tri[1], tri[2]));
      s.box.lo = s.box.lo.cwiseMin(s.boxes.back().lo);
      s.box.hi = s.box.hi.cwiseMax(s.boxes.back().hi);
    }
    return s;
  }();
  return soup;
}

struct TriangleTestStats {
  std::size_t boxPairs = 0, triangleTests = 0;
};

/// The source's triangle-based test of two soups, B given in A's frame by (m, t).
/// cull: only the triangles whose boxes overlap the other object's box take part in the
/// pairwise box tests (else every pair of triangles: the literal brute force).
bool triangleTest(const Soup& a, const Soup& b, const Eigen::Matrix3d& m, const V3& t, bool cull,
                  TriangleTestStats& stats) {
  // B's triangles and boxes in A's frame, and its object box.
  std::vector<std::array<V3, 3>> tb(b.triangles.size());
  std::vector<Box> bb(b.triangles.size());
  Box boxB{V3::Constant(1e30), V3::Constant(-1e30)};
  for (std::size_t i = 0; i < b.triangles.size(); ++i) {
    for (int k = 0; k < 3; ++k) tb[i][std::size_t(k)] = m * b.triangles[i][std::size_t(k)] + t;
    bb[i] = triangleBox(tb[i][0], tb[i][1], tb[i][2]);
    boxB.lo = boxB.lo.cwiseMin(bb[i].lo);
    boxB.hi = boxB.hi.cwiseMax(bb[i].hi);
  }
  if (!a.box.overlaps(boxB)) return false;
  std::vector<std::uint32_t> ia, ib;
  for (std::size_t i = 0; i < a.boxes.size(); ++i)
    if (!cull || a.boxes[i].overlaps(boxB)) ia.push_back(std::uint32_t(i));
  for (std::size_t i = 0; i < bb.size(); ++i)
    if (!cull || bb[i].overlaps(a.box)) ib.push_back(std::uint32_t(i));
  for (std::uint32_t i : ia)
    for (std::uint32_t j : ib) {
      ++stats.boxPairs;
      if (!a.boxes[i].overlaps(bb[j])) continue;
      ++stats.triangleTests;
      if (triangleTriangle(a.triangles[i], tb[j])) return true;
    }
  return false;
}

/// Args: cull (1: triangles against the other object's box first), stride through the placements.
void BM_TriangleTest(benchmark::State& state) {
  const auto& all = placements();
  const bool cull = state.range(0) != 0;
  const auto stride = std::size_t(state.range(1));
  const Soup& soup = bottleSoup();
  std::size_t queries = 0;
  int hits = 0, agree = 0;
  TriangleTestStats stats;
  for (auto _ : state) {
    queries = 0;
    hits = agree = 0;
    stats = {};
    for (std::size_t i = 0; i < all.size(); i += stride) {
      const Placement& p = all[i];
      const bool c = triangleTest(soup, soup, p.ra.transpose() * p.rb, p.ra.transpose() * p.tb, cull, stats);
      ++queries;
      hits += c;
      agree += c == p.colliding;
    }
  }
  setQueryCounters(state, queries, hits, agree, double(stats.boxPairs), "box_pairs");
  state.counters["tri_tests"] = double(stats.triangleTests) / double(queries);
}
BENCHMARK(BM_TriangleTest)
    ->Args({1, kTriangleStride})
    ->Args({0, 10 * kTriangleStride})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

/// Collects us_per_query per benchmark for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred || run.run_type == Run::RT_Aggregate) continue;
      const auto it = run.counters.find("us_per_query");
      if (it != run.counters.end()) perQuery[run.run_name.str()] = it->second.value;
      const auto s = run.counters.find("spheres");
      if (s != run.counters.end() && run.run_name.str().rfind("BM_FromMesh", 0) == 0)
        build[run.run_name.str()] = {run.GetAdjustedRealTime(), s->second.value};
    }
  }
  std::map<std::string, double> perQuery;
  std::map<std::string, std::pair<double, double>> build;
};

}  // namespace
}  // namespace hg

int main(int argc, char** argv) {
  hg::bench::DefaultOutput output(argc, argv, "spheretree");
  benchmark::Initialize(output.argc(), output.argv());
  benchmark::AddCustomContext("fcl_version", FCL_VERSION);
  benchmark::AddCustomContext("placements", std::to_string(hg::kPlacements));
  hg::SummaryReporter reporter;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const auto& q = reporter.perQuery;
  auto find = [&](const std::string& name) {
    const auto it = q.find(name);
    return it == q.end() ? -1.0 : it->second;
  };
  const double fclObbrss = find("BM_FclCollide<fcl::OBBRSSd>/1");
  const double fclDistance = find("BM_FclDistance<fcl::OBBRSSd>");
  const double triangles = find("BM_TriangleTest/1/10/iterations:1");
  std::printf("\n%-42s %14s %12s %12s\n", "query (bottle vs bottle)", "us/query", "/FCL", "/triangles");
  for (const auto& [name, us] : q) {
    const bool isDistance = name.find("Distance") != std::string::npos;
    const double ref = isDistance ? fclDistance : fclObbrss;
    std::printf("%-42s %14.2f %12.4g %12.4g\n", name.c_str(), us, ref > 0 ? us / ref : 0.0,
                triangles > 0 ? us / triangles : 0.0);
  }
  std::printf(
      "(/FCL: against FCL collide on OBBRSS, or FCL distance on OBBRSS for distance queries;"
      " /triangles: against the culled triangle test)\n");
  for (const auto& [name, timeAndSpheres] : reporter.build)
    std::printf("%-42s %10.2f ms %8.0f spheres\n", name.c_str(), timeAndSpheres.first, timeAndSpheres.second);
  return output.finish(ran) ? 0 : 1;
}
