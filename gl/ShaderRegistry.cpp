#include "gl/ShaderRegistry.h"

#include <cstring>
#include <regex>
#include <set>
#include <sstream>

namespace hg::gl {
namespace {

std::string folderOf(std::string_view name) {
  const std::size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(name.substr(0, slash + 1));
}

GLenum stageOf(std::string_view name) {
  if (name.ends_with(".comp")) return GL_COMPUTE_SHADER;
  if (name.ends_with(".vert")) return GL_VERTEX_SHADER;
  if (name.ends_with(".frag")) return GL_FRAGMENT_SHADER;
  if (name.ends_with(".geom")) return GL_GEOMETRY_SHADER;
  return 0;
}

/// Rewrites "N:L(C): msg" (Mesa) and "N(L) : msg" (NVIDIA) to "file:L: msg".
std::string mapLog(const std::string& log, const std::vector<std::string>& fileIds) {
  static const std::regex mesa(R"(^(\d+):(\d+)\(\d+\):\s*)");
  static const std::regex nvidia(R"(^(\d+)\((\d+)\)\s*:\s*)");
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, mesa) || std::regex_search(line, m, nvidia)) {
      const std::size_t id = std::stoul(m[1].str());
      const std::string file = id < fileIds.size() ? fileIds[id] : m[1].str();
      line = file + ":" + m[2].str() + ": " + m.suffix().str();
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

ShaderRegistry::ShaderRegistry(std::span<const embedded::EmbeddedFile> files) : ShaderRegistry({files}) {}

ShaderRegistry::ShaderRegistry(std::initializer_list<std::span<const embedded::EmbeddedFile>> sets) {
  for (const auto& files : sets)
    for (const auto& f : files) m_files.insert_or_assign(std::string(f.name), std::string(f.source));
}

std::vector<std::string> ShaderRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& [name, source] : m_files) result.push_back(name);
  return result;
}

std::vector<std::string> ShaderRegistry::stageNames() const {
  std::vector<std::string> result;
  for (const auto& [name, source] : m_files)
    if (stageOf(name) != 0) result.push_back(name);
  return result;
}

Result<ShaderRegistry::Expanded> ShaderRegistry::expand(std::string_view name) const {
  Expanded result;
  std::set<std::string, std::less<>> included;
  static const std::regex includeLine(R"re(^\s*#\s*include\s*"([^"]+)"\s*$)re");
  static const std::regex versionLine(R"(^\s*#\s*version\b.*$)");

  // Recursive lambda: appends `file` (already resolved) to result.source.
  auto append = [&](auto& self, const std::string& file, const std::string& includer, int includerLine) -> Status {
    auto it = m_files.find(file);
    if (it == m_files.end()) {
      if (includer.empty()) return graphicsError("shader '" + file + "' is not registered");
      return graphicsError(includer + ":" + std::to_string(includerLine) + ": #include \"" + file +
                           "\": no such shader file");
    }
    if (!included.insert(file).second) return Status::success();
    const std::size_t id = result.fileIds.size();
    result.fileIds.push_back(file);
    std::istringstream in(it->second);
    std::string line;
    int lineNo = 0;
    bool sawVersion = false;
    if (!includer.empty()) result.source += "#line 1 " + std::to_string(id) + "\n";
    while (std::getline(in, line)) {
      ++lineNo;
      std::smatch m;
      if (includer.empty() && !sawVersion && std::regex_match(line, versionLine)) {
        sawVersion = true;
        result.source += line + "\n#line " + std::to_string(lineNo + 1) + " " + std::to_string(id) + "\n";
        continue;
      }
      if (std::regex_match(line, m, includeLine)) {
        std::string target = folderOf(file) + m[1].str();
        if (!m_files.count(target)) target = m[1].str();
        if (Status s = self(self, target, file, lineNo); !s) return s;
        result.source += "#line " + std::to_string(lineNo + 1) + " " + std::to_string(id) + "\n";
        continue;
      }
      result.source += line + "\n";
    }
    if (includer.empty() && !sawVersion)
      return graphicsError(file + ": missing #version line (expected '#version 450 core')");
    return Status::success();
  };
  if (Status s = append(append, std::string(name), std::string(), 0); !s) return s.error();
  return result;
}

Result<std::string> ShaderRegistry::preprocess(std::string_view name) const {
  auto expanded = expand(name);
  if (!expanded) return expanded.error();
  return std::move(expanded->source);
}

Result<GLuint> ShaderRegistry::compile(std::string_view name) const {
  const GLenum stage = stageOf(name);
  if (stage == 0) return graphicsError(std::string(name) + ": unknown shader stage (use .comp .vert .frag .geom)");
  auto expanded = expand(name);
  if (!expanded) return expanded.error();
  const GLuint shader = glCreateShader(stage);
  const char* text = expanded->source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(length > 0 ? length : 1), '\0');
    glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
    glDeleteShader(shader);
    log.resize(std::strlen(log.c_str()));
    return graphicsError("compiling shader " + std::string(name) + " failed:\n" + mapLog(log, expanded->fileIds));
  }
  return shader;
}

Status ShaderRegistry::compileStage(std::string_view name) const {
  auto shader = compile(name);
  if (!shader) return shader.error();
  glDeleteShader(*shader);
  return Status::success();
}

Result<Program> ShaderRegistry::link(std::initializer_list<std::string_view> stages) const {
  Program program(glCreateProgram());
  std::vector<GLuint> shaders;
  std::string names;
  for (std::string_view name : stages) {
    auto shader = compile(name);
    if (!shader) {
      for (GLuint s : shaders) glDeleteShader(s);
      return shader.error();
    }
    glAttachShader(program.id(), *shader);
    shaders.push_back(*shader);
    names += (names.empty() ? "" : " + ") + std::string(name);
  }
  glLinkProgram(program.id());
  for (GLuint s : shaders) {
    glDetachShader(program.id(), s);
    glDeleteShader(s);
  }
  GLint ok = 0;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(length > 0 ? length : 1), '\0');
    glGetProgramInfoLog(program.id(), GLsizei(log.size()), nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    return graphicsError("linking program " + names + " failed:\n" + log);
  }
  return program;
}

Result<Program> ShaderRegistry::buildCompute(std::string_view computeName) const { return link({computeName}); }

Result<Program> ShaderRegistry::buildGraphics(std::string_view vertexName, std::string_view fragmentName) const {
  return link({vertexName, fragmentName});
}

}  // namespace hg::gl
