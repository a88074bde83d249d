#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer (clang-14, AddressSanitizer + UBSan): the drape,
# snow, grasp and skin-rig scenes, the fabric presets, BVH motion and joint maps, the mesh
# import path and the PNG texture loader (tests/fuzz/README.md).
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]   (default 600 s, every target)
# Each target starts from its stored corpus (tests/fuzz/corpus/TARGET, copied, never
# changed here) and writes what it finds to build-fuzz/findings/TARGET/ (crash-*, timeout-*,
# oom-*; earlier runs' findings stay there, the summary counts this run's) and its grown
# corpus to build-fuzz/corpus/TARGET/. A summary of executions and findings per target goes
# to build-fuzz/summary.txt. Installs clang-14 and libfuzzer-14-dev when missing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-600}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(DrapeScene SnowScene GraspScene SkinRig FabricPresets Bvh MeshImport PngTexture)

"$root/scripts/install-deps.sh"
missing=()
for p in clang-14 libfuzzer-14-dev libclang-rt-14-dev; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build="$root/build-fuzz"
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_FUZZ=ON \
  -DHG_BUILD_VIEWER=OFF -DHG_BUILD_BENCH=OFF -DHG_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target $(printf 'hg_fuzz_%s ' "${targets[@]}") 2>&1 |
  { grep -vE '^\[ *[0-9]+%\] (Building|Linking)' || true; }

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE
summary="$build/summary.txt"
: >"$summary"
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t" findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  cp -n "$root/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
  log="$build/fuzz_$t.log"
  started="$build/.started_$t"  # findings of earlier runs stay in the folder; this run counts its own
  touch "$started"
  echo "== $t: $seconds s =="
  # -timeout: an input taking longer is a finding (a hang); -rss_limit_mb: a runaway allocation is.
  (cd "$findings" && "$build/tests/fuzz/hg_fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=20 \
     -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1) || true
  found=$(find "$findings" -type f -newer "$started" | wc -l)
  # libFuzzer's own account: "Done N runs in S second(s)" when the time ran out; at a
  # finding it stops early and only the last status line tells how far it got.
  if done_line=$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log"); then
    read -r _ execs _ _ ran _ <<<"$done_line"
    echo "$t: $execs executions in $ran s, $found finding(s), corpus $(ls "$corpus" | wc -l) inputs" | tee -a "$summary"
  else
    execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    echo "$t: stopped at a finding after ${execs:-0} executions; $found finding(s) in $findings" | tee -a "$summary"
  fi
done
echo "summary: $summary"
