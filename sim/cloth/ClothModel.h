#pragma once
/// Immutable topology and material of a mass-spring triangle cloth
/// (docs/methods.md section 1), shared by every backend and every solver
/// instance that simulates it.
///
/// Springs run along the mesh edges (tension and shear), bending hinges across every
/// edge shared by two triangles. A spring's base stiffness is the material's tensile
/// stiffness E (N/m, force per unit width per unit strain) times the width it stands
/// for: k = E A / L^2 with A one third of the adjacent triangles' area; the anisotropy
/// texture then multiplies it by direction (sim/kernels/anisotropy.glslh). A hinge's
/// stiffness is the bending rigidity D (N m) times 3 |e|^2 / (A1 + A2), the discrete
/// shells weight (Grinspun et al. 2003), so that E ~ D/2 integral of curvature^2.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/io/ImportFrame.h"
#include "sim/kernels/Kernels.h"

namespace hg {

/// An RGBA8 anisotropy texture (docs/methods.md section 1). Rows are stored bottom first
/// (GL order: row 0 is at v = 0), so loading a PNG flips it.
struct AnisotropyTexture {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  ///< width * height * 4
  float scale = 1.0f;              ///< K = texel / 255 * scale

  /// The texel (x, y) as floats v / 255 (no scale), as GL's texelFetch returns it.
  glm::vec4 texel(int x, int y) const;
  /// Uniform texture with channels (Ka, Kb, Kc, Kd) = multipliers in [0, scale].
  static AnisotropyTexture uniform(glm::vec4 multipliers, float scale = 2.0f);
};

/// Loads a PNG anisotropy texture; error names the file.
Result<AnisotropyTexture> loadAnisotropyTexture(const std::filesystem::path& path, float scale);

struct ClothMaterial {
  float arealDensity = 0.15f;       ///< kg/m^2 (cloth weight W = density * area * g)
  bool areaWeightedMass = false;    ///< false: W/p per vertex (docs/methods.md 1); true: 1/3 of adjacent areas
  float tensileStiffness = 500.0f;  ///< E, N/m (force per unit width per unit strain)
  float bendingRigidity = 2e-6f;    ///< D, N m
  /// Multipliers of D for a hinge whose edge lies along the warp, the 45-degree bias and the
  /// weft in UV space, blended by its direction as the anisotropy channels are
  /// (kernels/anisotropy.glslh, the bias factor on both diagonals).
  glm::vec3 bendingAnisotropy{1.0f};
  /// Strain stiffening per anisotropy channel (warp, weft, bias, bias; docs/methods.md
  /// section 10): a spring's stiffness in extension grows by this fraction from strain 0 to
  /// 1/6 (kernels tensionMagnitude), blended by its UV direction as the channels are. 0: linear.
  glm::vec4 strainStiffening{0.0f};
  float springDamping = 0.002f;  ///< axial damping per spring, N s/m
};

/// The factor of D for a hinge whose edge runs along `uvDirection`: the material's bending
/// anisotropy (warp, bias, weft) blended by direction as the stretch channels are.
float bendingDirectionFactor(const ClothMaterial& material, glm::vec2 uvDirection);

/// Vertex indices pinned (infinite mass). Their positions follow setPinTargets().
using PinSet = std::vector<std::uint32_t>;

struct ClothModel {
  /// N rest positions (m), w = inverse mass (1/kg); w = 0 pins the vertex.
  std::vector<glm::vec4> restPositions;
  std::vector<glm::vec2> uvs;                 ///< N texture coordinates (per vertex)
  std::vector<std::uint32_t> triangles;       ///< 3 x T vertex indices
  std::vector<kernels::ClothSpring> springs;  ///< one per mesh edge
  std::vector<kernels::ClothHinge> hinges;    ///< one per interior edge
  /// CSR adjacency, sorted by neighbour (a fixed gather order keeps the CPU backend
  /// bitwise deterministic for any thread count): springs of vertex i are
  /// springEntries[springOffsets[i] .. springOffsets[i + 1]).
  std::vector<std::uint32_t> springOffsets;
  std::vector<kernels::SpringEntry> springEntries;
  /// Hinges touching vertex i: hingeEntries[hingeOffsets[i] ..), packed as
  /// hinge index * 4 + role (role 0, 1 hinge ends, 2, 3 wings).
  std::vector<std::uint32_t> hingeOffsets;
  std::vector<std::uint32_t> hingeEntries;
  std::optional<AnisotropyTexture> anisotropy;  ///< none: K = 1 for every spring
  float totalMass = 0.0f;                       ///< kg, free and pinned vertices
  bool areaWeightedMass = false;                ///< the material's mass rule (ClothMaterial::areaWeightedMass)

