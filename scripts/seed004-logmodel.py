#!/usr/bin/env python3
"""The LOG (latency, occupancy, grain size) model of [Lee 1999] §7.2.1 for LIFE on 8x8 cells:

    T = G * [n * C_cell + 4 * (1 + sqrt(n)) * (k_o + 2 * v_o) + max(0, k_l - s)]

for n = 64, 16, 4, 1 cells per node (P = 1, 4, 16, 64 nodes), G generations, beside tilempi's
simulated LIFE (apps/seed004/life.c on the mmachine adapter and preset).

usage: seed004-logmodel.py [--measured FILE] [--out PREFIX] [--c-cell 35] [--k-o 5] [--v-o 1]
                           [--k-l 11] [--generations 1000]
  FILE: lines "P cycles" of LIFE run with --compute none (communication only); C_cell * n per
  generation is added for the cells' computation, which that run does not charge.
  PREFIX: writes PREFIX.md (table), PREFIX.dat and PREFIX.gp (gnuplot; PREFIX.png if gnuplot runs).
Without --measured it prints the model's table only.
"""
import argparse
import math
import os
import shutil
import subprocess


def log_model(n, c_cell, k_o, v_o, k_l, gens):
    # §7.2.1: slack 78 cycles with one cell per node (6 beyond 8 injections), else about 33.
    s = 78 if n == 1 else 33
    return gens * (n * c_cell + 4 * (1 + math.sqrt(n)) * (k_o + 2 * v_o) + max(0, k_l - s))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--measured")
    ap.add_argument("--out")
    ap.add_argument("--c-cell", type=float, default=35)
    ap.add_argument("--k-o", type=float, default=5)
    ap.add_argument("--v-o", type=float, default=1)
    ap.add_argument("--k-l", type=float, default=11)
    ap.add_argument("--generations", type=int, default=1000)
    a = ap.parse_args()
    procs = [1, 4, 16, 64]
    thesis_speedup = {1: "1", 4: "about 4", 16: "more than 8", 64: "12"}  # §7.2.2, measured on msim
    measured = {}
    if a.measured:
        for line in open(a.measured):
            p, c = line.split()
            measured[int(p)] = int(c)
    rows = []
    base_model = a.generations * 64 * a.c_cell  # one node: no messages (the torus is its own)
    for p in procs:
        n = 64 // p
        t = log_model(n, a.c_cell, a.k_o, a.v_o, a.k_l, a.generations) if p > 1 else base_model
        sim = measured.get(p)
        total = sim + a.generations * n * a.c_cell if sim is not None else None
        rows.append((p, n, t, base_model / t, sim, total))
    base_sim = rows[0][5]
    out = []
    out.append("| nodes P | cells per node n | LOG model T (cycles) | model speedup | thesis's measured speedup | "
               "tilempi communication (cycles) | tilempi + n C_cell (cycles) | tilempi speedup |")
    out.append("|---|---|---|---|---|---|---|---|")
    for p, n, t, sp, sim, total in rows:
        tsp = f"{base_sim / total:.1f}" if total and base_sim else "–"
        out.append(f"| {p} | {n} | {t:.0f} | {sp:.1f} | {thesis_speedup[p]} | "
                   f"{sim if sim is not None else '–'} | {total if total is not None else '–'} | {tsp} |")
    out.append("")
    out.append(f"LOG model: C_cell = {a.c_cell:g}, k_o = {a.k_o:g}, v_o = {a.v_o:g}, k_l = {a.k_l:g}, slack 78 "
               f"(n = 1) or 33, {a.generations} generations; P = 1 sends nothing (T = G n C_cell).")
    text = "\n".join(out) + "\n"
    print(text, end="")
    if a.out:
        with open(a.out + ".md", "w") as f:
            f.write(text)
        with open(a.out + ".dat", "w") as f:
            f.write("# P model_speedup tilempi_speedup\n")
            for p, n, t, sp, sim, total in rows:
                f.write(f"{p} {sp:.3f} {base_sim / total if total and base_sim else 0:.3f}\n")
        name = os.path.basename(a.out)
        with open(a.out + ".gp", "w") as f:
            f.write(f"""set terminal pngcairo size 640,420
set output '{name}.png'
set title 'LIFE on 8x8 cells: speedup over one node ([Lee 1999] 7.2)'
set xlabel 'nodes'
set ylabel 'speedup'
set logscale x 2
set key top left
plot '{name}.dat' using 1:2 with linespoints title 'LOG model (thesis parameters)', \\
     '{name}.dat' using 1:3 with linespoints title 'tilempi (mmachine adapter, 8x8 mesh)', \\
     '-' using 1:2 with points pt 7 title 'thesis, measured'
4 4
16 8
64 12
e
""")
        if shutil.which("gnuplot"):
            subprocess.run(["gnuplot", name + ".gp"], cwd=os.path.dirname(os.path.abspath(a.out)), check=False)


if __name__ == "__main__":
    main()
