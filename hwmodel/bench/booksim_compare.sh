#!/usr/bin/env bash
# tilempi's flit and packet models beside BookSim 2 on the 8x8 reference configurations
# (presets booksim and booksim_speculative; BookSim's figures as in
# tests/hwmodel/test_booksim_fidelity.cpp), and the flit model beside BookSim's routing functions
# with 2 VCs (tests/hwmodel/test_booksim_routing.cpp). Prints a markdown table per curve and, with gnuplot,
# draws the four latency-load curves side by side.
#
#   hwmodel/bench/booksim_compare.sh [path/to/tilempi-noc] [out-dir]
set -euo pipefail
noc=${1:-build/bin/tilempi-noc}
out=${2:-.}
mkdir -p "$out"

# curve: preset, flits, then offered:booksim_latency ... ; overload accepted at 0.5 and 1.0
curves=(
  "booksim 1 0.01:33.54 0.02:33.67 0.05:34.75 0.08:36.58 0.10:38.90 0.12:47.27 0.14:1332.71 0.16:3816.64 | 0.1282 0.1282"
  "booksim 5 0.01:38.58 0.02:39.31 0.05:41.34 0.08:45.60 0.10:52.90 0.12:82.72 0.14:964.08 0.16:3227.48 | 0.1341 0.1336"
  "booksim_speculative 1 0.01:20.82 0.02:20.78 0.05:20.88 0.08:20.99 0.10:21.04 0.12:21.13 0.14:21.27 0.16:21.38 0.18:21.65 0.20:21.98 0.22:22.43 0.24:23.49 0.26:29.74 0.28:457.17 0.30:1443.73 | 0.2732 0.2732"
  "booksim_speculative 5 0.01:25.76 0.02:26.06 0.05:26.79 0.08:27.98 0.10:28.61 0.12:29.88 0.14:31.65 0.16:36.16 0.18:47.03 0.20:205.54 0.22:1359.51 | 0.2049 0.2051"
)

run() {  # preset flits rate model -> "latency accepted"
  "$noc" --preset "$1" --packet-size $(($2 - 1)) --rate "$3" --warmup 5000 --cycles 15000 --seed 1 \
    --set network_model="$4" --drain 100000 |
    awk '/^Packet latency average/ {l=$5} /^Accepted load/ {a=$4} END {printf "%s %s", l, a}'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.1f %%", 100 * (a - b) / b}'; }

for c in "${curves[@]}"; do
  read -r preset flits rest <<<"${c%%|*}"
  read -r acc05 acc10 <<<"${c##*|}"
  name="${preset}_${flits}flit"
  echo
  echo "### $preset, $flits-flit packets"
  echo
  echo "| offered | BookSim latency | flit model | diff | packet model | diff |"
  echo "|---|---|---|---|---|---|"
  : >"$out/$name.dat"
  for p in $rest; do
    rate=${p%%:*}
    bs=${p##*:}
    read -r lf af <<<"$(run "$preset" "$flits" "$rate" flit)"
    read -r lp ap <<<"$(run "$preset" "$flits" "$rate" packet)"
    printf "| %s | %s | %.2f | %s | %.2f | %s |\n" "$rate" "$bs" "$lf" "$(pct "$lf" "$bs")" "$lp" "$(pct "$lp" "$bs")"
    echo "$rate $bs $lf $lp" >>"$out/$name.dat"
  done
  for r in 0.5 1.0; do
    want=$acc05
    [ "$r" = 1.0 ] && want=$acc10
    read -r lf af <<<"$(run "$preset" "$flits" "$r" flit)"
    read -r lp ap <<<"$(run "$preset" "$flits" "$r" packet)"
    printf "| accepted at %s | %s | %.4f | %s | %.4f | %s |\n" "$r" "$want" "$af" "$(pct "$af" "$want")" "$ap" \
      "$(pct "$ap" "$want")"
  done
done

# BookSim's routing functions with 2 VCs (../shared/reference/booksim-routing-8x8.md; the same figures as
# tests/hwmodel/test_booksim_routing.cpp): the booksim preset with vcs=2 vcs_per_class=2 and BookSim's
# separable input-first allocators, flit model only (the packet model routes XY only).
# curve: tilempi routing, pattern, then offered:booksim_latency ... | saturated load and BookSim's accepted there
routing_curves=(
  "xy uniform 0.02:38.5607 0.05:38.8936 0.1:40.085 0.15:41.5006 0.2:43.7761 0.25:50.3949 | 0.35 0.300485"
  "xy transpose 0.02:38.909 0.05:39.4031 0.1:41.6832 0.15:214.116 | 0.2 0.175994"
  "o1turn uniform 0.02:38.6276 0.05:39.9643 0.1:42.2551 0.15:46.3971 0.2:59.0764 | 0.25 0.240629"
  "o1turn transpose 0.02:39.1521 0.05:39.9985 0.1:44.5009 | 0.15 0.147719"
  "romm uniform 0.02:38.8468 0.05:40.5056 0.1:44.9328 | 0.15 0.145458"
  "romm transpose 0.02:39.4666 0.05:41.2357 0.1:70.9805 | - -"
)
routed() {  # routing pattern rate -> "latency accepted"
  "$noc" --preset booksim --packet-size 4 --rate "$3" --pattern "$2" --warmup 5000 --cycles 15000 --seed 1 \
    --drain 100000 --set "vcs=2,vcs_per_class=2,vc_allocator=separable_input_first,sw_allocator=separable_input_first,routing=$1" |
    awk '/^Packet latency average/ {l=$5} /^Accepted load/ {a=$4} END {printf "%s %s", l, a}'
}
for c in "${routing_curves[@]}"; do
  read -r routing pattern rest <<<"${c%%|*}"
  read -r sat_at sat_acc <<<"${c##*|}"
  echo
  echo "### routing=$routing, $pattern, 2 VCs, 5-flit packets"
  echo
  echo "| offered | BookSim latency | flit model | diff |"
  echo "|---|---|---|---|"
  for p in $rest; do
    read -r lf af <<<"$(routed "$routing" "$pattern" "${p%%:*}")"
    printf "| %s | %s | %.2f | %s |\n" "${p%%:*}" "${p##*:}" "$lf" "$(pct "$lf" "${p##*:}")"
  done
  if [ "$sat_at" != - ]; then
    read -r lf af <<<"$(routed "$routing" "$pattern" "$sat_at")"
    printf "| accepted at %s | %s | %.4f | %s |\n" "$sat_at" "$sat_acc" "$af" "$(pct "$af" "$sat_acc")"
  fi
done

if command -v gnuplot >/dev/null; then
  gnuplot <<EOF
set terminal pngcairo size 1000,700 font "sans,10"
set output "$out/booksim_compare.png"
set multiplot layout 2,2 title "8x8 mesh, uniform traffic, 1 VC, 4-flit buffers: BookSim 2 and tilempi"
set xlabel "offered load (flits/node/cycle)"
set ylabel "mean packet latency (cycles)"
set key top left
set grid
set yrange [0:*]
do for [f in "booksim_1flit booksim_5flit booksim_speculative_1flit booksim_speculative_5flit"] {
  set title f noenhanced
  set yrange [0:(strstrt(f, "speculative") ? 60 : 120)]
  plot "$out/".f.".dat" using 1:2 with linespoints pt 7 title "BookSim 2", \
       "" using 1:3 with linespoints pt 4 title "tilempi flit model", \
       "" using 1:4 with linespoints pt 2 dt 2 title "tilempi packet model"
}
unset multiplot
EOF
  echo
  echo "plot: $out/booksim_compare.png"
fi
