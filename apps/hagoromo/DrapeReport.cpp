#include "apps/hagoromo/DrapeReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/cloth/StableStep.h"
#include "sim/contact/Penetration.h"
#include "sim/contact/SignedDistanceGrid.h"
#include "sim/garment/GarmentColors.h"
#include "sim/geometry/TriangleIntersections.h"

namespace hg::app {
namespace {

/// Leaf spheres of the props' sphere trees.
std::size_t leafSpheres(const SceneProps& props) {
  std::size_t leaves = 0;
  for (const auto& t : props.trees.instances) leaves += t.base.z;
  return leaves;
}

nlohmann::json penetrationBlock(const PenetrationStats& s) {
  return nlohmann::json{{"vertices", s.points}, {"inside", s.inside}, {"p50_m", s.p50},
                        {"p99_m", s.p99},       {"p99_9_m", s.p999},  {"max_m", s.max}};
}

/// Penetration of the cloth into the body against the exact reference (CGAL distances
/// to the body mesh): percentiles over all vertices and over the vertices near the
/// armpits and the crotch (within `radius` of the shoulder / hip joints' midpoints),
/// the concavities no single view sees.
nlohmann::json penetrationReport(const std::vector<float>& exact, const std::vector<glm::vec3>& points,
                                 const SceneBody& body, float contactOffset, float texel) {
  nlohmann::json report = {{"all", penetrationBlock(penetrationStats(exact))}, {"skin_offset_m", contactOffset}};
  if (texel > 0.0f) report["texel_m"] = texel;
  const BodyMeasurements& m = body.measurements;
  const bool hasJoints = m.jointPositions.count("upper_arm_l") && m.jointPositions.count("upper_arm_r") &&
                         m.jointPositions.count("chest") && m.jointPositions.count("thigh_l") &&
                         m.jointPositions.count("thigh_r");
  if (!hasJoints) return report;
  const float radius = 0.08f;  // m
  const glm::vec3 regions[3][2] = {{m.joint("upper_arm_l"), m.joint("chest")},
                                   {m.joint("upper_arm_r"), m.joint("chest")},
                                   {m.joint("thigh_l"), m.joint("thigh_r")}};
  const char* names[3] = {"armpit_left", "armpit_right", "crotch"};
  for (int r = 0; r < 3; ++r) {
    // Armpit: below the shoulder joint, halfway toward the chest; crotch: between the hips, below them.
    glm::vec3 centre =
        r < 2 ? glm::vec3(glm::mix(regions[r][0].x, regions[r][1].x, 0.35f), regions[r][0].y - 0.06f, regions[r][0].z)
              : 0.5f * (regions[r][0] + regions[r][1]) - glm::vec3(0.0f, 0.06f, 0.0f);
    std::vector<float> near;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (glm::distance(points[i], centre) < radius) near.push_back(exact[i]);
    report[names[r]] = penetrationBlock(penetrationStats(near));
  }
  return report;
}

nlohmann::json propsReport(const DrapeScene& scene, const SceneProps& props) {
  return {{"boxes", scene.boxes.size()},          {"props", scene.props.size()},
          {"analytic_boxes", props.boxes.size()}, {"sphere_trees", props.trees.instances.size()},
          {"leaf_spheres", leafSpheres(props)},   {"build_seconds", props.buildSeconds}};
}

/// A measurement that may be missing (NaN: not measured) as JSON: the number, or null.
nlohmann::json finiteOrNull(float v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json avatarReport(const SceneBody& body) {
  const BodyMeasurements& m = body.measurements;
  nlohmann::json report = {
      {"vertices", body.avatar.mesh.vertexCount()},
      {"triangles", body.avatar.mesh.triangleCount()},
      {"height_m", finiteOrNull(m.height)},
      {"chest_girth_m", finiteOrNull(m.chestGirth)},
      {"waist_girth_m", finiteOrNull(m.waistGirth)},
      {"hip_girth_m", finiteOrNull(m.hipGirth)},
      {"neck_girth_m", finiteOrNull(m.neckGirth)},
      {"thigh_girth_m", finiteOrNull(m.thighGirth)},
      {"upper_arm_girth_m", finiteOrNull(m.upperArmGirth)},
      {"shoulder_width_m", finiteOrNull(m.shoulderWidth)},
      {"arm_length_m", finiteOrNull(m.armLength)},
      {"inseam_m", finiteOrNull(m.legLength)},
      {"skeleton_convention", m.convention.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.convention)},
      {"warnings", body.warnings}};
  if (body.imported)
    report["import"] = {
        {"up", fileAxisName(body.fileFrame.up)},    {"up_from", body.fileFrame.upSource},
        {"scale_m_per_unit", body.fileFrame.scale}, {"scale_from", body.fileFrame.scaleSource},
        {"vertices_in_file", body.fileVertices},    {"vertices_after_weld", body.avatar.mesh.vertexCount()}};
  return report;
}

nlohmann::json dressingReport(const DrapeScene& scene, const DressedAvatar& dressed) {
  nlohmann::json garments = nlohmann::json::array();
  for (std::size_t g = 0; g < scene.garments.size(); ++g)
    garments.push_back(
        {{"type", std::string(garmentKindName(scene.garments[g].kind))},
         {"vertices", std::count(dressed.garmentOfVertex.begin(), dressed.garmentOfVertex.end(), std::uint32_t(g))}});
  return {{"garments", garments},
          {"sewing_frames", dressed.sewingFrames},
          {"sewing_passes", dressed.sewingPasses},
          {"settle_frames", dressed.settleFrames},
          {"largest_seam_gap_before_weld_m", dressed.largestGapBeforeWeld},
          {"welded_vertices", dressed.weldedVertices},
          {"placement_clearance_m", dressed.placementClearance}};
}

/// The exact reference's statistics, and how far the body's grid (when it is one) is
/// from it within half its band (m).
nlohmann::json exactReport(const ExactDistances& exact, const SignedDistanceGrid* grid) {
  if (!exact.distances) return {{"error", exact.distances.error().message}};
  const std::vector<float>& distances = *exact.distances;
  int exactInside = 0;
  float smallest = 1e9f, worstGridError = 0.0f;
  for (std::size_t i = 0; i < distances.size(); ++i) {
    const float d = distances[i];
    exactInside += d < 0.0f;
    smallest = std::min(smallest, d);
    if (grid && std::abs(d) < grid->band * 0.5f)
      worstGridError = std::max(worstGridError, std::abs(grid->distance(exact.points[i]) - d));
  }
  nlohmann::json report = {{"vertices_inside_body", exactInside},
                           {"inside_test", exact.closedBody ? "ray parity (closed body, CGAL Side_of_triangle_mesh)"
                                                            : "generalised winding number >= 1/2 (open body)"},
                           {"deepest_penetration_m", std::max(0.0f, -smallest)},
                           {"smallest_distance_m", smallest}};
  if (grid) report["worst_collider_error_near_body_m"] = worstGridError;
  return report;
}

/// Contact statistics against the body's signed distance grid (m; < 0 is inside).
nlohmann::json gridContactReport(const ClothState& state, const SignedDistanceGrid& grid, float contactOffset) {
  int touching = 0, inside = 0;
  float deepest = grid.band;
  for (const glm::vec4& p : state.positions) {
    const float d = grid.distance(glm::vec3(p));
    touching += d < contactOffset + 0.002f;
    inside += d < 0.0f;
    deepest = std::min(deepest, d);
  }
  return {{"method", "distance_grid"},
          {"vertices_touching_body", touching},
          {"vertices_inside_body", inside},
          {"smallest_body_distance_m", deepest},
          {"collider_cell_m", grid.cellSize}};
}

nlohmann::json viewsContactReport(const DepthViewSetup& setup) {
  nlohmann::json names = nlohmann::json::array();
  for (DepthViewDirection d : setup.directions) names.push_back(std::string(depthViewName(d)));
  return {{"method", "depth_views"},
          {"views", names},
          {"layers", setup.layers},
          {"texel_m", setup.texelSize()},
          {"texels", setup.texelCount()}};
}

/// The blocks of a run with an avatar: the avatar, the dressing, the exact reference, the
/// penetration (with --measure-penetration) and the contact with the body's collider.
void addBodyReports(nlohmann::json& metrics, const DrapeOutcome& run, const SceneBody& body,
                    const ExactDistances& exact) {
  const ClothSettings& settings = run.drape.settings();
  const SignedDistanceGrid* grid =
      run.drape.solver().settings().colliders.distanceGrid.get();  // the last pose's collider
  const DepthViewImages* views = body.views.get();  // the first pose's (the setup is the same every frame)
  metrics["avatar"] = avatarReport(body);
  if (const DressedAvatar* dressed = run.drape.dressing()) metrics["dressing"] = dressingReport(run.scene, *dressed);
  metrics["exact_reference"] = exactReport(exact, grid);
  if (exact.distances && run.options.measurePenetration)
    metrics["penetration"] = penetrationReport(*exact.distances, exact.points, body, settings.contactOffset,
                                               views ? views->setup.texelSize() : 0.0f);
  if (grid) {
    metrics["contact"] = gridContactReport(run.state, *grid, settings.contactOffset);
  } else if (body.sphereTree) {
    metrics["contact"] = {{"method", "sphere_tree"},
                          {"leaf_spheres", body.sphereTree->spheres().size()},
                          {"nodes", body.sphereTree->nodes().size()},
                          {"voxel_m", body.sphereTree->voxel()},
                          {"search_radius_m", settings.sphereTreeSearchRadius()}};
  } else if (views) {
    metrics["contact"] = viewsContactReport(views->setup);
  }
}

}  // namespace

/// How many pieces (garments) the cloth has: 1 + the largest piece of a vertex (1 without).
std::size_t pieceCount(const std::vector<std::uint32_t>& pieceOfVertex) {
  std::size_t pieces = 1;
  for (std::uint32_t p : pieceOfVertex) pieces = std::max<std::size_t>(pieces, std::size_t(p) + 1);
  return pieces;
}

/// The cloth's pieces by name: each garment of the outfit ("tshirt", "skirt"; a second of a
/// kind gets its index), or "cloth".
std::vector<std::string> pieceNames(const DrapeScene& scene, std::size_t pieces) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < pieces; ++i) {
    std::string name = i < scene.garments.size() ? garmentName(scene.garments[i]) : "cloth";
    for (const std::string& earlier : names)
      if (earlier == name) name.append("_").append(std::to_string(i));
    names.push_back(name);
  }
  return names;
}

