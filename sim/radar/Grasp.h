#pragma once
/// The source paper's radar application (docs/methods.md section 3, "Application in the
/// source: grasp simulation"): hands of 17 radars each (HandModel: one for
/// the whole hand, one per palm/finger segment) detect a target by ID, approach it and
/// close their fingers on it, joint by joint, until contact. Every radar of every hand in
/// a frame goes to the backend in ONE RadarBackend::run (5 hands: 85 radars a frame).
///
/// Phases of a hand (one frame = one batch):
/// 1. Detect: the whole-hand radar is a wide detection radar along the palm normal; the
///    hand turns about its scan axis by a step each frame until the target's ID is seen,
///    then turns toward the centroid of the target's pixels (about the same axis) until it
///    is centred within a pixel.
/// 2. Approach: the whole-hand radar becomes a collision radar with the hand as its sensor,
///    moving along the palm normal (makeSweepQuery). Its first run uses a MaxSize volume;
///    its volume is then fitted to the hand from the mask M (fitProbeToMask) and M is
///    reused while the hand only translates (RadarQuery::reuseMask). Each frame the hand
///    moves by a step, or, when the radar reports a collision, by min L minus a clearance,
///    which ends the approach (time of impact minus a clearance).
/// 3. Close: each finger closes its proximal, then middle, then distal joint. The segments
///    that turn with the joint are collision radars sweeping along their palm-side normal
///    (the instantaneous motion of their palm-side surface, which holds the hinge); the
///    bend for a segment is the angle atan2(gap - clearance, lever) that brings the
///    closest point found (the contact point) to the clearance, the lever being that
///    point's distance from the joint axis along the segment (so sin(angle) ~ gap /
///    distance to the axis), the smallest over the turning segments, at most a step and
///    clamped to the limit. A rotation is not a translation, so each joint iterates: an
///    angle whose gap came out below half the clearance is unsafe and the next try is the
///    midpoint of the last safe and the unsafe angle. A joint ends in contact (gap within
///    [clearance / 2, clearance + tolerance]), at its limit, or after its iterations (then
///    at its last safe angle). Static segments keep a short look-ahead radar (monitoring).
///
/// The radar sensor is one object ID, so a hand is in the RadarScene either as one object
/// (phases 1 and 2: the whole-hand sensor) or as its 16 segment objects (phase 3), the
/// other collapsed to a point (zero-area triangles are never rasterized).
///
/// Targets: a sphere or a capsule (exact distance checks), or a watertight mesh held as a
/// sphere tree (docs/methods.md section 6): its distance checks (GraspObject::distance and
/// boxDistance) come from the tree and are accurate to about its voxel. The final pose is
/// also checked against a sphere tree of every target (GraspHandReport::segmentTreeOverlap).
///
/// Limitations: rigid hands, no dynamics or friction (a kinematic grasp); the target and
/// distractors are static; the aim is a turn about one axis; segments of the same hand
/// closing in the same frame do not see each other's motion within that frame (fingers are
/// laterally apart, the thumb outside the palm: HandModel).
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "sim/core/Result.h"
#include "sim/core/TriangleMesh.h"
#include "sim/radar/HandModel.h"
#include "sim/radar/Radar.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {

struct GraspMeshShape;

/// A static object of a grasp scene: an analytic shape (sphere, capsule, box: exact
/// distance checks) or a watertight mesh held as a sphere tree (distance checks accurate to
/// about the tree's voxel), and its radar ID.
struct GraspObject {
  enum class Shape { Sphere, Capsule, Box, Mesh };
  Shape shape = Shape::Sphere;
  glm::vec3 center{0.0f};      ///< sphere and box centre, m
  glm::vec3 a{0.0f}, b{0.0f};  ///< capsule axis ends, m
  float radius = 0.1f;         ///< sphere and capsule radius, m
  glm::vec3 size{0.1f};        ///< box edge lengths (axis-aligned), m
  std::uint32_t id = 1;        ///< radar object ID (the target's < 128: RadarHit::sees)
  int detail = 4;              ///< tessellation: icosphere subdivisions; capsule rings = 2 detail, segments = 8 detail
  /// Shape::Mesh: the mesh, its pose and its sphere tree (makeMeshGraspObject); shared,
  /// read-only, by copies of the object. Null for the analytic shapes.
  std::shared_ptr<const GraspMeshShape> meshShape;

