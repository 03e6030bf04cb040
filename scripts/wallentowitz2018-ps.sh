#!/usr/bin/env bash
# [Wallentowitz 2018] §3.6.3's scenario on tilempi's namp adapter: a chain of three tasks (ranks
# 0 -> 1 -> 2 on tiles 0, 1 and 4 of the optimsoc 4x4 preset), rank 0 producing one 256-byte
# item every 2000 cycles, rank 1 forwarding each to rank 2; rank 1 moves to tile 10 at cycle
# 100000 (tilempirun --migrate 1:10@100000), by pausing its communication or by NAMP-PS
# protection switching (--set adapter.namp.migration=pause|ps). Reports each method's peak extra
# end-to-end latency, the items it delays, and the switchover (stop to resume) from the run
# report, for the task states (adapter.namp.migrate_state_bytes) of 4, 16 and 64 KiB.
# docs/EXPERIMENTS.md, "NAMP-PS", shows the result.
#   scripts/wallentowitz2018-ps.sh [BUILD_DIR]
# Environment: BIN (use the programs there, do not build), OUT (default docs/figures), SWEEP_DIR
# (the runs, default BUILD_DIR/sweeps/wallentowitz2018-ps).
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
  cmake --build "$build" -j"$(nproc)" --target tilempirun tilempi-simhost sim_migrate_chain tilempi-sweep >/dev/null
fi
sweep_init "$build" "$bin"
# Each run a configuration of the sweep: its report runs/ID.json, its output runs/ID.log.
tmp=$sweep_dir/runs/runs
mkdir -p "$tmp"
for state in 4096 16384 65536; do
  for m in pause ps; do
    sweep_add runs "${m}_$state" --output "$tmp/${m}_$state.json" -- "$bin/tilempirun" -n 3 --transport sim \
      --preset optimsoc --adapter namp --compute none --set sim.summary=0 \
      --set adapter.namp.migration=$m --set adapter.namp.migrate_state_bytes=$state --migrate 1:10@100000 \
      --report "$tmp/${m}_$state.json" "$bin/sim_migrate_chain" 200 2000 256 -v
  done
done
sweep_run "$(nproc)"
python3 - "$tmp" "$out" <<'PY'
import json, os, re, sys
tmp, out = sys.argv[1], sys.argv[2]
def run(m, state):
    text = open(os.path.join(tmp, f"{m}_{state}.log")).read()
    s = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", re.search(r"chain:.*", text).group(0)))
    s["lat"] = [int(v) for v in re.findall(r"item \d+ latency (\d+)", text)]
    r = json.load(open(os.path.join(tmp, f"{m}_{state}.json")))
    mv = r["migrations"][0]
    s["stop"], s["resume"], s["requested"] = mv["stop"], mv["resume"], mv["requested"]
    s["stats"] = r["adapter_stats"]
    return s
md = ["Chain 0 -> 1 -> 2 (optimsoc, namp), rank 1 moved from tile 1 to tile 10 at cycle 100000; "
      "latencies in cycles from an item's due cycle to its receipt at rank 2 (200 items, one per 2000 cycles):\n",
      "| task state | method | base | peak | extra latency | items delayed | stop - request | switchover (stop to resume) | protocol |",
      "|---|---|---|---|---|---|---|---|---|"]
res = {}
for state in (4096, 16384, 65536):
    for m in ("pause", "ps"):
        s = run(m, state)
        res[(m, state)] = s
        st = s["stats"]
        proto = f"{st['suspends']} SUSPEND" if m == "pause" else f"{st['nak_relocs']} NAK_RELOC"
        md.append(f"| {state // 1024} KiB | {m} | {s['base']} | {s['peak']} | {s['extra']} | {s['affected']} | "
                  f"{s['stop'] - s['requested']} | {s['resume'] - s['stop']} | {proto} |")
    p, q = res[("pause", state)], res[("ps", state)]
    md.append(f"| {state // 1024} KiB | ps against pause | | | {100.0 * (q['extra'] - p['extra']) / p['extra']:+.1f} % | "
              f"{q['affected'] - p['affected']:+d} | | {q['resume'] - q['stop'] - (p['resume'] - p['stop']):+d} | |")
p, q = res[("pause", 16384)], res[("ps", 16384)]
first = min(i for i, (a, b) in enumerate(zip(p["lat"], q["lat"])) if a > p["base"] or b > q["base"]) - 1
md += ["", "The transient with a 16 KiB task state (items around the migration):\n",
       "| item | pause | ps |", "|---|---|---|"]
for i in range(max(0, first), min(len(p["lat"]), first + 6)):
    md.append(f"| {i} | {p['lat'][i]} | {q['lat'][i]} |")
open(os.path.join(out, "wallentowitz2018-ps.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
