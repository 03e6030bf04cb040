#!/usr/bin/env bash
# [Wallentowitz 2018] §3.4 (NAMP-SV) and §3.5 (HW-OSQM) on tilempi's namp adapter (optimsoc
# preset, 2 ranks, rank 0 sends 4-byte messages to rank 1). docs/EXPERIMENTS.md, "NAMP-SV" and
# "HW-OSQM", shows the result.
#   scripts/wallentowitz2018-sv-osqm.sh [BUILD_DIR]
# SV: rank 0's busy cycles per send (comm_cycles - blocked_cycles of the run report, streams of
#     40 and 20 messages subtracted) with adapter.namp.access=kernel (a system call per send),
#     =vif (NAMP-SV's virtual interface) and =baremetal.
# OSQM: handler cycles per event on rank 1 (the report's handler_cycles over its 40 - 20 arrivals)
#     with adapter.namp.wakeup=poll, interrupt, osqm; the share of a core they take at an event
#     rate R is R x cycles / clock, as [Wallentowitz 2018] §3.5.1 computes it (R = 5k..40k/s).
# Environment: BIN (use the programs there, do not build), OUT (default docs/figures), SWEEP_DIR
# (the runs, default BUILD_DIR/sweeps/wallentowitz2018-sv-osqm).
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
out=${OUT:-$root/docs/figures}
bin=${BIN:-$build/bin}
mkdir -p "$out"
if [ -z "${BIN:-}" ] && sweep_building; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j"$(nproc)" --target tilempirun tilempi-simhost multicast_stream tilempi-sweep >/dev/null
fi
sweep_init "$build" "$bin"
reports=$sweep_dir/runs/reports
mkdir -p "$reports"
run() {  # NAME SETTING COUNT: one configuration of the sweep, its report $reports/NAME_COUNT.json
  sweep_add runs "$1_$3" --output "$reports/$1_$3.json" -- "$bin/tilempirun" -n 2 --transport sim --preset optimsoc \
    --adapter namp --compute none --set sim.summary=0 --set "$2" --report "$reports/$1_$3.json" \
    "$bin/multicast_stream" sw 4 "$3"
}
for a in baremetal kernel vif; do for n in 20 40; do run "sv_$a" "adapter.namp.access=$a" $n; done; done
for w in poll interrupt osqm; do for n in 20 40; do run "osqm_$w" "adapter.namp.wakeup=$w" $n; done; done
sweep_run "$(nproc)"
python3 - "$reports" "$out" <<'PY'
import json, os, sys
tmp, out = sys.argv[1], sys.argv[2]
def rep(n): return json.load(open(os.path.join(tmp, n + ".json")))
def per(name, f):
    return (f(rep(name + "_40")) - f(rep(name + "_20"))) / 20.0
busy = lambda r: r["rank_stats"][0]["comm_cycles"] - r["rank_stats"][0]["blocked_cycles"]
md = ["NAMP-SV: rank 0's busy cycles per 4-byte send (optimsoc, namp adapter):\n",
      "| access | cycles per send | saved against kernel |", "|---|---|---|"]
sv = {a: per("sv_" + a, busy) for a in ("kernel", "vif", "baremetal")}
for a in ("kernel", "vif", "baremetal"):
    md.append(f"| {a} | {sv[a]:.0f} | {100.0 * (sv[a] - sv['kernel']) / sv['kernel']:+.0f} % |")
hz = rep("osqm_poll_20")["clock_hz"]
hand = lambda r: r["rank_stats"][1]["handler_cycles"]
ev = {w: per("osqm_" + w, hand) for w in ("poll", "interrupt", "osqm")}
md += ["", f"HW-OSQM: handler cycles per event on the receiving core, and the share of a {hz / 1e6:.0f} MHz core "
       "they take at R events per second:\n",
       "| wakeup | cycles per event | 5 000/s | 10 000/s | 20 000/s | 40 000/s |", "|---|---|---|---|---|---|"]
for w in ("poll", "interrupt", "osqm"):
    md.append(f"| {w} | {ev[w]:.0f} | " + " | ".join(f"{100.0 * r * ev[w] / hz:.1f} %" for r in (5000, 10000, 20000, 40000)) + " |")
md.append(f"| saved by osqm against interrupt | {ev['interrupt'] - ev['osqm']:.0f} | " +
          " | ".join(f"{100.0 * r * (ev['interrupt'] - ev['osqm']) / hz:.1f} %" for r in (5000, 10000, 20000, 40000)) + " |")
open(os.path.join(out, "wallentowitz2018-sv-osqm.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
