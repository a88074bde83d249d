#include "sim/radar/Radar.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>

#include <glm/geometric.hpp>

#include "sim/core/Finite.h"
#include "sim/geometry/OrthoRaster.h"

namespace hg {
namespace {

/// Versions unique across all scenes (a backend caching by scene address and version
/// never mistakes a new scene for an old one).
std::uint64_t nextSceneVersion() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

/// Renders one pass of one radar: the triangles `indices` of `positions` seen in `frame`
/// (depth in [0, d], the nearest wins, the first in draw order at equal depth). Writes
/// depth (float) and the triangle (index into indices / 3) per pixel; -1 where none.
void renderPass(const kernels::RadarFrame& frame, std::span<const glm::vec3> positions,
                std::span<const std::uint32_t> indices, bool parallel, std::vector<float>& depth,
                std::vector<std::int64_t>& triangle, std::vector<double>& exactDepth) {
  const int width = int(frame.control.z), height = int(frame.control.w);
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  depth.assign(pixels, std::numeric_limits<float>::infinity());
  exactDepth.assign(pixels, 0.0);
  triangle.assign(pixels, -1);
  const glm::dvec3 origin(frame.origin), right(frame.right), up(frame.up), forward(frame.forward);
  const double pixelWidth = double(frame.right.w) / width, pixelHeight = double(frame.up.w) / height;
  const double d = frame.origin.w;
  std::vector<RasterVertex> projected(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const glm::dvec3 p = glm::dvec3(positions[i]) - origin;
    projected[i] = {glm::dot(p, right) / pixelWidth + 0.5 * width, glm::dot(p, up) / pixelHeight + 0.5 * height,
                    glm::dot(p, forward)};
  }
  rasterizeOrthographic(
      projected, indices, width, height,
      [&](int j, std::vector<RasterFragment>& fragments) {
        for (const RasterFragment& f : fragments) {
          if (!(f.depth >= 0.0 && f.depth <= d)) continue;  // outside the volume (clipped)
          const std::size_t at = std::size_t(j) * std::size_t(width) + f.i;
          const float z = float(f.depth);
          // Fragments of a pixel arrive in triangle order: strict < keeps the first at equal depth.
          if (z < depth[at]) {
            depth[at] = z;
            exactDepth[at] = f.depth;
            triangle[at] = f.triangle;
          }
        }
      },
      parallel);
}

/// Triangles of a scene selected for a pass: their vertex indices and scene triangle numbers.
struct TriangleSelection {
  std::vector<std::uint32_t> indices, sceneTriangle;
};

/// The triangles of `scene` whose object is (keep = true) or is not (false) `id`.
TriangleSelection selectTriangles(const RadarScene& scene, std::uint32_t id, bool keep) {
  TriangleSelection selection;
  const auto& objects = scene.triangleObjects();
  for (std::size_t t = 0; t < objects.size(); ++t)
    if ((objects[t] == id) == keep) {
      for (int c = 0; c < 3; ++c) selection.indices.push_back(scene.indices()[3 * t + std::size_t(c)]);
      selection.sceneTriangle.push_back(std::uint32_t(t));
    }
  return selection;
}

/// Per sensor ID of a run: the scene without the sensor (R) and the sensor alone (M), built
/// once for all the radars that share the sensor.
struct SensorPasses {
  TriangleSelection range, mask;
};

class CpuRadar final : public RadarBackend {
 public:
  std::string_view name() const override { return "cpu"; }

