#include "sim/io/ImportFrame.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace hg {
namespace {

/// The rotation that turns `up` into +Y (Z up: -90 degrees about x; see ImportFrame::up).
glm::mat4 upToY(FileAxis up) {
  const glm::vec3 x(1.0f, 0.0f, 0.0f), z(0.0f, 0.0f, 1.0f);
  const float quarter = glm::half_pi<float>();
  switch (up) {
    case FileAxis::PosY:
      return glm::mat4(1.0f);
    case FileAxis::NegY:
      return glm::rotate(glm::mat4(1.0f), 2.0f * quarter, x);
    case FileAxis::PosZ:
      return glm::rotate(glm::mat4(1.0f), -quarter, x);
    case FileAxis::NegZ:
      return glm::rotate(glm::mat4(1.0f), quarter, x);
    case FileAxis::PosX:
      return glm::rotate(glm::mat4(1.0f), quarter, z);
    case FileAxis::NegX:
      return glm::rotate(glm::mat4(1.0f), -quarter, z);
  }
  return glm::mat4(1.0f);
}

}  // namespace

const char* fileAxisName(FileAxis axis) {
  switch (axis) {
    case FileAxis::PosX:
      return "+x";
    case FileAxis::NegX:
      return "-x";
    case FileAxis::PosY:
      return "+y";
    case FileAxis::NegY:
      return "-y";
    case FileAxis::PosZ:
      return "+z";
    case FileAxis::NegZ:
      return "-z";
  }
  return "?";
}

glm::mat4 importTransform(const FileFrame& file, const ImportFrame& frame) {
  const glm::vec3 r = glm::radians(frame.rotationDegrees);
  // About the world x, then y, then z: R = Rz * Ry * Rx.
  const glm::mat4 rotation = glm::rotate(glm::mat4(1.0f), r.z, glm::vec3(0.0f, 0.0f, 1.0f)) *
                             glm::rotate(glm::mat4(1.0f), r.y, glm::vec3(0.0f, 1.0f, 0.0f)) *
                             glm::rotate(glm::mat4(1.0f), r.x, glm::vec3(1.0f, 0.0f, 0.0f));
  return glm::translate(glm::mat4(1.0f), frame.position) * rotation *
         glm::scale(glm::mat4(1.0f), glm::vec3(file.scale)) * upToY(file.up);
}

void transformMesh(TriangleMesh& mesh, const glm::mat4& m) {
  if (m == glm::mat4(1.0f)) return;
  for (glm::vec3& p : mesh.positions) p = glm::vec3(m * glm::vec4(p, 1.0f));
  if (!mesh.normals.empty()) computeVertexNormals(mesh);
}

}  // namespace hg