  /// Signed distance of `p` to the shape, m (< 0 inside). Analytic shapes: exact. Mesh:
  /// the sphere tree's estimate (SphereTree::nearest without a search limit): the exact
  /// distance to the union of its leaf spheres outside it, minus the deepest leaf's
  /// overlap inside; the union matches the mesh to about a voxel of the tree.
  double distance(glm::dvec3 p) const;
  /// Distance between the solid box `lo..hi` of a frame (origin, orthonormal axes) and the
  /// shape, m. Sphere, capsule: exact, the distance from the box to the sphere's centre or
  /// the capsule's axis minus the radius (< 0 when they overlap, not a depth). Mesh: the
  /// same over the sphere tree's leaves, min over leaves of (section 7's box-to-centre
  /// distance - radius) (obbDistance, sim/spheretree/SphereTreeObb.h), about a voxel
  /// accurate. NaN for a box shape.
  double boxDistance(glm::dvec3 origin, const std::array<glm::dvec3, 3>& axes, glm::dvec3 lo, glm::dvec3 hi) const;
  /// A closed mesh that encloses the analytic shape (no face cuts into it), so a hand kept
  /// clear of the mesh by the radar is clear of the shape; a mesh object's mesh at its pose.
  TriangleMesh mesh() const;
  /// Sphere, box: the centre; capsule: the axis midpoint; mesh: the centre of its world box.
  glm::vec3 centre() const;
  float boundingRadius() const;
};

/// A mesh object's data (GraspObject::meshShape).
struct GraspMeshShape {
  std::string source;           ///< the file as given in the scene, or "builtin:bottle"
  TriangleMesh local;           ///< the mesh in the object's frame, scale applied, m
  RigidPose pose;               ///< object frame to world (the sphere trees' RigidPose)
  glm::vec3 position{0.0f};     ///< = pose.translation, m
  glm::vec3 rotationDeg{0.0f};  ///< as given: R = Rz Ry Rx, degrees
  float scale = 1.0f;
  int resolution = 128;          ///< sphere-tree voxels along the mesh's longest side
  SphereTree tree;               ///< of `local` (the tree's frame is the object's frame)
  TriangleMesh world;            ///< `local` placed at `pose`, with vertex normals
  glm::vec3 boundsCentre{0.0f};  ///< centre of the world mesh's box, m
  float boundingRadius = 0.0f;   ///< from boundsCentre to the farthest vertex, m
};

/// A mesh object from `local` (object frame, m) placed at `pose`, its sphere tree built at
/// `resolution` voxels along the longest side (SphereTree::fromMesh). Error: the mesh is
/// not watertight, too thin or empty (voxelizeSolid's message), prefixed with `what`.
Result<GraspObject> makeMeshGraspObject(TriangleMesh local, const RigidPose& pose, int resolution, std::uint32_t id,
                                        const std::string& source, const std::string& what);

/// R = Rz(z) Ry(y) Rx(x) for angles in degrees (rotation_deg of a scene's mesh object:
/// about x first, then y, then z, all about the world axes).
glm::mat3 rotationFromDegrees(glm::vec3 degrees);

/// Where a hand starts.
struct GraspHandPlacement {
  glm::vec3 position{0.0f};              ///< palm-face centre, m
  glm::vec3 facing{0.0f, 0.0f, 1.0f};    ///< initial palm normal
  glm::vec3 fingers{0.0f, 1.0f, 0.0f};   ///< initial finger direction (made orthogonal to facing)
  glm::vec3 scanAxis{0.0f, 1.0f, 0.0f};  ///< phase 1 turns about this axis through the palm centre
  float scale = 1.0f;                    ///< HandSpec::standard() scaled by this
};

