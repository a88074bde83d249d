#!/usr/bin/env bash
# `hagoromo batch` as a user runs it (issue 24): a manifest validated before anything runs,
# a pool of two workers, quality gates deciding pass/fail, results and a contact sheet,
# a refused rerun and an idle resume, a killed worker retried, an interrupted batch resumed
# with every job finished exactly once, shards joined by `batch merge` into the same results,
# and the Slurm script. Jobs are tiny drapes (a 12 x 12 sheet, CPU backend).
# Usage: batch_cli_test.sh <hagoromo binary> <source dir>
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"
scene="$src/scenes/cloth_on_sphere.json"
job() {  # job <name> [extra set keys] [frames] [resolution]: a manifest line
  echo "{\"scene\": \"$scene\", \"name\": \"$1\", \"set\": {\"cloth.resolution\": ${4:-12}, \"solver.frames\": ${3:-10}, \"solver.backend\": \"cpu\", \"output.image_width\": 160, \"output.image_height\": 120${2:-}}}"
}
jq_field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
count_lines() { [[ -f $1 ]] && wc -l < "$1" || echo 0; }

# Bad manifests: each names its line; nothing runs, no folder appears.
{ job a ""; echo '{"scene": '; } > "$work/malformed.jsonl"
check "malformed line" 2 "malformed.jsonl:2: not valid JSON" -- "$hagoromo" batch "$work/malformed.jsonl" --out "$work/bad"
{ job a ""; echo "{\"scene\": \"$scene\", \"sets\": {}}"; } > "$work/unknown.jsonl"
check "unknown key" 2 "unknown.jsonl:2: unknown key 'sets'" -- "$hagoromo" batch "$work/unknown.jsonl" --out "$work/bad"
{ job a ""; echo '{"scene": "nowhere.json"}'; } > "$work/missing.jsonl"
check "missing scene" 2 "missing.jsonl:2: $work/nowhere.json: cannot open scene file" -- \
  "$hagoromo" batch "$work/missing.jsonl" --out "$work/bad"
{ job a ""; job b ', "cloth.resolutoin": 3'; } > "$work/badkey.jsonl"
check "unknown scene key in set" 2 "badkey.jsonl:2:" -- "$hagoromo" batch "$work/badkey.jsonl" --out "$work/bad"
{ job a ""; job a ""; } > "$work/dup.jsonl"
check "duplicate job" 2 "dup.jsonl:2: the same job as line 1" -- "$hagoromo" batch "$work/dup.jsonl" --out "$work/bad"
nothing_left "$work/bad" "a rejected manifest"
check "bad --shard" 1 "--shard '2/2'" -- "$hagoromo" batch "$work/dup.jsonl" --shard 2/2
for shipped in "$src"/scenes/batch/*.json "$src"/scenes/batch/*.jsonl; do
  check "the shipped $(basename "$shipped")" 0 - -- "$hagoromo" batch "$shipped" --check
done
check "drape --set names the key" 2 "resolutoin" -- "$hagoromo" drape "$scene" --set cloth.resolutoin=3 --out "$work/bad"

# Four jobs, two workers; one fails its strain gate.
{ job a ""; job b ', "cloth.tensile_stiffness": 3000'; job c "" 10 10
  job strict ', "gates.max_strain": 0.0' 60; } > "$work/jobs.jsonl"
check "a batch with a failed gate exits 6" 6 - -- "$hagoromo" batch "$work/jobs.jsonl" --out "$work/out" --jobs 2
out="$work/out"
for f in results.jsonl results.csv summary.json summary.md contact_sheet.png history.jsonl; do
  [[ -s $out/$f ]] && pass || failed "no $f"
done
is_png "$out/contact_sheet.png" && pass || failed "contact_sheet.png is not a PNG"
[[ $(count_lines "$out/results.jsonl") -eq 4 && $(count_lines "$out/results.csv") -eq 5 ]] && pass ||
  failed "results: $(count_lines "$out/results.jsonl") lines"
[[ $(ls "$out/jobs" | wc -l) -eq 3 && $(ls "$out/failed" | wc -l) -eq 1 ]] && pass || failed "3 passed, 1 failed expected"
strict=$(sed -n 4p "$out/results.jsonl")
[[ $(jq_field "$strict" status) == failed_gates && $strict == *'"failed":["strain"]'* ]] && pass ||
  failed "the strict job: $strict"
[[ -z $(ls -A "$out/.work" 2>/dev/null) ]] && pass || failed ".work left: $(ls -A "$out/.work")"

# A job's state is the state of the same scene run alone (CPU backend: bitwise).
first=$(sed -n 1p "$out/results.jsonl")
"$hagoromo" drape "$scene" --set cloth.resolution=12 --set solver.frames=10 --set solver.backend=cpu \
  --set output.image_width=160 --set output.image_height=120 --out "$work/alone" --quiet
alone=$(python3 -c "import json; print(json.load(open('$work/alone/cloth_on_sphere.json'))['state_hash'])")
[[ $(jq_field "$first" state_hash) == "$alone" ]] && pass || failed "batch hash $(jq_field "$first" state_hash) != alone $alone"

check "a rerun without --resume is refused" 1 "already holds 4 finished jobs" -- \
  "$hagoromo" batch "$work/jobs.jsonl" --out "$out"
resumed=$("$hagoromo" batch "$work/jobs.jsonl" --out "$out" --resume 2>&1)
[[ $resumed == *"0 to run (4 done before)"* && $(count_lines "$out/history.jsonl") -eq 4 ]] && pass ||
  failed "an idle resume ran something: $resumed"

# Workers and threads follow the cores the batch may use: a Slurm task's CPUs, the affinity.
slurm_cpus=$(SLURM_CPUS_PER_TASK=3 "$hagoromo" batch "$work/jobs.jsonl" --out "$out" --resume 2>&1)
[[ $slurm_cpus == *"3 workers x 1 threads"* ]] && pass || failed "SLURM_CPUS_PER_TASK=3: $slurm_cpus"
pinned=$(taskset -c 0 "$hagoromo" batch "$work/jobs.jsonl" --out "$out" --resume 2>&1)
[[ $pinned == *"1 workers x 1 threads"* ]] && pass || failed "taskset -c 0: $pinned"

# Shards into one folder, joined by merge: the same statuses and states.
for i in 0 1; do "$hagoromo" batch "$work/jobs.jsonl" --out "$work/sharded" --shard $i/2 --quiet >/dev/null; done
[[ ! -f $work/sharded/results.jsonl ]] && pass || failed "a shard wrote the results"
check "merge" 6 - -- "$hagoromo" batch merge "$work/jobs.jsonl" --out "$work/sharded"
summary() { python3 -c "import json,sys; print([(r['id'], r['status'], r.get('state_hash')) for r in map(json.loads, open(sys.argv[1]))])" "$1"; }
[[ $(summary "$work/sharded/results.jsonl") == "$(summary "$out/results.jsonl")" ]] && pass ||
  failed "sharded results differ: $(summary "$work/sharded/results.jsonl")"

# A worker killed mid-job is retried; the job passes on its second attempt.
job killed "" 40 > "$work/kill.jsonl"
"$hagoromo" batch "$work/kill.jsonl" --out "$work/kill" --quiet > "$work/kill.log" 2>&1 &
batch=$!
for _ in $(seq 200); do worker=$(pgrep -P $batch) && break; sleep 0.05; done
[[ -n ${worker:-} ]] && kill -KILL "$worker"
wait $batch
record=$(cat "$work/kill/jobs/"*/job.json 2>/dev/null)
[[ $record == *'"attempts": 2'* && $record == *'"status": "passed"'* ]] && pass || failed "killed worker: $record $(cat "$work/kill.log")"

