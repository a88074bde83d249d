// Writes scenes/hand_spread.obj, the body of scenes/sheet_over_hand.json: a right hand lying
// palm down on the ground (y = 0) with its fingers spread toward -z, a stump of forearm
// toward +z, flattened where it meets the ground. It is the
// thin-feature test of cloth-body contact (docs/methods.md section 2): a finger (radius
// 8.5 mm at its base, 6.5 mm at its tip) is thinner than the sheet's edges (about 1.6 cm).
//
// Shape: a smooth union (fillet 8 mm) of a forearm capsule, a flattened palm ellipsoid and
// five tapered finger capsules (sim/geometry/ImplicitShapes.h), triangulated by marching
// tetrahedra in 3.5 mm cells with short edges collapsed (sim/geometry/IsoSurface.h): a
// closed, outward counter-clockwise surface. Proportions after an adult hand (palm about
// 9 x 10 cm, middle finger 8.5 cm).
//
//   build/apps/hg_make_hand scenes/hand_spread.obj   (a .glb name writes binary glTF)
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include <glm/trigonometric.hpp>

#include "sim/geometry/ImplicitShapes.h"
#include "sim/geometry/IsoSurface.h"
#include "sim/io/MeshExport.h"

namespace {

using hg::implicit::Ellipsoid;
using hg::implicit::smoothMin;
using hg::implicit::TaperedCapsule;

/// A finger from its base (m) in the palm's plane (z = 0), leaning `degrees` from +y
/// towards -x, `length` m long.
TaperedCapsule finger(glm::vec2 base, float degrees, float length, float baseRadius, float tipRadius) {
  const float a = glm::radians(degrees);
  const glm::vec3 from(base, 0.0f);
  return {from, from + length * glm::vec3(-std::sin(a), std::cos(a), 0.0f), baseRadius, tipRadius};
}

/// The hand built upright (fingers along +y, palm facing +z, centred on z = 0).
float uprightHandField(glm::vec3 p) {
  static const TaperedCapsule forearm{{0.0f, 0.19f, 0.0f}, {0.0f, 0.25f, 0.0f}, 0.03f, 0.025f};
  static const Ellipsoid palm{{0.0f, 0.31f, 0.0f}, {0.045f, 0.052f, 0.015f}};
  static const std::array<TaperedCapsule, 5> fingers = {
      finger({-0.032f, 0.345f}, 16.0f, 0.065f, 0.0080f, 0.0065f),   // little
      finger({-0.011f, 0.355f}, 6.0f, 0.080f, 0.0085f, 0.0068f),    // ring
      finger({0.011f, 0.357f}, -4.0f, 0.085f, 0.0088f, 0.0070f),    // middle
      finger({0.031f, 0.35f}, -14.0f, 0.075f, 0.0085f, 0.0068f),    // index
      finger({0.040f, 0.285f}, -58.0f, 0.065f, 0.0105f, 0.0080f)};  // thumb
  constexpr float kFillet = 0.008f;
  float f = smoothMin(forearm.value(p), palm.value(p), 0.02f);
  for (const TaperedCapsule& c : fingers) f = smoothMin(f, c.value(p), kFillet);
  return f;
}

/// The hand laid palm down: the upright hand turned half a turn about (0, 1, -1) / sqrt 2
/// (fingers to -z, palm to -y), lifted to rest its palm on y = 0, cut flat there.
float handField(glm::vec3 p) {
  constexpr float kPalmHalfThickness = 0.015f, kWrist = 0.25f;
  const glm::vec3 upright(-p.x, kWrist - p.z, kPalmHalfThickness - p.y);
  return std::max(uprightHandField(upright), -p.y);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes the spread-hand prop mesh (scenes/hand_spread.obj)"};
  std::string out;
  app.add_option("out", out, "output mesh, .obj or .glb")->required();
  CLI11_PARSE(app, argc, argv);
  const hg::Box3 box{{-0.12f, -0.005f, -0.22f}, {0.12f, 0.05f, 0.1f}};
  auto surface = hg::extractIsoSurface(handField, box, hg::IsoSurfaceSettings{0.004f, 64u << 20, 0.35f});
  if (!surface) {
    std::fprintf(stderr, "%s\n", surface.error().message.c_str());
    return 2;
  }
  surface->normals.clear();  // the importer computes them; keeps the file small
  const bool glb = std::string_view(out).ends_with(".glb");
  if (hg::Status s = hg::exportMesh(*surface, out, glb ? "glb2" : "objnomtl"); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 2;
  }
  std::printf("%s: %zu vertices, %zu triangles\n", out.c_str(), surface->positions.size(), surface->indices.size() / 3);
  return 0;
}
