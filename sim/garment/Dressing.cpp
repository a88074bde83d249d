#include "sim/garment/Dressing.h"

#include <algorithm>
#include <cmath>

#include "sim/contact/SignedDistanceGrid.h"
#include "sim/garment/PanelMesher.h"
#include "sim/garment/Sewing.h"
#include "sim/geometry/CgalGeometry.h"

namespace hg {
namespace {

/// m, the spacing of the grown body's distance grid (GrownBody below).
constexpr float kGrownBodyCell = 0.01f;

/// Appends garment `g` to the merged cloth `all` (indices, panels and seams offset).
void appendGarment(SewnGarment& all, const SewnGarment& g) {
  const auto vertexOffset = std::uint32_t(all.mesh.positions.size());
  const auto panelOffset = std::uint32_t(all.panelOffsets.empty() ? 0 : all.panelOffsets.size() - 1);
  const auto seamOffset = std::uint32_t(all.seamNames.size());
  all.mesh.positions.insert(all.mesh.positions.end(), g.mesh.positions.begin(), g.mesh.positions.end());
  all.mesh.normals.insert(all.mesh.normals.end(), g.mesh.normals.begin(), g.mesh.normals.end());
  all.mesh.uvs.insert(all.mesh.uvs.end(), g.mesh.uvs.begin(), g.mesh.uvs.end());
  for (std::uint32_t i : g.mesh.indices) all.mesh.indices.push_back(i + vertexOffset);
  if (all.panelOffsets.empty()) all.panelOffsets.push_back(0);
  for (std::size_t p = 1; p < g.panelOffsets.size(); ++p) all.panelOffsets.push_back(g.panelOffsets[p] + vertexOffset);
  for (std::uint32_t p : g.panelOfTriangle) all.panelOfTriangle.push_back(p + panelOffset);
  all.cornerPanelCoords.insert(all.cornerPanelCoords.end(), g.cornerPanelCoords.begin(), g.cornerPanelCoords.end());
  for (SeamPair pair : g.pairs) {
    pair.a += vertexOffset;
    pair.b += vertexOffset;
    pair.seam += seamOffset;
    all.pairs.push_back(pair);
  }
  all.seamNames.insert(all.seamNames.end(), g.seamNames.begin(), g.seamNames.end());
  all.textureScale = g.textureScale;
}

}  // namespace

Result<Pattern> draftGarment(const GarmentSpec& spec, const GarmentSizing& sizing) {
  switch (spec.kind) {
    case GarmentKind::TShirt:
      return tShirt(sizing, spec.tshirt);
    case GarmentKind::Skirt:
      return skirt(sizing, spec.skirt);
    case GarmentKind::Trousers:
      return trousers(sizing, spec.trousers);
    case GarmentKind::Dress:
      return dress(sizing, spec.dress);
    case GarmentKind::Pattern:
      if (!spec.pattern) return Error{"the pattern file '" + spec.patternFile.string() + "' was not read"};
      return spec.pattern->pattern;
  }
  return Error{"unknown garment kind"};
}

void applyGarmentMaterials(ClothModel& model, const std::vector<std::uint32_t>& garmentOfVertex,
                           const std::vector<GarmentSpec>& outfit, const ClothMaterial& base) {
  auto specOf = [&](std::uint32_t vertex) -> const GarmentSpec* {
    const std::uint32_t g = garmentOfVertex[vertex];
    return g < outfit.size() && outfit[g].material ? &outfit[g] : nullptr;
  };
  if (std::none_of(outfit.begin(), outfit.end(), [](const GarmentSpec& spec) { return spec.material.has_value(); }))
    return;
  const bool bake = std::any_of(outfit.begin(), outfit.end(),
                                [](const GarmentSpec& spec) { return spec.material && spec.anisotropy; });
  for (kernels::ClothSpring& s : model.springs) {
    const GarmentSpec* spec = specOf(s.a);
    const glm::vec2 direction(s.uv.z, s.uv.w);
    if (spec) {
      s.baseStiffness *= spec->material->tensileStiffness / base.tensileStiffness;
      s.strainStiffening = spec->material->strainStiffening == glm::vec4(0.0f)
                               ? 0.0f
                               : kernels::anisotropyFactor(spec->material->strainStiffening, direction);
    }
    if (bake)
      s.baseStiffness *= spec && spec->anisotropy ? kernels::anisotropyFactor(*spec->anisotropy, direction)
                                                  : textureAnisotropyFactor(model, s);
  }
  if (bake) model.anisotropy.reset();
  applyAnisotropy(model);  // stiffness = base stiffness x the texture's factor (1 once baked)
  for (kernels::ClothHinge& h : model.hinges)
    if (const GarmentSpec* spec = specOf(h.vertices.x)) {
      const glm::vec2 direction = model.uvs[h.vertices.y] - model.uvs[h.vertices.x];
      h.stiffness *= spec->material->bendingRigidity * bendingDirectionFactor(*spec->material, direction) /
                     (base.bendingRigidity * bendingDirectionFactor(base, direction));
    }
  for (std::size_t v = 0; v < model.restPositions.size(); ++v)
    if (const GarmentSpec* spec = specOf(std::uint32_t(v)); spec && model.restPositions[v].w > 0.0f)
      model.restPositions[v].w *= base.arealDensity / spec->material->arealDensity;  // inverse mass ~ 1 / density
}

std::string_view garmentKindName(GarmentKind kind) {
  switch (kind) {
    case GarmentKind::TShirt:
      return "tshirt";
    case GarmentKind::Skirt:
      return "skirt";
    case GarmentKind::Trousers:
      return "trousers";
    case GarmentKind::Dress:
      return "dress";
    case GarmentKind::Pattern:
      return "pattern";
  }
  return "?";
}

std::string garmentName(const GarmentSpec& spec) {
  if (spec.kind != GarmentKind::Pattern || spec.patternFile.empty()) return std::string(garmentKindName(spec.kind));
  std::string name = spec.patternFile.stem().string();
  constexpr std::string_view kSuffix = "_specification";
  if (name.size() > kSuffix.size() && name.ends_with(kSuffix)) name.resize(name.size() - kSuffix.size());
  return name;
}

Result<GarmentKind> parseGarmentKind(std::string_view name) {
  for (GarmentKind kind :
       {GarmentKind::TShirt, GarmentKind::Skirt, GarmentKind::Trousers, GarmentKind::Dress, GarmentKind::Pattern})
    if (garmentKindName(kind) == name) return kind;
  return Error{"unknown garment type '" + std::string(name) + "' (tshirt, skirt, trousers, dress, pattern)"};
}

GarmentSizing garmentSizing(const BodyMeasurements& body) {
  // The mannequin's shoulder joints sit about 4 cm below and 3 cm inside the acromion
  // (the shoulder point a tailor measures from), as BodyFrame::fromSizing assumes.
  constexpr float kAcromionAbove = 0.04f, kAcromionOutside = 0.03f;
  GarmentSizing s;
  s.chestGirth = body.chestGirth;
  s.waistGirth = body.waistGirth;
  s.hipGirth = body.hipGirth;
  s.neckGirth = body.neckGirth;
  s.shoulderHeight = body.joint("upper_arm_l").y + kAcromionAbove;
  s.chestHeight = body.chestHeight;
  s.waistHeight = body.waistHeight;
  s.hipHeight = body.hipHeight;
  s.crotchHeight = body.crotchHeight;
  s.kneeHeight = body.joint("shin_l").y;
  s.ankleHeight = body.joint("foot_l").y;
  s.shoulderWidth = body.shoulderWidth + 2.0f * kAcromionOutside;
  s.armLength = body.armLength + kAcromionOutside;
  // Not measured on the mesh: the mannequin's default proportion (0.30 m at 1.75 m).
  s.upperArmGirth = 0.30f * body.height / 1.75f;
  s.thighGirth = body.thighGirth;
  return s;
}

BodyFrame bodyFrame(const BodyMeasurements& body) {
  BodyFrame f;
  f.leftShoulder = body.joint("upper_arm_l");
  f.leftElbow = body.joint("forearm_l");
  f.leftWrist = body.joint("hand_l");
  f.rightShoulder = body.joint("upper_arm_r");
  f.rightElbow = body.joint("forearm_r");
  f.rightWrist = body.joint("hand_r");
  f.leftHip = body.joint("thigh_l");
  f.leftKnee = body.joint("shin_l");
  f.leftAnkle = body.joint("foot_l");
  f.rightHip = body.joint("thigh_r");
  f.rightKnee = body.joint("shin_r");
  f.rightAnkle = body.joint("foot_r");
  const glm::vec3 chest = body.joint("chest");
  f.torsoAxis = glm::vec2(chest.x, chest.z);
  return f;
}

namespace {

/// The garments of one sewing pass: merged into one cloth, each vertex's garment.
struct SewingGroup {
  SewnGarment cloth;
  std::vector<std::uint32_t> garmentOfVertex;
};

/// Drafts, meshes, places and assembles the garments `members` of the outfit into one
/// cloth; the placement's wrapping surfaces grow by `radialOffset` (m). Errors name the
/// garment and the stage.
Result<SewingGroup> assembleGroup(const std::vector<GarmentSpec>& outfit, const std::vector<std::size_t>& members,
                                  const GarmentSizing& sizing, const BodyFrame& frame, const TriangleMesh& bodyMesh,
                                  const DressingSettings& dressing, float radialOffset, float& clearance) {
  SewingGroup group;
  MeshingOptions meshing;
  meshing.targetEdgeLength = dressing.edgeLength;
  PlacementOptions placement;
  placement.clearance = dressing.clearance;
  placement.radialOffset = radialOffset;
  for (std::size_t g : members) {
    const std::string label =
        "garment " + std::to_string(g) + " (" + std::string(garmentKindName(outfit[g].kind)) + ")";
    auto pattern = draftGarment(outfit[g], sizing);
    if (!pattern) return pattern.error().prefixed(label + ": pattern: ");
    meshing.seamLengthTolerance =
        outfit[g].pattern ? outfit[g].pattern->seamLengthTolerance : MeshingOptions{}.seamLengthTolerance;
    auto meshes = meshPattern(*pattern, meshing);
    if (!meshes) return meshes.error().prefixed(label + ": meshing: ");
    auto placed = outfit[g].pattern && !outfit[g].placeAroundBody
                      ? placeByTransforms(*pattern, *meshes, outfit[g].pattern->transforms, bodyMesh, placement)
                      : placePattern(*pattern, *meshes, sizing, frame, bodyMesh, placement);
    if (!placed) return placed.error().prefixed(label + ": placement: ");
    clearance = std::min(clearance, placed->minClearance);
    auto sewn = assembleGarment(*pattern, *meshes, *placed);
    if (!sewn) return sewn.error().prefixed(label + ": ");
    group.garmentOfVertex.insert(group.garmentOfVertex.end(), sewn->mesh.positions.size(), std::uint32_t(g));
    appendGarment(group.cloth, *sewn);
  }
  return group;
}

/// Sews one group: seam springs pull its panels together (no gravity, strong damping)
/// against the colliders of `sewing` until the largest gap is within the weld gap.
/// Returns the sewn positions; `frames` counts on from its value (the progress reports it).
Result<ClothState> sewGroup(const SewnGarment& cloth, const ClothMaterial& material,
                            const std::optional<AnisotropyTexture>& anisotropy, const ClothSettings& sewing,
                            const ClothSolverFactory& makeSolver, const DressingSettings& dressing, int& frames,
                            float& gap, const SewingProgress& progress) {
  ClothMaterial sewingMaterial = material;
  sewingMaterial.bendingRigidity *= dressing.sewingBendingScale;
  auto sewnModel = buildClothModel(cloth.mesh, sewingMaterial, {}, anisotropy);
  if (!sewnModel) return sewnModel.error().prefixed("sewing: ");
  if (Status s = applyPanelRest(*sewnModel, cloth.cornerPanelCoords, cloth.textureScale, true, dressing.restFromPanels);
      !s)
    return s.error().prefixed("sewing: ");
  const std::vector<SpringSpec> seams = seamSprings(cloth, dressing.seamStiffness, dressing.seamDamping);
  if (Status s = addSprings(*sewnModel, seams); !s) return s.error().prefixed("sewing: ");
  auto solver = makeSolver(std::make_shared<const ClothModel>(std::move(sewnModel).value()), sewing);
  if (!solver) return solver.error().prefixed("sewing: ");
  ClothState state = (*solver)->readState();
  gap = maxSeamGap(state.positions, cloth.pairs);
  for (int f = 1; gap > dressing.weldGap; ++f) {
    if (f > dressing.maxSewingFrames)
      return simulationError("sewing: the seams did not close within " + std::to_string(dressing.maxSewingFrames) +
                             " frames (largest gap " + std::to_string(gap * 1000.0f) + " mm, seam '" +
                             widestSeam(state.positions, cloth) + "')");
    const StepStatus status = (*solver)->step();
    if (any(status)) {
      const std::optional<FastestVertex> where = fastestVertex((*solver)->readState());
      return simulationError("sewing: frame " + std::to_string(f) + ": " + describe(status) +
                             (where ? "; " + describe(*where) : std::string()));
    }
    state = (*solver)->readState();
    gap = maxSeamGap(state.positions, cloth.pairs);
    ++frames;
    if (progress) progress(frames, gap);
  }
  return state;
}

/// The garments grouped for sewing, inner group first: one group of all of them, or with
/// a layer gap one group per layer (GarmentSpec::layer, else the place in the outfit).
std::vector<std::vector<std::size_t>> sewingGroups(const std::vector<GarmentSpec>& outfit, float layerGap) {
  std::vector<std::pair<std::uint32_t, std::size_t>> byLayer;
  for (std::size_t g = 0; g < outfit.size(); ++g)
    byLayer.push_back({layerGap > 0.0f ? outfit[g].layer.value_or(std::uint32_t(g)) : 0u, g});
  std::stable_sort(byLayer.begin(), byLayer.end(), [](auto a, auto b) { return a.first < b.first; });
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < byLayer.size(); ++i) {
    if (i == 0 || byLayer[i].first != byLayer[i - 1].first) groups.emplace_back();
    groups.back().push_back(byLayer[i].second);
  }
  return groups;
}

/// The body grown to hold the garments sewn so far, for the next layer's sewing: the
/// union of the body and, for every sewn vertex, a capsule from its closest point on the
/// body reaching `layerGap` (m) beyond the vertex, as a signed distance grid. The capsules
/// fill the space between the body and the inner layers, so an outer layer sewn against
/// the union closes its seams around them, not through them: where the T-shirt's sleeve
/// lies between two edges of the top's armhole seam, the seam closes around the filled
/// sleeve. Each layer's capsules are found once (one closest-point tree for the run).
class GrownBody {
 public:
  static Result<GrownBody> create(const TriangleMesh& bodyMesh, float layerGap, float edgeLength) {
    auto query = cgal::ClosedMeshQuery::create(bodyMesh);
    if (!query) return query.error();
    return GrownBody(bodyMesh, std::move(query).value(), layerGap, edgeLength);
  }

