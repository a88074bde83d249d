#pragma once
/// Cyber Radar: Z-buffer object and collision detection (docs/methods.md section 3;
/// Yamachi & Shindo 2002). A radar "sees" the scene: it renders an orthographic view volume (width ws,
/// height hs, depth d, wp x hp pixels) from a probe frame and reasons on the depth image.
///
/// - Object detection: the range image R (depth of the nearest surface, d where none);
///   objects are present iff min R < d; which ones: each object is drawn with its own ID.
/// - Collision detection of a moving sensor object (continuous in time): R of the scene
///   without the sensor from the sensor's rear along the motion, M of the sensor alone
///   from the destination looking back (mirrored), L = R + M - d with pixels where M = d
///   eliminated; collision iff min L <= s (distance to move); time of impact min L / speed.
///   Works for non-convex sensors and sensors in separate pieces.
/// - Contact: the pixels at min L (within a tolerance): one pixel, that point; two, their
///   midpoint; more, the centroid of their convex hull; the obstacle's normal from a plane
///   fitted to the depths of the closest neighbouring pixels.
/// - Mask reuse: while the sensor's shape and direction (as seen along the motion) do not
///   change and the probe moves with it, M is kept from the previous run
///   (RadarQuery::reuseMask). Adaptive volume: M first at a MaxSize, then the volume is
///   fitted to M's occupied pixels (fitProbeToMask).
///
/// Backends (one interface, RadarBackend): the CPU reference (makeCpuRadar: a software
/// rasterizer with the GPU's coverage rules, sim/geometry/OrthoRaster.h, and the analysis
/// in C++) and the GPU one (sim/gpu/GpuRadar.h: every radar of a batch in one instanced
/// draw into layered framebuffers, analysis in a compute pass, only the results read
/// back). Per-pixel and per-radar math is shared (sim/kernels/radar.glslh).
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/kernels/Kernels.h"

namespace hg {

/// Object ID of "no object" (an empty pixel; a detection radar's sensor).
inline constexpr std::uint32_t kRadarNoObject = HG_RADAR_NO_OBJECT;

/// The scene radars look at: triangle meshes, each tagged with an object ID (its colour
/// code). Moving objects (a hand's segments, cloth patches) update their positions in place.
class RadarScene {
 public:
  /// Adds a mesh as object `id` (< kRadarNoObject, not used yet). Error: a used ID, an
  /// index out of range, a non-finite position.
  Status add(std::uint32_t id, const TriangleMesh& mesh);
  /// New positions for object `id` (same vertex count). Error: unknown ID, count mismatch,
  /// non-finite position.
  Status setPositions(std::uint32_t id, std::span<const glm::vec3> positions);
  /// Positions of object `id`'s vertices (empty span for an unknown ID).
  std::span<const glm::vec3> positionsOf(std::uint32_t id) const;
  bool has(std::uint32_t id) const;

  const std::vector<glm::vec3>& positions() const { return m_positions; }
  const std::vector<std::uint32_t>& indices() const { return m_indices; }
  /// Object ID of every triangle.
  const std::vector<std::uint32_t>& triangleObjects() const { return m_triangleObjects; }
  std::size_t objectCount() const { return m_objects.size(); }
  std::size_t triangleCount() const { return m_triangleObjects.size(); }
  /// Change with every add (topology) and setPositions (positions); unique across scenes.
  std::uint64_t topologyVersion() const { return m_topologyVersion; }
  std::uint64_t positionsVersion() const { return m_positionsVersion; }

 private:
  struct Object {
    std::uint32_t id;
    std::size_t firstVertex, vertexCount;
  };
  const Object* find(std::uint32_t id) const;
  std::vector<Object> m_objects;
  std::vector<glm::vec3> m_positions;
  std::vector<std::uint32_t> m_indices;
  std::vector<std::uint32_t> m_triangleObjects;
  std::uint64_t m_topologyVersion = 0, m_positionsVersion = 0;
};

/// A radar's view volume: the probe point is the centre of the volume's near face.
struct RadarProbe {
  glm::vec3 origin{0.0f};                  ///< probe point, m
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  ///< unit-able direction of view (of motion)
  glm::vec3 up{0.0f, 1.0f, 0.0f};          ///< roughly up (made orthogonal to direction)
  float width = 1.0f;                      ///< ws, m
  float height = 1.0f;                     ///< hs, m
  float depth = 1.0f;                      ///< d, m
};

/// Image size of a batch of radars (every radar of one run shares it).
struct RadarImageSize {
  int width = 32;   ///< wp, pixels (1..HG_RADAR_MAX_IMAGE)
  int height = 32;  ///< hp
};

enum class RadarMode { Detect, Collide };

/// One radar of a run.
struct RadarQuery {
  RadarProbe probe;
  RadarMode mode = RadarMode::Detect;
  /// Collide: the sensor's object ID (left out of R, alone in M).
  std::uint32_t sensor = kRadarNoObject;
  /// Collide: s, m (the volume's depth d must be >= s).
  float moveDistance = 0.0f;
  /// Collide: keep M from this query's slot in the previous run (same sensor, image size,
  /// direction, up and volume width/height, the probe moved with the sensor by a
  /// translation only). The caller vouches for it; the result is then as if M were
  /// re-rendered.
  bool reuseMask = false;
  /// m: pixels whose key (L or R) is within this of the minimum are contact pixels;
  /// < 0: 1e-4 d.
  float contactTolerance = -1.0f;
};

/// What a radar found.
struct RadarHit {
  bool seen = false;              ///< something in the volume (min R < d); for Collide, the scene without the sensor
  bool collides = false;          ///< Collide: min L <= s
  float minRange = 0.0f;          ///< min R, m (d: nothing)
  float minKey = 0.0f;            ///< Collide: min L (m, the free gap; < 0: already overlapping); Detect: min R
  float timeOfImpact = 1.0f;      ///< Collide: min L / s clamped to [0, 1] (1: no collision); seconds = min L / speed
  glm::vec3 contactPoint{0.0f};   ///< on the obstacle, m (Detect: the nearest point seen)
  glm::vec3 contactNormal{0.0f};  ///< obstacle's unit normal facing the probe
  bool normalFitted = false;      ///< the normal came from a plane fit (else -direction)
  glm::vec2 contactPixel{-1.0f};  ///< contact centre, image coordinates (pixels, v up)
  std::uint32_t seenPixels = 0, sensorPixels = 0, contactPixels = 0;
  std::uint32_t objectAtContact = kRadarNoObject;  ///< ID at the contact pixel nearest the centre
  std::array<std::uint32_t, 4> objectsSeen{};      ///< bitmask of IDs 0..127 with R < d somewhere
  /// Occupied mask pixels (columns and rows in R's image), inclusive; maskMin.x > maskMax.x: none.
  glm::ivec2 maskMin{1}, maskMax{0};