std::string unstableVertexNote(const DrapeScene& scene, const PreparedDrape& drape) {
  const std::optional<FastestVertex> fastest = fastestVertex(drape.solver().readState());
  if (!fastest) return "";
  const std::vector<std::uint32_t>& pieceOfVertex = drape.pieceOfVertex();
  std::string piece;
  if (fastest->index < pieceOfVertex.size())
    piece = pieceNames(scene, pieceCount(pieceOfVertex))[pieceOfVertex[fastest->index]];
  return "; " + describe(*fastest, piece);
}

namespace {

/// solver.self_contact as run, and the untangling: intersecting triangle pairs at the start
/// of the first and of the last frame, and the first frame that started with none; the
/// pairs the GPU backend's pair buffer could not hold (0 on the CPU backend).
nlohmann::json selfContactReport(const SelfContactSettings& settings, const std::optional<SelfContactReport>& report) {
  if (!settings.enabled || !report) return nlohmann::json(nullptr);
  return {{"thickness_m", settings.thickness},
          {"friction", settings.friction},
          {"iterations", settings.iterations},
          {"layers", settings.layerOfVertex.empty()
                         ? 1u
                         : *std::max_element(settings.layerOfVertex.begin(), settings.layerOfVertex.end()) + 1u},
          {"tangled_pairs_first_frame", report->firstFramePairs},
          {"tangled_pairs_last_frame", report->lastFramePairs},
          {"untangled_at_frame",
           report->untangledAtFrame >= 0 ? nlohmann::json(report->untangledAtFrame) : nlohmann::json(nullptr)},
          {"dropped_pairs", report->droppedPairs}};
}

}  // namespace