# SIGINT after the first of three jobs: exit 130, no worker left, no unfinished folder;
# the resume runs the other two, and every job finished exactly once.
{ job i1 "" 150; job i2 "" 151; job i3 "" 152; } > "$work/int.jsonl"
"$hagoromo" batch "$work/int.jsonl" --out "$work/int" --jobs 1 --quiet > /dev/null 2>&1 &
batch=$!
for _ in $(seq 600); do [[ $(count_lines "$work/int/history.jsonl") -ge 1 ]] && break; sleep 0.05; done
kill -INT $batch
wait $batch
rc=$?
sleep 0.2
[[ $rc -eq 130 ]] && pass || failed "interrupted batch exit $rc, expected 130"
pgrep -f -- "--out $work/int/.work" > /dev/null && failed "a worker outlived the batch" || pass
[[ -z $(ls -A "$work/int/.work" 2>/dev/null) ]] && pass || failed "unfinished folders left: $(ls -A "$work/int/.work")"
"$hagoromo" batch "$work/int.jsonl" --out "$work/int" --resume --quiet > /dev/null
python3 - "$work/int/history.jsonl" "$work/int/results.jsonl" <<'PY' && pass || failed "interrupted + resumed: not every job exactly once"
import collections, json, sys
history = collections.Counter(json.loads(l)["id"] for l in open(sys.argv[1]))
results = [json.loads(l) for l in open(sys.argv[2])]
assert len(results) == 3 and all(r["status"] == "passed" for r in results), results
assert sorted(history.values()) == [1, 1, 1] and set(history) == {r["id"] for r in results}, history
PY

