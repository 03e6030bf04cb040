#!/usr/bin/env bash
# Regenerates every figure and table of docs/EXPERIMENTS.md ([Yagna 2013] chapter 4 on tilempi):
#   scripts/experiments.sh [BUILD_DIR]          the sweep documented in docs/EXPERIMENTS.md
#   FULL=1 scripts/experiments.sh [BUILD_DIR]   all six rank counts and every power of two to 1 MiB
#   PLOTS_ONLY=1 scripts/experiments.sh         redraw figures and tables from the committed CSVs
# Environment: JOBS (parallel jobs, default nproc), OUT (default docs/figures), BIN (use the
# programs in this directory as they are, do not build), SWEEP_DIR (the sweep's plans and runs,
# default BUILD_DIR/sweeps/experiments).
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# An interrupted run resumes: the same command runs only the configurations without a result.
# Results: $OUT/sim.csv, $OUT/host.csv (every parameter per row), *.json, figures (PNG, SVG,
# gnuplot data and scripts), *-variance.md and *-comparison.md tables.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
out=${OUT:-$root/docs/figures}
jobs=${JOBS:-$(nproc)}
bin=${BIN:-$build/bin}
mkdir -p "$out"

if [ "${PLOTS_ONLY:-0}" != 1 ] && [ -z "${BIN:-}" ] && sweep_building; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j"$jobs" --target tilempirun tilempi-bench tilempi-bench-mpi tilempi-sweep
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${FULL:-0}" = 1 ]; then
  a2a_ranks=4,9,16,25,36,49; size_ranks=4,9,16,25,36,49; a2a_sizes=4:1M; sizes=4:1M
else
  a2a_ranks=4,9,16,25,36,49; size_ranks=4,9,16,25,36,49; a2a_sizes=4:64K:4; sizes=4:1M:4
fi

merge() {  # merge CSV files (one header) into $1
  local dst=$1; shift
  head -n 1 "$1" >"$dst"
  for f in "$@"; do tail -n +2 "$f" >>"$dst"; done
}

if [ "${PLOTS_ONLY:-0}" != 1 ]; then
  sweep_init "$build" "$bin"
  sim=(--transport sim --preset tilepro64 --compute none)
  # The three sim sweeps: written down as plans, run together (here or as one Slurm job array),
  # then each merged into its CSV.
  sim_sweeps() {
    # sim 1/3: single-packet messages (8 B), 4..49 ranks, every compared algorithm (Figures 4.1-4.5, Table 4.1)
    sweep_bench sim-packet "${sim[@]}" --ranks 4,9,16,25,36,49 --sizes 8 --trials 3 \
      -a alltoall=mesh_rounds,linear,bruck,pairwise,scattered \
      -a barrier=ktree,ktree:2,ktree:4,ktree_static,linear,dissemination,recursive_doubling \
      -a bcast=static_route,binomial,linear,scatter_allgather \
      -a reduce=mesh_tree,binomial,linear \
      -a allreduce=mesh_reduce_bcast,linear,recursive_doubling,rabenseifner \
      --csv "$tmp/sim-packet.csv" || true
    # sim 2/3: alltoall against message size (Figures 4.6, 4.7)
    sweep_bench sim-a2a "${sim[@]}" --ranks "$a2a_ranks" --sizes "$a2a_sizes" --trials 2 --warmup 0 \
      -a alltoall=mesh_rounds,linear --csv "$tmp/sim-a2a.csv" || true
    # sim 3/3: bcast, reduce, allreduce against message size (Figures 4.8-4.10)
    sweep_bench sim-sizes "${sim[@]}" --ranks "$size_ranks" --sizes "$sizes" --trials 2 --warmup 0 --no-conflicts \
      -a bcast=static_route,binomial -a reduce=mesh_tree,binomial \
      -a allreduce=mesh_reduce_bcast,recursive_doubling --csv "$tmp/sim-sizes.csv" || true
  }
  echo "== sim: Figures 4.1-4.10, Table 4.1"
  sim_sweeps
  sweep_run "$jobs"
  sim_sweeps
  merge "$out/sim.csv" "$tmp/sim-packet.csv" "$tmp/sim-a2a.csv" "$tmp/sim-sizes.csv"

  # Wall time on host cores: one configuration at a time on this machine (the variance is what
  # Table 4.2 compares); with --slurm it is left out (the CSV stays as it was): a job array's
  # shared nodes and one CPU per task would measure something else.
  if sweep_slurm; then
    echo "== host: left out with --slurm (wall time on this machine: run without --slurm)"
  else
    echo "== host: the same algorithms on real cores (wall time; variance like Table 4.2)"
    "$bin/tilempi-bench" --transport host --ranks 4,9,16 --sizes 8 --trials 30 -j 1 \
      -a alltoall=mesh_rounds,linear,bruck,pairwise \
      -a barrier=ktree,linear,dissemination \
      -a bcast=static_route,binomial -a reduce=mesh_tree,binomial \
      -a allreduce=mesh_reduce_bcast,recursive_doubling --work-dir "$sweep_dir/host-packet" --csv "$tmp/host-packet.csv" || true
    "$bin/tilempi-bench" --transport host --ranks 4,16 --sizes 1K,64K --trials 20 -j 1 \
      -a alltoall=mesh_rounds,linear -a bcast=static_route,binomial -a reduce=mesh_tree,binomial \
      --work-dir "$sweep_dir/host-sizes" --csv "$tmp/host-sizes.csv" || true
    merge "$out/host.csv" "$tmp/host-packet.csv" "$tmp/host-sizes.csv"
  fi
fi

# Figures and tables twice: with Yagna's statistic (slowest rank's own time) and with each
# trial's span (first rank's start to last rank's end).
for t in sim host; do
  [ -f "$out/$t.csv" ] || continue
  "$bin/tilempi-bench" --from "$out/$t.csv" --figures "$out" --prefix "$t" --json "$out/$t.json"
  "$bin/tilempi-bench" --from "$out/$t.csv" --figures "$out" --prefix "$t-span" --metric span
done
echo "== done: figures and tables in $out"
