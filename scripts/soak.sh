#!/usr/bin/env bash
# Soak: JOBS short jobs back to back on each transport (tests/reliability/fault_rank.c in mode
# none: 60 rounds of a ring exchange and an allreduce). After every job: no process of the job
# left, no shared-memory object of the job in /dev/shm, nothing in the job's TMPDIR; over the run:
# the driver's own open file descriptors constant (the launcher's inherited pipes are closed)
# and the launcher's peak memory (ru_maxrss of the job's process tree, from wait4) not growing:
# the mean of the last 100 jobs against the first 100.
#
#   scripts/soak.sh [-j JOBS] [-n RANKS] [-b BUILD_DIR] [-T TRANSPORTS]
#
# Default: 1000 jobs of 4 ranks on host and on sim. Run it niced on a shared machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=1000
ranks=4
build=$root/build
transports="host sim"
while getopts "j:n:b:T:" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    n) ranks=$OPTARG ;;
    b) build=$OPTARG ;;
    T) transports=$OPTARG ;;
    *) sed -n 2,12p "$0" >&2; exit 2 ;;
  esac
done
for f in "$build/bin/tilempirun" "$build/bin/fault_rank"; do
  [ -x "$f" ] || { echo "soak.sh: $f is missing (build first)" >&2; exit 2; }
done
exec python3 - "$build" "$jobs" "$ranks" $transports <<'PY'
import os, subprocess, sys, tempfile, time

build, jobs, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
transports = sys.argv[4:]
run = os.path.join(build, "bin", "tilempirun")
prog = os.path.join(build, "bin", "fault_rank")
failed = 0
passed = 0

def own_fds():
    return len(os.listdir("/proc/self/fd"))

for t in transports:
    extra = ["--compute", "none"] if t == "sim" else []
    fds0 = own_fds()
    rss, problems = [], []
    start = time.time()
    for i in range(jobs):
        token = f"tilempi-soak-{os.getpid()}-{t}-{i}"
        with tempfile.TemporaryDirectory(prefix="tilempi-soak.") as tmp:
            env = dict(os.environ, TMPDIR=tmp)
            p = subprocess.Popen([run, "-n", str(ranks), "--transport", t, *extra, "--timeout", "120",
                                  prog, "none", "0", token],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
            err = p.stderr.read()
            p.stderr.close()
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            rss.append(usage.ru_maxrss)
            why = []
            if p.returncode != 0:
                why.append(f"exit status {p.returncode}: {err.decode(errors='replace').strip()[-200:]}")
            left = subprocess.run(["pgrep", "-f", token], capture_output=True, text=True).stdout.split()
            if left:
                why.append(f"processes left: {left}")
                subprocess.run(["kill", "-KILL", *left])
            shm = [n for n in os.listdir("/dev/shm") if n.startswith((f"tilempi-{p.pid}-", f"tilempi-sim-{p.pid}-"))]
            if shm:
                why.append(f"left in /dev/shm: {shm}")
            if os.listdir(tmp):
                why.append(f"left in TMPDIR: {os.listdir(tmp)}")
            if why:
                problems.append(f"job {i}: " + "; ".join(why))
    fds1 = own_fds()
    if fds1 != fds0:
        problems.append(f"the driver's open file descriptors went from {fds0} to {fds1}")
    k = min(100, len(rss))
    first, last = sum(rss[:k]) / k, sum(rss[-k:]) / k
    if last > first * 1.10 + 1024:
        problems.append(f"peak memory grew: {first:.0f} KiB (first {k} jobs) -> {last:.0f} KiB (last {k})")
    for p_ in problems[:10]:
        print(f"FAIL: {t}: {p_}")
    bad = len(problems)
    failed += bad
    passed += jobs - min(bad, jobs)
    print(f"soak: {t}: {jobs} jobs of {ranks} ranks in {time.time() - start:.0f} s; {bad} problems; "
          f"peak memory of a job (launcher and ranks) {first:.0f} KiB first {k}, {last:.0f} KiB last {k}; "
          f"driver fds {fds0} -> {fds1}", flush=True)
print(f"soak: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
