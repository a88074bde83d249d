#include "apps/hagoromo/GraspCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "gl/HeadlessContext.h"
#include "render/MeshRenderer.h"
#include "render/OffscreenTarget.h"
#include "sim/gpu/GpuRadar.h"
#include "sim/io/MeshExport.h"
#include "sim/radar/Grasp.h"

namespace hg::app {
namespace {

namespace fs = std::filesystem;

constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;

/// 0 detect, 1 approach, 2 close, 3 done or failed: the phases a hand is past.
int phaseRank(GraspPhase phase) {
  switch (phase) {
    case GraspPhase::Detect:
      return 0;
    case GraspPhase::Approach:
      return 1;
    case GraspPhase::Close:
      return 2;
    case GraspPhase::Done:
    case GraspPhase::Failed:
      return 3;
  }
  return 3;
}

/// JSON number, or null for a missing value (negative gaps, infinities).
nlohmann::json metres(double value, bool negativeIsMissing = false) {
  if (!std::isfinite(value) || (negativeIsMissing && value < 0.0)) return nullptr;
  return value;
}

nlohmann::json objectJson(const GraspObject& o) {
  nlohmann::json j = {{"id", o.id}};
  if (o.shape == GraspObject::Shape::Mesh) {
    const GraspMeshShape& m = *o.meshShape;
    j["shape"] = "mesh";
    j["source"] = m.source;
    j["position"] = {m.position.x, m.position.y, m.position.z};
    j["rotation_deg"] = {m.rotationDeg.x, m.rotationDeg.y, m.rotationDeg.z};
    j["scale"] = m.scale;
    j["triangles"] = m.local.triangleCount();
    j["sphere_tree"] = {{"resolution", m.resolution},
                        {"voxel_m", m.tree.voxel()},
                        {"spheres", m.tree.spheres().size()},
                        {"nodes", m.tree.nodes().size()},
                        {"depth", m.tree.depth()}};
  } else if (o.shape == GraspObject::Shape::Capsule) {
    j["shape"] = "capsule";
    j["a"] = {o.a.x, o.a.y, o.a.z};
    j["b"] = {o.b.x, o.b.y, o.b.z};
    j["radius_m"] = o.radius;
  } else if (o.shape == GraspObject::Shape::Box) {
    j["shape"] = "box";
    j["center"] = {o.center.x, o.center.y, o.center.z};
    j["size_m"] = {o.size.x, o.size.y, o.size.z};
  } else {
    j["shape"] = "sphere";
    j["center"] = {o.center.x, o.center.y, o.center.z};
    j["radius_m"] = o.radius;
  }
  return j;
}

/// The final grasp from above at an angle: target, distractors and hands.
Result<Image> renderGrasp(const GraspSimulation& sim, int width, int height) {
  auto renderer = MeshRenderer::create(renderShaders());
  if (!renderer) return renderer.error();
  std::vector<TriangleMesh> hands;
  for (std::size_t h = 0; h < sim.handCount(); ++h) hands.push_back(sim.hand(h).mesh());
  std::vector<DrawItem> items;
  items.push_back({&sim.targetMesh(), glm::vec3(0.80f, 0.45f, 0.20f), glm::vec3(0.4f), false});
  for (const TriangleMesh& d : sim.distractorMeshes())
    items.push_back({&d, glm::vec3(0.35f, 0.45f, 0.60f), glm::vec3(0.3f), false});
  // Skin tones per hand (linear RGB).
  static const glm::vec3 kSkin[] = {{0.85f, 0.66f, 0.55f},
                                    {0.75f, 0.55f, 0.45f},
                                    {0.90f, 0.74f, 0.62f},
                                    {0.62f, 0.45f, 0.36f},
                                    {0.80f, 0.62f, 0.50f}};
  for (std::size_t h = 0; h < hands.size(); ++h) {
    const glm::vec3 c = kSkin[h % std::size(kSkin)];
    items.push_back({&hands[h], c, 0.5f * c, false});
  }
  // Frame the target and the hands (a distractor may be far).
  const glm::vec3 centre = sim.scene().target.centre();
  float radius = sim.scene().target.boundingRadius();
  for (const TriangleMesh& hand : hands)
    for (const glm::vec3& p : hand.positions) radius = std::max(radius, glm::length(p - centre));
  OrbitCamera camera;
  // Beside the first hand, looking past it at the target.
  const glm::vec3 toHand = sim.hand(0).palmCentre() - centre;
  camera.azimuth = std::atan2(toHand.x, toHand.z) + 0.7f;
  camera.elevation = 0.75f;
  camera.frame(centre, radius);
  OffscreenTarget target(width, height);
  target.bind();
  renderer->draw(items, camera, width, height);
  return target.read();
}

const char* const kFingerNames[kHandFingers] = {"thumb", "index", "middle", "ring", "little"};
const char* const kJointNames[kHandJointsPerFinger] = {"proximal", "middle", "distal"};

/// The radar backend: the CPU reference or the GPU one (sim/gpu/GpuRadar.h).
Result<std::unique_ptr<RadarBackend>> makeRadar(const GraspOptions& options) {
  if (options.backend != "gpu") return makeCpuRadar();
  auto gpu = makeGpuRadar();
  if (!gpu) return gpu.error().prefixed("GPU radar: ");
  return std::move(gpu).value();
}

/// A progress line per phase: hands through detect, approach, close (a bar while a phase
/// runs, a line when every hand is through it).
class PhaseProgress {
 public:
  explicit PhaseProgress(bool quiet) : m_quiet(quiet), m_tty(!quiet && isatty(STDERR_FILENO)) {}

