#pragma once
/// Topology checks and integral measures of indexed triangle meshes: closedness,
/// manifoldness, Euler characteristic, connected components, enclosed volume. GL-free.
///
/// Vertices that no triangle references are ignored by every function here (they are not
/// part of the surface).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

/// Every undirected edge is used by exactly two triangles, once in each direction (so the
/// surface is closed and consistently oriented), no triangle repeats a vertex and every
/// index is in range. The error names the first offending edge or triangle.
Status checkWatertight(const TriangleMesh& mesh);
inline bool isWatertight(const TriangleMesh& mesh) { return checkWatertight(mesh).ok(); }

/// The triangles around each vertex form one fan, a single disk (closed cycle for an
/// interior vertex, a single open path for a boundary vertex), walked across edges through
/// the vertex. Assumes consistently oriented triangles: a fan whose neighbours disagree on
/// orientation is reported as not manifold. The error names the first offending vertex.
Status checkVertexManifold(const TriangleMesh& mesh);
inline bool isVertexManifold(const TriangleMesh& mesh) { return checkVertexManifold(mesh).ok(); }

/// V - E + F over the referenced vertices, undirected edges and triangles. 2 for one
/// closed surface of genus 0 (a sphere); 2 - 2g for genus g; summed over components.
long long eulerCharacteristic(const TriangleMesh& mesh);

/// Signed enclosed volume (m^3 for metre positions) by the divergence theorem:
/// sum over triangles of dot(a, cross(b, c)) / 6, in double precision. Positive for a closed
/// mesh whose triangles are counter-clockwise seen from outside.
double signedVolume(const TriangleMesh& mesh);

/// Components of the surface, triangles connected through shared vertices.
struct MeshComponents {
  std::size_t count = 0;
  std::vector<std::uint32_t> triangleComponent;  ///< per triangle, component id in [0, count)
};
/// Labels components in the order their first triangle appears.
MeshComponents connectedComponents(const TriangleMesh& mesh);

}  // namespace hg
