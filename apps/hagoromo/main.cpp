// hagoromo: the command-line front end (headless, batch-friendly).
//
//   hagoromo drape scenes/cloth_on_sphere.json            # simulate, write OBJ + PNG + JSON
//   hagoromo drape scenes/cloth_on_sphere.json --backend cpu --frames 60 --out /tmp/run
//   hagoromo grasp scenes/grasp/five_hands.json --out /tmp/grasp   # Cyber Radar grasp: PNG + OBJ + JSON
//   hagoromo snow scenes/snow/bench_under_roof.json --out /tmp/snow   # snow cover: PNG + OBJ + depth PNG + JSON
//   hagoromo spheres --builtin bottle --out /tmp/spheres   # sphere trees at 64/128/256 voxels: PNG + JSON
//   hagoromo info                                          # which OpenGL driver is used
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "apps/hagoromo/GraspCommand.h"
#include "apps/hagoromo/SkinCommand.h"
#include "apps/hagoromo/SnowCommand.h"
#include "apps/hagoromo/SpheresCommand.h"
#include "render/DepthViewPicture.h"
#include "render/DrapeSceneView.h"
#include "render/MeshRenderer.h"
#include "render/OffscreenTarget.h"
#include "render/gl/HeadlessContext.h"
#include "sim/cloth/StableStep.h"
#include "sim/contact/Penetration.h"
#include "sim/core/Limits.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "sim/gpu/GpuRadar.h"
#include "sim/io/MeshExport.h"
#include "sim/motion/CharacterIO.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace {

using namespace hg;
using namespace hg::app;
namespace fs = std::filesystem;

struct DrapeOptions {
  std::string scenePath;
  std::string backend;
  int frames = -1;
  std::string outDir;
  int threads = -1;
  bool quiet = false;
  bool measurePenetration = false;
};

/// Penetration of the cloth into the body against the exact reference (CGAL distances
/// to the body mesh): percentiles over all vertices and over the vertices near the
/// armpits and the crotch (within `radius` of the shoulder / hip joints' midpoints),
/// the concavities no single view sees.
nlohmann::json penetrationReport(const std::vector<float>& exact, const std::vector<glm::vec3>& points,
                                 const SceneBody& body, float contactOffset, float texel) {
  auto block = [&](const PenetrationStats& s) {
    return nlohmann::json{{"vertices", s.points}, {"inside", s.inside}, {"p50_m", s.p50},
                          {"p99_m", s.p99},       {"p99_9_m", s.p999},  {"max_m", s.max}};
  };
  nlohmann::json report = {{"all", block(penetrationStats(exact))}, {"skin_offset_m", contactOffset}};
  if (texel > 0.0f) report["texel_m"] = texel;
  const BodyMeasurements& m = body.measurements;
  const bool hasJoints = m.jointPositions.count("upper_arm_l") && m.jointPositions.count("upper_arm_r") &&
                         m.jointPositions.count("chest") && m.jointPositions.count("thigh_l") &&
                         m.jointPositions.count("thigh_r");
  if (hasJoints) {
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
      report[names[r]] = block(penetrationStats(near));
    }
  }
  return report;
}