  bool sees(std::uint32_t id) const { return id < 128 && ((objectsSeen[id / 32] >> (id % 32)) & 1u) != 0u; }
};

/// The images of a run (for tests and pictures): per radar wp x hp pixels, row-major,
/// j = 0 at the bottom: radar r's pixel (i, j) at r wp hp + j wp + i.
struct RadarImages {
  RadarImageSize size;
  std::vector<float> range;           ///< R, m (d where nothing)
  std::vector<std::uint32_t> object;  ///< object ID of R's surface (kRadarNoObject where nothing)
  /// Mask as front depth F = d - M in the mask's own (mirrored) columns; HG_RADAR_NO_SENSOR where
  /// the sensor is absent (detection radars: all absent).
  std::vector<float> front;
  /// M = d - F of radar r at R's pixel (i, j) (mirrored back), d where no sensor.
  float mask(std::size_t r, int i, int j, float d) const;
};

/// The orthonormal frame of a probe (right = direction x up) with the batch's image size,
/// flags and settings; error: zero or non-finite vectors, up parallel to direction,
/// non-positive sizes, d < s, an image size out of range.
Result<kernels::RadarFrame> makeRadarFrame(const RadarQuery& query, RadarImageSize size);

/// Checks a batch: image size in 1..HG_RADAR_MAX_IMAGE, every query's frame, sensors
/// present in the scene for Collide. Errors name the query.
Result<std::vector<kernels::RadarFrame>> makeRadarFrames(const RadarScene& scene, std::span<const RadarQuery> queries,
                                                         RadarImageSize size);

/// The RadarHit of a backend's raw result.
RadarHit toRadarHit(const kernels::RadarFrame& frame, const kernels::RadarResult& result);

/// The analysis of one radar from its images (CPU; radar_analyze.comp does the same on
/// the GPU): min R, min key, contact pixels, centre, point, normal, IDs, mask bounds.
/// `range`, `object` and `front` are this radar's wp x hp images (front in mask columns).
kernels::RadarResult analyzeRadar(const kernels::RadarFrame& frame, std::span<const float> range,
                                  std::span<const std::uint32_t> object, std::span<const float> front);

/// A batch runner: renders R (and M for Collide queries) of every query and analyses them.
class RadarBackend {
 public:
  virtual ~RadarBackend() = default;
  virtual std::string_view name() const = 0;
  /// One hit per query, in order. Error: invalid queries (makeRadarFrames), a GL error.
  virtual Result<std::vector<RadarHit>> run(const RadarScene& scene, std::span<const RadarQuery> queries,
                                            RadarImageSize size) = 0;
  /// The images of the last run (GPU: a synchronous readback; for tests and pictures).
  virtual Result<RadarImages> images() const = 0;
};

/// The CPU reference backend (software rasterizer, OpenMP over radars).
std::unique_ptr<RadarBackend> makeCpuRadar();

/// A collision query for a sensor whose points (its mesh's vertices, m) move by
/// `displacement` (m): the probe sits on the sensor's rear plane (the plane through its
/// rearmost point, normal to the motion, moved back by 1e-4 (s + length) so that a flat
/// sensor is not on the far face of the mask pass), centred on its cross-section; ws, hs
/// cover the cross-section plus `margin` (m) on each side; d reaches the sensor's front at
/// the destination (s + the sensor's length along the motion + that offset).
/// Error: a zero or non-finite displacement, no points.
Result<RadarQuery> makeSweepQuery(std::uint32_t sensor, std::span<const glm::vec3> sensorPoints, glm::vec3 displacement,
                                  glm::vec3 up, float margin);

/// Adaptive volume (docs/methods.md section 3): the probe of `query` with its width, height and
/// lateral centre fitted to the occupied pixels of the mask in `hit` (a run of `query`,
/// typically at a MaxSize volume), grown by `marginPixels` pixels on each side. Returns
/// the query unchanged when the mask is empty.
RadarQuery fitProbeToMask(const RadarQuery& query, RadarImageSize size, const RadarHit& hit, int marginPixels = 1);

}  // namespace hg
