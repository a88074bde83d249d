// The only translation unit of hg_sim that includes CGAL (see CgalGeometry.h).
#include "sim/geometry/CgalGeometry.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <tuple>

#include "sim/core/AddressOrderedArena.h"
#include "sim/geometry/WindingNumber.h"

// Before any CGAL header: CGAL's containers (the triangulations' vertices and faces) take
// their memory from the address-ordered arena, so handles compare in creation order and
// the panel meshes (Lloyd smoothing walks a std::set of vertex handles) are the same in
// every run (sim/core/AddressOrderedArena.h).
#define CGAL_ALLOCATOR(T) ::hg::AddressOrderedAllocator<T>
#include <CGAL/AABB_face_graph_triangle_primitive.h>
#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Delaunay_mesh_face_base_2.h>
#include <CGAL/Delaunay_mesh_size_criteria_2.h>
#include <CGAL/Delaunay_mesh_vertex_base_2.h>
#include <CGAL/Delaunay_mesher_no_edge_refinement_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>
#include <CGAL/boost/graph/helpers.h>
#include <CGAL/lloyd_optimize_mesh_2.h>

namespace hg::cgal {

namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<int, Kernel, CGAL::Delaunay_mesh_vertex_base_2<Kernel>>;
using FaceBase = CGAL::Delaunay_mesh_face_base_2<Kernel>;
using Tds = CGAL::Triangulation_data_structure_2<VertexBase, FaceBase>;
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<Kernel, Tds>;
using Criteria = CGAL::Delaunay_mesh_size_criteria_2<Cdt>;
using Mesher = CGAL::Delaunay_mesher_no_edge_refinement_2<Cdt, Criteria>;

using Point3 = Kernel::Point_3;
using SurfaceMesh = CGAL::Surface_mesh<Point3>;
using SideOf = CGAL::Side_of_triangle_mesh<SurfaceMesh, Kernel>;
using Tree = SideOf::AABB_tree;

}  // namespace

