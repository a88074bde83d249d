#!/usr/bin/env bash
# Architecture check: sim/ is GL-free outside sim/gpu/ (no GL, EGL, GLFW or render
# header is included there). That hg_sim links no GL library is checked by CMake at
# configure time (top-level CMakeLists.txt).
# Usage: layering_test.sh <source dir>
set -u
src=$1
offenders=$(grep -rlE '#\s*include\s*[<"](glad/|GL/|GLFW/|EGL/|render/)' "$src/sim" \
  --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.glslh' | grep -v "^$src/sim/gpu/")
if [[ -n $offenders ]]; then
  echo "FAIL: GL or render headers included under sim/ outside sim/gpu/:"
  echo "$offenders"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "ok: sim/ includes no GL, EGL, GLFW or render header outside sim/gpu/"
echo "1 passed, 0 failed"