/// Settings of the three phases (SI units; angles in rad).
struct GraspSettings {
  RadarImageSize image{32, 32};  ///< every radar of the batch (square is best)
  float detectWidth = 0.6f;      ///< phase 1 detection volume ws x hs x d, m
  float detectHeight = 0.6f;
  float detectDepth = 1.0f;
  float scanStep = 0.2618f;          ///< rad per frame (15 degrees)
  int maxAimFrames = 4;              ///< turns toward the target before approaching anyway
  float maxSize = 0.4f;              ///< phase 2 MaxSize volume width and height, m
  float approachStep = 0.05f;        ///< m per frame
  float approachClearance = 0.002f;  ///< m left between the hand and the obstacle
  float maxApproach = 1.5f;          ///< m; farther means the target was not reached (failure)
  float jointStep = 0.2618f;         ///< largest bend per frame, rad
  float graspClearance = 0.0008f;    ///< m: the gap a closing segment aims for
  float contactTolerance = 0.0008f;  ///< m above the clearance that still counts as contact
  int jointIterations = 12;          ///< frames per joint at most
  float segmentRange = 0.15f;        ///< phases 1-2: depth of the segments' detection radars, m
  float lookAhead = 0.01f;           ///< static segments' collision radars: distance to move, m
  int maxFrames = 400;               ///< the run stops after this many frames
  /// Phase 3 starts for all hands together: an arrived hand waits (its radars monitoring)
  /// until no hand detects or approaches any more, so none closes on a hand still moving in.
  bool closeTogether = true;

  /// Error names the setting.
  Status validate() const;
};

struct GraspScene {
  std::string name = "grasp";
  GraspObject target;
  std::vector<GraspObject> distractors;
  std::vector<GraspHandPlacement> hands;
  GraspSettings settings;
  std::filesystem::path outputDirectory = "out";
  int imageWidth = 800, imageHeight = 600;  ///< the picture, pixels
};

/// Parses a grasp scene (JSON). Errors start with `origin` and name the key. Keys:
///   name, target {shape: sphere|capsule|mesh, center, radius, a, b, id, detail},
///   distractors [{shape: sphere|capsule|box|mesh, center, radius, a, b, size, id, detail}],
///   hands [{position, facing, fingers, scan_axis, scale}],
///   radar {image, detect_width, detect_height, detect_depth, max_size, segment_range, look_ahead},
///   motion {scan_step_deg, max_aim_frames, approach_step, approach_clearance, max_approach,
///           joint_step_deg, grasp_clearance, contact_tolerance, joint_iterations, max_frames,
///           close_together},
///   output {directory, image_width, image_height}.
/// A mesh object {shape: "mesh", mesh: "file.obj" (any format assimp reads, relative to
/// `directory`) or builtin: "bottle" (makeBottle: 0.3 m tall standing on its base at the
/// object's origin, +y up), position [m], rotation_deg [x, y, z] (rotationFromDegrees),
/// scale (uniform, applied first), resolution (sphere-tree voxels along the longest side,
/// 8..512, default 128), id}: the mesh must be watertight; its sphere tree is built here.
Result<GraspScene> parseGraspScene(const std::string& text, const std::string& origin,
                                   const std::filesystem::path& directory = {});
/// Reads and parses a scene file (mesh files relative to its folder); error "<path>:
/// cannot open scene file" etc.
Result<GraspScene> loadGraspScene(const std::filesystem::path& path);

enum class GraspPhase { Detect, Approach, Close, Done, Failed };
std::string_view graspPhaseName(GraspPhase phase);

/// How a joint's closing ended.
enum class JointOutcome { Open, Contact, Limit, Iterations };
std::string_view jointOutcomeName(JointOutcome outcome);

