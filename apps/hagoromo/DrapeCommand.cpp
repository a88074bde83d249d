#include "apps/hagoromo/DrapeCommand.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "apps/hagoromo/DrapeReport.h"
#include "gl/HeadlessContext.h"
#include "render/DepthViewPicture.h"
#include "render/DrapeSceneView.h"
#include "render/Image.h"
#include "render/MeshRenderer.h"
#include "render/OffscreenTarget.h"
#include "sim/core/Limits.h"
#include "sim/garment/GarmentColors.h"
#include "sim/gpu/GpuClothSolver.h"
#include "sim/gpu/GpuDepthViewRenderer.h"
#include "sim/gpu/GpuRadar.h"
#include "sim/io/MeshExport.h"
#include "sim/io/SceneOverrides.h"
#include "sim/motion/CharacterIO.h"
#include "sim/scene/DrapeScene.h"
#include "sim/scene/PreparedDrape.h"

namespace hg::app {
namespace {

namespace fs = std::filesystem;

/// With an avatar, the drape's shape every kSnapshotEvery frames (and the last) goes into
/// the .glb as shape keys of the garment (sim/motion/CharacterIO.h).
constexpr int kSnapshotEvery = 15;

/// What a run keeps in memory until the end: every output is written then, so an
/// unstable run writes nothing.
struct DrapeFrames {
  ClothState state;                    ///< the last frame's
  std::optional<RelaxReport> relaxed;  ///< with solver.until_rest
  NamedMeshSequence snapshots;         ///< with an avatar: the shape keys of the .glb
  /// Per-frame OBJs (output.obj_every): frame number and the cloth's positions.
  std::vector<std::pair<int, std::vector<glm::vec3>>> shapes;
  /// With --measure-intersections-every N: the intersection counts every N frames.
  nlohmann::json intersectionsByFrame = nlohmann::json::array();
};

/// The pictures of the final state and the view that drew them (its cloth mesh is exported).
struct DrapePictures {
  DrapeSceneView view;
  std::vector<std::pair<std::string, Image>> images;  ///< file name, picture
};

std::vector<glm::vec3> positionsOf(const ClothState& state) {
  std::vector<glm::vec3> p(state.positions.size());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = glm::vec3(state.positions[i]);
  return p;
}

void addSnapshot(NamedMeshSequence& snapshots, int frame, const ClothState& state, float frameDt) {
  snapshots.times.push_back(float(frame) * frameDt);
  snapshots.positions.push_back(positionsOf(state));
}

/// The scene with the command line's overrides; a bad --backend or --frames is a
/// command-line error (exit 1).
Result<DrapeScene> loadDrape(const DrapeOptions& options) {
  auto overrides = parseSceneOverrides(options.sets);
  if (!overrides) return overrides.error();
  auto loaded = loadDrapeScene(options.scenePath, *overrides);
  if (!loaded) return loaded.error();
  DrapeScene scene = std::move(loaded).value();
  if (!options.backend.empty()) {
    auto backend = parseBackend(options.backend);
    if (!backend) return Error{"--backend: " + backend.error().message, ErrorKind::CommandLine};
    scene.backend = *backend;
  }
  if (options.frames >= 0) {
    scene.frames = options.frames;
    if (Status s = checkRunSize(scene, "--frames"); !s) return s.error().as(ErrorKind::CommandLine);
  }
  if (!options.outDir.empty()) scene.outputDirectory = options.outDir;
  if (options.threads >= 0) scene.settings.threads = options.threads;
  return scene;
}

ClothSolverFactory solverFactory(Backend backend) {
  return [backend](std::shared_ptr<const ClothModel> model, const ClothSettings& settings) {
    return createClothSolver(backend, std::move(model), settings);
  };
}

/// The avatar, its collider and the cloth or the sewn garments (sim/scene/PreparedDrape.h),
/// with a progress bar while sewing. Seams that do not close or a failed weld are
/// simulation failures (ErrorKind::Simulation); a pattern, mesh or placement error comes
/// from the scene's measurements and options.
Result<PreparedDrape> prepareDrape(const DrapeScene& scene, const DrapeOptions& options) {
  if (!options.quiet && scene.avatar) std::printf("building the avatar and its collider ...\n");
  const bool tty = !options.quiet && isatty(STDERR_FILENO);
  std::optional<Progress> sewing;
  if (!scene.garments.empty())
    sewing.emplace("sew " + std::to_string(scene.garments.size()) + " garment(s)", scene.dressing.maxSewingFrames, tty);
  auto prepared = PreparedDrape::prepare(scene, solverFactory(scene.backend), [&](int frame, float gap) {
    char note[64];
    std::snprintf(note, sizeof note, " seam gap %6.1f mm", double(gap) * 1000.0);
    sewing->update(frame, note);
  });
  if (sewing) sewing->finish();
  if (!prepared) return prepared.error().prefixed(options.scenePath + ": ");
  if (const SceneBody* body = prepared->body())
    for (const std::string& warning : body->warnings) std::fprintf(stderr, "hagoromo: warning: %s\n", warning.c_str());
  if (!options.quiet) printPreparedDrape(scene, *prepared);
  return prepared;
}

/// The run's solver in the start state, and the GPU's help where it is faster.
Status setUpSolver(PreparedDrape& drape, const DrapeScene& scene, const DrapeOptions& options,
                   const gl::HeadlessContext& context) {
  if (Status s = drape.createSolver(solverFactory(scene.backend)); !s)
    return s.error().prefixed(options.scenePath + ": ");
  // A moving body seen through depth views is rendered every frame: by the GPU (its buffers
  // bound by the GPU solver, read back for the CPU one), or, on a software rasterizer
  // (llvmpipe), by the CPU reference rasterizer, which is 3-9x faster there
  // (bench/RESULTS.md, hg_contact_bench).
  if (const SceneBody* body = drape.body(); body && body->animator && body->views && !context.isSoftware())
    drape.setBodyViewRenderer(makeGpuBodyViewRenderer());
  // The radar sweeps of solver.continuous_collision: on the GPU on a hardware driver; on a
  // software rasterizer the CPU reference, 6-10x faster there (bench/RESULTS.md, hg_radar_bench).
  if (drape.sweep() && !context.isSoftware()) {
    auto gpuRadar = makeGpuRadar();
    if (!gpuRadar) return gpuRadar.error().prefixed("continuous collision: ");
    drape.sweep()->setRadar(std::move(gpuRadar).value());
  }
  return Status::success();
}

/// Drapes to rest (solver.until_rest: quasi-static, kinetic damping) within `frames`
/// frames' substeps.
Result<RelaxReport> relaxDrape(const DrapeScene& scene, PreparedDrape& drape, const DrapeOptions& options,
                               Progress& progress) {
  if (drape.bodyMoves())
    return Error{options.scenePath + ": solver.until_rest and avatar.motion.animate exclude each other"};
  const RelaxReport relaxed = drape.solver().relaxToRest(scene.restSpeed, scene.frames * drape.settings().substeps);
  if (any(relaxed.status)) {
    progress.finish();
    return simulationError(options.scenePath + ": drape to rest: " + describe(relaxed.status) +
                           unstableVertexNote(scene, drape) + "; no output written");
  }
  progress.update(scene.frames);
  return relaxed;
}

/// The scene's frames one by one (pins, the moving body, the step: PreparedDrape::advance),
/// keeping the snapshots and the per-frame shapes.
Status runFrames(const DrapeScene& scene, PreparedDrape& drape, const DrapeOptions& options, Progress& progress,
                 DrapeFrames& run) {
  for (int frame = 1; frame <= scene.frames; ++frame) {
    const Result<StepStatus> advanced = drape.advance();
    if (!advanced) {
      progress.finish();
      return advanced.error().prefixed(options.scenePath + ": ", "; no output written");
    }
    if (any(*advanced)) {
      progress.finish();
      return simulationError(options.scenePath + ": frame " + std::to_string(frame) + ": " + describe(*advanced) +
                             unstableVertexNote(scene, drape) + "; no output written");
    }
    progress.update(frame);
    if (drape.body() && frame % kSnapshotEvery == 0 && frame < scene.frames)
      addSnapshot(run.snapshots, frame, drape.solver().readState(), drape.settings().frameDt);
    if (scene.objEvery > 0 && frame % scene.objEvery == 0)
      run.shapes.emplace_back(frame, positionsOf(drape.solver().readState()));
    if (options.intersectionsEvery > 0 && frame % options.intersectionsEvery == 0) {
      nlohmann::json counts = intersectionsReport(scene, drape, drape.solver().readState());
      counts.erase("method");
      counts["frame"] = frame;
      run.intersectionsByFrame.push_back(std::move(counts));
    }
  }
  return Status::success();
}

Result<DrapeFrames> simulateDrape(const DrapeScene& scene, PreparedDrape& drape, const DrapeOptions& options) {
  DrapeFrames run;
  const float frameDt = drape.settings().frameDt;
  if (drape.body()) addSnapshot(run.snapshots, 0, drape.solver().readState(), frameDt);
  Progress progress("drape " + scene.name + " (" + std::string(backendName(scene.backend)) + ")", scene.frames,
                    !options.quiet && isatty(STDERR_FILENO));
  if (scene.restSpeed > 0.0f) {
    auto relaxed = relaxDrape(scene, drape, options, progress);
    if (!relaxed) return relaxed.error();
    run.relaxed = *relaxed;
  } else if (Status s = runFrames(scene, drape, options, progress, run); !s) {
    return s.error();
  }
  progress.finish();
  run.state = drape.solver().readState();
  // With --frames 0 the start is the only shape.
  if (drape.body() && scene.frames > 0) addSnapshot(run.snapshots, scene.frames, run.state, frameDt);
  return run;
}

/// The overview, and with an avatar the front, side and back views of the garment; with
/// depth views, what the cloth collided with.
Result<DrapePictures> renderDrape(const DrapeScene& scene, const PreparedDrape& drape, const ClothState& state) {
  DrapePictures pictures{DrapeSceneView(*drape.model(), drape.settings(), drape.bodySurface()), {}};
  DrapeSceneView& view = pictures.view;
  view.setPieces(drape.pieceOfVertex());
  view.setSceneProps(drape.props().meshes, scene.boxes.size());
  view.update(state);
  auto renderer = MeshRenderer::create(renderShaders());
  if (!renderer) return renderer.error();
  OffscreenTarget target(scene.imageWidth, scene.imageHeight);
  target.bind();
  auto render = [&](const OrbitCamera& camera, const std::string& suffix) {
    view.draw(*renderer, camera, scene.imageWidth, scene.imageHeight);
    pictures.images.emplace_back(scene.name + suffix + ".png", target.read());
  };
  render(view.defaultCamera(), "");
  const SceneBody* body = drape.body();
  if (body) {
    render(view.viewFrom(0.0f), "_front");
    render(view.viewFrom(0.5f * 3.14159265f), "_side");
    render(view.viewFrom(3.14159265f), "_back");
  }
  // The body's depth views (the last frame's when they stayed on the CPU, else the first
  // pose's), one column per view, a row per layer.
  if (body && body->views) {
    const auto& last = drape.solver().settings().colliders.depthViews;
    pictures.images.emplace_back(scene.name + "_depth_views.png", depthViewsPicture(last ? *last : *body->views));
  }
  return pictures;
}

Status stageMesh(OutputSet& outputs, const TriangleMesh& mesh, const std::string& name) {
  return outputs.write(name, [&](const fs::path& path) { return exportMesh(mesh, path); });
}

/// The boxes and props in one mesh, as placed (world space).
TriangleMesh propsMesh(const SceneProps& props) {
  TriangleMesh all;
  for (const TriangleMesh& m : props.meshes) {
    const auto offset = std::uint32_t(all.positions.size());
    all.positions.insert(all.positions.end(), m.positions.begin(), m.positions.end());
    all.normals.insert(all.normals.end(), m.normals.begin(), m.normals.end());
    for (std::uint32_t i : m.indices) all.indices.push_back(offset + i);
  }
  return all;
}

/// One garment of the cloth (or the whole cloth without garments), for the outputs that
/// keep garments apart: its triangles (each in its first vertex's piece) re-indexed, and
/// per local vertex its index in the cloth.
struct ClothPiece {
  std::string name;
  glm::vec3 color{0.8f};
  TriangleMesh mesh;
  std::vector<std::uint32_t> clothVertex;
};

/// `cloth` split by the drape's pieces (PreparedDrape::pieceOfVertex), named and coloured
/// as the metrics and the pictures name and colour them.
std::vector<ClothPiece> clothPieces(const DrapeScene& scene, const PreparedDrape& drape, const TriangleMesh& cloth) {
  const std::vector<std::uint32_t>& pieceOfVertex = drape.pieceOfVertex();
  const std::size_t count = pieceCount(pieceOfVertex);
  const std::vector<std::string> names = pieceNames(scene, count);
  const auto pieceOf = [&](std::uint32_t v) { return pieceOfVertex.empty() ? std::size_t(0) : pieceOfVertex[v]; };
  std::vector<ClothPiece> pieces(count);
  std::vector<std::uint32_t> local(cloth.positions.size());
  for (std::size_t p = 0; p < count; ++p) {
    pieces[p].name = names[p];
    pieces[p].color = garmentColor(p);
  }
  for (std::uint32_t v = 0; v < cloth.positions.size(); ++v) {
    ClothPiece& piece = pieces[pieceOf(v)];
    local[v] = std::uint32_t(piece.clothVertex.size());
    piece.clothVertex.push_back(v);
    piece.mesh.positions.push_back(cloth.positions[v]);
    if (cloth.normals.size() == cloth.positions.size()) piece.mesh.normals.push_back(cloth.normals[v]);
    if (cloth.uvs.size() == cloth.positions.size()) piece.mesh.uvs.push_back(cloth.uvs[v]);
  }
  for (std::size_t i = 0; i < cloth.indices.size(); ++i)
    pieces[pieceOf(cloth.indices[i - i % 3])].mesh.indices.push_back(local[cloth.indices[i]]);
  return pieces;
}

/// The pieces with the cloth positions `positions` (all the cloth's vertices), normals
/// recomputed, as OBJ objects.
std::vector<ObjObject> objObjects(const std::vector<ClothPiece>& pieces, const std::vector<glm::vec3>* positions) {
  std::vector<ObjObject> objects;
  for (const ClothPiece& piece : pieces) {
    ObjObject o{piece.name, piece.mesh, piece.color};
    if (positions) {
      for (std::size_t v = 0; v < piece.clothVertex.size(); ++v)
        o.mesh.positions[v] = (*positions)[piece.clothVertex[v]];
      computeVertexNormals(o.mesh);
    }
    objects.push_back(std::move(o));
  }
  return objects;
}

/// Stages `<scene><suffix>.obj`: one object per garment, its material in `<scene>.mtl`.
Status stageGarmentObj(OutputSet& outputs, const DrapeScene& scene, const std::vector<ObjObject>& objects,
                       const std::string& suffix) {
  auto text = objectsAsObj(objects, scene.name + ".mtl");
  if (!text) return outputError("cannot write " + scene.name + suffix + ".obj: " + text.error().message);
  if (Status s = outputs.writeText(scene.name + suffix + ".obj", text->obj); !s) return s;
  return outputs.writeText(scene.name + ".mtl", text->mtl);
}

/// The OBJs: the garments (one object each, with their .mtl), the body, the props, the
/// per-frame shapes.
Status stageMeshes(OutputSet& outputs, const DrapeScene& scene, const PreparedDrape& drape, const DrapeFrames& run,
                   const std::vector<ClothPiece>& pieces) {
  if (Status s = stageGarmentObj(outputs, scene, objObjects(pieces, nullptr), ""); !s) return s;
  if (const TriangleMesh* body = drape.bodySurface())
    if (Status s = stageMesh(outputs, *body, scene.name + "_body.obj"); !s) return s;
  if (!drape.props().meshes.empty())
    if (Status s = stageMesh(outputs, propsMesh(drape.props()), scene.name + "_props.obj"); !s) return s;
  for (const auto& [frameNumber, positions] : run.shapes) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_frame_%04d", frameNumber);
    if (Status s = stageGarmentObj(outputs, scene, objObjects(pieces, &positions), suffix); !s) return s;
  }
  return Status::success();
}

/// The .glb's garments: the snapshots of the whole cloth split into one shape-key sequence
/// per garment.
std::vector<NamedMeshSequence> garmentSequences(const std::vector<ClothPiece>& pieces,
                                                const NamedMeshSequence& snapshots) {
  std::vector<NamedMeshSequence> garments;
  for (const ClothPiece& piece : pieces) {
    NamedMeshSequence g{piece.name, piece.mesh, snapshots.times, {}, piece.color};
    for (const std::vector<glm::vec3>& frame : snapshots.positions) {
      std::vector<glm::vec3>& positions = g.positions.emplace_back();
      for (std::uint32_t v : piece.clothVertex) positions.push_back(frame[v]);
    }
    garments.push_back(std::move(g));
  }
  return garments;
}

/// Every file but the metrics: the OBJs, with an avatar the .glb (a moving body with its
/// clip, rest the T-pose; a still one in its pose), the pictures.
Status stageFiles(OutputSet& outputs, const DrapeScene& scene, const PreparedDrape& drape, DrapeFrames& run,
                  const DrapePictures& pictures) {
  const std::vector<ClothPiece> pieces = clothPieces(scene, drape, pictures.view.clothMesh());
  if (Status s = stageMeshes(outputs, scene, drape, run, pieces); !s) return s;
  if (const SceneBody* body = drape.body()) {
    const std::vector<NamedMeshSequence> garments = garmentSequences(pieces, run.snapshots);
    const Status s = outputs.write(scene.name + ".glb", [&](const fs::path& path) {
      return body->animator ? exportAnimatedGltf(path, body->animator->rest(), {body->animator->clip()}, garments)
                            : exportAnimatedGltf(path, body->avatar, {}, garments);
    });
    if (!s) return s;
  }
  for (const auto& [name, image] : pictures.images)
    if (Status s = outputs.write(name, [&](const fs::path& path) { return writePng(image, path); }); !s) return s;
  return Status::success();
}

/// Prints each failed gate; kExitQualityGate when one failed (unless --no-gates), else 0.
int failedGates(const std::vector<QualityGate>& gates, bool noGates) {
  bool failed = false;
  for (const QualityGate& g : gates) {
    if (g.passed) continue;
    failed = true;
    std::fprintf(stderr, "hagoromo: %s: quality gate '%s' failed: %g %s %g (outputs written for inspection)\n",
                 noGates ? "warning" : "error", g.name.c_str(), g.value, g.atMost ? ">" : "<", g.limit);
  }
  return failed && !noGates ? kExitQualityGate : kExitOk;
}

/// Stages every output, then the metrics, and moves them into place together
/// (apps/common/OutputSet.h); prints the summary.
int writeDrape(const DrapeOutcome& outcome, DrapeFrames& run, const DrapePictures& pictures) {
  OutputSet outputs(outcome.scene.outputDirectory);
  if (Status s = stageFiles(outputs, outcome.scene, outcome.drape, run, pictures); !s) return fail(s.error());
  std::optional<ExactDistances> exact;
  if (const TriangleMesh* body = outcome.drape.bodySurface()) exact = exactDistances(run.state, *body);
  nlohmann::json metrics = drapeMetrics(outcome, outputs.finalPathStrings(), exact ? &*exact : nullptr);
  if (outcome.options.intersectionsEvery > 0) metrics["intersections_by_frame"] = run.intersectionsByFrame;
  const std::vector<QualityGate> gates = evaluateQualityGates(qualityMeasures(outcome, metrics), outcome.scene.gates);
  metrics["quality_gates"] = gatesReport(gates, !outcome.options.noGates);
  metrics["largest_strain"] = largestStrainReport(outcome);
  if (exact && outcome.options.measurePenetration && !outcome.options.quiet) printPenetration(outcome.drape, *exact);
  if (Status s = outputs.writeText(outcome.scene.name + ".json", metrics.dump(2) + "\n"); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!outcome.options.quiet) printDrapeSummary(outcome, outputs);
  const int exitCode = failedGates(gates, outcome.options.noGates);
  const bool strainFailed = std::any_of(gates.begin(), gates.end(), [](const QualityGate& g) {
    return (g.name == "strain" || g.name == "compression") && !g.passed;
  });
  if (const auto strain = metrics["largest_strain"]; strainFailed && strain.is_object())
    std::fprintf(stderr,
                 "hagoromo: largest strain (%s) in '%s', vertices %u-%u, midpoint %s m (metrics: largest_strain)\n",
                 strain["kind"].get<std::string>().c_str(), strain["piece"].get<std::string>().c_str(),
                 strain["vertices"][0].get<unsigned>(), strain["vertices"][1].get<unsigned>(),
                 strain["midpoint_m"].dump().c_str());
  return exitCode;
}

}  // namespace

