#!/usr/bin/env bash
# The GPU suite in one call: builds Release, runs the GL tests (label gl) and every
# benchmark on whatever GPU the machine has, in parts of at most 9 minutes of wall time,
# and writes bench/results/<stem>_gpu.json per benchmark plus bench/results/gpu_device.txt
# (device, driver, date). Afterwards record the figures in bench/RESULTS.md with the device
# named (see "GPU suite" there).
# Usage: scripts/gpu-suite.sh [PART ...]     (default: every part, in order)
#        scripts/gpu-suite.sh --list         (the parts, one per line)
# Parts: build, gl-tests, demo (the default drape on the GPU and the CPU backend, outputs in
# bench/results/demo_<backend>/), then one per benchmark (self_contact, cloth_step, skinning,
# contact, radar, particle_skinning, snow, spheretree, spheretree_gpu, cloth_colliders,
# self_contact_peer, cloth_peer). A part that runs out of its 540 s (HG_GPU_PART_SECONDS) is
# stopped and reported; the others still run. HG_GPU_BENCH_ARGS adds arguments to every
# benchmark (e.g. --benchmark_min_time=0.05 for a short lease). Exit status: 0 when every
# part passed, 1 otherwise.
# On a GPU machine without this project's packages, pack a build made here first
# (scripts/gpu-bundle.sh), then there: source scripts/gpu-bundle.sh --use, and name parts.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
limit=${HG_GPU_PART_SECONDS:-540}
results="$root/bench/results"
# benchmark part -> executable
declare -A benches=(
  [cloth_step]=hg_cloth_bench [skinning]=hg_skinning_bench [contact]=hg_contact_bench [radar]=hg_radar_bench
  [particle_skinning]=hg_particle_skinning_bench [snow]=hg_snow_bench [spheretree]=hg_spheretree_bench
  [spheretree_gpu]=hg_spheretree_gpu_bench [cloth_colliders]=hg_cloth_collider_bench [cloth_peer]=hg_cloth_peer_bench
  [self_contact]=hg_self_contact_bench [self_contact_peer]=hg_self_contact_peer_bench)
order=(build gl-tests demo self_contact cloth_step skinning contact radar particle_skinning snow spheretree
  spheretree_gpu cloth_colliders self_contact_peer cloth_peer)
read -r -a bench_args <<<"${HG_GPU_BENCH_ARGS:-}"

if [[ ${1:-} == --list ]]; then printf '%s\n' "${order[@]}"; exit 0; fi
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=("${order[@]}")
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}

status=0
run_part() {  # run_part <name> command...: at most $limit s, reported
  local name=$1 start rc
  shift
  start=$(date +%s)
  echo "== $name (at most $limit s) =="
  timeout --kill-after=10 "$limit" "$@"
  rc=$?
  local took=$(( $(date +%s) - start ))
  if [[ $rc -eq 0 ]]; then echo "== $name: ok in $took s =="; else
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "== $name: stopped at the $limit s limit ==" || echo "== $name: failed (exit $rc) in $took s =="
    status=1
  fi
}

device() {  # the device and driver into bench/results/gpu_device.txt
  mkdir -p "$results"
  { echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    "$root/build/apps/hagoromo" info
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
  } >"$results/gpu_device.txt" 2>&1
  cat "$results/gpu_device.txt"
}

for part in "${parts[@]}"; do
  case "$part" in
    build)
      run_part build "$root/scripts/build.sh" "$root/build" -DHG_BUILD_BENCH=ON && device ;;
    gl-tests)
      run_part gl-tests bash -c "cd '$root/build' && ctest -L gl -j \$(nproc) --output-on-failure" ;;
    demo)
      for backend in gpu cpu; do
        run_part "demo-$backend" "$root/build/apps/hagoromo" drape "$root/scenes/outfit_on_mannequin.json" \
          --backend "$backend" --out "$results/demo_$backend"
      done ;;
    *)
      exe=${benches[$part]:-}
      if [[ -z $exe ]]; then echo "unknown part '$part' (see --list)" >&2; status=1; continue; fi
      run_part "$part" "$root/build/bench/$exe" --benchmark_out="$results/${part}_gpu.json" --benchmark_out_format=json "${bench_args[@]}" ;;
  esac
done
exit $status