struct GraspFingerReport {
  std::array<float, kHandJointsPerFinger> angles{};  ///< rad
  std::array<JointOutcome, kHandJointsPerFinger> outcomes{};
  std::array<int, kHandJointsPerFinger> iterations{};  ///< frames spent per joint
  bool contact = false;                                ///< some joint ended in contact
  bool atLimit = false;                                ///< every joint ended at its limit
  std::uint32_t contactObject = kRadarNoObject;        ///< what the contact was with
  /// Gap to the target along the segments' normals from the last frame's radars (the
  /// smallest over the finger's segments whose contact is the target), m; < 0: none
  /// within the look-ahead.
  float radarGap = -1.0f;
  double exactDistance = 0.0;   ///< exact: solid segment boxes to the target's shape, m
  double vertexDistance = 0.0;  ///< exact: segment vertices to the target's shape, m
};

struct GraspHandReport {
  GraspPhase phase = GraspPhase::Detect;
  std::string failure;               ///< why, for a failed hand
  std::array<int, 3> phaseFrames{};  ///< frames in detect, approach, close (closing)
  int waitFrames = 0;                ///< frames waited between approach and close (closeTogether)
  int scanFrames = 0;                ///< detect frames before the target's ID was seen
  bool targetSeen = false;
  glm::vec3 targetSeenAt{0.0f};                   ///< centroid of the target's pixels at the last aim, m
  float approachDistance = 0.0f;                  ///< m travelled in phase 2
  float approachGap = -1.0f;                      ///< m, radar gap left at the end of phase 2 (min L - move)
  std::uint32_t approachObject = kRadarNoObject;  ///< what phase 2 stopped at
  bool maskReused = false;                        ///< phase 2 kept M across frames at least once
  std::array<GraspFingerReport, kHandFingers> fingers{};
  std::array<double, kHandSegments> segmentExactDistance{};   ///< m, solid box to target
  std::array<double, kHandSegments> segmentVertexDistance{};  ///< m, vertices to target
  /// The sphere-tree check of the final pose (GraspReport::checkResolution): whether the
  /// segment's box and a leaf sphere of the target's tree collide (section 7's OBB-sphere
  /// test), and the penetration estimate max over leaves of (radius - box-to-centre
  /// distance), m (> 0: they interpenetrate by about that much, within about a voxel).
  std::array<bool, kHandSegments> segmentTreeOverlap{};
  std::array<double, kHandSegments> segmentTreePenetration{};
};

struct GraspReport {
  std::vector<GraspHandReport> hands;
  int frames = 0;                  ///< batches run (the last one measures the final pose)
  std::size_t radarsPerFrame = 0;  ///< hands x kHandRadars
  std::size_t radarsRun = 0;       ///< over all frames
  bool finished = false;           ///< every hand done or failed before maxFrames
  double radarSeconds = 0.0;       ///< wall time inside RadarBackend::run
  /// Where the exact-distance columns come from: "analytic" (sphere, capsule) or
  /// "sphere_tree" (a mesh target: its tree, accurate to about distanceVoxel).
  std::string distanceMethod = "analytic";
  float distanceVoxel = 0.0f;  ///< m, the mesh target's tree voxel (0: analytic)
  /// The sphere-tree check's tree of the target: a mesh target's own, else one built from
  /// the target's mesh at kGraspCheckResolution.
  int checkResolution = 0;
  float checkVoxel = 0.0f;  ///< m
  std::size_t checkSpheres = 0;
};

/// Voxels along the longest side of the sphere tree built from an analytic target's mesh
/// for the final pose's check (a mesh target's default resolution too).
inline constexpr int kGraspCheckResolution = 128;

/// The grasp of one scene: hands, radar scene, the per-frame batch.
class GraspSimulation {
 public:
  /// Builds the radar scene and the target's sphere tree for the final check (an analytic
  /// target's at kGraspCheckResolution). Error: invalid settings, IDs that clash (hands use
  /// 1000 + 17 h + k), a target ID >= 128, a box target.
  static Result<GraspSimulation> create(const GraspScene& scene);