Result<PlanarMesh> meshPolygon(std::span<const glm::dvec2> boundary, double maxEdgeLength, double shapeBound,
                               int lloydIterations, std::span<const glm::dvec2> interiorLoop) {
  const std::size_t n = boundary.size(), m = interiorLoop.size();
  if (n < 3) return Error{"polygon has fewer than 3 points"};
  if (m != 0 && m < 3) return Error{"interior loop has fewer than 3 points"};
  Cdt cdt;
  std::vector<Cdt::Vertex_handle> handles(n + m);
  for (std::size_t i = 0; i < n + m; ++i) {
    const glm::dvec2 p = i < n ? boundary[i] : interiorLoop[i - n];
    handles[i] = cdt.insert(Cdt::Point(p.x, p.y));
    handles[i]->info() = int(i);
  }
  if (cdt.number_of_vertices() != n + m) return Error{"polygon has coincident points"};
  try {
    for (std::size_t i = 0; i < n; ++i) cdt.insert_constraint(handles[i], handles[(i + 1) % n]);
    for (std::size_t i = 0; i < m; ++i) cdt.insert_constraint(handles[n + i], handles[n + (i + 1) % m]);
  } catch (const std::exception& e) {  // intersecting constraints (No_constraint_intersection_tag)
    return Error{std::string("polygon outline intersects itself (CGAL: ") + e.what() + ")"};
  }
  for (auto v = cdt.finite_vertices_begin(); v != cdt.finite_vertices_end(); ++v)
    if (v->info() < 0) return Error{"polygon outline passes through one of its own points"};
  Mesher mesher(cdt, Criteria(shapeBound, maxEdgeLength));
  // CGAL 5.5's Delaunay_mesher_no_edge_refinement_2 leaves its seeds_mark flag
  // uninitialised (UBSan: "load of value 26 ... for type bool"), and refine_mesh() reads
  // it to mark the domain: clear_seeds() sets it (no seeds: the whole bounded region).
  mesher.clear_seeds();
  mesher.refine_mesh();
  if (lloydIterations > 0)  // moves interior vertices only; constrained ones stay put
    CGAL::lloyd_optimize_mesh_2(cdt, CGAL::parameters::max_iteration_number = lloydIterations);

  // Vertices the mesher added carry a default-constructed info: renumber them all.
  for (auto v = cdt.finite_vertices_begin(); v != cdt.finite_vertices_end(); ++v) v->info() = -1;
  for (std::size_t i = 0; i < n + m; ++i) handles[i]->info() = int(i);
  PlanarMesh out;
  out.points.assign(boundary.begin(), boundary.end());
  out.points.insert(out.points.end(), interiorLoop.begin(), interiorLoop.end());
  for (auto v = cdt.finite_vertices_begin(); v != cdt.finite_vertices_end(); ++v) {
    if (v->info() >= 0) continue;
    v->info() = int(out.points.size());
    out.points.emplace_back(v->point().x(), v->point().y());
  }
  // No vertex may have been added on the boundary: every constrained edge must still
  // join consecutive boundary points.
  std::size_t constrained = 0;
  for (auto e = cdt.constrained_edges_begin(); e != cdt.constrained_edges_end(); ++e) {
    const int a = e->first->vertex(Cdt::cw(e->second))->info(), b = e->first->vertex(Cdt::ccw(e->second))->info();
    // Consecutive points of the boundary (0 .. n - 1) or of the interior loop (n .. n + m - 1).
    const auto inLoop = [&](int first, std::size_t count) {
      return a >= first && b >= first && a < first + int(count) && b < first + int(count) &&
             (std::size_t(std::abs(a - b)) == 1 || std::size_t(std::abs(a - b)) == count - 1);
    };
    const bool consecutive = inLoop(0, n) || (m != 0 && inLoop(int(n), m));
    if (!consecutive)
      return Error{"the mesher inserted a point on the panel boundary (constrained edge " + std::to_string(a) + "-" +
                   std::to_string(b) + ")"};
    ++constrained;
  }
  if (constrained != n + m)
    return Error{"the mesher changed the panel boundary (" + std::to_string(constrained) +
                 " constrained edges, expected " + std::to_string(n + m) + ")"};
  for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
    if (!f->is_in_domain()) continue;
    for (int k = 0; k < 3; ++k) out.triangles.push_back(std::uint32_t(f->vertex(k)->info()));
  }
  if (out.triangles.empty()) return Error{"the mesher produced no triangles"};
  return out;
}

struct ClosedMeshQuery::Impl {
  struct Component {
    SurfaceMesh mesh;
    std::unique_ptr<Tree> tree;
    std::unique_ptr<SideOf> side;                ///< closed components
    std::unique_ptr<WindingNumberTree> winding;  ///< open components: their winding number
  };
  std::vector<std::unique_ptr<Component>> components;
};

