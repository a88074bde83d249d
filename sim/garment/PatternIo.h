#pragma once
/// Shared by the pattern file readers (GarmentCode.cpp, AamaDxf.cpp): JSON access whose
/// errors name the key, sampled circular arcs, and the seam length check. Internal to
/// sim/garment.
#include <cstddef>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "sim/garment/GarmentCode.h"

namespace hg::pattern_io {

using json = nlohmann::json;
using Points = std::vector<glm::dvec2>;

/// A problem at a key of a file; the reader prefixes the file's name.
struct KeyError {
  std::string key, message;
};

constexpr std::size_t kMaxCurveSegments = 4096;

const json& member(const json& object, const std::string& name, const std::string& key);
double number(const json& value, const std::string& key);
glm::dvec2 point2(const json& value, const std::string& key);
glm::dvec3 point3(const json& value, const std::string& key);

/// Segments for a curve of `length` sampled at most `sampleLength` apart (2..kMaxCurveSegments).
std::size_t segmentsFor(double length, double sampleLength);

/// The arc of `radius` from start to end that bulges to the right of start -> end when
/// `right` (else to the left); the larger of the two such arcs when `largeArc` (SVG's arc
/// flags). Errors (KeyError at `key`): radius <= 0 or under half the chord.
Points circleArc(glm::dvec2 start, glm::dvec2 end, double radius, bool largeArc, bool right, double sampleLength,
                 const std::string& key);

/// Edges first..last (counter-clockwise, wrapping) of a panel (`instance`).
struct EdgeRange {
  std::size_t instance = 0, first = 0, last = 0;
};

/// Joins each range's edges into one (a range is numbered in the panel's drawn order; in
/// a mirrored panel the same edges run the other way). Returns, per range, the joined
/// edge's index. Throws KeyError (at keys[r]) when two ranges share an edge.
std::vector<int> joinRanges(Panel& panel, std::size_t drawnCount, bool isMirrored, const std::vector<EdgeRange>& ranges,
                            const std::vector<std::string>& keys);

/// The panel's region from the optional key `name` of `object` (bodyRegionName), counted in
/// out.regionCount; KeyError at key.name for an unknown one.
void readRegion(const json& object, const std::string& name, const std::string& key, Panel& panel, PatternFile& out);

/// KeyError at `key` when the seam's two edges differ in length by more than the options'
/// tolerance and the options do not ease.
void checkSeamLengths(const Pattern& pattern, const Seam& seam, const PatternReadOptions& options,
                      const std::string& key);

}  // namespace hg::pattern_io