  /// One frame: every hand's 17 radars in one RadarBackend::run, then every hand acts on
  /// its results. Error: the backend's.
  Status step(RadarBackend& radar);
  /// Frames until every hand is done or failed (or maxFrames), then one more frame that
  /// measures the final pose. `onFrame` is called after each frame.
  Status run(RadarBackend& radar, const std::function<void(const GraspSimulation&)>& onFrame = {});
  /// Every hand done or failed.
  bool finished() const;

  GraspReport report() const;
  int frame() const { return m_frame; }
  std::size_t handCount() const { return m_hands.size(); }
  const HandModel& hand(std::size_t h) const { return m_hands[h].model; }
  GraspPhase phase(std::size_t h) const { return m_hands[h].phase; }
  /// Radars of the last batch (hands x 17).
  std::size_t lastBatchSize() const { return m_lastBatch; }
  const RadarScene& radarScene() const { return m_scene; }
  const GraspScene& scene() const { return m_description; }
  /// Radar object IDs of hand h: the whole hand and segment s (0..15).
  static std::uint32_t handObjectId(std::size_t h) { return 1000u + std::uint32_t(h) * kHandRadars; }
  static std::uint32_t segmentObjectId(std::size_t h, int s) { return handObjectId(h) + 1u + std::uint32_t(s); }
  /// The target's and distractors' meshes (as the radars see them).
  const TriangleMesh& targetMesh() const { return m_targetMesh; }
  const std::vector<TriangleMesh>& distractorMeshes() const { return m_distractorMeshes; }
  /// Hands, target and distractors in one mesh (for export), with normals.
  TriangleMesh sceneMesh() const;

 private:
  struct FingerState {
    int joint = 0;  ///< the joint closing now (3: done)
    int iterations = 0;
    float safeAngle = 0.0f;     ///< largest angle of this joint known clear (rad)
    float unsafeAngle = -1.0f;  ///< smallest angle known too close (< 0: none)
    GraspFingerReport report;
  };
  struct HandState {
    HandModel model;
    GraspPhase phase = GraspPhase::Detect;
    bool segmentsLive = false;  ///< the scene holds the segments (else the whole hand)
    float scanned = 0.0f;
    int aimFrames = 0;
    bool haveFitted = false, maskValid = false;
    RadarQuery approachQuery;  ///< phase 2: the fitted volume (moves with the hand)
    float handLength = 0.0f;   ///< phase 2: the hand's length along the motion, m
    std::array<FingerState, kHandFingers> fingers{};
    std::array<RadarQuery, kHandRadars> queries{};
    std::array<RadarHit, kHandRadars> hits{};
    std::array<float, kHandSegments> sweep{};  ///< this frame's distance to move per segment (0: detect)
    std::array<float, kHandFingers> step{};    ///< this frame's bend per finger (rad)
    GraspHandReport report;
  };

  GraspSimulation() = default;
  void buildQueries(std::size_t h);
  Status consume(std::size_t h, const std::function<const RadarImages*()>& images);
  void consumeDetect(std::size_t h, const std::function<const RadarImages*()>& images);
  void consumeApproach(std::size_t h);
  void consumeClose(std::size_t h);
  Status syncScene(std::size_t h);
  RadarQuery sweepQuery(std::uint32_t id, std::span<const glm::vec3> points, glm::vec3 direction, float distance,
                        glm::vec3 up) const;

  GraspScene m_description;
  RadarScene m_scene;
  TriangleMesh m_targetMesh;
  std::vector<TriangleMesh> m_distractorMeshes;
  /// The target's sphere tree for the final pose's check, and its pose.
  std::shared_ptr<const SphereTree> m_checkTree;
  RigidPose m_checkPose;
  int m_checkResolution = 0;
  std::vector<HandState> m_hands;
  std::vector<RadarQuery> m_batch;
  int m_frame = 0;
  std::size_t m_lastBatch = 0, m_radarsRun = 0;
  double m_radarSeconds = 0.0;
  bool m_finishedBeforeLimit = false;
};

}  // namespace hg