  Result<std::vector<RadarHit>> run(const RadarScene& scene, std::span<const RadarQuery> queries,
                                    RadarImageSize size) override {
    auto frames = makeRadarFrames(scene, queries, size);
    if (!frames) return frames.error();
    const std::size_t count = queries.size(), pixels = std::size_t(size.width) * std::size_t(size.height);
    // Masks to keep (reuseMask) come from the previous run's slots.
    for (std::size_t q = 0; q < count; ++q)
      if (queries[q].mode == RadarMode::Collide && queries[q].reuseMask &&
          (m_images.size.width != size.width || m_images.size.height != size.height ||
           m_images.front.size() < (q + 1) * pixels))
        return Error{"radar query " + std::to_string(q) + ": reuseMask but the previous run has no mask in slot " +
                     std::to_string(q) + " at this image size"};
    RadarImages images;
    images.size = size;
    images.range.assign(count * pixels, 0.0f);
    images.object.assign(count * pixels, kRadarNoObject);
    images.front.assign(count * pixels, HG_RADAR_NO_SENSOR);
    std::map<std::uint32_t, SensorPasses> passes;
    for (std::size_t q = 0; q < count; ++q) {
      const std::uint32_t sensor = (*frames)[q].control.x;
      if (passes.count(sensor)) continue;
      SensorPasses& p = passes[sensor];
      p.range = selectTriangles(scene, sensor, false);
      if (sensor != kRadarNoObject) p.mask = selectTriangles(scene, sensor, true);
    }
    std::vector<kernels::RadarResult> results(count);
    const bool perRadar = count >= 2;
#pragma omp parallel for schedule(dynamic) if (perRadar)
    for (std::ptrdiff_t qi = 0; qi < std::ptrdiff_t(count); ++qi) {
      const std::size_t q = std::size_t(qi);
      const kernels::RadarFrame& frame = (*frames)[q];
      const RadarQuery& query = queries[q];
      const SensorPasses& pass = passes.at(frame.control.x);
      std::vector<float> depth;
      std::vector<double> exactDepth;
      std::vector<std::int64_t> triangle;
      // R: the scene without the sensor.
      renderPass(frame, scene.positions(), pass.range.indices, !perRadar, depth, triangle, exactDepth);
      float* range = images.range.data() + q * pixels;
      std::uint32_t* object = images.object.data() + q * pixels;
      float* front = images.front.data() + q * pixels;
      for (std::size_t p = 0; p < pixels; ++p) {
        range[p] = triangle[p] >= 0 ? depth[p] : frame.origin.w;
        object[p] = triangle[p] >= 0 ? scene.triangleObjects()[pass.range.sceneTriangle[std::size_t(triangle[p])]]
                                     : kRadarNoObject;
      }
      // M: the sensor alone, from the destination looking back (its own, mirrored columns).
      if (query.mode == RadarMode::Collide) {
        if (query.reuseMask) {
          std::copy_n(m_images.front.data() + q * pixels, pixels, front);
        } else {
          renderPass(kernels::radarMaskFrame(frame), scene.positions(), pass.mask.indices, !perRadar, depth, triangle,
                     exactDepth);
          for (std::size_t p = 0; p < pixels; ++p)
            front[p] = triangle[p] >= 0 ? float(double(frame.origin.w) - exactDepth[p]) : HG_RADAR_NO_SENSOR;
        }
      }
      results[q] = analyzeRadar(frame, {range, pixels}, {object, pixels}, {front, pixels});
    }
    m_images = std::move(images);
    std::vector<RadarHit> hits(count);
    for (std::size_t q = 0; q < count; ++q) hits[q] = toRadarHit((*frames)[q], results[q]);
    return hits;
  }

  Result<RadarImages> images() const override { return m_images; }

