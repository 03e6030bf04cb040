#!/usr/bin/env bash
# tilempi's sim transport against SimGrid SMPI, side by side on this machine (wall time of whole commands).
#   transport/sim/bench/smpi_compare.sh BUILD_DIR
# Environment (optional):
#   PAIRS=3          counted A/B pairs per comparison (runs alternate A B A B after one warm-up of each)
#   ITEMS="1 2 3 4 p" which measurements to run (p: sim.ranks=processes against contexts)
#   PP_LONG=100000 PP_SHORT=10000   ping-pong round trips of the long and the short run (item 2)
#   (the 1024-rank comparison has no warm-up runs: SMPI takes minutes per run there)
#   RUNS4=1          runs of the 4096-rank alltoall (item 4, tilempi only; over 11 min per run on a loaded 2-core host)
#   (item 3 has no warm-up runs: SMPI takes 1.5 to 4.5 min per run there)
#   ARENA_MIB=4      sim.arena_mib for the 1024 and 4096-rank runs
#   LOAD_MAX=2.5 LOAD_WAIT=600   wait up to LOAD_WAIT s for the 1-minute load average to drop below LOAD_MAX
#   WORK=dir         scratch directory (default: a new one under /tmp)
# Measurements:
#   1. 20 MPI_Alltoall of 1 KiB among 64 ranks (8x8): tilempi pairwise+packet, pairwise+flit (default model),
#      mesh_rounds (default algorithm)+flit, each against SMPI --cfg=smpi/alltoall:pair on an 8x8 torus;
#   2. wall time of one simulated MPI call in a 2-rank ping-pong of 8 B: (long run - short run) / (4 x extra round
#      trips), which removes start-up; target for tilempi <= 1 us per call;
#   3. one MPI_Alltoall of 8 B among 1024 ranks, pairwise, tilempi packet model vs SMPI on a 32x32 torus;
#   4. the same among 4096 ranks (64x64), tilempi only;
#   p. tilempi sim.ranks=processes against the default (contexts) for 1 (pairwise, packet) and 2.
# Output: a table (measurement, tilempi wall, SMPI wall, ratio, target, met/missed) and one line per measurement
#   "csv,measurement,tilempi_s,smpi_s,ratio,target,verdict,tilempi_maxrss_kib,smpi_maxrss_kib,load1"
# Wall times are medians over the counted runs; ratios are the medians of the pair-by-pair ratios; peak memory is
# /usr/bin/time's %M (largest single process, KiB), the largest over the counted runs.
# SMPI runs with its default network model, --cfg=smpi/simulate-computation:no (tilempi runs with --compute none)
# and --cfg=smpi/privatization:dlopen (globals private per rank, as tilempi's contexts).
set -eu
build=$(cd "${1:?usage: smpi_compare.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../../tests/transport/sim" && pwd)
PAIRS=${PAIRS:-3}
ITEMS=${ITEMS:-"1 2 3 4 p"}
PP_LONG=${PP_LONG:-100000}
PP_SHORT=${PP_SHORT:-10000}
RUNS4=${RUNS4:-1}
ARENA_MIB=${ARENA_MIB:-4}
LOAD_MAX=${LOAD_MAX:-2.5}
LOAD_WAIT=${LOAD_WAIT:-600}
work=${WORK:-$(mktemp -d /tmp/smpi_compare.XXXXXX)}
mkdir -p "$work"
run=$build/bin/tilempirun
[ -x "$run" ] || { echo "no $run" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 1; }

# --- SMPI (Debian's libsimgrid-dev carries smpirun, smpicc and smpicxx) ---
if ! command -v smpirun >/dev/null || ! command -v smpicxx >/dev/null; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y libsimgrid-dev || { $sudo apt-get update && $sudo apt-get install -y libsimgrid-dev; }
fi

# --- the same sources, built for each side ---
"$build/bin/tilempicxx" -O2 -o "$work/t_alltoall" "$src/alltoall_bench.cpp"
"$build/bin/tilempicxx" -O2 -o "$work/t_pingpong" "$src/pingpong.cpp"
smpicxx -O2 -o "$work/s_alltoall" "$src/alltoall_bench.cpp" 2>"$work/smpicxx.log"
smpicxx -O2 -o "$work/s_pingpong" "$src/pingpong.cpp" 2>>"$work/smpicxx.log"

