#!/usr/bin/env bash
# Time and energy of the seed's mesh collectives against the classic ones on the 7x7
# TilePro64-like mesh (49 ranks of the tilepro64 preset) and the 8x8 optimsoc-like one (64 ranks of
# the optimsoc preset, which grows to 8x8), as docs/EXPERIMENTS.md "Energy" shows them.
#   scripts/energy_experiment.sh [SWEEP OPTIONS] BUILD_DIR OUT_DIR
# Writes OUT_DIR/<preset>.csv (tilempi-bench: time, cycles, conflicts and energy_uj of one call
# alone) and OUT_DIR/<preset>-time.md, OUT_DIR/<preset>-energy.md (the comparison tables, the
# mesh algorithm against each classic one) and OUT_DIR/energy-table.md (both side by side).
# Every figure is modeled (--compute none): the same on every run and host.
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait];
# the runs go to SWEEP_DIR (default BUILD_DIR/sweeps/energy_experiment).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:?usage: energy_experiment.sh [SWEEP OPTIONS] BUILD_DIR OUT_DIR}
out=${2:?usage: energy_experiment.sh [SWEEP OPTIONS] BUILD_DIR OUT_DIR}
mkdir -p "$out"
sweep_init "$build" "$build/bin"
bench="$build/bin/tilempi-bench"
sizes=8,128,2048,8192
# The two sweeps: written down as plans, run together (here or as one Slurm job array), then each
# merged into its CSV and tables.
sweeps() {
  sweep_bench tilepro64 --transport sim --preset tilepro64 --ranks 49 --sizes "$sizes" --trials 2 --warmup 1 \
    -a alltoall=mesh_rounds,pairwise -a reduce=mesh_tree,binomial -a bcast=static_route,binomial --csv "$out/tilepro64.csv"
  sweep_bench optimsoc --transport sim --preset optimsoc --ranks 64 --sizes "$sizes" --trials 2 --warmup 1 \
    -a alltoall=mesh_rounds,pairwise -a reduce=mesh_tree,binomial --csv "$out/optimsoc.csv"
}
sweeps
sweep_run 2
sweeps
for preset in tilepro64 optimsoc; do
  "$bench" --from "$out/$preset.csv" --table "$out/$preset-time.md" >/dev/null
  "$bench" --from "$out/$preset.csv" --metric energy --table "$out/$preset-energy.md" >/dev/null
done
# The side-by-side table of docs/EXPERIMENTS.md "Energy": time of the trials (slowest rank, mean)
# and energy of one call alone, mesh algorithm against the classic one.
python3 - "$out" <<'PY' >"$out/energy-table.md"
import csv, sys
out = sys.argv[1]
rows = {}
for p in ("tilepro64", "optimsoc"):
    for r in csv.DictReader(open(f"{out}/{p}.csv")):
        rows[(p, r["collective"], r["algorithm"], int(r["bytes"]))] = (float(r["mean_us"]), float(r["energy_uj"]))
size = lambda b: f"{b} B" if b < 1024 else f"{b // 1024} KiB"
print("| chip, ranks | collective: mesh / classic | size | mesh: us / uJ | classic: us / uJ | time | energy |")
print("|---|---|---|---|---|---|---|")
for p, c, m, k in [("tilepro64", "alltoall", "mesh_rounds", "pairwise"), ("tilepro64", "reduce", "mesh_tree", "binomial"),
                   ("tilepro64", "bcast", "static_route", "binomial"), ("optimsoc", "alltoall", "mesh_rounds", "pairwise"),
                   ("optimsoc", "reduce", "mesh_tree", "binomial")]:
    for b in (8, 128, 2048, 8192):
        (tm, em), (tk, ek) = rows[(p, c, m, b)], rows[(p, c, k, b)]
        chip = "tilepro64, 49" if p == "tilepro64" else "optimsoc 8x8, 64"
        print(f"| {chip} | {c}: {m} / {k} | {size(b)} | {tm:.4g} / {em:.4g} | {tk:.4g} / {ek:.4g} "
              f"| {100 * (tm / tk - 1):+.0f} % | {100 * (em / ek - 1):+.0f} % |")
PY