  void operator()(const GraspSimulation& s) {
    while (m_phase < 3) {
      long through = 0, failed = 0;
      for (std::size_t h = 0; h < s.handCount(); ++h) {
        through += phaseRank(s.phase(h)) > m_phase;
        failed += s.phase(h) == GraspPhase::Failed;
      }
      if (!m_bar) m_bar.emplace(std::string(kLabels[m_phase]), long(s.handCount()), m_tty);
      m_bar->update(through);
      if (through < long(s.handCount())) break;
      m_bar->finish();
      m_bar.reset();
      if (!m_quiet) {
        const std::string note = failed ? " (" + std::to_string(failed) + " failed)" : std::string();
        std::printf("%s: %zu hand(s) through by frame %d%s\n", kLabels[m_phase], s.handCount(), s.frame(),
                    note.c_str());
      }
      ++m_phase;
    }
  }
  void finish() {
    if (m_bar) m_bar->finish();
  }

 private:
  static constexpr const char* kLabels[3] = {"phase 1 detect", "phase 2 approach", "phase 3 close"};
  bool m_quiet, m_tty;
  int m_phase = 0;
  std::optional<Progress> m_bar;
};

/// The numbers over every hand that the metrics and the summary lead with.
struct GraspTotals {
  double minExact = std::numeric_limits<double>::infinity(), minVertex = minExact;  ///< m
  double maxTreePenetration = -std::numeric_limits<double>::infinity();             ///< m
  int treeOverlaps = 0;
  int failedHands = 0, fingersInContact = 0, fingersAtLimit = 0;
};

GraspTotals graspTotals(const GraspReport& report) {
  GraspTotals t;
  for (const GraspHandReport& r : report.hands) {
    t.failedHands += r.phase == GraspPhase::Failed;
    for (const GraspFingerReport& fr : r.fingers) {
      t.fingersInContact += fr.contact;
      t.fingersAtLimit += !fr.contact && fr.atLimit;
    }
    for (int seg = 0; seg < kHandSegments; ++seg) {
      t.minExact = std::min(t.minExact, r.segmentExactDistance[std::size_t(seg)]);
      t.minVertex = std::min(t.minVertex, r.segmentVertexDistance[std::size_t(seg)]);
      t.treeOverlaps += r.segmentTreeOverlap[std::size_t(seg)];
      t.maxTreePenetration = std::max(t.maxTreePenetration, r.segmentTreePenetration[std::size_t(seg)]);
    }
  }
  return t;
}

nlohmann::json fingerJson(const GraspFingerReport& fr, int f) {
  nlohmann::json angles = nlohmann::json::array(), outcomes = nlohmann::json::array(),
                 iterations = nlohmann::json::array();
  for (int k = 0; k < kHandJointsPerFinger; ++k) {
    angles.push_back(double(fr.angles[std::size_t(k)]) * kRadToDeg);
    outcomes.push_back(std::string(jointOutcomeName(fr.outcomes[std::size_t(k)])));
    iterations.push_back(fr.iterations[std::size_t(k)]);
  }
  return {{"finger", kFingerNames[f]},
          {"joint_angles_deg", angles},
          {"joint_outcomes", outcomes},
          {"joint_frames", iterations},
          {"contact", fr.contact},
          {"at_limit", fr.atLimit},
          {"contact_object",
           fr.contactObject == kRadarNoObject ? nlohmann::json(nullptr) : nlohmann::json(fr.contactObject)},
          {"radar_gap_m", metres(fr.radarGap, true)},
          {"exact_distance_m", metres(fr.exactDistance)},
          {"exact_vertex_distance_m", metres(fr.vertexDistance)}};
}

/// Segment `seg` of hand `h`: 0 the palm, then the fingers' joints.
nlohmann::json segmentJson(const GraspHandReport& r, std::size_t h, int seg) {
  const double exact = r.segmentExactDistance[std::size_t(seg)], vertex = r.segmentVertexDistance[std::size_t(seg)];
  const std::string name = seg == 0 ? std::string("palm")
                                    : std::string(kFingerNames[(seg - 1) / kHandJointsPerFinger]) + "_" +
                                          kJointNames[(seg - 1) % kHandJointsPerFinger];
  return {{"segment", name},
          {"radar_id", GraspSimulation::segmentObjectId(h, seg)},
          {"exact_distance_m", metres(exact)},
          {"exact_vertex_distance_m", metres(vertex)},
          {"tree_overlap", r.segmentTreeOverlap[std::size_t(seg)]},
          {"tree_penetration_m", metres(r.segmentTreePenetration[std::size_t(seg)])}};
}

/// Hand `h`: frames per phase, the approach, the fingers and the segments.
nlohmann::json handJson(const GraspHandReport& r, std::size_t h) {
  nlohmann::json fingers = nlohmann::json::array(), segments = nlohmann::json::array();
  for (int f = 0; f < kHandFingers; ++f) fingers.push_back(fingerJson(r.fingers[std::size_t(f)], f));
  for (int seg = 0; seg < kHandSegments; ++seg) segments.push_back(segmentJson(r, h, seg));
  return {{"phase", std::string(graspPhaseName(r.phase))},
          {"failure", r.failure.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.failure)},
          {"frames",
           {{"detect", r.phaseFrames[0]},
            {"approach", r.phaseFrames[1]},
            {"wait", r.waitFrames},
            {"close", r.phaseFrames[2]}}},
          {"scan_frames", r.scanFrames},
          {"target_seen_at", {r.targetSeenAt.x, r.targetSeenAt.y, r.targetSeenAt.z}},
          {"approach",
           {{"distance_m", r.approachDistance},
            {"final_radar_gap_m", metres(r.approachGap, true)},
            {"stopped_at_object",
             r.approachObject == kRadarNoObject ? nlohmann::json(nullptr) : nlohmann::json(r.approachObject)},
            {"mask_reused", r.maskReused}}},
          {"fingers", fingers},
          {"segments", segments}};
}

/// What the metrics and the summary are made of.
struct GraspOutcome {
  const GraspOptions& options;
  const GraspScene& scene;
  const GraspSimulation& sim;
  const GraspReport& report;
  const GraspTotals& totals;
  std::string backend, gl;
  double setupSeconds = 0.0, simulateSeconds = 0.0, renderSeconds = 0.0;
};

nlohmann::json graspMetrics(const GraspOutcome& run, const std::vector<std::string>& outputs) {
  const GraspReport& report = run.report;
  const GraspTotals& t = run.totals;
  nlohmann::json hands = nlohmann::json::array();
  for (std::size_t h = 0; h < report.hands.size(); ++h) hands.push_back(handJson(report.hands[h], h));
  const double tolerance = report.distanceMethod == "sphere_tree" ? double(report.distanceVoxel) : 0.0;
  return {
      {"scene", run.options.scenePath},
      {"name", run.scene.name},
      {"backend", run.backend},
      {"gl", run.gl},
      {"target", objectJson(run.scene.target)},
      {"radar_image", {run.scene.settings.image.width, run.scene.settings.image.height}},
      {"hand_count", run.sim.handCount()},
      {"radars_per_hand", kHandRadars},
      {"radars_per_frame", report.radarsPerFrame},
      {"frames", report.frames},
      {"total_radars_run", report.radarsRun},
      {"finished", report.finished},
      {"failed_hands", t.failedHands},
      {"fingers_in_contact", t.fingersInContact},
      {"fingers_at_limit", t.fingersAtLimit},
      // Solid segment boxes and segment vertices against the target (m; >= 0: no penetration):
      // exact for an analytic target, from its sphere tree (about a voxel) for a mesh.
      {"distance_method", report.distanceMethod},
      {"distance_voxel_m",
       report.distanceMethod == "sphere_tree" ? nlohmann::json(report.distanceVoxel) : nlohmann::json(nullptr)},
      {"min_exact_distance_m", metres(t.minExact)},
      {"min_exact_vertex_distance_m", metres(t.minVertex)},
      // A sphere tree is accurate to about its voxel: only a deeper overlap counts.
      {"penetration_tolerance_m", tolerance},
      {"penetration", t.minExact < -tolerance || t.minVertex < -tolerance},
      // Every segment box against the target's sphere tree (section 7's OBB-sphere test per
      // leaf); penetration estimate max over leaves of (radius - box-to-centre distance), > 0:
      // interpenetration (about a voxel accurate).
      {"sphere_tree_check",
       {{"resolution", report.checkResolution},
        {"voxel_m", report.checkVoxel},
        {"spheres", report.checkSpheres},
        {"segments_overlapping", t.treeOverlaps},
        {"overlap", t.treeOverlaps > 0},
        {"max_penetration_m", metres(t.maxTreePenetration)}}},
      {"seconds",
       {{"setup", run.setupSeconds},
        {"simulate", run.simulateSeconds},
        {"radar", report.radarSeconds},
        {"render", run.renderSeconds}}},
      {"hands", hands},
      {"outputs", outputs},
  };
}

void printGraspSummary(const GraspOutcome& run, const OutputSet& outputs) {
  const GraspReport& report = run.report;
  const GraspTotals& t = run.totals;
  std::printf("%d frames, %zu radars per frame, %zu radars run in %.2f s (%.2f s in the radar backend)\n",
              report.frames, report.radarsPerFrame, report.radarsRun, run.simulateSeconds, report.radarSeconds);
  std::printf(
      "%d of %zu fingers in contact, %d at their limits, %d hand(s) failed; "
      "smallest %s distance to the target %.3f mm\n",
      t.fingersInContact, report.hands.size() * std::size_t(kHandFingers), t.fingersAtLimit, t.failedHands,
      report.distanceMethod == "sphere_tree" ? "sphere-tree" : "exact", 1e3 * t.minExact);
  std::printf(
      "sphere-tree check (%zu spheres, voxel %.2f mm): %d segment(s) overlap the target, "
      "largest penetration estimate %.3f mm\n",
      report.checkSpheres, 1e3 * double(report.checkVoxel), t.treeOverlaps, 1e3 * t.maxTreePenetration);
  std::printf("wrote %zu files:\n", outputs.size());
  for (const fs::path& path : outputs.finalPaths()) std::printf("  %s\n", path.c_str());
}

/// Stages the OBJ, the PNG and the metrics and moves them into place together
/// (apps/common/OutputSet.h); prints the summary.
int writeGrasp(const GraspOutcome& run, const Image& image) {
  OutputSet outputs(run.scene.outputDirectory);
  if (Status s =
          outputs.write(run.scene.name + ".obj", [&](const fs::path& p) { return exportMesh(run.sim.sceneMesh(), p); });
      !s)
    return fail(s.error());
  if (Status s = outputs.write(run.scene.name + ".png", [&](const fs::path& p) { return writePng(image, p); }); !s)
    return fail(s.error());
  const nlohmann::json metrics = graspMetrics(run, outputs.finalPathStrings());
  if (Status s = outputs.writeText(run.scene.name + ".json", metrics.dump(2) + "\n"); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!run.options.quiet) printGraspSummary(run, outputs);
  for (const GraspHandReport& r : run.report.hands)
    if (r.phase == GraspPhase::Failed)
      std::fprintf(stderr, "hagoromo: warning: a hand failed: %s\n", r.failure.c_str());
  return kExitOk;
}

}  // namespace

