#include "sim/snow/SnowProps.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/common.hpp>
#include <glm/gtc/constants.hpp>

namespace hg {

namespace {

/// `segments` points on the circle of `radius` around `centre` (horizontal), angle
/// 2 pi k / segments from +x toward +z.
void appendRing(TriangleMesh& mesh, glm::vec3 centre, float radius, int segments) {
  for (int k = 0; k < segments; ++k) {
    const float angle = 2.0f * glm::pi<float>() * float(k) / float(segments);
    mesh.positions.push_back(centre + glm::vec3(radius * std::cos(angle), 0.0f, radius * std::sin(angle)));
  }
}

/// 0x9E3779B9-style integer hash of a lattice point and a seed, to [-1, 1].
float latticeValue(int i, int j, std::uint32_t seed) {
  std::uint32_t h = std::uint32_t(i) * 0x8da6b343u ^ std::uint32_t(j) * 0xd8163841u ^ seed * 0xcb1ab31fu;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return float(h) / float(0xffffffffu) * 2.0f - 1.0f;
}

float smoothstep01(float t) { return t * t * (3.0f - 2.0f * t); }

}  // namespace

TriangleMesh makeVerticalCylinder(glm::vec3 base, float radius, float height, int segments) {
  segments = std::max(segments, 3);
  TriangleMesh mesh;
  mesh.positions.push_back(base);                                  // 0: bottom centre
  mesh.positions.push_back(base + glm::vec3(0.0f, height, 0.0f));  // 1: top centre
  appendRing(mesh, base, radius, segments);                        // 2 ..: bottom ring
  appendRing(mesh, base + glm::vec3(0.0f, height, 0.0f), radius, segments);
  const auto n = std::uint32_t(segments);
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t k1 = (k + 1) % n, b0 = 2 + k, b1 = 2 + k1, t0 = 2 + n + k, t1 = 2 + n + k1;
    mesh.indices.insert(mesh.indices.end(), {b0, t0, t1, b0, t1, b1});  // side, outward
    mesh.indices.insert(mesh.indices.end(), {1, t1, t0});               // top cap, up
    mesh.indices.insert(mesh.indices.end(), {0, b0, b1});               // bottom cap, down
  }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh makeCone(glm::vec3 base, float radius, float height, int segments) {
  segments = std::max(segments, 3);
  TriangleMesh mesh;
  mesh.positions.push_back(base);                                  // 0: base centre
  mesh.positions.push_back(base + glm::vec3(0.0f, height, 0.0f));  // 1: apex
  appendRing(mesh, base, radius, segments);
  const auto n = std::uint32_t(segments);
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t b0 = 2 + k, b1 = 2 + (k + 1) % n;
    mesh.indices.insert(mesh.indices.end(), {b0, 1, b1});  // side, outward and up
    mesh.indices.insert(mesh.indices.end(), {0, b0, b1});  // base, down
  }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh makeSnowTree(glm::vec3 base, float height, float radius, int segments) {
  TriangleMesh tree = makeVerticalCylinder(base, 0.1f * radius, 0.3f * height, std::max(segments / 2, 6));
  appendMesh(tree, makeCone(base + glm::vec3(0.0f, 0.25f * height, 0.0f), radius, 0.5f * height, segments));
  appendMesh(tree, makeCone(base + glm::vec3(0.0f, 0.5f * height, 0.0f), 0.7f * radius, 0.5f * height, segments));
  return tree;
}

TriangleMesh makeGableRoofHouse(const GableHouse& house) {
  const glm::vec2 lo = glm::min(house.min, house.max), hi = glm::max(house.min, house.max);
  TriangleMesh mesh = makeBox({lo.x, house.y, lo.y}, {hi.x, house.y + house.wallHeight, hi.y}, 0);
  // The roof prism in a right-handed frame (u along the ridge, y up, v across: u x y . v
  // = 1): u = x, v = z when x is the longer side, else u = z, v = -x.
  const bool alongX = hi.x - lo.x >= hi.y - lo.y;
  const glm::vec3 U = alongX ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
  const glm::vec3 V = alongX ? glm::vec3(0, 0, 1) : glm::vec3(-1, 0, 0);
  const float e = house.eaves;
  const float u0 = (alongX ? lo.x : lo.y) - e, u1 = (alongX ? hi.x : hi.y) + e;
  const float v0 = (alongX ? lo.y : -hi.x) - e, v1 = (alongX ? hi.y : -lo.x) + e;
  const float yb = house.y + house.wallHeight, yt = yb + house.roofHeight, vm = 0.5f * (v0 + v1);
  auto at = [&](float u, float y, float v) { return u * U + v * V + glm::vec3(0.0f, y, 0.0f); };
  TriangleMesh roof;
  // 0 A0 (u0, v0) eave, 1 A1 (u0, v1) eave, 2 R0 ridge at u0; 3 B0, 4 B1, 5 R1 at u1.
  roof.positions = {at(u0, yb, v0), at(u0, yb, v1), at(u0, yt, vm), at(u1, yb, v0), at(u1, yb, v1), at(u1, yt, vm)};
  roof.indices = {0, 1, 2, 3, 5, 4,   // gables (-u, +u)
                  0, 2, 5, 0, 5, 3,   // slope toward -v
                  1, 4, 5, 1, 5, 2,   // slope toward +v
                  0, 3, 4, 0, 4, 1};  // underside (down)
  computeVertexNormals(roof);
  appendMesh(mesh, roof);
  return mesh;
}

TriangleMesh makeGroundPlane(glm::vec2 min, glm::vec2 max, float y) {
  const glm::vec2 lo = glm::min(min, max), hi = glm::max(min, max);
  TriangleMesh mesh;
  mesh.positions = {{lo.x, y, lo.y}, {hi.x, y, lo.y}, {hi.x, y, hi.y}, {lo.x, y, hi.y}};
  mesh.normals.assign(4, glm::vec3(0.0f, 1.0f, 0.0f));
  mesh.indices = {0, 2, 1, 0, 3, 2};  // counter-clockwise seen from above
  return mesh;
}

float terrainHeight(const TerrainSpec& spec, float x, float z) {
  float h = spec.y;
  for (const TerrainHill& hill : spec.hills) {
    const float d = std::hypot(x - hill.centre.x, z - hill.centre.y);
    if (d < hill.radius) h += hill.height * 0.5f * (1.0f + std::cos(glm::pi<float>() * d / hill.radius));
  }
  if (spec.noise != 0.0f) {
    const float gx = x / spec.noiseScale, gz = z / spec.noiseScale;
    const float fx = std::floor(gx), fz = std::floor(gz);
    const int i = int(fx), j = int(fz);
    const float tx = smoothstep01(gx - fx), tz = smoothstep01(gz - fz);
    const float a = latticeValue(i, j, spec.seed), b = latticeValue(i + 1, j, spec.seed);
    const float c = latticeValue(i, j + 1, spec.seed), d = latticeValue(i + 1, j + 1, spec.seed);
    h += spec.noise * ((a + (b - a) * tx) * (1.0f - tz) + (c + (d - c) * tx) * tz);
  }
  return h;
}

Result<TriangleMesh> makeTerrain(const TerrainSpec& spec) {
  const glm::vec2 lo = glm::min(spec.min, spec.max), hi = glm::max(spec.min, spec.max);
  if (!(hi.x > lo.x) || !(hi.y > lo.y)) return Error{"terrain: min and max must span a non-empty area"};
  if (!std::isfinite(spec.cell) || !(spec.cell > 0.0f)) return Error{"terrain: cell must be > 0 m"};
  if (!std::isfinite(spec.noiseScale) || !(spec.noiseScale > 0.0f)) return Error{"terrain: noise_scale must be > 0 m"};
  for (const TerrainHill& hill : spec.hills)
    if (!(hill.radius > 0.0f)) return Error{"terrain: a hill's radius must be > 0 m"};
  const double nx = std::ceil(double(hi.x - lo.x) / double(spec.cell)),
               nz = std::ceil(double(hi.y - lo.y) / double(spec.cell));
  if ((nx + 1.0) * (nz + 1.0) > double(1u << 24))
    return Error{"terrain: " + std::to_string(std::llround(nx)) + " x " + std::to_string(std::llround(nz)) +
                 " cells are too many; raise cell"};
  const int cx = int(nx), cz = int(nz);
  TriangleMesh mesh;
  mesh.positions.reserve(std::size_t(cx + 1) * std::size_t(cz + 1));
  for (int j = 0; j <= cz; ++j)
    for (int i = 0; i <= cx; ++i) {
      const float x = i == cx ? hi.x : lo.x + (hi.x - lo.x) * float(i) / float(cx);  // the last exactly at max
      const float z = j == cz ? hi.y : lo.y + (hi.y - lo.y) * float(j) / float(cz);
      mesh.positions.emplace_back(x, terrainHeight(spec, x, z), z);
    }
  const auto row = std::uint32_t(cx + 1);
  for (int j = 0; j < cz; ++j)
    for (int i = 0; i < cx; ++i) {
      const std::uint32_t a = std::uint32_t(j) * row + std::uint32_t(i), b = a + 1, d = a + row, c = d + 1;
      mesh.indices.insert(mesh.indices.end(), {a, c, b, a, d, c});  // counter-clockwise seen from above
    }
  computeVertexNormals(mesh);
  return mesh;
}

}  // namespace hg