int runDrape(const DrapeOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto tStart = Clock::now();
  auto loaded = loadDrapeScene(options.scenePath);
  if (!loaded) return fail(loaded.error());
  DrapeScene scene = std::move(loaded).value();
  if (!options.backend.empty()) {
    auto backend = parseBackend(options.backend);
    if (!backend) return failUsage("--backend: " + backend.error().message);
    scene.backend = *backend;
  }
  if (options.frames >= 0) {
    scene.frames = options.frames;
    if (Status s = checkRunSize(scene, "--frames"); !s) return failUsage(s.error().message);
  }
  if (!options.outDir.empty()) scene.outputDirectory = options.outDir;
  if (options.threads >= 0) scene.settings.threads = options.threads;

  const bool autoSubsteps = scene.settings.substeps == 0;  // resolved by PreparedDrape::prepare
  // A context is needed for the GPU backend and for the PNG render in any case.
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) std::printf("OpenGL: %s\n", (*context)->description().c_str());

  // The avatar, its collider and the cloth or the sewn garments (sim/scene/PreparedDrape.h).
  if (!options.quiet && scene.avatar) std::printf("building the avatar and its collider ...\n");
  const bool tty = !options.quiet && isatty(STDERR_FILENO);
  std::optional<Progress> sewing;
  if (!scene.garments.empty())
    sewing.emplace("sew " + std::to_string(scene.garments.size()) + " garment(s)", scene.dressing.maxSewingFrames, tty);
  const ClothSolverFactory makeSolver = [&](std::shared_ptr<const ClothModel> m, const ClothSettings& s) {
    return createClothSolver(scene.backend, std::move(m), s);
  };
  auto prepared = PreparedDrape::prepare(scene, makeSolver, [&](int frame, float) { sewing->update(frame); });
  if (sewing) sewing->finish();
  // Seams that do not close or a failed weld are simulation failures (ErrorKind::Simulation);
  // a pattern, mesh or placement error comes from the scene's measurements and options.
  if (!prepared) return fail(prepared.error().prefixed(options.scenePath + ": "));
  const SceneBody* body = prepared->body();
  const DressedAvatar* dressed = prepared->dressing();
  const std::shared_ptr<const ClothModel> sharedModel = prepared->model();
  const ClothSettings& settings = prepared->settings();
  if (!options.quiet && body && body->views) {
    const DepthViewSetup& setup = body->views->setup;
    std::string names;
    for (DepthViewDirection d : setup.directions) names += (names.empty() ? "" : ", ") + std::string(depthViewName(d));
    std::printf("body collider: %zu depth views (%s) x %d layers, %.2f mm texels, %.1f M texels\n", setup.views.size(),
                names.c_str(), setup.layers, 1e3 * double(setup.texelSize()), 1e-6 * double(setup.texelCount()));
  } else if (!options.quiet && body && body->collider) {
    std::printf("body collider: signed distance grid, %.1f mm cells\n", 1e3 * double(body->collider->cellSize));
  } else if (!options.quiet && body && body->sphereTree) {
    std::printf("body collider: sphere tree, %zu leaf spheres, %.1f mm voxels\n", body->sphereTree->spheres().size(),
                1e3 * double(body->sphereTree->voxel()));
  }
  if (!options.quiet && (!scene.boxes.empty() || !scene.props.empty()))
    std::printf(
        "props: %zu boxes, %zu props (%zu sphere trees, %zu leaf spheres built in %.2f s)\n", scene.boxes.size(),
        scene.props.size(), prepared->props().trees.instances.size(),
        [&] {
          std::size_t leaves = 0;
          for (const auto& t : prepared->props().trees.instances) leaves += t.base.z;
          return leaves;
        }(),
        prepared->props().buildSeconds);
  if (!options.quiet && dressed)
    std::printf("sewn in %d frames (largest seam gap %.2f mm, %zu vertices welded), %zu cloth vertices\n",
                dressed->sewingFrames, 1e3 * double(dressed->largestGapBeforeWeld), dressed->weldedVertices,
                sharedModel->vertexCount());
  const auto tPrepared = Clock::now();

  if (Status s = prepared->createSolver(makeSolver); !s) return fail(s.error().prefixed(options.scenePath + ": "));
  ClothSolver& solver = prepared->solver();
  // A moving body seen through depth views is rendered every frame: by the GPU (its buffers
  // bound by the GPU solver, read back for the CPU one), or, on a software rasterizer
  // (llvmpipe), by the CPU reference rasterizer, which is 3-9x faster there
  // (bench/RESULTS.md, hg_contact_bench).
  if (body && body->animator && body->views && !(*context)->isSoftware())
    prepared->setBodyViewRenderer(makeGpuBodyViewRenderer());
  // The radar sweeps of solver.continuous_collision: on the GPU on a hardware driver; on a
  // software rasterizer the CPU reference, 6-10x faster there (bench/RESULTS.md, hg_radar_bench).
  if (prepared->sweep() && !(*context)->isSoftware()) {
    auto gpuRadar = makeGpuRadar();
    if (!gpuRadar) return fail(gpuRadar.error().prefixed("continuous collision: "));
    prepared->sweep()->setRadar(std::move(gpuRadar).value());
  }
  const auto tSetup = Clock::now();

  // With an avatar, the drape's shape every kSnapshotEvery frames (and the last) goes into
  // the .glb as shape keys of the garment (sim/motion/CharacterIO.h).
  constexpr int kSnapshotEvery = 15;
  NamedMeshSequence snapshots;
  snapshots.name = dressed ? "garments" : "cloth";
  auto snapshot = [&](int frame, const ClothState& s) {
    snapshots.times.push_back(float(frame) * settings.frameDt);
    std::vector<glm::vec3>& p = snapshots.positions.emplace_back(s.positions.size());
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = glm::vec3(s.positions[i]);
  };
  if (body) snapshot(0, solver.readState());
  // Per-frame OBJs (output.obj_every) are kept in memory and written with the other
  // outputs at the end, so an unstable run still writes nothing.
  std::vector<std::pair<int, std::vector<glm::vec3>>> frameShapes;

  Progress progress("drape " + scene.name + " (" + std::string(backendName(scene.backend)) + ")", scene.frames,
                    !options.quiet && isatty(STDERR_FILENO));
  std::optional<RelaxReport> relaxed;
  if (scene.restSpeed > 0.0f) {
    // Drape to rest (quasi-static, kinetic damping) within `frames` frames' substeps.
    if (body && body->animator)
      return fail(Error{options.scenePath + ": solver.until_rest and avatar.motion.animate exclude each other"});
    relaxed = solver.relaxToRest(scene.restSpeed, scene.frames * settings.substeps);
    if (any(relaxed->status)) {
      progress.finish();
      return fail(
          simulationError(options.scenePath + ": drape to rest: " + describe(relaxed->status) + "; no output written"));
    }
    progress.update(scene.frames);
  } else {
    for (int frame = 0; frame < scene.frames; ++frame) {
      // Pins, the moving body (avatar.motion.animate) and the step (sim/scene/PreparedDrape.h).
      const Result<StepStatus> advanced = prepared->advance();
      if (!advanced) {
        progress.finish();
        return fail(advanced.error().prefixed(options.scenePath + ": ", "; no output written"));
      }
      const StepStatus status = *advanced;
      if (any(status)) {
        progress.finish();
        return fail(simulationError(options.scenePath + ": frame " + std::to_string(frame + 1) + ": " +
                                    describe(status) + "; no output written"));
      }
      progress.update(frame + 1);
      if (body && (frame + 1) % kSnapshotEvery == 0 && frame + 1 < scene.frames)
        snapshot(frame + 1, solver.readState());
      if (scene.objEvery > 0 && (frame + 1) % scene.objEvery == 0) {
        const ClothState s = solver.readState();
        std::vector<glm::vec3>& p = frameShapes.emplace_back(frame + 1, s.positions.size()).second;
        for (std::size_t i = 0; i < p.size(); ++i) p[i] = glm::vec3(s.positions[i]);
      }
    }
  }
  progress.finish();
  const ClothState state = solver.readState();
  if (body && scene.frames > 0) snapshot(scene.frames, state);  // with --frames 0 the start is the only shape
  // The body's surface now (it moved along the clip with avatar.motion.animate).
  const TriangleMesh bodyMesh = body ? *prepared->bodySurface() : TriangleMesh{};
  const auto tSimulated = Clock::now();

  DrapeSceneView view(*sharedModel, settings, body ? &bodyMesh : nullptr);
  view.setPieces(prepared->pieceOfVertex());
  view.setSceneProps(prepared->props().meshes, scene.boxes.size());
  view.update(state);
  auto renderer = MeshRenderer::create(gl::ShaderRegistry());
  if (!renderer) return fail(renderer.error());
  OffscreenTarget target(scene.imageWidth, scene.imageHeight);
  target.bind();
  // The overview, and with an avatar the front, side and back views of the garment.
  std::vector<std::pair<std::string, Image>> images;
  auto render = [&](const OrbitCamera& camera, const std::string& suffix) {
    view.draw(*renderer, camera, scene.imageWidth, scene.imageHeight);
    images.emplace_back(scene.name + suffix + ".png", target.read());
  };
  render(view.defaultCamera(), "");
  if (body) {
    render(view.viewFrom(0.0f), "_front");
    render(view.viewFrom(0.5f * 3.14159265f), "_side");
    render(view.viewFrom(3.14159265f), "_back");
  }
  // What the cloth collided with: the body's depth views (the last frame's when they
  // stayed on the CPU, else the first pose's), one column per view, a row per layer.
  if (body && body->views) {
    const auto& last = solver.settings().bodyViews;
    images.emplace_back(scene.name + "_depth_views.png", depthViewsPicture(last ? *last : *body->views));
  }
  const auto tRendered = Clock::now();

  // Every output is staged and moved into place together at the end (apps/common/OutputSet.h).
  OutputSet outputs(scene.outputDirectory);
  auto stageMesh = [&](const TriangleMesh& mesh, const std::string& name) {
    return outputs.write(name, [&](const fs::path& path) { return exportMesh(mesh, path); });
  };
  if (Status s = stageMesh(view.clothMesh(), scene.name + ".obj"); !s) return fail(s.error());
  if (body)
    if (Status s = stageMesh(bodyMesh, scene.name + "_body.obj"); !s) return fail(s.error());
  if (!prepared->props().meshes.empty()) {
    // The boxes and props in one OBJ, as placed (world space).
    TriangleMesh props;
    for (const TriangleMesh& m : prepared->props().meshes) {
      const auto offset = std::uint32_t(props.positions.size());
      props.positions.insert(props.positions.end(), m.positions.begin(), m.positions.end());
      props.normals.insert(props.normals.end(), m.normals.begin(), m.normals.end());
      for (std::uint32_t i : m.indices) props.indices.push_back(offset + i);
    }
    if (Status s = stageMesh(props, scene.name + "_props.obj"); !s) return fail(s.error());
  }
  for (const auto& [frameNumber, positions] : frameShapes) {
    TriangleMesh shape = view.clothMesh();
    shape.positions = positions;
    computeVertexNormals(shape);
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_frame_%04d.obj", frameNumber);
    if (Status s = stageMesh(shape, scene.name + suffix); !s) return fail(s.error());
  }
  if (body) {
    snapshots.mesh = view.clothMesh();
    // A moving body goes in with its clip (rest: the T-pose); a still one in its pose.
    const Status s = outputs.write(scene.name + ".glb", [&](const fs::path& path) {
      return body->animator ? exportAnimatedGltf(path, body->animator->rest(), {body->animator->clip()}, {snapshots})
                            : exportAnimatedGltf(path, body->avatar, {}, {snapshots});
    });
    if (!s) return fail(s.error());
  }
  for (const auto& [name, image] : images)
    if (Status s = outputs.write(name, [&](const fs::path& path) { return writePng(image, path); }); !s)
      return fail(s.error());
  auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(stateHash(state)));
  nlohmann::json metrics = {
      {"scene", options.scenePath},
      {"backend", std::string(backendName(scene.backend))},
      {"gl", (*context)->description()},
      {"frames", scene.frames},
      {"substeps_per_frame", settings.substeps},
      {"substeps_chosen", autoSubsteps ? "auto" : "fixed"},
      {"max_substep_halvings", settings.maxSubstepHalvings},
      {"substeps_last_frame", solver.lastSubsteps()},  // more than per_frame after a retried frame
      {"explicit_stable_substep_s", settings.integrator == ClothIntegrator::SymplecticEuler
                                        ? nlohmann::json(explicitStableStep(*sharedModel, settings).maxSubstep)
                                        : nlohmann::json(nullptr)},
      {"until_rest", relaxed ? nlohmann::json{{"converged", relaxed->converged},
                                              {"substeps", relaxed->iterations},
                                              {"max_speed_m_per_s", relaxed->maxSpeed}}
                             : nlohmann::json(nullptr)},
      {"vertices", sharedModel->vertexCount()},
      {"springs", sharedModel->springs.size()},
      {"state_hash", hash},
      {"seconds",
       {{"prepare", seconds(tStart, tPrepared)},
        {"setup", seconds(tPrepared, tSetup)},
        {"simulate", seconds(tSetup, tSimulated)},
        {"render", seconds(tSimulated, tRendered)}}},
      {"outputs", outputs.finalPathStrings()},
  };
  if (!scene.boxes.empty() || !scene.props.empty()) {
    std::size_t leaves = 0;
    for (const auto& t : prepared->props().trees.instances) leaves += t.base.z;
    metrics["props"] = {{"boxes", scene.boxes.size()},
                        {"props", scene.props.size()},
                        {"analytic_boxes", prepared->props().boxes.size()},
                        {"sphere_trees", prepared->props().trees.instances.size()},
                        {"leaf_spheres", leaves},
                        {"build_seconds", prepared->props().buildSeconds}};
  }
  if (body) {
    // Contact statistics against the body's signed distance grid (m; < 0 is inside).
    const SignedDistanceGrid* grid = solver.settings().body.get();  // the last pose's collider
    int touching = 0, inside = 0;
    float deepest = grid ? grid->band : 0.0f;
    for (const glm::vec4& p : state.positions) {
      if (!grid) break;
      const float d = grid->distance(glm::vec3(p));
      touching += d < settings.contactOffset + 0.002f;
      inside += d < 0.0f;
      deepest = std::min(deepest, d);
    }
    const BodyMeasurements& m = body->measurements;
    metrics["avatar"] = {{"vertices", body->avatar.mesh.vertexCount()},
                         {"triangles", body->avatar.mesh.triangleCount()},
                         {"height_m", m.height},
                         {"chest_girth_m", m.chestGirth},
                         {"waist_girth_m", m.waistGirth},
                         {"hip_girth_m", m.hipGirth}};
    if (dressed) {
      nlohmann::json garments = nlohmann::json::array();
      for (std::size_t g = 0; g < scene.garments.size(); ++g)
        garments.push_back({{"type", std::string(garmentKindName(scene.garments[g].kind))},
                            {"vertices", std::count(dressed->garmentOfVertex.begin(), dressed->garmentOfVertex.end(),
                                                    std::uint32_t(g))}});
      metrics["dressing"] = {{"garments", garments},
                             {"sewing_frames", dressed->sewingFrames},
                             {"largest_seam_gap_before_weld_m", dressed->largestGapBeforeWeld},
                             {"welded_vertices", dressed->weldedVertices},
                             {"placement_clearance_m", dressed->placementClearance}};
    }
    // The exact reference: CGAL's distance and inside test against the body mesh itself.
    std::vector<glm::vec3> points(state.positions.size());
    for (std::size_t i = 0; i < points.size(); ++i) points[i] = glm::vec3(state.positions[i]);
    const DepthViewImages* views = body->views.get();  // the first pose's (the setup is the same every frame)
    if (auto exact = exactSignedDistances(bodyMesh, points)) {
      int exactInside = 0;
      float smallest = 1e9f, worstGridError = 0.0f;
      for (std::size_t i = 0; i < exact->size(); ++i) {
        const float d = (*exact)[i];
        exactInside += d < 0.0f;
        smallest = std::min(smallest, d);
        if (grid && std::abs(d) < grid->band * 0.5f)
          worstGridError = std::max(worstGridError, std::abs(grid->distance(points[i]) - d));
      }
      metrics["exact_reference"] = {{"vertices_inside_body", exactInside},
                                    {"deepest_penetration_m", std::max(0.0f, -smallest)},
                                    {"smallest_distance_m", smallest}};
      if (grid) metrics["exact_reference"]["worst_collider_error_near_body_m"] = worstGridError;
      if (options.measurePenetration) {
        metrics["penetration"] =
            penetrationReport(*exact, points, *body, settings.contactOffset, views ? views->setup.texelSize() : 0.0f);
        if (!options.quiet)
          std::printf("penetration (exact reference, %s): %s\n",
                      views              ? "depth views"
                      : body->sphereTree ? "sphere tree"
                                         : "distance grid",
                      describe(penetrationStats(*exact)).c_str());
      }
    } else {
      metrics["exact_reference"] = {{"error", exact.error().message}};
    }
    if (grid) {
      metrics["contact"] = {{"method", "distance_grid"},
                            {"vertices_touching_body", touching},
                            {"vertices_inside_body", inside},
                            {"smallest_body_distance_m", deepest},
                            {"collider_cell_m", grid->cellSize}};
    } else if (body->sphereTree) {
      metrics["contact"] = {{"method", "sphere_tree"},
                            {"leaf_spheres", body->sphereTree->spheres().size()},
                            {"nodes", body->sphereTree->nodes().size()},
                            {"voxel_m", body->sphereTree->voxel()},
                            {"search_radius_m", settings.sphereTreeSearchRadius()}};
    } else if (views) {
      nlohmann::json names = nlohmann::json::array();
      for (DepthViewDirection d : views->setup.directions) names.push_back(std::string(depthViewName(d)));
      metrics["contact"] = {{"method", "depth_views"},
                            {"views", names},
                            {"layers", views->setup.layers},
                            {"texel_m", views->setup.texelSize()},
                            {"texels", views->setup.texelCount()}};
    }
  }
  if (Status s = outputs.writeText(scene.name + ".json", metrics.dump(2) + "\n"); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());

  if (!options.quiet) {
    std::printf("simulated %d frames x %d substeps, %zu vertices, in %.2f s (%s backend)\n", scene.frames,
                settings.substeps, sharedModel->vertexCount(), seconds(tSetup, tSimulated),
                std::string(backendName(scene.backend)).c_str());
    std::printf("state hash: %s\n", hash);
    std::printf("wrote %zu files:\n", outputs.size());
    for (const fs::path& path : outputs.finalPaths()) std::printf("  %s\n", path.c_str());
  }
  return kExitOk;
}

