#!/usr/bin/env python3
"""The LOG (latency, occupancy, grain size) model of [Lee 1999] §7.2.1 for LIFE on 8x8 cells:

    T = G * [n * C_cell + 4 * (1 + sqrt(n)) * (k_o + 2 * v_o) + max(0, k_l - s)]

for n = 64, 16, 4, 1 cells per node (P = 1, 4, 16, 64 nodes), G generations, beside tilempi's
simulated LIFE (apps/lee1999/life.c on the mmachine adapter and preset, each cell charged C_cell
cycles with TILEMPIX_Compute, --compute none).

usage: lee1999-logmodel.py [--measured FILE] [--sweep FILE] [--out PREFIX] [--c-cell 35]
                           [--k-o 5] [--v-o 1] [--k-l 11] [--generations 1000]
  --measured FILE: lines "P cycles [ideal_cycles]": LIFE's cycles on P tiles of the 8x8 mesh
      (and on the zero-latency, fully connected network of §6.3, the model's assumption).
  --sweep FILE: lines "latency|occupancy P added cycles": LIFE with `added` cycles of latency
      (adapter.mmachine.added_latency_cycles, Figure 7-11) or of occupancy after each SEND
      (adapter.mmachine.send_stall_cycles, Figure 7-13); the model takes k_l = 11 + added or
      k_o = 5 + added.
  --out PREFIX: writes PREFIX.md (tables), PREFIX.dat and PREFIX.gp (speedups),
      PREFIX-latency.{dat,gp}, PREFIX-occupancy.{dat,gp}, PREFIX-speedup.{dat,gp} (Figure 7-12),
      and the .png files if gnuplot runs.
Without --measured it prints the model's table only.
"""
import argparse
import math
import os
import shutil
import subprocess

PROCS = [1, 4, 16, 64]
THESIS_SPEEDUP = {1: "1", 4: "about 4", 16: "more than 8", 64: "12"}  # §7.2.2, measured on msim


def slack(n):
    # §7.2.1: 78 cycles with one cell per node (6 beyond 8 injections), else about 33.
    return 78 if n == 1 else 33


def log_model(p, a, k_o=None, k_l=None):
    """T in cycles for P nodes; P = 1 sends nothing (the torus is its own): T = G n C_cell."""
    k_o = a.k_o if k_o is None else k_o
    k_l = a.k_l if k_l is None else k_l
    n = 64 // p
    if p == 1:
        return a.generations * n * a.c_cell
    return a.generations * (n * a.c_cell + 4 * (1 + math.sqrt(n)) * (k_o + 2 * a.v_o) + max(0, k_l - slack(n)))


def gnuplot(prefix):
    name = os.path.basename(prefix)
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", name + ".gp"], cwd=os.path.dirname(os.path.abspath(prefix)), check=False)


