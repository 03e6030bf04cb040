# A single-node Slurm cluster in a directory of its own, for tests (sourced):
#   slurm_cluster_start DIR    munged, slurmctld and slurmd on this machine, configured in DIR,
#                              on free ports; exports SLURM_CONF; returns once the node is idle
#   slurm_cluster_stop         ends the daemons it started (also on EXIT: a trap)
#   slurm_cluster_missing      prints what is not installed (Debian: slurmctld slurmd munge slurm-client)
# Nothing outside DIR is touched: the daemons' sockets, state, logs and pid files are all there.

slurm_cluster_missing() {
  local p missing=()
  for p in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
    command -v $p >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v $p >/dev/null 2>&1 || missing+=($p)
  done
  echo "${missing[*]}"
}

_slurm_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_cluster_pids=()

slurm_cluster_stop() {
  local pid
  for pid in "${slurm_cluster_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${slurm_cluster_pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  slurm_cluster_pids=()
}

slurm_cluster_start() {
  local dir=$1 user host cpus node
  export PATH=$PATH:/usr/sbin
  mkdir -p "$dir"/{munge,state,spool}
  chmod 700 "$dir/munge"
  user=$(id -un)
  host=$(hostname -s)
  mungekey -c -k "$dir/munge/munge.key" >/dev/null 2>&1 ||
    { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null; }
  chmod 400 "$dir/munge/munge.key"
  munged -F --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" \
    >"$dir/munged.out" 2>&1 &
  slurm_cluster_pids+=($!)
  trap slurm_cluster_stop EXIT
  # The node as slurmd sees it (CPUs, sockets, memory), so that it is not drained for a mismatch.
  node=$(slurmd -C | head -n 1 | sed 's/RealMemory=[0-9]*//')
  cat >"$dir/slurm.conf" <<EOF
ClusterName=tilempitest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$(_slurm_free_port)
SlurmdPort=$(_slurm_free_port)
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
MinJobAge=300
KillWait=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 1 50); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
  slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
  slurm_cluster_pids+=($!)
  slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
  slurm_cluster_pids+=($!)
  for _ in $(seq 1 300); do
    case $(sinfo -h -o %T 2>/dev/null) in idle*) return 0 ;; esac
    sleep 0.1
  done
  echo "slurm_cluster: the node did not come up:" >&2
  tail -n 20 "$dir"/*.log "$dir"/*.out >&2 || true
  return 1
}
