#pragma once
/// `hagoromo spheres [MESH] [--builtin bottle|torus|sphere|mannequin] [--levels 64,128,256]
/// [--out DIR] [--width W] [--height H] [--quiet]`: builds the sphere trees of a watertight
/// mesh (docs/methods.md section 6; sim/spheretree/SphereTree.h) at each voxel resolution and
/// writes, each file atomically, into DIR (default out/spheres/<mesh name>):
///   spheres.png    the mesh, then the filled spheres of each level, side by side, same
///                  camera (spheres coloured by size: largest warm, one-voxel ones blue)
///   spheres.json   per level: voxel size, the spheres [x, y, z, r] (m) and the octree's
///                  nodes [x, y, z, r, first child, child count, leaf sphere or -1, depth]
///   report.json    per level: inside voxels, spheres (and per digital radius), union
///                  volume against the mesh's, octree depth and nodes, fill and build times
/// and prints a table. MESH is any format assimp reads (welded by position); it must be
/// watertight (an error names the file and the first open edge otherwise).
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace hg::app {

struct SpheresOptions {
  std::string meshPath;  ///< a mesh file, or empty with `builtin`
  std::string builtin;   ///< bottle (12,090 triangles, like the source's), torus, sphere, mannequin
  std::vector<int> levels{64, 128, 256};
  std::string outDir;             ///< default out/spheres/<name>
  int width = 480, height = 640;  ///< one panel of spheres.png, pixels
  bool quiet = false;
};

/// Adds the `spheres` subcommand to `app`, bound to `options`.
CLI::App* addSpheresCommand(CLI::App& app, SpheresOptions& options);

/// Runs it; returns an exit code of apps/common/ExitCodes.h.
int runSpheres(const SpheresOptions& options);

}  // namespace hg::app
