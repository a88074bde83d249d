#!/usr/bin/env bash
# The fabric bench (issue 23's benchmark): `hagoromo fabric-test all` on the CPU backend at
# 10 mm edges, the three tests on every preset of the library, as many presets at once as
# there are usable cores (`--jobs`, one solver thread each; give --jobs 1 for one after
# another: the numbers are the same, bit for bit). Writes
# bench/results/fabric_bench_<tag>/ (each preset's fabric_test.json, tensile.svg,
# drape_top.png; drapes.png, summary.md and summary.json with every preset's seconds) and
# bench/results/fabric_bench_<tag>.txt (the wall time in all and per preset).
# Usage: bench/fabric_bench.sh [TAG] [EXTRA fabric-test OPTIONS...]   (TAG default vm)
# Needs a Release build in build/ (cmake --build build --target hagoromo).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tag=${1:-vm}
shift || true
out="$root/bench/results/fabric_bench_$tag"
start=$(date +%s.%N)
rc=0
jobs=(--jobs "$(nproc)")
for arg in "$@"; do [[ $arg == --jobs* ]] && jobs=(); done
"$root/build/apps/hagoromo" fabric-test all --out "$out" -q "${jobs[@]+"${jobs[@]}"}" "$@" || rc=$?
end=$(date +%s.%N)
python3 - "$out/summary.json" "$start" "$end" "$rc" >"$root/bench/results/fabric_bench_$tag.txt" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
total = float(sys.argv[3]) - float(sys.argv[2])
print(f"fabric bench: {len(summary['presets'])} presets, {total:.1f} s wall in all (exit {sys.argv[4]})")
for p in summary["presets"]:
    print(f"  {p['preset']:22s} {p['seconds']:7.1f} s  DC {p.get('drape_coefficient', float('nan')):5.1f} %"
          f"  converged {p['converged']}")
PY
cat "$root/bench/results/fabric_bench_$tag.txt"
exit "$rc"
