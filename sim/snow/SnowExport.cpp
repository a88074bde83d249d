#include "sim/snow/SnowExport.h"

#include <png.h>

#include <assimp/scene.h>
#include <assimp/Exporter.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "sim/core/AtomicFile.h"
#include "sim/io/MeshExport.h"

namespace hg {

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

/// `status` as an error that names `path` (prefixed when its message does not already).
Status namingPath(Status status, const std::filesystem::path& path, const char* what) {
  if (status.ok()) return status;
  const std::string& message = status.error().message;
  if (message.find(path.string()) != std::string::npos) return status;
  return outputError(std::string("cannot write ") + what + " " + path.string() + ": " + message);
}

}  // namespace

TriangleMesh snowGroundSolid(const SnowCover& cover) {
  const SnowGrid& grid = cover.grid;
  TriangleMesh mesh;
  if (grid.nx < 2 || grid.nz < 2) return mesh;
  const int qx = grid.nx - 1, qz = grid.nz - 1;  // quads: 2 x 2 blocks of cells, (i, j) = lower corner cell
  std::vector<char> quad(std::size_t(qx) * std::size_t(qz), 0);
  auto hasQuad = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < qx && j < qz && quad[std::size_t(j) * std::size_t(qx) + std::size_t(i)] != 0;
  };
  for (int j = 0; j < qz; ++j)
    for (int i = 0; i < qx; ++i)
      quad[std::size_t(j) * std::size_t(qx) + std::size_t(i)] =
          cover.hasGround(grid.index(i, j)) && cover.hasGround(grid.index(i + 1, j)) &&
          cover.hasGround(grid.index(i + 1, j + 1)) && cover.hasGround(grid.index(i, j + 1));

  // Vertices, made when first used: per cell a top vertex (ground + snow) and, right after
  // it, its bottom vertex (ground); a second pair at a pinch cell (two quads meeting at
  // the cell only, diagonally), used by the quad below it in z.
  std::vector<std::uint32_t> first(grid.cellCount(), kNone), second(grid.cellCount(), kNone);
  auto vertex = [&](int qj, int ci, int cj) -> std::uint32_t {
    const std::size_t c = grid.index(ci, cj);
    const bool ne = hasQuad(ci, cj), nw = hasQuad(ci - 1, cj), sw = hasQuad(ci - 1, cj - 1), se = hasQuad(ci, cj - 1);
    const bool pinch = (ne && sw && !nw && !se) || (nw && se && !ne && !sw);
    std::uint32_t& slot = pinch && qj < cj ? second[c] : first[c];
    if (slot == kNone) {
      slot = std::uint32_t(mesh.positions.size());
      const glm::vec2 centre = grid.centre(ci, cj);
      const float g = cover.ground[c], s = c < cover.groundSnow.size() ? std::max(cover.groundSnow[c], 0.0f) : 0.0f;
      mesh.positions.emplace_back(centre.x, g + s, centre.y);
      mesh.positions.emplace_back(centre.x, g, centre.y);
    }
    return slot;
  };

  for (int j = 0; j < qz; ++j)
    for (int i = 0; i < qx; ++i) {
      if (!hasQuad(i, j)) continue;
      // Corners as in coveredSceneMesh: a (i, j), b (i + 1, j), c (i + 1, j + 1), d (i, j + 1).
      const std::uint32_t a = vertex(j, i, j), b = vertex(j, i + 1, j), c = vertex(j, i + 1, j + 1),
                          d = vertex(j, i, j + 1);
      mesh.indices.insert(mesh.indices.end(), {a, c, b, a, d, c});  // top, counter-clockwise from above
      mesh.indices.insert(mesh.indices.end(), {a + 1, b + 1, c + 1, a + 1, c + 1, d + 1});  // bottom, reversed
      // The top's outer directed edges u -> v and the quad across each; a wall where none:
      // triangles (v, u, u') and (v, u', v'), ' = bottom, which pair with the top's u -> v,
      // the bottom's v' -> u' and the neighbouring walls' vertical edges.
      const std::array<std::array<std::uint32_t, 2>, 4> edges = {{{b, a}, {c, b}, {d, c}, {a, d}}};
      const std::array<std::array<int, 2>, 4> across = {{{i, j - 1}, {i + 1, j}, {i, j + 1}, {i - 1, j}}};
      for (std::size_t e = 0; e < 4; ++e) {
        if (hasQuad(across[e][0], across[e][1])) continue;
        const std::uint32_t u = edges[e][0], v = edges[e][1];
        mesh.indices.insert(mesh.indices.end(), {v, u, u + 1, v, u + 1, v + 1});
      }
    }
  computeVertexNormals(mesh);
  return mesh;
}

