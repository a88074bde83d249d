#!/usr/bin/env bash
# Batch throughput (issue 24's benchmark), measured side by side in one run on one machine:
#   - a small drape job (the sheet on the sphere, 24 x 24 vertices, 100 frames, CPU backend,
#     320 x 240 pictures) N times, with one worker (--jobs 1) and with two (--jobs 2): jobs
#     per hour, and per job the overhead of a worker (process start, GL context, loading,
#     writing: the worker's wall time minus the job's own prepare, setup, simulate and render
#     phases) as a fraction of its wall time, and the peak memory of a worker;
#   - the same N jobs through a local single-node Slurm (tests/slurm/local_slurm.sh) as an
#     array of N/4 one-CPU tasks, submission to the merged results: the extra seconds per task
#     against the two-worker pool (two tasks run at once on two cores).
# Writes bench/results/batch_bench_<tag>.md. Usage: bench/batch_bench.sh [TAG] [N]
# (TAG default vm, N default 16). Needs a Release build in build/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tag=${1:-vm}
n=${2:-16}
hagoromo="$root/build/apps/hagoromo"
source "$root/tests/slurm/local_slurm.sh"
trap local_slurm_stop EXIT
work=$(mktemp -d)
manifest="$work/jobs.jsonl"
for i in $(seq 1 "$n"); do
  echo "{\"scene\": \"$root/scenes/cloth_on_sphere.json\", \"name\": \"job$i\", \"set\": {\"cloth.resolution\": 24, \"solver.frames\": $((99 + i)), \"solver.backend\": \"cpu\", \"output.image_width\": 320, \"output.image_height\": 240}}"
done > "$manifest"
now() { date +%s.%N; }
timed_batch() {  # timed_batch <out> <options...>: prints the wall seconds
  local out=$1 t0
  shift
  t0=$(now)
  "$hagoromo" batch "$manifest" --out "$out" --quiet "$@" > /dev/null || true
  python3 -c "print($(now) - $t0)"
}
one=$(timed_batch "$work/one" --jobs 1)
two=$(timed_batch "$work/two" --jobs 2)
local_slurm_start > /dev/null
tasks=$((n / 4))
t0=$(now)
"$hagoromo" batch "$manifest" --out "$work/slurm" --slurm --submit --tasks "$tasks" --cpus-per-task 1 --quiet > /dev/null
for _ in $(seq 3000); do [[ -z $(squeue -h -o %i) ]] && break; sleep 0.1; done
slurm=$(python3 -c "print($(now) - $t0)")
out="$root/bench/results/batch_bench_$tag.md"
mkdir -p "$(dirname "$out")"
python3 - "$work" "$n" "$one" "$two" "$slurm" "$tasks" "$(nproc)" > "$out" <<'PY'
import json, statistics, sys
work, n, one, two, slurm, tasks, cores = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:6]), int(sys.argv[6]), sys.argv[7]
def records(name):
    return [json.loads(l) for l in open(f"{work}/{name}/results.jsonl")]
def overhead(rs):
    fractions, own = [], []
    for r in rs:
        phases = sum(r["job_seconds"].values())
        own.append(phases)
        fractions.append((r["seconds"] - phases) / r["seconds"])
    return statistics.median(fractions), statistics.median(own), statistics.median(r["seconds"] for r in rs)
print(f"# Batch throughput ({n} small drape jobs, {cores} cores)\n")
print("Each job: cloth_on_sphere.json at 24 x 24 vertices, 100-115 frames, CPU backend, 320 x 240 pictures.")
print("Measured side by side in one run by `bench/batch_bench.sh`.\n")
print("| run | wall s | jobs per hour | passed | median job wall s | median job phases s | overhead per job | peak MiB per worker |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for label, name, wall in (("--jobs 1", "one", one), ("--jobs 2", "two", two), (f"Slurm array, {tasks} tasks x 1 CPU", "slurm", slurm)):
    rs = records(name)
    frac, own, job = overhead(rs)
    rss = max(r["max_rss_mib"] for r in rs)
    passed = sum(r["status"] == "passed" for r in rs)
    print(f"| {label} | {wall:.1f} | {n / wall * 3600:.0f} | {passed}/{n} | {job:.2f} | {own:.2f} | {100 * frac:.0f} % | {rss:.0f} |")
print(f"\n`--jobs 2` against `--jobs 1`: {one / two:.2f}x the throughput.")
print(f"Slurm against the two-worker pool: {(slurm - two) / (tasks / 2):+.2f} s per task "
      f"({slurm - two:+.1f} s over {tasks} tasks, two at a time; submission to merged results).")
PY
cat "$out"
rm -rf "$work"
