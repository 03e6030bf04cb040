#!/usr/bin/env bash
# [Wallentowitz 2018] §3.3 (NAMP-CC) on tilempi: the collectives the namp adapter runs by itself.
# docs/EXPERIMENTS.md, "NAMP-CC", shows the result.
#   scripts/wallentowitz2018-cc.sh [BUILD_DIR]
# 1. Multicast to 8 destinations (rank 0 to ranks 1..8, optimsoc preset, namp adapter): a
#    multicast in software (8 sends) against the adapter's multicast, sender overhead (rank 0's
#    busy cycles per multicast) and throughput (payload bytes delivered per cycle) at 4..2048 B.
#    Each figure is the difference between a stream of 40 and one of 20 multicasts, so that the
#    job's start and end (barrier, result reduction) cancel out.
# 2. Every collective with an offload (bcast, scatter, gather, reduce, allreduce) against every
#    software algorithm of the registry on the same chip and adapter (optimsoc 4x4 with 16 ranks,
#    tilepro64 8x8 with 64 ranks), one call (tests/mpi/coll/coll_once), 8 B to 64 KiB: cycles and link
#    conflicts from the run report; "best software" is the fastest of the others.
# Environment: JOBS (parallel runs, default nproc), OUT (default docs/figures), BIN (use the
# programs there, do not build), SIZES (part 2, default "8 64 512 4096 32768 65536"),
# CHIPS (default "optimsoc:16 tilepro64:64"), SWEEP_DIR (the runs, default BUILD_DIR/sweeps/wallentowitz2018-cc).
# Sweep options (scripts/sweep-lib.sh, docs/EXPERIMENTS.md "On a cluster"): -j N, --rerun-failed,
# --slurm [--group N] [--partition P] [--time T] [--account A] [--sbatch-arg OPT] [--no-wait].
# Results: $OUT/wallentowitz2018-multicast.csv, wallentowitz2018-cc.csv and wallentowitz2018-cc.md (the tables EXPERIMENTS quotes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/sweep-lib.sh"
sweep_args "$@"
set -- "${sweep_rest[@]}"
build=${1:-$root/build}
out=${OUT:-$root/docs/figures}
jobs=${JOBS:-$(nproc)}
bin=${BIN:-$build/bin}
sizes=${SIZES:-8 64 512 4096 32768 65536}
chips=${CHIPS:-optimsoc:16 tilepro64:64}
mkdir -p "$out"
start=$(date +%s)
if [ -z "${BIN:-}" ] && sweep_building; then
  cmake -S "$root" -B "$build" >/dev/null
  cmake --build "$build" -j"$jobs" --target tilempirun tilempi-simhost coll_once multicast_stream tilempi-sweep >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sweep_init "$build" "$bin"
reports=$sweep_dir/cc/reports
mkdir -p "$reports"

# One job per line: NAME|tilempirun arguments. Each writes $tmp/NAME.json (its run report).
jobsfile=$tmp/jobs
: >"$jobsfile"
for b in 4 16 64 256 1024 2048; do
  for m in sw hw; do
    for n in 20 40; do
      echo "mc_${m}_${b}_${n}|-n 9 --preset optimsoc --coll bcast=namp_multicast $bin/multicast_stream $m $b $n" >>"$jobsfile"
    done
  done
done
declare -A algs=(
  [bcast]="namp_multicast static_route linear binomial scatter_allgather"
  [scatter]="namp_scatter linear binomial"
  [gather]="namp_gather linear binomial"
  [reduce]="namp_reduce mesh_tree linear binomial"
  [allreduce]="namp_reduce_multicast mesh_reduce_bcast linear reduce_bcast recursive_doubling ring rabenseifner")
for chip in $chips; do
  preset=${chip%%:*} ranks=${chip##*:}
  for coll in bcast scatter gather reduce allreduce; do
    for s in $sizes; do
      for a in ${algs[$coll]}; do
        echo "cc_${preset}_${coll}_${s}_${a}|-n $ranks --preset $preset --coll $coll=$a $bin/coll_once $coll $s" >>"$jobsfile"
      done
    done
  done
done
# Each run a configuration of the sweep: its report is $reports/NAME.json.
# A restriction a call breaks (ring and rabenseifner need count >= ranks) runs the fallback
# silently; the report's "chosen" names what ran.
while IFS='|' read -r name args; do
  read -r -a argv <<<"$args"
  sweep_add cc "$name" --env TILEMPI_COLL_FALLBACK=silent --output "$reports/$name.json" -- "$bin/tilempirun" \
    --transport sim --adapter namp --compute none --set sim.summary=0 --report "$reports/$name.json" "${argv[@]}"
done <"$jobsfile"
echo "wallentowitz2018-cc: $(wc -l <"$jobsfile") runs"
sweep_run "$jobs"

python3 - "$reports" "$out" "$sizes" "$chips" <<'PY'
import json, os, sys
tmp, out, sizes, chips = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split()], sys.argv[4].split()
def rep(name):
    p = os.path.join(tmp, name + ".json")
    return json.load(open(p)) if os.path.exists(p) else None