 private:
  RadarImages m_images;
};

}  // namespace

// ---- RadarScene ----

const RadarScene::Object* RadarScene::find(std::uint32_t id) const {
  for (const Object& o : m_objects)
    if (o.id == id) return &o;
  return nullptr;
}

bool RadarScene::has(std::uint32_t id) const { return find(id) != nullptr; }

Status RadarScene::add(std::uint32_t id, const TriangleMesh& mesh) {
  if (id == kRadarNoObject) return Error{"radar scene: object ID " + std::to_string(id) + " is reserved (no object)"};
  if (find(id)) return Error{"radar scene: object ID " + std::to_string(id) + " is already used"};
  if (mesh.indices.size() % 3 != 0)
    return Error{"radar scene: object " + std::to_string(id) + ": index count is not a multiple of 3"};
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (!allFinite(mesh.positions[i]))
      return Error{"radar scene: object " + std::to_string(id) + ": vertex " + std::to_string(i) + " is not finite"};
  for (std::uint32_t index : mesh.indices)
    if (index >= mesh.positions.size())
      return Error{"radar scene: object " + std::to_string(id) + ": index " + std::to_string(index) +
                   " is out of range (" + std::to_string(mesh.positions.size()) + " vertices)"};
  const std::size_t first = m_positions.size();
  if (first + mesh.positions.size() > std::numeric_limits<std::uint32_t>::max())
    return Error{"radar scene: more than 2^32 vertices"};
  m_objects.push_back({id, first, mesh.positions.size()});
  m_positions.insert(m_positions.end(), mesh.positions.begin(), mesh.positions.end());
  for (std::uint32_t index : mesh.indices) m_indices.push_back(std::uint32_t(first) + index);
  m_triangleObjects.insert(m_triangleObjects.end(), mesh.triangleCount(), id);
  m_topologyVersion = nextSceneVersion();
  m_positionsVersion = nextSceneVersion();
  return Status::success();
}

Status RadarScene::setPositions(std::uint32_t id, std::span<const glm::vec3> positions) {
  const Object* o = find(id);
  if (!o) return Error{"radar scene: no object " + std::to_string(id)};
  if (positions.size() != o->vertexCount)
    return Error{"radar scene: object " + std::to_string(id) + " has " + std::to_string(o->vertexCount) +
                 " vertices, got " + std::to_string(positions.size()) + " positions"};
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (!allFinite(positions[i]))
      return Error{"radar scene: object " + std::to_string(id) + ": new position " + std::to_string(i) +
                   " is not finite"};
  std::copy(positions.begin(), positions.end(), m_positions.begin() + std::ptrdiff_t(o->firstVertex));
  m_positionsVersion = nextSceneVersion();
  return Status::success();
}

std::span<const glm::vec3> RadarScene::positionsOf(std::uint32_t id) const {
  const Object* o = find(id);
  if (!o) return {};
  return {m_positions.data() + o->firstVertex, o->vertexCount};
}

// ---- frames and results ----

float RadarImages::mask(std::size_t r, int i, int j, float d) const {
  const std::size_t pixels = std::size_t(size.width) * std::size_t(size.height);
  const float f = front[r * pixels + std::size_t(j) * std::size_t(size.width) +
                        std::size_t(kernels::radarMirrorColumn(i, size.width))];
  return f <= 0.5f * HG_RADAR_NO_SENSOR ? d : d - f;
}

Result<kernels::RadarFrame> makeRadarFrame(const RadarQuery& query, RadarImageSize size) {
  const RadarProbe& p = query.probe;
  if (size.width < 1 || size.height < 1 || size.width > HG_RADAR_MAX_IMAGE || size.height > HG_RADAR_MAX_IMAGE)
    return Error{"radar: image size " + std::to_string(size.width) + " x " + std::to_string(size.height) +
                 " is outside 1.." + std::to_string(HG_RADAR_MAX_IMAGE)};
  if (!allFinite(p.origin) || !allFinite(p.direction) || !allFinite(p.up))
    return Error{"radar: the probe is not finite"};
  const float directionLength = glm::length(p.direction);
  if (!(directionLength > 0.0f)) return Error{"radar: the probe direction is zero"};
  const glm::vec3 forward = p.direction / directionLength;
  const glm::vec3 side = glm::cross(forward, p.up);
  if (!(glm::length(side) > 1e-6f * glm::length(p.up)))
    return Error{"radar: the probe's up is parallel to its direction"};
  const glm::vec3 right = glm::normalize(side);
  const glm::vec3 up = glm::cross(right, forward);
  if (!(std::isfinite(p.width) && p.width > 0.0f && std::isfinite(p.height) && p.height > 0.0f &&
        std::isfinite(p.depth) && p.depth > 0.0f))
    return Error{"radar: the volume's width, height and depth must be finite and > 0"};
  std::uint32_t flags = 0u;
  std::uint32_t sensor = kRadarNoObject;
  if (query.mode == RadarMode::Collide) {
    if (!(std::isfinite(query.moveDistance) && query.moveDistance >= 0.0f && query.moveDistance <= p.depth))
      return Error{"radar: the distance to move must be in [0, d] (got " + std::to_string(query.moveDistance) +
                   ", d = " + std::to_string(p.depth) + ")"};
    if (query.sensor == kRadarNoObject) return Error{"radar: a collision query needs a sensor object"};
    flags |= HG_RADAR_COLLIDE;
    if (query.reuseMask) flags |= HG_RADAR_REUSE_MASK;
    sensor = query.sensor;
  }
  if (!std::isfinite(query.contactTolerance)) return Error{"radar: the contact tolerance is not finite"};
  kernels::RadarFrame frame{};
  frame.origin = glm::vec4(p.origin, p.depth);
  frame.right = glm::vec4(right, p.width);
  frame.up = glm::vec4(up, p.height);
  frame.forward = glm::vec4(forward, query.mode == RadarMode::Collide ? query.moveDistance : 0.0f);
  frame.control = glm::uvec4(sensor, flags, std::uint32_t(size.width), std::uint32_t(size.height));
  frame.settings = glm::vec4(query.contactTolerance >= 0.0f ? query.contactTolerance : 1e-4f * p.depth,
                             exactDepthScale(p.depth), 0.0f, 0.0f);
  return frame;
}

Result<std::vector<kernels::RadarFrame>> makeRadarFrames(const RadarScene& scene, std::span<const RadarQuery> queries,
                                                         RadarImageSize size) {
  std::vector<kernels::RadarFrame> frames;
  frames.reserve(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    auto frame = makeRadarFrame(queries[q], size);
    if (!frame) return frame.error().prefixed("radar query " + std::to_string(q) + ": ");
    if (queries[q].mode == RadarMode::Collide && !scene.has(queries[q].sensor))
      return Error{"radar query " + std::to_string(q) + ": the sensor object " + std::to_string(queries[q].sensor) +
                   " is not in the scene"};
    frames.push_back(*frame);
  }
  return frames;
}

RadarHit toRadarHit(const kernels::RadarFrame& frame, const kernels::RadarResult& result) {
  RadarHit hit;
  const float d = frame.origin.w, s = frame.forward.w;
  const bool collide = (frame.control.y & HG_RADAR_COLLIDE) != 0u;
  hit.minRange = result.contactPoint.w;
  hit.seen = hit.minRange < d;
  hit.minKey = result.contactNormal.w;
  const bool any = hit.minKey < HG_RADAR_NO_KEY;
  hit.collides = collide && any && hit.minKey <= s;
  hit.timeOfImpact = hit.collides ? (s > 0.0f ? std::clamp(hit.minKey / s, 0.0f, 1.0f) : 0.0f) : 1.0f;
  if (any) {
    hit.contactPoint = glm::vec3(result.contactPoint);
    hit.contactNormal = glm::vec3(result.contactNormal);
    hit.contactPixel = glm::vec2(result.contactImage);
    hit.normalFitted = result.contactImage.w > 0.5f;
  }
  hit.seenPixels = result.counts.x;
  hit.sensorPixels = result.counts.y;
  hit.contactPixels = result.counts.z;
  hit.objectAtContact = result.counts.w;
  for (int w = 0; w < 4; ++w) hit.objectsSeen[std::size_t(w)] = result.objectsSeen[w];
  hit.maskMin = glm::ivec2(int(result.maskBounds.x), int(result.maskBounds.y));
  hit.maskMax = glm::ivec2(int(result.maskBounds.z), int(result.maskBounds.w));
  return hit;
}

kernels::RadarResult analyzeRadar(const kernels::RadarFrame& frame, std::span<const float> range,
                                  std::span<const std::uint32_t> object, std::span<const float> front) {
  const int width = int(frame.control.z), height = int(frame.control.w);
  const float d = frame.origin.w;
  kernels::RadarResult result{};
  float minRange = d, minKey = HG_RADAR_NO_KEY;
  std::uint32_t seen = 0, sensor = 0;
  glm::uvec4 seenBits(0u);
  glm::ivec4 bounds(width, height, -1, -1);
  // L (collision) or R (detection) per pixel, kept for the contact passes.
  std::vector<float> keys(std::size_t(width) * std::size_t(height));
  // Pass 1: minima, counts, IDs seen, mask bounds.
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) {
      const std::size_t at = std::size_t(j) * std::size_t(width) + std::size_t(i);
      const float r = range[at];
      const float f = front[std::size_t(j) * std::size_t(width) + std::size_t(kernels::radarMirrorColumn(i, width))];
      if (r < d) {
        ++seen;
        minRange = std::min(minRange, r);
        if (object[at] < 128u) seenBits[int(object[at] / 32u)] |= 1u << (object[at] % 32u);
      }
      if (f > 0.5f * HG_RADAR_NO_SENSOR) {
        ++sensor;
        bounds = glm::ivec4(std::min(bounds.x, i), std::min(bounds.y, j), std::max(bounds.z, i), std::max(bounds.w, j));
      }
      keys[at] = kernels::radarKey(frame, r, f);
      minKey = std::min(minKey, keys[at]);
    }
  result.counts = glm::uvec4(seen, sensor, 0u, kRadarNoObject);
  result.objectsSeen = seenBits;
  result.maskBounds = sensor > 0 ? glm::uvec4(bounds) : glm::uvec4(1u, 1u, 0u, 0u);
  result.contactPoint = glm::vec4(0.0f, 0.0f, 0.0f, minRange);
  result.contactNormal = glm::vec4(0.0f, 0.0f, 0.0f, minKey);
  result.contactImage = glm::vec4(-1.0f, -1.0f, 0.0f, 0.0f);
  if (!(minKey < HG_RADAR_NO_KEY)) return result;