nlohmann::json intersectionsReport(const DrapeOutcome& run) {
  return intersectionsReport(run.scene, run.drape, run.state);
}

nlohmann::json intersectionsReport(const DrapeScene& scene, const PreparedDrape& drape, const ClothState& state) {
  const ClothModel& model = *drape.model();
  const std::vector<std::uint32_t>& pieceOfVertex = drape.pieceOfVertex();
  const std::size_t pieces = pieceCount(pieceOfVertex);
  // Cloth triangles first (each in the piece of its first vertex), then the body's.
  std::vector<glm::vec4> positions = state.positions;
  std::vector<std::uint32_t> triangles = model.triangles;
  std::vector<std::uint32_t> groups = groupOfEachTriangle(model.triangles, pieceOfVertex);
  const TriangleMesh* body = drape.bodySurface();
  if (body) {
    const auto offset = std::uint32_t(positions.size());
    for (const glm::vec3& x : body->positions) positions.emplace_back(x, 1.0f);
    for (std::uint32_t i : body->indices) triangles.push_back(offset + i);
    groups.resize(triangles.size() / 3, std::uint32_t(pieces));
  }
  const IntersectionCensus census = countIntersectionsByGroup(positions, triangles, groups, pieces + (body ? 1 : 0));
  const std::vector<std::string> names = pieceNames(scene, pieces);
  nlohmann::json within = nlohmann::json::object(), between = nlohmann::json::object();
  std::size_t total = 0, clothBody = 0;
  for (std::size_t a = 0; a < pieces; ++a) {
    within[names[a]] = census.between(a, a);
    total += census.between(a, a);
    for (std::size_t b = a + 1; b < pieces; ++b) {
      between[names[a] + " x " + names[b]] = census.between(a, b);
      total += census.between(a, b);
    }
    if (body) clothBody += census.between(a, pieces);
  }
  nlohmann::json report = {{"method", "exact triangle pairs (CGAL), neighbours sharing a vertex excluded"},
                           {"within", within},
                           {"between", between},
                           {"cloth_total", total}};
  report["cloth_body"] = body ? nlohmann::json(clothBody) : nlohmann::json(nullptr);
  return report;
}

