#!/usr/bin/env bash
# Tests of the declared settings (tilempi/settings.h), one case per CTest test:
#   settings_test.sh CASE TILEMPIRUN PROBE MPI_PROGRAM
# PROBE is a rank that needs no MPI library (tests/apps/tilempirun/launcher_probe.c); MPI_PROGRAM calls
# MPI_Init and MPI_Finalize. Every case checks the exit status and what tilempirun printed.
set -u

case_name=$1
run=$2
probe=$3
mpi_program=$4

work=$(mktemp -d "${TMPDIR:-/tmp}/tilempi-settings-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL [$case_name]: $*"
  failures=$((failures + 1))
}

# launch ARGS...: runs tilempirun; sets status, leaves stdout and stderr in files.
launch() {
  "$run" "$@" >"$work/out" 2>"$work/err" </dev/null
  status=$?
}

expect_status() {
  [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}

expect_failure() {
  [ "$status" -ne 0 ] || fail "exit status 0, expected a failure"
}

expect_out() {  # expect_out FILE FIXED-STRING
  grep -Fq -- "$2" "$work/$1" || fail "$1 does not contain: $2"
}

expect_no_out() {
  if grep -Fq -- "$2" "$work/$1"; then fail "$1 contains: $2"; fi
}

show() {
  echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"
}

case "$case_name" in
  host-eager-not-a-number)
    TILEMPI_HOST_EAGER=abc launch -n 2 "$probe"
    expect_failure
    expect_out err "environment variable TILEMPI_HOST_EAGER: bad value 'abc': expected an integer in [0, "
    ;;
  host-eager-out-of-range)
    # A 2-rank job's rings take at most a quarter of 256 KiB less the 48-byte slot header.
    TILEMPI_HOST_EAGER=70000 launch -n 2 "$probe"
    expect_failure
    expect_out err "environment variable TILEMPI_HOST_EAGER: bad value '70000': expected an integer in [0, 65488]"
    TILEMPI_HOST_EAGER=-1 launch -n 2 "$probe"
    expect_failure
    expect_out err "TILEMPI_HOST_EAGER: bad value '-1': expected an integer in [0, 65488]"
    ;;
  host-eager-ranks)
    # Given to the ranks only (-x), the variable is checked by each rank's MPI_Init.
    launch -n 2 -x TILEMPI_HOST_EAGER=12abc "$mpi_program"
    expect_failure
    expect_out err "MPI_Init failed: environment variable TILEMPI_HOST_EAGER: bad value '12abc': expected an integer in [0, 65488]"
    expect_no_out out "hello from rank"
    ;;
  host-eager-valid)
    TILEMPI_HOST_EAGER=2048 launch -n 2 "$mpi_program"
    expect_status 0
    expect_out out "hello from rank 1 of 2"
    ;;
  host-chunk)
    TILEMPI_HOST_CHUNK=abc launch -n 2 "$probe"
    expect_failure
    expect_out err "environment variable TILEMPI_HOST_CHUNK: bad value 'abc': expected a power of two in [4096, "
    # A 2-rank job's arena per channel is 1 MiB: chunks of at most half of it.
    TILEMPI_HOST_CHUNK=1048576 launch -n 2 "$probe"
    expect_failure
    expect_out err "TILEMPI_HOST_CHUNK: bad value '1048576': expected a power of two in [4096, 524288]"
    TILEMPI_HOST_CHUNK=5000 launch -n 2 "$probe"
    expect_failure
    expect_out err "TILEMPI_HOST_CHUNK: bad value '5000': expected a power of two in [4096, 524288]"
    TILEMPI_HOST_CHUNK=16384 launch -n 2 "$mpi_program"
    expect_status 0
    expect_out out "hello from rank 0 of 2"
    ;;
  host-cma)
    TILEMPI_HOST_CMA=maybe launch -n 2 "$probe"
    expect_failure
    expect_out err "environment variable TILEMPI_HOST_CMA: bad value 'maybe': expected a boolean"
    ;;
  set-help)
    launch --set help
    expect_status 0
    # chip keys with the defaults of the default preset (tilepro64: 8x8), sim keys, udn's keys,
    # environment variables of every layer
    expect_out out "width=an integer in [1, 1024] (default 8)"
    expect_out out "network_model=flit|packet|ideal (default flit)"
    expect_out out "sim.arena_mib=an integer in [1, 65536]"
    expect_out out "sim.ranks=auto|contexts|processes"
    expect_out out "sim.stack_kib=an integer in [64, 4194304] (default 8192)"
    expect_out out "sim.summary=true|false (default true)"
    expect_out out "adapter.udn.eager_words=an integer in [0, 1099511627776] (default 115)"
    expect_out out "TILEMPI_HOST_EAGER=an integer in [0, 65488]"
    expect_out out "TILEMPI_HOST_CHUNK=a power of two in [4096, 524288] (default 65536)"
    expect_out out "TILEMPI_SIM_RANKS=auto|contexts|processes (default auto)"
    expect_out out "TILEMPI_SIM_PROFILE=true|false"
    expect_out out "TILEMPI_GNUPLOT="
    expect_out out "TILEMPI_COLL=collective=algorithm"
    expect_out out "TILEMPI_COLL_FALLBACK=error|warn|silent (default warn)"
    # another preset's defaults
    launch --preset optimsoc --set help=chip
    expect_status 0
    expect_out out "width=an integer in [1, 1024] (default 4)"
    expect_out out "header_flits=an integer in [1, 64] (default 2)"
    expect_no_out out "sim.arena_mib"
    launch --set help --format markdown
    expect_status 0
    expect_out out "| \`width\` | 1 .. 1024 | 8 | mesh columns |"
    launch --set help=nothing
    expect_status 2
    expect_out err "help=chip"
    ;;
  set-help-adapter)
    launch --adapter namp --set help
    expect_status 0
    expect_out out "Keys of adapter namp"
    expect_out out "adapter.namp.slot_setup=an integer in [0, 1099511627776] (default 8)"
    expect_out out "adapter.namp.retry_cycles="
    expect_no_out out "adapter.udn."
    expect_no_out out "adapter.namp.irq_cycles"   # an rdma key
    launch --adapter rdma --set help=adapter
    expect_status 0
    expect_out out "adapter.rdma.irq_cycles=an integer in [0, 1099511627776] (default 24)"
    expect_no_out out "width="
    launch --adapter bogus --set help
    expect_status 2
    expect_out err "unknown adapter 'bogus'"
    ;;
  sim-keys)
    launch -n 2 --transport sim --set sim.stack_kib=12 "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'sim.stack_kib': bad value '12': expected an integer in [64, 4194304]"
    launch -n 2 --transport sim --set sim.arena_mib=lots "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'sim.arena_mib': bad value 'lots': expected an integer in [1, 65536]"
    launch -n 2 --transport sim --set sim.summary=maybe "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'sim.summary': bad value 'maybe': expected a boolean"
    launch -n 2 --transport sim --set sim.ranks=threads "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'sim.ranks': bad value 'threads': expected one of auto, contexts, processes"
    launch -n 2 --transport sim --set sim.stacksize=64 "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "unknown config key 'sim.stacksize' (sim keys: sim.adapter, sim.arena_mib, sim.compute, sim.config, sim.migrate, sim.preset, sim.progress, sim.ranks, sim.report, sim.stack_kib, sim.summary, sim.trace)"
    launch -n 2 --transport sim --set width=0 "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'width': bad value '0': expected an integer in [1, 1024]"
    launch -n 2 --transport sim --set adapter.udn.poll_cycles=x "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "config key 'adapter.udn.poll_cycles': bad value 'x': expected an integer in [0, 1099511627776]"
    ;;
  sim-env)
    TILEMPI_SIM_RANKS=threads launch -n 2 --transport sim "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "environment variable TILEMPI_SIM_RANKS: bad value 'threads': expected one of auto, contexts, processes"
    TILEMPI_SIM_PROFILE=loud launch -n 2 --transport sim "$probe"
    expect_status 2  # a bad setting is a usage error
    expect_out err "environment variable TILEMPI_SIM_PROFILE: bad value 'loud': expected a boolean"
    ;;
  flag-aliases)
    # A flag is an alias of its setting: the same parser, and an error naming the flag (or the
    # key) and the value.
    launch -n 2 --compute fast "$probe"
    expect_status 2
    expect_out err "--compute fast: expected none, model or scale:F (F >= 0) (config key 'sim.compute')"
    launch -n 2 --set sim.compute=scale:-1 "$probe"
    expect_status 2
    expect_out err "config key 'sim.compute': bad value 'scale:-1': expected none, model or scale:F (F >= 0)"
    launch -n 2 --transport carrier-pigeon "$probe"
    expect_status 2
    expect_out err "--transport carrier-pigeon: expected one of host, sim (config key 'job.transport')"
    launch -n 2 --set job.transport=carrier-pigeon "$probe"
    expect_status 2
    expect_out err "config key 'job.transport': bad value 'carrier-pigeon': expected one of host, sim"
    launch -n 2 --set job.timeout=soon "$probe"
    expect_status 2
    expect_out err "config key 'job.timeout': bad value 'soon': expected a positive number of seconds"
    MPIEXEC_TIMEOUT=soon launch -n 2 "$probe"
    expect_status 2
    expect_out err "environment variable MPIEXEC_TIMEOUT: bad value 'soon': expected a positive number of seconds"
    launch -n 2 --set job.no_such_key=1 "$probe"
    expect_status 2
    expect_out err "unknown config key 'job.no_such_key' (job keys: job.bind, job.coll,"
    launch -n 2 --migrate 1:x "$probe"
    expect_status 2
    expect_out err "--migrate 1:x: expected RANK:TILE@CYCLE (e.g. 1:5@20000) (config key 'sim.migrate')"
    launch -n 2 --set sim.config="$work/no-such.cfg" "$probe"
    expect_status 2
    expect_out err "config key 'sim.config': bad value '$work/no-such.cfg': expected a readable file"
    # One config-text parser, one error: a bad key in --config names the file, the line, the key
    # and the value, before any rank starts (on host too, which takes the mesh size from it).
    printf 'width = 2\nheight = x\n' >"$work/bad.cfg"
    launch --config "$work/bad.cfg" "$probe" env TILEMPI_SIZE
    expect_status 2
    expect_out err "bad.cfg:2: config key 'height': bad value 'x': expected an integer in [1, 1024]"
    expect_no_out out "TILEMPI_SIZE"
    # A chip key is checked when it is set, whatever the transport.
    launch -n 2 --set width=0 "$probe"
    expect_status 2
    expect_out err "config key 'width': bad value '0': expected an integer in [1, 1024]"
    # The key does what the flag does.
    launch --set job.ranks=3 --set job.mesh=3x1 "$probe" env TILEMPI_SIZE TILEMPI_MESH
    expect_status 0
    [ "$(grep -c 'TILEMPI_SIZE=3' "$work/out")" -eq 3 ] || fail "--set job.ranks=3: expected 3 ranks"
    expect_out out "rank 2 TILEMPI_MESH=3x1"
    launch -n 2 --set job.tag_output=true "$probe" env TILEMPI_SIZE
    expect_status 0
    expect_out out "[1] rank 1 TILEMPI_SIZE=2"
    # --set comes after the flags: it wins.
    launch -n 2 --transport sim --set job.transport=host "$probe" env TILEMPI_TRANSPORT
    expect_status 0
    expect_out out "rank 0 TILEMPI_TRANSPORT=host"
    launch --adapter namp --set sim.adapter=rdma --set help=adapter
    expect_status 0
    expect_out out "Keys of adapter rdma"
    # --set help lists the job keys with their flags.
    launch --set help=job
    expect_status 0
    expect_out out "job.transport=host|sim (default host) [flag --transport]"
    expect_out out "job.ranks=an integer in [1, 999999999]"
    launch --set help=sim
    expect_status 0
    expect_out out "sim.compute=none|model|scale:F (F >= 0) (default model) [flag --compute]"
    expect_out out "sim.progress=auto|on|off (default auto) [flag --quiet (off)]"
    ;;
  *)
    echo "unknown case $case_name"
    exit 2
    ;;
esac

if [ "$failures" -ne 0 ]; then
  show
  exit 1
fi
echo "PASS [$case_name]"
