#pragma once
/// Recoverable errors as values (house style tier 2): a failed operation returns
/// an Error carrying a message that names the file, shader or context involved.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace hg {

/// What kind of failure an Error is: decides the exit code of the programs (one table,
/// apps/common/ExitCodes.h) and whether retrying with other input can help.
enum class ErrorKind {
  Input,        ///< an input file or value is malformed, out of range or inconsistent (the default)
  CommandLine,  ///< a command-line option is malformed or out of range (raised by the programs only)
  Graphics,     ///< no usable OpenGL context, a shader that does not build, a GL error
  Simulation,   ///< the simulation failed on valid input: unstable (NaN, speed limit), seams that never close
  Output,       ///< an output file or folder could not be written
};

/// A human-readable failure description. `message` is complete on its own
/// (it names the file / resource and the problem) so callers can print it as is.
struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::Input;

  /// The same failure, its message with `before` in front (and `after` behind): the
  /// context a caller adds ("cloth: ", "PATH: "). The kind is kept.
  Error prefixed(std::string before, const std::string& after = {}) const {
    return Error{std::move(before) + message + after, kind};
  }
  /// The same message as another kind (e.g. a step's anomaly becomes a Simulation failure).
  Error as(ErrorKind newKind) const { return Error{message, newKind}; }
};

/// Shorthands for the kinds other than Input.
inline Error graphicsError(std::string message) { return Error{std::move(message), ErrorKind::Graphics}; }
inline Error simulationError(std::string message) { return Error{std::move(message), ErrorKind::Simulation}; }
inline Error outputError(std::string message) { return Error{std::move(message), ErrorKind::Output}; }

/// Either a value of type T or an Error. Minimal stand-in for C++23 std::expected.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_data(std::move(value)) {}
  Result(Error error) : m_data(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(m_data); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<T>(m_data);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(m_data);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(m_data));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<Error>(m_data);
  }

 private:
  std::variant<T, Error> m_data;
};

/// Result of an operation that returns nothing on success.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : m_error(std::move(error)), m_failed(true) {}
  static Status success() { return {}; }
  bool ok() const { return !m_failed; }
  explicit operator bool() const { return ok(); }
  const Error& error() const {
    assert(m_failed);
    return m_error;
  }

 private:
  Error m_error;
  bool m_failed = false;
};

}  // namespace hg