TriangleMesh snowCoveredObjects(const SnowCover& cover) {
  TriangleMesh mesh;
  mesh.positions.reserve(cover.objects.positions.size());
  for (std::size_t v = 0; v < cover.objects.positions.size(); ++v) {
    const float snow = v < cover.objectSnow.size() ? std::max(cover.objectSnow[v], 0.0f) : 0.0f;
    mesh.positions.push_back(cover.objects.positions[v] + glm::vec3(0.0f, snow, 0.0f));
  }
  mesh.indices = cover.objects.indices;
  computeVertexNormals(mesh);
  return mesh;
}

Status exportSnowObj(const SnowCover& cover, const std::filesystem::path& path) {
  const std::array<std::pair<TriangleMesh, const char*>, 2> parts = {
      {{snowGroundSolid(cover), "snow_ground"}, {snowCoveredObjects(cover), "objects_with_snow"}}};
  unsigned count = 0;
  for (const auto& part : parts) count += part.first.indices.empty() ? 0u : 1u;
  if (count == 0)
    return Error{"cannot write snow OBJ " + path.string() + ": the cover has no ground quads and no objects"};

  // One aiScene, one child node per group (the OBJ exporter names each group after the
  // node holding its mesh); the aiScene owns and frees the raw arrays.
  auto scene = std::make_unique<aiScene>();
  scene->mRootNode = new aiNode("root");
  scene->mRootNode->mNumChildren = count;
  scene->mRootNode->mChildren = new aiNode*[count];
  scene->mNumMaterials = 1;
  scene->mMaterials = new aiMaterial* [1] { new aiMaterial() };
  scene->mNumMeshes = count;
  scene->mMeshes = new aiMesh*[count];
  unsigned m = 0;
  for (const auto& [mesh, name] : parts) {
    if (mesh.indices.empty()) continue;
    scene->mMeshes[m] = newAiMesh(mesh, name);
    auto* node = new aiNode(name);
    node->mParent = scene->mRootNode;
    node->mNumMeshes = 1;
    node->mMeshes = new unsigned int[1]{m};
    scene->mRootNode->mChildren[m] = node;
    ++m;
  }
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene.get(), "objnomtl");
  if (blob == nullptr) return Error{"cannot write snow OBJ " + path.string() + ": " + exporter.GetErrorString()};
  return namingPath(
      writeFileAtomically(path, std::span<const std::byte>(static_cast<const std::byte*>(blob->data), blob->size)),
      path, "snow OBJ");
}

float snowDepthPngScale(const SnowCover& cover) {
  float deepest = 0.0f;
  for (std::size_t c = 0; c < cover.groundSnow.size(); ++c)
    if (cover.hasGround(c) && std::isfinite(cover.groundSnow[c])) deepest = std::max(deepest, cover.groundSnow[c]);
  return std::max(deepest / 65535.0f, 1e-6f);
}

// ---- 16-bit PNG through libpng ----------------------------------------------------------
// libpng reports errors by longjmp: the functions holding the setjmp keep only trivially
// destructible locals (the buffers live in their callers), and the error text goes to a
// fixed buffer.