  std::size_t vertexCount() const { return restPositions.size(); }
  /// The rest shape as a mesh (positions, uvs, triangles, normals).
  TriangleMesh restMesh() const;
};

/// Builds the cloth from a triangle mesh with per-vertex UVs. Errors name the problem:
/// degenerate or out-of-range triangles, edges shared by more than two triangles,
/// inconsistent winding, missing UVs, pins out of range.
Result<ClothModel> buildClothModel(const TriangleMesh& mesh, const ClothMaterial& material, const PinSet& pinned = {},
                                   std::optional<AnisotropyTexture> anisotropy = std::nullopt);

/// The implicit-bending stencil of every hinge (kernels/projective_bending.glslh,
/// BendingScheme::Implicit), from the rest lengths of the springs along its five edges
/// (the first spring between two vertices, i.e. the mesh edge's). A hinge with an edge
/// without a spring gets a stencil of zero weight.
std::vector<kernels::HingeStencil> hingeStencils(const ClothModel& model);

/// Each vertex's triangles as one array: vertexCount + 1 starts (into the entries, which
/// follow them), then the triangle indices, each vertex's ascending. For the thin-feature
/// pass's gather (both backends).
std::vector<std::uint32_t> vertexTriangleLists(const ClothModel& model);

/// A square sheet, horizontal (in the xz plane, facing +y), u along +x, v along -z.
struct SquareClothSpec {
  int resolution = 48;                 ///< vertices per side (>= 2)
  float size = 1.6f;                   ///< side length, m
  glm::vec3 center{0.0f, 1.3f, 0.0f};  ///< m
};

/// The sheet's mesh: a grid with alternating diagonals (no preferred shear direction).
Result<TriangleMesh> makeSquareSheet(const SquareClothSpec& spec);

/// Reads a garment mesh (OBJ and any format assimp reads) with UVs; vertices that share
/// a position are welded so UV seams do not cut the cloth. Error names the file.
Result<TriangleMesh> importClothMesh(const std::filesystem::path& path,
                                     const ImportFrame& frame = ImportFrame::asStored());

/// An extra spring between two vertices that need not share a mesh edge, e.g. a seam
/// spring pulling two panel edges together while a garment is sewn (rest length 0).
struct SpringSpec {
  std::uint32_t a = 0, b = 0;  ///< vertex indices (distinct)
  float restLength = 0.0f;     ///< m (>= 0; 0 pulls the ends onto each other)
  float stiffness = 0.0f;      ///< base stiffness k, N/m (> 0)
  float damping = 0.0f;        ///< axial damping, N s/m (>= 0)
};

/// Appends springs to a built model and rebuilds its CSR adjacency; the existing
/// springs and hinges are unchanged. A spring's UV is its ends' midpoint with no UV
/// direction, so an anisotropy texture scales it by the mean of its four channels
/// (anisotropyFactor). Errors name the offending spring; the model is then unchanged.
Status addSprings(ClothModel& model, std::span<const SpringSpec> springs);

/// The stiffness multiplier of `spring` from the model's texture (1 without one).
float textureAnisotropyFactor(const ClothModel& model, const kernels::ClothSpring& spring);

/// Stiffness multiplier of every spring from the model's texture (1 without one):
/// the CPU reference of the GPU setup pass (sim/gpu/shaders/cloth_setup.comp).
void applyAnisotropy(ClothModel& model);

}  // namespace hg
