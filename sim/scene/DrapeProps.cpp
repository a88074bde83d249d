#include "sim/scene/DrapeProps.h"

#include <chrono>
#include <cmath>
#include <string>

#include <glm/trigonometric.hpp>

#include "sim/geometry/Obb.h"
#include "sim/io/MeshImport.h"
#include "sim/spheretree/SphereTree.h"

namespace hg {
namespace {

/// A prop mesh's frame: its up axis, its units from the file (scale and rotation are the prop's).
ImportFrame importFrameOf(const ScenePropSpec& prop) {
  ImportFrame frame;
  frame.up = prop.up;
  return frame;
}

}  // namespace

glm::mat3 sceneRotation(glm::vec3 degrees) {
  const glm::vec3 r = glm::radians(degrees);
  const float cx = std::cos(r.x), sx = std::sin(r.x), cy = std::cos(r.y), sy = std::sin(r.y), cz = std::cos(r.z),
              sz = std::sin(r.z);
  // Columns (GLM is column-major): Rz * Ry * Rx, i.e. about x first, then y, then z.
  const glm::mat3 rx(1.0f, 0.0f, 0.0f, 0.0f, cx, sx, 0.0f, -sx, cx);
  const glm::mat3 ry(cy, 0.0f, -sy, 0.0f, 1.0f, 0.0f, sy, 0.0f, cy);
  const glm::mat3 rz(cz, sz, 0.0f, -sz, cz, 0.0f, 0.0f, 0.0f, 1.0f);
  return rz * ry * rx;
}

namespace {

TriangleMesh transformed(TriangleMesh mesh, const glm::mat3& rotation, glm::vec3 translation) {
  for (glm::vec3& p : mesh.positions) p = rotation * p + translation;
  mesh.normals.clear();
  computeVertexNormals(mesh);
  return mesh;
}

}  // namespace

Result<TriangleMesh> scenePropMesh(const DrapeScene& scene, std::size_t prop) {
  const ScenePropSpec& p = scene.props.at(prop);
  const std::string where = "props[" + std::to_string(prop) + "]";
  TriangleMesh mesh;
  if (p.shape == "bottle")
    mesh = makeBottle(glm::vec3(0.0f), 0.3f);
  else if (p.shape == "box")
    mesh = makeBox(glm::vec3(-0.1f), glm::vec3(0.1f), 0);
  else if (p.shape == "sphere")
    mesh = makeIcosphere(glm::vec3(0.0f), 0.1f, 4);
  else if (p.shape == "torus")
    mesh = makeTorus(glm::vec3(0.0f), 0.1f, 0.03f, 64, 24);
  else if (p.shape == "capsule")
    mesh = makeCapsule(glm::vec3(0.0f, -0.1f, 0.0f), glm::vec3(0.0f, 0.1f, 0.0f), 0.05f, 8, 32);
  else if (!p.shape.empty())
    return Error{where + ".shape: unknown shape '" + p.shape + "'"};
  else {
    auto read = importWeldedMesh(scene.directory / p.mesh, importFrameOf(p));  // welded: closed despite UV seams
    if (!read) return read.error().prefixed(where + ".mesh: ");
    mesh = std::move(read).value();
  }
  for (glm::vec3& v : mesh.positions) v *= p.scale;
  mesh.normals.clear();
  computeVertexNormals(mesh);
  return mesh;
}

Result<SceneProps> buildSceneProps(const DrapeScene& scene) {
  SceneProps out;
  const float mu = scene.settings.friction;
  for (const SceneBoxSpec& b : scene.boxes) {
    out.boxes.push_back(b.box);
    out.boxFriction.push_back(b.friction.value_or(mu));
    const glm::mat3 r(b.box.axes[0], b.box.axes[1], b.box.axes[2]);
    out.meshes.push_back(transformed(makeBox(-b.box.halfLengths, b.box.halfLengths, 0), r, b.box.centre));
  }
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < scene.props.size(); ++i) {
    const ScenePropSpec& p = scene.props[i];
    const std::string where = "props[" + std::to_string(i) + "]";
    auto local = scenePropMesh(scene, i);
    if (!local) return local.error();
    const RigidPose pose{sceneRotation(p.rotationDegrees), p.position};
    TriangleMesh world = transformed(*local, pose.rotation, pose.translation);
    if (p.collider == PropCollider::Obb) {
      out.boxes.push_back(fitObb(world.positions));
      out.boxFriction.push_back(p.friction.value_or(mu));
    } else {
      const std::string what = p.mesh.empty() ? where + ".shape (" + p.shape + ")"
                                              : where + ".mesh (" + (scene.directory / p.mesh).string() + ")";
      auto tree = SphereTree::fromMesh(*local, p.resolution, what);
      if (!tree) return tree.error();
      out.trees.add(*tree, pose, p.friction.value_or(mu));
    }
    out.meshes.push_back(std::move(world));
  }
  out.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace hg