QualityMeasures qualityMeasures(const DrapeOutcome& run, const nlohmann::json& metrics) {
  QualityMeasures m;
  if (const auto i = metrics.find("intersections"); i != metrics.end()) {
    std::size_t pairs = (*i)["cloth_total"].get<std::size_t>();
    if ((*i)["cloth_body"].is_number()) pairs += (*i)["cloth_body"].get<std::size_t>();
    m.intersectingPairs = pairs;
  }
  if (const auto e = metrics.find("exact_reference"); e != metrics.end() && (*e)["vertices_inside_body"].is_number())
    m.verticesInsideBody = (*e)["vertices_inside_body"].get<std::size_t>();
  const ClothModel& model = *run.drape.model();
  const StrainExtremes strain = strainExtremes(model, run.state);
  m.largestStretch = strain.stretch;
  m.largestCompression = strain.compression;
  const std::vector<std::uint32_t>& pieceOfVertex = run.drape.pieceOfVertex();
  const std::size_t pieces = pieceCount(pieceOfVertex);
  m.areaRatioOfPiece = areaRatioOfPieces(model, run.state, pieceOfVertex, pieces);
  m.pieceNames = pieceNames(run.scene, pieces);
  return m;
}

nlohmann::json largestStrainReport(const DrapeOutcome& run) {
  const std::optional<StrainedSpring> worst = mostStrainedSpring(*run.drape.model(), run.state);
  if (!worst) return nullptr;
  const std::vector<std::uint32_t>& pieceOfVertex = run.drape.pieceOfVertex();
  const std::size_t pieces = pieceCount(pieceOfVertex);
  const std::size_t piece = worst->a < pieceOfVertex.size() ? pieceOfVertex[worst->a] : 0;
  const char* kind = !std::isfinite(worst->strain)       ? "not finite"
                     : worst->length > worst->restLength ? "stretch"
                                                         : "compression";
  return {{"value", finiteOrNull(worst->strain)},
          {"kind", kind},
          {"piece", pieceNames(run.scene, pieces)[piece]},
          {"spring", worst->spring},
          {"vertices", {worst->a, worst->b}},
          {"midpoint_m",
           {finiteOrNull(worst->midpoint.x), finiteOrNull(worst->midpoint.y), finiteOrNull(worst->midpoint.z)}},
          {"length_m", finiteOrNull(worst->length)},
          {"rest_length_m", worst->restLength}};
}

nlohmann::json gatesReport(const std::vector<QualityGate>& gates, bool enforced) {
  nlohmann::json list = nlohmann::json::array();
  bool passed = true;
  for (const QualityGate& g : gates) {
    list.push_back({{"name", g.name}, {"value", g.value}, {g.atMost ? "max" : "min", g.limit}, {"passed", g.passed}});
    passed = passed && g.passed;
  }
  return {{"passed", passed}, {"enforced", enforced}, {"gates", list}};
}

ExactDistances exactDistances(const ClothState& state, const TriangleMesh& body) {
  ExactDistances exact;
  exact.points.resize(state.positions.size());
  for (std::size_t i = 0; i < exact.points.size(); ++i) exact.points[i] = glm::vec3(state.positions[i]);
  exact.distances = exactSignedDistances(body, exact.points, &exact.closedBody);
  return exact;
}

