#!/usr/bin/env bash
# NPB on the modeled TilePro64 as [Yagna 2013] §4.4 ran it: MG with strong scaling, IS, CG, FT and
# LU with weak scaling (npb-* --weak: the class's work per rank), each with the mesh collectives
# (tilempi's defaults) and with the OperaMPI-like baseline of [Yagna 2013] §2.2, on 2 to 32 ranks
# (the powers of two up to the 49 tasks the thesis could run). Compute is charged as a tile core
# would take it (--compute model), so each time splits into compute and communication. The npb-*
# programs count their operations (docs/SIM.md, "Counted operations"), so every figure is the
# same on every run and host load: one run per point suffices.
#
# usage: scripts/npb_scaling.sh [BUILD_DIR] [REPS] [KERNELS]
#   BUILD_DIR  a build with tilempirun and npb-* (default: build)
#   REPS       runs per point, the median is kept (default 1: counted compute is deterministic;
#              more only matter for npb-* built without the opcount plugin, whose compute is timed)
#   KERNELS    the kernels to run (default "mg is cg ft lu"); the rows of the others are kept
#              from the existing docs/figures/npb_scaling.csv, so one kernel can be re-measured
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# SWEEP_DIR: the runs (default BUILD_DIR/sweeps/<script>); an interrupted run resumes.
# Writes docs/figures/npb_scaling.csv, docs/figures/npb_scaling_<kernel>.svg and rewrites the
# region of docs/EXPERIMENTS.md between the npb-scaling markers. Prints its wall time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
reps=${2:-1}
all_kernels="mg is cg ft lu"
kernels=${3:-$all_kernels}
bin=$build/bin
figs=$root/docs/figures
for p in tilempirun tilempi-sweep $(printf 'npb-%s ' $kernels); do
  [ -x "$bin/$p" ] || { echo "npb_scaling: $bin/$p missing (build the project first)" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "npb_scaling: python3 is needed (scripts/install-deps.sh)" >&2; exit 1; }
mkdir -p "$figs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

# [Yagna 2013] §2.2: OperaMPI's broadcast is a binomial tree, its reduce the inverse tree, its
# allreduce a reduce then a broadcast, its alltoall N-1 stages with one sender at a time; the
# registry marks these entries as the baseline (tilempi-bench --list).
baseline="barrier=linear,bcast=binomial,reduce=binomial,allreduce=reduce_bcast,alltoall=operampi,alltoallv=linear"
ranks="2 4 8 16 32"
raw=$tmp/raw.csv
sweep_init "$build" "$bin"
reports=$sweep_dir/runs/reports
mkdir -p "$reports"
# The runs: written down as a sweep (phase plan), run (here or as one Slurm job array), then read
# (phase merge).
runs() {
for k in $kernels; do
  case " $all_kernels " in *" $k "*) ;; *) echo "npb_scaling: unknown kernel '$k' (one of: $all_kernels)" >&2; exit 2 ;; esac
  scaling=weak
  extra=(--weak)
  if [ $k = mg ]; then scaling=strong; extra=(); fi
  # The program's mix for the core model: IS ranks integer keys (its time is the integer
  # kernel's kind of work), MG, CG, FT and LU spend theirs in floating-point loops.
  mix=100
  [ $k = is ] && mix=0
  for n in $ranks; do
    for colls in mesh operampi; do
      coll=()
      [ $colls = operampi ] && coll=(--coll "$baseline")
      # The same run with --compute none: communication alone, deterministic (one run suffices).
      id=$k-$n-$colls
      if [ $sweep_phase = plan ]; then
        sweep_add runs "$id-none" --cost "$n" -- "$bin/tilempirun" -n "$n" --transport sim --preset tilepro64 \
          --compute none --timeout 600 "${coll[@]}" "$bin/npb-$k" -c S "${extra[@]}"
      else
        none=$(sed -n 's/^ Time in seconds = *//p' "$(sweep_log runs "$id-none")" | head -n 1)
      fi
      for ((rep = 1; rep <= reps; rep++)); do
        if [ $sweep_phase = plan ]; then
          sweep_add runs "$id-$rep" --cost "$n" --output "$reports/$id-$rep.json" -- "$bin/tilempirun" -n "$n" \
            --transport sim --preset tilepro64 --compute model --set core_fp_percent=$mix --timeout 600 \
            --report "$reports/$id-$rep.json" "${coll[@]}" "$bin/npb-$k" -c S "${extra[@]}"
          continue
        fi
        out=$(cat "$(sweep_log runs "$id-$rep")")
        sweep_ok runs "$id-$rep" || {
          echo "npb_scaling: npb-$k on $n ranks ($colls) failed:" >&2
          echo "$out" >&2
          exit 1
        }
        t=$(printf '%s\n' "$out" | sed -n 's/^ Time in seconds = *//p' | head -n 1)
        v=$(printf '%s\n' "$out" | sed -n 's/^ VERIFICATION //p' | head -n 1)
        split=$(python3 - "$reports/$id-$rep.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
hz = r["clock_hz"]
rs = r["rank_stats"]
print("%.6f,%.6f" % (sum(x["compute_cycles"] for x in rs) / len(rs) / hz,
                     sum(x["comm_cycles"] for x in rs) / len(rs) / hz))
PY
)
        echo "$k,$scaling,$n,$colls,$rep,$t,$split,${v:-?},${none:-?}" >>"$raw"
        printf 'npb_scaling: %s %s ranks %-8s run %d: %s s\n' "$k" "$n" "$colls" "$rep" "$t" >&2
      done
    done
  done