# The batch itself killed (SIGKILL: no cleanup, as a rebooted node): its worker ends with it
# (PDEATHSIG), the unfinished folder stays in .work, and the resume clears it and runs the
# job once.
job rebooted "" 500 > "$work/reboot.jsonl"  # 1.2 s: it would outlive the 0.5 s wait below
"$hagoromo" batch "$work/reboot.jsonl" --out "$work/reboot" --quiet > /dev/null 2>&1 &
batch=$!
for _ in $(seq 200); do worker=$(pgrep -P $batch) && break; sleep 0.05; done
kill -KILL $batch
wait $batch 2> /dev/null
alive() { [[ $(ps -o stat= -p "$1" 2> /dev/null) == [^Z]* ]]; }  # a zombie (never reaped here) has ended
for _ in $(seq 10); do alive "${worker:-0}" || break; sleep 0.05; done
[[ -n ${worker:-} ]] && ! alive "$worker" && pass || failed "the worker outlived its killed batch"
[[ -n $(ls -A "$work/reboot/.work" 2> /dev/null) && ! -d $work/reboot/jobs ]] && pass ||
  failed "after SIGKILL: .work $(ls -A "$work/reboot/.work" 2> /dev/null), jobs $(ls "$work/reboot/jobs" 2> /dev/null)"
"$hagoromo" batch "$work/reboot.jsonl" --out "$work/reboot" --resume --quiet > /dev/null
[[ $(count_lines "$work/reboot/history.jsonl") -eq 1 && -z $(ls -A "$work/reboot/.work" 2> /dev/null) ]] && pass ||
  failed "the resume after SIGKILL: history $(count_lines "$work/reboot/history.jsonl"), .work $(ls -A "$work/reboot/.work")"

