#!/usr/bin/env bash
# The host transport against MPICH, side by side: the OSU-style programs of apps/hostbench
# (latency, bandwidth, bidirectional bandwidth, message rate, barrier/allreduce) built against
# tilempi and against Debian's MPICH (installed here if missing), run pinned to cores, A B A B
# for ROUNDS rounds; per size the median over the rounds and the ratio. Also the machine's
# cache-line hand-off floor (line_floor, and with a line per direction) and barrier/allreduce of 8 ranks on the cores there
# are (oversubscribed). Writes the tables to stdout, and with --write into
# docs/HOST_TRANSPORT.md between the "hostbench" markers. Every table says the load average
# seen while it ran: on a shared machine, compare only figures taken side by side.
#
#   scripts/host-vs-mpich.sh [--build DIR] [--rounds N] [--max BYTES] [--write] [--quick] [--no-prio]
#   scripts/host-vs-mpich.sh --apps [--ranks N] [--build DIR] [--rounds N] [--write] [--no-prio]
#
# --quick: 3 rounds, sizes up to 64 KiB (a few minutes less).
# --apps: instead, the communication patterns of real codes (aml: Graph500's BFS, particles:
# Quicksilver, blocking and with -a non-blocking "done?" tests, sweep: Kripke, fileio: 0-byte
# MPI-IO writes in every variant) on N ranks (default
# 4: more ranks than this machine's 2 cores, the usual case here), A B A B, median per figure;
# --write puts that table between the "hostapps" markers.
# As root, every rank of both libraries (and line_floor) starts at the highest priority (its
# autogroup's nice -20, then nice -20): the other users' processes of a shared machine then
# disturb both less; --no-prio leaves priorities alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
rounds=7
max=4194304
write=0
apps=0
ranks=4
prio=$([ "$(id -u)" = 0 ] && echo 1 || echo 0)
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --write) write=1; shift ;;
    --quick) rounds=3; max=65536; shift ;;
    --no-prio) prio=0; shift ;;
    --apps) apps=1; shift ;;
    --ranks) ranks=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "host-vs-mpich.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case $rounds in ''|*[!0-9]*|0) echo "host-vs-mpich.sh: --rounds wants a positive number, not '$rounds'" >&2; exit 2 ;; esac
case $max in ''|*[!0-9]*) echo "host-vs-mpich.sh: --max wants a byte count, not '$max'" >&2; exit 2 ;; esac
case $ranks in ''|*[!0-9]*|0|1) echo "host-vs-mpich.sh: --ranks wants a number above 1, not '$ranks'" >&2; exit 2 ;; esac

# ---- MPICH from Debian (the baseline only: tilempi never depends on it)
if ! command -v mpicc >/dev/null || ! mpicc -show 2>/dev/null | grep -qi mpich; then
  echo "# installing Debian's MPICH (mpich, libmpich-dev)" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y --no-install-recommends mpich libmpich-dev >&2
fi

