#pragma once
/// Command-line checks shared by the hagoromo programs (CLI11 validators): an empty value
/// is refused by name instead of meaning "here" or "nothing".
#include <string>

#include <CLI/CLI.hpp>

namespace hg::app {

/// Refuses "" ("--out ''" must not silently write into the current folder).
inline CLI::Validator nonEmpty() {
  return CLI::Validator(
      [](const std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); },
      "NOT EMPTY");
}

}  // namespace hg::app