std::string stateHashText(const ClothState& state) {
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(stateHash(state)));
  return hash;
}

void printPreparedDrape(const DrapeScene& scene, const PreparedDrape& drape) {
  if (const SceneBody* body = drape.body(); body && body->views) {
    const DepthViewSetup& setup = body->views->setup;
    std::string names;
    for (DepthViewDirection d : setup.directions) names += (names.empty() ? "" : ", ") + std::string(depthViewName(d));
    std::printf("body collider: %zu depth views (%s) x %d layers, %.2f mm texels, %.1f M texels\n", setup.views.size(),
                names.c_str(), setup.layers, 1e3 * double(setup.texelSize()), 1e-6 * double(setup.texelCount()));
  } else if (body && body->collider) {
    std::printf("body collider: signed distance grid, %.1f mm cells\n", 1e3 * double(body->collider->cellSize));
  } else if (body && body->sphereTree) {
    std::printf("body collider: sphere tree, %zu leaf spheres, %.1f mm voxels\n", body->sphereTree->spheres().size(),
                1e3 * double(body->sphereTree->voxel()));
  }
  if (!scene.boxes.empty() || !scene.props.empty())
    std::printf("props: %zu boxes, %zu props (%zu sphere trees, %zu leaf spheres built in %.2f s)\n",
                scene.boxes.size(), scene.props.size(), drape.props().trees.instances.size(),
                leafSpheres(drape.props()), drape.props().buildSeconds);
  if (const DressedAvatar* dressed = drape.dressing())
    std::printf("sewn in %d frames (largest seam gap %.2f mm, %zu vertices welded), %zu cloth vertices%s\n",
                dressed->sewingFrames, 1e3 * double(dressed->largestGapBeforeWeld), dressed->weldedVertices,
                drape.model()->vertexCount(),
                scene.dressing.settleFrames > 0
                    ? ("; settling " + std::to_string(scene.dressing.settleFrames) + " frames").c_str()
                    : "");
}

nlohmann::json drapeMetrics(const DrapeOutcome& run, const std::vector<std::string>& outputs,
                            const ExactDistances* exact) {
  const DrapeScene& scene = run.scene;
  const ClothSettings& settings = run.drape.settings();
  const ClothModel& model = *run.drape.model();
  const RelaxReport* relaxed = run.relaxed ? &*run.relaxed : nullptr;
  nlohmann::json metrics = {
      {"scene", run.options.scenePath},
      {"backend", std::string(backendName(scene.backend))},
      {"gl", run.gl},
      {"frames", scene.frames},
      {"substeps_per_frame", settings.substeps},
      {"substeps_chosen", scene.settings.substeps == 0 ? "auto" : "fixed"},
      {"max_substep_halvings", settings.maxSubstepHalvings},
      {"substeps_last_frame", run.drape.solver().lastSubsteps()},  // more than per_frame after a retried frame
      {"explicit_stable_substep_s", settings.integrator == ClothIntegrator::SymplecticEuler
                                        ? nlohmann::json(explicitStableStep(model, settings).maxSubstep)
                                        : nlohmann::json(nullptr)},
      {"until_rest", relaxed ? nlohmann::json{{"converged", relaxed->converged},
                                              {"substeps", relaxed->iterations},
                                              {"max_speed_m_per_s", relaxed->maxSpeed}}
                             : nlohmann::json(nullptr)},
      {"vertices", model.vertexCount()},
      {"springs", model.springs.size()},
      {"state_hash", stateHashText(run.state)},
      {"seconds",
       {{"prepare", run.seconds.prepare},
        {"setup", run.seconds.setup},
        {"simulate", run.seconds.simulate},
        {"render", run.seconds.render}}},
      {"outputs", outputs},
  };
  if (!scene.boxes.empty() || !scene.props.empty()) metrics["props"] = propsReport(scene, run.drape.props());
  if (const SceneBody* body = run.drape.body(); body && exact) addBodyReports(metrics, run, *body, *exact);
  if (run.options.measureIntersections || run.options.intersectionsEvery > 0 || !scene.garments.empty())
    metrics["intersections"] = intersectionsReport(run);
  metrics["garments"] = garmentsReport(run, exact, metrics);
  metrics["self_contact"] = selfContactReport(settings.selfContact, run.drape.solver().selfContactReport());
  return metrics;
}

