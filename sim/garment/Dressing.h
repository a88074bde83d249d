#pragma once
/// Dressing an avatar: the garment pipeline from body measurements to one welded cloth
/// model in place around the body, ready to drape.
///
///   sizing  = garmentSizing(measurements)                 // the tailor's measurements
///   pattern = tShirt / skirt / trousers / dress (sizing)   // Patterns.h, per garment
///   meshes  = meshPattern(pattern)                        // PanelMesher.h
///   placed  = placePattern(pattern, meshes, ..., body)    // Placement.h
///   sewn    = assembleGarment(...)   (all garments merged into one cloth)
///   sewing  : a projective cloth solver with seam springs (rest length 0), gravity off, pulls the
///             seams together against the body collider until the largest gap is
///             below DressingSettings::weldGap (with a layer gap one layer after the
///             other, each against the body grown to hold the layers inside it)
///   welded  = weldSeams(...), the model rebuilt from the welded mesh, state carried over
///
/// The pipeline is reproducible to the bit: the same scene gives the same welded model and
/// sewn state in every run and for any thread count (the panel mesher's CGAL containers
/// use an address-ordered allocator, sim/core/AddressOrderedArena.h; pinned in
/// tests/garment/DressingTest.cpp). Garments share one cloth model; each may have its
/// own material (GarmentSpec::material). Sewing runs without self contact; the drape
/// keeps the layers apart with it (sim/cloth/SelfContact.h).
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/body/Mannequin.h"
#include "sim/cloth/ClothModel.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/core/Result.h"
#include "sim/garment/GarmentCode.h"
#include "sim/garment/Patterns.h"
#include "sim/garment/Placement.h"

