#include "sim/cloth/ClothModel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stb/stb_image.h>
#include <assimp/Importer.hpp>
#include <glm/geometric.hpp>

#include "sim/core/Limits.h"
#include "sim/io/AssimpRead.h"

namespace hg {

glm::vec4 AnisotropyTexture::texel(int x, int y) const {
  const std::uint8_t* p = &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4];
  return glm::vec4(p[0], p[1], p[2], p[3]) / 255.0f;
}

AnisotropyTexture AnisotropyTexture::uniform(glm::vec4 multipliers, float scale) {
  AnisotropyTexture t;
  t.width = t.height = 1;
  t.scale = scale;
  const glm::vec4 v = glm::clamp(multipliers / scale, 0.0f, 1.0f) * 255.0f + 0.5f;
  t.rgba = {std::uint8_t(v.x), std::uint8_t(v.y), std::uint8_t(v.z), std::uint8_t(v.w)};
  return t;
}

Result<AnisotropyTexture> loadAnisotropyTexture(const std::filesystem::path& path, float scale) {
  if (!(scale > 0.0f) || !std::isfinite(scale)) return Error{path.string() + ": anisotropy scale must be > 0"};
  int width = 0, height = 0, channels = 0;
  // The header first: size and channels are checked before anything is decoded.
  if (stbi_info(path.c_str(), &width, &height, &channels) == 0)
    return Error{path.string() + ": cannot read anisotropy texture (" + stbi_failure_reason() + ")"};
  if (width > limits::kMaxTextureSide || height > limits::kMaxTextureSide)
    return Error{path.string() + ": anisotropy texture of " + std::to_string(width) + " x " + std::to_string(height) +
                 " pixels is out of range (at most " + std::to_string(limits::kMaxTextureSide) + " per side)"};
  if (channels != 4)
    return Error{path.string() + ": anisotropy texture has " + std::to_string(channels) +
                 " channel(s); it needs RGBA (R warp, G weft, B and A the two bias directions)"};
  stbi_uc* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
  if (data == nullptr) return Error{path.string() + ": cannot read anisotropy texture (" + stbi_failure_reason() + ")"};
  AnisotropyTexture t;
  t.width = width;
  t.height = height;
  t.scale = scale;
  t.rgba.resize(std::size_t(width) * std::size_t(height) * 4);
  const std::size_t row = std::size_t(width) * 4;
  for (int y = 0; y < height; ++y)  // flip: GL row 0 is the image's bottom row
    std::copy_n(data + std::size_t(height - 1 - y) * row, row, t.rgba.data() + std::size_t(y) * row);
  stbi_image_free(data);
  return t;
}

TriangleMesh ClothModel::restMesh() const {
  TriangleMesh mesh;
  mesh.positions.reserve(restPositions.size());
  for (const glm::vec4& p : restPositions) mesh.positions.emplace_back(p);
  mesh.uvs = uvs;
  mesh.indices = triangles;
  computeVertexNormals(mesh);
  return mesh;
}

float bendingDirectionFactor(const ClothMaterial& material, glm::vec2 uvDirection) {
  const glm::vec3& f = material.bendingAnisotropy;  // warp, bias, weft -> channels (warp, weft, bias, bias)
  return f == glm::vec3(1.0f) ? 1.0f : kernels::anisotropyFactor(glm::vec4(f.x, f.z, f.y, f.y), uvDirection);
}

float textureAnisotropyFactor(const ClothModel& model, const kernels::ClothSpring& spring) {
  if (!model.anisotropy) return 1.0f;
  const AnisotropyTexture& t = *model.anisotropy;
  const kernels::BilinearTaps taps = kernels::bilinearTaps(glm::vec2(spring.uv), glm::ivec2(t.width, t.height));
  const glm::vec4 k =
      kernels::blendTaps(t.texel(taps.texels.x, taps.texels.y), t.texel(taps.texels.z, taps.texels.y),
                         t.texel(taps.texels.x, taps.texels.w), t.texel(taps.texels.z, taps.texels.w), taps);
  return kernels::anisotropyFactor(k * t.scale, glm::vec2(spring.uv.z, spring.uv.w));
}

