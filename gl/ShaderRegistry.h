#pragma once
/// Shader sources by name, `#include` resolution, and program building with
/// error messages that name the original file and line.
///
/// Sources come from files embedded at build time by the library that owns them
/// (sim/gpu/GpuShaders.h, render/RenderShaders.h). `#include "name"` is resolved first
/// relative to the including file's folder, then from the root; each file is
/// included once per program. `#line` directives map the driver's messages back:
/// "kernels/spring.glslh:12: error: ..." instead of "3:12(4): error: ...".
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gl/EmbeddedFiles.h"
#include "gl/GlObjects.h"
#include "sim/core/Result.h"

namespace hg::gl {

class ShaderRegistry {
 public:
  /// Registry over the given files (a library's embedded shaders; tests use this for
  /// broken sources).
  explicit ShaderRegistry(std::span<const embedded::EmbeddedFile> files);
  /// Registry over several sets of files (a later file of the same name replaces one before).
  explicit ShaderRegistry(std::initializer_list<std::span<const embedded::EmbeddedFile>> sets);

  /// Names of all registered files, sorted.
  std::vector<std::string> names() const;
  /// Names of the top-level stages (.comp .vert .frag .geom), sorted.
  std::vector<std::string> stageNames() const;

  /// Source with includes expanded and #line markers; error names the missing file.
  Result<std::string> preprocess(std::string_view name) const;

  /// Compiles and links a compute program from a .comp file.
  Result<Program> buildCompute(std::string_view computeName) const;
  /// Compiles and links a vertex + fragment program.
  Result<Program> buildGraphics(std::string_view vertexName, std::string_view fragmentName) const;
  /// Compiles one stage alone (the shader compile test); the error holds the driver's log.
  Status compileStage(std::string_view name) const;

 private:
  struct Expanded {
    std::string source;
    std::vector<std::string> fileIds;  // source-string number -> file name
  };
  Result<Expanded> expand(std::string_view name) const;
  Result<GLuint> compile(std::string_view name) const;
  Result<Program> link(std::initializer_list<std::string_view> stages) const;

  std::map<std::string, std::string, std::less<>> m_files;
};

}  // namespace hg::gl