def speedup_part(a, measured):
    rows = []
    for p in PROCS:
        sim, ideal = measured.get(p, (None, None))
        rows.append((p, 64 // p, log_model(p, a), sim, ideal))
    base_model = rows[0][2]
    base_sim = rows[0][3]
    base_ideal = rows[0][4]
    out = ["| nodes P | cells per node n | LOG model T (cycles) | model speedup | thesis's measured speedup | "
           "tilempi, 8x8 mesh (cycles) | tilempi speedup | tilempi, zero-latency network (cycles) | speedup |",
           "|---|---|---|---|---|---|---|---|---|"]

    def sp(base, v):
        return f"{base / v:.1f}" if base and v else "–"

    for p, n, t, sim, ideal in rows:
        out.append(f"| {p} | {n} | {t:.0f} | {base_model / t:.1f} | {THESIS_SPEEDUP[p]} | "
                   f"{sim if sim is not None else '–'} | {sp(base_sim, sim)} | "
                   f"{ideal if ideal is not None else '–'} | {sp(base_ideal, ideal)} |")
    out.append("")
    out.append(f"LOG model: C_cell = {a.c_cell:g}, k_o = {a.k_o:g}, v_o = {a.v_o:g}, k_l = {a.k_l:g}, slack 78 "
               f"(n = 1) or 33, {a.generations} generations; P = 1 sends nothing (T = G n C_cell). tilempi: the "
               f"same C_cell charged per cell (TILEMPIX_Compute), communication simulated.")
    if a.out:
        with open(a.out + ".dat", "w") as f:
            f.write("# P model_speedup tilempi_mesh_speedup tilempi_ideal_speedup\n")
            for p, n, t, sim, ideal in rows:
                f.write(f"{p} {base_model / t:.3f} {base_sim / sim if sim and base_sim else 0:.3f} "
                        f"{base_ideal / ideal if ideal and base_ideal else 0:.3f}\n")
        name = os.path.basename(a.out)
        with open(a.out + ".gp", "w") as f:
            f.write(f"""set terminal pngcairo size 640,420
set output '{name}.png'
set title 'LIFE on 8x8 cells: speedup over one node ([Lee 1999] 7.2)'
set xlabel 'nodes'
set ylabel 'speedup'
set logscale x 2
set key top left
plot '{name}.dat' using 1:2 with linespoints dt 2 title 'LOG model (thesis parameters)', \\
     '{name}.dat' using 1:3 with linespoints title 'tilempi (mmachine adapter, 8x8 mesh)', \\
     '{name}.dat' using 1:4 with linespoints title 'tilempi (zero-latency network)', \\
     '-' using 1:2 with points pt 7 title 'thesis, measured'
4 4
16 8
64 12
e
""")
        gnuplot(a.out)
    return out


def sweep_part(a, sweep):
    """Tables and figures of runtime against added latency and added occupancy."""
    out = []
    for kind, fig, xname, param in (("latency", "7-11", "added latency (cycles)", "k_l"),
                                    ("occupancy", "7-13", "added occupancy per message (cycles)", "k_o")):
        pts = sorted((p, x, c) for k, p, x, c in sweep if k == kind)
        if not pts:
            continue
        xs = sorted({x for _, x, _ in pts})
        ps = sorted({p for p, _, _ in pts})
        meas = {(p, x): c for p, x, c in pts}

        def model(p, x):
            return log_model(p, a, k_l=a.k_l + x) if kind == "latency" else log_model(p, a, k_o=a.k_o + x)

        base = a.generations * 64 * a.c_cell
        out.append(f"**Runtime against {xname}** (Figure {fig}; model {param} = "
                   f"{a.k_l if kind == 'latency' else a.k_o:g} + added), thousands of cycles for "
                   f"{a.generations} generations, model / tilempi; one node: {base / 1000:.0f}:")
        out.append("")
        out.append("| added | " + " | ".join(f"P = {p}" for p in ps) + " |")
        out.append("|---|" + "---|" * len(ps))
        for x in xs:
            cells = [f"{model(p, x) / 1000:.0f} / {meas[(p, x)] / 1000:.0f}" if (p, x) in meas else "–" for p in ps]
            out.append(f"| {x} | " + " | ".join(cells) + " |")
        out.append("")
        # Slope (cycles per added cycle) between the last two points, and the first added value at
        # which parallel LIFE is slower than one node.
        notes = []
        for p in ps:
            have = [x for x in xs if (p, x) in meas]
            if len(have) >= 2:
                def slopes(x0, x1):
                    return (f"{(meas[(p, x1)] - meas[(p, x0)]) / (x1 - x0):.0f} (model "
                            f"{(model(p, x1) - model(p, x0)) / (x1 - x0):.0f}) from {x0} to {x1}")
                # Where parallel LIFE gets slower than one node (linear between the points).
                cross = ""
                for xa, xb in zip(have, have[1:]):
                    ya, yb = meas[(p, xa)], meas[(p, xb)]
                    if ya <= base < yb:
                        cross = f"; slower than one node from about {xa + (base - ya) * (xb - xa) / (yb - ya):.0f} added"
                        break
                mcross = ""
                if kind == "occupancy":
                    n = 64 // p
                    per = 4 * (1 + math.sqrt(n))
                    x_model = (base / a.generations - n * a.c_cell - max(0, a.k_l - slack(n))) / per - 2 * a.v_o - a.k_o
                    mcross = f" (model: {x_model:.0f}, k_o = {a.k_o + x_model:.0f})"
                first = slopes(have[0], have[1])
                last = slopes(have[-2], have[-1]) if len(have) > 2 else ""
                notes.append(f"P = {p}: cycles per added cycle {first}" + (f", {last}" if last else "") + cross +
                             (mcross if cross else ""))
        out.append("; ".join(notes) + ".")
        out.append("")
        if a.out:
            prefix = f"{a.out}-{kind}"
            name = os.path.basename(prefix)
            with open(prefix + ".dat", "w") as f:
                f.write("# added " + " ".join(f"model_P{p} tilempi_P{p}" for p in ps) + "\n")
                for x in xs:
                    f.write(f"{x} " + " ".join(f"{model(p, x):.0f} {meas.get((p, x), 'NaN')}" for p in ps) + "\n")
            plots = []
            for i, p in enumerate(ps):
                plots.append(f"'{name}.dat' using 1:(${2 + 2 * i}/1000) with lines dt 2 lc {i + 1} "
                             f"title 'model P={p}'")
                plots.append(f"'{name}.dat' using 1:(${3 + 2 * i}/1000) with linespoints lc {i + 1} pt 7 "
                             f"title 'tilempi P={p}'")
            plots.append(f"{base / 1000:g} with lines lc rgb 'gray' title 'one node'")
            with open(prefix + ".gp", "w") as f:
                f.write(f"""set terminal pngcairo size 760,440
set output '{name}.png'
set title 'LIFE, 64 cells: runtime vs {kind} (Lee 1999, Fig. {fig}); dashed: LOG model' noenhanced
set xlabel '{xname}'
set ylabel 'thousands of cycles for {a.generations} generations'
set key outside right
plot {", ".join(plots)}
""")
            gnuplot(prefix)
    return out


def speedup_sweep_part(a, sweep):
    """Figure 7-12: speedup over one node against P, under added latency or occupancy."""
    base = a.generations * 64 * a.c_cell
    curves = []  # (kind, added): {P: cycles}
    for kind, xs in (("occupancy", (0, 25, 50, 100)), ("latency", (100, 200))):
        for x in xs:
            got = {p: c for k, p, xx, c in sweep if k == kind and xx == x}
            if got:
                curves.append((kind, x, got))
    if not curves:
        return []
    ps = [1] + sorted({p for _, _, got in curves for p in got})
    out = ["**Speedup over one node** (Figure 7-12), model / tilempi:", "",
           "| added | " + " | ".join(f"P = {p}" for p in ps[1:]) + " |", "|---|" + "---|" * (len(ps) - 1)]
    for kind, x, got in curves:
        cells = []
        for p in ps[1:]:
            m = base / (log_model(p, a, k_l=a.k_l + x) if kind == "latency" else log_model(p, a, k_o=a.k_o + x))
            cells.append(f"{m:.1f} / {base / got[p]:.1f}" if p in got else "–")
        out.append(f"| {x} cycles of {kind} | " + " | ".join(cells) + " |")
    out.append("")
    if a.out:
        prefix = f"{a.out}-speedup"
        name = os.path.basename(prefix)
        with open(prefix + ".dat", "w") as f:
            f.write("# P " + " ".join(f"model_{k}{x} tilempi_{k}{x}" for k, x, _ in curves) + "\n")
            for p in ps:
                row = [str(p)]
                for kind, x, got in curves:
                    m = log_model(p, a, k_l=a.k_l + x) if kind == "latency" else log_model(p, a, k_o=a.k_o + x)
                    row += [f"{base / m:.3f}", f"{base / got[p]:.3f}" if p in got else ("1" if p == 1 else "NaN")]
                f.write(" ".join(row) + "\n")
        plots = []
        for i, (kind, x, _) in enumerate(curves):
            plots.append(f"'{name}.dat' using 1:{2 + 2 * i} with lines dt 2 lc {i + 1} notitle")
            plots.append(f"'{name}.dat' using 1:{3 + 2 * i} with linespoints lc {i + 1} pt 7 title '+{x} {kind}'")
        with open(prefix + ".gp", "w") as f:
            f.write(f"""set terminal pngcairo size 760,440
set output '{name}.png'
set title 'LIFE, 64 cells: speedup (Lee 1999, Fig. 7-12); dashed: LOG model' noenhanced
set xlabel 'nodes'
set ylabel 'speedup over one node'
set logscale x 2
set xtics (1, 4, 16, 64)
set xrange [0.9:90]
set key outside right
plot {", ".join(plots)}
""")
        gnuplot(prefix)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--measured")
    ap.add_argument("--sweep")
    ap.add_argument("--out")
    ap.add_argument("--c-cell", type=float, default=35)
    ap.add_argument("--k-o", type=float, default=5)
    ap.add_argument("--v-o", type=float, default=1)
    ap.add_argument("--k-l", type=float, default=11)
    ap.add_argument("--generations", type=int, default=1000)
    a = ap.parse_args()
    measured = {}
    if a.measured:
        for line in open(a.measured):
            f = line.split()
            measured[int(f[0])] = (int(f[1]), int(f[2]) if len(f) > 2 else None)
    sweep = []
    if a.sweep:
        for line in open(a.sweep):
            k, p, x, c = line.split()
            sweep.append((k, int(p), int(x), int(c)))
    out = speedup_part(a, measured)
    if sweep:
        out.append("")
        out += sweep_part(a, sweep)
        out += speedup_sweep_part(a, sweep)
    text = "\n".join(out).rstrip() + "\n"
    print(text, end="")
    if a.out:
        with open(a.out + ".md", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
