#include "sim/scene/QualityGates.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/cloth/ClothSolver.h"

namespace hg {
namespace {

QualityGate gate(std::string name, double value, double limit, bool atMost) {
  return {std::move(name), value, limit, atMost, atMost ? value <= limit : value >= limit};
}

float triangleArea(const glm::vec4* x, const std::uint32_t* t) {
  const glm::vec3 a(x[t[0]]), b(x[t[1]]), c(x[t[2]]);
  return 0.5f * glm::length(glm::cross(b - a, c - a));
}

}  // namespace

std::vector<QualityGate> evaluateQualityGates(const QualityMeasures& measures, const QualityGateLimits& limits) {
  std::vector<QualityGate> gates;
  if (measures.intersectingPairs)
    gates.push_back(
        gate("intersections", double(*measures.intersectingPairs), double(limits.maxIntersectingPairs), true));
  if (measures.verticesInsideBody)
    gates.push_back(
        gate("vertices_inside_body", double(*measures.verticesInsideBody), double(limits.maxVerticesInsideBody), true));
  // NaN fails: the comparison is false.
  gates.push_back(gate("strain", double(measures.largestStretch), double(limits.maxStrain), true));
  gates.push_back(gate("compression", double(measures.largestCompression), double(limits.maxCompression), true));
  for (std::size_t p = 0; p < measures.areaRatioOfPiece.size(); ++p)
    gates.push_back(gate("area:" + (p < measures.pieceNames.size() ? measures.pieceNames[p] : std::to_string(p)),
                         double(measures.areaRatioOfPiece[p]), double(limits.minAreaRatio), false));
  return gates;
}

std::optional<StrainedSpring> mostStrainedSpring(const ClothModel& model, const ClothState& state) {
  std::optional<StrainedSpring> worst;
  for (std::size_t k = 0; k < model.springs.size(); ++k) {
    const kernels::ClothSpring& s = model.springs[k];
    if (!(s.restLength > 0.0f)) continue;
    const glm::vec3 a(state.positions[s.a]), b(state.positions[s.b]);
    const float length = glm::length(b - a);
    const float strain = std::abs(length / s.restLength - 1.0f);
    // Larger, or the first NaN (which then stays).
    const bool worse = !worst || (!std::isnan(worst->strain) && (std::isnan(strain) || strain > worst->strain));
    if (worse) worst = StrainedSpring{k, s.a, s.b, strain, length, s.restLength, 0.5f * (a + b)};
  }
  return worst;
}

StrainExtremes strainExtremes(const ClothModel& model, const ClothState& state) {
  return strainExtremesOfPieces(model, state, {}, 1).front();
}

std::vector<StrainExtremes> strainExtremesOfPieces(const ClothModel& model, const ClothState& state,
                                                   std::span<const std::uint32_t> pieceOfVertex, std::size_t pieces) {
  std::vector<StrainExtremes> extremes(pieces);
  for (const kernels::ClothSpring& s : model.springs) {
    const std::size_t piece = pieceOfVertex.empty() ? 0 : pieceOfVertex[s.a];
    if (!(s.restLength > 0.0f) || piece >= pieces) continue;
    const float ratio = glm::length(glm::vec3(state.positions[s.b] - state.positions[s.a])) / s.restLength;
    StrainExtremes& e = extremes[piece];
    if (!std::isfinite(ratio)) e = {NAN, NAN};
    if (std::isnan(e.stretch)) continue;
    e.stretch = std::max(e.stretch, ratio - 1.0f);
    e.compression = std::max(e.compression, 1.0f - ratio);
  }
  return extremes;
}

float largestStrain(const ClothModel& model, const ClothState& state) {
  const std::optional<StrainedSpring> worst = mostStrainedSpring(model, state);
  return worst ? worst->strain : 0.0f;
}

std::vector<float> areaRatioOfPieces(const ClothModel& model, const ClothState& state,
                                     std::span<const std::uint32_t> pieceOfVertex, std::size_t pieces) {
  std::vector<double> area(pieces, 0.0), rest(pieces, 0.0);
  for (std::size_t t = 0; 3 * t < model.triangles.size(); ++t) {
    const std::uint32_t* tri = model.triangles.data() + 3 * t;
    const std::size_t piece = pieceOfVertex.empty() ? 0 : pieceOfVertex[tri[0]];
    if (piece >= pieces) continue;
    area[piece] += triangleArea(state.positions.data(), tri);
    rest[piece] += triangleArea(model.restPositions.data(), tri);
  }
  std::vector<float> ratio(pieces, 1.0f);
  for (std::size_t p = 0; p < pieces; ++p)
    if (rest[p] > 0.0) ratio[p] = float(area[p] / rest[p]);
  return ratio;
}

}  // namespace hg
