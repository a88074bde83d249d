#!/usr/bin/env bash
# Checks that every tracked C++ file is formatted as .clang-format says (clang-format from
# Debian 12, version 14). The GLSL kernels (*.glslh) and shaders are not checked.
# Usage: scripts/check-format.sh [--fix]   (--fix formats the files in place)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "check-format.sh: clang-format is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.h' '*.hpp' '*.cpp' '*.cc')
else  # an unpacked archive: the source folders
  mapfile -t files < <(find apps bench render sim tests -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' | sort)
fi
if [[ ${1:-} == --fix ]]; then
  clang-format -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [[ ${#unformatted[@]} -gt 0 ]]; then
  echo "check-format.sh: ${#unformatted[@]} file(s) differ from .clang-format (fix: scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format: ${#files[@]} C++ files as .clang-format says"