done
}
runs
sweep_run "$(nproc)"
echo "kernel,scaling,ranks,collectives,rep,time_s,compute_s,comm_s,verification,none_s" >"$raw"
runs

python3 - "$raw" "$figs/npb_scaling.csv" "$tmp/table.md" "$kernels" <<'PY'
import csv, os, statistics, sys
ORDER = "mg is cg ft lu".split()
rows = list(csv.DictReader(open(sys.argv[1])))
measured = sys.argv[4].split()
# Rows of the kernels not measured in this run are kept from the previous CSV.
kept = []
if os.path.exists(sys.argv[2]):
    kept = [r for r in csv.DictReader(open(sys.argv[2])) if r["kernel"] not in measured]
keys = sorted({(r["kernel"], r["scaling"], int(r["ranks"]), r["collectives"]) for r in rows},
              key=lambda k: (ORDER.index(k[0]), k[2], k[3]))
out = []
for k in keys:
    rs = [r for r in rows if (r["kernel"], r["scaling"], int(r["ranks"]), r["collectives"]) == k]
    rs.sort(key=lambda r: float(r["time_s"]))
    med = rs[len(rs) // 2]
    times = [float(r["time_s"]) for r in rs]
    spread = (max(times) - min(times)) / statistics.median(times) * 100 if len(times) > 1 else 0
    out.append({"kernel": k[0], "scaling": k[1], "ranks": k[2], "collectives": k[3], "time_s": med["time_s"],
                "compute_s": med["compute_s"], "comm_s": med["comm_s"], "spread_pct": "%.1f" % spread,
                "verification": med["verification"], "none_s": med["none_s"]})
for r in kept:
    r["ranks"] = int(r["ranks"])
out = sorted(out + kept, key=lambda o: (ORDER.index(o["kernel"]), o["ranks"], o["collectives"]))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
    w.writeheader()
    w.writerows(out)
lines = []
for kernel in ORDER:
    rs = [o for o in out if o["kernel"] == kernel]
    if not rs:
        continue
    lines.append("**%s** (%s scaling, class S%s):\n" % (kernel.upper(), rs[0]["scaling"],
                 "" if rs[0]["scaling"] == "strong" else " per rank"))
    lines.append("| ranks | mesh: time (s) | compute / comm (s) | OperaMPI-like: time (s) | compute / comm (s) | mesh vs OperaMPI-like | communication alone (--compute none): mesh / OperaMPI-like (ms) | mesh vs OperaMPI-like |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for n in sorted({o["ranks"] for o in rs}):
        m = next(o for o in rs if o["ranks"] == n and o["collectives"] == "mesh")
        b = next(o for o in rs if o["ranks"] == n and o["collectives"] == "operampi")
        d = (float(m["time_s"]) / float(b["time_s"]) - 1) * 100
        dn = (float(m["none_s"]) / float(b["none_s"]) - 1) * 100
        lines.append("| %d | %.3f | %.3f / %.3f | %.3f | %.3f / %.3f | %+.1f %% | %.3f / %.3f | %+.1f %% |" % (
            n, float(m["time_s"]), float(m["compute_s"]), float(m["comm_s"]), float(b["time_s"]),
            float(b["compute_s"]), float(b["comm_s"]), d, float(m["none_s"]) * 1e3, float(b["none_s"]) * 1e3, dn))
    lines.append("")
open(sys.argv[3], "w").write("\n".join(lines))
PY

# One plot per kernel: time over ranks, both collective sets.
if command -v gnuplot >/dev/null; then
  for k in $kernels; do
    grep "^$k,.*,mesh," "$figs/npb_scaling.csv" | cut -d, -f3,5 | tr , ' ' >"$tmp/$k.mesh"
    grep "^$k,.*,operampi," "$figs/npb_scaling.csv" | cut -d, -f3,5 | tr , ' ' >"$tmp/$k.base"
    scaling=$(grep "^$k," "$figs/npb_scaling.csv" | head -1 | cut -d, -f2)
    gnuplot <<EOF
set terminal svg size 560,360 font "sans,11"
set output "$figs/npb_scaling_$k.svg"
set title "NPB $(echo $k | tr a-z A-Z) class S, $scaling scaling, tilepro64, --compute model"
set xlabel "ranks"
set ylabel "time (virtual seconds)"
set logscale x 2
set key top left
set grid
plot "$tmp/$k.mesh" using 1:2 with linespoints title "mesh collectives", \
     "$tmp/$k.base" using 1:2 with linespoints title "OperaMPI-like baseline"
EOF
  done
fi

# The tables go into docs/EXPERIMENTS.md between the markers.
python3 - "$root/docs/EXPERIMENTS.md" "$tmp/table.md" <<'PY'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin, end = "<!-- npb-scaling begin: scripts/npb_scaling.sh writes this -->", "<!-- npb-scaling end -->"
i, j = text.find(begin), text.find(end)
if i < 0 or j < 0:
    sys.exit("npb_scaling: the markers are missing in " + doc)
open(doc, "w").write(text[:i + len(begin)] + "\n" + table + "\n" + text[j:])
PY
echo "npb_scaling: wrote docs/figures/npb_scaling.csv, the plots and docs/EXPERIMENTS.md in $(($(date +%s) - start)) s" >&2
