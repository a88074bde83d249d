#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors,
# runs every test (GL tests included: headless EGL, llvmpipe without a GPU), then
# a second stage with AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sanitize=1
for arg in "$@"; do
  case "$arg" in
    --no-sanitize) sanitize=0 ;;
    *) echo "usage: scripts/test.sh [--no-sanitize]" >&2; exit 1 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
stage() { echo; echo "== $* =="; }
# ctest runs tests side by side; OpenMP's default spinning barriers then fight for the
# cores (an OpenMP test next to another measured 10 to 40x slower). Sleeping waits keep
# that to about 2x; results do not depend on it (the CPU backends are bitwise identical
# for any schedule).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
quiet_build() { grep -vE '^\[ *[0-9]+%\] (Building|Linking)' || true; }  # with pipefail: cmake's status counts
seconds() { echo $(( $(date +%s) - $1 )); }

"$root/scripts/install-deps.sh"

stage "stage 1: Release build, warnings as errors"
t0=$(date +%s)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DHG_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$root/build" -j "$jobs" 2>&1 | quiet_build
stage "stage 1: tests"
(cd "$root/build" && ctest -j "$jobs" --output-on-failure)
echo "stage 1 took $(seconds "$t0") s"

if [[ $sanitize -eq 1 ]]; then
  stage "stage 2: AddressSanitizer + UndefinedBehaviorSanitizer build"
  t1=$(date +%s)
  cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_WARNINGS_AS_ERRORS=ON \
    -DHG_SANITIZE=address,undefined -DHG_BUILD_BENCH=OFF >/dev/null
  cmake --build "$root/build-asan" -j "$jobs" 2>&1 | quiet_build
  stage "stage 2: tests under ASan + UBSan"
  # Leaks inside the GL driver (Mesa/LLVM) are not ours: suppressed by library name.
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  (cd "$root/build-asan" && ctest -j "$jobs" --output-on-failure)
  echo "stage 2 took $(seconds "$t1") s"
fi