int runInfo() {
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  std::printf("OpenGL: %s\n", (*context)->description().c_str());
  std::printf("software rasterizer: %s\n", (*context)->isSoftware() ? "yes" : "no");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  ensureSleepingOpenMpThreads(argv);  // first: may re-execute the program
  installInterruptCleanup();          // before any thread starts
  CLI::App app{"hagoromo: GPU cloth and skinning simulation through rasterization"};
  app.set_version_flag("--version", std::string("hagoromo ") + HG_VERSION);
  app.require_subcommand(1);
  app.footer(std::string(kExitCodeHelp) +
             "\nEnvironment: HG_EGL_PLATFORM=auto|device|surfaceless, HG_EGL_LIBRARY=<libEGL>, OMP_NUM_THREADS,\n"
             "OMP_WAIT_POLICY (default here PASSIVE: idle OpenMP threads sleep instead of spinning).");

  DrapeOptions drape;
  CLI::App* drapeCommand =
      app.add_subcommand("drape", "Simulate a drape scene headless and write OBJ, PNG and metrics JSON");
  drapeCommand->add_option("scene", drape.scenePath, "Scene JSON file (see scenes/)")->required();
  drapeCommand->add_option("--backend", drape.backend, "Override the scene's backend")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  drapeCommand->add_option("--frames", drape.frames, "Override the number of frames")
      ->check(CLI::Range(0, limits::kMaxFrames));
  drapeCommand->add_option("--out", drape.outDir, "Override the output folder")->check(nonEmpty());
  drapeCommand->add_option("--threads", drape.threads, "CPU backend threads (0 = all cores)")
      ->check(CLI::Range(0, limits::kMaxThreads));
  drapeCommand->add_flag("--quiet,-q", drape.quiet, "Print errors only");
  drapeCommand->add_flag(
      "--measure-penetration", drape.measurePenetration,
      "Add penetration percentiles (all, armpits, crotch) against the exact body mesh to the metrics");
  drapeCommand->footer("Example: hagoromo drape scenes/cloth_on_sphere.json --backend cpu --out /tmp/drape");

  GraspOptions grasp;
  CLI::App* graspCommand = addGraspCommand(app, grasp);

  SkinOptions skin;
  CLI::App* skinCommand = addSkinCommand(app, skin);

  SnowOptions snow;
  CLI::App* snowCommand = addSnowCommand(app, snow);
  SpheresOptions spheres;
  CLI::App* spheresCommand = addSpheresCommand(app, spheres);

  app.add_subcommand("info", "Create a headless OpenGL context and print the driver");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;  // --help / --version are not errors
  }
  try {
    if (drapeCommand->parsed()) return runDrape(drape);
    if (graspCommand->parsed()) return runGrasp(grasp);
    if (skinCommand->parsed()) return runSkin(skin);
    if (snowCommand->parsed()) return runSnow(snow);
    if (spheresCommand->parsed()) return runSpheres(spheres);
    return runInfo();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "hagoromo: error: out of memory (nothing written)\n");
    return kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hagoromo: error: internal error: %s (nothing written; please report it)\n", e.what());
    return kExitInternal;
  }
}