void applyAnisotropy(ClothModel& model) {
  for (kernels::ClothSpring& s : model.springs) s.stiffness = s.baseStiffness * textureAnisotropyFactor(model, s);
}

namespace {

void buildAdjacency(ClothModel& model) {
  const std::size_t n = model.vertexCount();
  // Springs: each appears at both ends, sorted by neighbour.
  std::vector<std::vector<kernels::SpringEntry>> springsOf(n);
  for (std::uint32_t s = 0; s < model.springs.size(); ++s) {
    springsOf[model.springs[s].a].push_back({model.springs[s].b, s});
    springsOf[model.springs[s].b].push_back({model.springs[s].a, s});
  }
  model.springOffsets.assign(1, 0);
  model.springEntries.clear();
  for (auto& list : springsOf) {
    std::sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.neighbor < y.neighbor; });
    model.springEntries.insert(model.springEntries.end(), list.begin(), list.end());
    model.springOffsets.push_back(std::uint32_t(model.springEntries.size()));
  }
  // Hinges: four roles each, in hinge order.
  std::vector<std::vector<std::uint32_t>> hingesOf(n);
  for (std::uint32_t h = 0; h < model.hinges.size(); ++h) {
    const glm::uvec4 v = model.hinges[h].vertices;
    for (std::uint32_t role = 0; role < 4; ++role) hingesOf[v[int(role)]].push_back(h * 4 + role);
  }
  model.hingeOffsets.assign(1, 0);
  model.hingeEntries.clear();
  for (const auto& list : hingesOf) {
    model.hingeEntries.insert(model.hingeEntries.end(), list.begin(), list.end());
    model.hingeOffsets.push_back(std::uint32_t(model.hingeEntries.size()));
  }
}

}  // namespace

Status addSprings(ClothModel& model, std::span<const SpringSpec> springs) {
  const std::size_t n = model.vertexCount();
  for (std::size_t i = 0; i < springs.size(); ++i) {
    const SpringSpec& s = springs[i];
    const std::string name =
        "extra spring " + std::to_string(i) + " (" + std::to_string(s.a) + "-" + std::to_string(s.b) + ")";
    if (s.a >= n || s.b >= n)
      return Error{name + " has a vertex outside the cloth's " + std::to_string(n) + " vertices"};
    if (s.a == s.b) return Error{name + " joins a vertex to itself"};
    if (!(s.restLength >= 0.0f) || !std::isfinite(s.restLength)) return Error{name + ": rest length must be >= 0 m"};
    if (!(s.stiffness > 0.0f) || !std::isfinite(s.stiffness)) return Error{name + ": stiffness must be > 0 N/m"};
    if (!(s.damping >= 0.0f) || !std::isfinite(s.damping)) return Error{name + ": damping must be >= 0 N s/m"};
  }
  for (const SpringSpec& spec : springs) {
    kernels::ClothSpring s{};
    s.a = std::min(spec.a, spec.b);
    s.b = std::max(spec.a, spec.b);
    s.restLength = s.restLength0 = spec.restLength;
    s.baseStiffness = s.stiffness = spec.stiffness;
    s.damping = spec.damping;
    const glm::vec2 mid = model.uvs.size() == n ? 0.5f * (model.uvs[s.a] + model.uvs[s.b]) : glm::vec2(0.0f);
    s.uv = glm::vec4(mid, 0.0f, 0.0f);
    model.springs.push_back(s);
  }
  buildAdjacency(model);
  applyAnisotropy(model);
  return Status::success();
}

