#!/usr/bin/env bash
# [Yagna 2013] chapter 4 "as the thesis ran it": the NoCMsg algorithms on the `udn` adapter
# against OperaMPI's algorithms ([Yagna 2013] §2.2) on the `ilib` adapter (OperaMPI over iLib,
# calibrated to its ~6.8 us warm small-message latency), beside today's comparison (OperaMPI's
# algorithms on `udn` too). docs/EXPERIMENTS.md, "The thesis's baseline", shows the result.
#   scripts/thesis-baseline.sh [BUILD_DIR]        4..49 ranks, every power of two from 4 B to 1 MiB
#                                                 (about 7 minutes at -j 2 on 2 quiet cores; most of it
#                                                 the alltoall from 128 KiB on 36 and 49 ranks)
#   RANKS=49 scripts/thesis-baseline.sh           7x7 only
#   SIZES=8,4:1M:4 A2A_SIZES=8,4:64K:4 scripts/thesis-baseline.sh   x4 steps, alltoall to 64 KiB (minutes)
#   PLOTS_ONLY=1 scripts/thesis-baseline.sh       only rebuild the table from the committed CSVs
# Environment: JOBS (parallel jobs, default nproc), OUT (default docs/figures), BIN (use the
# programs in this directory as they are, do not build), RANKS, SIZES (bcast, reduce,
# allreduce; tilempi-bench's --sizes syntax), A2A_SIZES (alltoall only).
# TIMEOUT (seconds a configuration may run, default 3600), SWEEP_DIR (the sweep's plans and runs,
# default BUILD_DIR/sweeps/thesis-baseline).
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# An interrupted run resumes: the same command runs only the configurations without a result.
# Results: $OUT/thesis-udn.csv (NoCMsg on udn), thesis-ilib.csv (OperaMPI on ilib),
# thesis-today.csv (OperaMPI on udn), thesis-comparison.md (the tables docs/EXPERIMENTS.md quotes),
# as-thesis-{ranks,sizes}-*.{png,svg} (figures of NoCMsg on udn and OperaMPI on ilib together),
# as-thesis-variance.md (the variance tables).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
out=${OUT:-$root/docs/figures}
jobs=${JOBS:-$(nproc)}
bin=${BIN:-$build/bin}
ranks=${RANKS:-4,9,16,25,36,49}
sizes=${SIZES:-4:1M}
a2a_sizes=${A2A_SIZES:-4:1M}
mkdir -p "$out"
start=$(date +%s)

if [ "${PLOTS_ONLY:-0}" != 1 ]; then
  if [ -z "${BIN:-}" ] && sweep_building; then
    cmake -S "$root" -B "$build" >/dev/null
    cmake --build "$build" -j"$jobs" --target tilempirun tilempi-bench tilempi-bench-mpi tilempi-sweep
  fi
  sweep_init "$build" "$bin"
  # A job that runs past TIMEOUT seconds (default 3600: the 49-rank alltoall of 1 MiB takes minutes
  # on a quiet machine, far longer on a busy one) counts as failed.
  sim=(--transport sim --preset tilepro64 --compute none --trials 2 --warmup 0 --timeout "${TIMEOUT:-3600}")
  # The barrier: [Yagna 2013] §2.2 does not describe OperaMPI's; `linear` stands in for it.
  nocmsg=(-a barrier=ktree -a bcast=static_route -a reduce=mesh_tree -a allreduce=mesh_reduce_bcast)
  opera=(-a barrier=linear -a bcast=binomial -a reduce=binomial -a allreduce=reduce_bcast)
  # The six sweeps: written down as plans, run together (here or as one Slurm job array), then
  # each merged into its CSV by the same tilempi-bench command.
  sweeps() {
    sweep_bench udn-a2a "${sim[@]}" --adapter udn --ranks "$ranks" --sizes "$a2a_sizes" -a alltoall=mesh_rounds \
      --csv "$out/thesis-udn-a2a.csv" || true
    sweep_bench udn-rest "${sim[@]}" --adapter udn --ranks "$ranks" --sizes "$sizes" --no-conflicts "${nocmsg[@]}" \
      --csv "$out/thesis-udn-rest.csv" || true
    sweep_bench ilib-a2a "${sim[@]}" --adapter ilib --ranks "$ranks" --sizes "$a2a_sizes" -a alltoall=operampi,pairwise \
      --csv "$out/thesis-ilib-a2a.csv" || true
    sweep_bench ilib-rest "${sim[@]}" --adapter ilib --ranks "$ranks" --sizes "$sizes" --no-conflicts "${opera[@]}" \
      --csv "$out/thesis-ilib-rest.csv" || true
    sweep_bench today-a2a "${sim[@]}" --adapter udn --ranks "$ranks" --sizes "$a2a_sizes" -a alltoall=operampi \
      --csv "$out/thesis-today-a2a.csv" || true
    sweep_bench today-rest "${sim[@]}" --adapter udn --ranks "$ranks" --sizes "$sizes" --no-conflicts "${opera[@]}" \
      --csv "$out/thesis-today-rest.csv" || true
  }
  echo "== NoCMsg on udn, OperaMPI on ilib (as the thesis ran it) and on udn (today's comparison)"
  sweeps
  sweep_run "$jobs"
  sweeps
  for t in udn ilib today; do
    head -n 1 "$out/thesis-$t-a2a.csv" >"$out/thesis-$t.csv"
    tail -n +2 "$out/thesis-$t-a2a.csv" >>"$out/thesis-$t.csv"
    tail -n +2 "$out/thesis-$t-rest.csv" >>"$out/thesis-$t.csv"
    rm -f "$out/thesis-$t-a2a.csv" "$out/thesis-$t-rest.csv"
  done
