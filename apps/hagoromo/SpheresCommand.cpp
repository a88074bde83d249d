#include "apps/hagoromo/SpheresCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "apps/common/CliChecks.h"
#include "apps/common/ExitCodes.h"
#include "apps/common/OutputSet.h"
#include "apps/common/Progress.h"
#include "gl/HeadlessContext.h"
#include "render/Image.h"
#include "render/MeshRenderer.h"
#include "render/OffscreenTarget.h"
#include "sim/body/Mannequin.h"
#include "sim/geometry/MeshTopology.h"
#include "sim/io/MeshImport.h"
#include "sim/spheretree/SphereTree.h"

namespace hg::app {
namespace {

namespace fs = std::filesystem;

/// Volume enclosed by a closed, outward-oriented mesh (divergence theorem), m^3.
double enclosedVolume(const TriangleMesh& mesh) {
  double six = 0.0;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const glm::dvec3 a(mesh.positions[mesh.indices[t]]), b(mesh.positions[mesh.indices[t + 1]]),
        c(mesh.positions[mesh.indices[t + 2]]);
    six += glm::dot(a, glm::cross(b, c));
  }
  return six / 6.0;
}

Result<TriangleMesh> builtinMesh(const std::string& name) {
  if (name == "bottle") return makeBottle({0.0f, 0.0f, 0.0f}, 0.3f);
  if (name == "torus") return makeTorus({0.0f, 0.0f, 0.0f}, 0.4f, 0.15f, 48, 24);
  if (name == "sphere") return makeIcosphere({0.0f, 0.0f, 0.0f}, 0.5f, 4);
  if (name == "mannequin") {
    auto body = buildMannequin(MannequinParams{});
    if (!body) return body.error();
    return body->mesh;
  }
  return Error{"--builtin: unknown shape '" + name + "' (bottle, torus, sphere or mannequin)"};
}

/// The leaf spheres as meshes, one per size class (colour): digital radius 0, 1-2, 3-7, 8+.
std::vector<TriangleMesh> sphereMeshes(const SphereTree& tree) {
  std::vector<TriangleMesh> classes(4);
  const float voxel = tree.voxel() > 0.0f ? tree.voxel() : 1.0f;
  for (const glm::vec4& s : tree.spheres()) {
    const int r = int(std::lround(s.w / voxel - 0.5f));
    const std::size_t c = r == 0 ? 0 : r <= 2 ? 1 : r <= 7 ? 2 : 3;
    appendMesh(classes[c], makeIcosphere(glm::vec3(s), s.w, r == 0 ? 0 : r <= 7 ? 1 : 2));
  }
  for (TriangleMesh& m : classes)
    if (!m.positions.empty()) computeVertexNormals(m);
  return classes;
}

/// Panels side by side into one image.
Image sideBySide(const std::vector<Image>& panels) {
  Image out;
  for (const Image& p : panels) {
    out.width += p.width;
    out.height = std::max(out.height, p.height);
  }
  out.rgba.assign(std::size_t(out.width) * std::size_t(out.height) * 4, 255);
  int x0 = 0;
  for (const Image& p : panels) {
    for (int y = 0; y < p.height; ++y) std::copy_n(p.pixel(0, y), std::size_t(p.width) * 4, out.pixel(x0, y));
    x0 += p.width;
  }
  return out;
}

/// The mesh to fill: a file (welded by position) or a built-in shape, closed, with
/// normals; `what` names it in messages, `volume` is what it encloses (m^3).
Result<TriangleMesh> loadSpheresMesh(const SpheresOptions& options, const std::string& what, double& volume) {
  auto loaded = options.meshPath.empty() ? builtinMesh(options.builtin) : importWeldedMesh(options.meshPath);
  if (!loaded) return loaded.error();
  TriangleMesh mesh = std::move(loaded).value();
  if (Status s = checkWatertight(mesh); !s)
    return s.error().prefixed(what + ": not a closed surface, so it bounds no solid to fill: ");
  if (mesh.normals.size() != mesh.positions.size()) computeVertexNormals(mesh);
  volume = enclosedVolume(mesh);
  if (!(volume > 0.0)) return Error{what + ": encloses no positive volume (inward-facing triangles?)"};
  return mesh;
}

/// One resolution's sphere tree and what it took.
struct Level {
  int resolution = 0;
  SphereFillStats stats;
  SphereTree tree;
  double fillSeconds = 0.0, octreeSeconds = 0.0, unionVolume = 0.0;
};

/// The sphere tree of `mesh` at `resolution` voxels along its longest side.
Result<Level> buildLevel(const TriangleMesh& mesh, int resolution, const std::string& what) {
  const auto t0 = Clock::now();
  auto solid = voxelizeSolid(mesh, resolution);
  if (!solid) return solid.error().prefixed(what + ": ");
  Level level;
  level.resolution = resolution;
  std::vector<glm::vec4> spheres = fillSpheres(*solid, &level.stats);
  if (spheres.empty())
    return Error{what + ": no voxel centre lies inside the mesh at " + std::to_string(resolution) +
                 " voxels (too thin; raise --levels)"};
  const auto t1 = Clock::now();
  auto tree = SphereTree::build(std::move(spheres), solid->voxel);
  if (!tree) return tree.error().prefixed(what + ": ");
  const auto t2 = Clock::now();
  level.tree = std::move(tree).value();
  level.fillSeconds = seconds(t0, t1);
  level.octreeSeconds = seconds(t1, t2);
  level.unionVolume = sphereUnionVolume(level.tree.spheres(), std::clamp(6 * resolution, 512, 1536));
  return level;
}

/// A sphere tree per resolution of --levels, `progress` counting them.
Result<std::vector<Level>> buildLevels(const TriangleMesh& mesh, const SpheresOptions& options, const std::string& what,
                                       Progress& progress) {
  std::vector<Level> levels;
  for (int resolution : options.levels) {
    auto level = buildLevel(mesh, resolution, what);
    if (!level) return level.error();
    levels.push_back(std::move(level).value());
    progress.update(long(levels.size()));
  }
  return levels;
}

/// The mesh, then each level's spheres, from one camera, side by side.
Result<Image> renderLevels(const TriangleMesh& mesh, const std::vector<Level>& levels, const SpheresOptions& options) {
  auto renderer = MeshRenderer::create(renderShaders());
  if (!renderer) return renderer.error();
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  OrbitCamera camera;
  camera.azimuth = 0.5f;
  camera.elevation = 0.35f;
  camera.frame(0.5f * (lo + hi), 0.5f * glm::length(hi - lo));
  std::vector<Image> panels;
  {
    const DrawItem item{&mesh, glm::vec3(0.75f, 0.72f, 0.68f), glm::vec3(0.4f), false};
    OffscreenTarget target(options.width, options.height);
    target.bind();
    renderer->draw(std::span<const DrawItem>(&item, 1), camera, options.width, options.height);
    panels.push_back(target.read());
  }
  const glm::vec3 kColours[] = {
      {0.20f, 0.40f, 0.85f}, {0.25f, 0.70f, 0.55f}, {0.90f, 0.70f, 0.20f}, {0.85f, 0.30f, 0.20f}};
  for (const Level& level : levels) {
    const std::vector<TriangleMesh> classes = sphereMeshes(level.tree);
    std::vector<DrawItem> items;
    for (std::size_t c = 0; c < classes.size(); ++c)
      if (!classes[c].positions.empty()) items.push_back({&classes[c], kColours[c], 0.5f * kColours[c], false});
    OffscreenTarget target(options.width, options.height);
    target.bind();
    renderer->draw(items, camera, options.width, options.height);
    panels.push_back(target.read());
  }
  return sideBySide(panels);
}

/// spheres.json: per level the voxel, the spheres [x, y, z, r] and the octree's nodes.
nlohmann::json spheresJson(const std::vector<Level>& levels, const std::string& what) {
  nlohmann::json out = {{"mesh", what}, {"levels", nlohmann::json::array()}};
  for (const Level& level : levels) {
    nlohmann::json spheres = nlohmann::json::array(), nodes = nlohmann::json::array();
    for (const glm::vec4& s : level.tree.spheres()) spheres.push_back({s.x, s.y, s.z, s.w});
    for (const kernels::SphereTreeNode& n : level.tree.nodes())
      nodes.push_back({n.sphere.x, n.sphere.y, n.sphere.z, n.sphere.w, n.links.x, n.links.y,
                       n.links.z == HG_SPHERE_TREE_INNER ? -1 : std::int64_t(n.links.z), n.links.w});
    out["levels"].push_back(
        {{"resolution", level.resolution}, {"voxel_m", level.tree.voxel()}, {"spheres", spheres}, {"nodes", nodes}});
  }
  return out;
}

/// report.json: the mesh, and per level the fill's and the octree's statistics.
nlohmann::json spheresReport(const std::vector<Level>& levels, const std::string& what, const TriangleMesh& mesh,
                             double meshVolume, const std::string& device) {
  nlohmann::json report = {{"mesh", what},
                           {"triangles", mesh.indices.size() / 3},
                           {"mesh_volume_m3", meshVolume},
                           {"device", device},
                           {"levels", nlohmann::json::array()}};
  for (const Level& level : levels)
    report["levels"].push_back({{"resolution", level.resolution},
                                {"voxel_m", level.tree.voxel()},
                                {"inside_voxels", level.stats.insideVoxels},
                                {"spheres", level.tree.spheres().size()},
                                {"spheres_per_digital_radius", level.stats.spheresPerRadius},
                                {"largest_digital_radius", level.stats.largestRadius},
                                {"michener_tests", level.stats.candidatesTested},
                                {"union_volume_m3", level.unionVolume},
                                {"union_over_mesh_volume", level.unionVolume / meshVolume},
                                {"octree_nodes", level.tree.nodes().size()},
                                {"octree_depth", level.tree.depth()},
                                {"voxelize_and_fill_s", level.fillSeconds},
                                {"octree_s", level.octreeSeconds}});
  return report;
}

void printSpheresTable(const std::vector<Level>& levels, const std::string& what, const TriangleMesh& mesh,
                       double meshVolume, const fs::path& outDir) {
  std::printf("%s: %zu triangles, volume %.6g m^3\n", what.c_str(), mesh.indices.size() / 3, meshVolume);
  std::printf("%10s %10s %12s %10s %8s %8s %10s %10s\n", "level", "voxel_mm", "inside_vox", "spheres", "union/V",
              "depth", "fill_s", "octree_s");
  for (const Level& level : levels)
    std::printf("%10d %10.3f %12zu %10zu %8.4f %8d %10.3f %10.4f\n", level.resolution,
                1000.0 * double(level.tree.voxel()), level.stats.insideVoxels, level.tree.spheres().size(),
                level.unionVolume / meshVolume, level.tree.depth(), level.fillSeconds, level.octreeSeconds);
  std::printf("wrote %s (spheres.png, spheres.json, report.json)\n", outDir.string().c_str());
}

}  // namespace