Result<ClothModel> buildClothModel(const TriangleMesh& mesh, const ClothMaterial& material, const PinSet& pinned,
                                   std::optional<AnisotropyTexture> anisotropy) {
  const std::size_t n = mesh.positions.size();
  if (n == 0 || mesh.indices.empty()) return Error{"cloth mesh has no triangles"};
  if (mesh.indices.size() % 3 != 0) return Error{"cloth mesh index count is not a multiple of 3"};
  if (mesh.uvs.size() != n) return Error{"cloth mesh has no UVs (needed to orient warp and weft)"};
  for (float v : {material.arealDensity, material.tensileStiffness})
    if (!(v > 0.0f) || !std::isfinite(v)) return Error{"cloth areal density and tensile stiffness must be > 0"};
  for (float v : {material.bendingRigidity, material.springDamping})
    if (!(v >= 0.0f) || !std::isfinite(v)) return Error{"cloth bending rigidity and damping must be >= 0"};
  for (int k = 0; k < 3; ++k)
    if (!(material.bendingAnisotropy[k] > 0.0f) || !std::isfinite(material.bendingAnisotropy[k]))
      return Error{"cloth bending anisotropy factors must be > 0"};
  for (int k = 0; k < 4; ++k)
    if (!(material.strainStiffening[k] >= 0.0f) || !(material.strainStiffening[k] <= 1000.0f))
      return Error{"cloth strain stiffening must be in 0..1000"};
  if (anisotropy && (anisotropy->width <= 0 || anisotropy->height <= 0 ||
                     anisotropy->rgba.size() != std::size_t(anisotropy->width) * std::size_t(anisotropy->height) * 4))
    return Error{"anisotropy texture has no pixels"};

  ClothModel model;
  model.uvs = mesh.uvs;
  model.triangles = mesh.indices;
  model.anisotropy = std::move(anisotropy);
  const std::size_t triangleCount = mesh.indices.size() / 3;
  std::vector<float> areas(triangleCount);
  std::vector<float> vertexArea(n, 0.0f);
  double totalArea = 0.0;
  for (std::size_t t = 0; t < triangleCount; ++t) {
    const std::uint32_t a = mesh.indices[3 * t], b = mesh.indices[3 * t + 1], c = mesh.indices[3 * t + 2];
    if (a >= n || b >= n || c >= n) return Error{"triangle " + std::to_string(t) + " has a vertex index out of range"};
    areas[t] =
        0.5f * glm::length(glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]));
    if (!(areas[t] > 0.0f)) return Error{"triangle " + std::to_string(t) + " is degenerate (zero area)"};
    for (std::uint32_t v : {a, b, c}) vertexArea[v] += areas[t] / 3.0f;
    totalArea += areas[t];
  }
  model.totalMass = float(totalArea) * material.arealDensity;
  model.areaWeightedMass = material.areaWeightedMass;

  // Mass: W/p per vertex (docs/methods.md section 1) or area-weighted; pins get inverse mass 0.
  std::vector<bool> isPinned(n, false);
  for (std::uint32_t p : pinned) {
    if (p >= n)
      return Error{"pinned vertex " + std::to_string(p) + " is outside the cloth's " + std::to_string(n) + " vertices"};
    isPinned[p] = true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const float mass = material.areaWeightedMass ? vertexArea[i] * material.arealDensity : model.totalMass / float(n);
    if (!(mass > 0.0f)) return Error{"vertex " + std::to_string(i) + " belongs to no triangle"};
    model.restPositions.emplace_back(mesh.positions[i], isPinned[i] ? 0.0f : 1.0f / mass);
  }

  // Edges: (min, max) -> the triangles using them, with the direction they run in.
  struct EdgeUse {
    std::uint32_t triangle;
    std::uint32_t opposite;
    bool forward;  // the triangle runs min -> max
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<EdgeUse>> edges;
  for (std::uint32_t t = 0; t < triangleCount; ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = mesh.indices[3 * t + k], b = mesh.indices[3 * t + (k + 1) % 3],
                          c = mesh.indices[3 * t + (k + 2) % 3];
      edges[{std::min(a, b), std::max(a, b)}].push_back({t, c, a < b});
    }
  for (const auto& [key, uses] : edges) {
    const auto [a, b] = key;
    if (uses.size() > 2)
      return Error{"edge " + std::to_string(a) + "-" + std::to_string(b) + " is shared by " +
                   std::to_string(uses.size()) + " triangles (non-manifold)"};
    float adjacentArea = 0.0f;
    for (const EdgeUse& u : uses) adjacentArea += areas[u.triangle];
    const glm::vec3 pa = mesh.positions[a], pb = mesh.positions[b];
    const float length = glm::distance(pa, pb);
    kernels::ClothSpring s{};
    s.a = a;
    s.b = b;
    s.restLength = s.restLength0 = length;
    s.baseStiffness = material.tensileStiffness * (adjacentArea / 3.0f) / (length * length);
    s.stiffness = s.baseStiffness;
    s.damping = material.springDamping;
    const glm::vec2 uvA = mesh.uvs[a], uvB = mesh.uvs[b];
    s.uv = glm::vec4(0.5f * (uvA + uvB), uvB - uvA);
    if (material.strainStiffening != glm::vec4(0.0f))
      s.strainStiffening = kernels::anisotropyFactor(material.strainStiffening, uvB - uvA);
    model.springs.push_back(s);
    if (uses.size() == 2) {
      if (uses[0].forward == uses[1].forward)
        return Error{"triangles " + std::to_string(uses[0].triangle) + " and " + std::to_string(uses[1].triangle) +
                     " have inconsistent winding across edge " + std::to_string(a) + "-" + std::to_string(b)};
      // Hinge x0 -> x1 as run by the first triangle (wing x2), the other has wing x3.
      const EdgeUse& first = uses[0].forward ? uses[0] : uses[1];
      const EdgeUse& second = uses[0].forward ? uses[1] : uses[0];
      kernels::ClothHinge h{};
      h.vertices = glm::uvec4(a, b, first.opposite, second.opposite);
      h = kernels::withRestAngle(
          h, kernels::hingeAngle(pa, pb, mesh.positions[first.opposite], mesh.positions[second.opposite]));
      h.stiffness = material.bendingRigidity * bendingDirectionFactor(material, uvB - uvA) * 3.0f * length * length /
                    adjacentArea;
      model.hinges.push_back(h);
    }
  }
  buildAdjacency(model);
  applyAnisotropy(model);
  return model;
}

