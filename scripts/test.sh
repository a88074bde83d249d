#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors, runs
# every test (GL tests included: headless EGL, llvmpipe without a GPU), then a second stage
# with AddressSanitizer + UndefinedBehaviorSanitizer. First it checks the C++ formatting
# (scripts/check-format.sh; fix with --fix).
#   stage 1: Release, every test (ctest), each test at most 60 s.
#   stage 2: ASan + UBSan at -O1 -g1 (about half the compile time of -O2 -g; UBSan without its
#            per-pointer checks, see below), every test but
#            those labelled *_long (ctest -LE long: seconds in Release, minutes under the
#            sanitizers; stage 1 runs them, and every module keeps shorter tests here; see
#            tests/CMakeLists.txt), each at most 60 s.
# Each stage prints its time and its 15 slowest tests.
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
# for any schedule). The programs themselves default to it too (apps/common/OutputSet.h).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
quiet_build() { grep -vE '^\[ *[0-9]+%\] (Building|Linking)|^\[[0-9]+/[0-9]+\] ' || true; }  # with pipefail: build status lines
seconds() { echo $(( $(date +%s) - $1 )); }
# configure <dir> <cmake args...>: Ninja for a new build folder when available (it schedules
# the two cores better than make); an existing folder keeps its generator.
configure() {
  local dir=$1
  shift
  local generator=()
  [[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null && generator=(-G Ninja)
  cmake "${generator[@]}" -S "$root" -B "$dir" "$@" >/dev/null
}
# run_tests <dir> <log> <ctest args...>: the tests, then the 15 slowest.
run_tests() {
  local dir=$1 log=$2
  shift 2
  local rc=0
  (cd "$dir" && ctest -j "$jobs" --timeout 60 --output-on-failure "$@") 2>&1 | tee "$log" || rc=$?
  echo "-- 15 slowest tests:"
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 s  \1/p' "$log" | sort -rn | awk 'NR <= 15'  # awk reads to the end: no SIGPIPE under pipefail
  return $rc
}

t0=$(date +%s)
"$root/scripts/install-deps.sh"

stage "format: every C++ file as .clang-format says"
"$root/scripts/check-format.sh"

stage "stage 1: Release build, warnings as errors"
t1=$(date +%s)
configure "$root/build" -DCMAKE_BUILD_TYPE=Release -DHG_WARNINGS_AS_ERRORS=ON
cmake --build "$root/build" -j "$jobs" 2>&1 | quiet_build
echo "stage 1 build took $(seconds "$t1") s"
stage "stage 1: tests"
t2=$(date +%s)
run_tests "$root/build" "$root/build/ctest-stage1.log"
echo "stage 1 took $(seconds "$t1") s (build $(( t2 - t1 )) s, tests $(seconds "$t2") s)"

if [[ $sanitize -eq 1 ]]; then
  stage "stage 2: AddressSanitizer + UndefinedBehaviorSanitizer build (-O1 -g1)"
  t3=$(date +%s)
  # UBSan's checks on every pointer use cost more compile time than ASan itself: hg_scene's
  # largest unity batch took 120 s with all of -fsanitize=undefined, 71 s without these five
  # and 63 s with ASan alone (2026-11-28, this 2-core VM). ASan already catches what most of
  # them would (null and out-of-object accesses); vptr (dynamic type checks) and alignment
  # and pointer-overflow are what is given up. The integer, shift, bool, enum, bounds,
  # float-cast and return checks stay.
  ubsan_left_out=vptr,null,alignment,pointer-overflow,object-size
  configure "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_WARNINGS_AS_ERRORS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DHG_SANITIZE=address,undefined -DHG_NO_SANITIZE="$ubsan_left_out" -DHG_BUILD_BENCH=OFF
  cmake --build "$root/build-asan" -j "$jobs" 2>&1 | quiet_build
  echo "stage 2 build took $(seconds "$t3") s"
  stage "stage 2: tests under ASan + UBSan (all but the *_long labels)"
  t4=$(date +%s)
  # Leaks inside the GL driver (Mesa/LLVM) are not ours: suppressed by library name.
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  run_tests "$root/build-asan" "$root/build-asan/ctest-stage2.log" -LE long
  echo "stage 2 took $(seconds "$t3") s (build $(( t4 - t3 )) s, tests $(seconds "$t4") s)"
fi
echo "all stages took $(seconds "$t0") s"