ClosedMeshQuery::ClosedMeshQuery(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ClosedMeshQuery::ClosedMeshQuery(ClosedMeshQuery&&) noexcept = default;
ClosedMeshQuery& ClosedMeshQuery::operator=(ClosedMeshQuery&&) noexcept = default;
ClosedMeshQuery::~ClosedMeshQuery() = default;

Result<ClosedMeshQuery> ClosedMeshQuery::create(const TriangleMesh& mesh) {
  if (mesh.indices.empty() || mesh.indices.size() % 3 != 0) return Error{"body mesh has no triangles"};
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
    if (mesh.indices[t] >= mesh.positions.size() || mesh.indices[t + 1] >= mesh.positions.size() ||
        mesh.indices[t + 2] >= mesh.positions.size())
      return Error{"body mesh triangle " + std::to_string(t / 3) + " has a vertex index out of range"};
  // Vertices with identical positions merged (UV spheres and cylinders repeat them at seams),
  // triangles collapsed by it (e.g. at a sphere's pole) left out.
  const TriangleMesh welded = weldedByPosition(mesh);
  const std::vector<glm::vec3>& points = welded.positions;
  std::vector<std::array<std::uint32_t, 3>> faces;
  for (std::size_t t = 0; t + 2 < welded.indices.size(); t += 3)
    faces.push_back({welded.indices[t], welded.indices[t + 1], welded.indices[t + 2]});
  // Connected components by shared vertices (union-find).
  std::vector<std::uint32_t> parent(points.size());
  std::iota(parent.begin(), parent.end(), 0u);
  const auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& f : faces) {
    parent[find(f[1])] = find(f[0]);
    parent[find(f[2])] = find(f[0]);
  }
  std::map<std::uint32_t, std::size_t> componentOf;
  auto impl = std::make_unique<Impl>();
  std::vector<std::map<std::uint32_t, SurfaceMesh::Vertex_index>> vertexIn;
  for (std::size_t fi = 0; fi < faces.size(); ++fi) {
    const auto& f = faces[fi];
    const auto [it, inserted] = componentOf.try_emplace(find(f[0]), impl->components.size());
    if (inserted) {
      impl->components.push_back(std::make_unique<Impl::Component>());
      vertexIn.emplace_back();
    }
    Impl::Component& c = *impl->components[it->second];
    std::array<SurfaceMesh::Vertex_index, 3> v;
    for (int k = 0; k < 3; ++k) {
      auto [vit, added] = vertexIn[it->second].try_emplace(f[std::size_t(k)]);
      if (added) {
        const glm::vec3 p = points[f[std::size_t(k)]];
        vit->second = c.mesh.add_vertex(Point3(p.x, p.y, p.z));
      }
      v[std::size_t(k)] = vit->second;
    }
    if (c.mesh.add_face(v[0], v[1], v[2]) == SurfaceMesh::null_face())
      return Error{"body mesh is not a manifold surface (triangle " + std::to_string(fi) + " cannot be added)"};
  }
  for (std::size_t i = 0; i < impl->components.size(); ++i) {
    Impl::Component& c = *impl->components[i];
    c.tree = std::make_unique<Tree>(c.mesh.faces().begin(), c.mesh.faces().end(), c.mesh);
    c.tree->accelerate_distance_queries();
    if (CGAL::is_closed(c.mesh)) {
      c.side = std::make_unique<SideOf>(*c.tree);
      continue;
    }
    // Open (a scan with holes): inside where the generalised winding number is >= 1/2.
    TriangleMesh open;
    for (const auto v : c.mesh.vertices()) {
      const Point3& p = c.mesh.point(v);
      open.positions.emplace_back(float(p.x()), float(p.y()), float(p.z()));
    }
    for (const auto f : c.mesh.faces())
      for (const auto v : CGAL::vertices_around_face(c.mesh.halfedge(f), c.mesh))
        open.indices.push_back(std::uint32_t(v.idx()));
    c.winding = std::make_unique<WindingNumberTree>(open);
  }
  return ClosedMeshQuery(std::move(impl));
}

bool ClosedMeshQuery::inside(glm::vec3 p) const {
  const Point3 q(p.x, p.y, p.z);
  for (const auto& c : m_impl->components)
    if (c->side ? (*c->side)(q) != CGAL::ON_UNBOUNDED_SIDE : c->winding->at(p) >= 0.5) return true;
  return false;
}

glm::vec3 ClosedMeshQuery::closestPoint(glm::vec3 p) const {
  const Point3 q(p.x, p.y, p.z);
  double best = std::numeric_limits<double>::infinity();
  glm::vec3 result = p;
  for (const auto& c : m_impl->components) {
    const Point3 r = c->tree->closest_point(q);
    const double d = CGAL::squared_distance(q, r);
    if (d < best) {
      best = d;
      result = glm::vec3(float(r.x()), float(r.y()), float(r.z()));
    }
  }
  return result;
}

std::size_t ClosedMeshQuery::componentCount() const { return m_impl->components.size(); }

std::size_t ClosedMeshQuery::openComponentCount() const {
  std::size_t open = 0;
  for (const auto& c : m_impl->components) open += c->side ? 0 : 1;
  return open;
}

}  // namespace hg::cgal
