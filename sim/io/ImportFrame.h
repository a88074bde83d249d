#pragma once
/// How an imported file is put into the world (metres, +Y up): the scene keys up, scale,
/// rotation_deg and position of avatars, props and mesh cloths. Detection from the file is
/// resolveFileFrame (sim/io/AssimpRead.h).
#include <optional>
#include <string>
#include <string_view>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "sim/core/TriangleMesh.h"

namespace hg {

/// An axis of a file's frame, for its up direction.
enum class FileAxis { PosX, NegX, PosY, NegY, PosZ, NegZ };
/// "+x", "-x", "+y", "-y", "+z", "-z".
const char* fileAxisName(FileAxis axis);

/// How an imported file is put into the world (metres, +Y up): its up axis turned to +Y,
/// scaled to metres, then rotated and moved. Scene keys up, scale, rotation, position.
struct ImportFrame {
  /// The file's up axis; none: detect it (glTF: +Y by its specification, section 3.4;
  /// FBX: GlobalSettings UpAxis and UpAxisSign as assimp reports them; COLLADA: assimp has
  /// already turned <up_axis> to +Y; anything else: +Y). Z up turns by -90 degrees about x
  /// ((x, y, z) -> (x, z, -y)), so a Blender body facing -Y faces +Z.
  std::optional<FileAxis> up;
  /// Metres per file unit; none: detect it (FBX: UnitScaleFactor, centimetres per unit;
  /// COLLADA: assimp has already applied <unit meter>; glTF: metres; anything else: 1).
  std::optional<float> scale;
  glm::vec3 rotationDegrees{0.0f};  ///< then about the world x, y, z axes (degrees)
  glm::vec3 position{0.0f};         ///< then moved by this (m)
  /// As stored: +Y up, scale 1, no rotation or move.
  static ImportFrame asStored() { return ImportFrame{FileAxis::PosY, 1.0f, glm::vec3(0.0f), glm::vec3(0.0f)}; }
};

/// What an import decided (reported in the metrics): the up axis and scale used and where
/// each came from ("scene", "file (FBX UpAxis)", "glTF specification", "default (+y)").
struct FileFrame {
  FileAxis up = FileAxis::PosY;
  float scale = 1.0f;
  std::string upSource, scaleSource;
};

/// The similarity transform file -> world: up axis to +Y, scale, rotation, position.
glm::mat4 importTransform(const FileFrame& file, const ImportFrame& frame);
/// `mesh` moved by the similarity `m` (positions; normals recomputed when it has them).
void transformMesh(TriangleMesh& mesh, const glm::mat4& m);

}  // namespace hg
