#!/usr/bin/env bash
# A real Slurm on this machine (issue 24): munged, slurmctld and slurmd from the Debian
# packages (scripts/install-deps.sh installs them), started in a temporary folder on free
# ports with a minimal slurm.conf and stopped at exit, whatever happens. It runs a 12-job
# drape batch as a 4-task job array (`hagoromo batch --slurm --submit`, whose merge job
# waits for the array), cancels one task while it runs (scancel), submits again (the
# script resumes), and checks that every job finished exactly once (history.jsonl), all
# passed, and their CPU state hashes equal a local run's.
# Usage: slurm_batch_test.sh <hagoromo binary> <source dir>
set -uo pipefail
hagoromo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/local_slurm.sh"
trap local_slurm_stop EXIT
trap 'exit 143' TERM INT

failures=0
pass() { echo "ok: $*"; }
failed() { echo "FAIL: $*"; failures=$((failures + 1)); }
fatal() { local_slurm_fatal "$@"; }
local_slurm_start
pass "single-node Slurm up"

# 12 small drapes (a 12 x 12 sheet, CPU backend), each a few tenths of a second.
manifest=$base/jobs.jsonl
for i in $(seq 0 11); do
  echo "{\"scene\": \"$src/scenes/cloth_on_sphere.json\", \"name\": \"j$i\", \"set\": {\"cloth.resolution\": 12, \"solver.frames\": $((200 + i)), \"solver.backend\": \"cpu\", \"output.image_width\": 160, \"output.image_height\": 120}}"
done > "$manifest"
out=$base/out
wait_queue_empty() {
  for _ in $(seq 600); do [[ -z $(squeue -h -o %i 2>/dev/null) ]] && return 0; sleep 0.1; done
  fatal "the queue did not drain: $(squeue)"
}

"$hagoromo" batch "$manifest" --out "$out" --slurm --submit --tasks 4 --cpus-per-task 1 --quiet > "$base/submit1.log" 2>&1 ||
  fatal "submit: $(cat "$base/submit1.log")"
array=$(sed -n 's/^submitted array job \([0-9]*\).*/\1/p' "$base/submit1.log")
[[ -n $array ]] || fatal "no array job id in: $(cat "$base/submit1.log")"
# Cancel task 2 once it finished one of its three jobs (history.jsonl names the shard).
for _ in $(seq 600); do grep -q '"shard":"2/4"' "$out/history.jsonl" 2>/dev/null && break; sleep 0.05; done
scancel "${array}_2"
grep -q '"shard":"2/4"' "$out/history.jsonl" && pass "task 2 cancelled mid-run" || failed "task 2 never ran"
wait_queue_empty
cancelled=$(grep -c '"shard":"2/4"' "$out/history.jsonl")
[[ $cancelled -lt 3 ]] && pass "the cancelled task finished $cancelled of its 3 jobs" ||
  failed "task 2 finished all its jobs before scancel (the test did not cancel mid-run)"
[[ -z $(ls -A "$out/.work" 2>/dev/null) ]] && pass "no unfinished job folder" || failed ".work left: $(ls -A "$out/.work")"
first=$(python3 -c "import json,sys; print(sum(json.loads(l)['status'] == 'passed' for l in open(sys.argv[1])))" "$out/results.jsonl" 2>/dev/null)
[[ $first -lt 12 ]] && pass "the first merge saw $first of 12 (the cancelled task's rest not run)" || failed "first merge: $first passed"

"$hagoromo" batch "$manifest" --out "$out" --slurm --submit --tasks 4 --cpus-per-task 1 --quiet > "$base/submit2.log" 2>&1 ||
  fatal "resubmit: $(cat "$base/submit2.log")"
wait_queue_empty

"$hagoromo" batch "$manifest" --out "$base/local" --jobs 2 --quiet > /dev/null || failed "the local run failed"
python3 - "$out" "$base/local" <<'PY' && pass "every job exactly once, all passed, hashes equal the local run" || failed "slurm results"
import collections, json, sys
out, local = sys.argv[1], sys.argv[2]
history = collections.Counter(json.loads(l)["id"] for l in open(out + "/history.jsonl"))
results = [json.loads(l) for l in open(out + "/results.jsonl")]
reference = {r["id"]: r["state_hash"] for r in map(json.loads, open(local + "/results.jsonl"))}
assert len(results) == 12, len(results)
assert all(r["status"] == "passed" for r in results), [r["status"] for r in results]
assert set(history) == set(reference) and set(history.values()) == {1}, history
assert all(r["state_hash"] == reference[r["id"]] for r in results), "state hashes differ"
PY
ls "$out"/slurm/*.log > /dev/null 2>&1 && pass "task logs in out/slurm" || failed "no task logs"
echo "$failures failed"
[[ $failures -eq 0 ]]