wrapper() {  # $1 directory: writes $1/prio, the highest-priority wrapper (as root)
  printf '#!/bin/sh\necho -20 > /proc/self/autogroup 2>/dev/null\nexec nice -n -20 "$@"\n' > "$1/prio"
  chmod +x "$1/prio"
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# ---- the real codes' patterns: each program once per library per round, A B A B
if [ "$apps" = 1 ]; then
  progs="aml particles sweep fileio"
  runs="aml particles particles_async sweep fileio"
  cmake --build "$build" -j2 --target tilempirun $(for p in $progs; do printf 'hostbench-%s ' "$p"; done) >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for p in $progs; do mpicc -O2 -Wno-stringop-overflow -o "$work/mpich-$p" "$root/apps/hostbench/$p.c"; done
  wrap=()
  if [ "$prio" = 1 ]; then wrapper "$work"; wrap=("$work/prio"); fi
  declare -A args=([aml]="-l 200" [particles]="-c 10" [particles_async]="-a -c 10" [sweep]="-i 10" [fileio]="-n 2000")
  load > "$work/load"
  for ((i = 1; i <= rounds; i++)); do
    echo "# round $i of $rounds (load $(load))" >&2
    for r in $runs; do
      p=${r%_async}
      # shellcheck disable=SC2086
      "$build/bin/tilempirun" -n "$ranks" --bind core "${wrap[@]}" "$build/bin/hostbench-$p" ${args[$r]} | grep -v '^#' >> "$work/t"
      # shellcheck disable=SC2086
      mpirun -n "$ranks" -bind-to core "${wrap[@]}" "$work/mpich-$p" ${args[$r]} | grep -v '^#' >> "$work/m"
      load >> "$work/load"
    done
  done
  {
    printf 'Measured %s on %s cores (%s), load average %s-%s while it ran; MPICH %s;
' "$(date -u '+%Y-%m-%d %H:%M UTC')" \
      "$(nproc)" "$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$(sort -g "$work/load" | head -1)" \
      "$(sort -g "$work/load" | tail -1)" "$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version: *//p' | tr -d '\t')"
    printf '`scripts/host-vs-mpich.sh --apps --ranks %s --rounds %s`%s: %s ranks on %s cores, the two\n' "$ranks" "$rounds" \
      "$([ "$prio" = 1 ] && echo ', every rank of both at nice -20')" "$ranks" "$(nproc)"
    printf 'libraries alternating, median of %s runs each (aml: us per BFS level; particles: ms per cycle;\n' "$rounds"
    printf 'sweep: ms per iteration; fileio: us per 0-byte call; ratio = tilempi / MPICH, lower is better).\n\n'
    printf '| figure | tilempi | MPICH | ratio | tilempi range | MPICH range |\n| --- | ---: | ---: | ---: | ---: | ---: |\n'
    for name in $(awk '{print $1}' "$work/t" | awk '!seen[$0]++'); do
      t=$(awk -v n="$name" '$1 == n {print $2}' "$work/t" | median)
      m=$(awk -v n="$name" '$1 == n {print $2}' "$work/m" | median)
      tr=$(awk -v n="$name" '$1 == n {print $2}' "$work/t" | sort -g | sed -n '1p;$p' | paste -sd- -)
      mr=$(awk -v n="$name" '$1 == n {print $2}' "$work/m" | sort -g | sed -n '1p;$p' | paste -sd- -)
      awk -v n="$name" -v t="$t" -v m="$m" -v tr="$tr" -v mr="$mr" 'BEGIN {
        printf "| %s | %.3f | %.3f | %s | %s | %s |\n", n, t, m, (m > 0 ? (t / m < 0.001 ? "<0.001" : sprintf(t / m < 0.1 ? "%.4f" : "%.2f", t / m)) : "-"), tr, mr }'
    done
  } > "$work/report.md"
  cat "$work/report.md"
  if [ "$write" = 1 ]; then
    doc=$root/docs/HOST_TRANSPORT.md
    grep -q '<!-- hostapps:begin -->' "$doc" || { echo "no hostapps markers in $doc" >&2; exit 1; }
    awk -v rep="$work/report.md" '
      /<!-- hostapps:begin -->/ { print; while ((getline l < rep) > 0) print l; skip = 1; next }
      /<!-- hostapps:end -->/ { skip = 0 }
      !skip' "$doc" > "$work/doc" && cp "$work/doc" "$doc"
    echo "# wrote $doc" >&2
  fi
  exit 0
fi

# ---- both builds of the same sources
cmake --build "$build" -j2 --target tilempirun hostbench-latency hostbench-bandwidth hostbench-msgrate \
  hostbench-colls hostbench-line-floor >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in latency bandwidth msgrate colls; do
  mpicc -O2 -Wno-stringop-overflow -o "$work/mpich-$p" "$root/apps/hostbench/$p.c"  # GCC 12 misreads MPI_STATUSES_IGNORE
done
wrap=()
if [ "$prio" = 1 ]; then
  wrapper "$work"
  wrap=("$work/prio")
fi
run_t() { "$build/bin/tilempirun" -n "$1" --bind core "${wrap[@]}" "${@:2}"; }
run_m() { mpirun -n "$1" -bind-to core "${wrap[@]}" "${@:2}"; }
ncores=$(nproc)

echo "$(load)" > "$work/load"
note_load() { load >> "$work/load"; }