Result<TriangleMesh> makeSquareSheet(const SquareClothSpec& spec) {
  const int r = spec.resolution;
  if (r < 2 || r > 4096)
    return Error{"cloth resolution " + std::to_string(r) + " is outside 2..4096 vertices per side"};
  if (!(spec.size > 0.0f) || !std::isfinite(spec.size)) return Error{"cloth size must be a positive number of metres"};
  TriangleMesh mesh;
  for (int row = 0; row < r; ++row)
    for (int col = 0; col < r; ++col) {
      const float u = float(col) / float(r - 1), v = float(row) / float(r - 1);
      mesh.positions.push_back(spec.center + glm::vec3((u - 0.5f) * spec.size, 0.0f, (0.5f - v) * spec.size));
      mesh.uvs.emplace_back(u, v);
    }
  auto index = [r](int row, int col) { return std::uint32_t(row * r + col); };
  for (int row = 0; row + 1 < r; ++row)
    for (int col = 0; col + 1 < r; ++col) {
      const std::uint32_t a = index(row, col), b = index(row, col + 1), c = index(row + 1, col + 1),
                          d = index(row + 1, col);
      if ((row + col) % 2 == 0)
        mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
      else
        mesh.indices.insert(mesh.indices.end(), {a, b, d, b, c, d});
    }
  computeVertexNormals(mesh);
  return mesh;
}