def pct(a, b): return f"{100.0 * (a - b) / b:+.0f} %"
md = []
# ---- 1. multicast to 8 destinations
rows = []
md.append("Multicast to 8 destinations (optimsoc 4x4, namp adapter; per multicast, from streams of 40 and 20):\n")
md.append("| bytes | sender overhead, 8 sends | adapter multicast | saved | cycles per multicast, 8 sends | adapter multicast | throughput gain |")
md.append("|---|---|---|---|---|---|---|")
for b in (4, 16, 64, 256, 1024, 2048):
    v = {}
    for m in ("sw", "hw"):
        r20, r40 = rep(f"mc_{m}_{b}_20"), rep(f"mc_{m}_{b}_40")
        if not r20 or not r40: break
        busy = lambda r: r["rank_stats"][0]["comm_cycles"] - r["rank_stats"][0]["blocked_cycles"]
        v[m] = ((busy(r40) - busy(r20)) / 20.0, (r40["total_cycles"] - r20["total_cycles"]) / 20.0)
    if len(v) < 2: continue
    (os_sw, t_sw), (os_hw, t_hw) = v["sw"], v["hw"]
    rows.append(f"{b},{os_sw:.1f},{os_hw:.1f},{t_sw:.1f},{t_hw:.1f}")
    md.append(f"| {b} | {os_sw:.0f} | {os_hw:.0f} | {pct(os_hw, os_sw)} | {t_sw:.0f} | {t_hw:.0f} | {100.0 * (t_sw / t_hw - 1):+.0f} % |")
open(os.path.join(out, "wallentowitz2018-multicast.csv"), "w").write("bytes,overhead_sw,overhead_hw,cycles_sw,cycles_hw\n" + "\n".join(rows) + "\n")
# ---- 2. collectives
algs = {"bcast": "namp_multicast static_route linear binomial scatter_allgather",
        "scatter": "namp_scatter linear binomial", "gather": "namp_gather linear binomial",
        "reduce": "namp_reduce mesh_tree linear binomial",
        "allreduce": "namp_reduce_multicast mesh_reduce_bcast linear reduce_bcast recursive_doubling ring rabenseifner"}
csv = ["chip,ranks,collective,bytes,algorithm,ran,cycles,link_conflicts,link_conflict_cycles"]
for chip in chips:
    preset, ranks = chip.split(":")
    md.append(f"\n{preset}, {ranks} ranks, namp adapter, one call (cycles / link conflicts; best software = the fastest other algorithm):\n")
    md.append("| collective | bytes | offload | best software | cycles | offload vs best |")
    md.append("|---|---|---|---|---|---|")
    for coll, names in algs.items():
        for s in sizes:
            res = {}
            for a in names.split():
                r = rep(f"cc_{preset}_{coll}_{s}_{a}")
                if not r: continue
                ranname = next(iter(r["chosen"].get(coll, {a: 0})))
                net = r["network"]
                res[a] = (r["total_cycles"], net["link_conflicts"], ranname)
                csv.append(f"{preset},{ranks},{coll},{s},{a},{ranname},{r['total_cycles']},{net['link_conflicts']},{net['link_conflict_cycles']}")
            hw = names.split()[0]
            sw = [(c, k, a, ran) for a, (c, k, ran) in res.items() if a != hw]
            if hw not in res or not sw: continue
            c, k, a, ran = min(sw)
            label = a if ran == a else f"{a} (ran {ran})"
            md.append(f"| {coll} | {s} | {res[hw][0]} / {res[hw][1]} | {label} | {c} / {k} | {pct(res[hw][0], c)} |")
open(os.path.join(out, "wallentowitz2018-cc.csv"), "w").write("\n".join(csv) + "\n")
open(os.path.join(out, "wallentowitz2018-cc.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
echo "wallentowitz2018-cc: $(( $(date +%s) - start )) s"