# ---- A B A B
for ((i = 1; i <= rounds; i++)); do
  echo "# round $i of $rounds (load $(load))" >&2
  for lib in t m; do
    if [ $lib = t ]; then run=run_t; bin=$build/bin/hostbench; else run=run_m; bin=$work/mpich; fi
    # The floor right before each library's runs: a virtual machine's two cores may share a
    # physical core's caches at one moment and not at the next (see docs/HOST_TRANSPORT.md).
    "${wrap[@]}" "$build/bin/hostbench-line-floor" 0 1 30000 > "$work/floor.$lib.$i"
    # ... and a line per direction, as a protocol with one ring per direction hands over data
    [ $lib = t ] && "${wrap[@]}" "$build/bin/hostbench-line-floor" 0 1 30000 pair > "$work/pair.$i"
    $run 2 "$bin-latency" -M "$max" > "$work/lat.$lib.$i"
    $run 2 "$bin-bandwidth" -M "$max" > "$work/bw.$lib.$i"
    $run 2 "$bin-bandwidth" -b -M "$max" > "$work/bibw.$lib.$i"
    $run 2 "$bin-msgrate" -M "$(( max < 65536 ? max : 65536 ))" > "$work/mr.$lib.$i"
    note_load
  done
done
# Barrier/allreduce of 8 ranks on the cores: MPICH's ranks busy-poll, so each of its calls
# waits for the scheduler; a few calls suffice there.
for ((i = 1; i <= (rounds < 3 ? rounds : 3); i++)); do
  run_t 8 "$build/bin/hostbench-colls" 2000 > "$work/coll.t.$i"
  run_m 8 "$work/mpich-colls" 10 > "$work/coll.m.$i"
  note_load
done

# ---- which rounds compare like with like: the floor before the tilempi runs and before the
# MPICH runs within a factor 1.5 of each other (the same placement of the two cores)
ok=()
for ((i = 1; i <= rounds; i++)); do
  ft=$(awk '$1 == "line_floor" {print $2}' "$work/floor.t.$i")
  fm=$(awk '$1 == "line_floor" {print $2}' "$work/floor.m.$i")
  if awk -v a="$ft" -v b="$fm" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 1.5 && b / a < 1.5) }'; then ok+=("$i"); fi
done
# Of those, only the rounds of the commoner placement: a median over rounds of both placements
# mixes two machines (a floor 3x below the largest one seen counts as the cores sharing caches).
near=() far=()
fbig=$(for i in "${ok[@]}"; do awk '$1 == "line_floor" {print $2}' "$work/floor.t.$i"; done | sort -g | tail -1)
for i in "${ok[@]}"; do
  ft=$(awk '$1 == "line_floor" {print $2}' "$work/floor.t.$i")
  if awk -v a="$ft" -v b="$fbig" 'BEGIN { exit !(a * 3 < b) }'; then near+=("$i"); else far+=("$i"); fi