# Two batches on the same folder at once (a requeued array task while the old one still
# runs): the second starts while the first runs its first job, leaves that job to it, and
# each job runs exactly once with neither clearing the other's running folder; merged,
# every job passed.
{ job c1 "" 600; job c2 "" 81; job c3 "" 82; job c4 "" 83; } > "$work/twice.jsonl"
"$hagoromo" batch "$work/twice.jsonl" --out "$work/twice" --jobs 1 --resume > "$work/twice_a.log" 2>&1 &
first=$!
for _ in $(seq 400); do [[ -n $(ls -A "$work/twice/.work" 2> /dev/null) ]] && break; sleep 0.05; done
"$hagoromo" batch "$work/twice.jsonl" --out "$work/twice" --jobs 1 --resume > "$work/twice_b.log" 2>&1
wait $first
grep -q "running in another batch" "$work/twice_b.log" && pass || failed "the second batch did not leave the running job: $(cat "$work/twice_b.log")"
"$hagoromo" batch merge "$work/twice.jsonl" --out "$work/twice" --quiet > /dev/null 2>&1
python3 - "$work/twice/history.jsonl" "$work/twice/results.jsonl" <<'PY' && pass || failed "two batches at once: not every job exactly once: $(cat "$work/twice_a.log" "$work/twice_b.log")"
import collections, json, sys
history = collections.Counter(json.loads(l)["id"] for l in open(sys.argv[1]))
results = [json.loads(l) for l in open(sys.argv[2])]
assert len(results) == 4 and all(r["status"] == "passed" for r in results), results
assert sorted(history.values()) == [1] * 4 and set(history) == {r["id"] for r in results}, history
PY
[[ ! -e $work/twice/.claims && ! -e $work/twice/.work ]] && pass || failed "claims or work folders left: $(ls -A "$work/twice")"

# A snow job and a skin job (small) beside a drape: each through its own command, its
# picture on the contact sheet.
{ job d ""
  echo "{\"scene\": \"$src/scenes/snow/bench_under_roof.json\", \"kind\": \"snow\", \"set\": {\"snowfall.directions\": 4, \"snow.passes\": 1, \"snow.map_resolution\": 128, \"snow.ground_cell\": 0.2, \"snow.hours\": 0.5}}"
  echo "{\"scene\": \"$src/scenes/skin/bend_box.json\", \"kind\": \"skin\", \"set\": {\"methods\": [\"linear\"], \"motion.frames\": 3, \"body.subdivisions\": 4, \"output.obj_every\": 0}}"
} > "$work/kinds.jsonl"
# Under ASan, LeakSanitizer's stop-the-world tracer crashed at the skin worker's exit on every
# attempt in one build (2026-11-29: "Tracer caught signal 11", google/sanitizers#1353; the
# same worker run alone passed): the workers of this batch skip the leak check, which
# cli.hagoromo_skin runs on `hagoromo skin` itself. Release builds ignore the variable.
check "drape, snow and skin jobs" 0 - -- env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  "$hagoromo" batch "$work/kinds.jsonl" --out "$work/kinds" --jobs 2
python3 - "$work/kinds/results.jsonl" <<'PY' && pass || failed "kinds: $(cat "$work/kinds/results.jsonl")"
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["kind"] for r in rs] == ["drape", "snow", "skin"] and all(r["status"] == "passed" for r in rs), rs
assert [r["thumbnail"].split("/")[-1] for r in rs] == ["cloth_on_sphere.png", "after.png", "comparison.png"], rs
PY

# The Slurm array script (a real Slurm runs it in tests/slurm/slurm_batch_test.sh).
"$hagoromo" batch "$work/jobs.jsonl" --out "$work/slurm" --slurm --tasks 2 --cpus-per-task 2 --gres gpu:1 \
  --backend gpu --time 01:00:00 > /dev/null
script="$work/slurm/batch.sbatch"
for want in '#SBATCH --array=0-1' '#SBATCH --gres=gpu:1' '#SBATCH --cpus-per-task=2' '#SBATCH --time=01:00:00' \
  '--shard "${SLURM_ARRAY_TASK_ID}/2" --resume --jobs 2' "'--backend' 'gpu'"; do
  grep -qF -- "$want" "$script" && pass || failed "batch.sbatch lacks $want"
done
bash -n "$script" && pass || failed "batch.sbatch is not valid bash"
finish
