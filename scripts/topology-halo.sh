#!/usr/bin/env bash
# Regenerates the table of docs/EXPERIMENTS.md, "Process topologies on the mesh": a halo exchange
# (tests/conformance/topology_halo.c) of a 2-D 5-point and a 3-D 27-point stencil on 49 and 64
# ranks of the TilePro64 (udn adapter, --compute none: communication only, deterministic), written
# with point-to-point and with MPI_Neighbor_alltoall (its linear and mesh_rounds algorithms), with
# and without reorder, the ranks placed row-major or scattered over the chip (a fixed shuffle of
# the tiles). The energy, link conflicts and delayed packets are the exchanges' own: those of the
# same job without its exchanges (0 iterations: the topology's creation, barriers, reductions)
# are subtracted (energy per exchange: the difference over the N + 1 exchanges, warm-up
# included). Prints the table, writes it between the page's markers, and draws the modeled time
# of the 4 KiB exchanges per stencil: docs/figures/topology-halo-{5,27}.{dat,gp,png} (the .png
# when gnuplot is there; `gnuplot NAME.gp` re-renders it).
#   scripts/topology-halo.sh [BUILD_DIR]     (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
run=$build/bin/tilempirun
prog=$build/bin/conformance_topology.halo.5_p2p_reorder_1
page=$root/docs/EXPERIMENTS.md
sizes="256 4096"
iterations=10
table=$(mktemp)
log=$(mktemp)
trap 'rm -f "$table" "$log" "$log".*' EXIT
# The scattered placement: the tiles of the 8x8 chip in a fixed pseudo-random order (seed 41).
scattered() { python3 -c "import random; t=list(range(64)); random.Random(41).shuffle(t); print(','.join(map(str, t[:$1])))"; }
{
  echo "| stencil | ranks | placement | reorder | exchange | bytes | modeled us / iteration | uJ / exchange | link conflicts | packets delayed |"
  echo "|---|---:|---|---:|---|---:|---:|---:|---:|---:|"
  for stencil in 5 27; do
    for ranks in 49 64; do
      for placement in row-major scattered; do
        map=()
        [ "$placement" = scattered ] && map=(--set "mapping=list:$(scattered "$ranks")")
        for reorder in 0 1; do
          for exchange in p2p neighbor:linear neighbor:mesh_rounds; do
            method=${exchange%%:*}
            coll=()
            [ "$method" = neighbor ] && coll=(--coll "neighbor_alltoall=${exchange#*:}")
            for bytes in $sizes; do
              for iters in 0 "$iterations"; do
                "$run" -n "$ranks" --transport sim --compute none "${map[@]}" "${coll[@]}" "$prog" \
                  "$stencil" "$method" reorder "$reorder" bytes "$bytes" iterations "$iters" > "$log.$iters" 2>&1
              done
              us=$(sed -n 's/.*us_per_iteration=\([0-9.]*\).*/\1/p' "$log.$iterations")
              set -- $(sed -n 's/.* \([0-9]*\) link conflicts (\([0-9]*\) packets delayed).*/\1 \2/p' "$log.0") \
                     $(sed -n 's/.* \([0-9]*\) link conflicts (\([0-9]*\) packets delayed).*/\1 \2/p' "$log.$iterations")
              e0=$(sed -n 's/.*; energy \([0-9.e+-]*\) uJ.*/\1/p' "$log.0")
              e1=$(sed -n 's/.*; energy \([0-9.e+-]*\) uJ.*/\1/p' "$log.$iterations")
              energy=$(awk -v a="${e0:-0}" -v b="${e1:-0}" -v n="$iterations" 'BEGIN { printf "%.3f", (b - a) / (n + 1) }')
              echo "| $stencil-point | $ranks | $placement | $reorder | ${exchange/neighbor:/neighbor } | $bytes | $us | $energy | $(($3 - $1)) | $(($4 - $2)) |"
            done
          done
        done
      done
    done
  done
} > "$table"
cat "$table"
python3 - "$page" "$table" "$root/docs/figures" <<'PY'
import pathlib, shutil, subprocess, sys
page, table = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).read_text()
figures = pathlib.Path(sys.argv[3])
rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
exchanges = ["p2p", "neighbor linear", "neighbor mesh_rounds"]
for stencil in ("5", "27"):
    name = f"topology-halo-{stencil}"
    cases = []
    for r in rows:
        if r[0] == f"{stencil}-point" and r[5] == "4096":
            case = f"{r[1]} {r[2]}" + (" reorder" if r[3] == "1" else "")
            if case not in cases:
                cases.append(case)
    with open(figures / f"{name}.dat", "w") as f:
        f.write(f"# {stencil}-point halo exchange, 4 KiB blocks: modeled us per iteration; columns: case " + ", ".join(exchanges) + "\n")
        for case in cases:
            ranks, placement, *reorder = case.split()
            vals = [next(r[6] for r in rows if r[0] == f"{stencil}-point" and r[1] == ranks and r[2] == placement and
                         r[3] == ("1" if reorder else "0") and r[4] == e and r[5] == "4096") for e in exchanges]
            f.write(f'"{case}" ' + " ".join(vals) + "\n")
    (figures / f"{name}.gp").write_text(f'''# re-render: gnuplot {name}.gp
set terminal pngcairo size 900,500 enhanced font 'Sans,10'
set output "{name}.png"
set title "{stencil}-point halo exchange, 4 KiB blocks (sim, tilepro64 preset, udn adapter, --compute none)"
set ylabel 'modeled time per iteration (us)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key top left
set xtics rotate by -25
plot "{name}.dat" using 2:xtic(1) title 'point-to-point', '' using 3 title 'MPI\\_Neighbor\\_alltoall, linear', '' using 4 title 'MPI\\_Neighbor\\_alltoall, mesh\\_rounds'
''')
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", f"{name}.gp"], cwd=figures, check=True)
begin, end = "<!-- generated by scripts/topology-halo.sh -->\n", "<!-- end generated by scripts/topology-halo.sh -->\n"
text = page.read_text()
if begin in text:
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    page.write_text(head + begin + table + end + tail)
PY
