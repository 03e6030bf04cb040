#!/bin/sh
# check_bench_selected.sh TILEMPI_BENCH
# tilempi-bench's CSV names what ran: allgather=recursive_doubling on 3 ranks (not a power of two)
# runs its fallback bruck, on 4 ranks itself.
set -u
bench="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" -a allgather=recursive_doubling --ranks 3,4 --sizes 8 --transport host --trials 2 --csv "$tmp/b.csv" -q ||
  { echo "tilempi-bench failed"; exit 1; }
cat "$tmp/b.csv"
# Columns 5, 7, 8, 9: ranks, collective, algorithm, selected.
got=$(cut -d, -f5,7,8,9 "$tmp/b.csv" | grep '^[34],' | sort)
want="3,allgather,recursive_doubling,bruck
4,allgather,recursive_doubling,recursive_doubling"
[ "$got" = "$want" ] || { echo "selected column: got"; echo "$got"; echo "want"; echo "$want"; exit 1; }
echo "check_bench_selected: ok"