  // Pass 2: contact pixels (key within the tolerance of the minimum) by row extents.
  const float limit = minKey + frame.settings.x;
  int rowMin[HG_RADAR_MAX_IMAGE], rowMax[HG_RADAR_MAX_IMAGE];
  std::uint32_t contacts = 0;
  for (int j = 0; j < height; ++j) {
    rowMin[j] = width;
    rowMax[j] = -1;
    for (int i = 0; i < width; ++i) {
      if (keys[std::size_t(j) * std::size_t(width) + std::size_t(i)] <= limit) {
        ++contacts;
        rowMin[j] = std::min(rowMin[j], i);
        rowMax[j] = std::max(rowMax[j], i);
      }
    }
  }
  const glm::vec2 centre = kernels::radarContactCentre(height, rowMin, rowMax);  // overwrites the rows
  // The contact pixel nearest the centre (the first in row-major order at equal distance).
  float best = std::numeric_limits<float>::infinity();
  int nearest = -1;
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) {
      if (!(keys[std::size_t(j) * std::size_t(width) + std::size_t(i)] <= limit)) continue;
      const float dx = (float(i) + 0.5f) - centre.x, dy = (float(j) + 0.5f) - centre.y;
      const float dist = kernels::radarDistance2(dx, dy);
      if (dist < best) {
        best = dist;
        nearest = j * width + i;
      }
    }
  const int ni = nearest % width, nj = nearest / width;
  const float centreDepth = range[std::size_t(nearest)];
  // The obstacle's plane from the closest neighbouring pixels around the contact pixel.
  kernels::RadarPlaneFit fit = kernels::radarBeginPlaneFit();
  for (int dj = -1; dj <= 1; ++dj)
    for (int di = -1; di <= 1; ++di) {
      const int i = ni + di, j = nj + dj;
      if (i < 0 || j < 0 || i >= width || j >= height) continue;
      const float r = range[std::size_t(j) * std::size_t(width) + std::size_t(i)];
      if (r < d && kernels::radarSameSurface(frame, centreDepth, r)) kernels::radarAddPlanePoint(fit, di, dj, r);
    }
  const glm::vec4 plane = kernels::radarSolvePlane(fit);
  const kernels::RadarContact contact = kernels::radarFinishContact(frame, centre, ni, nj, centreDepth, plane);
  result.contactPoint = glm::vec4(contact.point, minRange);
  result.contactNormal = glm::vec4(contact.normal, minKey);
  result.contactImage = glm::vec4(centre, contact.depth, plane.w);
  result.counts.z = contacts;
  result.counts.w = object[std::size_t(nearest)];
  return result;
}

