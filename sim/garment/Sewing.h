#pragma once
/// Sewing a placed pattern: one cloth mesh of all panels, seam springs that pull the
/// paired seam vertices together in the cloth solver, and welding of the pairs into
/// shared vertices once they have met.
///
/// Pipeline (see tests/garment/SewingTest.cpp):
///   pattern = tShirt(sizing)                       // Patterns.h
///   meshes  = meshPattern(pattern)                 // PanelMesher.h
///   placed  = placePattern(pattern, meshes, sizing, frame, body)   // Placement.h
///   sewn    = assembleGarment(pattern, meshes, placed)
///   model   = buildClothModel(sewn.mesh, material); applyPanelRest(model, sewn.cornerPanelCoords, ...)
///   addSprings(model, seamSprings(sewn, k, c))     // sim/cloth/ClothModel.h
///   ... step a solver until maxSeamGap(state.positions, sewn.pairs) is small ...
///   welded  = weldSeams(sewn, state.positions, 1e-3)
///   model2  = buildClothModel(welded.mesh, material); applyPanelRest(model2, welded.cornerPanelCoords, ...)
///   state2  = carryState(state, welded, model2)
///
/// UVs across a welded seam: the two panels' UVs differ there, but the model keeps one
/// UV per vertex. The welded vertex keeps the UV of the lowest-numbered panel vertex in
/// its group (panel A of the first seam); applyPanelRest then gives every spring the UV
/// midpoint and direction of one triangle that contains it, from that triangle's own
/// panel (the corner UVs), so warp/weft anisotropy follows each panel's grain on both
/// sides of the seam.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/garment/PanelMesher.h"
#include "sim/garment/Pattern.h"
#include "sim/garment/Placement.h"

namespace hg {

/// Two garment vertices to be sewn together, from seam `seam` (index into Pattern::seams).
struct SeamPair {
  std::uint32_t a = 0, b = 0;
  std::uint32_t seam = 0;
};

/// All panels in one mesh, not yet joined.
struct SewnGarment {
  TriangleMesh mesh;                           ///< placed positions (m), per-vertex panel UVs, triangles, normals
  std::vector<std::uint32_t> panelOffsets;     ///< first vertex of each panel (panels + 1 entries)
  std::vector<std::uint32_t> panelOfTriangle;  ///< T
  std::vector<glm::vec2> cornerPanelCoords;    ///< 3 x T: panel-plane coordinates (m) of each triangle corner
  std::vector<SeamPair> pairs;                 ///< every seam's vertex pairs (a seam's corner vertices too)
  std::vector<std::string> seamNames;          ///< Pattern::seams names, for messages
  float textureScale = 1.0f;                   ///< m of panel per UV unit (PatternMesh::textureScale)
};

/// Concatenates the placed panels and pairs the seam vertices. Errors name the seam
/// whose edges have different vertex counts (the mesher prevents it).
Result<SewnGarment> assembleGarment(const Pattern& pattern, const PatternMesh& meshes, const PlacedPattern& placed);

/// One rest-length-0 spring per seam pair with the given stiffness (N/m) and damping (N s/m).
std::vector<SpringSpec> seamSprings(const SewnGarment& garment, float stiffness, float damping);

/// Largest distance (m) between the two vertices of a pair (infinity if any is not finite).
float maxSeamGap(std::span<const glm::vec4> positions, std::span<const SeamPair> pairs);
/// The name of the seam with the widest gap (for messages), "" without pairs.
std::string widestSeam(std::span<const glm::vec4> positions, const SewnGarment& garment);

/// Sets every mesh-edge spring of `model` from the flat pattern: rest length (and
/// restLength0) = the edge's length in the panel plane, UV midpoint and direction from
/// one triangle containing the edge (its corner UVs), stiffness re-derived through the
/// anisotropy texture; with `flatHinges`, every hinge's rest angle becomes 0 (panels
/// are flat; seams pressed flat). With `panelMaterial` the material is the flat fabric's:
/// the spring and hinge stiffnesses and the vertex masses that buildClothModel derived from
/// the mesh's placed (3D) shape are rescaled to the panel shape: lengths and areas in the panel plane
/// (docs/methods.md section 1's k = E A / (3 L^2) and hinge 3 B L^2 / A, masses from the
/// panel areas). Springs not on a triangle edge (seam springs) are left as they are.
/// `cornerPanelCoords` is 3 x T in the order of model.triangles.
Status applyPanelRest(ClothModel& model, std::span<const glm::vec2> cornerPanelCoords, float textureScale,
                      bool flatHinges = true, bool panelMaterial = false);

/// The garment with each group of paired vertices merged into one.
struct WeldedGarment {
  TriangleMesh mesh;                           ///< merged vertices at their group's mean position
  std::vector<std::uint32_t> oldToNew;         ///< SewnGarment vertex -> welded vertex
  std::vector<std::uint32_t> panelOfTriangle;  ///< T (triangles keep their order)
  std::vector<glm::vec2> cornerPanelCoords;    ///< 3 x T, as in SewnGarment
  float textureScale = 1.0f;
  std::size_t mergedVertices = 0;  ///< vertices removed by welding
};

/// Welds every seam pair whose gap at `positions` (xyz m, the sewn garment's vertex
/// order) is at most `maxGap` (m); error (naming the seam and its gap) if any pair is
/// farther apart, or if welding would collapse a triangle.
Result<WeldedGarment> weldSeams(const SewnGarment& garment, std::span<const glm::vec4> positions, float maxGap);

/// The state of the welded model from the sewn one: positions and velocities averaged
/// over each merged group, inverse masses from the welded model.
ClothState carryState(const ClothState& sewnState, const WeldedGarment& welded, const ClothModel& weldedModel);

/// Number of connected pieces of a triangle mesh (vertices joined by triangles).
std::size_t connectedPieces(const TriangleMesh& mesh);

}  // namespace hg
