#pragma once
/// Where snow lives and how it settles (docs/methods.md section 5).
///
/// Storage, and why:
/// - On the ground, a height field: a regular grid of square cells over the ground's
///   horizontal extent (x, z; y is up), each with the ground's height at its centre
///   (the highest ground surface there, rasterized top-down with the shadow-map rules of
///   sim/geometry/OrthoRaster.h) and a snow depth (m, vertical). A grid is what the
///   repose relaxation needs (8 neighbours at 1 and sqrt 2 cells), it is a float
///   texture on the GPU, its surface is a displaced grid for rendering (vertex texture
///   fetch) and a watertight solid for export.
/// - On objects (roofs, benches, branches), per vertex: objects arrive without a usable
///   surface parameterization (imported meshes, procedural boxes), so texels of a UV
///   atlas would first need an atlas and would seam at chart borders; vertices need
///   nothing but a mesh fine enough, so the objects are welded and their edges split
///   until none is longer than SnowSettings::objectEdge (about the ground cell). Each
///   vertex holds a snow depth (vertical) and carries the horizontal area it stands
///   for (a third of the projected area of its upward-facing triangles); the snow is
///   relaxed along the mesh edges. Vertices of walls and undersides (no such area)
///   and the border vertices of open surfaces hold none: snow that slides onto them falls off, straight down onto the
///   ground cell below (or out of the region, counted).
///
/// Snow on snow: every accumulation pass renders the covered scene (the ground grid
/// raised by its snow, the objects' vertices raised by theirs), so a growing cover
/// shades and is hit in place of the bare scene.
///
/// Stabilization: the angle of repose (default 45 degrees; dry snow 39 to 50). Snow
/// slides from a cell / vertex to a lower neighbour where the snow surface drops more
/// than tan(repose) times their horizontal distance (thermal-erosion style, Musgrave et
/// al. 1989): each sweep a holder sends out the volume that would bring its steepest
/// neighbour pair to the repose slope (at most all its snow), shared among its lower
/// neighbours in proportion to their excess drop; the volumes are written per edge
/// first and gathered second, so every volume leaves one holder and enters one other
/// (or the spill count): mass is conserved up to float rounding.
///
/// Units: metres, hours for snowfall time. GL-free; the GPU backend lives in
/// sim/gpu/GpuSnowSolver.h.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/snow/SnowExposure.h"
#include "sim/snow/SnowfallDirections.h"

