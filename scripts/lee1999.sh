#!/usr/bin/env bash
# [Lee 1999]  on tilempi: docs/EXPERIMENTS.md, "[Lee 1999]", shows the results.
#   scripts/lee1999.sh [BUILD_DIR]
# 1. Table 6.4: the four micro-benchmarks of §6.2 (apps/lee1999/microbench: PING, RPC, DIST,
#    BLKW) on every interface model of Table 6.4 (adapter.mmachine.model), on the zero-latency
#    network of §6.3 (network_model=ideal, mmachine preset): latency (the last rank's end minus
#    rank 0's start) and occupancy (the run report's adapter_stats.occupancy_cycles), beside the
#    thesis's numbers.
# 2. LIFE (§7.2, apps/lee1999/life.c): 1000 generations of 8x8 cells on 1, 4, 16 and 64 tiles of
#    the mmachine preset with the mmachine adapter, each cell charged C_cell = 35 cycles
#    (TILEMPIX_Compute; --compute none, so deterministic), on the 8x8 mesh and on the
#    zero-latency network, beside the LOG model of §7.2.1 (scripts/lee1999-logmodel.py) with
#    the thesis's parameters.
# 3. (sweep) LIFE on 4, 16, 64 tiles with latency (Figure 7-11) or occupancy (Figure 7-13) added
#    to every message, beside the model with the same k_l or k_o (39 runs, about two minutes).
# Environment: BIN (use the programs there, do not build), OUT (default docs/figures),
# PARTS (default "table life sweep"; "model" redraws the LOG model, tables and plots from the
# kept runs without running them), LATENCIES and OCCUPANCIES (the added cycles swept).
# Results: $OUT/lee1999-table64.{csv,md}, $OUT/lee1999-life.{md,dat,gp,png},
# $OUT/lee1999-life-{latency,occupancy,speedup}.{dat,gp,png}, the runs' cycles in
# $OUT/lee1999-life-{runs,sweep}.txt; with UPDATE_DOCS=1
# (the default) the generated regions of docs/EXPERIMENTS.md are replaced too.
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# SWEEP_DIR: the runs (default BUILD_DIR/sweeps/lee1999); an interrupted run resumes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
out=${OUT:-$root/docs/figures}
bin=${BIN:-$build/bin}
parts=${PARTS:-table life sweep}
mkdir -p "$out"
start=$(date +%s)
if [ -z "${BIN:-}" ] && sweep_building; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j"$(nproc)" --target tilempirun tilempi-simhost lee1999-microbench lee1999-life tilempi-sweep >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$bin/tilempirun
sweep_init "$build" "$bin"
reports=$sweep_dir/runs/reports
mkdir -p "$reports"
# The body below runs twice: first every run is written down as a configuration of the sweep
# (phase plan: measure and life print placeholders), then, after sweep_run, read back (phase merge).

# One benchmark on one model: prints "latency occupancy".
measure() {
  local model=$1 bench=$2 n=2
  [ "$bench" = dist ] && n=9
  local id=mm-$model-$bench
  local rep=$reports/$id.json
  if [ $sweep_phase = plan ]; then
    sweep_add runs "$id" --output "$rep" -- "$run" -n $n --transport sim --compute none --preset mmachine \
      --set network_model=ideal --adapter mmachine --set adapter.mmachine.model="$model" --report "$rep" \
      "$bin/lee1999-microbench" "$bench"
    echo 0 0
    return
  fi
  sweep_ok runs "$id" || { cat "$(sweep_log runs "$id")" >&2; echo "lee1999.sh: $model $bench failed" >&2; exit 1; }
  python3 - "$(sweep_log runs "$id")" "$rep" <<'EOF'
import json, re, sys
start, end = None, 0
for line in open(sys.argv[1]):
    m = re.search(r"rank (\d+) start_cycles=(\d+) end_cycles=(\d+)", line)
    if m:
        if m.group(1) == "0":
            start = int(m.group(2))
        end = max(end, int(m.group(3)))
occ = json.load(open(sys.argv[2]))["adapter_stats"]["occupancy_cycles"]
print(end - start, occ)
EOF
}