Result<TriangleMesh> importClothMesh(const std::filesystem::path& path, const ImportFrame& frame) {
  Assimp::Importer importer;
  const aiScene* scene = readWithAssimp(
      importer, path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices);
  if (scene == nullptr) return Error{path.string() + ": cannot read mesh (" + importer.GetErrorString() + ")"};
  TriangleMesh mesh;
  std::map<std::tuple<float, float, float>, std::uint32_t> welded;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* in = scene->mMeshes[m];
    if (!(in->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    if (!in->HasTextureCoords(0)) return Error{path.string() + ": mesh '" + in->mName.C_Str() + "' has no UVs"};
    std::vector<std::uint32_t> remap(in->mNumVertices);
    for (unsigned i = 0; i < in->mNumVertices; ++i) {
      const aiVector3D p = in->mVertices[i];
      const aiVector3D uv = in->mTextureCoords[0][i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(uv.x) ||
          !std::isfinite(uv.y))
        return Error{path.string() + ": mesh '" + in->mName.C_Str() + "' vertex " + std::to_string(i) +
                     " has a non-finite position or UV (NaN or infinite)"};
      const auto [it, inserted] = welded.try_emplace({p.x, p.y, p.z}, std::uint32_t(mesh.positions.size()));
      if (inserted) {
        mesh.positions.emplace_back(p.x, p.y, p.z);
        mesh.uvs.emplace_back(uv.x, uv.y);
      }
      remap[i] = it->second;
    }
    for (unsigned f = 0; f < in->mNumFaces; ++f) {
      if (in->mFaces[f].mNumIndices != 3) continue;
      for (int k = 0; k < 3; ++k) mesh.indices.push_back(remap[in->mFaces[f].mIndices[k]]);
    }
  }
  if (mesh.indices.empty()) return Error{path.string() + ": no triangles"};
  transformMesh(mesh, importTransform(resolveFileFrame(*scene, path, frame), frame));
  computeVertexNormals(mesh);
  return mesh;
}

std::vector<kernels::HingeStencil> hingeStencils(const ClothModel& model) {
  auto key = [](std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t(std::min(a, b)) << 32) | std::uint64_t(std::max(a, b));
  };
  std::unordered_map<std::uint64_t, float> restLengthOfEdge;
  restLengthOfEdge.reserve(model.springs.size());
  for (const kernels::ClothSpring& spring : model.springs)
    restLengthOfEdge.emplace(key(spring.a, spring.b), spring.restLength);
  std::vector<kernels::HingeStencil> stencils;
  stencils.reserve(model.hinges.size());
  for (const kernels::ClothHinge& hinge : model.hinges) {
    const glm::uvec4 v = hinge.vertices;
    const std::array<std::uint64_t, 5> edges{key(v.x, v.y), key(v.x, v.z), key(v.y, v.z), key(v.x, v.w), key(v.y, v.w)};
    std::array<float, 5> lengths{};
    bool complete = true;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const auto found = restLengthOfEdge.find(edges[e]);
      complete = complete && found != restLengthOfEdge.end();
      if (found != restLengthOfEdge.end()) lengths[e] = found->second;
    }
    stencils.push_back(
        complete ? kernels::hingeStencilFromLengths(lengths[0], lengths[1], lengths[2], lengths[3], lengths[4])
                 : kernels::hingeStencilFromLengths(0.0f, 0.0f, 0.0f, 0.0f, 0.0f));
  }
  return stencils;
}

std::vector<std::uint32_t> vertexTriangleLists(const ClothModel& model) {
  const std::size_t n = model.vertexCount();
  std::vector<std::uint32_t> lists(n + 1 + model.triangles.size(), 0u);
  for (std::uint32_t v : model.triangles) ++lists[v + 1];
  for (std::size_t i = 0; i < n; ++i) lists[i + 1] += lists[i];
  std::vector<std::uint32_t> next(lists.begin(), lists.begin() + std::ptrdiff_t(n));
  for (std::size_t k = 0; k < model.triangles.size(); ++k)
    lists[n + 1 + next[model.triangles[k]]++] = std::uint32_t(k / 3);
  return lists;
}

}  // namespace hg