CLI::App* addSpheresCommand(CLI::App& app, SpheresOptions& options) {
  CLI::App* command = app.add_subcommand(
      "spheres",
      "Sphere trees of a watertight mesh (voxelize, fill with spheres, octree) at several resolutions; "
      "writes PNG and JSON");
  command->add_option("mesh", options.meshPath, "Watertight mesh file (OBJ or any format assimp reads)");
  command->add_option("--builtin", options.builtin, "Built-in shape instead of a file")
      ->check(CLI::IsMember({"bottle", "torus", "sphere", "mannequin"}));
  command->add_option("--levels", options.levels, "Voxels along the longest side, one tree per value (8..512)")
      ->delimiter(',')
      ->check(CLI::Range(8, 512));
  command->add_option("--out", options.outDir, "Output folder (default out/spheres/<name>)")->check(nonEmpty());
  command->add_option("--width", options.width, "Panel width, pixels")->check(CLI::Range(64, 4096));
  command->add_option("--height", options.height, "Panel height, pixels")->check(CLI::Range(64, 4096));
  command->add_flag("--quiet,-q", options.quiet, "Print errors only");
  command->footer("Example: hagoromo spheres --builtin bottle --levels 64,128,256 --out /tmp/spheres");
  return command;
}

int runSpheres(const SpheresOptions& options) {
  if (options.meshPath.empty() == options.builtin.empty())
    return failUsage("spheres: give either a mesh file or --builtin NAME");
  if (options.levels.empty()) return failUsage("spheres: --levels needs at least one resolution");
  const std::string what = options.meshPath.empty() ? "builtin " + options.builtin : options.meshPath;
  double meshVolume = 0.0;
  auto mesh = loadSpheresMesh(options, what, meshVolume);
  if (!mesh) return fail(mesh.error());
  const std::string name = options.meshPath.empty() ? options.builtin : fs::path(options.meshPath).stem().string();
  const fs::path outDir = options.outDir.empty() ? fs::path("out") / "spheres" / name : fs::path(options.outDir);

  auto context = gl::HeadlessContext::create();
  if (!context) return fail(context.error());
  if (!options.quiet) std::printf("OpenGL: %s\n", (*context)->description().c_str());
  Progress progress("spheres " + name, long(options.levels.size()), !options.quiet && isatty(STDERR_FILENO));
  auto levels = buildLevels(*mesh, options, what, progress);
  if (!levels) return fail(levels.error());
  progress.finish();
  auto picture = renderLevels(*mesh, *levels, options);
  if (!picture) return fail(picture.error());

  // Outputs, staged and moved into place together after everything succeeded.
  const nlohmann::json spheres = spheresJson(*levels, what);
  const nlohmann::json report = spheresReport(*levels, what, *mesh, meshVolume, (*context)->renderer());
  OutputSet outputs(outDir);
  if (Status s = outputs.write("spheres.png", [&](const fs::path& p) { return writePng(*picture, p); }); !s)
    return fail(s.error());
  if (Status s = outputs.writeText("spheres.json", spheres.dump() + "\n"); !s) return fail(s.error());
  if (Status s = outputs.writeText("report.json", report.dump(2) + "\n"); !s) return fail(s.error());
  if (Status s = outputs.commit(); !s) return fail(s.error());
  if (!options.quiet) printSpheresTable(*levels, what, *mesh, meshVolume, outDir);
  return kExitOk;
}

}  // namespace hg::app
