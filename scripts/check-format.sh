#!/usr/bin/env bash
# Checks that every tracked C++ file is formatted as .clang-format says (clang-format from
# Debian 12, version 14). The GLSL kernels (*.glslh) and shaders are not checked.
# Usage: scripts/check-format.sh [--fix]   (--fix formats the files in place)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "check-format.sh: clang-format is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files and new ones git does not ignore (so a check before the first commit sees them).
  mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.h' '*.hpp' '*.cpp' '*.cc')
else  # an unpacked archive: the source folders
  mapfile -t files < <(find apps bench gl render sim tests -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' | sort)
fi
if [[ ${1:-} == --fix ]]; then
  clang-format -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
# One clang-format for all files; its messages start with "FILE:LINE:COL: error:".
if ! report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  mapfile -t unformatted < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' <<<"$report" | cut -d: -f1 | sort -u)
  echo "check-format.sh: ${#unformatted[@]} file(s) differ from .clang-format (fix: scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format: ${#files[@]} C++ files as .clang-format says"
