#!/usr/bin/env bash
# tilempi's flit and packet models beside BookSim 2 on the 8x8 reference configurations
# (presets booksim and booksim_speculative; BookSim's figures as in
# tests/hwmodel/test_booksim_fidelity.cpp). Prints a markdown table per curve and, with gnuplot,
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