namespace {

struct PngError {
  char message[256] = {};
};

[[noreturn]] void pngError(png_structp png, png_const_charp message) {
  auto* error = static_cast<PngError*>(png_get_error_ptr(png));
  std::snprintf(error->message, sizeof error->message, "%s", message);
  png_longjmp(png, 1);
}

void pngWarning(png_structp, png_const_charp) {}

struct PngWriteBuffer {
  std::vector<unsigned char>* bytes;
};

void pngWriteData(png_structp png, png_bytep data, png_size_t size) {
  auto* out = static_cast<PngWriteBuffer*>(png_get_io_ptr(png));
  out->bytes->insert(out->bytes->end(), data, data + size);
}

void pngFlush(png_structp) {}

/// Encodes `rows` (height rows of width native-endian uint16) with the text chunks into
/// `bytes`; false with `error` set on failure.
bool encodePng16(std::vector<unsigned char>& bytes, const std::vector<png_bytep>& rows, int width, int height,
                 png_text* text, int textCount, PngError& error) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, pngError, pngWarning);
  if (png == nullptr) {
    std::snprintf(error.message, sizeof error.message, "cannot create the PNG writer");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::snprintf(error.message, sizeof error.message, "cannot create the PNG writer");
    return false;
  }
  PngWriteBuffer buffer{&bytes};
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, &buffer, pngWriteData, pngFlush);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_text(png, info, text, textCount);
  png_write_info(png, info);
  if constexpr (std::endian::native == std::endian::little) png_set_swap(png);  // PNG stores 16-bit big-endian
  png_write_image(png, const_cast<png_bytepp>(rows.data()));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}

struct PngReadBuffer {
  const std::vector<unsigned char>* bytes;
  std::size_t offset;
};

void pngReadData(png_structp png, png_bytep data, png_size_t size) {
  auto* in = static_cast<PngReadBuffer*>(png_get_io_ptr(png));
  if (size > in->bytes->size() - in->offset) png_error(png, "the file ends early");
  std::memcpy(data, in->bytes->data() + in->offset, size);
  in->offset += size;
}

struct PngHeader {
  png_uint_32 width = 0, height = 0;
  int bitDepth = 0, colourType = 0, interlace = 0;
  char scale[64] = {};  // the "hagoromo:metres_per_unit" text, empty when absent
};

/// Decodes in two steps around the caller's allocation of `pixels`: with pixels empty,
/// reads the header (returns true; header filled); otherwise reads the image into it.
bool decodePng16(const std::vector<unsigned char>& bytes, PngHeader& header, std::vector<std::uint16_t>& pixels,
                 std::vector<png_bytep>& rows, PngError& error) {
  if (bytes.size() < 8 || png_sig_cmp(bytes.data(), 0, 8) != 0) {
    std::snprintf(error.message, sizeof error.message, "not a PNG file");
    return false;
  }
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, pngError, pngWarning);
  if (png == nullptr) {
    std::snprintf(error.message, sizeof error.message, "cannot create the PNG reader");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    std::snprintf(error.message, sizeof error.message, "cannot create the PNG reader");
    return false;
  }
  PngReadBuffer buffer{&bytes, 0};
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, &buffer, pngReadData);
  png_read_info(png, info);
  png_get_IHDR(png, info, &header.width, &header.height, &header.bitDepth, &header.colourType, &header.interlace,
               nullptr, nullptr);
  if (pixels.empty()) {
    png_destroy_read_struct(&png, &info, nullptr);
    return true;
  }
  if constexpr (std::endian::native == std::endian::little) png_set_swap(png);
  png_read_image(png, rows.data());
  png_read_end(png, info);
  png_textp text = nullptr;
  int textCount = 0;
  png_get_text(png, info, &text, &textCount);
  for (int t = 0; t < textCount; ++t)
    if (std::strcmp(text[t].key, "hagoromo:metres_per_unit") == 0)
      std::snprintf(header.scale, sizeof header.scale, "%s", text[t].text);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

std::string formatFloat(float value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", double(value));
  return text;
}

}  // namespace

