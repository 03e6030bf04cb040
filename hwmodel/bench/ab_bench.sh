#!/usr/bin/env bash
# A B A B of two builds' tilempi_hwmodel_bench in the same minutes: PAIRS pairs of runs (default 4),
# then per benchmark row the median of each build's router-cycles per CPU second, and the median of
# the pairwise ratios new / old (the machine is shared and noisy: the ratio of runs taken side by
# side is the measure, not either figure alone).
#
#   hwmodel/bench/ab_bench.sh OLD_BUILD NEW_BUILD [FILTER] [PAIRS] [MIN_TIME]
# FILTER defaults to the BookSim rows of the flit model (BookSimPipeline with packet_model:0 and
# BookSimVcs); each build needs bin/tilempi_hwmodel_bench with those rows.
set -euo pipefail
old=$1
new=$2
filter=${3:-'BookSimPipeline/.*/packet_model:0|BookSimVcs'}
pairs=${4:-4}
min_time=${5:-0.3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((p = 1; p <= pairs; p++)); do
  for side in old new; do
    dir=$old
    [ $side = new ] && dir=$new
    "$dir/bin/tilempi_hwmodel_bench" --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
      --benchmark_format=json 2>/dev/null >"$tmp/$side.$p.json"
  done
  echo "pair $p done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
python3 - "$tmp" "$pairs" <<'EOF'
import json, statistics, sys
tmp, pairs = sys.argv[1], int(sys.argv[2])
def rate(path):
    return {b['name']: b['router_cycles/s'] for b in json.load(open(path))['benchmarks'] if 'router_cycles/s' in b}
old = [rate(f"{tmp}/old.{p}.json") for p in range(1, pairs + 1)]
new = [rate(f"{tmp}/new.{p}.json") for p in range(1, pairs + 1)]
print("| benchmark | old M router-cycles/s (median) | new (median) | new / old, median of pairs (range) |")
print("|---|---|---|---|")
for name in old[0]:
    o = [r[name] / 1e6 for r in old if name in r]
    n = [r[name] / 1e6 for r in new if name in r]
    q = [b / a for a, b in zip(o, n)]
    print(f"| {name.replace('BM_', '')} | {statistics.median(o):.3g} | {statistics.median(n):.3g} | "
          f"{statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f}) |")
EOF
