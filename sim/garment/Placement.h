#pragma once
/// Places the meshed panels of a pattern in 3D around a body, ready to be sewn.
///
/// Torso panels (BodyRegion::TorsoFront / TorsoBack) wrap an elliptic cylinder around
/// the vertical torso axis; at each height its perimeter is the garment's circumference
/// there (front width + back width), so matching side seams start on top of each other.
/// A panel's x (arc length from its centre line) maps isometrically to arc length on the
/// ellipse from the centre front (front) or centre back (back). Sleeves wrap circular
/// cylinders around the arm (shoulder -> elbow -> wrist, any pose: T, A), of the
/// sleeve's width as perimeter, with the crown line on top of the arm. Trouser legs wrap
/// circles around the leg (hip -> knee -> ankle) of perimeter front + back width, the
/// crease centred front and back; between the crotch and the hip line they blend into
/// the torso ellipse. Vertices then inside the body or closer than the clearance are
/// pushed radially away from their cylinder's axis in small steps until they are
/// outside (exact inside test: CGAL Side_of_triangle_mesh) and the clearance away. Coordinates: metres, y up, floor y =
/// 0, body faces +z, the body's left at +x.
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/garment/PanelMesher.h"
#include "sim/garment/Pattern.h"

namespace hg {

/// Joint positions of the body (m), in the body frame above.
struct BodyFrame {
  glm::vec3 leftShoulder{0.0f}, leftElbow{0.0f}, leftWrist{0.0f};
  glm::vec3 rightShoulder{0.0f}, rightElbow{0.0f}, rightWrist{0.0f};
  glm::vec3 leftHip{0.0f}, leftKnee{0.0f}, leftAnkle{0.0f};
  glm::vec3 rightHip{0.0f}, rightKnee{0.0f}, rightAnkle{0.0f};
  glm::vec2 torsoAxis{0.0f};      ///< (x, z) of the vertical torso axis
  float torsoDepthRatio = 0.72f;  ///< depth / width of the torso's elliptic cross-section

  /// Joints of an idealised body of these measurements, arms lowered `armDownDegrees`
  /// below horizontal (0: T-pose, 45: A-pose): shoulder joints 4 cm below and 3 cm
  /// inside the shoulder points, elbow at 0.46 of the arm length (Drillis & Contini
  /// 1966 segment proportions), hip joints at 0.1 x hip girth either side of the axis.
  static BodyFrame fromSizing(const GarmentSizing& sizing, float armDownDegrees = 0.0f);
};

struct PlacementOptions {
  float clearance = 0.01f;  ///< m: minimum distance kept from the body surface
  /// m: an outer layer's wrapping surfaces are larger by this: the torso ellipse's
  /// half-width (its depth in proportion), the sleeves' and legs' radii. Panels still wrap
  /// isometrically, so they cover less of the way round and their seams start further apart
  /// (sewing closes them). Every vertex starts outside the inner layers' surfaces, not only
  /// those near the body.
  float radialOffset = 0.0f;
  int maxPushIterations = 200;  ///< per vertex, each max(clearance / 2, 2 mm) radially outward from the wrapping axis
};

struct PlacedPattern {
  /// Per panel, per PanelMesh vertex: the placed position (m).
  std::vector<std::vector<glm::vec3>> panelPositions;
  float minClearance = 0.0f;  ///< m: smallest distance of a placed vertex from the body surface (all outside)
  int pushedVertices = 0;     ///< vertices moved because they were inside or closer than the clearance
};

/// Where a pattern file puts one panel: world (m) = rotation * (x, y, 0) + translation for
/// a point (x, y) of the panel plane (m). `rotation` may include a mirror (a panel read
/// clockwise and mirrored to the Pattern convention, sim/garment/GarmentCode.h).
struct PanelTransform {
  glm::mat3 rotation{1.0f};
  glm::vec3 translation{0.0f};
  glm::vec3 apply(glm::vec2 panelPoint) const { return rotation * glm::vec3(panelPoint, 0.0f) + translation; }
};

/// Turns the panel's points by `radians` (counter-clockwise) in its plane and folds the
/// inverse turn into `transform`, so every placed point stays where it was: what changes is
/// which way the panel's +y, the warp (Pattern.h), runs in the cloth. Turning by -a cuts the
/// panel with its warp at a degrees from the old +y (45: on the bias).
void turnPanel(Panel& panel, PanelTransform& transform, double radians);

/// R = Rz(rz) Ry(ry) Rx(rx) for angles (rx, ry, rz) in degrees: the Euler convention of
/// GarmentCode's pattern/rotation.py (euler_xyz_to_R), used by every pattern file.
glm::mat3 eulerXyzRotation(glm::dvec3 degrees);
/// The angles (degrees, ry in [-90, 90]) of a rotation: the inverse of eulerXyzRotation.
glm::dvec3 eulerXyzDegrees(const glm::mat3& rotation);

/// Places every panel by its transform (one per panel, e.g. from a GarmentCode file) and
/// pushes vertices inside the body, or within options.clearance of it, out through the
/// nearest point of its surface (panels from a file have no wrapping axis to push along).
/// Errors name the panel, as placePattern's.
Result<PlacedPattern> placeByTransforms(const Pattern& pattern, const PatternMesh& meshes,
                                        const std::vector<PanelTransform>& transforms, const TriangleMesh& body,
                                        const PlacementOptions& options = {});

/// Places every panel. `body` must be a closed triangle mesh (each connected component
/// closed; overlapping components are a union). Errors name the panel or the body
/// problem.
Result<PlacedPattern> placePattern(const Pattern& pattern, const PatternMesh& meshes, const GarmentSizing& sizing,
                                   const BodyFrame& frame, const TriangleMesh& body,
                                   const PlacementOptions& options = {});

}  // namespace hg