nlohmann::json garmentsReport(const DrapeOutcome& run, const ExactDistances* exact, const nlohmann::json& metrics) {
  const ClothModel& model = *run.drape.model();
  const std::vector<std::uint32_t>& pieceOfVertex = run.drape.pieceOfVertex();
  const std::size_t pieces = pieceCount(pieceOfVertex);
  const std::vector<std::string> names = pieceNames(run.scene, pieces);
  const std::vector<StrainExtremes> strain = strainExtremesOfPieces(model, run.state, pieceOfVertex, pieces);
  const std::vector<float> area = areaRatioOfPieces(model, run.state, pieceOfVertex, pieces);
  std::vector<std::size_t> vertices(pieces, 0), triangles(pieces, 0), inside(pieces, 0);
  const auto pieceOf = [&](std::size_t v) { return pieceOfVertex.empty() ? std::size_t(0) : pieceOfVertex[v]; };
  for (std::size_t v = 0; v < model.restPositions.size(); ++v) ++vertices[pieceOf(v)];
  for (std::size_t t = 0; 3 * t < model.triangles.size(); ++t) ++triangles[pieceOf(model.triangles[3 * t])];
  std::vector<glm::vec3> lo(pieces, glm::vec3(INFINITY)), hi(pieces, glm::vec3(-INFINITY));
  for (std::size_t v = 0; v < run.state.positions.size(); ++v) {
    lo[pieceOf(v)] = glm::min(lo[pieceOf(v)], glm::vec3(run.state.positions[v]));
    hi[pieceOf(v)] = glm::max(hi[pieceOf(v)], glm::vec3(run.state.positions[v]));
  }
  const bool measuredInside = exact && exact->distances;
  if (measuredInside)
    for (std::size_t v = 0; v < exact->distances->size(); ++v) inside[pieceOf(v)] += (*exact->distances)[v] < 0.0f;
  const nlohmann::json* within = nullptr;
  if (const auto i = metrics.find("intersections"); i != metrics.end()) within = &(*i)["within"];
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t p = 0; p < pieces; ++p) {
    const glm::vec3 color = garmentColor(p);
    nlohmann::json g = {
        {"name", names[p]},
        {"type", p < run.scene.garments.size()
                     ? nlohmann::json(std::string(garmentKindName(run.scene.garments[p].kind)))
                     : nlohmann::json(nullptr)},
        {"color_linear_rgb", {color.r, color.g, color.b}},
        {"vertices", vertices[p]},
        {"triangles", triangles[p]},
        {"area_ratio", area[p]},
        {"bounds_m",
         {{"min", {finiteOrNull(lo[p].x), finiteOrNull(lo[p].y), finiteOrNull(lo[p].z)}},
          {"max", {finiteOrNull(hi[p].x), finiteOrNull(hi[p].y), finiteOrNull(hi[p].z)}}}},
        {"largest_stretch", finiteOrNull(strain[p].stretch)},
        {"largest_compression", finiteOrNull(strain[p].compression)},
        {"vertices_inside_body", measuredInside ? nlohmann::json(inside[p]) : nlohmann::json(nullptr)},
        {"intersecting_pairs_within", within && within->contains(names[p]) ? (*within)[names[p]] : nullptr}};
    list.push_back(std::move(g));
  }
  return list;
}

void printPenetration(const PreparedDrape& drape, const ExactDistances& exact) {
  const SceneBody* body = drape.body();
  if (!body || !exact.distances) return;
  std::printf("penetration (exact reference, %s): %s\n",
              body->views        ? "depth views"
              : body->sphereTree ? "sphere tree"
                                 : "distance grid",
              describe(penetrationStats(*exact.distances)).c_str());
}

void printDrapeSummary(const DrapeOutcome& run, const OutputSet& outputs) {
  std::printf("simulated %d frames x %d substeps, %zu vertices, in %.2f s (%s backend)\n", run.scene.frames,
              run.drape.settings().substeps, run.drape.model()->vertexCount(), run.seconds.simulate,
              std::string(backendName(run.scene.backend)).c_str());
  std::printf("state hash: %s\n", stateHashText(run.state).c_str());
  std::printf("wrote %zu files:\n", outputs.size());
  for (const std::filesystem::path& path : outputs.finalPaths()) std::printf("  %s\n", path.c_str());
}

}  // namespace hg::app