std::unique_ptr<RadarBackend> makeCpuRadar() { return std::make_unique<CpuRadar>(); }

Result<RadarQuery> makeSweepQuery(std::uint32_t sensor, std::span<const glm::vec3> sensorPoints, glm::vec3 displacement,
                                  glm::vec3 up, float margin) {
  if (sensorPoints.empty()) return Error{"radar sweep: the sensor has no points"};
  if (!allFinite(displacement) || !std::isfinite(margin) || margin < 0.0f)
    return Error{"radar sweep: the displacement and margin must be finite (margin >= 0)"};
  const float s = glm::length(displacement);
  if (!(s > 0.0f)) return Error{"radar sweep: the displacement is zero"};
  const glm::vec3 forward = displacement / s;
  glm::vec3 hint = up;
  if (!(glm::length(glm::cross(forward, hint)) > 1e-3f * glm::length(hint)))
    hint = std::abs(forward.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  const glm::vec3 right = glm::normalize(glm::cross(forward, hint));
  const glm::vec3 trueUp = glm::cross(right, forward);
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
  for (const glm::vec3& p : sensorPoints) {
    if (!allFinite(p)) return Error{"radar sweep: a sensor point is not finite"};
    const glm::vec3 c(glm::dot(p, right), glm::dot(p, trueUp), glm::dot(p, forward));
    lo = glm::min(lo, c);
    hi = glm::max(hi, c);
  }
  RadarQuery query;
  query.mode = RadarMode::Collide;
  query.sensor = sensor;
  query.moveDistance = s;
  query.probe.direction = forward;
  query.probe.up = trueUp;
  // The probe plane sits a hair behind the rearmost point: a flat sensor (a cloth patch
  // moving along its normal) would otherwise lie exactly on the far face of the mask pass
  // (depth d from the destination), where rounding decides whether it is drawn.
  const float length = hi.z - lo.z;
  const float behind = 1e-4f * (s + length) + 1e-6f;
  query.probe.origin = right * (0.5f * (lo.x + hi.x)) + trueUp * (0.5f * (lo.y + hi.y)) + forward * (lo.z - behind);
  query.probe.width = (hi.x - lo.x) + 2.0f * margin;
  query.probe.height = (hi.y - lo.y) + 2.0f * margin;
  query.probe.depth = s + length + behind;
  if (!(query.probe.width > 0.0f)) query.probe.width = 1e-3f;
  if (!(query.probe.height > 0.0f)) query.probe.height = 1e-3f;
  return query;
}

RadarQuery fitProbeToMask(const RadarQuery& query, RadarImageSize size, const RadarHit& hit, int marginPixels) {
  if (hit.maskMin.x > hit.maskMax.x) return query;
  auto frame = makeRadarFrame(query, size);
  if (!frame) return query;
  const float pw = query.probe.width / float(size.width), ph = query.probe.height / float(size.height);
  const float a0 = (float(hit.maskMin.x - marginPixels) - 0.5f * float(size.width)) * pw;
  const float a1 = (float(hit.maskMax.x + 1 + marginPixels) - 0.5f * float(size.width)) * pw;
  const float b0 = (float(hit.maskMin.y - marginPixels) - 0.5f * float(size.height)) * ph;
  const float b1 = (float(hit.maskMax.y + 1 + marginPixels) - 0.5f * float(size.height)) * ph;
  RadarQuery fitted = query;
  fitted.probe.origin =
      query.probe.origin + glm::vec3(frame->right) * (0.5f * (a0 + a1)) + glm::vec3(frame->up) * (0.5f * (b0 + b1));
  fitted.probe.width = a1 - a0;
  fitted.probe.height = b1 - b0;
  fitted.reuseMask = false;
  return fitted;
}

}  // namespace hg