# --- SMPI platforms: a torus cluster of W x H tiles, on-chip-like links (the wall time is compared, not virtual time)
platform() { # W H -> writes $work/plat_WxH.xml and $work/hosts_WxH
  local w=$1 h=$2 n=$(($1 * $2))
  cat >"$work/plat_${w}x${h}.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="chip" prefix="tile-" suffix="" radical="0-$((n - 1))" speed="1Gf"
           bw="1.4GBps" lat="2ns" topology="TORUS" topo_parameters="$w,$h"/>
</platform>
EOF
  seq 0 $((n - 1)) | sed 's/^/tile-/' >"$work/hosts_${w}x${h}"
}
platform 2 1
platform 8 8
platform 32 32
smpi() { # NP WxH PROGRAM ARGS... (extra --cfg in $SMPI_CFG)
  local np=$1 geo=$2
  shift 2
  smpirun -np "$np" -platform "$work/plat_$geo.xml" -hostfile "$work/hosts_$geo" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:dlopen --cfg=smpi/host-speed:1Gf \
    ${SMPI_CFG:-} "$@"
}
tmpi() { # NP TILEMPIRUN-OPTIONS... -- PROGRAM ARGS...
  local np=$1
  shift
  "$run" -n "$np" --transport sim --compute none "$@"
}

# --- timing ---
load1() { cut -d' ' -f1 /proc/loadavg; }
wait_load() {
  local waited=0
  while awk -v l="$(load1)" -v m="$LOAD_MAX" 'BEGIN { exit !(l > m) }' && [ "$waited" -lt "$LOAD_WAIT" ]; do
    [ "$waited" = 0 ] && echo "# load average $(load1) > $LOAD_MAX: waiting (up to ${LOAD_WAIT}s)" >&2
    sleep 10
    waited=$((waited + 10))
  done
}
# timed NAME CMD... : runs CMD once; sets T (wall seconds, ns clock) and M (peak KiB); output in $work/NAME.log
timed() {
  local name=$1 t0 t1 rc
  shift
  t0=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$work/$name.mem" "$@" >>"$work/$name.log" 2>&1 && rc=0 || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" != 0 ]; then
    echo "!! $name failed (exit $rc): $*" >&2
    tail -5 "$work/$name.log" >&2
    T=nan M=0
    return 0
  fi
  T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
  M=$(tail -1 "$work/$name.mem")
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maxof() { tr ' ' '\n' | grep -v '^$' | sort -g | tail -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b + 0 == 0) print "nan"; else printf "%.3f", a / b }'; }

rows=()
row() { # MEASUREMENT TILEMPI SMPI RATIO TARGET(op value or -) TILEMPI_KIB SMPI_KIB  (TARGET applies to RATIO)
  local verdict=-
  if [ "$5" != - ]; then
    verdict=$(awk -v r="$4" -v t="$5" 'BEGIN { op = substr(t, 1, 2); v = substr(t, 3) + 0
      if (r == "nan") print "failed"; else if ((op == "<=" && r <= v) || (op == ">=" && r >= v)) print "met"; else print "missed" }')
  fi
  rows+=("$1|$2|$3|$4|$5|$verdict|$6|$7|$(load1)")
  printf 'csv,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$5" "$verdict" "$6" "$7" "$(load1)"
}

# compare NAME "A command" "B command": warm-up of each (unless WARM=0), then PAIRS x (A, B); sets TA TB R MA MB
compare() {
  local name=$1 a=$2 b=$3 i ta="" tb="" rs="" ma="" mb=""
  wait_load
  if [ "${WARM:-1}" = 1 ]; then
    timed "$name.A.warm" bash -c "$a"
    timed "$name.B.warm" bash -c "$b"
  fi
  for i in $(seq "$PAIRS"); do
    timed "$name.A" bash -c "$a"
    ta+=" $T" ma+=" $M"
    local x=$T
    timed "$name.B" bash -c "$b"
    tb+=" $T" mb+=" $M"
    rs+=" $(ratio "$x" "$T")"
  done
  TA=$(echo "$ta" | median) TB=$(echo "$tb" | median) R=$(echo "$rs" | median)
  MA=$(echo "$ma" | maxof) MB=$(echo "$mb" | maxof)
  echo "# $name: A$ta | B$tb | ratios$rs (load $(load1))" >&2
}

# pingpong RANKS-OPTION NAME TARGET: us of wall time per MPI call, (long - short) / (4 x extra round trips);
# per pair: tilempi long, tilempi short, SMPI long, SMPI short. TARGET (e.g. <=1) applies to tilempi's figure.
pingpong() {
  local ranks=$1 name=$2 target=$3 tl sl ct="" cs="" rs="" a b c d x y ma=0 mb=0 i v=- n=$((4 * (PP_LONG - PP_SHORT)))
  wait_load
  tl="tmpi 2 $ranks $work/t_pingpong 0 1 8"
  sl="smpi 2 2x1 $work/s_pingpong 0 1 8"
  timed pp.warm bash -c "$tl $PP_SHORT"
  timed pp.warm bash -c "$sl $PP_SHORT"
  for i in $(seq "$PAIRS"); do
    timed pp.t.long bash -c "$tl $PP_LONG"; a=$T ma=$M
    timed pp.t.short bash -c "$tl $PP_SHORT"; b=$T
    timed pp.s.long bash -c "$sl $PP_LONG"; c=$T mb=$M
    timed pp.s.short bash -c "$sl $PP_SHORT"; d=$T
    x=$(awk -v l="$a" -v s="$b" -v n="$n" 'BEGIN { printf "%.4f", (l - s) / n * 1e6 }')
    y=$(awk -v l="$c" -v s="$d" -v n="$n" 'BEGIN { printf "%.4f", (l - s) / n * 1e6 }')
    ct+=" $x" cs+=" $y" rs+=" $(ratio "$x" "$y")"
  done
  echo "# $name, us/call: tilempi$ct | SMPI$cs | ratios$rs (load $(load1))" >&2
  x=$(echo "$ct" | median)
  [ "$target" = - ] || v=$(awk -v r="$x" -v t="${target#<=}" 'BEGIN { print (r <= t ? "met" : "missed") }')
  rows+=("$name|$x|$(echo "$cs" | median)|$(echo "$rs" | median)|$target$([ "$target" = - ] || echo us)|$v|$ma|$mb|$(load1)")
  printf 'csv,%s\n' "$(echo "${rows[-1]}" | tr '|' ',')"
}

echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(smpirun -version 2>/dev/null | head -1 || true)"
echo "# scratch: $work"
echo "csv,measurement,tilempi_s,smpi_s,ratio,target,verdict,tilempi_maxrss_kib,smpi_maxrss_kib,load1"
export -f smpi tmpi
export work run SMPI_CFG="${SMPI_CFG:-}"

for item in $ITEMS; do
  case $item in
  1)
    sp="smpi 64 8x8 --cfg=smpi/alltoall:pair $work/s_alltoall 1024 20 coll"
    compare a2a64_pairwise_packet "tmpi 64 --coll alltoall=pairwise --set network_model=packet $work/t_alltoall 1024 20 coll" "$sp"
    row "alltoall 64x1KiBx20 pairwise packet vs SMPI pair" "$TA" "$TB" "$R" "<=2" "$MA" "$MB"
    compare a2a64_pairwise_flit "tmpi 64 --coll alltoall=pairwise $work/t_alltoall 1024 20 coll" "$sp"
    row "alltoall 64x1KiBx20 pairwise flit vs SMPI pair" "$TA" "$TB" "$R" "<=3" "$MA" "$MB"
    compare a2a64_mesh_rounds_flit "tmpi 64 $work/t_alltoall 1024 20 coll" "$sp"
    row "alltoall 64x1KiBx20 mesh_rounds flit vs SMPI pair" "$TA" "$TB" "$R" "<=3" "$MA" "$MB"
    ;;
  2)
    pingpong "" "pingpong us/MPI call (target on tilempi's figure)" "<=1"
    ;;
  p)
    compare a2a64_processes_vs_contexts \
      "tmpi 64 --set sim.ranks=processes --coll alltoall=pairwise --set network_model=packet $work/t_alltoall 1024 20 coll" \
      "tmpi 64 --coll alltoall=pairwise --set network_model=packet $work/t_alltoall 1024 20 coll"
    rows+=("alltoall 64 pairwise packet: processes (col 2) vs contexts (col 3)|$TA|$TB|$R|-|-|$MA|$MB|$(load1)")
    printf 'csv,%s\n' "$(echo "${rows[-1]}" | tr '|' ',')"
    pingpong "--set sim.ranks=processes" "pingpong us/MPI call, sim.ranks=processes" -
    ;;
  3)
    WARM=0 compare a2a1024_pairwise_packet \
      "tmpi 1024 --set sim.arena_mib=$ARENA_MIB --coll alltoall=pairwise --set network_model=packet $work/t_alltoall 8 1 coll" \
      "smpi 1024 32x32 --cfg=smpi/alltoall:pair $work/s_alltoall 8 1 coll"
    row "alltoall 1024x8B pairwise packet vs SMPI pair 32x32 torus" "$TA" "$TB" "$R" "<=0.5" "$MA" "$MB"
    ;;
  4)
    wait_load
    ts="" ms=""
    for i in $(seq "$RUNS4"); do
      timed a2a4096 bash -c "tmpi 4096 --set sim.arena_mib=$ARENA_MIB --coll alltoall=pairwise --set network_model=packet $work/t_alltoall 8 1 coll"
      ts+=" $T" ms+=" $M"
    done
    echo "# a2a4096: $ts (load $(load1))" >&2
    row "alltoall 4096x8B pairwise packet (tilempi only)" "$(echo "$ts" | median)" - - - "$(echo "$ms" | maxof)" -
    ;;
  *) echo "unknown item $item" >&2 ;;
  esac
done
echo
printf '%-62s %12s %12s %8s %7s %7s %11s %11s %6s\n' measurement tilempi_s smpi_s ratio target result tilempi_KiB smpi_KiB load1
for r in "${rows[@]}"; do
  IFS='|' read -r m a b x t v ma mb l <<<"$r"
  printf '%-62s %12s %12s %8s %7s %7s %11s %11s %6s\n' "$m" "$a" "$b" "$x" "$t" "$v" "$ma" "$mb" "$l"
done
