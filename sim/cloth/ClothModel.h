#pragma once
/// Immutable topology and material of a mass-spring cloth (../shared/spec/methods.md §1).
/// Shared by every backend and every solver instance that simulates it.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/kernels/Kernels.h"

namespace hg {

/// A spring between vertices a < b.
struct Spring {
  std::uint32_t a = 0, b = 0;
  float restLength = 0.0f;  ///< m
  float stiffness = 0.0f;   ///< N/m
  float damping = 0.0f;     ///< N s/m
};

struct ClothModel {
  /// N rest positions (m), w = inverse mass (1/kg); w = 0 pins the vertex.
  std::vector<glm::vec4> restPositions;
  std::vector<glm::vec2> uvs;               ///< N texture coordinates
  std::vector<std::uint32_t> triangles;     ///< 3 x T vertex indices
  std::vector<Spring> springs;              ///< unique springs
  /// CSR adjacency: the springs of vertex i are springEntries[springOffsets[i] ..
  /// springOffsets[i+1]), sorted by neighbour index (a fixed gather order keeps the
  /// CPU backend bitwise deterministic for any thread count).
  std::vector<std::uint32_t> springOffsets;
  std::vector<kernels::SpringEntry> springEntries;

  std::size_t vertexCount() const { return restPositions.size(); }
  /// The rest shape as a mesh (positions, uvs, triangles, normals).
  TriangleMesh restMesh() const;
};

/// A square sheet, horizontal (in the xz plane), for the vertical slice.
struct SquareClothSpec {
  int resolution = 48;                     ///< vertices per side (>= 2)
  float size = 1.6f;                       ///< side length, m
  glm::vec3 center{0.0f, 1.3f, 0.0f};      ///< m
  float mass = 0.3f;                       ///< total mass W/g, kg, spread evenly (W/p per vertex)
  float stretchStiffness = 150.0f;         ///< structural springs (grid edges), N/m
  float shearStiffness = 50.0f;            ///< diagonal springs, N/m
  float bendStiffness = 10.0f;             ///< skip-one springs, N/m
  float springDamping = 0.01f;             ///< axial damping of every spring, N s/m
  std::vector<std::uint32_t> pinned;       ///< vertex indices with infinite mass
};

/// Builds the sheet: structural, shear (both diagonals) and bend (skip-one) springs.
Result<ClothModel> makeSquareCloth(const SquareClothSpec& spec);

/// Fills springOffsets / springEntries from springs (each spring appears at both ends).
void buildSpringAdjacency(ClothModel& model);

}  // namespace hg
