# A single-node Slurm in a folder of its own, for tests/slurm/slurm_batch_test.sh and
# bench/batch_bench.sh: munged, slurmctld and slurmd from the Debian packages
# (scripts/install-deps.sh installs them) on free ports with a minimal slurm.conf.
#   source tests/slurm/local_slurm.sh
#   local_slurm_start     # sets base (the folder) and exports SLURM_CONF; fails with the logs
#   ...sbatch, squeue, scancel...
#   local_slurm_stop      # cancels every job, stops the daemons (SIGKILL after 5 s), removes base
# Call local_slurm_stop from an EXIT trap so that no daemon outlives the caller.

local_slurm_fatal() {
  echo "FAIL: $*"
  for log in "$base"/log/*.log; do echo "--- $log"; tail -20 "$log"; done
  exit 1
}

local_slurm_stop() {
  [[ -n ${base:-} && -d $base ]] || return 0
  squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null
  for pidfile in "$base/slurmd.pid" "$base/slurmctld.pid" "$base/munged.pid"; do
    [[ -s $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  for pidfile in "$base/slurmd.pid" "$base/slurmctld.pid" "$base/munged.pid"; do
    for _ in $(seq 50); do [[ -s $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null || break; sleep 0.1; done
    [[ -s $pidfile ]] && kill -KILL "$(cat "$pidfile")" 2>/dev/null
  done
  pkill -f -- "--out $base/" 2>/dev/null  # a task's hagoromo left behind (never expected)
  rm -rf "$base"
}

local_slurm_start() {
  for tool in munged slurmctld slurmd sbatch squeue scancel sinfo; do
    command -v "$tool" > /dev/null ||
      { echo "FAIL: $tool is missing: run scripts/install-deps.sh (slurmd slurmctld slurm-client munge)"; exit 1; }
  done
  local user node port
  base=$(mktemp -d /tmp/hg-slurm.XXXXXX)  # short: the munge socket path must fit a sun_path
  export SLURM_CONF=$base/slurm.conf
  # A free port pair: slurmctld on p, slurmd on p + 1.
  port=$((20000 + RANDOM % 20000))
  for _ in $(seq 50); do
    (: < "/dev/tcp/127.0.0.1/$port") 2>/dev/null || (: < "/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null || break
    port=$((20000 + RANDOM % 20000))
  done
  mkdir -p "$base/state" "$base/spool" "$base/log"
  head -c 1024 /dev/urandom > "$base/munge.key"
  chmod 400 "$base/munge.key"
  user=$(id -un)
  node=$(hostname -s)
  cat > "$SLURM_CONF" <<CONF
ClusterName=hgtest
SlurmctldHost=$node
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$base/munge.sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
KillWait=5
NodeName=$node CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=hgtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  munged -f --socket="$base/munge.sock" --key-file="$base/munge.key" --log-file="$base/log/munged.log" \
    --pid-file="$base/munged.pid" --seed-file="$base/munged.seed" || local_slurm_fatal "munged did not start"
  slurmctld -f "$SLURM_CONF" || local_slurm_fatal "slurmctld did not start"
  slurmd -f "$SLURM_CONF" || local_slurm_fatal "slurmd did not start"
  for _ in $(seq 100); do sinfo -h -o %t 2>/dev/null | grep -qx idle && break; sleep 0.1; done
  sinfo -h -o %t | grep -qx idle || local_slurm_fatal "the node did not come up: $(sinfo 2>&1)"
  echo "local Slurm up: $base, port $port"
}
