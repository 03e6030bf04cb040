#!/usr/bin/env bash
# [Yagna 2013] §4.4 (NPB, Figures 4.11-4.15) "as the thesis ran it": NoCMsg's collectives on the
# `udn` adapter against OperaMPI's algorithms ([Yagna 2013] §2.2) on the `ilib` adapter, whose
# every message, point-to-point ones included, pays OperaMPI's software over iLib (docs/SIM.md),
# beside today's comparison (OperaMPI's algorithms on `udn`). The same kernels and inputs as
# scripts/npb_scaling.sh: MG strong scaling, IS, CG, FT and LU weak scaling, class S, 2 to 32 ranks.
#
# The runs are communication alone (--compute none): deterministic, one run per point. The
# estimated total adds the compute per rank that scripts/npb_scaling.sh measured with the core
# model (docs/figures/npb_scaling.csv, the mesh rows): the compute does not depend on the adapter,
# and the estimate assumes no overlap of compute and communication.
#
# usage: scripts/npb-thesis-baseline.sh [BUILD_DIR]
#        TABLES_ONLY=1 scripts/npb-thesis-baseline.sh   only redo the tables from the committed CSVs
#                                                       (e.g. after scripts/npb_scaling.sh changed the compute)
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# SWEEP_DIR: the runs (default BUILD_DIR/sweeps/<script>); an interrupted run resumes.
# Writes docs/figures/npb_thesis_baseline.csv and rewrites the region of docs/EXPERIMENTS.md
# between the npb-thesis markers. Prints its wall time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
bin=$build/bin
figs=$root/docs/figures
kernels="mg is cg ft lu"
ranks="2 4 8 16 32"
tables_only=${TABLES_ONLY:-0}
if [ "$tables_only" != 1 ]; then
  for p in tilempirun tilempi-sweep $(printf 'npb-%s ' $kernels); do
    [ -x "$bin/$p" ] || { echo "npb-thesis-baseline: $bin/$p missing (build the project first)" >&2; exit 1; }
  done
fi
command -v python3 >/dev/null || { echo "npb-thesis-baseline: python3 is needed (scripts/install-deps.sh)" >&2; exit 1; }
[ -f "$figs/npb_scaling.csv" ] || { echo "npb-thesis-baseline: $figs/npb_scaling.csv missing (run scripts/npb_scaling.sh)" >&2; exit 1; }
start=$(date +%s)
# [Yagna 2013] §2.2: OperaMPI's collectives (the registry's baseline entries), as in npb_scaling.sh.
opera="barrier=linear,bcast=binomial,reduce=binomial,allreduce=reduce_bcast,alltoall=operampi,alltoallv=linear"
csv=$figs/npb_thesis_baseline.csv
[ "$tables_only" = 1 ] && kernels=""
# The runs: written down as a sweep (phase plan), run (here or as one Slurm job array), then read
# (phase merge).
runs() {
  for k in $kernels; do
    scaling=weak; extra=(--weak)
    if [ $k = mg ]; then scaling=strong; extra=(); fi
    for n in $ranks; do
      for side in nocmsg:udn:mesh thesis:ilib:operampi today:udn:operampi; do
        IFS=: read -r name adapter colls <<<"$side"
        coll=()
        [ $colls = operampi ] && coll=(--coll "$opera")
        id=$k-$n-$name
        if [ $sweep_phase = plan ]; then
          sweep_add runs "$id" --cost "$n" -- "$bin/tilempirun" -n "$n" --transport sim --preset tilepro64 \
            --adapter "$adapter" --compute none --timeout 1200 "${coll[@]}" "$bin/npb-$k" -c S "${extra[@]}"
          continue
        fi
        out=$(cat "$(sweep_log runs "$id")")
        sweep_ok runs "$id" || {
          echo "npb-thesis-baseline: npb-$k on $n ranks ($name) failed:" >&2
          echo "$out" >&2
          exit 1
        }
        t=$(printf '%s\n' "$out" | sed -n 's/^ Time in seconds = *//p' | head -n 1)
        v=$(printf '%s\n' "$out" | sed -n 's/^ Verification *= *//p' | head -n 1)
        echo "$k,$scaling,$n,$name,$adapter,$colls,$t,${v:-?}" >>"$csv"
        printf 'npb-thesis-baseline: %s on %2d ranks, %-6s (%s, %s): %s s %s\n' "$k" "$n" "$name" "$colls" "$adapter" "$t" "$v" >&2
      done
    done
  done
}
if [ "$tables_only" != 1 ]; then
  sweep_init "$build" "$bin"
  runs
  sweep_run "$(nproc)"
  echo "kernel,scaling,ranks,side,adapter,collectives,comm_s,verification" >"$csv"
  runs
fi
python3 - "$csv" "$figs/npb_scaling.csv" "$root/docs/EXPERIMENTS.md" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
compute = {(r["kernel"], int(r["ranks"])): float(r["compute_s"])
           for r in csv.DictReader(open(sys.argv[2])) if r["collectives"] == "mesh"}
def pct(a, b):
    return "%+.0f %%" % ((a / b - 1) * 100) if b > 0 else "-"
lines = []
for kernel in "mg is cg ft lu".split():
    rs = [r for r in rows if r["kernel"] == kernel]
    if not rs:
        continue
    lines.append("**%s** (%s scaling, class S%s; communication alone in ms, estimated total in s):\n" % (
        kernel.upper(), rs[0]["scaling"], "" if rs[0]["scaling"] == "strong" else " per rank"))
    lines.append("| ranks | NoCMsg on udn | OperaMPI on ilib | NoCMsg vs OperaMPI on ilib | OperaMPI on udn | NoCMsg vs OperaMPI on udn | estimated total: NoCMsg / OperaMPI on ilib (s) | total: NoCMsg vs OperaMPI on ilib |")
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sorted({int(r["ranks"]) for r in rs}):
        side = {r["side"]: r for r in rs if int(r["ranks"]) == n}
        m, i, t = (float(side[s]["comm_s"]) for s in ("nocmsg", "thesis", "today"))
        c = compute.get((kernel, n))
        est = "%.3f / %.3f" % (c + m, c + i) if c is not None else "-"
        lines.append("| %d | %.3f | %.3f | %s | %.3f | %s | %s | %s |" % (
            n, m * 1e3, i * 1e3, pct(m, i), t * 1e3, pct(m, t), est, pct(c + m, c + i) if c is not None else "-"))
    lines.append("")
doc = open(sys.argv[3]).read()
begin, end = "<!-- npb-thesis begin: scripts/npb-thesis-baseline.sh writes this -->", "<!-- npb-thesis end -->"
if begin not in doc or end not in doc:
    sys.exit("npb-thesis-baseline: the npb-thesis markers are missing from docs/EXPERIMENTS.md")
doc = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: begin + "\n" + "\n".join(lines) + end, doc, flags=re.S)
open(sys.argv[3], "w").write(doc)
# Weak-scaling inputs have no official values ("NOT APPLICABLE"); strong MG must verify.
bad = [r for r in rows if r["verification"].strip().upper() in ("UNSUCCESSFUL", "?")]
for r in bad:
    print("npb-thesis-baseline: %s on %s ranks (%s) did not verify: %s" % (r["kernel"], r["ranks"], r["side"], r["verification"]), file=sys.stderr)
PY
echo "npb-thesis-baseline: done in $(( $(date +%s) - start )) s: $csv, docs/EXPERIMENTS.md"