Status writeSnowDepthPng16(const SnowCover& cover, const std::filesystem::path& path, float metresPerUnit) {
  const SnowGrid& grid = cover.grid;
  if (grid.nx < 1 || grid.nz < 1 || cover.ground.size() != grid.cellCount())
    return Error{"cannot write snow depth PNG " + path.string() + ": the cover has no ground grid"};
  if (!std::isfinite(metresPerUnit) || !(metresPerUnit > 0.0f))
    return Error{"cannot write snow depth PNG " + path.string() + ": metres per unit must be a positive number (got " +
                 formatFloat(metresPerUnit) + ")"};
  if (grid.nx > 1000000 || grid.nz > 1000000)
    return Error{"cannot write snow depth PNG " + path.string() + ": the grid is too large for a PNG"};
  // Row 0 = the far z row (j = nz - 1): north (+z) up when x is right.
  std::vector<std::uint16_t> pixels(grid.cellCount(), 0);
  for (int j = 0; j < grid.nz; ++j)
    for (int i = 0; i < grid.nx; ++i) {
      const std::size_t c = grid.index(i, j);
      if (!cover.hasGround(c) || c >= cover.groundSnow.size()) continue;
      const double units = std::round(double(std::max(cover.groundSnow[c], 0.0f)) / double(metresPerUnit));
      pixels[std::size_t(grid.nz - 1 - j) * std::size_t(grid.nx) + std::size_t(i)] =
          std::uint16_t(std::clamp(std::isfinite(units) ? units : 65535.0, 0.0, 65535.0));
    }
  std::vector<png_bytep> rows(std::size_t(grid.nz));
  for (int r = 0; r < grid.nz; ++r)
    rows[std::size_t(r)] = reinterpret_cast<png_bytep>(pixels.data() + std::size_t(r) * std::size_t(grid.nx));
  std::string scaleKey = "hagoromo:metres_per_unit", scaleText = formatFloat(metresPerUnit);
  std::string cellKey = "hagoromo:cell_m", cellText = formatFloat(grid.cell);
  std::array<png_text, 2> text{};
  text[0].compression = PNG_TEXT_COMPRESSION_NONE;
  text[0].key = scaleKey.data();
  text[0].text = scaleText.data();
  text[0].text_length = scaleText.size();
  text[1].compression = PNG_TEXT_COMPRESSION_NONE;
  text[1].key = cellKey.data();
  text[1].text = cellText.data();
  text[1].text_length = cellText.size();
  std::vector<unsigned char> bytes;
  PngError error;
  if (!encodePng16(bytes, rows, grid.nx, grid.nz, text.data(), int(text.size()), error))
    return Error{"cannot write snow depth PNG " + path.string() + ": " + error.message};
  return namingPath(
      writeFileAtomically(path, std::as_bytes(std::span<const unsigned char>(bytes.data(), bytes.size()))), path,
      "snow depth PNG");
}

Result<std::vector<std::uint16_t>> readSnowDepthPng16(const std::filesystem::path& path, int* width, int* height,
                                                      float* metresPerUnit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open the snow depth PNG"};
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{path.string() + ": read error"};
  PngHeader header;
  PngError error;
  std::vector<std::uint16_t> pixels;
  std::vector<png_bytep> rows;
  if (!decodePng16(bytes, header, pixels, rows, error)) return Error{path.string() + ": " + error.message};
  if (header.bitDepth != 16 || header.colourType != PNG_COLOR_TYPE_GRAY || header.interlace != PNG_INTERLACE_NONE)
    return Error{path.string() + ": not a 16-bit greyscale non-interlaced PNG"};
  if (header.width == 0 || header.height == 0 || std::size_t(header.width) * header.height > (std::size_t(1) << 30))
    return Error{path.string() + ": bad image size"};
  pixels.assign(std::size_t(header.width) * header.height, 0);
  rows.resize(header.height);
  for (png_uint_32 r = 0; r < header.height; ++r)
    rows[r] = reinterpret_cast<png_bytep>(pixels.data() + std::size_t(r) * header.width);
  if (!decodePng16(bytes, header, pixels, rows, error)) return Error{path.string() + ": " + error.message};
  if (width) *width = int(header.width);
  if (height) *height = int(header.height);
  if (metresPerUnit)
    *metresPerUnit =
        header.scale[0] != 0 ? std::strtof(header.scale, nullptr) : std::numeric_limits<float>::quiet_NaN();
  return pixels;
}

}  // namespace hg