namespace hg {

/// The ground height field's cells: cell (i, j) covers x in originX + [i, i + 1] cell,
/// z in originZ + [j, j + 1] cell; row-major (index j * nx + i).
struct SnowGrid {
  float originX = 0.0f, originZ = 0.0f;  ///< m
  float cell = 0.05f;                    ///< m
  int nx = 0, nz = 0;
  std::size_t cellCount() const { return std::size_t(nx) * std::size_t(nz); }
  std::size_t index(int i, int j) const { return std::size_t(j) * std::size_t(nx) + std::size_t(i); }
  glm::vec2 centre(int i, int j) const {
    return {originX + (float(i) + 0.5f) * cell, originZ + (float(j) + 0.5f) * cell};
  }
};

/// Everything the snow falls on, in metres, y up.
struct SnowScene {
  TriangleMesh ground;   ///< the ground or terrain: the height field is its top surface
  TriangleMesh objects;  ///< everything else: blockers and holders (roofs, benches, trees); may be empty
};

struct SnowReposeSettings {
  float degrees = 45.0f;      ///< angle of repose, in (0, 80]; dry snow 39 to 50
  float tolerance = 0.01f;    ///< relax until the steepest snow slope <= (1 + tolerance) tan(angle); >= 0
  int maxIterations = 20000;  ///< sweeps per relaxation at most (>= 0)
  int checkEvery = 32;        ///< sweeps between convergence checks (>= 1; the GPU reads back then)
  Status validate() const;
};

struct SnowSettings {
  SnowfallSettings fall;  ///< directions: count, cone, wind, seed
  /// The depth maps (texel: see mapResolution), the first-hit bias and the sub-rays: 8 per
  /// direction by default (a penumbra within 0.05 of the analytic one from 32 maps; see
  /// SnowExposureSettings::raysPerDirection), their spread from the snowfall when 0.
  SnowExposureSettings exposure{.raysPerDirection = 8};
  /// Texels of a depth map across the scene's larger horizontal extent; when > 0 it sets
  /// exposure.texel (so 1024 gives 1024^2 maps on a square scene). 0 keeps exposure.texel.
  int mapResolution = 1024;
  float groundCell = 0.05f;         ///< m, the height field's cell
  float objectEdge = -1.0f;         ///< m, longest object edge after refinement; negative: groundCell
  float rateMetresPerHour = 0.05f;  ///< fresh snow depth per hour on open level ground
  float hours = 2.0f;               ///< duration of the snowfall
  int passes = 8;                   ///< accumulation passes over the duration (>= 1); snow on snow between them
  SnowReposeSettings repose;
  Status validate() const;
  float resolvedObjectEdge() const { return objectEdge > 0.0f ? objectEdge : groundCell; }
};

/// The snow state: the ground height field and the per-vertex snow of the objects.
struct SnowCover {
  SnowGrid grid;
  std::vector<float> ground;      ///< per cell, m: ground height at the centre; NaN where there is no ground
  std::vector<float> groundSnow;  ///< per cell, m of snow (vertical)
  TriangleMesh objects;           ///< welded and refined objects
  std::vector<float> objectArea;  ///< per vertex, m^2 of horizontal area it holds snow for (0: snow falls off)
  std::vector<float> objectSnow;  ///< per vertex, m of snow (vertical)
  /// Object vertex adjacency (compressed rows): the neighbours of vertex v are
  /// objectNeighbours[objectNeighbourStart[v] .. objectNeighbourStart[v + 1]), with the
  /// horizontal distance of each edge (m) and, per entry, the index of the reverse entry.
  std::vector<std::uint32_t> objectNeighbourStart, objectNeighbours, objectReverseEntry;
  std::vector<float> objectNeighbourDistance;
  /// Per object vertex: the ground cell straight below (snow falling off lands there),
  /// kNoCell outside the grid or over a cell without ground.
  std::vector<std::uint32_t> objectSpillCell;
  /// Per object vertex that holds nothing and has no cell below: m^3 of snow that fell
  /// off there, out of the ground's reach (kept per vertex so that the GPU sums alike).
  std::vector<float> objectSpilledOutside;

