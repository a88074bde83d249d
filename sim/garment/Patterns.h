#pragma once
/// Parametric garment blocks sized from body measurements (GarmentSizing, metres).
///
/// The blocks follow the flat-pattern drafting of W. Aldrich, "Metric Pattern Cutting
/// for Women's Wear" (6th ed., 2015) and "Metric Pattern Cutting for Menswear" (5th ed.,
/// 2011): front/back bodice quarters of (chest + ease) / 4, neck width neck / 6, front
/// neck depth neck / 5, shoulder slope about 1/10 of the shoulder width, sleeve cap
/// drafted to the armhole length, skirt quarters of (hip + ease) / 4 with the waist
/// suppression taken in the side seam (or partly in waist darts, SkirtOptions), trouser fork
/// (crotch) extensions of about hip / 16 front and hip / 8 back with the back fork
/// dropped so that the inseams match. Simplifications: whole (not half, cut-on-fold)
/// panels, no seam allowances, sleeve caps without ease (sewn point to point).
///
/// Every generator checks the sizing and returns a pattern that passes
/// Pattern::validate(); the error otherwise names the measurement or option.
#include "sim/garment/Pattern.h"

namespace hg {

struct TShirtOptions {
  float chestEase = 0.10f;      ///< m added to the chest girth (front + back width at the chest)
  float hemBelowWaist = 0.14f;  ///< m from the waist line down to the hem
  float sleeveLength = 0.24f;   ///< m from the shoulder point (cap crown) to the sleeve hem
  float sleeveEase = 0.08f;     ///< m added to the upper-arm girth (sleeve width at the underarm)
  /// m added to the neck girth for the neckline (width and front depth). With 0.03 the
  /// neckline was barely longer than the neck and the drape's most stretched edge; on the
  /// GPU backend (NVIDIA H200) it went past the 0.5 strain gate in the default outfit. With
  /// 0.09 the largest stretch moved to the shoulder point (0.28 CPU, 0.29 H200) and the
  /// posed and arms-down outfits end with 0 intersecting pairs on the CPU backend, though the
  /// posed one then sews in 70 frames instead of 3 (measured 2026-11-27; the sweep of other
  /// values on the GPU backend: bench/RESULTS.md, "NVIDIA H200").
  float neckEase = 0.09f;
  /// m the armhole's bottom (the underarm point) sits below the block's scye depth. An
  /// outer layer needs a deeper armhole than the one it covers, as a jacket's sits 2-4 cm
  /// below a shirt's (Aldrich's jacket and shirt blocks).
  float armholeDrop = 0.025f;
  /// m the shoulder seam runs past the shoulder point (the acromion); wider for an outer
  /// layer, whose sleeve is then set in beyond the inner layer's.
  float shoulderExtension = 0.03f;
};

struct SkirtOptions {
  float waistEase = 0.02f;  ///< m added to the waist girth
  float hipEase = 0.04f;    ///< m added to the hip girth
  float length = 0.55f;     ///< m from the waist line to the hem (must reach below the hip line)
  float flare = 0.30f;      ///< m of hem circumference beyond hip + ease (0: straight skirt)
  /// m taken in by each of the four waist darts (two per panel, midway between the centre
  /// and the side seam; Aldrich ch. 2, the skirt block's 2 cm darts) instead of in the side
  /// seam: the panel's waist is wider by two intakes, each dart a V whose legs are sewn
  /// together (seams "dart_<side>" of the panel). 0: no darts.
  float dartIntake = 0.0f;
  float frontDartLength = 0.10f;  ///< m, waist to the dart's point (Aldrich: 10 cm front)
  float backDartLength = 0.14f;   ///< m (Aldrich: 14 cm back)
};

struct TrouserOptions {
  float waistEase = 0.02f;   ///< m added to the waist girth
  float hipEase = 0.06f;     ///< m added to the hip girth
  float kneeGirth = 0.0f;    ///< m, trouser circumference at the knee (0: 0.8 x thigh girth)
  float hemGirth = 0.42f;    ///< m, trouser circumference at the hem
  float crotchEase = 0.02f;  ///< m the front crotch point sits below the body's crotch
  float hemHeight = 0.0f;    ///< m above the floor (0: 4 cm below the ankle height, at least 1 cm)
};

struct DressOptions {
  float chestEase = 0.06f;    ///< m added to the chest girth
  float waistEase = 0.04f;    ///< m added to the waist girth (bodice and skirt waist seam)
  float hipEase = 0.05f;      ///< m added to the hip girth
  float skirtLength = 0.60f;  ///< m from the waist line to the hem
  float flare = 0.40f;        ///< m of hem circumference beyond hip + ease
  float neckEase = 0.04f;     ///< m added to the neck girth for the neckline width
};

/// Front and back bodice (neckline, armholes, shoulder and side seams) and two set-in
/// short sleeves with caps sewn into the armholes and underarm seams. Panels: "front",
/// "back", "sleeve_left", "sleeve_right"; 10 seams.
Result<Pattern> tShirt(const GarmentSizing& sizing, const TShirtOptions& options = {});
/// A-line skirt: "front" and "back" sewn at the side seams; waist and hem open.
Result<Pattern> skirt(const GarmentSizing& sizing, const SkirtOptions& options = {});
/// Trousers: "front_left", "back_left", "front_right", "back_right" legs with crotch
/// curves; outseams, inseams, centre front and centre back (crotch) seams.
Result<Pattern> trousers(const GarmentSizing& sizing, const TrouserOptions& options = {});
/// Sleeveless dress: "bodice_front", "bodice_back" to the waist, "skirt_front",
/// "skirt_back" A-line from the waist; shoulder, side and waist seams.
Result<Pattern> dress(const GarmentSizing& sizing, const DressOptions& options = {});

}  // namespace hg
