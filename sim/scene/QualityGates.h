#pragma once
/// Quality gates of a drape: a run that ends with a bad result (cloth through cloth or
/// through the body, torn or collapsed cloth) is a failure, not a success. Each gate
/// compares one measured value of the last frame with its limit (scene block "gates");
/// the CLI writes every output for inspection, names the failing gates and exits with
/// kExitQualityGate (apps/common/ExitCodes.h) unless --no-gates.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/cloth/ClothModel.h"

namespace hg {

struct ClothState;

/// The limits (scene keys under "gates").
struct QualityGateLimits {
  std::size_t maxIntersectingPairs = 0;   ///< exact triangle pairs: within and between garments, cloth vs body
  std::size_t maxVerticesInsideBody = 0;  ///< cloth vertices inside the body (exact reference)
  float maxStrain = 0.5f;                 ///< largest stretch, length / rest length - 1, over the cloth's edges
  float maxCompression = 0.75f;           ///< largest compression, 1 - length / rest length (0.75: a quarter left)
  float minAreaRatio = 0.5f;              ///< smallest area / rest area over the pieces (garments)
};

/// What the gates look at; a value that was not measured is not gated.
struct QualityMeasures {
  std::optional<std::size_t> intersectingPairs;
  std::optional<std::size_t> verticesInsideBody;
  float largestStretch = 0.0f;          ///< NaN where a position is not finite
  float largestCompression = 0.0f;      ///< NaN where a position is not finite
  std::vector<float> areaRatioOfPiece;  ///< per piece (garment), in the scene's order
  std::vector<std::string> pieceNames;  ///< same size: "skirt", "tshirt", ... or "cloth"
};

struct QualityGate {
  std::string name;  ///< "intersections", "vertices_inside_body", "strain", "compression", "area:<piece>"
  double value = 0.0;
  double limit = 0.0;
  bool atMost = true;  ///< the value must be <= limit (else >= limit)
  bool passed = true;
};

/// Every gate that has a measured value, in a fixed order.
std::vector<QualityGate> evaluateQualityGates(const QualityMeasures& measures, const QualityGateLimits& limits);

/// Largest |l / l0 - 1| over the model's springs with a rest length above 0.
float largestStrain(const ClothModel& model, const ClothState& state);
/// Largest stretch l / l0 - 1 and compression 1 - l / l0 (each >= 0) over the same springs;
/// both NaN when a length is not finite. A coarse mesh folds by compressing edges (its
/// folds cannot be finer than an edge), so the gates limit compression separately.
struct StrainExtremes {
  float stretch = 0.0f;
  float compression = 0.0f;
};
StrainExtremes strainExtremes(const ClothModel& model, const ClothState& state);
/// strainExtremes per piece: each spring in the piece of its first vertex (`pieceOfVertex`,
/// empty: one piece); a piece's entry is NaN when one of its lengths is not finite.
std::vector<StrainExtremes> strainExtremesOfPieces(const ClothModel& model, const ClothState& state,
                                                   std::span<const std::uint32_t> pieceOfVertex, std::size_t pieces);

/// The spring of the largest strain, where the strain gate looks (to find what tore).
struct StrainedSpring {
  std::size_t spring = 0;  ///< index in model.springs
  std::uint32_t a = 0, b = 0;
  float strain = 0.0f;       ///< |length / rest length - 1|; NaN where a position is not finite
  float length = 0.0f;       ///< m
  float restLength = 0.0f;   ///< m
  glm::vec3 midpoint{0.0f};  ///< m
};
/// The first spring of largestStrain's value (a NaN strain first of all); nullopt without springs.
std::optional<StrainedSpring> mostStrainedSpring(const ClothModel& model, const ClothState& state);

/// Area / rest area of each piece: triangles by their first vertex's piece
/// (`pieceOfVertex`, empty: one piece); a piece without area gives 1.
std::vector<float> areaRatioOfPieces(const ClothModel& model, const ClothState& state,
                                     std::span<const std::uint32_t> pieceOfVertex, std::size_t pieces);

}  // namespace hg