  /// Adds a capsule for every vertex of a layer just sewn.
  void add(std::span<const glm::vec4> sewn) {
    for (const glm::vec4& p : sewn) {
      const glm::vec3 onBody = m_query.closestPoint(glm::vec3(p));
      const float height = glm::distance(onBody, glm::vec3(p));
      const glm::vec3 out = height > 1e-6f ? (glm::vec3(p) - onBody) / height : glm::vec3(0.0f);
      m_capsules.push_back({onBody, onBody + out * std::max(height + m_layerGap - m_radius, 0.0f), m_radius});
      m_farthest = std::max(m_farthest, height);
    }
  }

  /// The union of the body and every capsule added so far.
  Result<std::shared_ptr<const SignedDistanceGrid>> grid() const {
    SignedDistanceOptions options;
    options.cellSize = kGrownBodyCell;
    options.band = std::max(0.04f, 3.0f * options.cellSize);
    const float reach = 3.0f * options.cellSize;  // the trilinear interpolation's and the contact's
    options.margin = std::max(options.band, m_farthest + m_layerGap + reach) + 2.0f * options.cellSize;
    auto grid = buildSignedDistanceGrid(m_bodyMesh, options);
    if (!grid) return grid.error();
    addCapsules(*grid, m_capsules, reach);
    return std::make_shared<const SignedDistanceGrid>(std::move(grid).value());
  }

