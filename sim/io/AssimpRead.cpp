#include "sim/io/AssimpRead.h"

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

}  // namespace hg