fi

# The table: per collective, ranks and size, NoCMsg (udn) against OperaMPI on ilib and on udn,
# span and Yagna's statistic (the slowest rank's own time, "max"). Negative % = NoCMsg faster.
awk -F, '
  FNR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; src = FILENAME; sub(/.*thesis-/, "", src); sub(/\.csv$/, "", src); next }
  $col["status"] != "ok" { next }
  {
    k = $col["collective"] SUBSEP $col["ranks"] SUBSEP $col["bytes"]
    keys[k] = 1
    a = $col["algorithm"]
    if (src == "udn") { nspan[k] = $col["span_us"]; nmax[k] = $col["mean_us"]; nalg[k] = a }
    else if (src == "ilib" && a == "pairwise") { pspan[k] = $col["span_us"] }
    else if (src == "ilib") { ispan[k] = $col["span_us"]; imax[k] = $col["mean_us"]; ialg[k] = a }
    else if (src == "today") { tspan[k] = $col["span_us"]; tmax[k] = $col["mean_us"] }
  }
  function pct(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%+.0f %%", 100 * (a / b - 1)) }
  function us(v) { return v == "" ? "-" : (v < 100 ? sprintf("%.2f", v) : sprintf("%.0f", v)) }
  function size(b) { return b == 0 ? "-" : (b >= 1048576 ? b / 1048576 " MiB" : (b >= 1024 ? b / 1024 " KiB" : b " B")) }
  END {
    n = 0
    for (k in keys) order[++n] = k
    # sort by collective, ranks, bytes
    for (i = 2; i <= n; ++i) for (j = i; j > 1; --j) {
      split(order[j - 1], p, SUBSEP); split(order[j], q, SUBSEP)
      if (p[1] > q[1] || (p[1] == q[1] && (p[2] + 0 > q[2] + 0 || (p[2] == q[2] && p[3] + 0 > q[3] + 0)))) {
        t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
      } else break
    }
    last = ""
    for (i = 1; i <= n; ++i) {
      k = order[i]; split(k, p, SUBSEP)
      if (p[1] != last) {
        last = p[1]
        printf "\n**%s**: virtual us, span (Yagna'"'"'s statistic in the %% columns after the slash); NoCMsg = %s on udn, OperaMPI = %s\n\n", p[1], nalg[k], ialg[k]
        printf "| ranks | size | NoCMsg udn | OperaMPI ilib | OperaMPI udn | vs ilib (thesis setting) | vs udn (today) |%s\n", (p[1] == "alltoall" ? " pairwise ilib |" : "")
        printf "|---:|---:|---:|---:|---:|---:|---:|%s\n", (p[1] == "alltoall" ? "---:|" : "")
      }
      printf "| %d | %s | %s | %s | %s | %s / %s | %s / %s |%s\n", p[2], size(p[3]), us(nspan[k]), us(ispan[k]), us(tspan[k]),
        pct(nspan[k], ispan[k]), pct(nmax[k], imax[k]), pct(nspan[k], tspan[k]), pct(nmax[k], tmax[k]),
        (p[1] == "alltoall" ? " " us(pspan[k]) " |" : "")
    }
  }' "$out/thesis-udn.csv" "$out/thesis-ilib.csv" "$out/thesis-today.csv" >"$out/thesis-comparison.md"
cat "$out/thesis-comparison.md"

# Chapter 4's figures and variance tables with both sides as the thesis ran them: tilempi-bench
# names each line after its algorithm and adapter ("mesh_rounds (udn)", "operampi (ilib)").
both=$(mktemp "${TMPDIR:-/tmp}/as-thesis.XXXXXX.csv")
trap 'rm -f "$both"' EXIT
{ cat "$out/thesis-udn.csv"; tail -n +2 "$out/thesis-ilib.csv"; } >"$both"
"$bin/tilempi-bench" --from "$both" --figures "$out" --prefix as-thesis
echo "== done in $(($(date +%s) - start)) s: $out/thesis-comparison.md, $out/as-thesis-*"