 private:
  GrownBody(const TriangleMesh& bodyMesh, cgal::ClosedMeshQuery query, float layerGap, float edgeLength)
      : m_bodyMesh(bodyMesh),
        m_query(std::move(query)),
        m_layerGap(layerGap),
        // Each capsule's surface reaches layerGap beyond its vertex; its radius is at least
        // the panels' edge length, so that neighbouring capsules overlap and the union
        // stands above the cloth between its vertices too (2 cm edges, 1 cm gap: 0.63 cm at
        // a triangle's centre; with radius layerGap it would dip to the cloth between
        // vertices).
        m_radius(std::max(layerGap, edgeLength)) {}

  const TriangleMesh& m_bodyMesh;
  cgal::ClosedMeshQuery m_query;
  float m_layerGap, m_radius;
  std::vector<Capsule> m_capsules;
  float m_farthest = 0.0f;  ///< m, the farthest capsule's vertex from the body
};

}  // namespace

Result<DressedAvatar> dressAvatar(const TriangleMesh& bodyMesh, const BodyMeasurements& measurements,
                                  const std::vector<GarmentSpec>& outfit, const ClothMaterial& material,
                                  std::optional<AnisotropyTexture> anisotropy, const ClothSettings& settings,
                                  const ClothSolverFactory& makeSolver, const DressingSettings& dressing,
                                  const SewingProgress& progress) {
  if (outfit.empty()) return Error{"the outfit has no garments"};
  const GarmentSizing sizing = garmentSizing(measurements);
  if (Status s = sizing.validate(); !s) return s.error().prefixed("body measurements: ");
  const BodyFrame frame = bodyFrame(measurements);

  // Sewing settings: no gravity, strong damping, the projective integrator.
  ClothSettings sewing = settings;
  sewing.gravity = glm::vec3(0.0f);
  sewing.velocityDamping = dressing.sewingDamping;
  sewing.integrator = ClothIntegrator::ProjectiveJacobi;
  sewing.substeps = dressing.sewingSubsteps;
  sewing.solverIterations = dressing.sewingIterations;
  sewing.maxSubstepHalvings = 0;
  // Seams close edge to edge, which self contact would hold a thickness apart; the welded
  // garments drape with it.
  sewing.selfContact.enabled = false;
  // Seams half a metre apart snap together within a frame or two: tens of m/s, harmless
  // in the implicit projective step. Only runaway speeds are anomalies here.
  sewing.maxSpeed = std::max(settings.maxSpeed, 500.0f);

  // Each group is placed, assembled and sewn in turn, inner first; a group after the
  // first sews against the body grown to hold the groups before it (GrownBody), so that
  // no seam of an outer layer closes through an inner one.
  SewnGarment all;
  std::vector<std::uint32_t> garmentOfSewnVertex;
  std::vector<glm::vec4> sewnPositions;
  DressedAvatar dressed;
  float clearance = 1e9f, gap = 0.0f;
  const std::vector<std::vector<std::size_t>> groups = sewingGroups(outfit, dressing.layerGap);
  std::optional<GrownBody> grownBody;  // with more than one group
  for (std::size_t k = 0; k < groups.size(); ++k) {
    auto group =
        assembleGroup(outfit, groups[k], sizing, frame, bodyMesh, dressing, dressing.layerGap * float(k), clearance);
    if (!group) return group.error();
    auto state =
        sewGroup(group->cloth, material, anisotropy, sewing, makeSolver, dressing, dressed.sewingFrames, gap, progress);
    if (!state) return state.error();
    dressed.largestGapBeforeWeld = std::max(dressed.largestGapBeforeWeld, gap);
    appendGarment(all, group->cloth);
    garmentOfSewnVertex.insert(garmentOfSewnVertex.end(), group->garmentOfVertex.begin(), group->garmentOfVertex.end());
    sewnPositions.insert(sewnPositions.end(), state->positions.begin(), state->positions.end());
    if (k + 1 < groups.size()) {
      if (!grownBody) {
        auto created = GrownBody::create(bodyMesh, dressing.layerGap, dressing.edgeLength);
        if (!created) return created.error().prefixed("sewing: the body grown for the next layer: ");
        grownBody.emplace(std::move(created).value());
      }
      grownBody->add(state->positions);
      auto grown = grownBody->grid();
      if (!grown) return grown.error().prefixed("sewing: the body grown for the next layer: ");
      // The next group sews against the grown body in place of the body: the depth views,
      // the sphere trees (the props' too: sewing has no gravity) and the thin-feature
      // samples would see the body itself. Boxes and grounds stay.
      sewing.colliders.distanceGrid = std::move(grown).value();
      sewing.colliders.depthViews = nullptr;
      sewing.colliders.residentDepthViews = {};
      sewing.colliders.sphereTrees = nullptr;
      sewing.colliders.bodyVertices = nullptr;
    }
  }
  dressed.sewingPasses = int(groups.size());
  dressed.placementClearance = clearance;
  ClothState state;
  state.positions = std::move(sewnPositions);
  state.velocities.assign(state.positions.size(), glm::vec4(0.0f));

  // Welding: one vertex per seam pair; the model is rebuilt, hinges now cross the seams.
  auto welded = weldSeams(all, state.positions, dressing.weldGap);
  if (!welded) return welded.error().prefixed("welding: ").as(ErrorKind::Simulation);
  auto model = buildClothModel(welded->mesh, material, {}, std::move(anisotropy));
  if (!model) return model.error().prefixed("welding: ").as(ErrorKind::Simulation);
  if (Status s = applyPanelRest(*model, welded->cornerPanelCoords, welded->textureScale, true, dressing.restFromPanels);
      !s)
    return s.error().prefixed("welding: ").as(ErrorKind::Simulation);
  dressed.garmentOfVertex.assign(model->vertexCount(), 0);
  for (std::size_t i = 0; i < welded->oldToNew.size(); ++i)
    dressed.garmentOfVertex[welded->oldToNew[i]] = garmentOfSewnVertex[i];
  applyGarmentMaterials(*model, dressed.garmentOfVertex, outfit, material);
  dressed.state = carryState(state, *welded, *model);
  for (glm::vec4& v : dressed.state.velocities) v = glm::vec4(0.0f);
  dressed.weldedVertices = welded->mergedVertices;
  dressed.model = std::move(model).value();
  return dressed;
}

}  // namespace hg
