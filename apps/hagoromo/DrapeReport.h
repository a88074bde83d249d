#pragma once
/// The reports of `hagoromo drape` (apps/hagoromo/DrapeCommand.h): the lines it prints about
/// the prepared scene and the finished run, and the metrics JSON (NAME.json).
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/OutputSet.h"
#include "apps/hagoromo/DrapeCommand.h"
#include "sim/cloth/ClothSolver.h"
#include "sim/core/Result.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace hg::app {

/// Seconds spent in each stage of a run (the metrics' "seconds").
struct DrapeSeconds {
  double prepare = 0.0, setup = 0.0, simulate = 0.0, render = 0.0;
};

/// A finished run as the reports see it.
struct DrapeOutcome {
  const DrapeOptions& options;
  const DrapeScene& scene;
  const PreparedDrape& drape;
  const ClothState& state;                    ///< the last frame's
  const std::optional<RelaxReport>& relaxed;  ///< with solver.until_rest
  std::string gl;                             ///< the OpenGL driver's description
  DrapeSeconds seconds;
};

/// The exact reference of a run with an avatar: CGAL's signed distances (m, < 0 inside) of
/// the cloth's vertices to the body's surface at the last frame.
struct ExactDistances {
  std::vector<glm::vec3> points;                                ///< the cloth's vertices
  Result<std::vector<float>> distances = std::vector<float>{};  ///< per point, or the reference's error
  bool closedBody = true;  ///< signed by ray parity (closed body), else by the winding number (open)
};
ExactDistances exactDistances(const ClothState& state, const TriangleMesh& body);

/// "%016llx" of stateHash(state).
std::string stateHashText(const ClothState& state);

/// The body collider, the props and the sewing of a prepared scene, a line each.
void printPreparedDrape(const DrapeScene& scene, const PreparedDrape& drape);

/// For the message of an unstable step: "; " and where the cloth went wrong (its first
/// non-finite vertex, else its fastest: index, garment, position, speed), or "" without vertices.
std::string unstableVertexNote(const DrapeScene& scene, const PreparedDrape& drape);

/// The metrics JSON; `outputs`: the files staged so far; `exact`: with an avatar.
nlohmann::json drapeMetrics(const DrapeOutcome& run, const std::vector<std::string>& outputs,
                            const ExactDistances* exact);

/// Exact intersecting triangle pairs of the last frame (sim/geometry/TriangleIntersections.h):
/// within each garment (or the cloth), between garments, and cloth vs body (null without a
/// body). In the metrics of every garment run, and of any run with --measure-intersections.
nlohmann::json intersectionsReport(const DrapeOutcome& run);
/// The same for any state of the prepared drape (the body in its current pose).
nlohmann::json intersectionsReport(const DrapeScene& scene, const PreparedDrape& drape, const ClothState& state);

/// What the quality gates look at, from the run and its metrics (intersections and the
/// exact reference where they were measured).
QualityMeasures qualityMeasures(const DrapeOutcome& run, const nlohmann::json& metrics);
/// The metrics' "quality_gates" block: every gate, whether all passed, whether they decide
/// the exit code.
nlohmann::json gatesReport(const std::vector<QualityGate>& gates, bool enforced);
/// The metrics' "largest_strain" block: where the strain gate looks (the spring, its
/// garment, vertices, midpoint, length and rest length, and whether it is stretched or
/// compressed), null for a cloth without springs.
nlohmann::json largestStrainReport(const DrapeOutcome& run);

/// How many pieces (garments) the cloth has: 1 + the largest piece of a vertex (1 without).
std::size_t pieceCount(const std::vector<std::uint32_t>& pieceOfVertex);
/// The cloth's pieces by name: each garment of the outfit ("tshirt", "skirt"; a second of a
/// kind gets its index), or "cloth".
std::vector<std::string> pieceNames(const DrapeScene& scene, std::size_t pieces);

/// The metrics' "garments" block: per piece (garment, or the one cloth) its name, type,
/// colour, vertices, triangles, area ratio, largest stretch and compression, vertices inside
/// the body (null without the exact reference) and intersecting pairs within it (null
/// where the intersections were not measured). `metrics` holds the run's "intersections".
nlohmann::json garmentsReport(const DrapeOutcome& run, const ExactDistances* exact, const nlohmann::json& metrics);

/// With --measure-penetration: the exact reference's penetration percentiles, a line.
void printPenetration(const PreparedDrape& drape, const ExactDistances& exact);

/// The run's summary after the outputs are committed: frames, substeps, time, state hash,
/// the files written.
void printDrapeSummary(const DrapeOutcome& run, const OutputSet& outputs);

}  // namespace hg::app