  static constexpr std::uint32_t kNoCell = 0xffffffffu;
  bool hasGround(std::size_t cell) const;
  /// m^3 of snow held: ground cells (depth x cell^2) + object vertices (depth x area).
  double heldVolume() const;
  double spilledOutsideVolume() const;  ///< m^3, the sum of objectSpilledOutside
  /// heldVolume() + spilledOutsideVolume(): constant under relaxation.
  double totalVolume() const { return heldVolume() + spilledOutsideVolume(); }
};

/// The cover of `scene` with no snow: the grid over the ground's horizontal extent
/// (cells of settings.groundCell), the ground heights, the objects welded and refined,
/// their areas, adjacency and spill cells. Error: an empty ground, a non-finite vertex,
/// an index out of range, invalid settings, a grid over 2^26 cells.
Result<SnowCover> makeSnowCover(const SnowScene& scene, const SnowSettings& settings);

/// The objects welded (vertices at the same position merged) and their edges split at
/// their midpoints until none is longer than maxEdge (conforming: no T-junctions; a
/// triangle with two edges to split gets its third split too). Vertex normals are
/// recomputed, UVs dropped. Error past maxTriangles (raise maxEdge).
Result<TriangleMesh> refineForSnow(const TriangleMesh& mesh, float maxEdge, std::size_t maxTriangles = 16u << 20);

/// The covered scene as one mesh: the ground grid at ground + snow (a vertex per cell
/// centre, two triangles per 2 x 2 block of cells with ground), then the objects with
/// their vertices raised by their snow. This is what the depth maps see (snow on snow)
/// and what is drawn.
TriangleMesh coveredSceneMesh(const SnowCover& cover);

/// The receivers, in the order of receiverCells then receiverVertices: ground cell
/// centres on the snow surface (cells with ground), then object vertices that hold
/// snow (area > 0) on theirs.
struct SnowReceivers {
  std::vector<glm::vec3> points;
  std::vector<std::uint32_t> cells;     ///< the first cells.size() points
  std::vector<std::uint32_t> vertices;  ///< the rest
};
SnowReceivers snowReceivers(const SnowCover& cover);

/// Per ground cell, the object adjacency entries (SnowCover::objectNeighbours) whose
/// outflow falls off onto it: a holder's edge to a vertex that holds nothing and has the
/// cell below (compressed rows: cell c's entries are entries[start[c] .. start[c + 1])).
/// Shared by the CPU and GPU relaxations.
struct SnowSpillLists {
  std::vector<std::uint32_t> start, entries;
};
SnowSpillLists snowSpillLists(const SnowCover& cover);

/// The steepest snow slope as a ratio to tan(repose): over every holder with snow
/// (> 1e-6 m) and each neighbour, (drop of the snow surface) / (horizontal distance x
/// tan(repose)); a neighbour with no horizontal distance or a spill vertex counts as
/// infinitely steep when lower. 0 when no snow lies anywhere.
double maxReposeRatio(const SnowCover& cover, float reposeDegrees);

struct SnowRelaxation {
  int iterations = 0;
  double maxRatio = 0.0;  ///< maxReposeRatio at the end
  bool converged = false;
};

/// A backend of the snow passes (CPU reference or GPU): the state lives inside it.
class SnowSolver {
 public:
  virtual ~SnowSolver() = default;
  virtual const char* name() const = 0;
  /// One accumulation pass: the exposure of every receiver of the current (covered)
  /// scene from `directions`, then every receiver's snow grows by
  /// depthOnOpenGround x exposure (m). Error as snowExposureCpu.
  virtual Status accumulate(std::span<const glm::vec3> directions, float depthOnOpenGround) = 0;
  /// Repose relaxation: sweeps until maxReposeRatio <= 1 + tolerance (checked every
  /// checkEvery sweeps) or maxIterations.
  virtual Result<SnowRelaxation> relax(const SnowReposeSettings& settings) = 0;
  /// The current cover (the GPU backend reads it back).
  virtual Result<SnowCover> cover() = 0;
  /// m^3: the current cover's totalVolume(), without copying the cover (the GPU backend
  /// reads back the snow only).
  virtual Result<double> totalVolume() = 0;
  /// The last pass's exposure per receiver (snowReceivers order).
  virtual Result<std::vector<float>> lastExposure() = 0;
};

/// The CPU reference backend.
std::unique_ptr<SnowSolver> makeCpuSnowSolver(SnowCover initial, const SnowExposureSettings& exposure);

/// The exposure settings with the texel set from settings.mapResolution for this cover
/// (the larger horizontal extent of its grid / mapResolution; unchanged when 0) and, when
/// not set (0), the sub-rays' spread from the snowfall (snowRaySpread).
SnowExposureSettings resolvedExposureSettings(const SnowCover& cover, const SnowSettings& settings);

struct SnowfallReport {
  int passes = 0;
  std::vector<SnowRelaxation> relaxations;  ///< one per pass
  double fallenVolume = 0.0;                ///< m^3 added by the accumulation passes
  double finalVolume = 0.0;                 ///< m^3 held + spilled at the end
  double maxRelativeMassDrift = 0.0;        ///< largest |volume change| / volume over one relaxation
};

/// The whole snowfall: settings.passes times, accumulate rate x hours / passes of snow
/// from settings.fall's directions (re-drawn with seed + pass so the passes do not
/// repeat one pattern), then relax (reading the cover before and after to measure the mass drift).
/// `progress(pass)` after each pass, when given.
Result<SnowfallReport> runSnowfall(SnowSolver& solver, const SnowSettings& settings,
                                   const std::function<void(int)>& progress = {});

}  // namespace hg