done
if [ ${#near[@]} -gt ${#far[@]} ]; then used=("${near[@]}"); else used=("${far[@]}"); fi
if [ ${#ok[@]} -eq 0 ]; then
  used=($(seq 1 "$rounds"))
  echo "# no round had the same placement for both libraries: the tables use every round" >&2
fi
files() {  # $1 stem, $2 lib: that library's files of the rounds used
  for i in "${used[@]}"; do echo "$work/$1.$2.$i"; done
}

# ---- medians and ratios
table() {  # $1 file stem, $2 title, $3 unit, $4 "lower"|"higher" is better
  local stem=$1
  printf '\n%s (%s, median of %s rounds; ratio = tilempi / MPICH, %s is better)\n\n' "$2" "$3" "${#used[@]}" "$4"
  printf '| bytes | tilempi | MPICH | ratio |\n| ---: | ---: | ---: | ---: |\n'
  for size in $(awk '!/^#/ {print $1}' "$work/$stem.t.1"); do
    t=$(cat $(files "$stem" t) | awk -v s="$size" '!/^#/ && $1 == s {print $2}' | median)
    m=$(cat $(files "$stem" m) | awk -v s="$size" '!/^#/ && $1 == s {print $2}' | median)
    awk -v s="$size" -v t="$t" -v m="$m" 'BEGIN {
      h = s; if (s >= 1048576 && s % 1048576 == 0) h = s / 1048576 " Mi"; else if (s >= 1024 && s % 1024 == 0) h = s / 1024 " Ki";
      printf "| %s | %.3f | %.3f | %.2f |\n", h, t, m, (m > 0 ? t / m : 0) }'
  done
}
{
  lmin=$(sort -g "$work/load" | head -1); lmax=$(sort -g "$work/load" | tail -1)
  printf 'Measured %s on %s cores (%s), load average %s-%s while it ran;\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" \
    "$ncores" "$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$lmin" "$lmax"
  printf 'MPICH %s; `scripts/host-vs-mpich.sh --rounds %s --max %s`%s.\n' \
    "$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version: *//p' | tr -d '\t')" "$rounds" "$max" \
    "$([ "$prio" = 1 ] && echo ', every rank of both at nice -20')"
  floor=$(cat $(files floor t) | awk '$1 == "line_floor" {print $2}' | median)
  floor_m=$(cat $(files floor m) | awk '$1 == "line_floor" {print $2}' | median)
  fmin=$(cat "$work"/floor.* | awk '$1 == "line_floor_min" {print $2}' | sort -g | head -1)
  fmax=$(cat "$work"/floor.* | awk '$1 == "line_floor" {print $2}' | sort -g | tail -1)
  t8=$(cat $(files lat t) | awk '!/^#/ && $1 == 8 {print $2}' | median)
  pair=$(for i in "${used[@]}"; do awk '$1 == "line_pair" {print $2}' "$work/pair.$i"; done | median)
  printf '\nThe two cores of a virtual machine may share a physical core'"'"'s caches at one moment and not at\n'
  printf 'the next, which changes every figure below (see the text); a round counts only where the floor\n'
  printf 'measured right before its tilempi runs and right before its MPICH runs agree within 1.5x:\n'
  printf '%s of %s rounds did (%s)' "${#ok[@]}" "$rounds" "${ok[*]:-none: every round is used}"
  if [ ${#ok[@]} -gt 0 ] && [ ${#used[@]} -lt ${#ok[@]} ]; then
    printf ';\nof those, the tables use the %s that saw the commoner placement (%s)' "${#used[@]}" "${used[*]}"
  fi
  printf '.\n'
  printf '\nCache-line hand-off floor (two pinned threads, one line back and forth, one way) in those\n'
  printf 'rounds: median %s us before the tilempi runs, %s us before the MPICH runs\n' "$floor" "$floor_m"
  printf '(all runs: %s-%s us); tilempi 8-byte latency / floor = %s.\n' "$fmin" "$fmax" \
    "$(awk -v a="$t8" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')"
  printf 'With a line per direction (each thread writes one and spins on the other, as a ring per\n'
  printf 'direction hands data over): median %s us before the tilempi runs; 8-byte latency / that = %s.\n' \
    "$pair" "$(awk -v a="$t8" -v b="$pair" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
  table lat "One-way latency" "us" lower
  table bw "Bandwidth" "MB/s" higher
  table bibw "Bidirectional bandwidth" "MB/s" higher
  table mr "Message rate, 1 pair, window 64" "million messages/s" higher
  printf '\n8 ranks on %s cores, mean per call (us; tilempi 2000 calls, MPICH 10; median of runs):\n\n' "$ncores"
  printf '| call | tilempi | MPICH | MPICH / tilempi |\n| --- | ---: | ---: | ---: |\n'
  for c in barrier allreduce; do
    t=$(cat "$work"/coll.t.* | awk -v c=$c '$1 == c {print $2}' | median)
    m=$(cat "$work"/coll.m.* | awk -v c=$c '$1 == c {print $2}' | median)
    awk -v c=$c -v t="$t" -v m="$m" 'BEGIN { printf "| %s | %.1f | %.1f | %.0fx |\n", c, t, m, (t > 0 ? m / t : 0) }'
  done
} > "$work/report.md"
cat "$work/report.md"

if [ "$write" = 1 ]; then
  doc=$root/docs/HOST_TRANSPORT.md
  grep -q '<!-- hostbench:begin -->' "$doc" || { echo "no hostbench markers in $doc" >&2; exit 1; }
  awk -v rep="$work/report.md" '
    /<!-- hostbench:begin -->/ { print; while ((getline l < rep) > 0) print l; skip = 1; next }
    /<!-- hostbench:end -->/ { skip = 0 }
    !skip' "$doc" > "$work/doc" && cp "$work/doc" "$doc"
  echo "# wrote $doc" >&2
fi