body() {
if [[ " $parts " == *" table "* ]]; then
  # Model, then the thesis's Table 6.4: latency PING RPC DIST BLKW, occupancy PING RPC DIST BLKW
  # ("-": not given).
  cat >"$tmp/thesis" <<'EOF'
MM 38 44 185 2665 28 42 223 4691
IRS 35 38 209 2621 30 52 303 5069
IRB 43 53 167 3415 33 51 260 5684
IMS 117 68 492 7068 46 59 317 5790
IMB 103 99 595 9253 47 59 281 5882
ERS 39 47 198 3116 31 54 349 5716
ERB 55 62 203 6292 29 51 325 5612
EMS 87 77 225 6840 31 54 349 5818
EMB 109 90 231 10094 33 55 357 5819
SWX 79 85 535 3051 74 90 622 6875
POL 76 66 211 2684 - - - -
INT 292 189 333 2792 - - - -
SWX_IMB_EMB_INT 476 341 943 - - - - -
SWX_IMB_EMB_POL 254 251 855 - - - - -
SWX_IMB_EMB 219 198 939 - - - - -
SWX_IMB_EMS 207 188 885 - - - - -
SWX_IMS_EMS 199 142 867 - - - - -
SWX_IMS 156 109 844 - - - - -
SWX_IRB_ERB_INT 350 248 697 - - - - -
SWX_IRB_ERB_POL 142 139 560 - - - - -
SWX_IRB_ERB 100 114 537 - - - - -
SWX_IRB_ERS 85 97 520 - - - - -
SWX_IRS_ERS 82 82 555 - - - - -
SWX_IRS 76 79 552 - - - - -
EOF
  : >"$tmp/ours"
  while read -r model _; do
    line=$model
    lat="" occ=""
    for b in ping rpc dist blkw; do
      read -r l o < <(measure "$model" "$b")
      lat="$lat $l" occ="$occ $o"
    done
    echo "$model$lat$occ" >>"$tmp/ours"
    [ $sweep_phase = plan ] || echo "table 6.4: $model$lat |$occ" >&2
  done <"$tmp/thesis"
  [ $sweep_phase = plan ] || python3 - "$tmp/thesis" "$tmp/ours" "$out/lee1999-table64.csv" "$out/lee1999-table64.md" <<'EOF'
import sys
thesis = {l.split()[0]: l.split()[1:] for l in open(sys.argv[1])}
ours = {l.split()[0]: l.split()[1:] for l in open(sys.argv[2])}
cols = ["PING", "RPC", "DIST", "BLKW"]
# Tolerance: within 10 % of the thesis's value, or within 5 cycles.
def verdict(t, o):
    if t == "-":
        return ""
    t, o = int(t), int(o)
    return "" if abs(o - t) <= max(5, 0.10 * t) else " ✗"
with open(sys.argv[3], "w") as csv:
    csv.write("model," + ",".join(f"thesis_lat_{c},tilempi_lat_{c}" for c in cols) + "," +
              ",".join(f"thesis_occ_{c},tilempi_occ_{c}" for c in cols) + "\n")
    for m, t in thesis.items():
        o = ours[m]
        csv.write(m + "," + ",".join(f"{t[i]},{o[i]}" for i in range(4)) + "," +
                  ",".join(f"{t[4 + i]},{o[4 + i]}" for i in range(4)) + "\n")
hits = total = 0
with open(sys.argv[4], "w") as md:
    md.write("| model | PING | RPC | DIST | BLKW | PING occ. | RPC occ. | DIST occ. | BLKW occ. |\n")
    md.write("|---|---|---|---|---|---|---|---|---|\n")
    for m, t in thesis.items():
        o = ours[m]
        cells = []
        for i in range(8):
            v = verdict(t[i], o[i])
            if t[i] != "-":
                total += 1
                hits += v == ""
            cells.append(f"{t[i]} / {o[i]}{v}" if t[i] != "-" else f"– / {o[i]}")
        md.write(f"| {m} | " + " | ".join(cells) + " |\n")
    md.write(f"\nthesis / tilempi, cycles; ✗: outside the tolerance (10 % or 5 cycles). "
             f"{hits} of {total} of the thesis's figures within it.\n")
EOF
  [ $sweep_phase = plan ] || echo "wrote $out/lee1999-table64.csv and .md" >&2
fi

# One LIFE run of 1000 generations on P tiles (mmachine preset and adapter, each cell charged
# C_cell = 35 cycles by the program): prints its cycles. Further arguments: tilempirun options.
life() {
  local p=$1
  shift
  local id
  id=life-$p$(printf -- '-%s' "$@" | tr -c 'a-zA-Z0-9_.=-' '_')
  if [ $sweep_phase = plan ]; then
    sweep_add runs "$id" --cost "$p" -- "$run" -n "$p" --transport sim --compute none --preset mmachine \
      --adapter mmachine "$@" "$bin/lee1999-life" 1000
    echo 0
    return
  fi
  local log
  log=$(sweep_log runs "$id")
  sweep_ok runs "$id" || { cat "$log" >&2; echo "lee1999.sh: life on $p tiles ($*) failed" >&2; exit 1; }
  local cycles
  cycles=$(sed -n 's/.*life_cycles=\([0-9]*\).*/\1/p' "$log" | head -1)
  [ -n "$cycles" ] || { cat "$log" >&2; exit 1; }
  echo "$cycles"
}

if [[ " $parts " == *" life "* || " $parts " == *" sweep "* || " $parts " == *" model "* ]]; then
  : >"$tmp/life"
  : >"$tmp/sweep"
  if [[ " $parts " == *" life "* ]]; then
    for p in 1 4 16 64; do
      mesh=$(life $p)
      ideal=$(life $p --set network_model=ideal)
      echo "$p $mesh $ideal" >>"$tmp/life"
      [ $sweep_phase = plan ] || echo "life: $p tiles: $mesh cycles (8x8 mesh), $ideal (zero-latency network)" >&2
    done
  fi
  if [[ " $parts " == *" sweep "* ]]; then
    # Figures 7-11 and 7-13 of [Lee 1999]: latency, then occupancy added to every message.
    for p in 4 16 64; do
      for x in ${LATENCIES:-0 25 50 100 150 200}; do
        c=$(life $p --set adapter.mmachine.added_latency_cycles=$x)
        echo "latency $p $x $c" >>"$tmp/sweep"
        [ $sweep_phase = plan ] || echo "life: $p tiles, $x cycles of latency added: $c" >&2
      done
      for x in ${OCCUPANCIES:-0 25 50 100 150 200 250 300}; do
        c=$(life $p --set adapter.mmachine.send_stall_cycles=$x)
        echo "occupancy $p $x $c" >>"$tmp/sweep"
        [ $sweep_phase = plan ] || echo "life: $p tiles, $x cycles of occupancy added: $c" >&2
      done
    done
  fi
  [ $sweep_phase = plan ] && return 0
  # The runs' cycles are kept ($OUT/lee1999-life-runs.txt, lee1999-life-sweep.txt), so that the
  # part not rerun keeps its last results and the model can be redrawn without the runs.
  [ -s "$tmp/life" ] && cp "$tmp/life" "$out/lee1999-life-runs.txt"
  [ -s "$tmp/sweep" ] && cp "$tmp/sweep" "$out/lee1999-life-sweep.txt"
  args=()
  [ -s "$out/lee1999-life-runs.txt" ] && args+=(--measured "$out/lee1999-life-runs.txt")
  [ -s "$out/lee1999-life-sweep.txt" ] && args+=(--sweep "$out/lee1999-life-sweep.txt")
  python3 "$root/scripts/lee1999-logmodel.py" "${args[@]}" --out "$out/lee1999-life" >/dev/null
  echo "wrote $out/lee1999-life*" >&2
fi
}
sweep_plan runs
body
sweep_run "$(nproc)"
body

if [ "${UPDATE_DOCS:-1}" = 1 ]; then
  python3 - "$root/docs/EXPERIMENTS.md" "$out" <<'EOF'
import os, re, sys
doc, out = sys.argv[1], sys.argv[2]
text = open(doc).read()
for name in ["lee1999-table64.md", "lee1999-life.md"]:
    path = os.path.join(out, name)
    if not os.path.exists(path):
        continue
    begin = f"<!-- generated by scripts/lee1999.sh: {name} -->\n"
    end = "<!-- end generated -->\n"
    i = text.find(begin)
    if i < 0:
        continue
    j = text.find(end, i)
    text = text[:i + len(begin)] + open(path).read() + text[j:]
open(doc, "w").write(text)
EOF
fi
echo "lee1999.sh: $(( $(date +%s) - start )) s" >&2
