#include "gl/PassTimer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hg::gl {

bool passTimesRequested() {
  const char* value = std::getenv("HG_GPU_PASS_TIMES");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

PassTimer::~PassTimer() {
  for (const auto& [name, id] : m_pending) m_free.push_back(id);
  if (!m_free.empty()) glDeleteQueries(GLsizei(m_free.size()), m_free.data());
}

GLuint PassTimer::query() {
  if (m_free.empty()) {
    GLuint id = 0;
    glGenQueries(1, &id);
    return id;
  }
  const GLuint id = m_free.back();
  m_free.pop_back();
  return id;
}

void PassTimer::begin() {
  if (!m_enabled) return;
  mark(nullptr);
}

void PassTimer::mark(const char* name) {
  if (!m_enabled) return;
  const GLuint id = query();
  glQueryCounter(id, GL_TIMESTAMP);
  m_pending.emplace_back(name, id);
}

void PassTimer::add(const char* name, std::uint64_t ns) {
  if (!m_enabled) return;
  auto it = std::find_if(m_totals.begin(), m_totals.end(), [&](const auto& t) { return t.first == name; });
  if (it == m_totals.end()) {
    m_totals.emplace_back(name, ns);
  } else {
    it->second += ns;
  }
}

std::uint64_t PassTimer::totalNs(const std::string& name) const {
  for (const auto& [total, ns] : m_totals)
    if (total == name) return ns;
  return 0;
}

void PassTimer::resolve() {
  if (!m_enabled || m_pending.empty()) return;
  GLuint64 previous = 0;
  for (std::size_t k = 0; k < m_pending.size(); ++k) {
    GLuint64 stamp = 0;
    glGetQueryObjectui64v(m_pending[k].second, GL_QUERY_RESULT, &stamp);
    if (k > 0 && m_pending[k].first != nullptr) add(m_pending[k].first, stamp - previous);
    previous = stamp;
    m_free.push_back(m_pending[k].second);
  }
  m_pending.clear();
}

void PassTimer::report(const char* what, double per) const {
  if (!m_enabled || m_totals.empty() || !(per > 0.0)) return;
  std::uint64_t sum = 0;
  for (const auto& t : m_totals) sum += t.second;
  std::fprintf(stderr, "[ pass times ] %s, ms per substep (HG_GPU_PASS_TIMES=1):\n", what);
  for (const auto& [name, ns] : m_totals)
    std::fprintf(stderr, "  %-28s %9.3f  %5.1f %%\n", name.c_str(), double(ns) * 1e-6 / per,
                 sum > 0 ? 100.0 * double(ns) / double(sum) : 0.0);
  std::fprintf(stderr, "  %-28s %9.3f\n", "sum", double(sum) * 1e-6 / per);
}

}  // namespace hg::gl