CLI::App* addGraspCommand(CLI::App& app, GraspOptions& options) {
  CLI::App* command =
      app.add_subcommand("grasp",
                         "Cyber Radar grasp: hands of 17 radars detect a target by ID, approach it and close on it; "
                         "writes PNG, OBJ and metrics JSON");
  command->add_option("scene", options.scenePath, "Grasp scene JSON file (see scenes/grasp/*.json)")->required();
  command->add_option("--out", options.outDir, "Override the output folder")->check(nonEmpty());
  command->add_option("--backend", options.backend, "Radar backend (default cpu)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer("Example: hagoromo grasp scenes/grasp/five_hands.json --out /tmp/grasp");
  return command;
}

int runGrasp(const GraspOptions& options) {
  const auto tStart = Clock::now();
  auto loaded = loadGraspScene(options.scenePath);
  if (!loaded) return fail(loaded.error());
  GraspScene scene = std::move(loaded).value();
  if (!options.outDir.empty()) scene.outputDirectory = options.outDir;

  // A context for the PNG (and the GPU backend).
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) std::printf("OpenGL: %s\n", (*context)->description().c_str());
  auto radar = makeRadar(options);
  if (!radar) return fail(radar.error());
  auto created = GraspSimulation::create(scene);
  if (!created) return fail(created.error().prefixed(options.scenePath + ": "));
  GraspSimulation sim = std::move(created).value();
  if (!options.quiet)
    std::printf("grasp %s: %zu hand(s) x %d radars = %zu radars per frame, %d x %d pixels, %s backend\n",
                scene.name.c_str(), sim.handCount(), kHandRadars, sim.handCount() * std::size_t(kHandRadars),
                scene.settings.image.width, scene.settings.image.height, std::string((*radar)->name()).c_str());

  PhaseProgress progress(options.quiet);
  const auto tSetup = Clock::now();
  // A failed run is the simulation's failure, or the GPU radar's (a GL error keeps its kind).
  if (Status s = sim.run(**radar, [&](const GraspSimulation& frame) { progress(frame); }); !s) {
    const Error e = s.error().prefixed(options.scenePath + ": ", "; no output written");
    return fail(e.kind == ErrorKind::Graphics ? e : e.as(ErrorKind::Simulation));
  }
  progress.finish();
  const auto tSimulated = Clock::now();
  const GraspReport report = sim.report();
  auto image = renderGrasp(sim, scene.imageWidth, scene.imageHeight);
  if (!image) return fail(image.error());
  const auto tRendered = Clock::now();
  const GraspTotals totals = graspTotals(report);
  const GraspOutcome outcome{options,
                             scene,
                             sim,
                             report,
                             totals,
                             std::string((*radar)->name()),
                             (*context)->description(),
                             seconds(tStart, tSetup),
                             seconds(tSetup, tSimulated),
                             seconds(tSimulated, tRendered)};
  return writeGrasp(outcome, *image);
}

}  // namespace hg::app
