#pragma once
/// Procedural props and grounds of the snow scenes (docs/methods.md section 5; the scene files
/// of sim/snow/SnowSceneJson.h): closed solids (watertight, counter-clockwise seen from
/// outside, so signedVolume > 0) that the snow falls on, a flat ground and a hilly
/// terrain. y is up; units: metres. GL-free.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"

namespace hg {

/// Closed vertical cylinder standing on `base` (the bottom cap's centre), `radius` and
/// `height` m, `segments` (>= 3) around: two rings plus a centre vertex per cap.
TriangleMesh makeVerticalCylinder(glm::vec3 base, float radius, float height, int segments);

/// Closed vertical cone standing on `base` (the bottom disc's centre): `radius` m at the
/// base, apex `height` m above; `segments` (>= 3) around.
TriangleMesh makeCone(glm::vec3 base, float radius, float height, int segments);

/// A conifer `height` m tall standing on `base`, crown `radius` m: a trunk cylinder
/// (radius 0.1 x radius, to 0.3 x height) and two stacked cones (the lower from 0.25 to
/// 0.75 x height of the full radius, the upper from 0.5 x height to the top, 0.7 x
/// radius). Three closed parts, overlapping (each watertight; the union is closed by its
/// indices, not a boolean union).
TriangleMesh makeSnowTree(glm::vec3 base, float height, float radius, int segments = 12);

/// A house: box walls over [min, max] (x, z) from y to y + wallHeight, and a gable roof
/// prism on top, its ridge (roofHeight m above the wall tops) along the longer
/// horizontal side, overhanging the walls by `eaves` m on every side. Two closed parts
/// (the roof's underside lies on the walls' top).
struct GableHouse {
  glm::vec2 min{0.0f}, max{1.0f};  ///< m, footprint (x, z)
  float wallHeight = 2.5f;         ///< m
  float roofHeight = 1.5f;         ///< m, ridge above the wall tops
  float y = 0.0f;                  ///< m, the walls' base
  float eaves = 0.2f;              ///< m, roof overhang on every side
};
TriangleMesh makeGableRoofHouse(const GableHouse& house);

/// A flat ground [min, max] (x, z) at height y: two triangles facing up.
TriangleMesh makeGroundPlane(glm::vec2 min, glm::vec2 max, float y);

/// A procedural terrain: a smooth sum of cosine-bump hills plus value noise.
struct TerrainHill {
  glm::vec2 centre{0.0f};  ///< m (x, z)
  float radius = 1.0f;     ///< m, > 0: the bump is 0 from this distance on
  float height = 1.0f;     ///< m (negative: a hollow)
};
struct TerrainSpec {
  glm::vec2 min{0.0f}, max{1.0f};  ///< m, extent (x, z)
  float cell = 0.25f;              ///< m, grid spacing (at most; the extent is split evenly)
  float y = 0.0f;                  ///< m, base height
  std::vector<TerrainHill> hills;
  std::uint32_t seed = 1;   ///< value-noise seed
  float noise = 0.0f;       ///< m, value-noise amplitude (heights in [-noise, noise])
  float noiseScale = 2.0f;  ///< m, value-noise lattice spacing, > 0
};
/// The terrain's height at (x, z): y + sum over hills of height x (1 + cos(pi d /
/// radius)) / 2 for d < radius (d: distance to the centre; slope at most pi height /
/// (2 radius)) + noise x the value noise (smoothstep-interpolated lattice values in
/// [-1, 1]).
float terrainHeight(const TerrainSpec& spec, float x, float z);
/// The terrain as a grid mesh (vertices at terrainHeight, triangles counter-clockwise
/// seen from above, vertex normals). Error for an empty extent, a non-positive cell or
/// noise scale, a hill with a non-positive radius, or over 2^24 vertices.
Result<TriangleMesh> makeTerrain(const TerrainSpec& spec);

}  // namespace hg
