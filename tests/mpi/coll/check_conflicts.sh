#!/bin/sh
# check_conflicts.sh TILEMPIRUN COLL_ONCE COLLECTIVE ALGORITHM BYTES zero|some
# Runs one collective on the sim transport (49 ranks, 7x7, --compute none: deterministic) and
# checks the run report's network.link_conflicts (packets whose head waited for a mesh link that
# another packet held): 0 for "zero", at least 1 for "some".
set -u
run="$1"; prog="$2"; coll="$3"; alg="$4"; bytes="$5"; want="$6"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$run" -n 49 --mesh 7x7 --transport sim --compute none --timeout 120 --report "$tmp/r.json" \
  --coll "$coll=$alg" "$prog" "$coll" "$bytes" 2>&1) || { echo "$out"; echo "run with $coll=$alg failed"; exit 1; }
echo "$out"
n=$(sed -n 's/^ *"link_conflicts": \([0-9][0-9]*\),*$/\1/p' "$tmp/r.json")
[ -n "$n" ] || { echo "no network.link_conflicts in the run report"; exit 1; }
echo "$coll=$alg, $bytes B, 49 ranks on 7x7: link_conflicts $n (want $want)"
case $want in
zero) [ "$n" -eq 0 ] ;;
some) [ "$n" -gt 0 ] ;;
*) echo "want zero or some"; exit 1 ;;
esac