namespace hg {

/// A built-in block, or a pattern read from a file (GarmentCode.h).
enum class GarmentKind { TShirt, Skirt, Trousers, Dress, Pattern };

/// "tshirt", "skirt", "trousers", "dress", "pattern".
std::string_view garmentKindName(GarmentKind kind);
Result<GarmentKind> parseGarmentKind(std::string_view name);

struct GarmentSpec;
/// What outputs call a garment: its kind's name, or for a pattern file the file's name
/// without its extension and a GarmentCode "_specification" suffix ("aline_skirt").
std::string garmentName(const GarmentSpec& spec);

/// One garment of an outfit: its block and the block's options (only the kind's own
/// options are used).
struct GarmentSpec {
  GarmentKind kind = GarmentKind::TShirt;
  TShirtOptions tshirt;
  SkirtOptions skirt;
  TrouserOptions trousers;
  DressOptions dress;
  /// GarmentKind::Pattern: the file (scene input, relative to the scene; GarmentCode JSON,
  /// or DXF-AAMA when it ends in .dxf), whether its
  /// stitched edges of different lengths are eased, and the pattern read from it
  /// (sceneGarments), placed by its panels' transforms instead of around the body.
  std::filesystem::path patternFile;
  /// A DXF-AAMA file's sidecar (seams, placement; AamaDxf.h), relative to the scene;
  /// empty: aamaSidecarPath(patternFile).
  std::filesystem::path patternSidecar;
  bool ease = false;
  /// The warp's angle (degrees, counter-clockwise seen from outside) from each panel's own
  /// grain (+y, or a DXF piece's grain line): 45 cuts the pattern on the bias (turnPanel).
  float grainDegrees = 0.0f;
  /// Place the file's panels around the body by their regions (placePattern, as the blocks;
  /// the file must give every panel's region, PatternFile::regionsGiven()) instead of by their
  /// transforms.
  bool placeAroundBody = false;
  std::shared_ptr<const PatternFile> pattern;
  /// The garment's own material, or none: the outfit's material. Its areal density,
  /// tensile stiffness and bending rigidity scale the garment's vertex masses, springs
  /// and hinges relative to the outfit's material; its strain stiffening and bending
  /// anisotropy replace the outfit's (applyGarmentMaterials). The rule that spreads the
  /// mass over the vertices stays the outfit's.
  std::optional<ClothMaterial> material;
  /// The garment fabric's stretch multipliers (warp, weft, bias, bias; as
  /// AnisotropyTexture::uniform takes them), or none: the outfit's anisotropy.
  std::optional<glm::vec4> anisotropy;
  /// Scene input: a fabric preset and explicit keys for `material` (resolved by the scene).
  std::string fabric;
  std::optional<float> arealDensity, tensileStiffness, bendingRigidity;
  /// Self contact's layer, inner first (sim/cloth/SelfContact.h); none: its place in the
  /// outfit.
  std::optional<std::uint32_t> layer;
};

struct DressingSettings {
  float edgeLength = 0.02f;  ///< m, target triangle edge of the panels
  /// The garments' spring and hinge stiffnesses and vertex masses from the flat panels
  /// (applyPanelRest's `panelMaterial`), not from the panels as placed around the body.
  /// Right for the fabric, and it dresses the mannequin from 1.55 to 1.80 m (as placed:
  /// 1.60 to 1.75); with solver.chebyshev_rho 0.7 too, 11 of the 12 character-matrix cases
  /// pass (8 without). It is off by default because five shipped scenes tuned on the
  /// mannequin then end with crossing pairs; the demo scene had it on until its fabrics
  /// stiffened in the projective solve (bench/RESULTS.md, "Garments from their flat
  /// panels", "The character matrix from the flat panels" and "Strain stiffening in the
  /// projective solve").
  bool restFromPanels = false;
  float clearance = 0.012f;  ///< m kept between the placed panels and the body
  /// m. Above 0 the layers (GarmentSpec::layer, else the place in the outfit) are sewn in
  /// turn, inner first: each against the body grown to hold the layers sewn before it
  /// (capsules from the body to `layerGap` beyond each of their vertices, in a signed
  /// distance grid that replaces the body collider while that layer sews), so that no seam
  /// of an outer layer closes through an inner one; and the placement's wrapping surfaces
  /// grow by layerGap per layer (PlacementOptions::radialOffset). 0: every garment sewn at
  /// once on the same surfaces (the shipped outfit of a skirt under a T-shirt needs no gap;
  /// a top over a T-shirt does).
  float layerGap = 0.0f;
  float seamStiffness = 1500.0f;  ///< N/m of each rest-length-0 seam spring
  float seamDamping = 0.01f;      ///< N s/m axial damping of the seam springs
  float sewingDamping = 10.0f;    ///< 1/s velocity damping while sewing (settles the panels)
  /// Bending rigidity while sewing, as a multiple of the cloth's (the welded garments drape
  /// with the full one): bending resists the panels being pulled round the body. At 0.1 the
  /// posed outfit sews in 3 frames instead of 70-105 and passes every gate on an H200, but
  /// other outfits end with more intersecting pairs (bench/RESULTS.md), so 1 by default.
  float sewingBendingScale = 1.0f;
  /// Sewing runs the projective integrator (stable with the stiff seam springs, whose
  /// stiffness adds up at corners shared by several seams) with these substeps per frame
  /// and Jacobi iterations per substep.
  int sewingSubsteps = 4;
  int sewingIterations = 20;
  float weldGap = 0.002f;     ///< m: seams are welded once every pair is this close
  int maxSewingFrames = 400;  ///< frames of frameDt before sewing gives up (error)
  /// Frames of the drape's own solver (gravity, body and self contact) run on the welded
  /// garments before the drape's first frame, each ending with every velocity set to zero
  /// (PreparedDrape::createSolver): sewing stops once the seams close, with the panels
  /// still stretched from being pulled together, and this lets them give that energy up
  /// quasi-statically instead of as speed in the drape's first frames (measured in
  /// bench/RESULTS.md: on an H200 outfit_arms_down ended with 3 intersecting pairs without
  /// settling and 0 with 10 frames; on the CPU the posed outfit's pairs at frame 10 went
  /// from 56 to 0).
  int settleFrames = 10;
};

/// Gives every garment that has its own material its fabric: springs and vertex masses
/// scaled by its tensile stiffness and areal density relative to `base` (the material the
/// model was built with), hinges by its bending rigidity and bending anisotropy, its strain
/// stiffening, and, when it has its own anisotropy, its stretch multipliers by direction.
/// In that case every spring's anisotropy factor (the others' from the model's texture) is
/// baked into its base stiffness and the texture dropped, so both backends' setup passes
/// (applyAnisotropy, cloth_setup.comp) keep the stiffnesses. Garments are separate pieces,
/// so every element belongs to the garment of its first vertex.
void applyGarmentMaterials(ClothModel& model, const std::vector<std::uint32_t>& garmentOfVertex,
                           const std::vector<GarmentSpec>& outfit, const ClothMaterial& base);

/// The measurements a pattern needs, from a measured body (mannequin joint names).
GarmentSizing garmentSizing(const BodyMeasurements& body);

/// The garment's pattern: its block drafted to `sizing`, or the pattern read from its file.
Result<Pattern> draftGarment(const GarmentSpec& spec, const GarmentSizing& sizing);
/// The limb joints and torso axis of a measured body, for placement.
BodyFrame bodyFrame(const BodyMeasurements& body);

/// Creates the solver that sews (sim stays GL-free: the caller picks the backend, e.g.
/// createClothSolver(Backend::Gpu, ...) from sim/gpu, or createCpuClothSolver).
using ClothSolverFactory =
    std::function<Result<std::unique_ptr<ClothSolver>>(std::shared_ptr<const ClothModel>, const ClothSettings&)>;

/// Progress of the sewing phase: frame, largest seam gap (m).
using SewingProgress = std::function<void(int frame, float maxGap)>;

struct DressedAvatar {
  ClothModel model;                            ///< all garments, welded, rest shape = the flat panels
  ClothState state;                            ///< sewn shape around the body, at rest
  std::vector<std::uint32_t> garmentOfVertex;  ///< index into the outfit, per model vertex
  int sewingFrames = 0;
  int settleFrames = 0;               ///< frames settled after welding (PreparedDrape::createSolver)
  float largestGapBeforeWeld = 0.0f;  ///< m
  float placementClearance = 0.0f;    ///< m, smallest distance of a placed vertex to the body
  std::size_t weldedVertices = 0;     ///< vertices merged by welding
  /// Sewing passes: 1, or one per layer with DressingSettings::layerGap (dressAvatar).
  int sewingPasses = 1;
};

/// Runs the pipeline above. `settings` are the drape's cloth settings (body collider,
/// contact offset, friction; sewing overrides gravity, damping and the integrator); `material` and
/// `anisotropy` the cloth's. Errors name the garment and the stage.
Result<DressedAvatar> dressAvatar(const TriangleMesh& bodyMesh, const BodyMeasurements& measurements,
                                  const std::vector<GarmentSpec>& outfit, const ClothMaterial& material,
                                  std::optional<AnisotropyTexture> anisotropy, const ClothSettings& settings,
                                  const ClothSolverFactory& makeSolver, const DressingSettings& dressing = {},
                                  const SewingProgress& progress = {});

}  // namespace hg
