#include "sim/io/AssimpRead.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include <assimp/postprocess.h>

// Debian's libassimp 5.2.5 is built with ASSIMP_BUILD_DEBUG: its internal consistency
// checks (ai_assert) call Assimp::aiAssertViolation, whose default handler prints and
// calls std::abort(), and the installed headers do not declare setAiAssertHandler, the
// library's own way to replace it. Malformed files reach such checks: fuzzing found an OFF
// file whose face list is shorter than its header, which trips the triangulation step's
// face count check (tests/fuzz/corpus/MeshImport/off_short_face_list). The library calls
// this function through its PLT and the executable exports it (it is defined in a linked
// shared library), so this definition takes precedence: it throws instead, and
// Importer::ReadFile, which catches every std::exception (ASSIMP_CATCH_GLOBAL_EXCEPTIONS),
// frees the partial scene and returns nullptr with the message as its error string.
// Written here because the library offers no exported hook; it lives in the same file as
// readWithAssimp so that every program that reads with assimp links it.
namespace Assimp {
void aiAssertViolation(const char* failedExpression, const char* file, int line) {
  throw std::runtime_error(std::string("assimp's internal check failed (") + failedExpression + " at " + file + ":" +
                           std::to_string(line) + "); the file is malformed");
}
}  // namespace Assimp

namespace hg {

const aiScene* readWithAssimp(Assimp::Importer& importer, const std::filesystem::path& path,
                              unsigned postProcessFlags) {
  // aiProcess_ValidateDataStructure: the library's own check of what its importer built
  // (face indices within the vertex list, no missing arrays), before any other step reads
  // it. Without it, an OFF file with a short face found by fuzzing left a face without
  // indices that the mesh merging of aiProcess_PreTransformVertices dereferenced (a crash;
  // tests/fuzz/corpus/MeshImport/off_face_without_indices). It only reads the scene.
  return importer.ReadFile(path.string(), postProcessFlags | aiProcess_ValidateDataStructure);
}

namespace {

/// A number from the scene's metadata (any numeric type), or none.
std::optional<double> metadataNumber(const aiScene& scene, const char* key) {
  const aiMetadata* meta = scene.mMetaData;
  if (meta == nullptr) return std::nullopt;
  for (unsigned i = 0; i < meta->mNumProperties; ++i) {
    if (std::strcmp(meta->mKeys[i].C_Str(), key) != 0) continue;
    const aiMetadataEntry& e = meta->mValues[i];
    switch (e.mType) {
      case AI_INT32:
        return double(*static_cast<const std::int32_t*>(e.mData));
      case AI_UINT64:
        return double(*static_cast<const std::uint64_t*>(e.mData));
      case AI_FLOAT:
        return double(*static_cast<const float*>(e.mData));
      case AI_DOUBLE:
        return *static_cast<const double*>(e.mData);
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

FileFrame resolveFileFrame(const aiScene& scene, const std::filesystem::path& path, const ImportFrame& frame) {
  FileFrame report;
  const std::string ext = lowerExtension(path);
  const bool fbx = ext == ".fbx", gltf = ext == ".gltf" || ext == ".glb", collada = ext == ".dae";
  if (frame.up) {
    report.up = *frame.up;
    report.upSource = "scene";
  } else if (const auto axis = metadataNumber(scene, "UpAxis"); fbx && axis && *axis >= 0.0 && *axis <= 2.0) {
    const bool negative = metadataNumber(scene, "UpAxisSign").value_or(1.0) < 0.0;
    const FileAxis byIndex[3][2] = {
        {FileAxis::PosX, FileAxis::NegX}, {FileAxis::PosY, FileAxis::NegY}, {FileAxis::PosZ, FileAxis::NegZ}};
    report.up = byIndex[int(*axis)][negative ? 1 : 0];
    report.upSource = "file (FBX UpAxis)";
  } else {
    report.up = FileAxis::PosY;
    report.upSource = gltf      ? "glTF specification"
                      : collada ? "file (COLLADA up_axis, applied by assimp)"
                                : "default (+y)";
  }
  if (frame.scale) {
    report.scale = *frame.scale;
    report.scaleSource = "scene";
  } else if (const auto unit = metadataNumber(scene, "UnitScaleFactor"); fbx && unit && *unit > 0.0) {
    report.scale = float(*unit * 0.01);  // FBX: centimetres per file unit
    report.scaleSource = "file (FBX UnitScaleFactor)";
  } else {
    report.scale = 1.0f;
    report.scaleSource = gltf      ? "glTF specification (metres)"
                         : collada ? "file (COLLADA unit, applied by assimp)"
                                   : "default (1)";
  }
  return report;
}

}  // namespace hg
