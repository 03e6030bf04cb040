#!/usr/bin/env bash
# Two builds of tilempi-noc give the same modeled cycles: runs both on a set of configurations
# (1, 2 and 4 VCs, both BookSim presets and the project's own, every routing function, both
# allocators, loads below, near and past saturation, one-step worms, a torus, two networks) and
# compares the printed summary, the JSON results and the per-packet CSV byte for byte. A speed
# change to the flit model must leave every one of them unchanged. The JSON is compared without
# `router_activations`: the count of router activations is the simulator's work, not the chip's
# (GoldenCycles leaves it out too), and a change of which routers the model wakes moves it alone.
#
# --unordered-csv compares the per-packet CSV as a set of rows: its rows come in the order the
# packets were delivered, so a change of the order in which one cycle's events are reported
# (not of any packet's cycles) reorders rows of the same cycle and nothing else.
#
#   hwmodel/bench/noc_same_cycles.sh [--unordered-csv] OLD/tilempi-noc NEW/tilempi-noc
# Exit status: 0 all the same, 1 some differ (named), 2 usage.
set -uo pipefail
command -v jq >/dev/null || { echo "noc_same_cycles.sh: needs jq to compare the JSON results (apt-get install jq)" >&2; exit 2; }
unordered_csv=0
if [ "${1:-}" = --unordered-csv ]; then
  unordered_csv=1
  shift
fi
if [ $# -ne 2 ]; then
  echo "usage: $0 [--unordered-csv] OLD/tilempi-noc NEW/tilempi-noc" >&2
  exit 2
fi
old=$1
new=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sep="vc_allocator=separable_input_first,sw_allocator=separable_input_first"
configs=()
for rate in 0.1 0.3 0.6; do
  for preset in booksim booksim_speculative; do
    configs+=("--preset $preset --packet-size 4 --rate $rate")
    configs+=("--preset $preset --packet-size 0 --rate $rate")
    configs+=("--preset $preset --packet-size 4 --rate $rate --set vcs=2,vcs_per_class=2,$sep")
    configs+=("--preset $preset --packet-size 4 --rate $rate --set vcs=4,vcs_per_class=4,$sep")
    configs+=("--preset $preset --packet-size 4 --rate $rate --set vcs=4,vcs_per_class=4")
    configs+=("--preset $preset --packet-size 4 --rate $rate --pattern transpose --set vcs=2,vcs_per_class=2,$sep,input_buffer_flits=8")
  done
  for routing in yx o1turn romm valiant min_adaptive; do
    configs+=("--preset booksim --packet-size 4 --rate $rate --set vcs=2,vcs_per_class=2,$sep,routing=$routing")
  done
  for routing in west_first odd_even; do
    configs+=("--preset booksim --packet-size 4 --rate $rate --set routing=$routing")
    configs+=("--preset booksim_speculative --packet-size 4 --rate $rate --pattern transpose --set routing=$routing")
  done
  configs+=("--preset booksim --packet-size 4 --rate $rate --pattern bitcomp --set vcs=2,vcs_per_class=2,input_buffer_flits=8")
  configs+=("--preset default --packet-size 4 --rate $rate")
  configs+=("--preset default --packet-size 4 --rate $rate --set vcs=2,vcs_per_class=1,torus=true")
  configs+=("--preset tilepro64 --packet-size 128 --rate $rate")
  configs+=("--preset tilepro64 --packet-size 128 --rate $rate --set fast_worms=true")
  configs+=("--preset tilepro64 --packet-size 16 --rate $rate --pattern hotspot --set fast_worms=true,injection_credit_delay=2")
  configs+=("--preset optimsoc --packet-size 8 --rate $rate --pattern tornado")
  configs+=("--preset mmachine --packet-size 4 --rate $rate --pattern neighbor")
  configs+=("--preset default --packet-size 4 --rate $rate --mesh 16x16 --set vcs=2,vcs_per_class=2,$sep")
done

differ=0
k=0
for c in "${configs[@]}"; do
  k=$((k + 1))
  for side in old new; do
    bin=$old
    [ $side = new ] && bin=$new
    # shellcheck disable=SC2086
    "$bin" $c --warmup 1000 --cycles 4000 --drain 20000 --seed 3 --json "$tmp/$side.json" \
      --packets-csv "$tmp/$side.csv" >"$tmp/$side.txt" 2>&1
    echo "exit $?" >>"$tmp/$side.txt"
    jq -S 'walk(if type == "object" then del(.router_activations) else . end)' "$tmp/$side.json" >"$tmp/$side.cmp.json" 2>&1
    if [ $unordered_csv = 1 ]; then
      # (the header first, then the rows sorted)
      { head -n 1 "$tmp/$side.csv"; tail -n +2 "$tmp/$side.csv" | LC_ALL=C sort; } >"$tmp/$side.cmp.csv"
    else
      cp "$tmp/$side.csv" "$tmp/$side.cmp.csv"
    fi
  done
  if ! cmp -s "$tmp/old.txt" "$tmp/new.txt" || ! cmp -s "$tmp/old.cmp.json" "$tmp/new.cmp.json" ||
    ! cmp -s "$tmp/old.cmp.csv" "$tmp/new.cmp.csv"; then
    echo "DIFFERENT: $c"
    differ=1
  fi
done
echo "$k configurations: $([ $differ = 0 ] && echo "all the same" || echo "some differ")"
exit $differ