CLI::App* addDrapeCommand(CLI::App& app, DrapeOptions& options) {
  CLI::App* command =
      app.add_subcommand("drape", "Simulate a drape scene headless and write OBJ, PNG and metrics JSON");
  command->add_option("scene", options.scenePath, "Scene JSON file (see scenes/)")->required();
  command
      ->add_option("--set", options.sets,
                   "Override a key of the scene file before it is read: KEY=VALUE, KEY a dotted path (cloth.fabric, "
                   "garments.0.size), VALUE JSON or text; repeatable")
      ->type_name("KEY=VALUE");
  command->add_option("--backend", options.backend, "Override the scene's backend")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  command->add_option("--frames", options.frames, "Override the number of frames")
      ->check(CLI::Range(0, limits::kMaxFrames));
  command->add_option("--out", options.outDir, "Override the output folder")->check(nonEmpty());
  command->add_option("--threads", options.threads, "CPU backend threads (0 = all cores)")
      ->check(CLI::Range(0, limits::kMaxThreads));
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->add_flag("--measure-penetration", options.measurePenetration,
                    "Add penetration percentiles (all, armpits, crotch) against the exact body mesh to the metrics");
  command->add_flag("--measure-intersections", options.measureIntersections,
                    "Add exact intersecting triangle pairs (within and between garments, cloth vs body) to the "
                    "metrics (always there for garments)");
  command
      ->add_option("--measure-intersections-every", options.intersectionsEvery,
                   "Also count the exact intersecting triangle pairs every N frames (metrics: "
                   "intersections_by_frame)")
      ->check(CLI::Range(1, limits::kMaxFrames));
  command->add_flag(
      "--no-gates", options.noGates,
      "Report the quality gates (intersections, vertices inside the body, stretch, compression, collapse) in the "
      "metrics without failing the run (exit 6) when one fails");
  command->footer("Example: hagoromo drape scenes/cloth_on_sphere.json --backend cpu --out /tmp/drape");
  return command;
}

int runDrape(const DrapeOptions& options) {
  const auto tStart = Clock::now();
  auto scene = loadDrape(options);
  if (!scene) return fail(scene.error());
  // A context is needed for the GPU backend and for the PNG render in any case.
  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) std::printf("OpenGL: %s\n", (*context)->description().c_str());
  auto drape = prepareDrape(*scene, options);
  if (!drape) return fail(drape.error());
  const auto tPrepared = Clock::now();
  if (Status s = setUpSolver(*drape, *scene, options, **context); !s) return fail(s.error());
  const auto tSetup = Clock::now();
  auto run = simulateDrape(*scene, *drape, options);
  if (!run) return fail(run.error());
  const auto tSimulated = Clock::now();
  auto pictures = renderDrape(*scene, *drape, run->state);
  if (!pictures) return fail(pictures.error());
  const auto tRendered = Clock::now();
  const DrapeOutcome outcome{options,
                             *scene,
                             *drape,
                             run->state,
                             run->relaxed,
                             (*context)->description(),
                             {seconds(tStart, tPrepared), seconds(tPrepared, tSetup), seconds(tSetup, tSimulated),
                              seconds(tSimulated, tRendered)}};
  return writeDrape(outcome, *run, *pictures);
}

}  // namespace hg::app
